"""One line under the panes saying what the planner is doing or did.

Notifications vanish; the status line keeps the last outcome (and any error) in view,
and its class (-running, -ok, -warning, -error) lets ``app.tcss`` colour it.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from engine.tofs import Outcome, Progress, RunResult
from workbench.runner import ProblemRef
from workbench.widgets.plan_items import fmt_value, run_value

__all__ = ["StatusLine", "progress_text", "result_text"]

_KINDS = ("-running", "-ok", "-warning", "-error")


def progress_text(request: ProblemRef, p: Progress) -> str:
    best = f" · best {fmt_value(p.best)}" if p.best is not None else ""
    return (
        f"Planning {request.title}: {p.nodes:,} nodes · depth {p.depth}{best} · "
        f"{p.elapsed:.1f} s (esc to cancel)"
    )


def result_text(request: ProblemRef, r: RunResult) -> str:
    size = r.size_text(lambda v: run_value(r, v))
    value = f" · {size}" if size else ""
    return (
        f"{request.title} ({r.mode}): {r.outcome_text}{value} · {r.nodes:,} nodes · "
        f"{r.seconds:.3f} s"
    )


class StatusLine(Static):
    """The planner's status; ``kind`` is one of running, ok, warning, error."""

    def set_status(self, text: str, kind: str) -> None:
        self.remove_class(*_KINDS)
        self.add_class(f"-{kind}")
        # Text, not markup: messages quote expressions and values with brackets.
        self.update(Text(text.splitlines()[0] if text else ""))
        self.tooltip = text or None

    def show_result(self, request: ProblemRef, r: RunResult) -> None:
        kind = "ok" if r.outcome is Outcome.PLAN else "warning"
        self.set_status(result_text(request, r), kind)
