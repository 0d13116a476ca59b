"""One structured explanation of a run, for every renderer to lay out.

:func:`explain` reads a finished run and says, for every choice point on its plan and every
alternative there, why it was or was not taken: the reason and its numbers (the search's
records), how big the difference is in words (:mod:`.magnitude`, with the domain's
thresholds), and for lower-valued alternatives the *relevant issue* (:mod:`.issues`): the
steps or the opponents' branches where the two values part.  The overall standing comes
first ("this design needs about 10.7 hours"), in the domain's words.

Renderers (:mod:`.render` for text and Markdown, the workbench pane) only lay these records
out; every judgement is made here, once, so the CLI, the export and the pane agree.  The
reader's view (:func:`.reader.reader_view`) is built from an explanation; this module
knows nothing of it, so the two import one way only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .issues import (
    Assumption,
    Describe,
    Issues,
    edge_assumption,
    edge_text,
    policy_issues,
    step_issues,
    step_text,
)
from .magnitude import DEFAULT_THRESHOLDS, Thresholds, magnitude_word
from .results import (
    AlternativeRecord,
    ChoicePoint,
    Outcome,
    PlanStep,
    PolicyNode,
    Reason,
    RunResult,
)

__all__ = [
    "AlternativeExplanation",
    "ChoiceExplanation",
    "Explanation",
    "Phrasing",
    "describe_alternative",
    "explain",
]

Replan = Callable[[ChoicePoint, AlternativeRecord], RunResult]

# Alternatives a forced re-plan can put a true value on in optimise mode (a bound-pruned one
# has only a bound until it is finished; the others have no plan below them).
_REPLANNED = (Reason.LOWER_VALUE, Reason.PARTIAL_PLAN_PRUNED, Reason.BOUND_PRUNED)


def _g(v: float) -> str:
    return f"{v:g}"


def _no_standing(run: RunResult) -> str | None:
    return None


def _no_gist(issues: Issues) -> str | None:
    return None


@dataclass(frozen=True)
class Phrasing:
    """How a domain says its numbers and names its moves; the engine knows no domain, so
    a knowledge package supplies one (the defaults are plain numbers and step texts)."""

    value: Callable[[float], str] = _g
    """A value or cost ("642.33 min", "+620")."""
    difference: Callable[[float], str] | None = None
    """A difference of values (defaults to ``value``; bridge shows "620" not "+620")."""
    move: Describe = edge_text
    """An opponent's (or chance) move in a game tree."""
    assumption: Assumption = edge_assumption
    """What an opponent's move stands for ("diamonds 3-3"); the method's label by default."""
    step: Callable[[PlanStep], str] = step_text
    standing: Callable[[RunResult], str | None] = _no_standing
    """The overall standing of the run, said first ("this contract is almost certain")."""
    gist: Callable[[Issues], str | None] = _no_gist
    """The relevant issues in one domain sentence, said before them ("the club plan makes
    only if clubs 4-3 (p = 0.72); against 5-2 it goes down"); None when there is none."""
    plain_standing: Callable[[RunResult], str | None] = _no_standing
    """The standing for the reader's view when the audit's says more than a domain expert
    reads (EDAPS: "cannot be made as it stands" without the failing methods, which the
    findings say in the shop's words); None: the same as ``standing``."""
    alternatives: tuple[str, str] = ("alternative", "alternatives")
    """What the domain calls its alternatives, one and many ("scheme", "schemes"), for the
    reader's view's counts ("14 other schemes did not apply here")."""

    def diff(self, v: float) -> str:
        return (self.difference or self.value)(v)


@dataclass(frozen=True)
class AlternativeExplanation:
    """One alternative at a choice point: its record, the sentence, and its issues."""

    record: AlternativeRecord
    summary: str
    loss: float | None = None  # how much worse than the chosen one (negative: better)
    magnitude: str | None = None  # "slightly", "clearly", "far", "about the same"
    issues: Issues | None = None
    replanned: float | None = None  # the value a forced re-plan found (optimise mode)
    gist: str | None = None  # the issues in one domain sentence

    @property
    def label(self) -> str:
        return self.record.label

    @property
    def reason(self) -> Reason:
        return self.record.reason

    @property
    def chosen(self) -> bool:
        return self.record.chosen


@dataclass(frozen=True)
class ChoiceExplanation:
    choice: ChoicePoint
    verdict: str
    alternatives: tuple[AlternativeExplanation, ...]

    @property
    def task(self) -> str:
        return self.choice.task


