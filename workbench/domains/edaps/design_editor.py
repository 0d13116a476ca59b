"""The EDAPS design editor: edit a design's input text, see it checked, plan it.

Four tabs: **Design** (the input text in a plain ``TextArea``, under it the line at the
cursor with each field named, every parse problem listed as ``line:column  what was
expected``, and a form-like summary of what the text describes), **Echo** (the
dissertation's "echo of translated input"), **Process plan** and **Critique**.  The text
is checked as it is typed, debounced, so a designer sees a mistake while the line is still
in mind, and a text that does not parse can be neither saved nor planned -- the store
only ever holds designs the planner can read.

Saving writes the text to the knowledge store as the problem's content (ctrl+s), or as a
new problem (f2, "Save as").  Planning runs in a thread worker that opens the store in its
own thread, compiles the domain from the store's spec (so knowledge edits count) and posts
:class:`DesignPlanned` or :class:`DesignPlanFailed`; the handlers here own every widget
change.  Each plan gets an id, so the answer to a superseded request is dropped.

Leaving with unsaved changes (escape, or quitting) asks Save / Discard / Stay, and the
text is kept as a draft on disk meanwhile (:class:`~workbench.screens.unsaved.GuardedScreen`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.timer import Timer
from textual.widgets import (
    DataTable,
    Header,
    OptionList,
    Static,
    TabbedContent,
    TabPane,
    Tabs,
    TextArea,
)
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from engine.tofs import RunResult
from knowledge.edaps.echo import echo_text
from knowledge.edaps.report import EdapsRun
from workbench import runner
from workbench.domains.edaps.critique import CritiqueView
from workbench.domains.edaps.design_form import (
    DESIGN_KIND,
    EDAPS,
    NEW_DESIGN,
    Checked,
    check_design_text,
    edaps_run_of,
    plan_design_text,
    problem_label,
    summary_rows,
)
from workbench.domains.edaps.design_legend import record_legend
from workbench.domains.edaps.process_plan import ProcessPlanView
from workbench.kb.drafts import Draft, DraftBox, digest
from workbench.screens.save_as import SaveAsScreen
from workbench.screens.unsaved import GuardedScreen
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.status_line import StatusLine

__all__ = [
    "DesignPlanFailed",
    "DesignPlanned",
    "DesignSaved",
    "DesignScreen",
    "SaveDesignAsScreen",
]

DESIGN_GROUP = "edaps-design"
"""Worker group of the design screen's planner (one plan at a time)."""

TABS = {"design": "tab-design", "echo": "tab-echo", "plan": "tab-plan", "critique": "tab-critique"}
PRIMARY = {
    "tab-design": "#design-text",
    "tab-echo": "#echo-text",
    "tab-plan": "#plan-table",
    "tab-critique": "#critique-table",
}
"""The widget of each tab that takes focus when the tab is opened programmatically."""


class SaveDesignAsScreen(SaveAsScreen):
    """The save-as modal (name checked as typed), for a design."""

    NOUN = "design"
    PLACEHOLDER = "e.g. RM1-wider-gap"


@dataclass
class DesignPlanned(Message):
    """The worker planned the design text (the run may say "unmanufacturable")."""

    run_id: int
    name: str
    run: EdapsRun
    text: str
    """The input text that was planned (to tell when the editor has moved on)."""


@dataclass
class DesignPlanFailed(Message):
    """Loading the knowledge or planning raised: ``message`` is what the user reads."""

    run_id: int
    name: str
    message: str


@dataclass
class DesignSaved(Message):
    """The design was written to the store (so a problem list can refresh itself)."""

    name: str
    new: bool


