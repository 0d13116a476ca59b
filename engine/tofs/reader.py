"""The reader's view: one explanation at the level a domain expert reads it.

The audit (:mod:`.explanation`) gives every alternative at every choice point its one
reason -- what a knowledge engineer needs, and one flag away.  A bridge teacher or a process
engineer reads something shorter: the standing and the decision first; then only the
alternatives that were really in contention (searched and valued), grouped by what the
person deciding would do -- the card, the process -- each with its value, the size of the
difference in words, the plan in the knowledge's own label, what it rests on with its
chances and the relevant issue; and the alternatives that never applied counted in one
line.  Method identifiers and call syntax never appear: plans are named by their methods'
label templates (:attr:`~.results.AlternativeRecord.title`), so rewording a label in the
knowledge rewords the explanation.

Nothing is judged anew here: every number, word and issue is the audit's own, chosen and
grouped (the tests check that every number shown is the audit's); :mod:`.render` lays the
view out as text, Markdown or JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from .explanation import (
    AlternativeExplanation,
    ChoiceExplanation,
    Explanation,
    Phrasing,
    standing_text,
)
from .issues import Issue
from .results import PolicyNode, Reason

__all__ = [
    "NOT_APPLIED",
    "ReaderChoice",
    "ReaderOption",
    "ReaderPlan",
    "ReaderView",
    "Risk",
    "lower_first",
    "plan_risks",
    "plan_words",
    "reader_view",
]

NOT_APPLIED = frozenset({Reason.PRECONDITION_FAILED, Reason.NO_BINDING})
"""Reasons of alternatives that never applied: counted in one line, never listed."""

# Risks named below the chosen plan; more are counted.
MAX_RISKS = 4
_TINY = 1e-9


def lower_first(text: str) -> str:
    """A label used inside a sentence: "Set up a ruff" -> "set up a ruff".  Labels start
    with a verb ("Cross to East ..."), so only a word in capitals ("VMC ...") or a name
    written in camel case keeps its case."""
    first = text.split(" ", 1)[0]
    if len(first) > 1 and first[0].isupper() and first[1:].islower():
        return text[0].lower() + text[1:]
    if len(first) == 1 and first.isupper() and len(text) > 1:
        return text[0].lower() + text[1:]  # "A defender plays"
    return text


@dataclass(frozen=True)
class Risk:
    """An answer of the other side (or of chance) below the chosen plan that the plan did
    not bank on: its move, what it stands for, its probability and where it ends."""

    move: str
    assumption: str | None
    probability: float | None
    value: float
    worse: bool  # worse than the answer the plan expects (else better)
    then: bool  # reached only after an earlier answer of the plan (a conditional chance)


@dataclass(frozen=True)
class ReaderPlan:
    """One plan behind an option: the audit's alternatives that make the same move and
    come to the same value, said together ("set up a spade ruff or take a spade finesse").
    """

    alternatives: tuple[AlternativeExplanation, ...]
    titles: tuple[str, ...]
    value: float | None
    loss: float | None
    magnitude: str | None
    chosen: bool
    gist: str | None = None
    issue: Issue | None = None
    where: tuple[str, ...] = ()
    failure: str | None = None  # a dead end: its deepest failure

    @property
    def tie(self) -> bool:
        return not self.chosen and (
            self.magnitude == "about the same"
            or any(a.reason is Reason.TIE for a in self.alternatives)
        )

    @property
    def dead_end(self) -> bool:
        return any(a.reason is Reason.DEAD_END for a in self.alternatives)


@dataclass(frozen=True)
class ReaderOption:
    """What the person deciding would do -- a card, a process -- and the plans behind it,
    the best first."""

    move: str
    plans: tuple[ReaderPlan, ...]

    @property
    def chosen(self) -> bool:
        return any(p.chosen for p in self.plans)

    @property
    def best(self) -> ReaderPlan:
        return self.plans[0]


@dataclass(frozen=True)
class ReaderChoice:
    """One decision as a domain expert reads it: the head sentence, the verdict, what the
    chosen plan risks, the options in contention and the count of the rest."""

    choice: ChoiceExplanation
    head: str
    verdict: str
    chosen: ReaderOption | None
    others: tuple[ReaderOption, ...]
    risks: tuple[Risk, ...] = ()
    more_risks: int = 0
    sure: bool = False  # every answer planned for ends at the same value
    not_applied: int = 0
    not_applied_titles: tuple[str, ...] = ()
    cut_off: int = 0  # pruned or not searched to the end
    later: bool = False  # a later move on the planned line of a game: said in one line
    forced: bool = False  # nothing else was in contention

    @property
    def task(self) -> str:
        return self.choice.task

    @property
    def plans(self) -> tuple[ReaderPlan, ...]:
        """Every plan shown, chosen first."""
        own = self.chosen.plans if self.chosen is not None else ()
        return own + tuple(p for o in self.others for p in o.plans)


@dataclass(frozen=True)
class ReaderView:
    """A run at the reader's level: the standing, the domain's findings, the decisions."""

    explanation: Explanation
    standing: str
    findings: tuple[str, ...]
    choices: tuple[ReaderChoice, ...]
    off_line: int = 0  # decisions of a game off the planned line (the audit has them)

    @property
    def phrasing(self) -> Phrasing:
        return self.explanation.phrasing

    @property
    def mode(self) -> str:
        return self.explanation.mode


# --------------------------------------------------------------------------- building


def _title(a: AlternativeExplanation) -> str:
    """The alternative in the knowledge's words: its method's label, else its method."""
    return a.record.title or a.record.method


def _said(a: AlternativeExplanation) -> str:
    """The title inside a sentence (a label lower-cased; a bare method name as it is)."""
    return lower_first(a.record.title) if a.record.title else a.record.method


def _value(a: AlternativeExplanation) -> float | None:
    return a.replanned if a.replanned is not None else a.record.value


def in_contention(a: AlternativeExplanation) -> bool:
    """Searched and valued (or, in first-plan mode, tried): what the reader is shown."""
    r = a.reason
    if a.chosen or r is Reason.DEAD_END:
        return True
    if r in (Reason.LOWER_VALUE, Reason.TIE):
        return a.record.value is not None and not a.record.value_is_bound
    if r in (Reason.PARTIAL_PLAN_PRUNED, Reason.BOUND_PRUNED):
        return a.replanned is not None
    return False


def _plans(alts: list[AlternativeExplanation]) -> list[ReaderPlan]:
    """The plans of one option: the chosen alternative alone, the others merged by value."""
    out: list[ReaderPlan] = []
    by_value: dict[tuple[object, ...], list[AlternativeExplanation]] = {}
    order: list[tuple[object, ...]] = []
    for a in alts:
        if a.chosen:
            out.append(_plan([a]))
            continue
        v = _value(a)
        key = ("dead end", len(order)) if v is None else (round(v, 6),)
        if key not in by_value:
            by_value[key] = []
            order.append(key)
        by_value[key].append(a)
    out += [_plan(by_value[k]) for k in order]
    return out


def _plan(alts: list[AlternativeExplanation]) -> ReaderPlan:
    first = alts[0]
    titles = tuple(dict.fromkeys(_said(a) for a in alts))
    with_issues = next((a for a in alts if a.issues is not None and a.issues.items), None)
    gist = next((a.gist for a in alts if a.gist), None)
    failure = next(
        (
            a.record.failure.message
            for a in alts
            if a.reason is Reason.DEAD_END and a.record.failure
        ),
        None,
    )
    return ReaderPlan(
        tuple(alts),
        titles,
        _value(first),
        first.loss,
        first.magnitude,
        first.chosen,
        gist,
        with_issues.issues.items[0] if with_issues and with_issues.issues else None,
        with_issues.issues.where if with_issues and with_issues.issues else (),
        failure,
    )


def _options(c: ChoiceExplanation, mode: str) -> tuple[ReaderOption | None, list[ReaderOption]]:
    groups: dict[str, list[AlternativeExplanation]] = {}
    for a in c.alternatives:
        if in_contention(a):
            groups.setdefault(a.record.move or _said(a), []).append(a)
    chosen: ReaderOption | None = None
    others: list[ReaderOption] = []
    for move, alts in groups.items():
        plans = _plans(alts)
        head = [p for p in plans if p.chosen]
        rest = sorted((p for p in plans if not p.chosen), key=lambda p: _rank(p, mode))
        option = ReaderOption(move, tuple(head + rest))
        if head:
            chosen = option
        else:
            others.append(option)
    others.sort(key=lambda o: _rank(o.best, mode))
    return chosen, others


def _rank(p: ReaderPlan, mode: str) -> tuple[int, float]:
    """Best first: the highest value in a game, the lowest cost otherwise; dead ends last."""
    if p.value is None:
        return (1, 0.0)
    return (0, -p.value if mode == "game" else p.value)


def _risks(node: PolicyNode, phrasing: Phrasing, value: float) -> tuple[list[Risk], bool]:
    """The other side's answers below a plan, along the line it expects: those it does not
    bank on, and whether it branched at all (an answer-proof plan branches to one value)."""
    out: list[Risk] = []
    branched = False
    n = node
    for _ in range(1000):
        if not n.children:
            break
        if n.kind == "decision":
            n = n.children[n.chosen or 0].node
            continue
        planned = n.planned or 0
        if len(n.children) > 1:
            expect = n.children[planned].node.value
            for i, edge in enumerate(n.children):
                v = edge.node.value
                if i == planned or abs(v - expect) <= _TINY * max(1.0, abs(value)):
                    continue
                out.append(
                    Risk(
                        phrasing.move(edge),
                        phrasing.assumption(edge),
                        edge.probability,
                        v,
                        v < expect,
                        branched,
                    )
                )
            branched = True
        n = n.children[planned].node
    return out, branched


def plan_risks(e: Explanation, plan: ReaderPlan) -> tuple[list[Risk], bool]:
    """The answers below ``plan`` -- any plan of the choice, not only the chosen one -- that
    it does not bank on, and whether it branched at all (as :func:`reader_view` finds
    them for the chosen plan).  For a front end that follows another plan than the
    planner's choice (bridge: a tie settled by sampled layouts)."""
    run = e.run
    record = plan.alternatives[0].record
    if run.policy is None or record.node is None or plan.value is None:
        return [], False
    node = next((n for n in run.policy.walk() if n.node == record.node), None)
    if node is None:
        return [], False
    return _risks(node, e.phrasing, plan.value)


