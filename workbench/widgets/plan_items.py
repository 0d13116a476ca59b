"""What each node of the plan tree stands for, says and contains.

The tree widget is a thin Textual shell; everything that decides a node's label, its tone
(chosen, planned, rejected, ...) and its children lives here as plain Python, so it can be
read and tested without an app.  Children are produced on demand: a big decision tree costs
only what the user opens.

Labels are tuples of ``(text, role)`` parts; the widget maps roles and tones to component
classes styled in ``app.tcss``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from engine.tofs import (
    AlternativeRecord,
    ChoicePoint,
    Failure,
    PlanStep,
    PolicyEdge,
    PolicyNode,
    Reason,
    RunResult,
)

__all__ = [
    "AlternativeItem",
    "ChoiceItem",
    "FailureItem",
    "Part",
    "PlanItem",
    "PolicyItem",
    "RunView",
    "StepItem",
    "SummaryItem",
    "Tone",
    "fmt_prob",
    "fmt_value",
    "root_item",
]

Part = tuple[str, str]
"""A piece of a label and its role: "" (plain), "mark", "value", "prob", "reason", "muted"."""

# At most this many choice points are opened automatically when a plan is shown.
AUTO_OPEN_CHOICES = 12


class Tone(StrEnum):
    """How a whole line looks; each maps to a ``plan-tree--<tone>`` component class."""

    PLAIN = "plain"
    SUMMARY = "summary"
    CHOICE = "choice"
    STEP = "step"
    CHOSEN = "chosen"
    PLANNED = "planned"
    REJECTED = "rejected"
    OFFPATH = "offpath"
    FAILURE = "failure"


def fmt_value(v: float | None) -> str:
    return "?" if v is None else f"{v:g}"


def fmt_prob(p: float) -> str:
    return f"{p:.3g}"


@dataclass(eq=False)
class RunView:
    """A run result plus the look-ups every item needs, built once per run."""

    result: RunResult
    choice_by_node: dict[int, ChoicePoint] = field(default_factory=dict)
    # (choice node, alternative label) -> "slightly" / "clearly" / "far": the badge a
    # lower-valued alternative carries, from the run's explanation when it has one.
    magnitudes: dict[tuple[int, str], str] = field(default_factory=dict)

    @classmethod
    def of(cls, result: RunResult) -> RunView:
        words = {}
        if result.explanation is not None:
            words = {
                (c.choice.node, a.label): a.magnitude
                for c in result.explanation.choices
                for a in c.alternatives
                if a.magnitude not in (None, "about the same")
            }
        return cls(result, {cp.node: cp for cp in result.choice_points}, words)

    @property
    def mode(self) -> str:
        return self.result.mode


@dataclass(eq=False)
class PlanItem:
    """Base of all items: a label, a tone and (maybe) children."""

    view: RunView

    def parts(self) -> tuple[Part, ...]:
        raise NotImplementedError

    @property
    def tone(self) -> Tone:
        return Tone.PLAIN

    @property
    def expandable(self) -> bool:
        return False

    @property
    def auto_open(self) -> bool:
        """Open this node when the plan is first shown (the chosen path)."""
        return False

    def children(self) -> list[PlanItem]:
        return []

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.parts())


def root_item(view: RunView) -> PlanItem:
    """The tree's root: the policy for a game, the plan summary otherwise."""
    if view.result.policy is not None:
        return PolicyItem(view, view.result.policy)
    return SummaryItem(view)


def _value_parts(value: float | None, bound: bool, mode: str) -> tuple[Part, ...]:
    if value is None:
        return ()
    prefix = ("≤ " if mode == "game" else "≥ ") if bound else ""
    return ((f"  {prefix}{fmt_value(value)}", "value"),)


