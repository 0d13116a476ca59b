"""How bridge explanations say things: scores in points, opponents' moves by the belief
outcome they stand for ("diamonds 3-3"), and the standing as the chance of making."""

from __future__ import annotations

from engine.tofs import Domain, PolicyEdge, PolicyNode, RunResult
from engine.tofs.explanation import Phrasing
from engine.tofs.issues import Issue, Issues

from .network import OutcomeArg

__all__ = [
    "assumption",
    "gist",
    "make_probability",
    "move",
    "phrasing",
    "points",
    "standing",
]

# The chance of making, in words (lower bounds, best first).
CHANCES = (
    (0.95, "almost certain"),
    (0.75, "likely"),
    (0.5, "better than even"),
    (0.25, "against the odds"),
    (0.0, "a long shot"),
)


def points(v: float) -> str:
    return f"{v:+.0f}" if abs(v - round(v)) < 0.005 else f"{v:+.2f}"


def difference(v: float) -> str:
    return f"{v:.0f}" if abs(v - round(v)) < 0.005 else f"{v:.2f}"


def move(edge: PolicyEdge) -> str:
    return edge.step.description if edge.step is not None else edge.label


def assumption(edge: PolicyEdge) -> str | None:
    """What an opponent's card stands for: the outcome of the scheme's belief view
    ("diamonds 3-3") where it answers one, else its method's assumption."""
    outcome = next((v for _, v in edge.bindings if isinstance(v, OutcomeArg)), None)
    return str(outcome) if outcome else edge.assumption


def gist(issues: Issues) -> str | None:
    """What a plan depends on: the assumptions under which it makes and those under which
    it goes down, with their chances ("makes only if clubs 4-3 (p = 0.72); against clubs
    5-2 (p = 0.28) it goes down")."""
    branches = [
        i
        for i in issues.items
        if i.kind == "branch"
        and i.side == "other"
        and i.assumption
        and i.other is not None
        and i.probability is not None
    ]
    makes = [i for i in branches if (i.other or 0.0) > 0]
    fails = [i for i in branches if (i.other or 0.0) <= 0]
    if not makes or not fails:
        return None

    def said(group: list[Issue]) -> str:
        names = " or ".join(dict.fromkeys(str(i.assumption) for i in group))
        return f"{names} (p = {sum(i.probability or 0.0 for i in group):.2f})"

    return f"it makes only if {said(makes)}; against {said(fails)} it goes down"


def make_probability(node: PolicyNode) -> float:
    """The chance the planned line ends with a plus score, by the planner's own tree:
    our chosen moves, the opponents' moves weighted, leaves judged by their sign."""
    if node.kind == "decision" and node.children:
        return make_probability(node.children[node.chosen or 0].node)
    if node.kind == "external" and node.children:
        weights = [e.probability or 0.0 for e in node.children]
        total = sum(weights) or 1.0
        return sum(
            w / total * make_probability(e.node)
            for w, e in zip(weights, node.children, strict=True)
        )
    return 1.0 if node.value > 0 else 0.0


def standing(run: RunResult) -> str | None:
    if run.policy is None or run.value is None:
        return None
    p = make_probability(run.policy)
    word = next(w for bound, w in CHANCES if p >= bound)
    return (
        f"This contract is {word}: it makes with p = {p:.2f} in the planner's tree "
        f"(expected score {points(run.value)})."
    )


def phrasing(domain: Domain) -> Phrasing:
    return Phrasing(
        value=points,
        difference=difference,
        move=move,
        assumption=assumption,
        standing=standing,
        gist=gist,
        alternatives=("scheme", "schemes"),
    )
