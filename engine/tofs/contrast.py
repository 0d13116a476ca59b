"""Why not X?  Compare the plan the planner chose with the plan forced through X.

* :func:`contrast` re-plans with X forced (:func:`engine.tofs.why_not.replan_at`, from the
  choice point itself, so the answer always goes through X) and compares;
* :func:`compare` does the comparing when the forced run is already at hand (the workbench
  re-plans in its planning process): values, how much worse (or better) the forced plan is
  and in words, the first choice or plan step where they part, which steps of each plan
  differ, and the difference broken down by its relevant issues (:mod:`.issues`).

Both runs are read as a *trajectory*: the choices on the plan and the plan's steps in the
order the search built them (node ids grow along any path).  In game mode the plan is the
principal variation (our chosen moves and the opponents' planned moves), so only choice
points on it count.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from .domain import Domain, Problem
from .explanation import Phrasing
from .issues import Issues, policy_issues, step_issues, step_key, step_text
from .magnitude import Thresholds, magnitude_word
from .results import AlternativeRecord, ChoicePoint, Failure, PlanStep, RunResult, Status
from .search import SearchOptions
from .why_not import Anchor, replan_at

__all__ = [
    "Contrast",
    "Divergence",
    "Milestone",
    "Row",
    "compare",
    "contrast",
    "forced_applied",
    "principal_nodes",
    "rows",
    "step_text",
    "trajectory",
    "value_text",
]


def value_text(v: float | None) -> str:
    return "no plan" if v is None else f"{v:.6g}"


# --------------------------------------------------------------------------- forcing


def forced_applied(
    forced: RunResult, choice: ChoicePoint, alternative: AlternativeRecord
) -> bool | None:
    """Did the forced run take ``alternative`` at a choice point like ``choice``?

    None when the forced run found no plan (it records no choice points then).
    """
    if forced.value is None:
        return None
    for cp in forced.choice_points:
        if (
            cp.task == choice.task
            and cp.chosen is not None
            and cp.chosen.label == alternative.label
        ):
            return True
    return False


# --------------------------------------------------------------------------- trajectories


@dataclass(frozen=True)
class Milestone:
    """One choice or one plan step of a run, in build order."""

    kind: str  # "choice" or "step"
    key: tuple[Any, ...]  # what must be equal for two runs to agree here
    text: str
    node: int
    step: int | None = None  # 0-based index into result.plan (steps)
    label: str = ""  # the alternative taken (choices) or the step's text (steps)


def principal_nodes(result: RunResult) -> set[int] | None:
    """Nodes on a game's principal variation (None when the run has no policy)."""
    pn = result.policy
    if pn is None:
        return None
    nodes: set[int] = set()
    while True:
        nodes.add(pn.node)
        if not pn.children:
            return nodes
        index = pn.chosen if pn.kind == "decision" else pn.planned
        pn = pn.children[index if index is not None else 0].node


def trajectory(result: RunResult) -> list[Milestone]:
    """The run's choices (on the plan) and steps, in the order the search built them."""
    on_plan = principal_nodes(result)
    out: list[tuple[int, int, Milestone]] = []
    for cp in result.choice_points:
        if on_plan is not None and cp.node not in on_plan:
            continue
        chosen = cp.chosen.label if cp.chosen is not None else None
        out.append(
            (
                cp.node,
                0,
                Milestone(
                    "choice",
                    ("choice", cp.task, chosen),
                    f"{cp.task}: {chosen}",
                    cp.node,
                    label=str(chosen),
                ),
            )
        )
    for i, s in enumerate(result.plan):
        text = step_text(s)
        out.append((s.node, 1, Milestone("step", step_key(s), text, s.node, i, text)))
    out.sort(key=lambda t: (t[0], t[1]))
    return [m for _, _, m in out]


# --------------------------------------------------------------------------- contrast


@dataclass(frozen=True)
class Divergence:
    """Where two runs first differ: ``index`` into the sequence compared; a side is None
    when its sequence ended (or had no plan) there."""

    kind: str  # "choice" or "step"
    index: int
    where: str
    base: str | None
    forced: str | None
    base_step: int | None = None  # 0-based plan index on each side (steps)
    forced_step: int | None = None


