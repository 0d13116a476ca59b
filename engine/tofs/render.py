"""Lay an :class:`~.explanation.Explanation` out as plain text or Markdown.

No judgements here: which words, which issues and which numbers were settled when the
explanation was built; these functions only arrange them (the workbench pane uses the
Markdown form).
"""

from __future__ import annotations

import re
from typing import Any

from .explanation import AlternativeExplanation, ChoiceExplanation, Explanation, Phrasing
from .issues import Issue, Issues

__all__ = [
    "code",
    "contrast_lines",
    "contrast_text",
    "explanation_dict",
    "explanation_markdown",
    "explanation_text",
    "issue_lines",
    "md",
]


# --------------------------------------------------------------------------- issues


def _change(c: float, mode: str, p: Phrasing) -> str:
    if mode == "game":
        return f"loses {p.diff(c)}" if c >= 0 else f"gains {p.diff(-c)}"
    return f"costs {p.diff(c)} more" if c >= 0 else f"saves {p.diff(-c)}"


def _issue(i: Issue, mode: str, p: Phrasing) -> str:
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
        return f"{text}: {_change(i.contribution, mode, p)}"
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
    lines = [e.standing]
    if e.choices:
        lines += ["", "Choice points:"]
        for c in e.choices:
            lines += choice_text(c, e.mode, e.phrasing)
    return lines


# --------------------------------------------------------------------------- Markdown

_INLINE = re.compile(r"([\\`*_\[\]<>|~])")
_CODE_SPAN = re.compile(r"(`[^`\n]+`)")
_LINE_START = re.compile(r"^(\s*)(?:([#+\-=>])|(\d+)([.)]))")


def md(text: Any) -> str:
    """Escape text so Markdown shows it literally; `code spans` the engine wrote are kept."""
    pieces = _CODE_SPAN.split(str(text))
    out = "".join(piece if i % 2 else _INLINE.sub(r"\\\1", piece) for i, piece in enumerate(pieces))

    def fix(m: re.Match[str]) -> str:
        if m.group(2):
            return f"{m.group(1)}\\{m.group(2)}"
        return f"{m.group(1)}{m.group(3)}\\{m.group(4)}"

    return _LINE_START.sub(fix, out)


def code(text: Any) -> str:
    """An inline code span that survives backticks in the text."""
    s = str(text)
    fence = "``" if "`" in s else "`"
    pad = " " if fence == "``" else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def issues_markdown(issues: Issues, mode: str, p: Phrasing) -> list[str]:
    return [f"  - {md(t)}" for t in issue_lines(issues, mode, p)]


def choice_markdown(c: ChoiceExplanation, mode: str, p: Phrasing, level: str = "##") -> str:
    cp = c.choice
    who = f", agent {md(cp.agent)}" if cp.agent is not None else ""
    value = p.value(cp.value) if cp.value is not None else "no value"
    lines = [
        f"{level} Choice: {md(cp.task)}",
        "",
        f"{md(cp.kind)} node{who} · value **{md(value)}**",
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
    body += [choice_markdown(c, e.mode, e.phrasing) for c in e.choices]
    return "\n\n".join(body) + "\n"


# --------------------------------------------------------------------------- why not X?


def contrast_lines(c: Any, phrasing: Phrasing | None = None) -> list[str]:
    """A :class:`~.contrast.Contrast` as sentences: the verdict, where the plans part, and
    the difference by its relevant issues."""
    p = phrasing or Phrasing()
    lines = [c.verdict(), c.divergence_text()]
    if c.gist:
        lines.append(f"why: {c.gist}")
    if c.issues is not None:
        lines += [f"why: {t}" for t in issue_lines(c.issues, c.mode, p)]
    return lines


def contrast_text(c: Any, phrasing: Phrasing | None = None) -> list[str]:
    head = f"Why not {c.alternative} at {c.task}?" if c.task else "Why not?"
    return [head] + [f"  {t}" for t in contrast_lines(c, phrasing)]


# --------------------------------------------------------------------------- JSON


def explanation_dict(e: Explanation) -> dict[str, Any]:
    """The explanation as JSON-ready data (``--json --explain``): the same records the
    text and Markdown lay out."""
    from dataclasses import asdict

    def issues(i: Issues | None) -> dict[str, Any] | None:
        return None if i is None else asdict(i) | {"total": i.total}

    return {
        "standing": e.standing,
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
