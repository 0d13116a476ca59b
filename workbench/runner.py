"""Run one planning request: the planner call the workbench's worker makes.

Kept free of Textual so the exact call the UI makes (package -> problem -> ``plan`` with
the problem's own mode, a cancel token and a progress callback) can be read, reused and
tested on its own; the screen only decides *when* to run and where results go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from engine.tofs import CancelToken, Progress, RunResult, SearchOptions, plan
from knowledge import PackageError, get_package
from workbench.kb import StoreError

__all__ = ["ProblemRef", "error_message", "execute"]

# Errors a user can cause by editing knowledge or naming a problem: their message alone
# says what is wrong.  Anything else is shown with its type, because it is a bug somewhere.
_EXPECTED = (PackageError, ValueError, StoreError)


@dataclass(frozen=True)
class ProblemRef:
    """Which problem to plan: a knowledge package and one of its problems.

    (The CLI's richer ``knowledge.PlanRequest`` carries search switches and output format;
    the workbench passes those to the engine directly.)
    """

    package: str
    problem: str

    @property
    def title(self) -> str:
        return f"{self.package}/{self.problem}"


def execute(request: ProblemRef, cancel: CancelToken,
            progress: Callable[[Progress], None], db: Path | None = None) -> RunResult:
    """Plan the problem with the knowledge as it is in the store (blocking; call from a
    worker).  The store is opened here, in the worker's own thread: SQLite connections
    cannot cross threads."""
    from workbench.kb.catalog import open_store

    package = get_package(request.package)
    store = open_store(db)
    try:
        domain_name = package.domain_of(request.problem)
        spec = store.load(domain_name)
        text = store.problem_text(domain_name, request.problem)
        domain, problem = package.problem(request.problem, spec, text)
        options = SearchOptions(**{**problem.options, "mode": problem.mode, "cancel": cancel,
                                   "progress": progress})
        result = plan(domain, problem, options)
        store.record_run(domain_name, request.problem, {"mode": problem.mode},
                         {"status": str(result.status), "value": result.value,
                          "nodes": result.nodes, "seconds": round(result.seconds, 6)})
        return result
    finally:
        store.close()


def error_message(exc: BaseException) -> str:
    """What to tell the user about a failed run."""
    if isinstance(exc, _EXPECTED):
        return str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {exc}"
