"""At start-up, offer the unsaved edits a previous session left behind (a killed terminal,
a crash): restore them into their editor, discard them, or decide later.

"Later" leaves the draft on disk, so closing this dialog by reflex never loses anything;
only Discard removes it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.binding import Binding, BindingType

from workbench.kb.drafts import Draft
from workbench.screens.choice_dialog import ChoiceDialog

__all__ = ["DraftChoice", "DraftOfferScreen"]

DraftChoice = Literal["restore", "discard", "later"]

EDITORS = {
    "knowledge": "knowledge editor",
    "design": "EDAPS design editor",
    "deal": "bridge deal editor",
}


class DraftOfferScreen(ChoiceDialog[DraftChoice]):
    """One left-over draft: r restores it, d discards it, escape keeps it for later."""

    PREFIX = "draft"
    HEADING = "Unsaved edits from last time"
    CHOICES = (
        ("restore", "Restore", "primary"),
        ("discard", "Discard", "error"),
        ("later", "Later", "default"),
    )
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
