"""The search's working records: what it keeps about alternatives, failures and subtrees
until a run's public records (:mod:`engine.tofs.results`) are built from them.

They hold references, not text: a node may have thousands of alternatives and failures, and
most are never shown to anyone, so labels and explanations are written only when reported.
Tuples that travel through the hot loops are ``NamedTuple`` s (the cheapest named record to
make and read); records that are filled in as the search goes are slotted dataclasses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from ..domain import Method, Task, call_text
from ..expressions import Condition
from ..results import PolicyNode, Reason

__all__ = [
    "Alternative",
    "Cons",
    "Entry",
    "LoopCheck",
    "OpenTask",
    "PathStep",
    "PendingChoice",
    "PendingFailure",
    "Segment",
    "SegmentEnd",
    "Subtree",
    "close",
    "flatten",
    "slack",
    "through",
]

# A cons list: (item, rest) or None.  Prepending is O(1); flattened once at the end.
Cons = tuple[Any, "Cons"] | None


def flatten(c: Cons) -> list[Any]:
    """The items of a cons list, first first."""
    out = []
    while c is not None:
        out.append(c[0])
        c = c[1]
    return out


# ---------------------------------------------------------------------- tolerance
def slack(x: float) -> float:
    """How far two costs near ``x`` may differ by rounding alone: summing the same
    operator costs in another order must not make one plan "cheaper" than its twin."""
    return 1e-9 * max(1.0, abs(x))


def close(a: float, b: float) -> bool:
    """Whether ``a`` and ``b`` are equal but for rounding (a tie)."""
    return abs(a - b) <= slack(max(abs(a), abs(b)))


# ---------------------------------------------------------------------- named tuples
class PathStep(NamedTuple):
    """A task expanded on the way to the plan, and the alternative taken for it."""

    node: int
    task: Task
    alternative: Alternative


class OpenTask(NamedTuple):
    """A task still being decomposed (``SearchOptions.prune_recursion``): it is done when
    the task list is back to ``rest`` tasks; ``state_key`` is the state it was taken up in.

    The open tasks form a stack shared by the nodes of a path (``below``: the one taken up
    before it).  A task taken up inside another is done no later than it, so ``rest`` never
    falls going up the stack, and the tasks done at a node are a run at its top."""

    task: Task
    rest: int
    state_key: Any
    below: OpenTask | None
    node: int = -1  # the node that took it up (a failure memo's cut must stay below it)


class LoopCheck(NamedTuple):
    """Whether an alternative is pruned as a loop, and else its key on the path (for
    ``prune_repeats``), the tasks being decomposed at its child (the top of their stack),
    and how that stack differs from its parent's: the tasks done (``closed``) and the one
    taken up (``opened``)."""

    pruned: bool
    path_key: Any
    decomposing: OpenTask | None
    closed: tuple[OpenTask, ...] = ()
    opened: OpenTask | None = None


class SegmentEnd(NamedTuple):
    """The cheapest way through a flagged task found by the partial plan pruner."""

    cost: float
    state: Any
    steps: Cons  # the segment's last step first
    depth: int


class Segment(NamedTuple):
    """One alternative of a flagged task, finished: its position at the node, what finishing
    it cost, where it ends, and how many nodes it took (discarded if it is not kept)."""

    position: int  # of the alternative at the node
    cost: float
    state: Any
    steps: Cons
    nodes: int
    depth: int


# ---------------------------------------------------------------------- records
NO_METHOD = "no method"
"""The key of a task's count of dead ends where no method applied (``Search.cuts``), and
the ``detail`` of its line among the run's suspects."""


@dataclass(slots=True, eq=False)
class PendingFailure:
    """A failure remembered cheaply (references only); explained only if it is reported."""

    task: Task
    method: str | Alternative | None  # an alternative's label is written only if reported
    field: str
    expr: Condition | None
    state: Any
    env: Mapping[str, Any]
    depth: int
    node: int
    causes: tuple[PendingFailure, ...] = ()
    via: Cons = None  # (task, alternative) from the top down to where it failed


def through(failure: PendingFailure, task: Task, alternative: str) -> PendingFailure:
    """``failure`` as seen one level up: reached by taking ``alternative`` for ``task``."""
    f = failure  # built field by field: dataclasses.replace costs ten times as much here
    return PendingFailure(
        f.task,
        f.method,
        f.field,
        f.expr,
        f.state,
        f.env,
        f.depth,
        f.node,
        f.causes,
        ((task, alternative), f.via),
    )


@dataclass(slots=True, eq=False)
class Alternative:
    """One method instance (or the one operator) of a node, applicable or not.

    One that applies an operator carries the step (``operator``, ``args``, ``costs``, and
    the state it was applied in), and once searched the node it led to: a plan's steps are
    the alternatives it took, with no record made per step in the hot loop.
    """

    name: str  # the method's or operator's; the label adds the bindings
    method: Method | None
    bindings: tuple[tuple[str, Any], ...]
    ok: bool
    reason: Reason | None = None
    failure: PendingFailure | None = None
    state: Any = None
    tasks: tuple[Task, ...] = ()
    cost: float = 0.0  # the step's costs summed (0 for a method that decomposes)
    weight: float | None = None
    fmt: Callable[[Any], str] | None = None  # formats binding values, for the label
    _label: str | None = None
    operator: str | None = None  # the operator applied, if it applies one
    args: tuple[Any, ...] = ()
    costs: dict[str, float] | None = None
    applied_in: Any = None  # the state the operator was applied in
    node: int | None = None  # the node it led to, once searched

    @property
    def label(self) -> str:
        """``name(var=value, ...)``: written when first asked for, since a node may have
        thousands of method instances and most are never shown to anyone."""
        if self._label is None:
            if not self.bindings or self.fmt is None:
                self._label = self.name
            else:
                fmt = self.fmt
                self._label = call_text(self.name, tuple(f"{k}={fmt(v)}" for k, v in self.bindings))
        return self._label


@dataclass(slots=True, eq=False)
class Entry:
    """What happened to one alternative at a node, kept until the node's record is built."""

    alt: Alternative
    reason: Reason | None = None
    value: float | None = None
    bound: bool = False
    detail: str = ""
    compared: float | None = None
    failure: PendingFailure | None = None


@dataclass(slots=True, eq=False)
class PendingChoice:
    """A choice point, its record written only if the run reports it."""

    node: int
    depth: int
    state: Any
    tasks: tuple[Task, ...]
    kind: str
    agent: Any
    value: float | None
    entries: list[Entry]


@dataclass(slots=True, eq=False)
class Subtree:
    """What visiting a node found below it, backed up to its parent."""

    value: float | None = None  # optimise/first: cost-to-go; game: utility
    steps: Cons = None  # the Alternatives that applied an operator, first first
    path: Cons = None  # PathStep, first first
    choices: Cons = None  # PendingChoice
    failure: PendingFailure | None = None
    bounded: bool = False
    incomplete: bool = False
    policy: PolicyNode | None = None
    profile: dict[str, float] = field(default_factory=dict)
