"""Why not X? re-planning from a choice point, and a run rendered as plain text.

The records (:class:`~engine.tofs.results.ChoicePoint`) carry every number; the judgements
on them -- words, relevant issues -- are made once in :mod:`.explanation` and laid out by
:mod:`.render`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from dataclasses import replace as dc_replace

from .domain import Domain, Problem
from .explanation import Explanation, Phrasing, describe_alternative
from .explanation import explain as build
from .render import explanation_text, reader_text
from .results import ChoicePoint, Failure, Outcome, PlanStep, PolicyNode, RunResult
from .search import SearchOptions, plan

__all__ = [
    "Anchor",
    "describe_alternative",
    "explain_level",
    "failure_text",
    "find_choice",
    "plan_why_not",
    "render_policy",
    "render_text",
    "replan_at",
]


def render_policy(
    node: PolicyNode, fmt: Callable[[float], str] = lambda v: f"{v:g}", indent: str = "  "
) -> list[str]:
    """The decision tree as indented lines: values, probabilities, planned moves."""
    lines = [
        f"{indent}{node.task} [{node.kind}] value {fmt(node.value)}"
        + (f" ({node.note})" if node.note else "")
    ]
    for i, edge in enumerate(node.children):
        planned = (node.kind == "decision" and i == node.chosen) or (
            node.kind == "external" and i == node.planned
        )
        mark = ("*" if node.kind == "decision" else ">") if planned else " "
        prob = f" p={edge.probability:.3g}" if edge.probability is not None else ""
        move = f": {edge.step.description}" if edge.step is not None else ""
        lines.append(f"{indent}  {mark} {edge.label}{prob}{move}")
        lines.extend(render_policy(edge.node, fmt, indent + "      "))
    return lines


def failure_text(f: Failure) -> str:
    return f.message


def explain_level(explain: bool | str | None) -> str:
    """``--explain`` as a level: "" (none), "reader" (the default: the reader's view) or
    "full" (the audit: every alternative with its reason)."""
    if explain is True:
        return "reader"
    if not explain:
        return ""
    if explain not in ("reader", "full"):
        raise ValueError(f"unknown explanation level '{explain}'; levels: reader, full")
    return str(explain)


def _wrapped(head: str, items: list[str], width: int = 96) -> list[str]:
    """``head`` and the items joined by "; ", wrapped at ``width`` (a line of play)."""
    lines: list[str] = []
    line = head
    for i, item in enumerate(items):
        piece = item + (";" if i < len(items) - 1 else ".")
        if len(line) + 1 + len(piece) > width and line.strip():
            lines.append(line)
            line = "   "
        line = f"{line} {piece}"
    lines.append(line)
    return lines


def render_text(
    result: RunResult,
    fmt: Callable[[float], str] = lambda v: f"{v:g}",
    explain: bool | str = True,
    explanation: Explanation | None = None,
    tree: bool = False,
) -> str:
    """The plan and its explanation: with ``explain`` (True or "reader") the reader's view,
    with "full" every alternative at every choice point with its reason (from
    ``explanation`` when the caller built one with its domain's phrasing); ``tree`` adds
    the decision tree of a game."""
    level = explain_level(explain)
    lines: list[str] = []
    head = f"{result.domain}/{result.problem} ({result.mode}): {result.outcome_text}"
    lines.append(head)
    if result.value is not None:
        size = (
            f"{len(result.plan)} steps" if result.mode == "first" else f"value {fmt(result.value)}"
        )
        lines.append(
            f"{size}; {result.nodes} nodes "
            f"({result.tree_nodes} in the tree); {result.seconds:.3f} s"
        )
    else:
        none = "no plan yet" if result.outcome is Outcome.GAVE_UP else "no plan"
        lines.append(f"{none}; {result.nodes} nodes; {result.seconds:.3f} s")
        if result.failure is not None:
            via = result.failure.via
            if via:
                lines.append(f"{via[0][0]} could not be done; its deepest failure was reached by:")
                lines += [f"    {task} -> {alt}" if alt else f"    {task}" for task, alt in via]
            lines.append(f"deepest failure: {failure_text(result.failure)}")
    if result.plan and level == "reader" and result.mode == "game":
        # A game's plan is a line of play, said in a sentence: the reader's view follows.
        lines.append("")
        lines += _wrapped("Planned line:", [s.description for s in result.plan])
    elif result.plan:
        lines.append("")
        lines.append("Plan:")
        for i, s in enumerate(result.plan, 1):
            cost = f"  [{fmt(s.cost)}]" if s.costs else ""
            lines.append(f"  {i:3d}. {s.description}{cost}")
    if tree and result.policy is not None and result.policy.children:
        lines.append("")
        lines.append("Policy (decision tree; * our planned move, > opponent's planned move):")
        lines.extend(render_policy(result.policy, fmt))
    if level and (result.choice_points or level == "reader"):
        e = explanation or build(result, phrasing=Phrasing(value=fmt))
        lines.append("")
        lines += reader_text(e) if level == "reader" else explanation_text(e)
    for d in result.diagnostics:
        lines.append(f"note: {d}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- why not X?


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
