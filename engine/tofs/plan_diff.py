"""A why-not answer side by side: the plan's choice against the forced one.

The contrast of :mod:`.contrast` weighs two plans by their issues, which is the question
for knowledge with costs.  A plan of actions (HDDL's first plan, say) has no costs to
weigh: its author asks what the forced choice *does* -- which steps it adds and drops, how
many actions it takes -- or, when it cannot be done, where it breaks and whether that is
proven ("no plan exists with that choice") or only what a cut search could not find
("gave up").  :func:`side_by_side` says that, and :func:`step_diff` is the compact diff of
the two action lists it rests on (``difflib``'s longest matching blocks, so a run of
identical steps reads as one "same" line).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from .results import Blame, ChoicePoint, Failure, PlanStep, RunResult, Status

__all__ = ["DiffLine", "action_summary", "side_by_side", "side_by_side_data", "step_diff"]

# How many changed steps the diff shows before it sums up the rest.
SHOWN = 24


@dataclass(frozen=True)
class DiffLine:
    """One line of the diff: ``kind`` is "=" (a run of steps both plans take), "-" (only
    the plan), "+" (only the forced plan); ``first``/``last`` are 1-based step numbers in
    the plan ("=", "-") or the forced plan ("+"); ``text`` the step ("" for "=")."""

    kind: str
    first: int
    last: int
    text: str = ""

    def __str__(self) -> str:
        if self.kind == "=":
            n = self.last - self.first + 1
            span = f"step {self.first}" if n == 1 else f"steps {self.first}-{self.last}"
            return f"  = {span} the same ({n})"
        return f"  {self.kind} {self.first:>3}. {self.text}"


def step_diff(base: list[PlanStep], forced: list[PlanStep]) -> list[DiffLine]:
    """The two action lists compared step by step (by what each step does, its
    description): runs both share, and the steps only one of them takes."""
    a = [s.description for s in base]
    b = [s.description for s in forced]
    out: list[DiffLine] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            out.append(DiffLine("=", i1 + 1, i2))
            continue
        out += [DiffLine("-", i + 1, i + 1, a[i]) for i in range(i1, i2)]
        out += [DiffLine("+", j + 1, j + 1, b[j]) for j in range(j1, j2)]
    return out


def _counted(steps: list[str]) -> str:
    """``3 (drive 2, pick_up 1)``: how many steps, by operator."""
    by = Counter(s.strip("(").split(" ")[0].rstrip(")") for s in steps)
    parts = ", ".join(f"{op} {n}" for op, n in sorted(by.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"{len(steps)} ({parts})" if steps else "0"


def action_summary(base: RunResult, forced: RunResult) -> str:
    """The two plans by their actions in one line -- how many each takes and the steps
    the forced one adds and drops -- or, with no forced plan, whether none exists or the
    search gave up (what the workbench's why-not screen adds for plans without costs)."""
    if forced.value is None:
        if forced.status is Status.NO_PLAN:
            proof = f" ({forced.proof})" if forced.proof else ""
            return f"No plan exists with that choice{proof}."
        return f"Forced: {forced.outcome_text}."
    diff = step_diff(base.plan, forced.plan)
    added = [d.text for d in diff if d.kind == "+"]
    removed = [d.text for d in diff if d.kind == "-"]
    return (
        f"{len(base.plan)} actions as planned, {len(forced.plan)} forced: steps added "
        f"{_counted(added)}; removed {_counted(removed)}."
    )


def _taken(run: RunResult, node: int) -> str | None:
    """The alternative ``run`` took at ``node`` (None when it reached no plan)."""
    for cp in run.choice_points:
        if cp.node == node and cp.chosen is not None:
            return cp.chosen.label
    return None


def side_by_side(base: RunResult, forced: RunResult, choice: ChoicePoint, asked: str) -> list[str]:
    """Lines answering "why not ``asked`` at ``choice``?": the plan's choice and the forced
    one with their action counts; then the diff of the plans, or where the forced choice
    fails (the deepest failure, with its blame) and whether that is proven."""
    chosen = choice.chosen.label if choice.chosen is not None else "(none)"
    lines = [f"Why not {asked} at {choice.task}?"]
    width = max(len(chosen), len(_taken(forced, choice.node) or asked))
    lines.append(f"  as planned: {chosen:<{width}}  {len(base.plan)} actions")
    if forced.value is not None:
        taken = _taken(forced, choice.node) or asked
        delta = len(forced.plan) - len(base.plan)
        more = f"{abs(delta)} {'more' if delta > 0 else 'fewer'}" if delta else "as many"
        lines.append(f"  forced:     {taken:<{width}}  {len(forced.plan)} actions ({more})")
        diff = step_diff(base.plan, forced.plan)
        removed = [d.text for d in diff if d.kind == "-"]
        added = [d.text for d in diff if d.kind == "+"]
        if not removed and not added:
            lines.append("  The two plans take the same actions.")
            return lines
        lines.append(f"  steps added: {_counted(added)}; removed: {_counted(removed)}")
        lines.append("  diff (- as planned only, + forced only, step numbers in each plan):")
        shown = 0
        for d in diff:
            if d.kind != "=":
                shown += 1
                if shown > SHOWN:
                    continue
            lines.append(str(d))
        if shown > SHOWN:
            lines.append(f"  … {shown - SHOWN} more changed steps")
        return lines
    if forced.status is Status.NO_PLAN:
        proof = f" ({forced.proof})" if forced.proof else " (the whole tree below it was searched)"
        verdict = f"no plan exists with that choice{proof}"
    else:
        # outcome_text says "gave up at ..." or names the budget: said as it is, never
        # as "no plan".
        verdict = forced.outcome_text
    lines.append(f"  forced:     {asked:<{width}}  {verdict}")
    if forced.failure is not None:
        lines.append(f"  deepest failure: {forced.failure.message}")
    return lines


def _blame(failure: Failure | None) -> Blame | None:
    """Where the deepest failure's literal was written: its own blame, or (a task no
    method could do) the first of its causes' that has one."""
    if failure is None:
        return None
    if failure.blame is not None:
        return failure.blame
    return next((b for b in map(_blame, failure.causes) if b is not None), None)


def side_by_side_data(
    base: RunResult, forced: RunResult, choice: ChoicePoint, asked: str
) -> dict[str, Any]:
    """:func:`side_by_side` as data (``--json``): the choice point, what was asked, both
    choices, the action counts, the steps added and removed, and the forced run's outcome
    ("plan", "no plan" -- proven -- or "gave up") with its deepest failure and blame."""
    found = forced.value is not None
    diff = step_diff(base.plan, forced.plan) if found else []
    blame = _blame(forced.failure) if not found else None
    return {
        "task": choice.task,
        "node": choice.node,
        "asked": asked,
        "planned": choice.chosen.label if choice.chosen is not None else None,
        "forced": _taken(forced, choice.node) if found else None,
        "actions": {"planned": len(base.plan), "forced": len(forced.plan) if found else None},
        "added": [d.text for d in diff if d.kind == "+"],
        "removed": [d.text for d in diff if d.kind == "-"],
        "outcome": "plan"
        if found
        else ("no plan" if forced.status is Status.NO_PLAN else "gave up"),
        "outcome_text": forced.outcome_text,
        "failure": forced.failure.message if forced.failure is not None and not found else None,
        "blame": blame.to_dict() if blame is not None else None,
    }
