"""Why not X?  Re-plan with an alternative forced and show both plans side by side.

The forced run re-plans from the choice point itself (:func:`workbench.replan.run_forced`,
in the planning process), waited on by a thread worker that never touches a widget: it
compares the two runs (:func:`workbench.contrast.contrast`, pure) and posts one message;
the handlers here own every UI change.  Leaving the screen cancels the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Static
from textual.worker import Worker, WorkerState

from engine.tofs import AlternativeRecord, CancelToken, ChoicePoint, Progress, RunResult
from engine.tofs.contrast import Contrast, compare, rows, value_text
from engine.tofs.explanation import Phrasing
from engine.tofs.plan_diff import action_summary
from engine.tofs.render import issue_lines
from workbench.replan import run_forced, settings_of
from workbench.runner import ProblemRef, RunSettings, error_message
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.plan_contrast import PlanColumn
from workbench.widgets.plan_items import AlternativeItem, PolicyItem

__all__ = [
    "ForcedRunFailed",
    "ForcedRunFinished",
    "ForcedRunProgress",
    "WhyNotScreen",
    "summary_text",
    "why_not_target",
]

WHY_NOT_GROUP = "why-not"

ForcedRunner = Callable[..., RunResult]
"""``(request, base, choice, alternative, db, *, settings, cancel, progress) -> RunResult``:
:func:`run_forced`."""


@dataclass
class ForcedRunProgress(Message):
    """The forced run is still searching."""

    progress: Progress

    def can_replace(self, message: Message) -> bool:
        return isinstance(message, ForcedRunProgress)


@dataclass
class ForcedRunFinished(Message):
    """The forced run returned (maybe with no plan) and was compared with the chosen one."""

    contrast: Contrast


@dataclass
class ForcedRunFailed(Message):
    """Loading or planning raised: ``message`` is what the user should read."""

    message: str


class WhyNotScreen(Screen[None]):
    """Verdict on top; the chosen plan and the forced plan side by side below."""

    DEFAULT_CSS = """
    WhyNotScreen {
        #whynot-summary {
            height: auto;
            max-height: 12;
            padding: 0 1;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
        }
        #whynot-summary.-failed { border: round $error; }
        #whynot-plans { height: 1fr; }
        #base-plan, #forced-plan {
            width: 1fr;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            &:focus { border: round $accent; border-title-color: $accent; }
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", id="whynot.close", tooltip="Back to the plan"),
    ]

    PANES: ClassVar[str] = "#whynot-summary, #base-plan, #forced-plan"
    """The panes a maximize key means (see :mod:`workbench.panes`)."""

    def __init__(
        self,
        request: ProblemRef,
        result: RunResult,
        choice: ChoicePoint,
        alternative: AlternativeRecord,
        *,
        db: Path | None = None,
        settings: RunSettings | None = None,
        runner: ForcedRunner = run_forced,
    ) -> None:
        """Compare ``result`` with the plan that takes ``alternative`` at ``choice``;
        ``settings`` default to those ``result`` was planned with."""
        super().__init__()
        self.request = request
        self.result = result
        self.choice = choice
        self.alternative = alternative
        self.db = db
        self.settings = settings if settings is not None else settings_of(result)
        self.contrast: Contrast | None = None
        self.summary = ""
        """The summary box as plain text (what it says now)."""
        self._runner = runner
        self._token = CancelToken()

    def compose(self) -> ComposeResult:
        yield Header()
        # Scrolled: on a small terminal a long verdict shows a scroll bar rather than
        # losing its last lines under the box's bottom edge.
        with VerticalScroll(id="whynot-summary") as summary:
            summary.border_title = f"Why not {self.alternative.label}?"
            yield Static("", id="whynot-summary-text")
        with Horizontal(id="whynot-plans"):
            base = PlanColumn(id="base-plan")
            base.fmt = self._fmt
            base.border_title = self._title("As planned", self.choice.chosen, self.result)
            yield base
            forced = PlanColumn(id="forced-plan")
            forced.fmt = self._fmt
            forced.border_title = f"Forced: {self.alternative.label} · re-planning…"
            yield forced
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = f"why not {self.alternative.label} · {self.request.title}"
        self._say(
            Text(
                f"Re-planning {self.request.title} from {self.choice.task} "
                f"(node {self.choice.node}) with {self.alternative.label} taken…"
            )
        )
        self.query_one("#forced-plan", PlanColumn).show_message("Re-planning…")
        self.query_one("#base-plan", PlanColumn).show(rows(compare(self.result, self.result))[0])
        self._replan(self._token)

    def on_unmount(self) -> None:
        self._token.cancel()

    def action_close(self) -> None:
        self._token.cancel()
        self.dismiss(None)

    # ------------------------------------------------------------------ the worker
    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group=WHY_NOT_GROUP,
        description="why-not re-plan",
    )
    def _replan(self, token: CancelToken) -> None:
        """Thread body: plan with the choice forced, compare, post.  Touches no widget."""

        def progress(p: Progress) -> None:
            self.post_message(ForcedRunProgress(p))

        try:
            forced = self._runner(
                self.request,
                self.result,
                self.choice,
                self.alternative.label,
                self.db,
                settings=self.settings,
                cancel=token,
                progress=progress,
            )
            e = self.result.explanation
            result = compare(
                self.result,
                forced,
                self.choice,
                self.alternative,
                e.thresholds if e is not None else None,
                e.phrasing if e is not None else None,
            )
        except Exception as exc:
            self.post_message(ForcedRunFailed(error_message(exc)))
            return
        self.post_message(ForcedRunFinished(result))

    @on(ForcedRunProgress)
    def _progress(self, message: ForcedRunProgress) -> None:
        if self.contrast is None:
            p = message.progress
            self.query_one(
                "#forced-plan", PlanColumn
            ).border_title = f"Forced: {self.alternative.label} · {p.nodes:,} nodes…"

    @on(ForcedRunFinished)
    def _finished(self, message: ForcedRunFinished) -> None:
        c = self.contrast = message.contrast
        base_rows, forced_rows = rows(c)
        base = self.query_one("#base-plan", PlanColumn)
        forced = self.query_one("#forced-plan", PlanColumn)
        base.show(base_rows)
        forced.border_title = self._title("Forced", self.alternative, c.forced)
        forced.show(forced_rows)
        self._say(summary_text(c), failed=c.forced.value is None)
        forced.focus()

    @on(ForcedRunFailed)
    def _failed(self, message: ForcedRunFailed) -> None:
        self._show_error(message.message)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        # The worker reports its own errors; this catches a bug in that path.
        if event.worker.group == WHY_NOT_GROUP and event.state is WorkerState.ERROR:
            self._show_error(error_message(event.worker.error or RuntimeError()))

    # ------------------------------------------------------------------ helpers
    def _show_error(self, text: str) -> None:
        self._say(
            Text(f"Could not re-plan with {self.alternative.label} forced: {text}"), failed=True
        )
        self.query_one("#forced-plan", PlanColumn).show_message("Re-planning failed.")
        self.notify(text, title="Why-not run failed", severity="error", timeout=8)

    def _say(self, text: Text, failed: bool = False) -> None:
        self.query_one("#whynot-summary").set_class(failed, "-failed")
        self.query_one("#whynot-summary-text", Static).update(text)
        self.summary = text.plain

    def _fmt(self, v: float) -> str:
        """A value as the reader's view writes it (the run's phrasing: "25.57 min")."""
        e = self.result.explanation
        return e.phrasing.value(v) if e is not None else value_text(v)

    def _title(self, side: str, alt: AlternativeRecord | None, r: RunResult) -> str:
        label = f": {alt.label}" if alt is not None else ""
        value = "no plan" if r.value is None else self._fmt(r.value)
        return f"{side}{label} · {value}"


