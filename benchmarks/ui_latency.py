"""How fast the workbench answers keys while the planner works in its thread.

Run: ``.venv/bin/python benchmarks/ui_latency.py [--opens-only] [--runs 5]``.

**Keys while planning.**  Starts the app headless on a private
store, starts a long run (URM3 -- four copies of RM1 -- with the full tree and no pruner:
several seconds of search), then presses up/down in the problem picker every 50 ms and
measures, for each key, the time until the app has handled it.  Prints the median and worst
latency during the run, and the same without a run for comparison.  The last row records
the trace too (over half a million events), so it includes bringing the trace back from
the planning process.

Keys are posted to the app directly (``events.Key``) and the latency is the time until the
picker's cursor has moved.  Not through ``Pilot.press``: that waits for the message queue to
settle, which the planner's progress messages keep busy, and reported about 2 s per key.

**First F1 and F2.**  Each run is a fresh interpreter (``first_open`` below) that starts the
app headless at 120x40 on a private store, lets it settle as a user would before the first
key (the planning process spawned, the screens preloaded: ``--settle`` seconds), presses the
key, and times it until the new screen is up and the app idle; then closes it (the same
key) and opens it again.  Both wall-clock and the process's own CPU time are printed: on
this shared machine the wall clock also counts the time other people's jobs had the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from textual import events

from workbench.app import WorkbenchApp
from workbench.runner import ProblemRef
from workbench.screens import PlanScreen
from workbench.widgets import ProblemPicker
from workbench.widgets.run_options import RunOptions


async def measure(busy: bool, seconds: float = 8.0, trace: bool = False) -> list[float]:
    from textual.widgets import Checkbox

    from knowledge.edaps.generate import stuck_together
    from knowledge.edaps.parser import format_design, load_design
    from workbench.kb.catalog import open_store

    db = Path(tempfile.mkdtemp()) / "kb.db"
    store = open_store(db)
    rm1 = load_design(Path(__file__).resolve().parent.parent / "knowledge/edaps/designs/RM1.txt")
    store.set_problem("edaps", "URM3", "edaps-design", format_design(stuck_together(rm1, 4)))
    store.close()
    app = WorkbenchApp(db)
    latencies: list[float] = []
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PlanScreen)
        if busy:
            options = screen.query_one(RunOptions)
            options.query_one("#opt-full-tree", Checkbox).value = True
            options.query_one("#opt-prune", Checkbox).value = False
            options.query_one("#opt-trace", Checkbox).value = trace
            screen.start_run(ProblemRef("edaps", "URM3"))
        picker = screen.query_one(ProblemPicker)
        picker.focus()
        await asyncio.sleep(0.3)
        end = time.perf_counter() + seconds
        key = "down"
        while time.perf_counter() < end and (not busy or screen.running):
            before = picker.cursor_line
            t0 = time.perf_counter()
            app.post_message(events.Key(key, None))
            while picker.cursor_line == before and time.perf_counter() - t0 < 5:
                if not picker.has_focus:
                    break  # the run finished and focused its plan: the key went there
                await asyncio.sleep(0.0005)  # handled when the cursor has moved
            if not picker.has_focus:
                break
            latencies.append(time.perf_counter() - t0)
            key = "up" if key == "down" else "down"
            await asyncio.sleep(0.05)
        screen.cancel_run()
        await app.workers.wait_for_complete()
    return latencies


FIRST_OPEN = """
import asyncio, json, sys, time
from pathlib import Path
from workbench.app import WorkbenchApp

async def main(key, db, settle):
    app = WorkbenchApp(Path(db))
    out = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await asyncio.sleep(settle)
        await app.workers.wait_for_complete()
        await pilot.pause()
        for name in ("first", "again"):
            base = app.screen
            t0, c0 = time.perf_counter(), time.process_time()
            await pilot.press(key)
            while app.screen is base:
                await asyncio.sleep(0.001)
            await pilot.pause()
            out[name] = (time.perf_counter() - t0, time.process_time() - c0)
            await pilot.press(key)  # the same key closes it (F1 the help, F2 the editor)
            await pilot.pause()
            assert app.screen is base
    print("FIRST_OPEN " + json.dumps(out), flush=True)

asyncio.run(main(sys.argv[1], sys.argv[2], float(sys.argv[3])))
"""


def first_open(key: str, settle: float) -> dict[str, tuple[float, float]]:
    """Wall and CPU seconds of the first and second ``key`` in a fresh process."""
    db = Path(tempfile.mkdtemp()) / "kb.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", FIRST_OPEN, key, str(db), str(settle)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    line = next(x for x in done.stdout.splitlines() if x.startswith("FIRST_OPEN "))
    return {k: (v[0], v[1]) for k, v in json.loads(line.removeprefix("FIRST_OPEN ")).items()}


def opens(runs: int, settle: float) -> None:
    """Print the median first and second opening of F1 and F2 over ``runs`` processes."""
    print(f"first F1 / F2 at 120x40, median of {runs} fresh processes (ms)")
    heads = ("first wall", "first CPU", "again wall", "again CPU")
    print(f"{'key':9s}" + "".join(f"{h:>10s} " for h in heads))
    for key, name in (("f1", "F1 help"), ("f2", "F2 editor")):
        rows = [first_open(key, settle) for _ in range(runs)]
        cells = [
            statistics.median(r[which][i] for r in rows) * 1000
            for which in ("first", "again")
            for i in (0, 1)
        ]
        print(f"{name:9s}" + "".join(f"{c:10.0f} " for c in cells))
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opens-only", action="store_true", help="only the first F1 and F2")
    parser.add_argument("--runs", type=int, default=5, help="fresh processes per key")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds before the key")
    args = parser.parse_args()
    opens(args.runs, args.settle)
    if args.opens_only:
        return
    idle = asyncio.run(measure(busy=False, seconds=3.0))
    busy = asyncio.run(measure(busy=True))
    traced = asyncio.run(measure(busy=True, seconds=60.0, trace=True))
    for name, xs in (("idle", idle), ("while planning", busy), ("… with a trace", traced)):
        xs_ms = [x * 1000 for x in xs]
        print(
            f"{name:15s} {len(xs):4d} keys  median {statistics.median(xs_ms):6.1f} ms  "
            f"worst {max(xs_ms):6.1f} ms"
        )


if __name__ == "__main__":
    main()