@dataclass(eq=False)
class SummaryItem(PlanItem):
    """Root of an optimise/first run: the choice points and plan steps in the order built."""

    def parts(self) -> tuple[Part, ...]:
        r = self.view.result
        head: tuple[Part, ...] = (
            (f"{r.domain}/{r.problem}", ""),
            (f"  {r.mode} · {r.outcome_text}", "muted"),
        )
        if r.value is None:
            return head
        return (*head, (f"  value {fmt_value(r.value)}", "value"))

    @property
    def tone(self) -> Tone:
        return Tone.SUMMARY

    @property
    def expandable(self) -> bool:
        return True

    @property
    def auto_open(self) -> bool:
        return True

    def children(self) -> list[PlanItem]:
        r = self.view.result
        # Node ids grow along any path of the search tree, so sorting by node replays the
        # order in which the plan was built: each choice, then the steps it led to.
        ordered: list[tuple[int, int, PlanItem]] = [
            (cp.node, 0, ChoiceItem(self.view, cp)) for cp in r.choice_points
        ]
        ordered += [(s.node, 1, StepItem(self.view, s, i)) for i, s in enumerate(r.plan, 1)]
        items = [item for _, _, item in sorted(ordered, key=lambda t: (t[0], t[1]))]
        if r.failure is not None:
            items.append(FailureItem(self.view, r.failure))
        return items


@dataclass(eq=False)
class ChoiceItem(PlanItem):
    """A choice point on the plan; its children are every alternative considered."""

    choice: ChoicePoint

    def parts(self) -> tuple[Part, ...]:
        cp = self.choice
        chosen = cp.chosen
        out: list[Part] = [("◆ ", "mark"), (cp.task, "")]
        if chosen is not None:
            out.append((f"  → {chosen.label}", "value"))
        return tuple(out)

    @property
    def tone(self) -> Tone:
        return Tone.CHOICE

    @property
    def expandable(self) -> bool:
        return bool(self.choice.alternatives)

    @property
    def auto_open(self) -> bool:
        return len(self.view.result.choice_points) <= AUTO_OPEN_CHOICES

    def children(self) -> list[PlanItem]:
        return [AlternativeItem(self.view, self.choice, a) for a in self.choice.alternatives]


@dataclass(eq=False)
class AlternativeItem(PlanItem):
    """One alternative at a choice point, with the reason it was or was not taken."""

    choice: ChoicePoint
    alternative: AlternativeRecord

    def parts(self) -> tuple[Part, ...]:
        a = self.alternative
        weighted = a.reason is Reason.WEIGHTED
        mark = ("▸ " if a.chosen else "· ") if weighted else ("✓ " if a.chosen else "✗ ")
        out: list[Part] = [(mark, "mark"), (a.label, "")]
        if a.probability is not None:
            out.append((f"  p={fmt_prob(a.probability)}", "prob"))
        out.extend(_value_parts(a.value, a.value_is_bound, self.view.mode))
        if not a.chosen and not weighted:
            word = self.view.magnitudes.get((self.choice.node, a.label))
            out.append((f"  {a.reason}" + (f", {word} worse" if word else ""), "reason"))
        return tuple(out)

    @property
    def tone(self) -> Tone:
        a = self.alternative
        if a.reason is Reason.WEIGHTED:
            return Tone.PLANNED if a.chosen else Tone.PLAIN
        return Tone.CHOSEN if a.chosen else Tone.REJECTED


@dataclass(eq=False)
class StepItem(PlanItem):
    """One operator application of the plan."""

    step: PlanStep
    index: int

    def parts(self) -> tuple[Part, ...]:
        s = self.step
        text = s.description or f"{s.operator}{s.args!r}"
        out: list[Part] = [(f"{self.index}. ", "muted"), (text, "")]
        if s.costs:
            out.append((f"  [{fmt_value(s.cost)}]", "value"))
        return tuple(out)

    @property
    def tone(self) -> Tone:
        return Tone.STEP


@dataclass(eq=False)
class FailureItem(PlanItem):
    """The deepest failure of a run that found no plan."""

    failure: Failure

    def parts(self) -> tuple[Part, ...]:
        return (("✗ ", "mark"), ("deepest failure: ", "reason"), (self.failure.message, ""))

    @property
    def tone(self) -> Tone:
        return Tone.FAILURE


