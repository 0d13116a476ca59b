"""The current plan and its explanation as a Markdown document (and where files go).

Built from the same records the screens show -- no logic of its own beyond layout -- so
a report someone reads later says exactly what the workbench said.
"""

from __future__ import annotations

import os
from pathlib import Path

from engine.tofs import RunResult
from engine.tofs.explanation import explain
from engine.tofs.render import choice_markdown, reader_markdown, render_policy

__all__ = ["default_export_folder", "export_path", "plan_markdown"]


def _fmt(v: float) -> str:
    return f"{v:.2f}" if abs(v) < 1e6 else f"{v:g}"


def plan_markdown(title: str, result: RunResult, audit: bool = False) -> str:
    """The plan and its explanation: the reader's view, or with ``audit`` the decision
    tree and every alternative at every choice point with its reason."""
    lines = [f"# {title}", ""]
    if result.value is None:
        size = "- plan: none"
    elif result.costed:
        size = f"- value: {_fmt(result.value)}"
    else:  # no costs: the value (0) says nothing, the steps do
        size = f"- {result.size_text()}"
    lines += [
        f"- mode: {result.mode}",
        f"- outcome: {result.outcome_text}",
        size,
        f"- nodes: {result.nodes:,} ({result.tree_nodes:,} in the tree)",
        f"- planning time: {result.seconds:.3f} s",
        "",
    ]
    if result.failure is not None and audit:
        lines += ["## Why there is no plan", "", result.failure.message, ""]
    if result.plan:
        lines += ["## Plan", ""]
        for i, s in enumerate(result.plan, 1):
            cost = f" ({_fmt(s.cost)})" if s.costs else ""
            lines.append(f"{i}. {s.description}{cost}")
        lines.append("")
    e = result.explanation or explain(result)
    if not audit:
        lines += ["## Explanation", "", reader_markdown(e, hint="the full audit (key a)")]
    else:
        if result.policy is not None and result.policy.children:
            lines += ["## Policy", "", "```", *render_policy(result.policy, _fmt), "```", ""]
        if result.choice_points:
            lines += ["## Choice points", "", e.standing, ""]
            lines += [
                choice_markdown(c, e.mode, e.phrasing, "###", e.run.costed) + "\n"
                for c in e.choices
            ]
    for d in result.diagnostics:
        lines.append(f"> note: {d}")
    return "\n".join(lines).rstrip() + "\n"


def default_export_folder() -> Path:
    """``$WORKBENCH_EXPORTS``, or ``exports`` in the user's data directory: exports never
    land in whatever folder the workbench was started from (often a checkout)."""
    env = os.environ.get("WORKBENCH_EXPORTS")
    if env:
        return Path(env)
    import platformdirs

    return platformdirs.user_data_path("tofs-workbench", appauthor=False) / "exports"


def export_path(folder: Path, package: str, problem: str, suffix: str) -> Path:
    """A file name in ``folder`` (made if missing) that does not overwrite an earlier export."""
    folder.mkdir(parents=True, exist_ok=True)
    stem = f"{package}-{Path(problem).stem}"
    path = folder / f"{stem}{suffix}"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}{suffix}"
        n += 1
    return path
