"""The IPC 2020 total-order HDDL domains, which the HDDL benchmarks take as an argument.

The repository does not ship them (57 domain files and 624 problems): they are the
competition's public repository, cloned anywhere, and its ``total-order/`` folder is given
to a benchmark as its folder argument.  A folder that is not that is refused at once, in
one line that says where to get it, rather than after a run that found nothing.
"""

from __future__ import annotations

import argparse
from pathlib import Path

IPC_REPOSITORY = "https://github.com/panda-planner-dev/ipc2020-domains"
WHERE = f"the total-order/ folder of a clone of {IPC_REPOSITORY}"


def ipc_folder(text: str) -> Path:
    """An ``argparse`` type: a folder holding at least one domain folder of ``.hddl``
    files (the IPC's layout, one sub-folder per domain)."""
    path = Path(text)
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is not a folder; give {WHERE}")
    if not any(sub.is_dir() and any(sub.glob("*.hddl")) for sub in path.iterdir()):
        raise argparse.ArgumentTypeError(
            f"{text} holds no domain folders of .hddl files; give {WHERE}"
        )
    return path
