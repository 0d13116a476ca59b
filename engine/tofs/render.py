"""Lay a run and its explanation out as plain text, Markdown or JSON-ready data.

No judgements here: which words, which issues and which numbers were settled when the
explanation was built (:mod:`.explanation`, :mod:`.reader`, :mod:`.contrast`); these
functions only arrange them.  The command line prints :func:`render_text`, the export and
the workbench pane use the Markdown forms, ``--json`` the dicts.

Every renderer lives here and this module is the top of the explanation layers: it imports
the records it lays out and nothing imports it back, so the engine's import graph has no
circle through it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from .contrast import Contrast
from .explanation import (
    AlternativeExplanation,
    ChoiceExplanation,
    Explanation,
    Phrasing,
)
from .explanation import explain as build_explanation
from .issues import Issue, Issues
from .reader import (
    ReaderChoice,
    ReaderOption,
    ReaderPlan,
    ReaderView,
    Risk,
    plan_words,
    reader_view,
)
from .results import SUSPECTS_SHOWN, Outcome, PolicyNode, RunResult

__all__ = [
    "code",
    "contrast_lines",
    "contrast_text",
    "explain_level",
    "explanation_dict",
    "explanation_markdown",
    "explanation_text",
    "issue_lines",
    "md",
    "reader_dict",
    "reader_markdown",
    "reader_text",
    "render_policy",
    "render_text",
]

AUDIT_HINT = "`--explain=full`"
"""Where the reader's view sends a reader for the full audit (the workbench: a key)."""


# --------------------------------------------------------------------------- issues


def _change(c: float, mode: str, p: Phrasing) -> str:
    if mode == "game":
        return f"loses {p.diff(c)}" if c >= 0 else f"gains {p.diff(-c)}"
    return f"costs {p.diff(c)} more" if c >= 0 else f"saves {p.diff(-c)}"


def _issue(i: Issue, mode: str, p: Phrasing, overall: bool = True) -> str:
    if i.kind == "steps":
        if i.other_side and i.chosen_side:
            text = (
                f"{'; '.join(i.other_side)} ({p.value(i.other or 0.0)}) instead of "
                f"{'; '.join(i.chosen_side)} ({p.value(i.chosen or 0.0)})"
            )
        elif i.other_side:
            text = f"adds {'; '.join(i.other_side)} ({p.value(i.other or 0.0)})"
        else:
            text = f"leaves out {'; '.join(i.chosen_side)} ({p.value(i.chosen or 0.0)})"
        return f"{text}: {_change(i.contribution, mode, p)}" if overall else text
    prob = f", p = {i.probability:.3g}" if i.probability is not None else ""
    values = ""
    if i.other is not None and i.chosen is not None:
        values = f": {p.value(i.other)} against {p.value(i.chosen)}"
    what = (
        f"if {i.assumption} ({i.text}{prob})"
        if i.assumption
        else f"{i.text} ({prob[2:]})"
        if prob
        else i.text
    )
    if not overall:
        return f"{what}{values}"
    return f"{what}{values} -- {_change(i.contribution, mode, p)} overall"


def issue_lines(issues: Issues, mode: str, p: Phrasing) -> list[str]:
    """The relevant issues as sentences: where the descent went, the parts, what is left."""
    lines = []
    if issues.where:
        lines.append(
            f"the difference lies where {' -> '.join(issues.where)} (p = {issues.probability:.3g})"
        )
    if issues.cancel:
        lines.append("differences pull in opposite directions and partly cancel:")
    elif issues.add_up:
        lines.append("no single difference decides it; these add up:")
    lines += [_issue(i, mode, p) for i in issues.items]
    if issues.rest:
        lines.append(f"smaller differences elsewhere: {_change(issues.rest, mode, p)}")
    return lines


# --------------------------------------------------------------------------- text


def _mark(a: AlternativeExplanation) -> str:
    return "*" if a.chosen else "-"


def choice_text(c: ChoiceExplanation, mode: str, p: Phrasing, indent: str = "  ") -> list[str]:
    cp = c.choice
    who = f" [{cp.kind}, agent {cp.agent}]" if cp.agent is not None else f" [{cp.kind}]"
    lines = [f"{indent}{cp.task}{who}", f"{indent}  {c.verdict}"]
    for a in c.alternatives:
        lines.append(f"{indent}  {_mark(a)} {a.label}: {a.summary}")
        if a.gist:
            lines.append(f"{indent}      why: {a.gist}")
        if a.issues is not None:
            lines += [f"{indent}      why: {t}" for t in issue_lines(a.issues, mode, p)]
    return lines