@dataclass(frozen=True)
class Contrast:
    """The chosen run against the forced one."""

    base: RunResult
    forced: RunResult
    task: str | None
    alternative: str | None
    chosen: str | None
    difference: float | None  # forced value - chosen value
    loss: float | None  # how much worse the forced plan is (negative: better)
    first: Divergence | None  # the first choice or step where they differ
    first_choice: Divergence | None
    first_step: Divergence | None
    base_marks: tuple[bool, ...]  # per base plan step: not shared with the forced plan
    forced_marks: tuple[bool, ...]
    applied: bool | None  # the forced run really took the alternative at this task
    magnitude: str | None = None  # "slightly", "clearly", "far" or "about the same"
    issues: Issues | None = None  # the difference broken down where the values part
    gist: str | None = None  # the issues in one domain sentence (Phrasing.gist)
    # The domain's words for numbers (EDAPS: "25.57 min"), so that the contrast rounds as
    # the reader's view does; None: six significant digits.
    phrasing: Phrasing | None = field(default=None, repr=False, compare=False)

    def value_words(self, v: float | None) -> str:
        """A value as the reader's view writes it ("no plan" for None)."""
        if v is None:
            return "no plan"
        return self.phrasing.value(v) if self.phrasing is not None else value_text(v)

    def diff_words(self, v: float) -> str:
        """A difference of values as the reader's view writes it."""
        return self.phrasing.diff(v) if self.phrasing is not None else f"{v:.6g}"

    @property
    def mode(self) -> str:
        return self.base.mode

    @property
    def failure(self) -> Failure | None:
        """Why the forced run found no plan (None when it found one)."""
        return self.forced.failure if self.forced.value is None else None

    @property
    def unit(self) -> str:
        return "value" if self.mode == "game" else "cost"

    def verdict(self) -> str:
        """The comparison in one or two sentences."""
        what = f"{self.alternative}" if self.alternative else "the forced alternative"
        at = f" at {self.task}" if self.task else ""
        if self.forced.value is None:
            why = f": {self.failure.message}" if self.failure is not None else ""
            status = "" if self.forced.status is Status.NO_PLAN else f" ({self.forced.status})"
            return f"With {what} forced{at} there is no plan{status}{why}."
        if self.base.value is None:
            return (
                f"With {what} forced{at} the value is {self.value_words(self.forced.value)}; "
                "the original run found no plan."
            )
        assert self.loss is not None
        base, forced = self.value_words(self.base.value), self.value_words(self.forced.value)
        if abs(self.loss) <= 1e-9 * max(1.0, abs(self.base.value)):
            text = f"With {what} forced{at} the {self.unit} is the same, {forced}."
        elif self.loss > 0:
            word = f"{self.magnitude} worse" if self.magnitude else "worse"
            text = (
                f"With {what} forced{at} the {self.unit} is {forced} against {base}: "
                f"{word}, by {self.diff_words(self.loss)}."
            )
        else:
            text = (
                f"With {what} forced{at} the {self.unit} is {forced} against {base}: "
                f"better by {self.diff_words(-self.loss)} (the run was not optimal)."
            )
        if self.applied is False:
            text += (
                " Note: the forced run did not take it at this choice point; the engine "
                "forced the first matching task it met."
            )
        return text

    def divergence_text(self) -> str:
        """Where the plans part, in words."""
        d = self.first
        if d is None:
            return "The two plans are identical."
        if d.kind == "choice":
            text = (
                f"They part at {d.where}: {d.base or '(nothing)'} as planned, "
                f"{d.forced or '(nothing)'} when forced."
            )
        else:
            text = (
                f"They part at {d.where}: {d.base or '(plan ends)'} as planned, "
                f"{d.forced or '(plan ends)'} when forced."
            )
        s = self.first_step
        if d.kind == "choice" and s is not None:
            text += (
                f" The first different step is {s.where}: "
                f"{s.base or '(plan ends)'} / {s.forced or '(plan ends)'}."
            )
        return text


def _first_difference(a: list[Milestone], b: list[Milestone]) -> int | None:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x.key != y.key:
            return i
    return None if len(a) == len(b) else min(len(a), len(b))


