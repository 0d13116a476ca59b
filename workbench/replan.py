"""Re-plan a request from the store with one alternative forced: the why-not run.

It goes through :func:`workbench.runner.execute` -- the knowledge and problem text as the
store holds them, the user's run settings -- re-planning from the choice point with the
alternative taken, in the planning process (:mod:`workbench.planning_process`) like every
workbench run.  No Textual: call it from a thread worker.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from engine.tofs import CancelToken, ChoicePoint, Progress, RunResult
from engine.tofs.why_not import Anchor
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
        node_budget=o.get("node_budget"),
        time_budget=o.get("time_budget"),
        criterion=str(o.get("criterion") or "weighted-average"),
        trace=False,
    )


def run_forced(
    request: ProblemRef,
    base: RunResult,
    choice: ChoicePoint,
    alternative: str,
    db: Path | None = None,
    *,
    settings: RunSettings | None = None,
    cancel: CancelToken | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> RunResult:
    """The plan ``base`` would have been with ``alternative`` taken at ``choice`` (blocking).

    Re-planned from the choice point itself (:func:`engine.tofs.why_not.replan_at`), so the
    answer always goes through the alternative.  The same path as every run
    (:func:`workbench.runner.execute`), so it is recorded in the store like any other.
    """
    return planning_process.execute(
        request,
        cancel,
        progress,
        db,
        settings or RunSettings(trace=False),
        at=(Anchor.of(base, choice), alternative),
    )
