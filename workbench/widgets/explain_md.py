"""Markdown for the explanation pane: why the highlighted thing is what it is.

Plain functions over plan items and engine records, no Textual: the judgements -- words,
magnitudes, relevant issues -- come from the run's :class:`~engine.tofs.explanation.
Explanation` (built in the planning process with the domain's phrasing and thresholds: one
wording for CLI, export and pane), and this module adds the numbers behind them -- values,
probabilities, the failing sub-expression and the values it saw -- which the one-line tree
labels have no room for.
"""

from __future__ import annotations

from engine.tofs import AlternativeRecord, ChoicePoint, Failure, PlanStep, PolicyEdge, RunResult
from engine.tofs.explanation import AlternativeExplanation, ChoiceExplanation, Explanation
from engine.tofs.explanation import explain as build_explanation
from engine.tofs.reader import ReaderChoice, reader_view
from engine.tofs.render import (
    choice_markdown,
    choice_reader_markdown,
    code,
    issues_markdown,
    md,
    plan_line,
    plan_why,
    reader_markdown,
)
from workbench.kb.testing import TestOutcome
from workbench.runner import ProblemRef
from workbench.widgets.plan_items import (
    AlternativeItem,
    ChoiceItem,
    FailureItem,
    PlanItem,
    PolicyItem,
    StepItem,
    SummaryItem,
    fmt_prob,
    fmt_value,
    reader_words,
    run_value,
)

PANE_HINT = "the full audit (key **a**)"
"""Where the pane's reader's view sends a reader for the audit."""

__all__ = ["code", "explain", "explain_error", "explain_package", "explain_problem", "md"]


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def explain(item: PlanItem | None, audit: bool = False) -> str:
    """Markdown for one plan-tree item: the reader's view of it, or with ``audit`` the full
    audit (every number behind the words, the method and its bindings)."""
    if not audit:
        return reader(item)
    match item:
        case None:
            return "Nothing to explain yet."
        case SummaryItem():
            return run_summary(item.view.result)
        case ChoiceItem():
            return choice_point(item.choice, item.view.result)
        case AlternativeItem():
            return alternative(item.alternative, item.choice, item.view.result)
        case StepItem():
            return step(item.step, item.index)
        case FailureItem():
            return "## No plan\n\n" + failure(item.failure)
        case PolicyItem():
            return policy_item(item)
    return md(item.plain)


# --------------------------------------------------------------------------- reader's view


def reader(item: PlanItem | None) -> str:
    """Markdown for one plan-tree item at the reader's level: the knowledge's labels and
    the domain's words, no method identifiers; the audit is one key away."""
    match item:
        case None:
            return "Nothing to explain yet."
        case SummaryItem():
            return reader_summary(item.view.result)
        case ChoiceItem():
            return reader_choice(item.choice, item.view.result)
        case AlternativeItem():
            return reader_alternative(item.alternative, item.choice, item.view.result)
        case StepItem():
            return f"## Step {item.index}\n\n{reader_step(item.step)}"
        case FailureItem():
            return reader_summary(item.view.result)
        case PolicyItem():
            return reader_policy(item)
    return md(item.plain)


def _size(r: RunResult) -> str:
    """ " · value **367**", or " · **7 steps**" for a plan without costs (never "value 0")."""
    size = r.size_text(lambda v: run_value(r, v))
    if not size:
        return ""
    if r.costed:
        return f" · value **{md(run_value(r, r.value))}**"
    return f" · **{size}**"


def reader_summary(r: RunResult) -> str:
    """The run and its explanation at the reader's level: the standing, the findings and
    each decision."""
    value = _size(r)
    head = f"## {md(r.domain)} / {md(r.problem)}\n\n**{md(r.outcome_text)}**{value}\n\n"
    return head + reader_markdown(explanation_of(r), hint=PANE_HINT)


def _reader_choice(run: RunResult, node: int) -> ReaderChoice | None:
    choices = reader_view(explanation_of(run)).choices
    return next((c for c in choices if c.choice.choice.node == node), None)


