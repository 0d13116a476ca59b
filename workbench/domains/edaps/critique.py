"""The design critique view: what in a design cannot be made, where, and why.

For an unmanufacturable design, one ``DataTable`` row per :class:`Diagnostic` -- the
feature, what it is, where (absolute board coordinates), the requested and the best
achievable value -- and, under the table, the highlighted diagnostic's full message in the
dissertation's words.  For a manufacturable design it says so, with the lead time, so the
tab never looks broken or stale.

Pressing enter on a row posts :class:`CritiqueView.DiagnosticSelected`; the design screen
uses it to put the editor's cursor on the offending input line.  The view itself only
displays.  Like the plan view it accepts a run before it is mounted.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static

from knowledge.edaps.critique import Diagnostic
from knowledge.edaps.report import EdapsRun
from workbench.domains.edaps.run_table import RunTableView
from workbench.domains.edaps.tables import (
    DIAGNOSTIC_COLUMNS,
    DiagnosticRow,
    critique_header,
    diagnostic_rows,
)

__all__ = ["CritiqueView"]


class CritiqueView(RunTableView):
    """Verdict line, diagnostics table and the selected diagnostic's message."""

    DEFAULT_CSS = """
    CritiqueView {
        height: 1fr;
        & > #critique-header { height: auto; padding: 0 1; }
        & > #critique-table { height: 1fr; }
        & > #critique-message-box {
            height: auto;
            max-height: 50%;
            border-top: solid $panel-lighten-2;
        }
        & #critique-message {
            height: auto;
            padding: 0 1;
            color: $text-error;
        }
        &.-ok > #critique-header { color: $text-success; }
        &.-bad > #critique-header { color: $text-error; text-style: bold; }
    }
    """

    EMPTY = "No critique yet: ctrl+r plans the design."
    HEADER_ID = "critique-header"
    rows: list[DiagnosticRow]

    @dataclass
    class DiagnosticSelected(Message):
        """The user chose a diagnostic (enter): show it in the design."""

        view: CritiqueView
        diagnostic: Diagnostic

        @property
        def control(self) -> CritiqueView:
            return self.view

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.message_text = ""
        """The full message of the highlighted diagnostic ("" when there is none)."""

    def compose(self) -> ComposeResult:
        yield Static(Text(self.header_text), id="critique-header")
        yield DataTable(id="critique-table", cursor_type="row")
        with VerticalScroll(id="critique-message-box"):  # a long message scrolls
            yield Static("", id="critique-message")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, heading in DIAGNOSTIC_COLUMNS:
            table.add_column(heading, key=key)
        self._fill()

    @property
    def selected(self) -> Diagnostic | None:
        """The highlighted diagnostic, if any."""
        if not self.rows:
            return None
        if not self.is_mounted:
            return self.rows[0].diagnostic
        row = self.query_one(DataTable).cursor_row
        return self.rows[row].diagnostic if 0 <= row < len(self.rows) else None

    def show_run(self, run: EdapsRun) -> None:
        self.run = run
        self.stale = False
        self.rows = [] if run.manufacturable else diagnostic_rows(run.diagnostics)
        self.header_text = critique_header(run)
        self.set_class(run.manufacturable, "-ok")
        self.set_class(not run.manufacturable, "-bad")
        if self.is_mounted:
            self._fill()

    def clear(self, message: str | None = None) -> None:
        self.remove_class("-ok", "-bad")
        super().clear(message)

    def _fill(self) -> None:
        self._show_header()
        table = self.query_one(DataTable)
        table.clear()
        for row in self.rows:
            table.add_row(*row.cells(), key=row.key)
        table.display = bool(self.rows)
        if self.rows:
            table.move_cursor(row=0)
        self._show_message(self.rows[0].diagnostic if self.rows else None)

    def _show_message(self, diagnostic: Diagnostic | None) -> None:
        # The dissertation printed each message after "ERROR: "; keep its words verbatim.
        self.message_text = "" if diagnostic is None else f"ERROR: {diagnostic.message}"
        message = self.query_one("#critique-message", Static)
        message.update(Text(self.message_text))
        message.display = diagnostic is not None

    @on(DataTable.RowHighlighted, "#critique-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.rows):
            self._show_message(self.rows[event.cursor_row].diagnostic)

    @on(DataTable.RowSelected, "#critique-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if 0 <= event.cursor_row < len(self.rows):
            self.post_message(self.DiagnosticSelected(self, self.rows[event.cursor_row].diagnostic))