def _principal(root: PolicyNode | None) -> set[int]:
    nodes: set[int] = set()
    n = root
    while n is not None:
        nodes.add(n.node)
        if not n.children:
            break
        i = n.chosen if n.kind == "decision" else n.planned
        n = n.children[i or 0].node
    return nodes


def _names(items: list[str]) -> str:
    """ "a", "a or b", "a, b or c"."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} or {items[-1]}"


def _and(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def plan_words(option: ReaderOption, plan: ReaderPlan) -> str:
    """The option and one of its plans as a phrase: "North leads ♦A, to set up a diamond
    discard for the club losers"; a process with no move of its own is its plan."""
    titles = _names(list(plan.titles))
    if option.move and titles and titles != option.move:
        return f"{option.move}, to {titles}"
    return option.move or titles


def _untried(c: ChoiceExplanation) -> int:
    """Alternatives never tried because a plan was found first (first-plan mode)."""
    return sum(1 for a in c.alternatives if a.reason is Reason.NOT_EXPANDED)


def _verdict(
    chosen: ReaderOption | None,
    others: list[ReaderOption],
    mode: str,
    p: Phrasing,
    noun: str,
    untried: int = 0,
) -> str:
    if chosen is None:
        return "Nothing was chosen here."
    valued = [o for o in others if o.best.value is not None]
    if mode == "first" or not valued:
        tried = sum(1 for o in others for pl in o.plans if pl.dead_end)
        if tried:
            first = f"the first {noun}, in the order tried, that led to a plan"
            return f"It is {first}; {tried} tried before it led to no plan."
        if untried:
            # The others were never tried: nothing says they would not have applied.
            were = "was" if untried == 1 else "were"
            return (
                f"It is the first {noun}, in the order tried, that led to a plan; "
                f"{untried} other{'s' * (untried != 1)} {were} not tried."
            )
        return f"It is the only {noun} that applied here."
    ties = [o for o in valued if o.best.tie]
    if ties:
        moves = _and([o.move for o in ties])
        value = p.value(ties[0].best.value or 0.0)
        return (
            f"{moves} would be as good ({value}); {chosen.move} comes first in the order "
            f"the knowledge lists its {p.alternatives[1]}."
        )
    runner = valued[0]
    word = runner.best.magnitude or "clearly"
    value = p.value(runner.best.value or 0.0)
    if mode != "game" and runner.best.loss is not None:
        # A cost: what a planner reads is the time saved, then the total it compares.
        return (
            f"It is {word} better than the next best, {runner.move}: "
            f"{p.diff(runner.best.loss)} less ({value} in all)."
        )
    return f"It is {word} better than the next best, {runner.move} ({value})."


