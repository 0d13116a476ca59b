"""F1 help: every key binding of the workbench, grouped by where it applies.

Built from the binding declarations themselves (not from a hand-kept list), so the help
can never disagree with the keys that actually work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["HelpScreen", "binding_rows"]

ABOUT = """\
**Problems** (left) lists every knowledge package and its problems.
**Plan** (centre) shows the plan with its choice points, or a game's policy:
✓ chosen, ✗ rejected with its reason, ▸ the opponent's planned (most likely) move,
· another opponent move planned for.
**Explanation** (right) says why the highlighted line is what it is.
**Where to look** (under it, after a run with no plan) lists the deepest failure's blame
and the suspects: *enter* opens the editor at the line.
"""


def binding_rows(
    key_display: Callable[[Binding], str], bindings: Iterable[BindingType]
) -> list[tuple[str, str]]:
    """(keys, what it does) for each described action, merging keys of the same action."""
    rows: dict[str, tuple[list[str], str]] = {}
    for b in Binding.make_bindings(bindings):
        if not b.description:  # internal bindings (e.g. ctrl+c's quit hint) say nothing
            continue
        text = f"{b.description}: {b.tooltip}" if b.tooltip else b.description
        keys, _ = rows.setdefault(b.action, ([], text))
        keys.append(key_display(b))
    return [(" / ".join(keys), text) for keys, text in rows.values()]


class HelpScreen(ModalScreen[None]):
    """A modal listing key bindings; any of escape, F1 or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q", "dismiss", "Close help")]

    def __init__(self, sections: Sequence[tuple[str, list[tuple[str, str]]]]) -> None:
        super().__init__()
        self.sections = sections

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Help"
            body.border_subtitle = "escape to close"
            # One Static holding Rich's rendering of the Markdown, not Textual's Markdown
            # widget: that widget mounts a widget per list item (some 150 here), which made
            # the first F1 take over two seconds; this is one widget, drawn in milliseconds.
            yield Static(RichMarkdown(self.markdown()), id="help-text")

    def markdown(self) -> str:
        parts = ["# TOFS Workbench", "", ABOUT]
        for title, rows in self.sections:
            parts += [f"## {title}", ""]
            parts += [f"- **{key}**  {text}" for key, text in rows]
            parts.append("")
        return "\n".join(parts)
