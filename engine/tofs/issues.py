"""The relevant issue: where two alternatives' values part, and by how much.

Seed 004's commentator compared the evaluation trees of two moves from the top and went
down while exactly one part differed significantly, then named the parts that did.  A TOFS
run has two kinds of value tree, and each gets that descent:

* **optimise mode** -- a plan's value is the sum of its steps' costs, so the parts are the
  runs of steps where the two plans differ (:func:`step_issues`);
* **game mode** -- a value is an expectation over the opponents' moves (and chance), so the
  parts are the branches of the opponents' nodes, weighted by their probability
  (:func:`policy_issues`).  Where both subtrees branch the same way the branches are
  compared pairwise; where they branch on different things (the club plan on the clubs,
  the diamond plan on the diamonds) the alternative's own branches are each set against the
  chosen plan's value -- "against 5-2 the club plan goes down".

Every part's ``contribution`` is in the same unit and direction as the whole difference,
and the parts named plus ``rest`` add up to it exactly, so an explanation's numbers can be
checked.  Two cases the backgammon authors left open are handled: several small parts that
add up to a difference none carries alone (``add_up``), and parts that pull in opposite
directions (``cancel``).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from .magnitude import DEFAULT_THRESHOLDS, Thresholds
from .results import PlanStep, PolicyEdge, PolicyNode

__all__ = ["Issue", "Issues", "policy_issues", "step_issues", "step_key", "step_text"]

MAX_DEPTH = 24
_TINY = 1e-9


@dataclass(frozen=True)
class Issue:
    """One part of a difference between the chosen alternative and another.

    ``contribution`` is how much of the other alternative's loss this part accounts for
    (positive: here the other alternative does worse), in the value's unit and already
    weighted by ``probability``.
    """

    kind: str  # "steps", "branch" or "outcome"
    text: str
    contribution: float
    chosen: float | None = None  # the chosen side's value (or cost) here
    other: float | None = None  # the other alternative's
    probability: float | None = None  # chance of reaching this branch (game mode)
    assumption: str | None = None
    chosen_side: tuple[str, ...] = ()  # the chosen side's steps here (optimise mode)
    other_side: tuple[str, ...] = ()
    side: str = "both"  # whose branch this is: "both" (paired), "chosen" or "other"


@dataclass(frozen=True)
class Issues:
    """The relevant issues of one comparison: the parts named and what is left over."""

    loss: float  # how much worse the other alternative is: sum(contributions) + rest
    items: tuple[Issue, ...]
    rest: float = 0.0
    where: tuple[str, ...] = ()  # branches the descent went down (each carried it alone)
    probability: float = 1.0  # the chance of the branches in ``where``
    add_up: bool = False  # no part carries the difference alone; several small ones do
    cancel: bool = False  # parts pull in opposite directions and partly cancel

    @property
    def total(self) -> float:
        return sum(i.contribution for i in self.items) + self.rest


# --------------------------------------------------------------------------- choosing parts


def _select(parts: Sequence[Issue], loss: float, th: Thresholds) -> tuple[list[Issue], bool, bool]:
    """The parts worth naming, and whether they add up or cancel.

    One side's branches set against the other side's value always differ in sign when
    that value lies between them, which is not two differences cancelling; only parts
    that compare like with like (paired branches, runs of steps) can cancel.
    """
    size = abs(loss)
    moving = [p for p in parts if abs(p.contribution) > _TINY * max(1.0, size)]
    spread = sum(abs(p.contribution) for p in moving)
    cancel = (
        len({p.contribution > 0 for p in moving}) == 2
        and spread > th.cancel * size
        and all(p.side == "both" for p in moving)
    )
    bar = max(th.floor, th.share * (size if not cancel else spread / 2))
    named = [p for p in moving if abs(p.contribution) >= bar]
    add_up = False
    if not named and moving:
        # No part carries the difference alone: name the biggest until they account for
        # most of it.
        add_up = True
        target = (1.0 - th.share) * size
        covered = 0.0
        for p in sorted(moving, key=lambda p: -abs(p.contribution)):
            if len(named) >= 6 or (named and covered >= target):
                break
            if abs(p.contribution) < th.floor:
                break
            named.append(p)
            covered += p.contribution if loss >= 0 else -p.contribution
        add_up = bool(named)
    named.sort(key=lambda p: -abs(p.contribution))
    return named, add_up, cancel


def _issues(
    parts: Sequence[Issue],
    loss: float,
    th: Thresholds,
    where: tuple[str, ...] = (),
    probability: float = 1.0,
    local: float | None = None,
) -> Issues:
    named, add_up, cancel = _select(parts, loss if local is None else local, th)
    rest = loss - sum(p.contribution for p in named)
    if abs(rest) <= _TINY * max(1.0, abs(loss)):
        rest = 0.0
    return Issues(loss, tuple(named), rest, where, probability, add_up, cancel)


# --------------------------------------------------------------------------- optimise mode


def step_key(s: PlanStep) -> tuple[object, ...]:
    """What must be equal for two plans to share a step."""
    return ("step", s.operator, s.args, tuple(sorted((k, round(v, 9)) for k, v in s.costs.items())))


def step_text(s: PlanStep) -> str:
    from .domain import call_text

    return s.description or call_text(s.operator, s.args)


def _summary(steps: Sequence[PlanStep], describe: Callable[[PlanStep], str]) -> tuple[str, ...]:
    """Step texts, with a run of the same operation said once ("... and 29 more like it")
    -- thirty solder-paste deposits are one difference, not thirty."""
    out: list[str] = []
    i = 0
    while i < len(steps):
        j = i
        while j + 1 < len(steps) and steps[j + 1].operator == steps[i].operator:
            j += 1
        n = j - i
        text = describe(steps[i])
        out.append(text if n < 2 else f"{text} and {n} more like it")
        if n == 1:
            out.append(describe(steps[j]))
        i = j + 1
    return tuple(out)


def step_issues(
    chosen: Sequence[PlanStep],
    other: Sequence[PlanStep],
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    describe: Callable[[PlanStep], str] = step_text,
) -> Issues:
    """The runs of steps where two plans differ, each with its cost difference.

    ``loss`` is the other plan's cost minus the chosen plan's: the sum of the runs.
    """
    ka, kb = [step_key(s) for s in chosen], [step_key(s) for s in other]
    parts: list[Issue] = []
    matcher = difflib.SequenceMatcher(a=ka, b=kb, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a, b = chosen[i1:i2], other[j1:j2]
        ca, cb = sum(s.cost for s in a), sum(s.cost for s in b)
        a_text, b_text = _summary(a, describe), _summary(b, describe)
        text = "; ".join(b_text) if b_text else "; ".join(a_text)
        parts.append(Issue("steps", text, cb - ca, ca, cb, chosen_side=a_text, other_side=b_text))
    loss = sum(s.cost for s in other) - sum(s.cost for s in chosen)
    return _issues(parts, loss, thresholds)


# --------------------------------------------------------------------------- game mode

Describe = Callable[[PolicyEdge], str]
Assumption = Callable[[PolicyEdge], "str | None"]


def edge_text(edge: PolicyEdge) -> str:
    return edge.step.description if edge.step is not None and edge.step.description else edge.label


def edge_assumption(edge: PolicyEdge) -> str | None:
    return edge.assumption


def _settle(node: PolicyNode) -> PolicyNode:
    """Skip our own later moves -- a decision's value is its chosen move's (the binding
    term), so the difference lies below it -- and forced replies (one move, p = 1)."""
    while node.children and (node.kind == "decision" or len(node.children) == 1):
        node = node.children[node.chosen if node.chosen is not None else 0].node
    return node


def _weights(node: PolicyNode) -> list[float] | None:
    """The children's normalised probabilities, or None when the node's value is not
    their expectation (another criterion, or no probabilities)."""
    if node.kind != "external" or not node.children:
        return None
    w = [e.probability if e.probability is not None else 0.0 for e in node.children]
    total = sum(w)
    if total <= 0:
        return None
    p = [x / total for x in w]
    expect = sum(pi * e.node.value for pi, e in zip(p, node.children, strict=True))
    if abs(expect - node.value) > 1e-6 * max(1.0, abs(node.value)):
        return None
    return p


def _keys(node: PolicyNode) -> list[tuple[str, int]]:
    seen: dict[str, int] = {}
    out = []
    for e in node.children:
        k = e.step.description if e.step is not None and e.step.description else e.label
        seen[k] = seen.get(k, 0) + 1
        out.append((k, seen[k]))
    return out


@dataclass(frozen=True)
class _Part:
    issue: Issue
    below: tuple[PolicyNode, PolicyNode] | None  # the pair to descend into
    factor: float  # contribution = factor * (below[0].value - below[1].value)
    label: str


def _branches(node: PolicyNode) -> list[float] | None:
    """The node's normalised branch probabilities when its branches matter: an
    expectation over children whose values differ (equal values make the branching
    irrelevant to any difference)."""
    p = _weights(node)
    if p is None or len({round(e.node.value, 9) for e in node.children}) < 2:
        return None
    return p


def _parts(
    x: PolicyNode, y: PolicyNode, describe: Describe, assumption: Assumption
) -> list[_Part] | None:
    """Split ``x.value - y.value`` into branch parts; None when neither side branches."""
    px, py = _branches(x), _branches(y)

    def part(
        edge: PolicyEdge,
        p: float,
        vx: float,
        vy: float,
        side: str,
        below: tuple[PolicyNode, PolicyNode] | None,
    ) -> _Part:
        c = p * (vx - vy)
        text, assume = describe(edge), assumption(edge)
        label = f"{assume} ({text})" if assume else text
        return _Part(Issue("branch", text, c, vx, vy, p, assume, side=side), below, p, label)

    if (
        px is not None
        and py is not None
        and _keys(x) == _keys(y)
        and all(abs(a - b) <= 1e-9 for a, b in zip(px, py, strict=True))
    ):
        return [
            part(ex, p, ex.node.value, ey.node.value, "both", (ex.node, ey.node))
            for p, ex, ey in zip(px, x.children, y.children, strict=True)
        ]
    if py is not None:  # the other alternative's branches, each against the chosen value
        return [
            part(e, p, x.value, e.node.value, "other", (x, e.node))
            for p, e in zip(py, y.children, strict=True)
        ]
    if px is not None:  # only the chosen side branches: said, not descended
        return [
            part(e, p, e.node.value, y.value, "chosen", None)
            for p, e in zip(px, x.children, strict=True)
        ]
    return None


def policy_issues(
    chosen: PolicyNode,
    other: PolicyNode,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    describe: Describe = edge_text,
    assumption: Assumption = edge_assumption,
) -> Issues:
    """Descend two alternatives' subtrees together to where their values part.

    ``chosen`` and ``other`` are the policy nodes below the two alternatives; ``loss`` is
    ``chosen.value - other.value`` (game mode: higher is better).  While exactly one branch
    carries most of the difference the descent goes down it (``where``); where several do,
    or the subtrees end, those are the issues.
    """
    loss = chosen.value - other.value
    x, y = _settle(chosen), _settle(other)
    where: list[str] = []
    scale = 1.0
    for _ in range(MAX_DEPTH):
        parts = _parts(x, y, describe, assumption)
        local = x.value - y.value
        if not parts:
            break
        named, _, cancel = _select([p.issue for p in parts], local, thresholds)
        if len(named) != 1 or cancel or abs(named[0].contribution) < 0.5 * abs(local):
            break
        part = next(p for p in parts if p.issue is named[0])
        if part.below is None:
            break
        nx, ny = _settle(part.below[0]), _settle(part.below[1])
        if (
            (nx is x and ny is y)
            or abs(nx.value - ny.value) <= _TINY
            or _parts(nx, ny, describe, assumption) is None
        ):
            break  # the part is itself the issue: nothing below says more
        where.append(part.label)
        scale *= part.factor
        x, y = nx, ny
    parts = _parts(x, y, describe, assumption)
    if parts is None:
        # Two outcomes (leaves, or nodes that do not branch): the difference is theirs.
        text = y.task + (f" ({y.note})" if y.note else "")
        items = [
            Issue(
                "outcome",
                text,
                scale * (x.value - y.value),
                x.value,
                y.value,
                scale if where else None,
            )
        ]
        return Issues(loss, tuple(items), loss - items[0].contribution, tuple(where), scale)
    scaled = [
        replace(
            p.issue,
            contribution=scale * p.issue.contribution,
            probability=scale * (p.issue.probability or 1.0),
        )
        for p in parts
    ]
    # The parts are judged against the difference at the point the descent stopped; what
    # it passed by on the way down is what ``rest`` keeps.
    return _issues(scaled, loss, thresholds, tuple(where), scale, local=scale * (x.value - y.value))