def reader_choice(cp: ChoicePoint, run: RunResult) -> str:
    found = _reader_choice(run, cp.node)
    e = explanation_of(run)
    if found is not None:
        text = choice_reader_markdown(found, e.mode, e.phrasing, PANE_HINT, "##")
        return text if text.startswith("##") else f"## {md(cp.task)}\n\n{text}"
    if cp.kind == "external":
        return f"## {md(cp.task)}\n\n" + _answers(cp, run)
    chosen = cp.chosen
    said = f"**{md(reader_words(chosen))}**" if chosen is not None else "nothing"
    return f"## {md(cp.task)}\n\nChosen: {said}. Press **a** for the full audit."


def _edges(run: RunResult, node: int) -> list[PolicyEdge]:
    if run.policy is None:
        return []
    found = next((n for n in run.policy.walk() if n.node == node), None)
    return list(found.children) if found is not None else []


def _answers(cp: ChoicePoint, run: RunResult) -> str:
    """The other side's answers planned for at an opponent's node, in the domain's words."""
    p = explanation_of(run).phrasing
    lines = ["The other side's answers planned for, with their chances:", ""]
    for edge in _edges(run, cp.node):
        move = edge.step.description if edge.step is not None else edge.label
        said = p.assumption(edge)
        prob = f"p = {fmt_prob(edge.probability)}, " if edge.probability is not None else ""
        what = f" if {md(said)}" if said else ""
        lines.append(f"- **{md(move)}**{what} ({prob}value {md(p.value(edge.node.value))})")
    return "\n".join(lines)


