"""Run one planning request: the planner call the workbench's worker makes.

Kept free of Textual so the exact call the UI makes (package -> problem -> ``plan`` with
the problem's own mode, a cancel token and a progress callback) can be read, reused and
tested on its own; the screen only decides *when* to run and where results go.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from engine.tofs import CancelToken, Progress, RunResult, SearchOptions, plan
from knowledge import PackageError, get_package

__all__ = ["ProblemRef", "error_message", "execute"]

# Errors a user can cause by editing knowledge or naming a problem: their message alone
# says what is wrong.  Anything else is shown with its type, because it is a bug somewhere.
_EXPECTED = (PackageError, ValueError)


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
            progress: Callable[[Progress], None]) -> RunResult:
    """Load the problem and plan it in the problem's own mode (blocking; call from a worker)."""
    package = get_package(request.package)
    domain, problem = package.problem(request.problem)
    options = SearchOptions(mode=problem.mode, cancel=cancel, progress=progress)
    return plan(domain, problem, options)


def error_message(exc: BaseException) -> str:
    """What to tell the user about a failed run."""
    if isinstance(exc, _EXPECTED):
        return str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {exc}"
