"""Plan a request from the store with extra switches: a trace to replay, a forced choice.

The same call as :func:`workbench.runner.execute` (package -> stored knowledge and problem
text -> ``plan`` with the problem's own mode and options), plus ``force`` (why-not runs)
and ``trace`` (step-through).  Kept beside the runner rather than inside it so the
planning screen's path stays exactly what it was until it opts in.  No Textual: call it
from a thread worker; the store is opened in the calling thread, because SQLite
connections cannot cross threads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from engine.tofs import CancelToken, Progress, RunResult, SearchOptions, Trace, TraceEvent, plan
from knowledge import get_package
from workbench.replay import ReplayTrace
from workbench.runner import ProblemRef

__all__ = ["TRACE_LIMIT", "run_forced", "run_request", "run_traced"]

TRACE_LIMIT = 2_000_000
"""Events kept per traced run (about 200 bytes each): a run beyond it replays a prefix."""


def run_request(request: ProblemRef, db: Path | None = None, *,
                force: Mapping[str, str] | None = None, trace: Trace | None = None,
                cancel: CancelToken | None = None,
                progress: Callable[[Progress], None] | None = None,
                record: bool = True) -> RunResult:
    """Plan ``request`` with the knowledge as the store holds it (blocking)."""
    from workbench.kb.catalog import open_store

    package = get_package(request.package)
    store = open_store(db)
    try:
        domain_name = package.domain_of(request.problem)
        spec = store.load(domain_name)
        text = store.problem_text(domain_name, request.problem)
        domain, problem = package.problem(request.problem, spec, text)
        options = SearchOptions(**{**problem.options, "mode": problem.mode, "cancel": cancel,
                                   "progress": progress, "trace": trace,
                                   "force": dict(force) if force else None})
        result = plan(domain, problem, options)
        if record:
            parameters: dict[str, object] = {"mode": problem.mode}
            if force:
                parameters["force"] = dict(force)
            store.record_run(domain_name, request.problem, parameters,
                             {"status": str(result.status), "value": result.value,
                              "nodes": result.nodes, "seconds": round(result.seconds, 6)})
        return result
    finally:
        store.close()


def run_forced(request: ProblemRef, force: Mapping[str, str], db: Path | None = None, *,
               cancel: CancelToken | None = None,
               progress: Callable[[Progress], None] | None = None) -> RunResult:
    """Re-plan ``request`` with ``force`` ({task: alternative}) fixed: a why-not run."""
    return run_request(request, db, force=force, cancel=cancel, progress=progress)


def run_traced(request: ProblemRef, cancel: CancelToken | None = None,
               progress: Callable[[Progress], None] | None = None, db: Path | None = None,
               limit: int | None = TRACE_LIMIT) -> tuple[RunResult, list[TraceEvent]]:
    """:func:`workbench.runner.execute` with the trace on: the result and its events."""
    trace = ReplayTrace(limit=limit)
    result = run_request(request, db, trace=trace, cancel=cancel, progress=progress)
    return result, trace.events
