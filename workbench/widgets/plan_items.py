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
from engine.tofs.explanation import Phrasing
from engine.tofs.reader import NOT_APPLIED, lower_first

__all__ = [
    "AlternativeItem",
    "ChoiceItem",
    "FailureItem",
    "FoldedItem",
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
    "run_value",
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


def run_value(r: RunResult, v: float | None) -> str:
    """A value of run ``r`` as its reader's view writes it (EDAPS "642.33 min"), so that
    every screen rounds the same way; ``fmt_value`` for a run without its explanation."""
    if v is None:
        return "?"
    e = r.explanation
    return e.phrasing.value(v) if e is not None else fmt_value(v)


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
    reader: bool = False
    """Labels and children at the reader's level: the knowledge's labels, no method
    identifiers, alternatives that never applied folded into one counted node, and a
    game's bare decompositions (next trick, whose turn) passed through."""
    # (choice node, alternative label) -> the alternative's value when finished (a pruned
    # alternative the explanation re-planned), for the reader's labels.
    replanned: dict[tuple[int, str], float] = field(default_factory=dict)

    @classmethod
    def of(cls, result: RunResult) -> RunView:
        words: dict[tuple[int, str], str] = {}
        replanned: dict[tuple[int, str], float] = {}
        if result.explanation is not None:
            for c in result.explanation.choices:
                for a in c.alternatives:
                    if a.magnitude not in (None, "about the same"):
                        words[(c.choice.node, a.label)] = a.magnitude
                    if a.replanned is not None:
                        replanned[(c.choice.node, a.label)] = a.replanned
        return cls(result, {cp.node: cp for cp in result.choice_points}, words, replanned=replanned)

    @property
    def mode(self) -> str:
        return self.result.mode

    @property
    def phrasing(self) -> Phrasing:
        e = self.result.explanation
        return e.phrasing if e is not None else Phrasing()

    def noun(self, n: int) -> str:
        one, many = self.phrasing.alternatives
        return one if n == 1 else many

    def fold(self, cp: ChoicePoint | None, items: list[PlanItem]) -> list[PlanItem]:
        """At the reader's level, the alternatives of ``cp`` that never applied become one
        counted node (kept as its children); elsewhere ``items`` as they are."""
        if not self.reader or cp is None:
            return items
        never = [
            i
            for i in items
            if isinstance(i, AlternativeItem) and i.alternative.reason in NOT_APPLIED
        ]
        if not never:
            return items
        kept = [i for i in items if not any(i is n for n in never)]
        return [*kept, FoldedItem(self, cp, tuple(never))]


def _reader_reason(view: RunView, cp: ChoicePoint, a: AlternativeRecord) -> str:
    """Why an alternative was or was not taken, in the reader's words."""
    if a.reason is Reason.WEIGHTED:
        return ""
    if a.chosen:
        return "chosen"
    word = view.magnitudes.get((cp.node, a.label))
    if a.reason is Reason.TIE or (a.reason is Reason.LOWER_VALUE and word is None):
        return "as good (a tie)" if a.reason is Reason.TIE else "about the same"
    if word is not None and a.reason in (
        Reason.LOWER_VALUE,
        Reason.PARTIAL_PLAN_PRUNED,
        Reason.BOUND_PRUNED,
    ):
        return f"{word} worse"
    if a.reason is Reason.DEAD_END:
        return "no plan below"
    if a.reason in NOT_APPLIED:
        return "did not apply"
    return "cut off before the end"


def reader_words(a: AlternativeRecord) -> str:
    """An alternative as the reader's view names it: its move and the knowledge's label
    ("North leads ♦A: set up a diamond discard for the club losers"), never its call."""
    title = a.title or a.method
    if a.move and a.title:
        return f"{a.move}: {lower_first(title)}"
    return a.move or title


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
        policy = view.result.policy
        return PolicyItem(view, _through(policy) if view.reader else policy)
    return SummaryItem(view)


def _through(node: PolicyNode) -> PolicyNode:
    """Past a game's bare decompositions -- one way on, no move made (the next trick,
    whose turn it is) -- to where something is decided or played."""
    while node.kind == "decision" and len(node.children) == 1 and node.children[0].step is None:
        node = node.children[0].node
    return node


def _value_parts(
    value: float | None, bound: bool, mode: str, run: RunResult | None = None
) -> tuple[Part, ...]:
    """An alternative's value as a badge, written as the run's reader's view writes it;
    none for a plan without costs (all 0)."""
    if value is None or (run is not None and not run.costed):
        return ()
    prefix = ("≤ " if mode == "game" else "≥ ") if bound else ""
    shown = run_value(run, value) if run is not None else fmt_value(value)
    return ((f"  {prefix}{shown}", "value"),)


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
        return (*head, (f"  {r.size_text(lambda v: run_value(r, v))}", "value"))

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
            said = reader_words(chosen) if self.view.reader else chosen.label
            out.append((f"  → {said}", "value"))
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
        items: list[PlanItem] = [
            AlternativeItem(self.view, self.choice, a) for a in self.choice.alternatives
        ]
        return self.view.fold(self.choice, items)


@dataclass(eq=False)
class AlternativeItem(PlanItem):
    """One alternative at a choice point, with the reason it was or was not taken."""

    choice: ChoicePoint
    alternative: AlternativeRecord

    def parts(self) -> tuple[Part, ...]:
        a = self.alternative
        weighted = a.reason is Reason.WEIGHTED
        mark = ("▸ " if a.chosen else "· ") if weighted else ("✓ " if a.chosen else "✗ ")
        if self.view.reader:
            return self._reader_parts(mark)
        out: list[Part] = [(mark, "mark"), (a.label, "")]
        if a.probability is not None:
            out.append((f"  p={fmt_prob(a.probability)}", "prob"))
        out.extend(_value_parts(a.value, a.value_is_bound, self.view.mode, self.view.result))
        if not a.chosen and not weighted:
            word = self.view.magnitudes.get((self.choice.node, a.label))
            out.append((f"  {a.reason}" + (f", {word} worse" if word else ""), "reason"))
        return tuple(out)

    def _reader_parts(self, mark: str) -> tuple[Part, ...]:
        a, cp = self.alternative, self.choice
        out: list[Part] = [(mark, "mark"), (reader_words(a), "")]
        if a.probability is not None:
            out.append((f"  p={fmt_prob(a.probability)}", "prob"))
        value = self.view.replanned.get((cp.node, a.label))
        if value is not None:
            out.append((f"  {run_value(self.view.result, value)}", "value"))
        elif a.reason not in NOT_APPLIED and (
            in_contention_record(a) or a.reason is Reason.WEIGHTED
        ):
            out.extend(_value_parts(a.value, a.value_is_bound, self.view.mode, self.view.result))
        why = _reader_reason(self.view, cp, a)
        if why and not a.chosen:
            out.append((f"  {why}", "reason"))
        return tuple(out)

    @property
    def tone(self) -> Tone:
        a = self.alternative
        if a.reason is Reason.WEIGHTED:
            return Tone.PLANNED if a.chosen else Tone.PLAIN
        return Tone.CHOSEN if a.chosen else Tone.REJECTED


def in_contention_record(a: AlternativeRecord) -> bool:
    """Searched and valued: its value is worth showing at the reader's level."""
    return a.chosen or (
        a.reason in (Reason.LOWER_VALUE, Reason.TIE)
        and a.value is not None
        and not a.value_is_bound
    )


@dataclass(eq=False)
class FoldedItem(PlanItem):
    """At the reader's level, the alternatives of a choice point that never applied, as one
    counted node; opening it lists them (``f`` shows the whole tree)."""

    choice: ChoicePoint
    folded: tuple[PlanItem, ...]

    def parts(self) -> tuple[Part, ...]:
        n = len(self.folded)
        return (("… ", "mark"), (f"{n} other {self.view.noun(n)} did not apply here", "muted"))

    @property
    def expandable(self) -> bool:
        return True

    def children(self) -> list[PlanItem]:
        return list(self.folded)


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
            out.append((f"  [{run_value(self.view.result, s.cost)}]", "value"))
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
        if self.view.reader:
            return self._reader_parts(mark)
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

    def _reader_parts(self, mark: str) -> tuple[Part, ...]:
        """The move in the reader's words: ours with the plan's label, theirs with what it
        stands for ("West plays ♥K -- opponent ruffs: diamonds 5-1 ...")."""
        n, edge, parent = self.node, self.edge, self.parent
        assert edge is not None and parent is not None
        alt = self.alternative
        if parent.kind == "decision" and alt is not None:
            words = reader_words(alt)
        else:
            words = edge.step.description if edge.step is not None else edge.label
            said = self.view.phrasing.assumption(edge)
            if parent.kind == "external" and said:
                words = f"{words} -- {said}"
        out: list[Part] = [(mark, "mark"), (words, "")]
        if edge.probability is not None:
            out.append((f"  p={fmt_prob(edge.probability)}", "prob"))
        out.append((f"  {fmt_value(n.value)}", "value"))
        if parent.kind == "decision" and not self.planned and alt is not None:
            cp = self.choice
            why = _reader_reason(self.view, cp, alt) if cp is not None else ""
            if why:
                out.append((f"  {why}", "reason"))
        shown = _through(n)
        if shown.kind != "leaf":
            out.append((f"  → {shown.task}", "muted"))
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
        n = _through(self.node) if self.view.reader and self.edge is not None else self.node
        cp = self.view.choice_by_node.get(n.node)
        return bool(n.children) or bool(cp and cp.alternatives)

    @property
    def auto_open(self) -> bool:
        return self.on_policy and self.planned

    def children(self) -> list[PlanItem]:
        n = self.node
        if self.view.reader and self.edge is not None:
            n = _through(n)  # the next trick and whose turn it is: straight to the play
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
        return self.view.fold(cp, items)
