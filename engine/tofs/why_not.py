"""Why not X? re-planning from a choice point of a finished run with X taken there.

The question "why not this alternative?" is answered by planning again from the choice
point with the alternative forced (:func:`replan_at`); :mod:`.contrast` compares the two
runs and :mod:`.render` lays the answer out.  This module only re-plans: it renders
nothing and judges nothing, so the renderers can import the comparison without importing
themselves back (the module was ``explain.py``, which also held the text renderer and sat
in an import circle with :mod:`.render` and :mod:`.contrast`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import replace as dc_replace
from typing import Any

from .domain import Domain, Problem
from .forcing import Forced, bare_name, parse_forced
from .results import AlternativeRecord, ChoicePoint, Expansion, PlanStep, RunResult, Status
from .search import SearchOptions, plan

__all__ = [
    "PROVEN_NODES",
    "Anchor",
    "Prover",
    "allowed",
    "find_choice",
    "left_after",
    "missing",
    "plan_why_not",
    "replan_at",
    "replan_left",
    "replan_proving",
]


@dataclass(frozen=True)
class Anchor:
    """Where a why-not re-plan starts: a choice point on a finished run's plan, with the
    plan's steps and choice points before it (all a re-plan needs of that run, small
    enough to send to another process)."""

    choice: ChoicePoint
    steps: tuple[PlanStep, ...] = ()
    choices: tuple[ChoicePoint, ...] = ()
    expansions: tuple[Expansion, ...] = ()
    """The plan's expansions above the node: with the re-plan's own, the forced plan's
    whole decomposition (what an IPC plan of it is written from)."""

    @classmethod
    def of(cls, run: RunResult, choice: ChoicePoint) -> Anchor:
        # Node ids grow along a path, so the plan's steps and choices before the node are
        # exactly those with smaller ids.
        return cls(
            choice,
            tuple(s for s in run.plan if s.node is not None and s.node <= choice.node),
            tuple(cp for cp in run.choice_points if cp.node < choice.node),
            tuple(e for e in run.expansions if e.node < choice.node),
        )


def replan_at(
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    anchor: Anchor,
    alternative: str | Forced,
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
        expansions=list(anchor.expansions) + list(forced.expansions),
    )


def _value(v: Any) -> str:
    """A binding's value as labels write it (the engine's default format)."""
    return f"{v:g}" if isinstance(v, float) else str(v)


def _matches(a: AlternativeRecord, want: Forced) -> bool:
    return want.matches(a.method, a.bindings, _value)


def _for_task(c: ChoicePoint, task: str) -> bool:
    return not task or task in (c.task, c.task_name)


def _unbound(points: list[ChoicePoint], want: Forced) -> list[str]:
    """The variables ``want`` fixes that its method's alternatives at ``points`` never
    bind (an alternative that binds nothing, a method recorded as failing, says nothing)."""
    known = {
        bare_name(k)
        for c in points
        for a in c.alternatives
        for k, _ in a.bindings
        if a.method == want.method
    }
    if not known:
        return []
    return [k for k in want.variables() if bare_name(k) not in known]


def allowed(choice: ChoicePoint, alternative: str | Forced) -> list[AlternativeRecord]:
    """The alternatives at ``choice`` that forcing ``alternative`` leaves open (what
    :func:`find_choice` returned for it: an exact label, or a :class:`Forced`)."""
    if isinstance(alternative, Forced):
        return [a for a in choice.alternatives if _matches(a, alternative)]
    return [a for a in choice.alternatives if a.label == alternative]


def find_choice(
    result: RunResult, task: str, alternative: str
) -> tuple[ChoicePoint, str | Forced] | None:
    """The choice point on the plan to force ``alternative`` at, and what to force there
    -- how ``--why-not TASK=ALTERNATIVE`` names a choice.

    ``task`` is a choice point's task label or name ("" for any); ``alternative`` an
    alternative's exact label (that one alternative, as before) or a method with some of
    its bindings, ``m(?v=truck_1)`` (:class:`~engine.tofs.forcing.Forced`: every
    alternative that agrees).  The first choice point (in search order) where the forced
    alternatives do not include the plan's own choice is taken; failing that, the first
    where any agrees (the answer then is that the plan takes it).  None when no choice
    point has it (:func:`missing` says why)."""
    points = [c for c in sorted(result.choice_points, key=lambda c: c.node) if _for_task(c, task)]
    for c in points:
        if any(a.label == alternative for a in c.alternatives):
            return c, alternative
    try:
        want = parse_forced(alternative)
    except ValueError:
        return None
    if _unbound(points, want):
        return None
    agree = [c for c in points if any(_matches(a, want) for a in c.alternatives)]
    for c in agree:
        if c.chosen is None or not _matches(c.chosen, want):
            return c, want
    return (agree[0], want) if agree else None


def missing(result: RunResult, task: str, alternative: str) -> str:
    """Why :func:`find_choice` found nothing, in one line: the task no choice point is for,
    the text that is no alternative, the method that is no alternative of that task, the
    variable the method does not bind, or the value it never takes there -- then the
    choice points there are."""
    points = sorted(result.choice_points, key=lambda c: c.node)
    at = [c for c in points if _for_task(c, task)]
    where = f"'{task}'" if task else "any task"
    if task and not at:
        why = f"no choice point on the plan has task '{task}'"
    else:
        try:
            want = parse_forced(alternative)
        except ValueError as exc:
            why = str(exc)
        else:
            records = [a for c in at for a in c.alternatives if a.method == want.method]
            unknown = _unbound(at, want)
            if not records:
                why = (
                    f"'{want.method}' is not an alternative of {where} at any choice point "
                    "on the plan"
                )
            elif unknown:
                names = ", ".join(sorted({k for a in records for k, _ in a.bindings}))
                why = (
                    f"{want.method} chooses no variable {unknown[0]} at its choice points "
                    f"(it chooses {names}; its task fixes the others)"
                )
            else:
                why = f"no alternative of {where} agrees with {want}"
                for k, v in want.bindings:
                    seen = sorted(
                        {
                            _value(x)
                            for a in records
                            for n, x in a.bindings
                            if bare_name(n) == bare_name(k)
                        }
                    )
                    if seen and v not in seen:
                        why = (
                            f"no alternative of {where} binds {k} to '{v}' "
                            f"({k} takes {', '.join(seen)} there)"
                        )
                        break

    def shown(c: ChoicePoint) -> str:
        labels = [a.label for a in c.alternatives]
        more = f" and {len(labels) - 6} more" if len(labels) > 6 else ""
        return f"{c.task}: {', '.join(labels[:6])}{more}"

    listed = "; ".join(shown(c) for c in points[:8]) or "none"
    if len(points) > 8:
        listed += f" (and {len(points) - 8} more)"
    return f"{why}; choice points: {listed}"


def plan_why_not(
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    why_not: Mapping[str, str],
    base: RunResult | None = None,
    prove: Prover | None = None,
) -> RunResult:
    """Plan (unless ``base``, the plan already made, is given), then take each
    ``{task: alternative}`` at the first choice point on the plan whose task is ``task``
    ("" for any) and that has the alternative, re-planning from there (:func:`replan_at`).

    Tasks and alternatives are named as ``--json`` shows choice points, an alternative
    also as a method with some of its bindings (:func:`find_choice`); ``prove`` may
    prove a forced choice impossible before it is searched (:func:`replan_proving`).  Raises
    ``ValueError`` saying what did not match and naming the choice points there are.
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
            raise ValueError(missing(result, task, alternative))
        match, label = found
        anchor = Anchor.of(result, match)
        result = replan_proving(domain, problem, options, anchor, label, prove, result)
    return result


