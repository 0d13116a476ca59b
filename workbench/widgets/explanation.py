"""The explanation pane: Markdown saying why the highlighted node is what it is.

It only displays; what to say comes from :mod:`workbench.widgets.explain_md`, so the pane
stays trivial and the wording is testable without an app.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Markdown

__all__ = ["ExplanationPane"]


class ExplanationPane(VerticalScroll):
    """A scrolling Markdown view with a ``show`` method."""

    def compose(self) -> ComposeResult:
        yield Markdown("Pick a problem on the left.", id="explanation-text")

    @property
    def source(self) -> str:
        """The Markdown currently shown."""
        return self.query_one(Markdown).source

    def show(self, markdown: str) -> None:
        if markdown == self.source:
            return
        self.query_one(Markdown).update(markdown)
        self.scroll_home(animate=False)