def _head(c: ChoiceExplanation, chosen: ReaderOption | None, mode: str, p: Phrasing) -> str:
    if chosen is None:
        return f"{c.task}: nothing was chosen."
    plan = chosen.best
    value = f" ({p.value(plan.value)})" if mode == "game" and plan.value is not None else ""
    return f"{c.task}: {plan_words(chosen, plan)}{value}."


def _counts(c: ChoiceExplanation) -> tuple[int, tuple[str, ...], int]:
    not_applied = [a for a in c.alternatives if a.reason in NOT_APPLIED]
    cut = [a for a in c.alternatives if a.reason not in NOT_APPLIED and not in_contention(a)]
    titles = tuple(dict.fromkeys(_title(a) for a in not_applied))
    return len(not_applied), titles, len(cut)


def reader_view(e: Explanation) -> ReaderView:
    """The reader's view of ``e``: decisions only (the other side's moves are what the
    plans rest on); in a game the first decision in full and the later ones on the planned
    line in one sentence each."""
    p = e.phrasing
    noun = p.alternatives[0]
    run = e.run
    game = e.mode == "game"
    on_line = _principal(run.policy) if game else set()
    index = {n.node: n for n in run.policy.walk()} if run.policy is not None else {}
    choices: list[ReaderChoice] = []
    off_line = 0
    lead_seen = False
    for c in sorted(e.choices, key=lambda c: c.choice.node):
        if c.choice.kind != "decision":
            continue
        if game and c.choice.node not in on_line:
            off_line += 1
            continue
        chosen, others = _options(c, e.mode)
        na, na_titles, cut = _counts(c)
        later = game and lead_seen
        lead_seen = True
        risks: list[Risk] = []
        branched = False
        if game and chosen is not None and not later:
            record = chosen.best.alternatives[0].record
            node = index.get(record.node) if record.node is not None else None
            if node is not None and chosen.best.value is not None:
                risks, branched = _risks(node, p, chosen.best.value)
        choices.append(
            ReaderChoice(
                c,
                _head(c, chosen, e.mode, p),
                _verdict(chosen, others, e.mode, p, noun, _untried(c)),
                chosen,
                tuple(others),
                tuple(risks[:MAX_RISKS]),
                max(0, len(risks) - MAX_RISKS),
                branched and not risks,
                na,
                na_titles,
                cut,
                later,
                not others and (chosen is None or len(chosen.plans) == 1),
            )
        )
    return ReaderView(
        e,
        standing_text(run, p, plain=True),
        e.findings,
        tuple(choices),
        off_line,
    )
