"""What the user asked to plan -- one record, whoever asked (the command line, the
workbench, a knowledge test) -- its budgets, and the errors that refuse it.

A request holds three things: which problem (a name, a file, or text from the store), the
search settings every package understands, and ``options``, the settings of the package's
own ``plan`` flags (HDDL: its problem file, the IPC output).  The generic code never looks
inside ``options``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from engine.tofs import DomainSpec, Status

__all__ = [
    "BadInput",
    "InputStopped",
    "PlanRequest",
    "Refused",
    "budget_options",
    "default_memory_budget",
    "read_within_budgets",
]


class BadInput(ValueError):
    """Input a run cannot plan (an unknown problem, a file with a mistake, a stored domain
    that does not compile): the message is the one line the user reads, naming what and
    where.  Exit status 1.  ``kind`` names the error it was raised as (``PackageError``,
    ``DesignError``, ...), for a caller that tells kinds apart."""

    def __init__(self, message: str, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind or type(self).__name__


class Refused(BadInput):
    """A setting the package cannot honour (``--mode game`` on HDDL): refused in one line
    saying why, rather than dropped without a word.  Exit status 1."""


@dataclass(frozen=True)
class PlanRequest:
    """What the user asked to plan, independent of how they asked (CLI, workbench, test)."""

    problem: str
    """The problem's name (or a file a package reads: an EDAPS design, an HDDL domain)."""
    mode: str | None = None
    """``optimise``, ``game`` or ``first``; None: the problem's own."""
    full_tree: bool = False
    prune: bool = True
    node_budget: int | None = None
    time_budget: float | None = None
    memory_budget: float | None = None
    """Stop when the process's resident memory passes this many MB."""
    started: float | None = None
    """When the time budget started counting (``time.perf_counter()``; default: when the
    search starts): the CLI counts reading the files too."""
    cancel: Any = None
    """An ``engine.tofs.CancelToken``: ctrl+c interrupts the search through it."""
    progress: Any = None
    """Called with ``engine.tofs.Progress`` as the search goes (the terminal's line)."""
    criterion: str = "weighted-average"
    alpha: float | None = None
    """Hurwicz's optimism index (``--alpha``; None: not given, 0.5)."""
    force: dict[str, str] | None = None
    """``--why-not``: {task: alternative}, taken at the first such choice point on the plan,
    and the forced plan contrasted with the chosen one."""
    explain: bool | str = False
    """``--explain``: False, True or "reader" (the reader's view), "full" (the audit)."""
    tree: bool = False
    """``--tree``: print a game's decision tree."""
    repair: bool = False
    """``--repair``: after a run with no plan, propose one-place edits of the domain that
    make it plan, each confirmed by re-planning and an independent validator (a package
    that cannot -- :attr:`~knowledge.contract.KnowledgePackage.proposes_repairs` -- refuses
    it)."""
    json: bool = False
    output: str | None = None
    """One of the package's own output formats (HDDL: ``ipc``) instead of text or JSON."""
    deepening: int | None = None
    """First-plan mode: iterative deepening from this depth (``SearchOptions.deepening``)."""
    options: Mapping[str, Any] = field(default_factory=dict)
    """The package's own ``plan`` flags, as its :meth:`~knowledge.contract.KnowledgePackage.
    plan_options` read them (HDDL: ``{"files": ("p1.hddl",)}``)."""
    spec: DomainSpec | None = None
    """From the knowledge store: the domain as edited."""
    problem_text: str | None = None
    """From the knowledge store: the problem's stored text."""
    trace: int | None = None
    """Record the search for step-through, keeping at most this many events (workbench)."""
    pinned: Mapping[str | int, str] | None = None
    """Alternatives fixed for the search itself, with no contrast (the workbench's why-not
    run; ``SearchOptions.force``)."""
    replan_from: tuple[Any, str] | None = None
    """(``engine.tofs.why_not.Anchor``, alternative): re-plan from a choice point of an
    earlier run with that alternative taken (the workbench's why-not screen)."""

    @property
    def hurwicz_alpha(self) -> float:
        return 0.5 if self.alpha is None else self.alpha


def default_memory_budget() -> float | None:
    """Half of the machine's physical memory, in MB (None where it cannot be read): the
    memory budget of a run that sets none (``plan --memory-budget``, the workbench's run
    options).  A run that wants more stops with what it found while the machine -- and
    whatever else runs on it -- still answers."""
    import os

    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return total / 2 / 1e6 if total > 0 else None


def budget_options(request: PlanRequest) -> dict[str, Any]:
    """The ``SearchOptions`` fields a request's budgets, cancel token and progress set:
    every run passes these on, so a budget flag means the same everywhere."""
    return {
        "node_budget": request.node_budget,
        "time_budget": request.time_budget,
        "memory_budget": request.memory_budget,
        "started": request.started,
        "cancel": request.cancel,
        "progress": request.progress,
    }


_T = TypeVar("_T")


class InputStopped(Exception):
    """A budget ran out, or ctrl+c came, while a run's input was still being read: nothing
    was planned.  The pipeline turns it into its report with :meth:`report`."""

    def __init__(self, status: Status | None, request: PlanRequest) -> None:
        from engine.tofs import Status

        self.status = status
        if status is Status.TIME_BUDGET:
            limit = f"the time budget of {request.time_budget:g} s"
        elif status is Status.MEMORY_BUDGET:
            limit = f"the memory budget of {request.memory_budget:,.0f} MB"
        else:
            limit = "interrupting the run" if status is Status.INTERRUPTED else "cancelling"
        self.text = f"gave up at {limit} while reading the input (nothing was planned)"
        super().__init__(self.text)

    @property
    def exit_status(self) -> int:
        from engine.tofs import Status

        from .statuses import EXIT_GAVE_UP, EXIT_INTERRUPTED

        return EXIT_INTERRUPTED if self.status is Status.INTERRUPTED else EXIT_GAVE_UP

    def report(self, request: PlanRequest) -> Any:
        """The :class:`~knowledge.pipeline.PlanReport` of a run stopped while reading."""
        import json

        from .pipeline import PlanReport

        if request.json:
            data = {"outcome": "gave up", "status": str(self.status), "said": self.text}
            return PlanReport(json.dumps(data, indent=2), self.exit_status, data)
        return PlanReport(self.text, self.exit_status)


def read_within_budgets(request: PlanRequest, read: Callable[[], _T]) -> _T:
    """``read()`` -- a package reading and compiling a run's input -- under the request's
    budgets: a reader's :func:`engine.tofs.search.checkpoint` stops it at the time or
    memory budget, or at ctrl+c, as :class:`InputStopped`."""
    from engine.tofs import SearchOptions
    from engine.tofs.search import SearchStopped, watching

    with watching(SearchOptions(**budget_options(request))) as watch:
        try:
            return read()
        except SearchStopped:
            raise InputStopped(watch.stop, request) from None
