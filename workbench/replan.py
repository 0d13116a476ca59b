"""Re-plan a request from the store with one alternative forced: the why-not run.

It goes through :func:`workbench.runner.execute` -- the knowledge and problem text as the
store holds them, the user's run settings -- with ``force`` added, in the planning process
(:mod:`workbench.planning_process`) like every workbench run.  No Textual: call it from a
thread worker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from engine.tofs import CancelToken, Progress, RunResult
from workbench.planning_process import planning_process
from workbench.runner import ProblemRef, RunSettings

__all__ = ["run_forced", "settings_of"]


def settings_of(result: RunResult) -> RunSettings:
    """The run settings a finished run used (from ``result.options``), so a why-not run
    searches exactly as the run it is compared with did -- minus the trace."""
    o = result.options
    return RunSettings(
        full_tree=bool(o.get("full_tree", False)),
        prune=bool(o.get("partial_plan_prune", True)),
        node_budget=o.get("node_budget"), time_budget=o.get("time_budget"),
        criterion=str(o.get("criterion") or "weighted-average"), trace=False,
    )


def run_forced(request: ProblemRef, force: Mapping[str | int, str], db: Path | None = None, *,
               settings: RunSettings | None = None, cancel: CancelToken | None = None,
               progress: Callable[[Progress], None] | None = None) -> RunResult:
    """Plan ``request`` with ``force`` ({task or node: alternative}) fixed (blocking).

    The same path as every run (:func:`workbench.runner.execute`), so the run is recorded in
    the store like any other, its parameters saying what was forced.
    """
    return planning_process.execute(request, cancel, progress, db,
                                    settings or RunSettings(trace=False), force=force)