@dataclass(frozen=True)
class Explanation:
    """A run explained: standing first, then every choice point on its plan."""

    run: RunResult = field(repr=False)
    standing: str
    choices: tuple[ChoiceExplanation, ...]
    phrasing: Phrasing = field(repr=False, compare=False)
    thresholds: Thresholds = DEFAULT_THRESHOLDS
    findings: tuple[str, ...] = ()
    """What the domain found beyond the choice points, in its own words (EDAPS: each
    feature that cannot be made -- what is asked, what is achievable, what to change)."""

    @property
    def mode(self) -> str:
        return self.run.mode

    def choice(self, task: str) -> ChoiceExplanation:
        """The first choice point on the plan with this task (label or name)."""
        for c in self.choices:
            if task in (c.choice.task, c.choice.task_name):
                return c
        raise KeyError(task)


# --------------------------------------------------------------------------- sentences


def _num(v: float | None, fmt: Callable[[float], str]) -> str:
    return "?" if v is None else fmt(v)


def loss_of(value: float | None, best: float | None, mode: str) -> float | None:
    """How much worse ``value`` is than ``best`` (costs fall, game values rise)."""
    if value is None or best is None:
        return None
    return best - value if mode == "game" else value - best


def describe_alternative(
    a: AlternativeRecord,
    cp: ChoicePoint,
    mode: str,
    fmt: Callable[[float], str] = _g,
    thresholds: Thresholds | None = None,
    diff: Callable[[float], str] | None = None,
) -> str:
    """One sentence saying why this alternative was (not) taken, with its numbers and, when
    ``thresholds`` are given, how big the difference is in words."""
    diff = diff or fmt
    r = a.reason
    if r is Reason.CHOSEN and mode == "first" and not a.value:
        return "chosen: the first alternative, in the order tried, that led to a plan"
    if r is Reason.CHOSEN:
        runner = [
            x
            for x in cp.alternatives
            if not x.chosen and x.value is not None and x.reason in (Reason.LOWER_VALUE, Reason.TIE)
        ]
        text = f"chosen: value {_num(a.value, fmt)}"
        if runner:
            best_other = (min if mode != "game" else max)(runner, key=lambda x: x.value or 0.0)
            loss = loss_of(best_other.value, a.value, mode) or 0.0
            if thresholds is not None:
                word = magnitude_word(loss, a.value or 0.0, best_other.value or 0.0, thresholds)
                how = "as good as" if word == "about the same" else f"{word} better than"
            else:
                how = "lower than" if mode != "game" else "higher than"
            text += f", {how} the runner-up {best_other.label} ({_num(best_other.value, fmt)})"
        return text
    if r is Reason.LOWER_VALUE:
        loss = loss_of(a.value, cp.value, mode) or 0.0
        what = "higher cost" if mode != "game" else "lower value"
        if thresholds is not None:
            word = magnitude_word(loss, a.value or 0.0, cp.value or 0.0, thresholds)
            what = f"{word} worse" if word != "about the same" else "about the same"
        return (
            f"{what}: {_num(a.value, fmt)} against {_num(cp.value, fmt)} "
            f"(worse by {diff(abs(loss))})" + (f"; {a.detail}" if a.detail else "")
        )
    if r is Reason.TIE:
        if a.detail:
            return f"tie at {_num(a.value, fmt)}: {a.detail}"
        return f"tie at {_num(a.value, fmt)}: an earlier method in priority order was taken"
    if r in (Reason.PRECONDITION_FAILED, Reason.NO_BINDING) and a.failure is not None:
        return f"{r}: {a.failure.reason}"
    if r is Reason.NO_BINDING:
        return "no binding: the generator produced nothing"
    if r is Reason.PARTIAL_PLAN_PRUNED:
        return (
            f"partial-plan pruned: {a.detail}"
            if a.detail
            else f"partial-plan pruned (cost {_num(a.value, fmt)} vs {_num(a.compared_with, fmt)})"
        )
    if r is Reason.BOUND_PRUNED:
        if a.value is not None and a.compared_with is not None and a.value > a.compared_with:
            return (
                f"bound pruned: costs at least {_num(a.value, fmt)}, more than the best plan "
                f"already found ({_num(a.compared_with, fmt)}), so it was not finished"
            )
        return (
            f"bound pruned: cannot cost less than {_num(a.value, fmt)}, the cost of the best "
            "plan already found, so it was not finished"
        )
    if r is Reason.TRANSPOSED:
        if a.detail:  # first-plan mode's remembered failure (``memo_failures``)
            return f"transposed: {a.detail}"
        return (
            f"transposed: reaches a state already reached more cheaply "
            f"({_num(a.compared_with, fmt)} <= {_num(a.value, fmt)}), so it cannot do better"
        )
    if r is Reason.REPEATED:
        return (
            "loop: it reaches the same state with the same tasks left as a step above it "
            f"on the same path (node {a.compared_with:g}), so it can do nothing that step cannot"
            if a.compared_with is not None
            else "loop: it repeats a step above it on the same path"
        )
    if r is Reason.RECURSION:
        return (
            "recursion pruned: its first task is still being decomposed above it, in the "
            "same state, so this would only go round again"
        )
    if r is Reason.LIKELIHOOD_PRUNED:
        return (
            f"likelihood pruned: probability {a.probability:.3g} is below the cutoff "
            f"{_num(a.compared_with, _g)}"
            if a.probability is not None
            else str(r)
        )
    if r is Reason.NOT_EXPANDED:
        return f"not expanded: {a.detail or 'planning stopped'}"
    if r is Reason.DEAD_END:
        return "dead end: no complete plan below" + (
            f"; deepest failure: {a.failure.message}" if a.failure else ""
        )
    if r is Reason.WEIGHTED:
        p = f"p = {a.probability:.3g}" if a.probability is not None else "unweighted"
        planned = " (planned move)" if a.chosen else ""
        assume = f", assuming {a.assumption}" if a.assumption else ""
        return f"opponent move{planned}, {p}{assume}: value {_num(a.value, fmt)}"
    return str(r)


