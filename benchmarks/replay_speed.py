"""Step-through speed on long traces: indexing, one step, a jump, in the model and the widget.

Run: ``.venv/bin/python benchmarks/replay_speed.py`` (``--events N`` to resize).

The trace is synthetic (``tests/trace_synth.py``: a depth-first search with the engine's
event kinds and order) so any size can be measured.  The widget figures time
``StepperScreen.go`` itself inside a headless app -- the Textual work a key press causes
before the screen repaints -- not the repaint, which depends on the terminal.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.trace_synth import synthetic_events
from workbench.replay import Replay, ReplayState


def ms(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:8.1f} µs"
    return f"{seconds * 1000:8.1f} ms"


async def widget_figures(replay: Replay) -> dict[str, float]:
    from workbench.app import WorkbenchApp
    from workbench.screens.stepper import StepperScreen
    from workbench.widgets.search_tree import SearchTree

    out: dict[str, float] = {}
    app = WorkbenchApp()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = StepperScreen(replay, None, "synthetic")
        await app.push_screen(screen)
        await pilot.pause()
        n = len(replay)
        t0 = time.perf_counter()
        screen.go(n)
        out["jump to the end"] = time.perf_counter() - t0
        await pilot.pause()
        steps = []
        for k in range(n - 1, n - 201, -1):
            t0 = time.perf_counter()
            screen.go(k)
            steps.append(time.perf_counter() - t0)
        out["one step back (median of 200)"] = statistics.median(steps)
        steps = []
        for k in range(n // 2, n // 2 + 200):
            t0 = time.perf_counter()
            screen.go(k)
            steps.append(time.perf_counter() - t0)
        out["one step forward (median of 200)"] = statistics.median(steps)
        t0 = time.perf_counter()
        screen.go(replay.next_choice(n // 3))
        out["jump to a choice"] = time.perf_counter() - t0
        out["Textual nodes held"] = screen.query_one(SearchTree).materialized
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200_000)
    args = ap.parse_args()

    t0 = time.perf_counter()
    events = synthetic_events(args.events)
    made = time.perf_counter() - t0
    t0 = time.perf_counter()
    replay = Replay(events)
    index = time.perf_counter() - t0
    n = len(replay)
    print(f"{n:,} events, {replay.node_count(n):,} nodes (generated in {made:.2f} s)")
    print(f"{'index the trace':42s} {ms(index)}")
    t0 = time.perf_counter()
    for k in range(n):
        replay.step(k)
    print(f"{'delta of one step (mean)':42s} {ms((time.perf_counter() - t0) / n)}")
    state = ReplayState(replay)
    t0 = time.perf_counter()
    state.go(n)
    print(f"{'apply every delta to the end':42s} {ms(time.perf_counter() - t0)}")
    for name, value in asyncio.run(widget_figures(replay)).items():
        shown = ms(value) if isinstance(value, float) else f"{value:8d}"
        print(f"{'widget: ' + name:42s} {shown}")


if __name__ == "__main__":
    main()