def _divergence(kind: str, a: list[Milestone], b: list[Milestone]) -> Divergence | None:
    i = _first_difference(a, b)
    if i is None:
        return None
    x = a[i] if i < len(a) else None
    y = b[i] if i < len(b) else None
    if x is not None and x.kind == "choice":
        where = str(x.key[1])
    elif y is not None and y.kind == "choice":
        where = str(y.key[1])
    else:
        step = x.step if x is not None else (y.step if y is not None else None)
        where = f"step {(step or 0) + 1}"
    kinds = {m.kind for m in (x, y) if m is not None}
    return Divergence(
        kind if len(kinds) != 1 else kinds.pop(),
        i,
        where,
        _side(x),
        _side(y),
        x.step if x is not None else None,
        y.step if y is not None else None,
    )


def _side(m: Milestone | None) -> str | None:
    if m is None:
        return None
    return m.label if m.kind == "choice" else m.text


def _marks(a: list[PlanStep], b: list[PlanStep]) -> tuple[tuple[bool, ...], tuple[bool, ...]]:
    """Which steps of each plan are not part of a run both plans share (difflib)."""
    ka, kb = [step_key(s) for s in a], [step_key(s) for s in b]
    ma, mb = [True] * len(ka), [True] * len(kb)
    matcher = difflib.SequenceMatcher(a=ka, b=kb, autojunk=False)
    for block in matcher.get_matching_blocks():
        for j in range(block.size):
            ma[block.a + j] = False
            mb[block.b + j] = False
    return tuple(ma), tuple(mb)


def compare(
    base: RunResult,
    forced: RunResult,
    choice: ChoicePoint | None = None,
    alternative: AlternativeRecord | None = None,
    thresholds: Thresholds | None = None,
    phrasing: Phrasing | None = None,
) -> Contrast:
    """Compare the chosen run with the run that forced ``alternative`` at ``choice``."""
    th = thresholds or Thresholds()
    game = base.mode == "game"
    difference = loss = None
    if base.value is not None and forced.value is not None:
        difference = forced.value - base.value
        loss = -difference if game else difference
    ta, tb = trajectory(base), trajectory(forced)
    first = _divergence("choice", ta, tb)
    chosen = choice.chosen.label if choice is not None and choice.chosen is not None else None
    if forced.value is None and choice is not None and alternative is not None:
        # A failed run records no choices: the divergence is the forced choice itself.
        first = Divergence("choice", 0, choice.task, chosen, f"{alternative.label} (no plan)")
    first_choice = _divergence(
        "choice", [m for m in ta if m.kind == "choice"], [m for m in tb if m.kind == "choice"]
    )
    if forced.value is None and first is not None and first.kind == "choice":
        first_choice = first
    first_step = _divergence(
        "step", [m for m in ta if m.kind == "step"], [m for m in tb if m.kind == "step"]
    )
    base_marks, forced_marks = _marks(base.plan, forced.plan)
    applied = (
        forced_applied(forced, choice, alternative)
        if choice is not None and alternative is not None
        else None
    )
    word = issues = gist = None
    phrasing = phrasing or Phrasing()
    if loss is not None and base.value is not None and forced.value is not None:
        word = magnitude_word(loss, base.value, forced.value, th)
        issues = _issues(base, forced, choice, alternative, th, phrasing)
        gist = phrasing.gist(issues) if issues is not None else None
    return Contrast(
        base,
        forced,
        choice.task if choice else None,
        alternative.label if alternative else None,
        chosen,
        difference,
        loss,
        first,
        first_choice,
        first_step,
        base_marks,
        forced_marks,
        applied,
        word,
        issues,
        gist,
        phrasing,
    )


def _issues(
    base: RunResult,
    forced: RunResult,
    choice: ChoicePoint | None,
    alternative: AlternativeRecord | None,
    th: Thresholds,
    phrasing: Phrasing,
) -> Issues | None:
    if base.mode != "game":
        return step_issues(base.plan, forced.plan, th, phrasing.step)
    # A game run searched every alternative, so the base run's own tree holds both
    # subtrees (the forced run would search the same one again).
    if base.policy is None or choice is None or alternative is None or choice.chosen is None:
        return None
    index = {n.node: n for n in base.policy.walk()}
    mine, theirs = index.get(choice.chosen.node or -1), index.get(alternative.node or -1)
    if mine is None or theirs is None:
        return None
    return policy_issues(mine, theirs, th, phrasing.move, phrasing.assumption)