@dataclass(eq=False)
class PolicyItem(PlanItem):
    """A node of a game policy, reached by ``edge`` from ``parent`` (both None at the root).

    One tree line shows the move (edge) and the value of the position it leads to; its
    children are the moves from there, plus alternatives that were never applicable.
    """

    node: PolicyNode
    edge: PolicyEdge | None = None
    parent: PolicyNode | None = None
    index: int = 0
    on_policy: bool = True

    @property
    def choice(self) -> ChoicePoint | None:
        """The choice point this move was one alternative of, if it was recorded."""
        return None if self.parent is None else self.view.choice_by_node.get(self.parent.node)

    @property
    def alternative(self) -> AlternativeRecord | None:
        cp, edge = self.choice, self.edge
        if cp is None or edge is None:
            return None
        by_node = next((a for a in cp.alternatives if a.node == self.node.node), None)
        return by_node or next(
            (a for a in cp.alternatives if a.label == edge.label and a.method == edge.method), None
        )

    @property
    def planned(self) -> bool:
        """Our chosen move at a decision node, the most likely move at an opponent's."""
        p = self.parent
        if p is None:
            return True
        return self.index == (p.chosen if p.kind == "decision" else p.planned)

    def parts(self) -> tuple[Part, ...]:
        n, edge, parent = self.node, self.edge, self.parent
        if edge is None or parent is None:
            who = f" ({n.agent})" if n.agent is not None else ""
            return (
                (n.task, ""),
                (f"  {n.kind}{who}", "muted"),
                (f"  value {fmt_value(n.value)}", "value"),
            )
        if parent.kind == "decision":
            mark = "✓ " if self.planned else "✗ "
        else:
            mark = "▸ " if self.planned else "· "
        out: list[Part] = [(mark, "mark"), (edge.label, "")]
        if edge.step is not None and edge.step.description:
            out.append((f": {edge.step.description}", ""))
        if edge.probability is not None:
            out.append((f"  p={fmt_prob(edge.probability)}", "prob"))
        out.append((f"  {fmt_value(n.value)}", "value"))
        if parent.kind == "decision" and not self.planned:
            alt = self.alternative
            word = self.view.magnitudes.get((parent.node, alt.label)) if alt else None
            why = f"{alt.reason}" + (f", {word} worse" if word else "") if alt else "not chosen"
            out.append((f"  {why}", "reason"))
        if n.kind != "leaf":
            out.append((f"  → {n.task}", "muted"))
        return tuple(out)

    @property
    def tone(self) -> Tone:
        if self.parent is None:
            return Tone.SUMMARY
        if not self.on_policy:
            return Tone.OFFPATH
        if self.parent.kind == "decision":
            return Tone.CHOSEN if self.planned else Tone.REJECTED
        return Tone.PLANNED if self.planned else Tone.PLAIN

    @property
    def expandable(self) -> bool:
        cp = self.view.choice_by_node.get(self.node.node)
        return bool(self.node.children) or bool(cp and cp.alternatives)

    @property
    def auto_open(self) -> bool:
        return self.on_policy and self.planned

    def children(self) -> list[PlanItem]:
        n = self.node
        # Below a move we did not choose, nothing is on the policy any more.
        deeper = self.on_policy and (
            self.parent is None or self.parent.kind != "decision" or self.planned
        )
        edges = [PolicyItem(self.view, e.node, e, n, i, deeper) for i, e in enumerate(n.children)]
        cp = self.view.choice_by_node.get(n.node)
        if cp is None:
            return list(edges)
        items: list[PlanItem] = []
        used: set[int] = set()
        for alt in cp.alternatives:
            match = next((e for e in edges if id(e) not in used and e.alternative is alt), None)
            if match is not None:
                used.add(id(match))
                items.append(match)
            else:
                items.append(AlternativeItem(self.view, cp, alt))
        items.extend(e for e in edges if id(e) not in used)
        return items
