"""What a run returns: the plan, its choice points with every alternative and its reason,
the policy (game mode), counts, and diagnostics.

"No plan" is a result, not an exception: ``status`` says why and ``failure`` holds the
deepest failure found, which is what a user needs to fix a design or a knowledge base.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import Any, overload

from .expressions import SubexpressionValue

__all__ = [
    "AlternativeRecord",
    "Blame",
    "ChoicePoint",
    "Expansion",
    "Failure",
    "Outcome",
    "PlanStep",
    "PolicyEdge",
    "PolicyNode",
    "Reason",
    "RunResult",
    "Status",
]


class Reason(StrEnum):
    """Why an alternative at a choice point was taken or not: DESIGN §4's taxonomy."""

    CHOSEN = "chosen"
    LOWER_VALUE = "lower value"
    TIE = "tie"
    PRECONDITION_FAILED = "precondition failed"
    NO_BINDING = "no binding"
    PARTIAL_PLAN_PRUNED = "partial-plan pruned"
    BOUND_PRUNED = "bound pruned"
    TRANSPOSED = "transposed"
    # The node's state and remaining task list are those of a node above it on its own path:
    # whatever can be done from it can be done from there, so it is a loop.
    REPEATED = "repeats an ancestor"
    # Its first task is still being decomposed above it, in the same state: recursion that
    # came back to where it started (SearchOptions.prune_recursion).
    RECURSION = "recursion pruned"
    LIKELIHOOD_PRUNED = "likelihood pruned"
    NOT_EXPANDED = "not expanded"
    DEAD_END = "dead end"
    # An opponent's (uncontrolled agent's) move that was planned for and averaged in with
    # its probability; opponents' moves are not chosen by the planner.
    WEIGHTED = "weighted"


class Status(StrEnum):
    OK = "ok"
    NO_PLAN = "no plan"
    NODE_BUDGET = "node budget"
    TIME_BUDGET = "time budget"
    MEMORY_BUDGET = "memory budget"
    CANCELLED = "cancelled"
    # Stopped by ctrl+c (``CancelToken.interrupt``): like a cancel, said as the user did it.
    INTERRUPTED = "interrupted"
    # The whole tree was searched but recursion pruning or a depth limit cut some of it: no
    # plan was found, and none is ruled out (or, optimising, the plan found is not proven
    # best).
    INCOMPLETE = "incomplete"


class Outcome(StrEnum):
    """What a run established, whatever stopped it: the one vocabulary that the text, the
    JSON, the explanations, Markdown and the workbench all use, and that exit statuses map.

    Only ``NO_PLAN`` says that nothing can be done: the whole tree was searched.  A search
    that a budget stopped has either a plan that is not proven best, or no answer at all.
    """

    PLAN = "plan"  # the search finished: the best plan (first-plan mode: a plan)
    PLAN_UNPROVEN = "plan, not proven best"  # a budget stopped the search after a plan
    NO_PLAN = "no plan exists"  # the search finished without a plan
    GAVE_UP = "gave up"  # a budget stopped the search before any plan


_STOPPED_BY = {
    Status.NODE_BUDGET: "the node budget",
    Status.TIME_BUDGET: "the time budget",
    Status.MEMORY_BUDGET: "the memory budget",
    Status.CANCELLED: "cancelling the search",
    Status.INTERRUPTED: "interrupting the search",
    Status.INCOMPLETE: "pruning recursion, which can cut plans off",
}


SUSPECTS_SHOWN = 5  # an author reads at most five places to look first


@dataclass(frozen=True)
class Blame:
    """Where the failing part of a condition was written, and how it got where it failed,
    in the knowledge's own words: the engine only keeps and shows it.

    A condition the knowledge moved (an HDDL method checks its first action's precondition
    before it is applied) failed in a place its author never wrote it; ``text`` says where
    it was written and with what values, e.g. "step 1 of m_unload, drop (domain.hddl:40),
    needs `(in package_0 truck_0)`", so that the author opens the right place.  ``file`` and
    ``line`` point at it for an editor ("" and None when the knowledge does not say).
    """

    text: str
    file: str = ""
    line: int | None = None
    detail: Any = field(default=None, compare=False, repr=False)
    """The knowledge's own record of the failing part (HDDL: the grounded literal and the
    place it was written), for its analysis of why it cannot hold; opaque to the engine,
    and never written out."""

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "file": self.file, "line": self.line}


