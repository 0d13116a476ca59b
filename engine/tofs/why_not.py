"""Why not X? re-planning from a choice point of a finished run with X taken there.

The question "why not this alternative?" is answered by planning again from the choice
point with the alternative forced (:func:`replan_at`); :mod:`.contrast` compares the two
runs and :mod:`.render` lays the answer out.  This module only re-plans: it renders
nothing and judges nothing, so the renderers can import the comparison without importing
themselves back (the module was ``explain.py``, which also held the text renderer and sat
in an import circle with :mod:`.render` and :mod:`.contrast`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import replace as dc_replace

from .domain import Domain, Problem
from .results import ChoicePoint, PlanStep, RunResult
from .search import SearchOptions, plan

__all__ = ["Anchor", "find_choice", "plan_why_not", "replan_at"]


@dataclass(frozen=True)
class Anchor:
    """Where a why-not re-plan starts: a choice point on a finished run's plan, with the
    plan's steps and choice points before it (all a re-plan needs of that run, small
    enough to send to another process)."""

    choice: ChoicePoint
    steps: tuple[PlanStep, ...] = ()
    choices: tuple[ChoicePoint, ...] = ()

    @classmethod
    def of(cls, run: RunResult, choice: ChoicePoint) -> Anchor:
        # Node ids grow along a path, so the plan's steps and choices before the node are
        # exactly those with smaller ids.
        return cls(
            choice,
            tuple(s for s in run.plan if s.node is not None and s.node <= choice.node),
            tuple(cp for cp in run.choice_points if cp.node < choice.node),
        )


def replan_at(
    domain: Domain, problem: Problem, options: SearchOptions, anchor: Anchor, alternative: str
) -> RunResult:
    """The run would have been with ``alternative`` taken at ``anchor.choice``.

    Optimise and first mode re-plan from the choice point's own state and task list (kept
    on the :class:`ChoicePoint`) with the alternative forced at that root, and put the
    plan's steps and choice points before the node in front.  Forcing the node inside a
    whole new run is not the same question: the best plan of that run may go around the
    node altogether (an earlier alternative that ties, say), and then the answer would not
    show the alternative at all.  The sub-run starts with the node's id and the cost spent
    before it, so its values are totals from the original root and its node ids follow the
    original plan's.

    Game mode forces the node inside a whole re-run: a decision's value there is read at
    the root through the policy, and a game tree is searched exhaustively in the same
    order every time, so the node ids agree.
    """
    choice = anchor.choice
    if options.mode == "game" or choice.state is None:
        return plan(domain, problem, dc_replace(options, force={choice.node: alternative}))
    spent = sum(s.cost for s in anchor.steps)
    sub = dc_replace(problem, state=choice.state, tasks=choice.tasks)
    forced = plan(
        domain,
        sub,
        dc_replace(
            options, force={choice.node: alternative}, start_node=choice.node, start_cost=spent
        ),
    )
    if forced.value is None:
        return forced
    return dc_replace(
        forced,
        plan=list(anchor.steps) + list(forced.plan),
        choice_points=list(anchor.choices) + list(forced.choice_points),
    )


def find_choice(result: RunResult, task: str, alternative: str) -> tuple[ChoicePoint, str] | None:
    """The first choice point on the plan (in search order) whose task is ``task`` (its
    label or name) and that has ``alternative`` (a label or a method), with that
    alternative's label -- how ``--why-not TASK=ALTERNATIVE`` names a choice."""
    for c in sorted(result.choice_points, key=lambda c: c.node):
        if task in (c.task, c.task_name):
            label = next(
                (a.label for a in c.alternatives if alternative in (a.label, a.method)), None
            )
            if label is not None:
                return c, label
    return None


def plan_why_not(
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    why_not: Mapping[str, str],
    base: RunResult | None = None,
) -> RunResult:
    """Plan (unless ``base``, the plan already made, is given), then take each
    ``{task: alternative}`` at the first choice point on the plan whose task is ``task``,
    re-planning from there (:func:`replan_at`).

    Tasks and alternatives are named as ``--json`` shows choice points (:func:`find_choice`).
    Raises ``ValueError`` naming the choice points there are when nothing matches.
    """
    result = base if base is not None else plan(domain, problem, options)
    if result.value is None and not result.complete:
        # A budget (or ctrl+c) stopped the search before any plan: there is no choice on
        # a plan to take otherwise, and no time left to look; the run's own answer stands.
        asked = ", ".join(f"{t}={a}" for t, a in why_not.items())
        result.diagnostics.append(f"--why-not {asked} not answered: {result.outcome_text}")
        return result
    for task, alternative in why_not.items():
        found = find_choice(result, task, alternative)
        if found is None:
            points = sorted(result.choice_points, key=lambda c: c.node)

            def shown(c: ChoicePoint) -> str:
                labels = [a.label for a in c.alternatives]
                more = f" and {len(labels) - 6} more" if len(labels) > 6 else ""
                return f"{c.task}: {', '.join(labels[:6])}{more}"

            listed = "; ".join(shown(c) for c in points[:8]) or "none"
            if len(points) > 8:
                listed += f" (and {len(points) - 8} more)"
            raise ValueError(
                f"no choice point on the plan has task '{task}' with an "
                f"alternative '{alternative}'; choice points: {listed}"
            )
        match, label = found
        result = replan_at(domain, problem, options, Anchor.of(result, match), label)
    return result
