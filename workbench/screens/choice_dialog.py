"""A small modal question answered by a key or a button: one way to ask "what now?".

The unsaved-edits question and the start-up draft offer are the same dialog with other
words: a text, one button per choice (the first has the focus), and a key for each choice
in ``BINDINGS``, whose descriptions also make the border's key hints.
"""

from __future__ import annotations

from typing import Generic, TypeVar, cast

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static
from textual.widgets.button import ButtonVariant

from workbench.screens.item_dialogs import DIALOG_CSS

__all__ = ["ChoiceDialog"]

ChoiceT = TypeVar("ChoiceT", bound=str)


class ChoiceDialog(ModalScreen[ChoiceT], Generic[ChoiceT]):
    """Subclasses set ``PREFIX`` (widget ids: ``<prefix>-text``, ``<prefix>-<choice>``),
    ``HEADING``, ``CHOICES`` as (choice, button label, variant) with the escape choice last,
    and ``BINDINGS`` with ``choose('<choice>')`` actions; :meth:`text` says the question."""

    DEFAULT_CSS = "ChoiceDialog {" + DIALOG_CSS + "& Button { margin-right: 1; } }"
    PREFIX = "choice"
    HEADING = ""
    CHOICES: tuple[tuple[str, str, ButtonVariant], ...] = ()

    def text(self) -> str:
        raise NotImplementedError

    def compose(self) -> ComposeResult:
        keys = [b for b in self.BINDINGS if isinstance(b, Binding)]
        with Vertical() as body:
            body.border_title = self.HEADING
            body.border_subtitle = " · ".join(f"{b.key}: {b.description.lower()}" for b in keys)
            yield Static(self.text(), id=f"{self.PREFIX}-text")
            with Horizontal():
                for choice, label, variant in self.CHOICES:
                    yield Button(label, id=f"{self.PREFIX}-{choice}", variant=variant)

    def on_mount(self) -> None:
        self.query_one(f"#{self.PREFIX}-{self.CHOICES[0][0]}", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        choice = (event.button.id or "").removeprefix(f"{self.PREFIX}-")
        known = [c for c, _, _ in self.CHOICES]
        self.dismiss(cast(ChoiceT, choice if choice in known else known[-1]))

    def action_choose(self, choice: ChoiceT) -> None:
        self.dismiss(choice)
