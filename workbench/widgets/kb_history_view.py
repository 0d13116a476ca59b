"""Revision history of a domain, newest first, with the diff between two revisions.

Highlighting a revision shows what changed from it to the current state; pressing enter
on a revision marks it (●) as the "from" side, and then highlighting another shows the
diff from the marked one to that one.  The panel asks for diffs with ``DiffRequested``
and is given the text back: it never touches the store.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from workbench.kb.store import Revision

__all__ = ["HistoryPanel", "diff_text"]


def diff_text(diff: str, a: int, b: int) -> Text:
    """A unified diff coloured line by line (Text, not markup: KB text has brackets)."""
    if not diff:
        return Text(f"No differences between r{a} and r{b}.", style="dim")
    out = Text()
    for line in diff.splitlines():
        style = (
            "green"
            if line.startswith("+") and not line.startswith("+++")
            else "red"
            if line.startswith("-") and not line.startswith("---")
            else "cyan"
            if line.startswith("@@")
            else "bold"
            if line[:3] in ("+++", "---")
            else ""
        )
        out.append(line + "\n", style=style)
    return out


class HistoryPanel(Horizontal):
    """Revisions on the left, the diff on the right."""

    class DiffRequested(Message):
        """Show what changed from revision ``a`` to revision ``b``."""

        def __init__(self, panel: HistoryPanel, a: int, b: int) -> None:
            super().__init__()
            self.panel = panel
            self.a = a
            self.b = b

        @property
        def control(self) -> HistoryPanel:
            return self.panel

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.revisions: list[Revision] = []
        self.current = 0
        self.mark: int | None = None

    def compose(self) -> ComposeResult:
        yield OptionList(id="kb-revisions", markup=False)
        with VerticalScroll(id="kb-diff-scroll"):
            yield Static(
                Text("Highlight a revision to see what changed since.", style="dim"), id="kb-diff"
            )

    def show_history(self, revisions: Sequence[Revision], current: int) -> None:
        """List ``revisions`` newest first; ``current`` is the domain's revision now."""
        self.revisions = sorted(revisions, key=lambda r: r.id, reverse=True)
        self.current = current
        if self.mark is not None and all(r.id != self.mark for r in self.revisions):
            self.mark = None
        self._fill()

    def _fill(self) -> None:
        options = self.query_one("#kb-revisions", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(Option(self._label(r), id=str(r.id)) for r in self.revisions)
        if self.revisions:
            options.highlighted = min(highlighted or 0, len(self.revisions) - 1)

    def _label(self, r: Revision) -> Text:
        mark = "● " if r.id == self.mark else "  "
        what = r.target if r.kind == "domain" else f"{r.kind} {r.target}"
        when = r.created[:16].replace("T", " ")
        text = Text.assemble(
            (mark, "bold"),
            (f"r{r.id} ", "bold"),
            f"{r.action} {what}",
            (f"  {when} {r.author}", "dim"),
        )
        if r.id == self.current:
            text.append("  (current)", style="italic")
        return text

    @property
    def highlighted_revision(self) -> int | None:
        options = self.query_one("#kb-revisions", OptionList)
        if options.highlighted is None or not self.revisions:
            return None
        return self.revisions[options.highlighted].id

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._request()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        rid = self.highlighted_revision
        self.mark = None if rid == self.mark else rid
        self._fill()
        self._request()

    def _request(self) -> None:
        rid = self.highlighted_revision
        if rid is None:
            return
        a, b = (self.mark, rid) if self.mark is not None else (rid, self.current)
        self.post_message(self.DiffRequested(self, a, b))

    def show_diff(self, a: int, b: int, diff: str) -> None:
        self.query_one("#kb-diff-scroll").border_title = f"r{a} → r{b}"
        self.query_one("#kb-diff", Static).update(diff_text(diff, a, b))
        self.query_one("#kb-diff-scroll", VerticalScroll).scroll_home(animate=False)
