"""How to search: the options a run takes, its cancel token and its progress reports.

Every switch is an argument of :class:`SearchOptions`, never a global, so that two runs in
one process (a why-not's base run and its re-plans) cannot disturb each other.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..criteria import ExternalCriterion, WeightedAverage
from ..domain import Mode
from ..forcing import Forced
from ..trace import Trace

__all__ = ["CancelToken", "Mode", "Progress", "SearchOptions"]


class CancelToken:
    """Thread-safe cancellation: the workbench sets it, the search polls it.  ``interrupt``
    is the same stop asked for by ctrl+c, which the run reports as "interrupted"."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.interrupted = False

    def cancel(self) -> None:
        self._event.set()

    def interrupt(self) -> None:
        self.interrupted = True
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass(frozen=True)
class Progress:
    """What a running search reports every ``progress_every`` nodes (the workbench's
    status line): nodes so far, the current depth, the best plan's value, seconds."""

    nodes: int
    depth: int
    best: float | None
    elapsed: float


@dataclass
class SearchOptions:
    """How to search.  Every switch is an argument, never a global."""

    mode: Mode = "optimise"
    full_tree: bool = False
    partial_plan_prune: bool = True
    transpositions: bool = True
    node_budget: int | None = None
    time_budget: float | None = None
    # Stop when the process's resident memory passes this many MB (polled every 50 ms).
    memory_budget: float | None = None
    # When the time budget started counting (a ``time.perf_counter()`` reading; default:
    # when the search starts).  Reading the files, a why-not's base run and its re-plans,
    # an explanation's re-plans all share one budget by sharing this.
    started: float | None = None
    cancel: CancelToken | None = None
    progress: Callable[[Progress], None] | None = None
    progress_every: int = 2000
    trace: Trace | None = None
    criterion: ExternalCriterion = field(default_factory=WeightedAverage)
    likelihood_cutoff: float | None = None
    # {task: alternative} fixes an alternative.  A task is named by its name, label or call
    # text (the first node with that task is forced), or by a node id (an int) of an earlier
    # run with the same options: runs are deterministic, so the ids agree up to that node.
    # An alternative is a label or method name (the first alternative it names), or a
    # ``Forced`` (a method with some of its bindings: every alternative that agrees), or a
    # tuple of them (every alternative that agrees with any: a few candidates searched
    # alone, their values as they would be among all the others).
    force: Mapping[str | int, str | Forced | tuple[Forced, ...]] | None = None
    # Stop the whole run at the first task that no method can accomplish (EDAPS: the
    # design is unmanufacturable; the dissertation stops there too).
    abort_on_dead_end: bool = False
    # Prune a node whose state and remaining task list equal those of a node above it on
    # its own path (a loop).  Sound -- whatever the repeat could do, its ancestor can -- and
    # what makes depth-first search come back on recursive domains (HDDL's).
    prune_repeats: bool = False
    # Record a node where only one alternative applied as a choice point too, with why the
    # others could not (HDDL: which methods' preconditions failed, on which literal).
    record_failed_alternatives: bool = False
    # Prune a step whose first task is one still being decomposed above it, in the same
    # state: recursion that comes back to where it started with more left to do -- left
    # recursion (HDDL's "get-to via"), or actions that undo each other on the way (Satellite's
    # switching an instrument off and on) -- HyperTensioN's "dejavu".  It can lose plans,
    # so a run that prunes this way and finds none ends ``incomplete``, never "no plan".
    prune_recursion: bool = False
    # First-plan mode: a child whose state and remaining tasks were searched before in vain
    # is not searched again -- where that search's loop cuts all referred to nodes inside
    # it, so that it comes out the same wherever the node comes up.
    memo_failures: bool = False
    # Depth-first search that dives (a recursion that keeps finding something to do) never
    # comes back to the alternatives above it.  ``depth_limit`` leaves a node this many
    # steps below the root unexpanded; ``deepening`` (first-plan mode) searches with that
    # limit, then twice it, and so on, until a plan is found, a round was not cut, or a
    # budget stops it (budgets count over all rounds).  A run cut by the limit that finds
    # no plan ends ``incomplete``.  Off by default: on the IPC domains it finds plans
    # where the search dives (Multiarm) but costs more where the tree is broad near the
    # root (docs/reference/performance.md, "Completeness").
    depth_limit: int | None = None
    deepening: int | None = None
    # Re-planning from inside an earlier run (``replan_at``, a why-not's re-plan): the root
    # takes this node id and starts with this cost already spent, so the new run's node
    # ids, values and choice-point totals read like the earlier run's.
    start_node: int = 0
    start_cost: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "full_tree": self.full_tree,
            "partial_plan_prune": self.partial_plan_prune,
            "transpositions": self.transpositions and not self.full_tree,
            "node_budget": self.node_budget,
            "time_budget": self.time_budget,
            **({"memory_budget": self.memory_budget} if self.memory_budget is not None else {}),
            "criterion": self.criterion.name,
            "likelihood_cutoff": self.likelihood_cutoff,
            "force": {str(k): _forced_text(v) for k, v in self.force.items()}
            if self.force
            else None,
            "abort_on_dead_end": self.abort_on_dead_end,
            "prune_repeats": self.prune_repeats,
            "record_failed_alternatives": self.record_failed_alternatives,
            "prune_recursion": self.prune_recursion,
            **({"memo_failures": True} if self.memo_failures else {}),
            **({"depth_limit": self.depth_limit} if self.depth_limit is not None else {}),
            **({"deepening": self.deepening} if self.deepening is not None else {}),
            **(
                {"start_node": self.start_node, "start_cost": self.start_cost}
                if self.start_node or self.start_cost
                else {}
            ),
        }


def _forced_text(want: str | Forced | tuple[Forced, ...]) -> str:
    """What is forced, as the run's summary names it: one alternative or any of several."""
    return " or ".join(map(str, want)) if isinstance(want, tuple) else str(want)
