"""How long the knowledge store takes to read: ``KnowledgeStore.load``, ``domains()`` and
``workbench kb list``.

Run: ``.venv/bin/python benchmarks/store_load.py [--runs 30] [--copies 20]``.

A private store is made in a temporary directory and seeded with the bundled knowledge
(bridge, dinner, edaps, finesse), the HDDL example ``delivery`` (imported with its problem,
as ``workbench kb import`` does) and ``--copies`` copies of the EDAPS domain under other
names (a store a team has worked in for a while: ``kb list`` reads every domain).  Then:

* ``load NAME``: the median of ``--runs`` calls of ``store.load(NAME)`` in this process,
  warm (what every plan, edit and lint does first);
* ``domains()``: the median of ``--runs`` calls (names, revisions, descriptions, counts);
* ``kb list`` (process): the median of ``--runs // 3`` fresh ``workbench kb list``
  processes, spawn to exit, which is what a user waits for.

Times are milliseconds.  Compare two commits by running the script in each.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.cli import main as workbench  # noqa: E402
from workbench.kb.catalog import open_store  # noqa: E402


def median_ms(call: Callable[[], object], runs: int) -> float:
    """The median wall time of ``runs`` calls, in milliseconds."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def build(path: Path, copies: int) -> None:
    """The store the timings read (see the module docstring)."""
    store = open_store(path)
    edaps = store.export("edaps")
    examples = ROOT / "knowledge" / "hddl" / "examples"
    with contextlib.redirect_stdout(io.StringIO()):
        status = workbench(
            [
                "kb",
                "import",
                str(examples / "delivery-domain.hddl"),
                str(examples / "delivery-p1.hddl"),
                "--db",
                str(path),
            ]
        )
    if status != 0:
        raise SystemExit(f"importing the HDDL example failed ({status})")
    for n in range(copies):
        store.import_text(edaps, package="", path="edaps.toml", name=f"edaps_copy{n}")
    store.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--copies", type=int, default=20)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "kb.db"
        build(path, args.copies)
        store = open_store(path)
        rows: list[tuple[str, float]] = []
        names = [d.name for d in store.domains()]
        for name in ("dinner", "bridge", "edaps", "delivery"):
            store.load(name)  # warm
            rows.append((f"load {name}", median_ms(functools.partial(store.load, name), args.runs)))
        rows.append(("domains()", median_ms(store.domains, args.runs)))
        quiet = io.StringIO()

        def kb_list() -> None:
            with contextlib.redirect_stdout(quiet):
                workbench(["kb", "list", "--db", str(path)])

        kb_list()
        rows.append(("kb list (in process)", median_ms(kb_list, args.runs)))
        store.close()
        exe = str(Path(sys.executable).parent / "workbench")
        env = dict(os.environ, WORKBENCH_DB=str(path))

        def kb_list_process() -> None:
            subprocess.run([exe, "kb", "list"], env=env, capture_output=True, check=True)

        kb_list_process()
        rows.append(("kb list (process)", median_ms(kb_list_process, max(3, args.runs // 3))))
    print(f"{len(names)} domains; median of {args.runs} runs (processes: {max(3, args.runs // 3)})")
    print(f"{'what':24s} {'ms':>9s}")
    for what, ms in rows:
        print(f"{what:24s} {ms:9.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