# --------------------------------------------------------------------------- building


def _policy_index(run: RunResult) -> dict[int, PolicyNode]:
    return {n.node: n for n in run.policy.walk()} if run.policy is not None else {}


def standing_text(run: RunResult, phrasing: Phrasing, plain: bool = False) -> str:
    """The run's standing in the domain's words (``plain``: the reader's view's, when the
    domain says it more plainly there)."""
    # A budget that stopped the search is said here, whatever the domain's phrasing: a
    # domain's "cannot be made" must only ever follow a search that proved it.
    if run.outcome is Outcome.GAVE_UP:
        return f"No answer yet: the search {run.outcome_text}."
    said = (phrasing.plain_standing(run) if plain else None) or phrasing.standing(run)
    if not said:
        if run.value is None:
            # Proven some other way (the domain's own analysis after a cut search): say
            # how, never that the whole tree was searched.
            how = run.proof or "the whole tree was searched"
            said = f"There is no plan: {how}."
        elif run.mode == "game":
            said = f"The expected value is {phrasing.value(run.value)}."
        elif run.mode == "first" and not any(s.costs for s in run.plan):
            said = f"A plan of {len(run.plan)} steps was found (the first, in method order)."
        else:
            said = f"The plan costs {phrasing.value(run.value)}."
    if run.outcome is Outcome.PLAN_UNPROVEN:
        said += f" This is the {run.outcome_text}."
    return said


