"""How fast the workbench answers keys while the planner works in its thread.

Run: ``.venv/bin/python benchmarks/ui_latency.py``.  Starts the app headless on a private
store, starts a long run (URM3 -- four copies of RM1 -- with the full tree and no pruner:
several seconds of search), then presses up/down in the problem picker every 50 ms and
measures, for each key, the time until the app has handled it.  Prints the median and worst
latency during the run, and the same without a run for comparison.  The last row records
the trace too (over half a million events), so it includes bringing the trace back from
the planning process.

Keys are posted to the app directly (``events.Key``) and the latency is the time until the
picker's cursor has moved.  Not through ``Pilot.press``: that waits for the message queue to
settle, which the planner's progress messages keep busy, and reported about 2 s per key.
"""

from __future__ import annotations

import asyncio
import statistics
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


def main() -> None:
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
