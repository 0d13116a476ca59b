"""One plan of a why-not comparison: its choices and steps, the differing part highlighted.

An ``OptionList`` so each column scrolls and can be walked with the keyboard; the rows
(and which of them differ) come from :func:`workbench.contrast.rows`, so this widget
only styles them.  The first point of divergence is highlighted and scrolled into view.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.tofs.contrast import Row

__all__ = ["PlanColumn", "row_text"]


def row_text(
    row: Row,
    divergent_style: str = "bold",
    first_style: str = "bold",
    fmt: Callable[[float], str] = "{:.6g}".format,
) -> Text:
    """A row as styled text: ``◆`` choices, numbered steps with their cost (``fmt``: the
    domain's way of writing a value, as the reader's view writes it)."""
    mark = "» " if row.first else ("≠ " if row.divergent else "  ")
    if row.kind == "choice":
        text = Text.assemble(mark, ("◆ ", "bold"), row.text)
    elif row.kind == "failure":
        text = Text.assemble(mark, ("✗ ", "bold"), row.text)
    else:
        cost = f"  [{fmt(row.cost)}]" if row.cost is not None else ""
        text = Text.assemble(mark, (f"{row.number}. ", "dim"), row.text, (cost, "dim"))
    if row.divergent:
        text.stylize(divergent_style)
    if row.first:
        text.stylize(first_style)
    return text


class PlanColumn(OptionList):
    """The rows of one plan; ``show`` replaces them."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"plan-column--divergent", "plan-column--first"}
    DEFAULT_CSS = """
    PlanColumn {
        height: 1fr;
        & > .plan-column--divergent { color: $text-warning; }
        & > .plan-column--first { color: $text-error; text-style: bold; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: list[Row] = []
        self.fmt: Callable[[float], str] = "{:.6g}".format
        """How a step's cost is written: the domain's phrasing, set by the screen."""

    @property
    def texts(self) -> list[str]:
        """The rows as plain text (tests)."""
        return [row_text(r, fmt=self.fmt).plain for r in self.rows]

    def show(self, rows: Sequence[Row]) -> None:
        self.rows = list(rows)
        divergent = self.get_component_rich_style("plan-column--divergent", partial=True)
        first = self.get_component_rich_style("plan-column--first", partial=True)
        self.clear_options()
        self.add_options(
            [Option(row_text(r, str(divergent), str(first), self.fmt)) for r in self.rows]
        )
        start = next((i for i, r in enumerate(self.rows) if r.first), None)
        if start is None:
            start = next((i for i, r in enumerate(self.rows) if r.divergent), None)
        if start is not None:
            self.highlighted = start
            self.scroll_to_highlight(top=True)

    def show_message(self, text: str) -> None:
        self.rows = []
        self.clear_options()
        self.add_option(Option(Text(text, style="dim"), disabled=True))