def explanation_text(e: Explanation) -> list[str]:
    lines = [e.standing, *e.findings]
    if e.choices:
        lines += ["", "Choice points:"]
        for c in e.choices:
            lines += choice_text(c, e.mode, e.phrasing)
    return lines


# --------------------------------------------------------------------------- Markdown

_INLINE = re.compile(r"([\\`*_\[\]<>|~])")
_CODE_SPAN = re.compile(r"(`[^`\n]+`)")
_LINE_START = re.compile(r"^(\s*)(?:([#+\-=>])|(\d+)([.)]))")


def md(text: object) -> str:
    """Escape text so Markdown shows it literally; `code spans` the engine wrote are kept."""
    pieces = _CODE_SPAN.split(str(text))
    out = "".join(piece if i % 2 else _INLINE.sub(r"\\\1", piece) for i, piece in enumerate(pieces))

    def fix(m: re.Match[str]) -> str:
        if m.group(2):
            return f"{m.group(1)}\\{m.group(2)}"
        return f"{m.group(1)}{m.group(3)}\\{m.group(4)}"

    return _LINE_START.sub(fix, out)


def code(text: object) -> str:
    """An inline code span that survives backticks in the text."""
    s = str(text)
    fence = "``" if "`" in s else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def issues_markdown(issues: Issues, mode: str, p: Phrasing) -> list[str]:
    return [f"  - {md(t)}" for t in issue_lines(issues, mode, p)]


def choice_markdown(
    c: ChoiceExplanation, mode: str, p: Phrasing, level: str = "##", costed: bool = True
) -> str:
    """One choice point in Markdown; ``costed`` False (a plan without costs, whose values
    are all 0) leaves the value out."""
    cp = c.choice
    who = f", agent {md(cp.agent)}" if cp.agent is not None else ""
    value = p.value(cp.value) if cp.value is not None else "no value"
    lines = [
        f"{level} Choice: {md(cp.task)}",
        "",
        f"{md(cp.kind)} node{who}" + (f" · value **{md(value)}**" if costed else ""),
        "",
        md(c.verdict),
        "",
    ]
    for a in c.alternatives:
        mark = "✓ " if a.chosen else ""
        lines.append(f"- {mark}**{md(a.label)}**: {md(a.summary)}")
        if a.gist:
            lines.append(f"  - {md(a.gist)}")
        if a.issues is not None:
            lines += issues_markdown(a.issues, mode, p)
    return "\n".join(lines)


def explanation_markdown(e: Explanation, title: str | None = None) -> str:
    head = f"# {md(title)}\n\n" if title else ""
    body = [f"{head}{md(e.standing)}"]
    if e.findings:
        body.append("\n".join(f"- {md(f)}" for f in e.findings))
    body += [choice_markdown(c, e.mode, e.phrasing, costed=e.run.costed) for c in e.choices]
    return "\n\n".join(body) + "\n"


# --------------------------------------------------------------------------- why not X?


def contrast_lines(c: Contrast, phrasing: Phrasing | None = None) -> list[str]:
    """A :class:`~.contrast.Contrast` as sentences: the verdict, where the plans part, and
    the difference by its relevant issues."""
    p = phrasing or Phrasing()
    lines = [c.verdict(), c.divergence_text()]
    if c.gist:
        lines.append(f"why: {c.gist}")
    if c.issues is not None:
        lines += [f"why: {t}" for t in issue_lines(c.issues, c.mode, p)]
    return lines


def contrast_text(c: Contrast, phrasing: Phrasing | None = None) -> list[str]:
    head = f"Why not {c.alternative} at {c.task}?" if c.task else "Why not?"
    return [head] + [f"  {t}" for t in contrast_lines(c, phrasing)]


# --------------------------------------------------------------------------- JSON