@dataclass(frozen=True)
class Failure:
    """Why something could not be done, with the failing part and the values it saw.

    A task that no method can accomplish is a failure with ``field == "no method"`` whose
    ``causes`` say why each method failed.
    """

    task: str
    method: str | None
    field: str
    expression: str
    failing: str
    values: tuple[SubexpressionValue, ...]
    depth: int
    node: int
    causes: tuple[Failure, ...] = ()
    # How the search got there: (task, alternative taken; "" for an operator applied) from
    # the top down, when the
    # failure lies below alternatives that applied (so "the task that could not be done"
    # is the first task here, and the failure the deepest one under it).
    via: tuple[tuple[str, str], ...] = ()
    # Where the failing part was written, when the condition says
    # (``explain_blame``, :class:`~engine.tofs.expressions.Condition`).
    blame: Blame | None = None

    @property
    def message(self) -> str:
        if self.field == "no method":
            if not self.causes:
                return f"{self.task}: the task has no methods"
            why = "; ".join(c.reason for c in self.causes)
            return f"{self.task}: no method applies ({why})"
        if self.blame is not None or self.method:  # the reason names its own place
            return f"{self.task}: {self.reason}"
        return f"{self.task} {self.reason}"

    @property
    def reason(self) -> str:
        """The failing condition and its values, without the task."""
        if self.blame is not None:
            return self.blame.text
        who = f"{self.method} " if self.method else ""
        if self.field == "binding":
            return f"{who}needs a value from `{self.expression}`, which gave none"
        seen = ", ".join(f"{v.text} = {_show(v.value)}" for v in self.values)
        return f"{who}needs `{self.failing}`" + (f" ({seen})" if seen else "")


