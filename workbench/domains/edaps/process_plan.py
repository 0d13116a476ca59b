"""The EDAPS process plan view: a planned design in the shop floor's work-center format.

A ``DataTable`` with the dissertation's columns (Opn, A, BC/WW, Setup, Runtime, LN,
Description), one row per printed line, operation totals and the 999 T grand total, under
a header line with the lead time, its setup/run split and the search's cost.  A table
rather than the printed text so that a long plan scrolls with the columns in view and a
line can be highlighted; the rows come from :mod:`workbench.domains.edaps.tables`.

The view only displays.  It may be given a run before it is mounted (it shows the run
when it mounts), which lets a screen fill every tab before the user opens one.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import DataTable, Static

from knowledge.edaps.report import EdapsRun
from workbench.domains.edaps.run_table import RunTableView
from workbench.domains.edaps.tables import PLAN_COLUMNS, PlanRow, plan_header, plan_rows

__all__ = ["ProcessPlanView"]

_STYLES = {"first": "", "line": "", "total": "bold", "grand": "bold reverse"}
_RIGHT = {"setup", "run", "ln"}


class ProcessPlanView(RunTableView):
    """Header line + work-center table of one :class:`EdapsRun`."""

    DEFAULT_CSS = """
    ProcessPlanView {
        height: 1fr;
        & > #plan-header { height: auto; padding: 0 1; color: $text-primary; }
        & > #plan-table { height: 1fr; }
    }
    """

    EMPTY = "No plan yet: ctrl+r plans the design."
    HEADER_ID = "plan-header"
    rows: list[PlanRow]

    def compose(self) -> ComposeResult:
        yield Static(Text(self.header_text), id="plan-header")
        yield DataTable(id="plan-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for key, heading in PLAN_COLUMNS:
            table.add_column(Text(heading, justify="right" if key in _RIGHT else "left"), key=key)
        self._fill()

    def show_run(self, run: EdapsRun) -> None:
        """Show ``run``'s plan (or, if it has none, say so and point at the critique)."""
        self.run = run
        self.stale = False
        self.rows = plan_rows(run.result) if run.manufacturable else []
        self.header_text = plan_header(run)
        if self.is_mounted:
            self._fill()

    def _fill(self) -> None:
        self._show_header()
        table = self.query_one(DataTable)
        table.clear()
        for row in self.rows:
            style = _STYLES[row.kind]
            cells = [
                Text(c, style=style, justify="right" if k in _RIGHT else "left")
                for (k, _), c in zip(PLAN_COLUMNS, row.cells(), strict=True)
            ]
            table.add_row(*cells, key=row.key)
        table.display = bool(self.rows)
