"""At start-up, offer the unsaved edits a previous session left behind (a killed terminal,
a crash): restore them into their editor, discard them, or decide later.

"Later" leaves the draft on disk, so closing this dialog by reflex never loses anything;
only Discard removes it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from workbench.kb.drafts import Draft
from workbench.screens.item_dialogs import DIALOG_CSS

__all__ = ["DraftChoice", "DraftOfferScreen"]

DraftChoice = Literal["restore", "discard", "later"]

EDITORS = {
    "knowledge": "knowledge editor",
    "design": "EDAPS design editor",
    "deal": "bridge deal editor",
}


class DraftOfferScreen(ModalScreen[DraftChoice]):
    """One left-over draft: r restores it, d discards it, escape keeps it for later."""

    DEFAULT_CSS = "DraftOfferScreen {" + DIALOG_CSS + "& Button { margin-right: 1; } }"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "r",
            "choose('restore')",
            "Restore",
            tooltip="Open the editor with the edits filled in (still unsaved)",
        ),
        Binding("d", "choose('discard')", "Discard", tooltip="Throw the edits away"),
        Binding(
            "escape",
            "choose('later')",
            "Later",
            tooltip="Keep the edits on disk and ask again at the next start",
        ),
    ]

    def __init__(self, draft: Draft, note: str | None = None) -> None:
        """``note`` says how the store has moved on since the draft was written."""
        super().__init__()
        self.draft, self.note = draft, note

    def text(self) -> str:
        d = self.draft
        editor = EDITORS.get(d.editor, "editor")
        lines = [f"Unsaved edits to {d.title} in {d.domain} from {d.when()} (in the {editor})."]
        if self.note:
            lines.append(self.note)
        lines.append(
            "Restore them (they stay unsaved until you save), discard them, or decide later?"
        )
        return "\n\n".join(lines)

    def compose(self) -> ComposeResult:
        with Vertical() as body:
            body.border_title = "Unsaved edits from last time"
            body.border_subtitle = "r: restore · d: discard · escape: later"
            yield Static(self.text(), id="draft-text")
            with Horizontal():
                yield Button("Restore", id="draft-restore", variant="primary")
                yield Button("Discard", id="draft-discard", variant="error")
                yield Button("Later", id="draft-later")

    def on_mount(self) -> None:
        self.query_one("#draft-restore", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choice: DraftChoice = "later"
        if event.button.id == "draft-restore":
            choice = "restore"
        elif event.button.id == "draft-discard":
            choice = "discard"
        self.dismiss(choice)

    def action_choose(self, choice: DraftChoice) -> None:
        self.dismiss(choice)