def _show(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return repr(v)


@dataclass(frozen=True)
class Expansion:
    """One task taken off the front of the task list on the way to the plan, and what
    replaced it: the method (with its bindings) and its subtasks, or the operator applied.

    In the order the search took them, these are the plan's decomposition tree: TOFS
    always expands the first task, so each method's subtasks are the next tasks expanded.
    """

    node: int
    task: tuple[str, tuple[Any, ...]]
    method: str | None  # None: the task is an operator, applied as the plan's next step
    bindings: tuple[tuple[str, Any], ...] = ()
    subtasks: tuple[tuple[str, tuple[Any, ...]], ...] = ()


@dataclass(frozen=True)
class PlanStep:
    """One operator application in a plan."""

    operator: str
    args: tuple[Any, ...]
    costs: dict[str, float]
    description: str
    group: str
    node: int

    @property
    def cost(self) -> float:
        return float(sum(self.costs.values()))


@dataclass(frozen=True)
class AlternativeRecord:
    """One alternative at a choice point and the single reason it was or was not taken.

    ``value`` is the value of the best complete plan through this alternative (total cost
    in optimise mode, utility in game mode).  When ``value_is_bound`` it is a bound only:
    the search proved the alternative cannot be better than this and stopped looking.
    """

    label: str
    method: str
    reason: Reason
    chosen: bool = False
    bindings: tuple[tuple[str, Any], ...] = ()
    value: float | None = None
    value_is_bound: bool = False
    probability: float | None = None
    assumption: str | None = None
    critic: str | None = None
    failure: Failure | None = None
    compared_with: float | None = None
    detail: str = ""
    node: int | None = None
    title: str = ""
    """The alternative in the knowledge's own words: its method's label template filled in
    with its bindings ("Set up a diamond discard for the club losers"); empty when the
    method has no label.  The reader's view shows this, never ``label``'s call syntax."""
    move: str = ""
    """What the agent does first, when the alternative is an operator method: the
    operator's description ("North leads ♦A").  Alternatives with the same move are one
    thing to do for the person deciding, whatever plan each stands for."""


@dataclass(frozen=True)
class ChoicePoint:
    """A node on the returned plan where more than one alternative was considered."""

    node: int
    depth: int
    task: str
    task_name: str
    kind: str  # "decision" or "external"
    agent: Any
    value: float | None
    alternatives: tuple[AlternativeRecord, ...]
    state: Any = field(default=None, compare=False, repr=False)
    """The state at this node, and below the task list still to do: what a why-not
    re-plans from (:func:`engine.tofs.why_not.replan_at`)."""
    tasks: tuple[Any, ...] = field(default=(), compare=False, repr=False)

    @property
    def chosen(self) -> AlternativeRecord | None:
        return next((a for a in self.alternatives if a.chosen), None)


@dataclass
class PolicyEdge:
    label: str
    method: str
    probability: float | None
    node: PolicyNode
    step: PlanStep | None = None
    assumption: str | None = None  # the method's assumption label (opponents' moves)
    bindings: tuple[tuple[str, Any], ...] = ()  # the method's bindings (an outcome, a card)


@dataclass
class PolicyNode:
    """A node of a game-mode policy (decision tree).

    At a decision node ``chosen`` is the index of the planned alternative; at an external-
    agent node ``planned`` is the index of the most likely move and ``critic`` names the
    function that decides whether an actual move is equivalent to the planned one.
    """

    node: int
    kind: str  # "decision", "external" or "leaf"
    task: str
    agent: Any
    value: float
    children: list[PolicyEdge] = field(default_factory=list)
    chosen: int | None = None
    planned: int | None = None
    critic: str | None = None
    note: str = ""

    def walk(self) -> Any:
        yield self
        for edge in self.children:
            yield from edge.node.walk()

    def size(self) -> int:
        return sum(1 for _ in self.walk())


@dataclass
class RunResult:
    """Everything a run produced."""

    domain: str
    problem: str
    mode: str
    status: Status
    value: float | None
    plan: list[PlanStep]
    choice_points: list[ChoicePoint]
    nodes: int
    tree_nodes: int
    seconds: float
    policy: PolicyNode | None = None
    failure: Failure | None = None
    diagnostics: list[str] = field(default_factory=list)
    stats: dict[str, int] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    trace: Any = field(default=None, repr=False, compare=False)
    """The run's event stream when tracing was on (``SearchOptions(trace=Trace())``)."""
    expansions: list[Expansion] = field(default_factory=list, repr=False, compare=False)
    """The decomposition that produced ``plan`` (first-plan and optimise modes; a task the
    partial plan pruner finished is not broken down); empty when there is no plan."""
    proof: str | None = None
    """Why no plan exists, in words, when the domain's own analysis proved it after a search
    that could not (``KnowledgePackage.settle``: HDDL's relaxed reachability); the status is
    then ``NO_PLAN``."""
    suspects: list[Blame] = field(default_factory=list)
    """Places to look first when there is no plan, best first (the first
    :data:`SUSPECTS_SHOWN` are shown): each a literal or a task with where it was written
    (``Blame``'s text, file and line); the engine's are the conditions that cut the most
    branches, which the domain's own analysis may rank and join (``KnowledgePackage.settle``;
    HDDL says why the decisive literal cannot hold).  Empty when there is a plan."""
    explanation: Any = field(default=None, repr=False, compare=False)
    """The run explained in its domain's words, when the caller built one
    (:class:`engine.tofs.explanation.Explanation`): what the workbench's panes show."""

    @property
    def complete(self) -> bool:
        """The search finished: the value is the true optimum (or no plan exists)."""
        return self.status in (Status.OK, Status.NO_PLAN)

    @property
    def found(self) -> bool:
        return self.value is not None

    @property
    def outcome(self) -> Outcome:
        if self.complete:
            return Outcome.PLAN if self.found else Outcome.NO_PLAN
        return Outcome.PLAN_UNPROVEN if self.found else Outcome.GAVE_UP

    @property
    def stopped_by(self) -> str | None:
        """What cut the search short, in words ("the node budget"), or None."""
        return _STOPPED_BY.get(self.status)

    @property
    def outcome_text(self) -> str:
        """The outcome in words, the same everywhere it is shown."""
        outcome = self.outcome
        if outcome is Outcome.PLAN:
            if self.mode == "first":
                return "plan found (first-plan mode: the first found, not compared with others)"
            return "plan found and proven best"
        if outcome is Outcome.NO_PLAN:
            if self.proof:
                return f"no plan exists ({self.proof})"
            return "no plan exists (the whole tree was searched)"
        if self.status is Status.CANCELLED:
            if outcome is Outcome.PLAN_UNPROVEN:
                return "best plan found before the search was cancelled (not proven best)"
            return "gave up when the search was cancelled, with no plan (none ruled out)"
        if self.status is Status.INTERRUPTED:
            if outcome is Outcome.PLAN_UNPROVEN:
                return "best plan found before the search was interrupted (not proven best)"
            return "gave up when the search was interrupted, with no plan (none ruled out)"
        limit = self.stopped_by or str(self.status)
        if self.status is Status.NODE_BUDGET:
            limit += f" of {self.options.get('node_budget') or self.nodes:,} nodes"
        elif self.status is Status.TIME_BUDGET and self.options.get("time_budget"):
            limit += f" of {self.options['time_budget']:g} s"
        elif self.status is Status.MEMORY_BUDGET and self.options.get("memory_budget"):
            limit += f" of {self.options['memory_budget']:,.0f} MB"
        if outcome is Outcome.PLAN_UNPROVEN:
            return f"best plan found when {limit} stopped the search (not proven best)"
        return f"gave up at {limit} with no plan (none found yet; none ruled out)"

    @property
    def costed(self) -> bool:
        """Whether the run's value means something to show: a game's expected value, or a
        plan some step of which costs something.  A plan without costs (first-plan HDDL)
        has the value 0, which says nothing; its size is its number of steps."""
        return self.mode == "game" or any(s.costs for s in self.plan)

    def size_text(self, fmt: Callable[[float], str] = "{:g}".format) -> str:
        """The figure a plan is measured by, in words: "value 367" when it has costs (or
        is a game), else "7 steps"; "" without a plan."""
        if self.value is None:
            return ""
        if self.costed:
            return f"value {fmt(self.value)}"
        return f"{len(self.plan)} step{'' if len(self.plan) == 1 else 's'}"

    def failure_dict(self) -> dict[str, Any]:
        """Why there is no plan, JSON-ready: the failure and the suspects (where a package
        shows these alone, without making the whole of :meth:`to_dict`)."""
        return {
            "failure": _jsonable(_failure_dict(self.failure)),
            "suspects": _jsonable([b.to_dict() for b in self.suspects[:SUSPECTS_SHOWN]]),
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form (values that JSON cannot hold are shown as text)."""
        why = self.failure_dict()
        out: dict[str, Any] = _jsonable(
            {
                "domain": self.domain,
                "problem": self.problem,
                "mode": self.mode,
                "status": str(self.status),
                "outcome": str(self.outcome),
                "outcome_text": self.outcome_text,
                "complete": self.complete,
                "value": self.value,
                "plan": [asdict(s) | {"cost": s.cost} for s in self.plan],
                "choice_points": [_choice_dict(c) for c in self.choice_points],
                "nodes": self.nodes,
                "tree_nodes": self.tree_nodes,
                "seconds": self.seconds,
                "failure": why["failure"],
                "policy": _policy_dict(self.policy) if self.policy else None,
                "diagnostics": self.diagnostics,
                "proof": self.proof,
                "suspects": why["suspects"],
                "stats": self.stats,
                "options": self.options,
            }
        )
        return out


def _failure_dict(f: Failure | None) -> dict[str, Any] | None:
    if f is None:
        return None
    return {
        "task": f.task,
        "method": f.method,
        "field": f.field,
        "expression": f.expression,
        "failing": f.failing,
        "values": [{"text": v.text, "value": v.value} for v in f.values],
        "depth": f.depth,
        "node": f.node,
        "causes": [_failure_dict(c) for c in f.causes],
        "via": [list(v) for v in f.via],
        "blame": f.blame.to_dict() if f.blame is not None else None,
        "message": f.message,
    }


def _choice_dict(c: ChoicePoint) -> dict[str, Any]:
    return {
        "node": c.node,
        "depth": c.depth,
        "task": c.task,
        "task_name": c.task_name,
        "kind": c.kind,
        "agent": c.agent,
        "value": c.value,
        "alternatives": [
            {k: getattr(a, k) for k in _ALTERNATIVE_FIELDS}
            | {"reason": str(a.reason), "failure": _failure_dict(a.failure)}
            for a in c.alternatives
        ],
    }


# An alternative's fields but its failure, which ``_failure_dict`` writes out: ``asdict``
# copied every failure with its causes, deep, only to throw the copy away (a second and a
# half of a 94-step Woodworking plan's JSON, after the search, past its time budget).
_ALTERNATIVE_FIELDS = tuple(f.name for f in fields(AlternativeRecord) if f.name != "failure")


def _policy_dict(p: PolicyNode) -> dict[str, Any]:
    return {
        "node": p.node,
        "kind": p.kind,
        "task": p.task,
        "agent": p.agent,
        "value": p.value,
        "chosen": p.chosen,
        "planned": p.planned,
        "critic": p.critic,
        "note": p.note,
        "children": [
            {
                "label": e.label,
                "method": e.method,
                "probability": e.probability,
                "assumption": e.assumption,
                "step": asdict(e.step) if e.step else None,
                "node": _policy_dict(e.node),
            }
            for e in p.children
        ],
    }


@overload
def _jsonable(obj: dict[Any, Any]) -> dict[str, Any]: ...
@overload
def _jsonable(obj: object) -> Any: ...
def _jsonable(obj: Any) -> Any:
    if type(obj) in _PLAIN:  # most of a run's hundred thousand values: asked first
        return obj if obj == obj else None  # NaN: None
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, float) and obj != obj:  # NaN
        return None
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    return str(obj)


_PLAIN = frozenset({str, int, float, bool, type(None)})