# How many nodes a re-plan already proven to have no plan searches for its deepest
# failure (what the answer shows beside the proof).
PROVEN_NODES = 2_000

Prover = Callable[[ChoicePoint, list[AlternativeRecord]], "str | None"]
"""``(choice, allowed alternatives) -> proof``: why forcing them leads to no plan, or None
(a package's ``prove_forced``)."""


def replan_proving(
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    anchor: Anchor,
    alternative: str | Forced,
    prove: Prover | None,
    *spent: RunResult,
) -> RunResult:
    """:func:`replan_left`, first asking ``prove`` whether the forced choice can lead to a
    plan at all.  Proven not: the re-plan only looks (within :data:`PROVEN_NODES`) for the
    deepest failure to show, and the result is "no plan" with the proof -- an impossible
    choice otherwise costs a search of every way to its failure (43 s on Transport
    pfile25).  A plan found anyway is kept as found: the answer never claims more than
    the search shows."""
    proof = prove(anchor.choice, allowed(anchor.choice, alternative)) if prove else None
    if proof is None:
        return replan_left(domain, problem, options, anchor, alternative, *spent)
    left = left_after(options, *spent).node_budget
    quick = dc_replace(options, node_budget=min(left or PROVEN_NODES, PROVEN_NODES))
    forced = replan_at(domain, problem, quick, anchor, alternative)
    if not forced.found:
        forced.status, forced.proof = Status.NO_PLAN, proof
    if forced.options:
        forced.options["node_budget"] = options.node_budget
    return forced


def replan_left(
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    anchor: Anchor,
    alternative: str | Forced,
    *spent: RunResult,
) -> RunResult:
    """:func:`replan_at` within what ``spent`` (the runs before it) left of the node
    budget; a stop at it names the user's budget, the one the command as a whole kept."""
    forced = replan_at(domain, problem, left_after(options, *spent), anchor, alternative)
    if options.node_budget is not None and forced.options:
        forced.options["node_budget"] = options.node_budget
    return forced


def left_after(options: SearchOptions, *runs: RunResult) -> SearchOptions:
    """``options`` with the node budget ``runs`` have not spent: a why-not's base run and
    its re-plans share the user's budgets (the time budget through ``started``, the node
    budget so), as the explanation's re-plans do."""
    if options.node_budget is None:
        return options
    spent = sum(r.nodes for r in runs)
    return dc_replace(options, node_budget=max(options.node_budget - spent, 1))