class DesignScreen(GuardedScreen[None]):
    """Editor, echo, process plan and critique of one EDAPS design in the store."""

    EDITOR_NAME = "EDAPS design editor"

    DEFAULT_CSS = """
    DesignScreen {
        & #design-tabs { height: 1fr; }
        & #design-body { height: 1fr; }
        & #design-edit { width: 1fr; }
        & #design-text {
            height: 1fr;
            border: round $panel-lighten-2;
            &:focus { border: round $accent; }
            &.-invalid { border: round $error; }
        }
        & #design-legend-box {
            height: auto;
            max-height: 6;
            background: $panel;
        }
        & #design-legend {
            height: auto;
            padding: 0 1;
            color: $text-secondary;
            background: $panel;
        }
        & #design-problems {
            height: auto;
            max-height: 9;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            &.-invalid { border: round $error; border-title-color: $text-error; }
        }
        & #design-summary {
            width: 44;
            height: 1fr;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
        }
        & #echo-text { height: 1fr; }
        &.-narrow #design-summary { width: 34; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s",
            "save",
            "Save",
            id="design.save",
            tooltip="Write the design to the knowledge store (only if it parses)",
        ),
        Binding(
            "f2",
            "save_as",
            "Save as",
            id="design.save_as",
            tooltip="Write the design to the store under a new name",
        ),
        Binding(
            "ctrl+r",
            "plan",
            "Plan it",
            id="design.plan",
            tooltip="Plan the edited design with the store's knowledge",
        ),
        Binding(
            "escape",
            "close",
            "Back",
            id="design.close",
            tooltip="Leave the editor (with unsaved changes it asks: save, discard or stay)",
        ),
    ]

    PANES: ClassVar[str] = (
        "#design-text, #design-problems, #design-summary, #echo-text, #process-plan, #critique"
    )
    """The panes a maximize key means (see :mod:`workbench.panes`)."""

    DEBOUNCE = 0.3
    """Seconds of quiet typing before the text is parsed again."""

    dirty: var[bool] = var(False, bindings=True)
    """The editor's text differs from what the store holds."""

    running: var[bool] = var(False)
    """A plan of this design is being computed."""

    def __init__(
        self,
        db: Path | None = None,
        name: str | None = None,
        *,
        plan_on_open: bool = False,
        result: RunResult | None = None,
        draft: Draft | None = None,
    ) -> None:
        """``plan_on_open`` plans the design as soon as it is shown; ``result`` (a run the
        planning screen made of this stored design) is shown instead of planning again;
        ``draft`` holds unsaved text left from an earlier session, shown instead of the
        stored text (still unsaved)."""
        super().__init__()
        self.db = db
        self.drafts = DraftBox.for_store(db)
        self.restore = draft
        """The knowledge store (None: the default store)."""
        self.design_name = name
        """The problem's name in the store (None: a new design, not saved yet)."""
        self.plan_on_open = plan_on_open
        self.result = result
        self.description = ""
        self.saved_text: str | None = None
        """The text as the store holds it (None: not in the store)."""
        self.checked = Checked(None)
        """The last check of the editor's text."""
        self.checked_text: str | None = None
        """The text ``checked`` is of (the editor may have moved on while debouncing)."""
        self.run_id = 0
        self.planned_text: str | None = None
        """The text of the run shown in the plan and critique tabs."""
        self._timer: Timer | None = None

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header()
        with TabbedContent(id="design-tabs", initial=TABS["design"]):
            with TabPane("Design", id=TABS["design"]), Horizontal(id="design-body"):
                with Vertical(id="design-edit"):
                    editor = TextArea(
                        id="design-text",
                        show_line_numbers=True,
                        soft_wrap=False,
                        tab_behavior="focus",
                    )
                    editor.border_title = "Input"
                    yield editor
                    with VerticalScroll(id="design-legend-box"):  # scrolls, never cuts
                        yield Static("", id="design-legend")
                    yield OptionList(id="design-problems")
                summary: DataTable[str | Text] = DataTable(
                    id="design-summary",
                    show_header=False,
                    cursor_type="none",
                    zebra_stripes=True,
                )
                summary.border_title = "Summary"
                yield summary
            with TabPane("Echo", id=TABS["echo"]):
                yield TextArea(id="echo-text", read_only=True, soft_wrap=False)
            with TabPane("Process plan", id=TABS["plan"]):
                yield ProcessPlanView(id="process-plan")
            with TabPane("Critique", id=TABS["critique"]):
                yield CritiqueView(id="critique")
        yield StatusLine("", id="design-status")
        yield FittingFooter()

    @property
    def editor(self) -> TextArea:
        return self.query_one("#design-text", TextArea)

    def on_mount(self) -> None:
        summary = self.query_one("#design-summary", DataTable)
        summary.add_column("Field", key="field")
        summary.add_column("Value", key="value")
        text = self._load()
        restored = self.restore is not None and isinstance(self.restore.fields.get("text"), str)
        if self.restore is not None and restored:
            text = str(self.restore.fields["text"])
        self.editor.load_text(text)
        self.dirty = text != self.saved_text
        self.validate_now()
        if self.restore is not None and restored:
            self.adopt_draft(self.restore)
            stale = self.saved_text is not None and digest(self.saved_text) != (
                self.restore.base_digest
            )
            self.notify(
                f"The changes from {self.restore.when()} are back in the editor, not saved "
                "yet: ctrl+s saves them."
                + (
                    f" {self.design_name} has been saved since: saving them replaces it."
                    if stale
                    else ""
                ),
                title="Restored",
                severity="warning" if stale else "information",
                timeout=10,
            )
        self._update_titles()
        self.editor.focus()
        if self.result is not None and self.checked.ok:
            self.call_after_refresh(self._start_plan, self.result)
        elif self.plan_on_open:
            self.call_after_refresh(self.action_plan)

    def _load(self) -> str:
        """The design's text from the store (its canonical name and description too), or
        a template for a new design.  A quick read on the UI thread: one row."""
        from workbench.kb import StoreError
        from workbench.kb.catalog import open_store

        if self.design_name is None:
            self._status("New design: f2 saves it under a name.", "ok")
            return NEW_DESIGN
        try:
            store = open_store(self.db)
            try:
                rows = {r["name"].lower(): r for r in store.problems(EDAPS)}
                row = rows.get(self.design_name.lower())
                text = store.problem_text(EDAPS, self.design_name) if row else None
            finally:
                store.close()
        except StoreError as exc:
            self._status(f"Cannot read the store: {exc}", "error")
            self.notify(str(exc), title="Knowledge store", severity="error")
            return NEW_DESIGN
        if row is None or text is None:
            self._status(
                f"No design called {self.design_name} in the store: ctrl+s creates it.", "warning"
            )
            return NEW_DESIGN
        self.design_name = str(row["name"])
        self.description = str(row["description"] or "")
        self.saved_text = text
        self._status(f"{self.design_name}: {self.description or 'EDAPS design'}", "ok")
        return text

    # ------------------------------------------------------------------ checking

    def on_resize(self) -> None:
        # The legend breaks its lines between fields at its width: break them anew.
        self.call_after_refresh(self.show_legend)

    @on(TextArea.SelectionChanged, "#design-text")
    def show_legend(self) -> None:
        """Name the fields of the line at the cursor (the raw line alone says little)."""
        editor = self.editor
        row = editor.cursor_location[0]
        line = editor.document.get_line(row) if row < editor.document.line_count else ""
        legend = self.query_one("#design-legend", Static)
        width = legend.content_region.width or legend.size.width
        legend.update(Text(record_legend(line, width)))

    @on(TextArea.Changed, "#design-text")
    def _text_changed(self, event: TextArea.Changed) -> None:
        self.show_legend()
        self.dirty = event.text_area.text != self.saved_text
        self.edits_changed()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(self.DEBOUNCE, self.validate_now, name="validate")

    def validate_now(self) -> Checked:
        """Parse the editor's text now and show the outcome (the debounce's target)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        text = self.editor.text
        checked = check_design_text(text, self.design_name)
        self._show_check(checked, text)
        return checked

    def _show_check(self, checked: Checked, text: str) -> None:
        self.checked = checked
        self.checked_text = text
        stale = self.planned_text is not None and text != self.planned_text
        self.query_one(ProcessPlanView).mark_stale(stale)
        self.query_one(CritiqueView).mark_stale(stale)
        problems = self.query_one("#design-problems", OptionList)
        problems.clear_options()
        if checked.ok:
            problems.add_option(Option(Text("✓ The design parses."), disabled=True))
            problems.border_title = "No problems"
        else:
            problems.add_options(
                Option(Text(problem_label(p)), id=f"problem-{i}")
                for i, p in enumerate(checked.problems)
            )
            n = len(checked.problems)
            problems.border_title = f"{n} problem{'s' if n != 1 else ''} (enter: go to it)"
        for widget in (self.editor, problems):
            widget.set_class(not checked.ok, "-invalid")
        self.editor.border_subtitle = "parses" if checked.ok else f"{len(checked.problems)} ✗"
        if checked.design is not None:
            self._show_summary(checked)
            echo = self.query_one("#echo-text", TextArea)
            echo.load_text(echo_text(checked.design))
            echo.border_title = None
        else:
            self.query_one(
                "#design-summary", DataTable
            ).border_title = "Summary (of the last text that parsed)"
            self.query_one(
                "#echo-text", TextArea
            ).border_title = "Echo of the last text that parsed: fix the problems to update it"

    def _show_summary(self, checked: Checked) -> None:
        assert checked.design is not None
        table = self.query_one("#design-summary", DataTable)
        table.clear()
        for key, label, value in summary_rows(checked.design):
            table.add_row(Text(label, style="bold"), value, key=key)
        table.border_title = "Summary"

    @on(OptionList.OptionSelected, "#design-problems")
    def _problem_chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        option_id = event.option.id or ""
        if not option_id.startswith("problem-"):
            return
        problem = self.checked.problems[int(option_id.removeprefix("problem-"))]
        self.go_to(problem.line, problem.column)

    def go_to(self, line: int, column: int = 1, *, select_line: bool = False) -> None:
        """Show the Design tab with the cursor at ``line:column`` (1-based; clamped)."""
        self.query_one(TabbedContent).active = TABS["design"]
        editor = self.editor
        row = min(max(line, 1), editor.document.line_count) - 1
        if select_line:
            editor.select_line(row)
        else:
            col = min(max(column, 1) - 1, len(editor.document.get_line(row)))
            editor.move_cursor((row, col), center=True)
        editor.focus()

    # ------------------------------------------------------------------ saving

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            return True if self.dirty or self.saved_text is None else None
        return True

    def action_save(self) -> None:
        if self.design_name is None:
            self.action_save_as()
            return
        self.save(self.design_name)

    def action_save_as(self) -> None:
        existing = self._existing_names()
        suggestion = f"{self.design_name}-edited" if self.design_name else ""
        self.app.push_screen(SaveDesignAsScreen(existing, suggestion), self._save_as_chosen)

    def _save_as_chosen(self, name: str | None) -> None:
        if name:
            self.save(name, new=True)

    def _existing_names(self) -> list[str]:
        from workbench.kb.catalog import open_store

        store = open_store(self.db)
        try:
            return [str(r["name"]) for r in store.problems(EDAPS)]
        finally:
            store.close()

    def save(self, name: str, *, new: bool = False) -> bool:
        """Write the editor's text as design ``name`` if it parses; whether it was saved.

        The text is checked here again (not the debounced result): what is written is
        exactly what was checked."""
        from workbench.kb import StoreError
        from workbench.kb.catalog import open_store

        text = self.editor.text
        checked = check_design_text(text, name)
        self._show_check(checked, text)
        if not checked.ok:
            first = checked.problems[0]
            where = f" (the first at {first.line}:{first.column})" if first.line > 0 else ""
            n = len(checked.problems)
            why = f"Not saved: the design has {n} problem{'s' if n != 1 else ''}{where}."
            self._status(why, "error")
            self.notify(why, title=f"Save {name}", severity="error")
            return False
        description = self.description
        if new or not description:
            description = (
                f"edited from {self.design_name}"
                if self.design_name
                else "design written in the workbench"
            )
        try:
            store = open_store(self.db)
            try:
                # What this edit started from: a design saved by someone else meanwhile
                # (or, for a new name, made meanwhile) is refused, not overwritten.
                replacing = self.saved_text if name == self.design_name and not new else None
                store.set_problem(EDAPS, name, DESIGN_KIND, text, description, replacing=replacing)
            finally:
                store.close()
        except StoreError as exc:
            self._status(f"Not saved: {exc}", "error")
            self.notify(str(exc), title=f"Save {name}", severity="error")
            return False
        self.design_name = name
        self.description = description
        self.saved_text = text
        self.dirty = False
        self._update_titles()
        self._status(f"Saved {name} to the knowledge store.", "ok")
        self.notify(f"Saved {name}.")
        self.post_message(DesignSaved(name, new))
        return True

    # ------------------------------------------------------------------ planning

    def action_plan(self) -> None:
        checked = self.validate_now()
        if not checked.ok:
            n = len(checked.problems)
            why = f"Fix the {n} problem{'s' if n != 1 else ''} before planning."
            self._status(why, "error")
            self.notify(why, severity="error")
            return
        self._start_plan(None)

    def _start_plan(self, result: RunResult | None) -> None:
        name = self.design_name or "design"
        self.run_id += 1
        self.running = True
        self._status(f"Planning {name}…" if result is None else f"Critiquing {name}…", "running")
        self._plan(self.editor.text, name, self.run_id, result)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group=DESIGN_GROUP,
        description="EDAPS planner",
    )
    def _plan(self, text: str, name: str, run_id: int, result: RunResult | None) -> None:
        """Thread body: plan (or wrap ``result``), post the outcome.  Touches no widget."""
        try:
            if result is None:
                run = plan_design_text(self.db, text, name)
            else:
                run = edaps_run_of(self.db, text, name, result)
        except Exception as exc:
            self.post_message(DesignPlanFailed(run_id, name, runner.error_message(exc)))
            return
        self.post_message(DesignPlanned(run_id, name, run, text))

    @on(DesignPlanned)
    def _planned(self, message: DesignPlanned) -> None:
        message.stop()
        if message.run_id != self.run_id:
            return
        self.running = False
        run = message.run
        self.planned_text = message.text
        self.query_one(ProcessPlanView).show_run(run)
        self.query_one(CritiqueView).show_run(run)
        if run.manufacturable:
            lead = run.setup_time + run.run_time
            self._status(
                f"{message.name}: lead time {lead:.2f} min (setup "
                f"{run.setup_time:.2f} + run {run.run_time:.2f}) · "
                f"{run.nodes:,} nodes · {run.seconds:.3f} s",
                "ok",
            )
            self._show_tab("plan", "#plan-table")
        elif run.verdict is None:
            self._status(f"{message.name}: the search {run.result.outcome_text}.", "warning")
        else:
            n = len(run.diagnostics)
            self._status(
                f"{message.name} cannot be made: {n} unmanufacturable "
                f"feature{'s' if n != 1 else ''}.",
                "warning",
            )
            self._show_tab("critique", "#critique-table")

    def _show_tab(self, tab: str, focus: str) -> None:
        """Open ``tab`` and focus its table (see :meth:`_tab_activated` for why)."""
        self.query_one(TabbedContent).active = TABS[tab]
        self.query_one(focus).focus()

    @on(TabbedContent.TabActivated, "#design-tabs")
    def _tab_activated(self, event: TabbedContent.TabActivated) -> None:
        # Focus left inside a hidden pane is handed to a sibling there, and TabbedContent
        # follows focus -- straight back to the hidden pane.  So when a tab is opened
        # programmatically (focus not on the tab bar), focus moves into the opened pane.
        focused = self.focused
        if focused is None or isinstance(focused, Tabs):
            return
        pane = next((a for a in focused.ancestors_with_self if isinstance(a, TabPane)), None)
        if pane is None or pane is event.pane:
            return
        target = self.query_one(PRIMARY[event.pane.id or ""])
        if target.display and target.focusable:
            target.focus()
        else:
            self.query_one(TabbedContent).query_one(Tabs).focus()

    @on(DesignPlanFailed)
    def _plan_failed(self, message: DesignPlanFailed) -> None:
        message.stop()
        if message.run_id == self.run_id:
            self._show_failure(message.name, message.message)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        # The worker reports its own errors; this catches a bug in that path.
        worker = event.worker
        if worker.group == DESIGN_GROUP and event.state is WorkerState.ERROR:
            self._show_failure(
                self.design_name or "design", runner.error_message(worker.error or RuntimeError())
            )

    def _show_failure(self, name: str, text: str) -> None:
        self.running = False
        self.query_one(ProcessPlanView).clear(f"{name}: planning failed.")
        self.query_one(CritiqueView).clear(f"{name}: planning failed.")
        self._status(f"{name}: planning failed: {text}", "error")
        self.notify(text, title=f"{name}: planning failed", severity="error", timeout=8)

    @on(CritiqueView.DiagnosticSelected)
    def _diagnostic_chosen(self, event: CritiqueView.DiagnosticSelected) -> None:
        event.stop()
        if event.diagnostic.line is not None:
            self.go_to(event.diagnostic.line, select_line=True)

    # ------------------------------------------------------------------ tabs, commands

    def action_show_tab(self, tab: str) -> None:
        """Open the tab ``design``, ``echo``, ``plan`` or ``critique`` and focus it."""
        pane = TABS[tab]
        self.query_one(TabbedContent).active = pane
        target = self.query_one(PRIMARY[pane])
        if target.display:
            target.focus()

    def extra_commands(self) -> list[tuple[str, str, Callable[[], object]]]:
        """(title, help, callback) for the command palette of the actions with no key:
        the tabs (printable keys belong to the editor).  The keyed actions are listed from
        ``BINDINGS`` by :mod:`workbench.palette`."""
        return [
            (
                "Design: show input",
                "The editor and its problems",
                partial(self.action_show_tab, "design"),
            ),
            (
                "Design: show echo",
                "The echo of translated input",
                partial(self.action_show_tab, "echo"),
            ),
            (
                "Design: show process plan",
                "The plan in work-center format",
                partial(self.action_show_tab, "plan"),
            ),
            (
                "Design: show critique",
                "What cannot be made, and why",
                partial(self.action_show_tab, "critique"),
            ),
        ]

    # ------------------------------------------------------------------ leaving

    async def action_close(self) -> None:
        await self.guard("leaving the design editor", self._leave)

    def _leave(self) -> None:
        if len(self.app.screen_stack) > 1 and self.is_current:
            self.dismiss()

    def has_unsaved_edits(self) -> bool:
        # Live, not ``dirty`` (which follows TextArea.Changed a message later); an
        # untouched template for a new design is nothing to lose.
        texts = self.query("#design-text")
        if not texts:
            return False
        text = self.editor.text
        return text != (self.saved_text if self.saved_text is not None else NEW_DESIGN)

    def unsaved_title(self) -> str:
        return f"design {self.design_name}" if self.design_name else "the new design"

    async def save_edits(self) -> bool:
        if self.design_name is None:
            why = "A new design needs a name: f2 saves it under one."
            self._status(f"Not saved: {why}", "error")
            self.notify(why, title="Not saved", severity="error")
            return False
        return self.save(self.design_name)

    async def discard_edits(self) -> None:
        text = self.saved_text if self.saved_text is not None else NEW_DESIGN
        self.editor.load_text(text)
        self.dirty = self.saved_text is None
        self.validate_now()

    def current_draft(self) -> Draft | None:
        return Draft(
            editor="design",
            domain=EDAPS,
            kind="design",
            name=self.design_name or "",
            fields={"text": self.editor.text},
            base_digest=digest(self.saved_text),
        )

    # ------------------------------------------------------------------ helpers

    def watch_dirty(self, dirty: bool) -> None:
        self._update_titles()
        if not dirty:
            self.sync_draft()  # saved or discarded: no draft to keep

    def _update_titles(self) -> None:
        self.title = "EDAPS design"
        name = self.design_name or "(new design)"
        self.sub_title = f"{name} ●" if self.dirty else name

    def _status(self, text: str, kind: str) -> None:
        # Composed (hence queryable) before on_mount runs; nothing to show before that.
        for line in self.query(StatusLine):
            line.set_status(text, kind)