def explanation_dict(e: Explanation) -> dict[str, Any]:
    """The explanation as JSON-ready data (``--json --explain``): the same records the
    text and Markdown lay out."""

    def issues(i: Issues | None) -> dict[str, Any] | None:
        return None if i is None else asdict(i) | {"total": i.total}

    return {
        "standing": e.standing,
        "findings": list(e.findings),
        "reader": reader_dict(e),
        "choice_points": [
            {
                "node": c.choice.node,
                "task": c.task,
                "kind": c.choice.kind,
                "verdict": c.verdict,
                "alternatives": [
                    {
                        "label": a.label,
                        "reason": str(a.reason),
                        "chosen": a.chosen,
                        "value": a.record.value,
                        "summary": a.summary,
                        "loss": a.loss,
                        "magnitude": a.magnitude,
                        "replanned": a.replanned,
                        "gist": a.gist,
                        "issues": issues(a.issues),
                    }
                    for a in c.alternatives
                ],
            }
            for c in e.choices
        ],
    }


# --------------------------------------------------------------------------- reader's view


def _noun(p: Phrasing, n: int) -> str:
    return p.alternatives[0] if n == 1 else p.alternatives[1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def plan_line(option: ReaderOption, plan: ReaderPlan, p: Phrasing) -> str:
    """One plan of an option: what it is, its value and how it compares, in words."""
    words = plan_words(option, plan)
    if plan.dead_end:
        return f"{words}: tried, no plan below"
    if plan.value is None:
        return f"{words} (chosen)" if plan.chosen else words
    value = p.value(plan.value)
    if plan.chosen:
        return f"{words}: {value} (chosen)"
    if plan.tie:
        return f"{words}: {value}, as good (a tie)"
    if plan.loss is not None and plan.loss < 0:
        return f"{words}: {value}, better by {p.diff(-plan.loss)}"
    by = f" (by {p.diff(plan.loss)})" if plan.loss is not None else ""
    return f"{words}: {value}, {plan.magnitude or 'clearly'} worse{by}"


def plan_why(plan: ReaderPlan, mode: str, p: Phrasing) -> str | None:
    """The plan's relevant issue in one sentence: the domain's gist, else the biggest part
    of the difference (and where the descent to it went), or a dead end's failure."""
    if plan.dead_end:
        return f"deepest failure: {plan.failure}" if plan.failure else None
    if plan.gist:
        return plan.gist
    if plan.issue is None:
        return None
    text = _issue(plan.issue, mode, p, overall=False)
    if plan.where:
        text = f"where {' -> '.join(plan.where)}: {text}"
    return text


def risk_line(r: Risk, p: Phrasing) -> str:
    kind = "risk" if r.worse else "chance"
    head = f"Then {kind}" if r.then else _capital(kind)
    prob = f"p = {r.probability:.3g}" if r.probability is not None else ""
    if r.assumption:
        what = f"{r.assumption} ({', '.join(filter(None, (r.move, prob)))})"
    else:
        what = f"{r.move} ({prob})" if prob else r.move
    return f"{head}: if {what}: {p.value(r.value)}."


def count_line(c: ReaderChoice, p: Phrasing, hint: str = AUDIT_HINT) -> str | None:
    """The alternatives not shown, counted in one line."""
    parts = []
    na, cut = c.not_applied, c.cut_off
    named = 0 < na <= 2 and len(c.not_applied_titles) == na
    if named:
        parts.append(f"{' and '.join(c.not_applied_titles)} did not apply here")
    elif na:
        parts.append(f"{na} other {_noun(p, na)} did not apply here")
    if cut:
        other = "" if na else "other "
        verb = "was" if cut == 1 else "were"
        parts.append(f"{cut} {other}{_noun(p, cut)} {verb} cut off before the end")
    if not parts:
        return None
    tail = "says why" if named and not cut else "lists them"
    return f"{'; '.join(parts)}; {hint} {tail}."


def _short_count(c: ReaderChoice, p: Phrasing) -> str:
    """A forced decision's count, in brackets: " (arrived did not)"."""
    parts = []
    na = c.not_applied
    if 0 < na <= 2 and len(c.not_applied_titles) == na:
        parts.append(f"{' and '.join(c.not_applied_titles)} did not")
    elif na:
        parts.append(f"{na} others did not")
    if c.cut_off:
        parts.append(f"{c.cut_off} cut off before the end")
    return f" ({'; '.join(parts)})" if parts else ""


def _one_line(c: ReaderChoice) -> str:
    """The head and the verdict in one sentence (without its full stop when forced: the
    count follows)."""
    verdict = c.verdict
    if verdict.startswith("It is "):
        verdict = verdict[len("It is ") :]
    if c.forced:
        verdict = verdict.rstrip(".")
    return f"{c.head[:-1]}; {verdict}"


def choice_reader_lines(
    c: ReaderChoice, mode: str, p: Phrasing, hint: str = AUDIT_HINT
) -> list[str]:
    """One decision of the reader's view as text lines."""
    if c.later:
        return [f"Then {_one_line(c)}"]
    if c.forced:
        return [_one_line(c) + _short_count(c, p) + "."]
    lines = [c.head, f"  {c.verdict}"]
    lines += [f"  {risk_line(r, p)}" for r in c.risks]
    if c.more_risks:
        lines.append(f"  ... and {c.more_risks} more answers the plan does not bank on.")
    sure = _no_risk(c, p)
    if sure:
        lines.append(f"  {sure}")
    for line, why in _other_plans(c, mode, p):
        lines.append(f"  - {line}")
        if why:
            lines.append(f"      {why}")
    count = count_line(c, p, hint)
    if count:
        lines.append(f"  {count}")
    return lines


def _no_risk(c: ReaderChoice, p: Phrasing) -> str | None:
    """The line for a chosen plan that no answer in the tree puts at risk."""
    if c.sure and c.chosen is not None and c.chosen.best.value is not None:
        return (
            "No risk in the planner's tree: every answer planned for gives "
            f"{p.value(c.chosen.best.value)}."
        )
    return None


def _other_plans(c: ReaderChoice, mode: str, p: Phrasing) -> list[tuple[str, str]]:
    """Each plan not chosen, chosen move's first: its line and why it lost (or "")."""
    options = ([c.chosen] if c.chosen is not None else []) + list(c.others)
    return [
        (plan_line(option, plan, p), plan_why(plan, mode, p) or "")
        for option in options
        for plan in option.plans
        if not plan.chosen
    ]


def reader_text(e: Explanation | ReaderView, hint: str = AUDIT_HINT) -> list[str]:
    """The reader's view as text: standing and findings, then each decision."""
    r = e if isinstance(e, ReaderView) else reader_view(e)
    p = r.phrasing
    lines = [r.standing, *r.findings]
    previous: ReaderChoice | None = None
    for c in r.choices:
        # A blank line before each decision said in full and before a run of one-liners.
        if not c.later and not (c.forced and previous is not None and previous.forced):
            lines.append("")
        lines += choice_reader_lines(c, r.mode, p, hint)
        previous = c
    if r.off_line:
        lines += [
            "",
            f"The planner also chose {r.off_line} move{'s' if r.off_line != 1 else ''} off "
            f"the planned line (for answers it does not expect); {hint} shows them.",
        ]
    return lines


def choice_reader_markdown(
    c: ReaderChoice, mode: str, p: Phrasing, hint: str = AUDIT_HINT, level: str = "###"
) -> str:
    """One decision of the reader's view as Markdown."""
    if c.later or c.forced:
        text = f"Then {_one_line(c)}" if c.later else _one_line(c) + _short_count(c, p) + "."
        return md(text)
    out = [f"{level} {md(c.task)}", "", f"**{md(c.head)}** {md(c.verdict)}", ""]
    out += [f"- {md(risk_line(r, p))}" for r in c.risks]
    sure = _no_risk(c, p)
    if sure:
        out.append(f"- {md(sure)}")
    for line, why in _other_plans(c, mode, p):
        out.append(f"- {md(line)}")
        if why:
            out.append(f"  - {md(why)}")
    count = count_line(c, p, hint)
    if count:
        out += ["", _md_around(count, hint)]
    return "\n".join(out)


def _md_around(text: str, markdown: str) -> str:
    """``text`` escaped, except for ``markdown`` inside it (the caller's hint, such as "the
    full audit (key **a**)"), which is kept as Markdown so that it renders as such."""
    if not markdown:
        return md(text)
    return markdown.join(md(piece) for piece in text.split(markdown))


def reader_markdown(
    e: Explanation | ReaderView, title: str | None = None, hint: str = AUDIT_HINT
) -> str:
    r = e if isinstance(e, ReaderView) else reader_view(e)
    p = r.phrasing
    head = f"# {md(title)}\n\n" if title else ""
    body = [f"{head}{md(r.standing)}"]
    if r.findings:
        body.append("\n".join(f"- {md(f)}" for f in r.findings))
    later: list[str] = []
    for c in r.choices:
        if c.later:
            later.append(f"- {choice_reader_markdown(c, r.mode, p, hint)}")
            continue
        if later:
            body.append("\n".join(later))
            later = []
        body.append(choice_reader_markdown(c, r.mode, p, hint))
    if later:
        body.append("\n".join(later))
    if r.off_line:
        body.append(
            _md_around(
                f"The planner also chose {r.off_line} move{'s' if r.off_line != 1 else ''} "
                f"off the planned line (for answers it does not expect); {hint} shows them.",
                hint,
            )
        )
    return "\n\n".join(body) + "\n"


def reader_dict(e: Explanation | ReaderView) -> dict[str, Any]:
    """The reader's view as JSON-ready data: the same numbers as the audit's records."""
    r = e if isinstance(e, ReaderView) else reader_view(e)
    p = r.phrasing

    def plan(o: ReaderOption, pl: ReaderPlan) -> dict[str, Any]:
        return {
            "plans": list(pl.titles),
            "labels": [a.label for a in pl.alternatives],
            "value": pl.value,
            "loss": pl.loss,
            "magnitude": pl.magnitude,
            "chosen": pl.chosen,
            "tie": pl.tie,
            "text": plan_line(o, pl, p),
            "why": plan_why(pl, r.mode, p),
        }

    return {
        "standing": r.standing,
        "findings": list(r.findings),
        "decisions": [
            {
                "node": c.choice.choice.node,
                "task": c.task,
                "head": c.head,
                "verdict": c.verdict,
                "later": c.later,
                "options": [
                    {"move": o.move, "chosen": o.chosen, "plans": [plan(o, x) for x in o.plans]}
                    for o in ([c.chosen] if c.chosen is not None else []) + list(c.others)
                ],
                "risks": [
                    {
                        "move": k.move,
                        "assumption": k.assumption,
                        "probability": k.probability,
                        "value": k.value,
                        "worse": k.worse,
                    }
                    for k in c.risks
                ],
                "not_applied": c.not_applied,
                "cut_off": c.cut_off,
            }
            for c in r.choices
        ],
        "off_line": r.off_line,
    }


# --------------------------------------------------------------------------- a run as text


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
        size = f"{len(result.plan)} steps" if result.mode == "first" else result.size_text(fmt)
        lines.append(
            f"{size}; {result.nodes} nodes "
            f"({result.tree_nodes} in the tree); {result.seconds:.3f} s"
        )
    else:
        none = "no plan yet" if result.outcome is Outcome.GAVE_UP else "no plan"
        lines.append(f"{none}; {result.nodes} nodes; {result.seconds:.3f} s")
        if result.suspects:
            lines.append("Where to look first:")
            shown = result.suspects[:SUSPECTS_SHOWN]
            lines += [f"  {i}. {b.text}" for i, b in enumerate(shown, 1)]
        if result.failure is not None:
            via = result.failure.via
            if via:
                task, alternative = via[0]
                why = ""
                if alternative:  # a task with methods: say that all of them were tried
                    why = ": no method of it led to a plan" + (
                        "" if result.complete else " in the part of the tree searched"
                    )
                lines.append(f"{task} could not be done{why}; its deepest failure was reached by:")
                steps = [f"    {task} -> {alt}" if alt else f"    {task}" for task, alt in via]
                if result.outcome is Outcome.GAVE_UP and level != "full" and len(steps) > 8:
                    # Gave up: the suspects above say where to look; the path is context,
                    # its start and its end (the whole of it with --explain=full).
                    hidden = len(steps) - 5
                    steps[2:-3] = [f"    … {hidden} more steps of the path (--explain=full)"]
                lines += steps
            lines.append(f"deepest failure: {result.failure.message}")
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
        e = explanation or build_explanation(result, phrasing=Phrasing(value=fmt))
        lines.append("")
        lines += reader_text(e) if level == "reader" else explanation_text(e)
    for d in result.diagnostics:
        lines.append(f"note: {d}")
    return "\n".join(lines)
