"""A small modal asking for a new problem's name ("Save as"), for a package's problem
editor (a subclass says what it saves: a design, a deal).

The name is checked as it is typed (:func:`check_problem_name`: legal characters, not
already in the store), and the reason is shown under the input, so enter can only return
a name the store will accept as new.  Escape returns None.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.validation import ValidationResult, Validator
from textual.widgets import Input, Label, Static

__all__ = ["NameValidator", "SaveAsScreen", "check_problem_name"]

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def check_problem_name(name: str, existing: Iterable[str], noun: str = "problem") -> str | None:
    """Why ``name`` cannot be a new problem's name (a design, a deal: ``noun``), or None.

    The store looks problems up case-insensitively, so "rm1" would shadow "RM1": a name
    that differs from an existing one only in case is taken too.
    """
    name = name.strip()
    if not name:
        return f"Give the {noun} a name."
    if not _NAME.fullmatch(name):
        return (
            "A name is letters, digits, '_', '.' or '-' (at most 64), "
            "starting with a letter or digit."
        )
    taken = {e.lower(): e for e in existing}
    if name.lower() in taken:
        return f"There is already a {noun} called {taken[name.lower()]}."
    return None


class NameValidator(Validator):
    """Accepts a name no problem in the store has yet (ignoring case)."""

    def __init__(self, existing: Iterable[str], noun: str = "problem") -> None:
        super().__init__()
        self.existing = tuple(existing)
        self.noun = noun

    def validate(self, value: str) -> ValidationResult:
        why = check_problem_name(value, self.existing, self.noun)
        return self.success() if why is None else self.failure(why, value)


class SaveAsScreen(ModalScreen[str | None]):
    """Dismissed with the new (stripped) name, or None if cancelled."""

    DEFAULT_CSS = """
    SaveAsScreen {
        align: center middle;
        background: $background 60%;
        & > #save-as-body {
            width: 60;
            max-width: 95%;
            height: auto;
            border: round $accent;
            background: $surface;
            padding: 0 1;
        }
        & #save-as-why { color: $text-error; height: auto; }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    NOUN = "problem"
    """What is being saved, for the title and the messages (a subclass: "design", "deal")."""
    PLACEHOLDER = ""
    """An example name for the empty input."""

    def __init__(self, existing: Iterable[str], suggestion: str = "") -> None:
        super().__init__()
        self.existing = tuple(existing)
        self.suggestion = suggestion

    def compose(self) -> ComposeResult:
        with Vertical(id="save-as-body") as body:
            body.border_title = f"Save {self.NOUN} as"
            body.border_subtitle = "enter to save · escape to cancel"
            yield Label("New name in the knowledge store:")
            yield Input(
                self.suggestion,
                placeholder=self.PLACEHOLDER,
                id="save-as-name",
                validators=[NameValidator(self.existing, self.NOUN)],
                validate_on=["changed", "submitted"],
            )
            yield Static("", id="save-as-why")

    def on_mount(self) -> None:
        self._explain(self.query_one(Input).value)

    def _explain(self, value: str) -> None:
        why = check_problem_name(value, self.existing, self.NOUN) if value else ""
        self.query_one("#save-as-why", Static).update(why or "")

    @on(Input.Changed, "#save-as-name")
    def _changed(self, event: Input.Changed) -> None:
        self._explain(event.value)

    @on(Input.Submitted, "#save-as-name")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        why = check_problem_name(event.value, self.existing, self.NOUN)
        if why is not None:
            self.query_one("#save-as-why", Static).update(why)
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
