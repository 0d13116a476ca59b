"""Explanation records rendered to words.

The records themselves (:class:`~engine.tofs.results.ChoicePoint`) carry every number; this
module only turns them into plain sentences, kept deliberately simple -- the domain
renderers and the workbench build richer views on the same records.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dataclasses import dataclass
from dataclasses import replace as dc_replace

from .domain import Domain, Problem
from .results import (
    AlternativeRecord, ChoicePoint, Failure, PlanStep, PolicyNode, Reason, RunResult,
)
from .search import SearchOptions, plan

__all__ = [
    "Anchor", "describe_alternative", "failure_text", "plan_why_not", "render_policy",
    "render_text", "replan_at",
]


def _num(v: float | None, fmt: Callable[[float], str]) -> str:
    return "?" if v is None else fmt(v)


def describe_alternative(a: AlternativeRecord, cp: ChoicePoint, mode: str,
                         fmt: Callable[[float], str] = lambda v: f"{v:g}") -> str:
    """One sentence saying why this alternative was (not) taken, with its numbers."""
    better = "lower" if mode != "game" else "higher"
    worse = "higher" if mode != "game" else "lower"
    r = a.reason
    if r is Reason.CHOSEN:
        runner = [x for x in cp.alternatives if not x.chosen and x.value is not None
                  and x.reason in (Reason.LOWER_VALUE, Reason.TIE)]
        text = f"chosen: value {_num(a.value, fmt)}"
        if runner:
            best_other = (min if mode != "game" else max)(runner, key=lambda x: x.value or 0.0)
            text += (f", {better} than the runner-up {best_other.label} "
                     f"({_num(best_other.value, fmt)})")
        return text
    if r is Reason.LOWER_VALUE:
        diff = abs((a.value or 0.0) - (cp.value or 0.0))
        return (f"{worse} cost" if mode != "game" else "lower value") + (
            f": {_num(a.value, fmt)} against {_num(cp.value, fmt)} (worse by {fmt(diff)})")
    if r is Reason.TIE:
        return (f"tie at {_num(a.value, fmt)}: an earlier method in priority order was "
                "taken")
    if r in (Reason.PRECONDITION_FAILED, Reason.NO_BINDING) and a.failure is not None:
        return f"{r}: {a.failure.reason}"
    if r is Reason.NO_BINDING:
        return "no binding: the generator produced nothing"
    if r is Reason.PARTIAL_PLAN_PRUNED:
        return (f"partial-plan pruned: {a.detail}" if a.detail else
                f"partial-plan pruned (cost {_num(a.value, fmt)} vs {_num(a.compared_with, fmt)})")
    if r is Reason.BOUND_PRUNED:
        if a.value is not None and a.compared_with is not None and a.value > a.compared_with:
            return (f"bound pruned: costs at least {_num(a.value, fmt)}, more than the best plan "
                    f"already found ({_num(a.compared_with, fmt)}), so it was not finished")
        return (f"bound pruned: cannot cost less than {_num(a.value, fmt)}, the cost of the best "
                "plan already found, so it was not finished")
    if r is Reason.TRANSPOSED:
        return (f"transposed: reaches a state already reached more cheaply "
                f"({_num(a.compared_with, fmt)} <= {_num(a.value, fmt)}), so it cannot do better")
    if r is Reason.LIKELIHOOD_PRUNED:
        return (f"likelihood pruned: probability {a.probability:.3g} is below the cutoff "
                f"{_num(a.compared_with, fmt)}" if a.probability is not None else str(r))
    if r is Reason.NOT_EXPANDED:
        return f"not expanded: {a.detail or 'planning stopped'}"
    if r is Reason.DEAD_END:
        return "dead end: no complete plan below" + (
            f"; deepest failure: {failure_text(a.failure)}" if a.failure else "")
    if r is Reason.WEIGHTED:
        p = f"p = {a.probability:.3g}" if a.probability is not None else "unweighted"
        planned = " (planned move)" if a.chosen else ""
        assume = f", assuming {a.assumption}" if a.assumption else ""
        return f"opponent move{planned}, {p}{assume}: value {_num(a.value, fmt)}"
    return str(r)


def render_policy(node: PolicyNode, fmt: Callable[[float], str] = lambda v: f"{v:g}",
                  indent: str = "  ") -> list[str]:
    """The decision tree as indented lines: values, probabilities, planned moves."""
    lines = [f"{indent}{node.task} [{node.kind}] value {fmt(node.value)}"
             + (f" ({node.note})" if node.note else "")]
    for i, edge in enumerate(node.children):
        planned = (node.kind == "decision" and i == node.chosen) or (
            node.kind == "external" and i == node.planned)
        mark = ("*" if node.kind == "decision" else ">") if planned else " "
        prob = f" p={edge.probability:.3g}" if edge.probability is not None else ""
        move = f": {edge.step.description}" if edge.step is not None else ""
        lines.append(f"{indent}  {mark} {edge.label}{prob}{move}")
        lines.extend(render_policy(edge.node, fmt, indent + "      "))
    return lines


def failure_text(f: Failure) -> str:
    return f.message


def render_text(result: RunResult, fmt: Callable[[float], str] = lambda v: f"{v:g}",
                explain: bool = True) -> str:
    """The plan and, for each choice point, every alternative with its reason."""
    lines: list[str] = []
    head = f"{result.domain}/{result.problem} ({result.mode}): {result.status}"
    lines.append(head)
    if result.value is not None:
        lines.append(f"value {fmt(result.value)}; {result.nodes} nodes "
                     f"({result.tree_nodes} in the tree); {result.seconds:.3f} s")
    else:
        lines.append(f"no plan; {result.nodes} nodes; {result.seconds:.3f} s")
        if result.failure is not None:
            lines.append(f"deepest failure: {failure_text(result.failure)}")
    if result.plan:
        lines.append("")
        lines.append("Plan:")
        for i, s in enumerate(result.plan, 1):
            cost = f"  [{fmt(s.cost)}]" if s.costs else ""
            lines.append(f"  {i:3d}. {s.description}{cost}")
    if result.policy is not None and result.policy.children:
        lines.append("")
        lines.append("Policy (decision tree; * our planned move, > opponent's planned move):")
        lines.extend(render_policy(result.policy, fmt))
    if explain and result.choice_points:
        lines.append("")
        lines.append("Choice points:")
        for cp in result.choice_points:
            who = f" [{cp.kind}, agent {cp.agent}]" if cp.agent is not None else f" [{cp.kind}]"
            lines.append(f"  {cp.task}{who}")
            for a in cp.alternatives:
                mark = "*" if a.chosen else "-"
                lines.append(f"    {mark} {a.label}: {describe_alternative(a, cp, result.mode, fmt)}")
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
        return cls(choice,
                   tuple(s for s in run.plan if s.node is not None and s.node <= choice.node),
                   tuple(cp for cp in run.choice_points if cp.node < choice.node))


def replan_at(domain: Domain, problem: Problem, options: SearchOptions, anchor: Anchor,
              alternative: str) -> RunResult:
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
    forced = plan(domain, sub, dc_replace(options, force={choice.node: alternative},
                                          start_node=choice.node, start_cost=spent))
    if forced.value is None:
        return forced
    return dc_replace(forced, plan=list(anchor.steps) + list(forced.plan),
                      choice_points=list(anchor.choices) + list(forced.choice_points))


def plan_why_not(domain: Domain, problem: Problem, options: SearchOptions,
                 why_not: Mapping[str, str]) -> RunResult:
    """Plan, then take each ``{task: alternative}`` at the first choice point on the plan
    whose task is ``task``, re-planning from there (:func:`replan_at`).

    Tasks and alternatives are named as ``--json`` shows choice points: the task's label
    (or its name) and the alternative's label (or its method).  Raises ``ValueError``
    naming the choice points there are when nothing matches.
    """
    result = plan(domain, problem, options)
    for task, alternative in why_not.items():
        points = sorted(result.choice_points, key=lambda c: c.node)
        match = next((c for c in points if task in (c.task, c.task_name)
                      and any(alternative in (a.label, a.method) for a in c.alternatives)),
                     None)
        if match is None:
            listed = "; ".join(f"{c.task}: {', '.join(a.label for a in c.alternatives)}"
                               for c in points[:8]) or "none"
            raise ValueError(f"no choice point on the plan has task '{task}' with an "
                             f"alternative '{alternative}'; choice points: {listed}")
        label = next(a.label for a in match.alternatives
                     if alternative in (a.label, a.method))
        result = replan_at(domain, problem, options, Anchor.of(result, match), label)
    return result
