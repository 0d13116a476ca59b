"""Explanation records rendered to words.

The records themselves (:class:`~engine.tofs.results.ChoicePoint`) carry every number; this
module only turns them into plain sentences, kept deliberately simple -- the domain
renderers and the workbench build richer views on the same records.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .results import AlternativeRecord, ChoicePoint, Failure, PolicyNode, Reason, RunResult

__all__ = ["describe_alternative", "failure_text", "render_policy", "render_text"]


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