def why_not_target(item: object) -> tuple[ChoicePoint, AlternativeRecord] | str:
    """The choice point and alternative a plan-tree line stands for, or why there is none.

    Lines that can be asked "why not?": an alternative at a choice point, or a move of a
    game policy that was one alternative of a recorded choice.
    """
    choice = alternative = None
    if isinstance(item, (AlternativeItem, PolicyItem)):
        choice, alternative = item.choice, item.alternative
    if choice is None or alternative is None:
        return "Highlight an alternative at a choice point (a ✗ or · line) to ask why not."
    if alternative.chosen:
        return f"{alternative.label} is what the planner chose; highlight another alternative."
    return choice, alternative


def summary_text(c: Contrast) -> Text:
    """The verdict, the numbers and where the plans part, as the summary box shows them."""
    out = Text()
    out.append(c.verdict() + "\n", style="bold")

    def value(v: float | None) -> str:
        return f"{c.unit} {c.value_words(v)}" if v is not None else "no plan"

    out.append(
        f"As planned ({c.chosen or 'chosen'}): {value(c.base.value)}    "
        f"Forced ({c.alternative}): {value(c.forced.value)}"
    )
    if c.loss is not None:
        sign = "worse" if c.loss > 0 else ("better" if c.loss < 0 else "same")
        assert c.difference is not None
        plus = "+" if c.difference >= 0 else "-"
        out.append(
            f"    difference {plus}{c.diff_words(abs(c.difference))} "
            f"({sign} by {c.diff_words(abs(c.loss))})"
        )
    out.append("\n")
    if not any(s.costs for s in (*c.base.plan, *c.forced.plan)):
        # Plans of bare actions (HDDL's first plans) have no costs to weigh: say what
        # the forced choice does to the actions, as `plan --why-not` does.
        out.append(action_summary(c.base, c.forced) + "\n")
    out.append(c.divergence_text() + "\n")
    if c.issues is not None:
        e = c.base.explanation
        lines = issue_lines(c.issues, c.mode, e.phrasing if e is not None else Phrasing())
        out.append("Why: " + "\n     ".join(lines) + "\n")
    failure = c.failure
    if failure is not None:
        out.append(
            f"That is the deepest failure of the forced run: {failure.task}, at depth "
            f"{failure.depth} (node {failure.node}).\n",
            style="italic",
        )
    return out