def reader_alternative(a: AlternativeRecord, cp: ChoicePoint, run: RunResult) -> str:
    e = explanation_of(run)
    c = _reader_choice(run, cp.node)
    if c is not None:
        for option in ([c.chosen] if c.chosen is not None else []) + list(c.others):
            for plan in option.plans:
                if any(x.record.label == a.label for x in plan.alternatives):
                    why = plan_why(plan, e.mode, e.phrasing)
                    lines = [
                        f"## {md(reader_words(a))}",
                        "",
                        md(_capital(plan_line(option, plan, e.phrasing))) + ".",
                        "",
                    ]
                    if why:
                        lines += [md(why), ""]
                    if plan.chosen:
                        lines += [md(c.verdict), ""]
                    lines.append(f"At {md(cp.task)}.")
                    return "\n".join(lines)
    if a.reason.value in ("precondition failed", "no binding"):
        why = "did not apply here"
    elif a.reason.value == "weighted":
        p = f", p = {fmt_prob(a.probability)}" if a.probability is not None else ""
        why = f"an answer of the other side planned for{p}"
    else:
        why = f"was not searched to the end ({md(a.reason)})"
    return (
        f"## {md(reader_words(a))}\n\nAt {md(cp.task)} this {why}. "
        "Press **a** for the full audit: its reason and the values it saw."
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def reader_step(s: PlanStep) -> str:
    lines = [md(s.description or s.operator), ""]
    if s.costs:
        lines += [f"- {md(k)}: {fmt_value(v)}" for k, v in s.costs.items()]
        if len(s.costs) > 1:
            lines.append(f"- total: **{fmt_value(s.cost)}**")
    return "\n".join(lines)


def reader_policy(item: PolicyItem) -> str:
    n, edge = item.node, item.edge
    run = item.view.result
    if edge is None:
        return reader_summary(run)
    alt, cp = item.alternative, item.choice
    if alt is not None and cp is not None and cp.kind == "decision":
        head = reader_alternative(alt, cp, run)
    else:
        p = explanation_of(run).phrasing
        move = edge.step.description if edge.step is not None else edge.label
        said = (
            p.assumption(edge)
            if item.parent is not None and item.parent.kind == "external"
            else None
        )
        prob = f"probability {fmt_prob(edge.probability)}, " if edge.probability is not None else ""
        head = f"## {md(move)}\n\n" + (f"If {md(said)}: " if said else "")
        head += f"{prob}value **{md(p.value(n.value))}**."
        if not item.on_policy:
            head += "\n\nThis move lies below an alternative that was not chosen."
    return head


# --------------------------------------------------------------------------- the audit


def run_summary(r: RunResult) -> str:
    value = _size(r)
    lines = [
        f"## {md(r.domain)} / {md(r.problem)}",
        "",
        f"{md(r.mode)} mode · **{md(r.outcome_text)}**{value}",
        "",
        f"- {r.nodes} nodes searched ({r.tree_nodes} kept in the tree), {r.seconds:.3f} s",
        f"- {plural(len(r.plan), 'plan step')}, {plural(len(r.choice_points), 'choice point')}",
    ]
    stats = [f"{md(k.replace('_', ' '))} {v}" for k, v in r.stats.items() if v]
    if stats:
        lines.append("- " + ", ".join(stats))
    if r.failure is not None:
        lines += ["", "### Deepest failure", "", failure(r.failure)]
    if r.diagnostics:
        lines += ["", "### Notes", ""] + [f"- {md(d)}" for d in r.diagnostics]
    return "\n".join(lines)


def explanation_of(run: RunResult) -> Explanation:
    """The run's explanation (one without domain phrasing or re-plans when the run came
    without one, e.g. from a trace replay), kept on the run for the next look."""
    if run.explanation is None:
        run.explanation = build_explanation(run)
    return run.explanation


def _choice(run: RunResult, cp: ChoicePoint) -> ChoiceExplanation | None:
    return next((c for c in explanation_of(run).choices if c.choice.node == cp.node), None)


def choice_point(cp: ChoicePoint, run: RunResult) -> str:
    found = _choice(run, cp)
    if found is None:
        return f"## Choice: {md(cp.task)}"
    e = explanation_of(run)
    return choice_markdown(found, e.mode, e.phrasing, costed=e.run.costed)


def alternative(a: AlternativeRecord, cp: ChoicePoint, run: RunResult) -> str:
    mode = run.mode
    found = _choice(run, cp)
    ae: AlternativeExplanation | None = None
    if found is not None:
        ae = next((x for x in found.alternatives if x.record.label == a.label), None)
    summary = ae.summary if ae is not None else a.reason
    lines = [
        f"## {md(a.label)}",
        "",
        md(summary),
        "",
        f"At {md(cp.task)} ({md(cp.kind)} node).",
        "",
    ]
    if ae is not None and ae.issues is not None:
        lines += ["### Relevant issues", ""] + ([md(ae.gist), ""] if ae.gist else [])
        lines += [
            line[2:] for line in issues_markdown(ae.issues, mode, explanation_of(run).phrasing)
        ]
        lines.append("")
    lines += [f"- {name}: {val}" for name, val in _numbers(a, mode, run.costed)]
    if ae is not None and ae.replanned is not None:
        lines.append(f"- value when finished (forced re-plan): {fmt_value(ae.replanned)}")
    if a.failure is not None:
        lines += ["", "### Failure", "", failure(a.failure)]
    return "\n".join(lines)


def _numbers(a: AlternativeRecord, mode: str, costed: bool = True) -> list[tuple[str, str]]:
    rows = [("reason", md(a.reason)), ("method", code(a.method))]
    if a.value is not None and costed:
        bound = (
            (" (an upper bound)" if mode == "game" else " (a lower bound)")
            if a.value_is_bound
            else ""
        )
        rows.append(("value", f"**{fmt_value(a.value)}**{bound}"))
    if a.compared_with is not None and not a.chosen:
        rows.append(("compared with", fmt_value(a.compared_with)))
    if a.probability is not None:
        rows.append(("probability", fmt_prob(a.probability)))
    if a.assumption:
        rows.append(("assumption", md(a.assumption)))
    if a.critic:
        rows.append(("critic", code(a.critic)))
    if a.bindings:
        rows.append(("bindings", ", ".join(f"{code(k)} = {code(repr(v))}" for k, v in a.bindings)))
    if a.detail:
        rows.append(("detail", md(a.detail)))
    return rows


def failure(f: Failure) -> str:
    lines = [
        md(f.message),
        "",
        f"- where: {md(f.task)}" + (f" by {code(f.method)}" if f.method else ""),
    ]
    if f.expression:
        lines.append(f"- {md(f.field)}: {code(f.expression)}")
    if f.failing and f.failing != f.expression:
        lines.append(f"- failing part: {code(f.failing)}")
    lines += [f"- saw {code(v.text)} = {code(repr(v.value))}" for v in f.values]
    lines.append(f"- at depth {f.depth}, node {f.node}")
    return "\n".join(lines)


def step(s: PlanStep, index: int) -> str:
    return f"## Step {index}\n\n{step_details(s)}"


def step_details(s: PlanStep) -> str:
    args = ", ".join(repr(a) for a in s.args)
    lines = [md(s.description or s.operator), "", f"- operator: {code(f'{s.operator}({args})')}"]
    if s.costs:
        lines += [f"- {md(k)}: {fmt_value(v)}" for k, v in s.costs.items()]
        if len(s.costs) > 1:
            lines.append(f"- total: **{fmt_value(s.cost)}**")
    else:
        lines.append("- no cost")
    if s.group:
        lines.append(f"- group: {md(s.group)}")
    lines.append(f"- search node {s.node}")
    return "\n".join(lines)


def policy_item(item: PolicyItem) -> str:
    n = item.node
    if item.edge is None:
        return run_summary(item.view.result) + "\n\n" + _position(item)
    alt, cp = item.alternative, item.choice
    if alt is not None and cp is not None:
        head = alternative(alt, cp, item.view.result)
    else:
        p = (
            f"probability {fmt_prob(item.edge.probability)}, "
            if item.edge.probability is not None
            else ""
        )
        head = f"## {md(item.edge.label)}\n\n{p}value **{fmt_value(n.value)}**"
        if not item.on_policy:
            head += "\n\nThis move lies below an alternative that was not chosen."
    move = ""
    if item.edge.step is not None:
        move = "\n\n### Move\n\n" + step_details(item.edge.step)
    return head + move + "\n\n" + _position(item)


def _position(item: PolicyItem) -> str:
    n = item.node
    if n.kind == "leaf":
        note = f" ({md(n.note)})" if n.note else ""
        return f"### Outcome\n\nLeaf value **{fmt_value(n.value)}**{note}."
    who = f" for {md(n.agent)}" if n.agent is not None else ""
    title = "### Position" if item.edge is None else "### After this move"
    lines = [
        title,
        "",
        f"{md(n.task)}: {md(n.kind)} node{who}, "
        f"value **{fmt_value(n.value)}**, {plural(len(n.children), 'move')} in the tree.",
    ]
    if n.kind == "external" and n.planned is not None and n.children:
        lines.append(
            f"Most likely move: **{md(n.children[n.planned].label)}**"
            + (f"; critic {code(n.critic)}" if n.critic else "")
            + "."
        )
    if n.kind == "decision" and n.chosen is not None and n.children:
        lines.append(f"Planned move: **{md(n.children[n.chosen].label)}**.")
    return "\n".join(lines)


def explain_problem(request: ProblemRef, description: str) -> str:
    return (
        f"## {md(request.package)} / {md(request.problem)}\n\n{md(description)}\n\n"
        "Press **r** to plan it."
    )


def explain_package(name: str, description: str, problems: list[str]) -> str:
    listed = "\n".join(f"- {md(p)}" for p in problems) or "No problems."
    return f"## Package {md(name)}\n\n{md(description)}\n\n{listed}"


def explain_error(request: ProblemRef, message: str) -> str:
    return f"## {md(request.title)} failed\n\n```\n{message}\n```"


def test_report(scope: str, outcomes: dict[str, list[TestOutcome]]) -> str:
    """Knowledge-test results as Markdown: one line per test, failures spelled out."""
    lines = [f"# Knowledge tests: {md(scope)}", ""]
    for domain, results in outcomes.items():
        passed = sum(o.passed for o in results)
        lines.append(f"## {md(domain)}: {passed} passed, {len(results) - passed} failed")
        lines.append("")
        for o in results:
            mark = "✓" if o.passed else "✗"
            lines.append(
                f"- {mark} **{md(o.test.name)}** ({md(o.test.problem)}, {o.seconds:.2f} s)"
            )
            if o.test.description:
                lines.append(f"  - {md(o.test.description)}")
            if o.error:
                lines.append(f"  - error: {md(o.error)}")
            lines.extend(f"  - {md(f)}" for f in o.failures)
        lines.append("")
    return "\n".join(lines)