def contrast(
    run: RunResult,
    choice: ChoicePoint,
    alternative: AlternativeRecord | str,
    *,
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    thresholds: Thresholds | None = None,
    phrasing: Phrasing | None = None,
) -> Contrast:
    """Why not ``alternative`` at ``choice``?  Re-plan with it forced and compare.

    ``run`` is the finished run ``choice`` belongs to, planned from ``problem`` with
    ``options``; ``alternative`` is one of the choice point's records or its label.
    Thresholds default to the domain's own (its ``explain_*`` constants).
    """
    if isinstance(alternative, str):
        found = next((a for a in choice.alternatives if alternative in (a.label, a.method)), None)
        if found is None:
            raise ValueError(
                f"'{choice.task}' has no alternative '{alternative}'; "
                f"alternatives: {', '.join(a.label for a in choice.alternatives)}"
            )
        alternative = found
    forced = replan_at(domain, problem, options, Anchor.of(run, choice), alternative.label)
    th = thresholds or Thresholds.from_constants(domain.constants)
    return compare(run, forced, choice, alternative, th, phrasing)


# --------------------------------------------------------------------------- rows to show


@dataclass(frozen=True)
class Row:
    """One line of a plan column: a choice on the plan or a numbered step."""

    kind: str  # "choice", "step" or "failure" (a run with no plan: why)
    text: str
    number: int | None = None  # 1-based step number
    cost: float | None = None
    divergent: bool = False  # not shared with the other plan
    first: bool = False  # the first point where the plans part


def _choice_marks(a: list[Milestone], b: list[Milestone]) -> tuple[list[bool], list[bool]]:
    ka, kb = [m.key for m in a], [m.key for m in b]
    ma, mb = [True] * len(ka), [True] * len(kb)
    for block in difflib.SequenceMatcher(a=ka, b=kb, autojunk=False).get_matching_blocks():
        for j in range(block.size):
            ma[block.a + j] = False
            mb[block.b + j] = False
    return ma, mb


def rows(c: Contrast) -> tuple[list[Row], list[Row]]:
    """Both plans as rows (choices interleaved with steps, in build order), with the parts
    that differ marked and the first divergence flagged on each side."""
    ta, tb = trajectory(c.base), trajectory(c.forced)
    ca, cb = _choice_marks(
        [m for m in ta if m.kind == "choice"], [m for m in tb if m.kind == "choice"]
    )
    out: list[list[Row]] = []
    for side, (traj, steps, smarks, cmarks) in enumerate(
        ((ta, c.base.plan, c.base_marks, ca), (tb, c.forced.plan, c.forced_marks, cb))
    ):
        first_index = None
        if c.first is not None and c.forced.value is not None:
            first_index = c.first.index
        lines: list[Row] = []
        ci = 0
        for i, m in enumerate(traj):
            first = first_index == i
            if m.kind == "choice":
                lines.append(Row("choice", m.text, divergent=cmarks[ci], first=first))
                ci += 1
            else:
                assert m.step is not None
                s = steps[m.step]
                lines.append(
                    Row(
                        "step",
                        m.text,
                        m.step + 1,
                        s.cost if s.costs else None,
                        smarks[m.step],
                        first,
                    )
                )
        if side == 1 and c.forced.value is None:
            if c.task is not None:
                lines.insert(
                    0, Row("choice", f"{c.task}: {c.alternative}", divergent=True, first=True)
                )
            status = "" if c.forced.status is Status.NO_PLAN else f" ({c.forced.status})"
            why = f": {c.failure.message}" if c.failure is not None else ""
            lines.append(Row("failure", f"no plan{status}{why}", divergent=True))
        if side == 0 and c.forced.value is None and lines:
            head = next(
                (
                    i
                    for i, r in enumerate(lines)
                    if r.kind == "choice"
                    and c.task is not None
                    and r.text.startswith(f"{c.task}: ")
                ),
                None,
            )
            if head is not None:
                lines[head] = Row("choice", lines[head].text, divergent=True, first=True)
        out.append(lines)
    return out[0], out[1]
