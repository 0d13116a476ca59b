"""What the EDAPS process plan and critique views share: a header line over a table of one
run, which may be given before the widget is mounted and may go stale when the design is
edited after the run was made."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual.containers import Vertical
from textual.widgets import Static

from knowledge.edaps.report import EdapsRun
from workbench.domains.edaps.tables import STALE_NOTE

__all__ = ["RunTableView"]


class RunTableView(Vertical):
    """Header + table of one :class:`EdapsRun`; subclasses say how to fill the table."""

    EMPTY: ClassVar[str] = ""
    HEADER_ID: ClassVar[str] = ""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.run: EdapsRun | None = None
        """The run shown (None: nothing planned yet)."""
        self.rows: list[Any] = []
        """The rows shown, in order."""
        self.header_text = self.EMPTY
        """The header line's text (kept as a string so tests and callers can read it)."""
        self.stale = False
        """The design has been edited since the run shown was made."""

    def clear(self, message: str | None = None) -> None:
        """Forget the run (e.g. the design no longer parses) and show ``message``."""
        self.run = None
        self.rows = []
        self.header_text = message or self.EMPTY
        if self.is_mounted:
            self._fill()

    def mark_stale(self, stale: bool) -> None:
        """Say (or stop saying) that the design was edited after this run was made."""
        self.stale = stale
        if self.is_mounted:
            self._show_header()

    def _show_header(self) -> None:
        text = Text(self.header_text)
        if self.stale and self.run is not None:
            text = Text.assemble((STALE_NOTE, "italic"), " ", text)
        self.query_one(f"#{self.HEADER_ID}", Static).update(text)

    def _fill(self) -> None:
        raise NotImplementedError
