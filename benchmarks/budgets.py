"""Are budgets honoured on the hardest IPC problems?  Wall seconds, peak memory, exit status.

Usage::

    python benchmarks/budgets.py IPC_FOLDER [--only NAME ...]

IPC_FOLDER is the ``total-order/`` folder of a clone of the competition's public
repository, https://github.com/panda-planner-dev/ipc2020-domains (not shipped here).

Each case runs ``workbench plan hddl DOMAIN PROBLEM`` with its budgets in a child process
(a fresh interpreter, as a user runs it: start-up and reading the files count), and prints
the wall seconds from start to exit, the child's peak resident memory (``wait4``'s
``ru_maxrss``: that child alone) and its exit status.  A case is ``ok`` when it stopped the
way it was asked to: the status expected, within 1 s of its time budget (start-up
included) and, with a memory budget, within 10 % of it.  The cases are the problems that
ran past their budget or without bound before (docs/reference/search.md, "Budgets"):
Woodworking 30 (a 225-variable initial task network; 225 s and 5.8 GB at a 10 s budget
before), Freecell 13-1, Assembly and Factories (dives that held hundreds of MB), and the
last Monroe, Multiarm and Snake problems.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Case:
    name: str
    folder: str
    domain: str
    problem: str
    flags: tuple[str, ...]
    expect: tuple[int, ...]  # acceptable exit statuses

    def budget(self, flag: str) -> float | None:
        if flag not in self.flags:
            return None
        value = self.flags[self.flags.index(flag) + 1]
        return float(value.rstrip("M"))


CASES = (
    Case(
        "woodworking-30",
        "Woodworking",
        "domain.hddl",
        "30.hddl",
        ("--time-budget", "10"),
        (3,),
    ),
    Case(
        "freecell-13-1",
        "Freecell-Learned-ECAI-16",
        "domain.hddl",
        "probfreecell-13-1.hddl",
        ("--time-budget", "10"),
        (0, 3),
    ),
    Case(
        "assembly-30",
        "AssemblyHierarchical",
        "domain.hddl",
        "genericLinearProblem_depth30.hddl",
        ("--time-budget", "10"),
        (0, 3),
    ),
    Case(
        "factories-20",
        "Factories-simple",
        "domain.hddl",
        "pfile20.hddl",
        ("--time-budget", "10"),
        (0, 3),
    ),
    Case(
        "multiarm-10-100",
        "Multiarm-Blocksworld",
        "domain.hddl",
        "pfile_10_100.hddl",
        ("--time-budget", "10"),
        (0, 3),
    ),
    Case(
        "monroe-fo-20",
        "Monroe-Fully-Observable",
        "domain.hddl",
        "pfile20-p-0037-clear-road-hazard-4-tlt.hddl",
        ("--time-budget", "10"),
        (0, 3),
    ),
    Case("snake-20", "Snake", "domain.hddl", "pb20.snake.hddl", ("--time-budget", "10"), (0, 3)),
    # A memory budget alone, on the dive that grows (no time budget: it stops on memory).
    Case(
        "assembly-30-memory",
        "AssemblyHierarchical",
        "domain.hddl",
        "genericLinearProblem_depth30.hddl",
        ("--memory-budget", "300M"),
        (0, 3),
    ),
)


def _domain_file(folder: Path, case: Case) -> Path:
    """The case's domain file: most folders have one ``domain.hddl``; Monroe has one per
    problem (``...-domain.hddl``)."""
    path = folder / case.domain
    if path.is_file():
        return path
    own = folder / case.problem.replace(".hddl", "-domain.hddl")
    return own if own.is_file() else path


def run(case: Case, ipc: Path, hard_limit: float) -> tuple[int, float, float, str]:
    """(exit status, wall seconds, peak resident MB, last line of output) of one case."""
    folder = ipc / case.folder
    argv = [
        sys.executable,
        "-m",
        "workbench",
        "plan",
        "hddl",
        str(_domain_file(folder, case)),
        str(folder / case.problem),
        *case.flags,
    ]
    with tempfile.TemporaryFile() as out:
        t0 = time.monotonic()
        child = subprocess.Popen(argv, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > hard_limit:
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.02)
        wall = time.monotonic() - t0
        out.seek(0)
        text = out.read().decode(errors="replace").strip().splitlines()
    said = next((line for line in text if "gave up" in line or "plan found" in line), "")
    return os.waitstatus_to_exitcode(status), wall, usage.ru_maxrss / 1e3, said[:100]


def main() -> int:
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    cli = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    cli.add_argument("ipc", type=ipc_folder, help=WHERE)
    cli.add_argument("--only", action="append", help="only the case of this name")
    cli.add_argument(
        "--hard-limit", type=float, default=300.0, help="kill a case after this many seconds"
    )
    args = cli.parse_args()
    cases = [c for c in CASES if not args.only or c.name in args.only]
    print(f"{'case':20s} {'flags':24s} {'status':>6s} {'wall s':>7s} {'peak MB':>8s}  verdict")
    bad = 0
    for case in cases:
        status, wall, peak, said = run(case, args.ipc, args.hard_limit)
        seconds = case.budget("--time-budget")
        memory = case.budget("--memory-budget")
        ok = status in case.expect
        if seconds is not None:
            ok = ok and wall <= seconds + 1
        if memory is not None:
            ok = ok and peak <= memory * 1.1
        bad += not ok
        print(
            f"{case.name:20s} {' '.join(case.flags):24s} {status:6d} {wall:7.2f} {peak:8.0f}  "
            f"{'ok' if ok else 'NOT HONOURED'}  {said}",
            flush=True,
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
