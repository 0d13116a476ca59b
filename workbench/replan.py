"""Re-plan a request from the store with one alternative forced: the why-not run.

The same call as :func:`workbench.runner.execute` -- package, the knowledge and problem
text as the store holds them, :func:`workbench.runner.search_options` with the user's run
settings -- plus ``force``.  Kept beside the runner so the planning screen's path stays
exactly what it is.  No Textual: call it from a thread worker; the store is opened in the
calling thread, because SQLite connections cannot cross threads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from engine.tofs import CancelToken, Progress, RunResult, plan
from knowledge import get_package
from workbench.runner import ProblemRef, RunSettings, search_options

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


def run_forced(request: ProblemRef, force: Mapping[str, str], db: Path | None = None, *,
               settings: RunSettings | None = None, cancel: CancelToken | None = None,
               progress: Callable[[Progress], None] | None = None) -> RunResult:
    """Plan ``request`` with ``force`` ({task: alternative}) fixed (blocking).

    The run is recorded in the store like any other, its parameters saying what was forced.
    """
    from workbench.kb.catalog import open_store

    package = get_package(request.package)
    store = open_store(db)
    try:
        domain_name = package.domain_of(request.problem)
        spec = store.load(domain_name)
        text = store.problem_text(domain_name, request.problem)
        domain, problem = package.problem(request.problem, spec, text)
        options = search_options(problem, settings or RunSettings(trace=False), cancel,
                                 progress)
        options = replace(options, force=dict(force))
        result = plan(domain, problem, options)
        store.record_run(domain_name, request.problem, options.summary(),
                         {"status": str(result.status), "value": result.value,
                          "nodes": result.nodes, "seconds": round(result.seconds, 6)})
        return result
    finally:
        store.close()