def explain(
    run: RunResult,
    *,
    phrasing: Phrasing | None = None,
    thresholds: Thresholds | None = None,
    replan: Replan | None = None,
    max_replans: int = 32,
    findings: Sequence[str] = (),
) -> Explanation:
    """Explain every choice point on ``run``'s plan.

    In game mode the relevant issues come from the run's own policy (every alternative's
    subtree was searched).  In optimise mode only the chosen plan is kept, so ``replan``
    (usually :func:`engine.tofs.why_not.replan_at` bound to the run's domain and problem)
    finds each lower-valued alternative's best plan; without it those alternatives get
    their numbers and words but no issues.  At most ``max_replans`` re-plans are made.
    """
    phrasing = phrasing or Phrasing()
    th = thresholds or Thresholds()
    mode = run.mode
    index = _policy_index(run)
    budget = max_replans
    choices = []
    for cp in run.choice_points:
        chosen = cp.chosen
        chosen_node = index.get(chosen.node) if chosen is not None and chosen.node else None
        alts = []
        for a in cp.alternatives:
            loss = loss_of(a.value, cp.value, mode) if not a.chosen else None
            word = None
            if (
                loss is not None
                and cp.kind == "decision"
                and a.reason in (Reason.LOWER_VALUE, Reason.TIE, Reason.PARTIAL_PLAN_PRUNED)
            ):
                word = magnitude_word(loss, a.value or 0.0, cp.value or 0.0, th)
            issues = replanned = None
            if cp.kind == "decision" and not a.chosen and a.reason in _REPLANNED:
                if mode == "game":
                    node = index.get(a.node) if a.node is not None else None
                    if node is not None and chosen_node is not None:
                        issues = policy_issues(
                            chosen_node, node, th, phrasing.move, phrasing.assumption
                        )
                elif replan is not None and budget > 0 and run.value is not None:
                    budget -= 1
                    forced = replan(cp, a)
                    if forced.value is not None and forced.complete:
                        replanned = forced.value
                        issues = step_issues(run.plan, forced.plan, th, phrasing.step)
                        loss = loss_of(replanned, cp.value, mode)
                        word = magnitude_word(loss or 0.0, replanned, cp.value or 0.0, th)
            summary = describe_alternative(a, cp, mode, phrasing.value, th, phrasing.diff)
            if replanned is not None and a.reason in (
                Reason.BOUND_PRUNED,
                Reason.PARTIAL_PLAN_PRUNED,
            ):
                summary += (
                    f"; finished, it costs {phrasing.value(replanned)}, {word} worse"
                    if word != "about the same"
                    else f"; finished, it costs the same, {phrasing.value(replanned)}"
                )
            gist = phrasing.gist(issues) if issues is not None else None
            alts.append(AlternativeExplanation(a, summary, loss, word, issues, replanned, gist))
        choices.append(ChoiceExplanation(cp, _verdict(cp, mode, phrasing, th), tuple(alts)))
    return Explanation(
        run, standing_text(run, phrasing), tuple(choices), phrasing, th, tuple(findings)
    )


# Reasons that say an alternative could not be carried out at all (not that it was worse).
_CANNOT_APPLY = frozenset(
    str(r)
    for r in (
        Reason.PRECONDITION_FAILED,
        Reason.NO_BINDING,
        Reason.DEAD_END,
        Reason.REPEATED,
        Reason.RECURSION,
    )
)


def _verdict(cp: ChoicePoint, mode: str, phrasing: Phrasing, th: Thresholds) -> str:
    """The choice in one sentence: what was taken and how it stands to the runner-up."""
    chosen = cp.chosen
    if cp.kind == "external":
        planned = f"; the most likely is {chosen.label}" if chosen is not None else ""
        moves = sum(1 for a in cp.alternatives if a.reason is Reason.WEIGHTED)
        return f"Not ours to choose: {moves} moves planned for, weighted by probability{planned}."
    if chosen is None:
        return "Nothing was chosen here."
    valued = [
        a
        for a in cp.alternatives
        if not a.chosen
        and a.value is not None
        and a.reason in (Reason.LOWER_VALUE, Reason.TIE, Reason.PARTIAL_PLAN_PRUNED)
        and not a.value_is_bound
    ]
    if not valued:
        # Nothing else was valued, so nothing "lost" to it: the others were ruled out (a
        # precondition, a dead end, a bound) or never tried because a plan was found first.
        by_reason: dict[str, list[str]] = {}
        untried: list[str] = []
        for a in cp.alternatives:
            if a.chosen:
                continue
            if a.reason is Reason.NOT_EXPANDED:
                untried.append(a.label)
            else:
                by_reason.setdefault(str(a.reason), []).append(a.label)
        if not by_reason and not untried:
            return f"{chosen.label} is the only way."
        said = [f"{', '.join(labels)}: {reason}" for reason, labels in by_reason.items()]
        if untried:
            said.append(f"{', '.join(untried)}: not tried, a plan was found first")
        others = "; ".join(said)
        if untried or any(r not in _CANNOT_APPLY for r in by_reason):
            return f"{chosen.label} was taken ({others})."
        return f"{chosen.label} is the only alternative that could be taken ({others})."
    runner = min(valued, key=lambda a: loss_of(a.value, cp.value, mode) or 0.0)
    loss = loss_of(runner.value, cp.value, mode) or 0.0
    word = magnitude_word(loss, runner.value or 0.0, cp.value or 0.0, th)
    if word == "about the same":
        return (
            f"{chosen.label} and {runner.label} are equal at "
            f"{phrasing.value(cp.value or 0.0)}; {chosen.label} comes first in "
            "priority order."
        )
    return (
        f"{chosen.label} is {word} better than the runner-up {runner.label}: "
        f"{phrasing.value(cp.value or 0.0)} against {phrasing.value(runner.value or 0.0)}."
    )
