"""At start-up, offer the unsaved edits a previous session left behind (a killed terminal,
a crash): restore them into their editor, discard them, or decide later.

"Later" leaves the draft on disk, so closing this dialog by reflex never loses anything;
only Discard removes it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from textual.binding import Binding, BindingType
from textual.markup import escape

from workbench.kb.drafts import Draft
from workbench.screens.choice_dialog import ChoiceDialog

__all__ = ["DraftChoice", "DraftOfferScreen", "editor_title"]

DraftChoice = Literal["restore", "discard", "later"]


def editor_title(editor: str) -> str:
    """What the draft's ``editor`` is called: "knowledge editor", or the title of the
    package's problem editor that wrote it."""
    if editor == "knowledge":
        return "knowledge editor"
    from workbench.domains import problem_editor

    found = problem_editor(editor)
    return "editor" if found is None else found.title


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
        editor = editor_title(d.editor)
        lines = [f"Unsaved edits to {d.title} in {d.domain} from {d.when()} (in the {editor})."]
        if self.note:
            lines.append(self.note)
        lines.append(
            "Restore them (they stay unsaved until you save), discard them, or decide later?"
        )
        # The names come from a file on disk: shown as written, never read as markup
        # (a name such as "[/]" would otherwise stop the dialog from drawing).
        return escape("\n\n".join(lines))
