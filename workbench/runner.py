"""Run one planning request: the planner call the workbench's worker makes.

Kept free of Textual so the exact call the UI makes (package -> problem -> ``plan`` with
the problem's own mode, a cancel token and a progress callback) can be read, reused and
tested on its own; the screen only decides *when* to run and where results go.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from engine.tofs import CancelToken, Progress, RunResult
from engine.tofs.why_not import Anchor
from knowledge import PackageError, PlanRequest, default_memory_budget, get_package
from workbench.kb import StoreError

__all__ = ["ProblemRef", "RunSettings", "error_message", "execute", "plan_request"]

# Errors a user can cause by editing knowledge or naming a problem: their message alone
# says what is wrong.  Anything else is shown with its type, because it is a bug somewhere.
_EXPECTED = (PackageError, ValueError, StoreError)


@dataclass(frozen=True)
class ProblemRef:
    """Which problem to plan: a knowledge package and one of its problems.

    (The search switches are :class:`RunSettings`; :func:`plan_request` makes the two one
    :class:`knowledge.PlanRequest`, as the command line does.)
    """

    package: str
    problem: str
    # The stored domain it belongs to, where the package cannot tell from the name alone
    # (HDDL: any number of imported domains, whose problems may share names).
    domain: str | None = None

    @property
    def title(self) -> str:
        if self.domain is not None:
            return f"{self.package}/{self.domain}/{self.problem}"
        return f"{self.package}/{self.problem}"

    def domain_name(self) -> str:
        """The domain whose knowledge plans it (raises PackageError if none)."""
        if self.domain is not None:
            return self.domain
        return get_package(self.package).domain_of(self.problem)


TRACE_LIMIT = 1_000_000
"""Events kept for step-through; a bigger run keeps its first million (the trace says how
many it dropped)."""


@dataclass(frozen=True)
class RunSettings:
    """What the user set before Run: search switches and budgets (see ``RunOptions``)."""

    full_tree: bool = False
    prune: bool = True
    node_budget: int | None = None
    time_budget: float | None = None
    # MB of resident memory (the whole workbench's); by default half the machine's.
    memory_budget: float | None = field(default_factory=default_memory_budget)
    criterion: str = "weighted-average"
    trace: bool = True

    def describe(self) -> str:
        parts = ["full tree" if self.full_tree else "exact pruning"]
        if not self.prune:
            parts.append("no pruner")
        if self.node_budget:
            parts.append(f"≤ {self.node_budget:,} nodes")
        if self.time_budget:
            parts.append(f"≤ {self.time_budget:g} s")
        if self.memory_budget and self.memory_budget != default_memory_budget():
            parts.append(f"≤ {self.memory_budget:,.0f} MB")
        return ", ".join(parts)


def plan_request(
    request: ProblemRef,
    settings: RunSettings,
    cancel: CancelToken | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> PlanRequest:
    """The :class:`knowledge.PlanRequest` of a workbench run: the problem's own mode, the
    user's switches and budgets, the step-through trace."""
    return PlanRequest(
        problem=request.problem,
        full_tree=settings.full_tree,
        prune=settings.prune,
        node_budget=settings.node_budget,
        time_budget=settings.time_budget,
        memory_budget=settings.memory_budget,
        cancel=cancel,
        progress=progress,
        criterion=settings.criterion,
        trace=TRACE_LIMIT if settings.trace else None,
    )


def execute(
    request: ProblemRef,
    cancel: CancelToken | None,
    progress: Callable[[Progress], None] | None,
    db: Path | None = None,
    settings: RunSettings | None = None,
    force: Mapping[str | int, str] | None = None,
    at: tuple[Anchor, str] | None = None,
) -> RunResult:
    """Plan the problem with the knowledge as it is in the store (blocking; call from a
    worker), through :func:`knowledge.pipeline.run_plan` as ``workbench plan`` does.  The
    store is opened here, in the worker's own thread: SQLite connections cannot cross
    threads.

    ``force`` fixes alternatives for the search; ``at`` = (anchor, alternative) re-plans
    from a choice point of an earlier run with that alternative taken there (why not?;
    :func:`engine.tofs.why_not.replan_at`).
    """
    from knowledge.pipeline import run_plan
    from workbench.kb.catalog import open_store

    package = get_package(request.package)
    store = open_store(db)
    try:
        domain_name = request.domain_name()
        wanted = replace(
            plan_request(request, settings or RunSettings(), cancel, progress),
            spec=store.load(domain_name),
            problem_text=store.problem_text(domain_name, request.problem),
            pinned=dict(force) if force else None,
            replan_from=at,
        )
        outcome = run_plan(package, wanted)
        result = outcome.result
        if at is None and result.complete:
            result.explanation = outcome.explain()
        parameters = outcome.options.summary()
        if at is not None:
            anchor, alternative = at
            parameters["why_not"] = {
                "node": anchor.choice.node,
                "task": anchor.choice.task,
                "alternative": alternative,
            }
        store.record_run(
            domain_name,
            request.problem,
            parameters,
            {
                "status": str(result.status),
                "value": result.value,
                "nodes": result.nodes,
                "seconds": round(result.seconds, 6),
            },
        )
        return result
    finally:
        store.close()


def error_message(exc: BaseException) -> str:
    """What to tell the user about a failed run."""
    if isinstance(exc, _EXPECTED):
        return str(exc) or type(exc).__name__
    return f"{type(exc).__name__}: {exc}"
