"""Small modals of the knowledge editor: a new item's kind and name, a new name, a yes/no.

Names are checked as they are typed (a name, not already taken), with the reason shown
under the input, so enter can only return something the store is likely to accept; the
store still has the last word and the editor shows its answer.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Callable, Mapping
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Select, Static

__all__ = ["ConfirmScreen", "NewItem", "NewItemScreen", "RenameScreen", "check_name"]

KIND_TITLES = {
    "constant": "Constant",
    "task": "Task",
    "method": "Method",
    "operator": "Operator",
    "test": "Knowledge test",
}
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")

DIALOG_CSS = """
    align: center middle;
    background: $background 60%;
    & > Vertical {
        width: 64;
        max-width: 95%;
        height: auto;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    & .why { color: $text-error; height: auto; }
    & Select { width: 1fr; }
    & Horizontal { height: auto; }
"""


def check_name(kind: str, name: str, taken: set[str]) -> str | None:
    """Why ``name`` cannot name a new ``kind`` (None: it can)."""
    name = name.strip()
    if not name:
        return "Type a name."
    if kind != "test" and (not _IDENTIFIER.match(name) or keyword.iskeyword(name)):
        return "Use letters, digits and _, not starting with a digit (and not a Python word)."
    if name in taken:
        return f"There is already a {kind} called '{name}'."
    return None


class NewItem(tuple[str, str, str | None]):
    """(kind, name, task): what the user asked to create (task only for a method)."""

    @property
    def kind(self) -> str:
        return self[0]

    @property
    def name(self) -> str:
        return self[1]

    @property
    def task(self) -> str | None:
        return self[2]


class NewItemScreen(ModalScreen[NewItem | None]):
    """Kind (and, for a method, its task) and a name; dismissed with a :class:`NewItem`."""

    DEFAULT_CSS = "NewItemScreen {" + DIALOG_CSS + "}"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(
        self,
        taken: Callable[[str, str | None], set[str]],
        tasks: list[str],
        kind: str = "method",
        task: str | None = None,
    ) -> None:
        super().__init__()
        self.taken = taken
        """(kind, task) -> the names already used there."""
        self.task_names = tasks
        self.item_kind = kind if kind in KIND_TITLES else "method"
        if self.item_kind == "method" and not tasks:
            self.item_kind = "task"
        self.task_name = task if task in tasks else (tasks[0] if tasks else None)

    def compose(self) -> ComposeResult:
        with Vertical() as body:
            body.border_title = "New item"
            body.border_subtitle = "enter to create · escape to cancel"
            with Horizontal():
                yield Select(
                    [(t, k) for k, t in KIND_TITLES.items()],
                    value=self.item_kind,
                    allow_blank=False,
                    id="new-kind",
                )
                yield Select(
                    [(t, t) for t in self.task_names],
                    value=self.task_name or Select.BLANK,
                    allow_blank=not self.task_names,
                    id="new-task",
                )
            yield Label("Name:")
            yield Input(placeholder="e.g. SlotMill", id="new-name")
            yield Static("", classes="why", id="new-why")

    def on_mount(self) -> None:
        self._show_task()
        self.query_one("#new-name", Input).focus()

    def _show_task(self) -> None:
        self.query_one("#new-task", Select).display = self.item_kind == "method"

    def _why(self) -> str | None:
        task = self.task_name if self.item_kind == "method" else None
        return check_name(
            self.item_kind,
            self.query_one("#new-name", Input).value,
            self.taken(self.item_kind, task),
        )

    def _explain(self) -> None:
        value = self.query_one("#new-name", Input).value
        self.query_one("#new-why", Static).update((self._why() or "") if value else "")

    @on(Select.Changed, "#new-kind")
    def _kind(self, event: Select.Changed) -> None:
        self.item_kind = str(event.value)
        self._show_task()
        self._explain()

    @on(Select.Changed, "#new-task")
    def _task_chosen(self, event: Select.Changed) -> None:
        self.task_name = event.value if isinstance(event.value, str) else None
        self._explain()

    @on(Input.Changed, "#new-name")
    def _changed(self) -> None:
        self._explain()

    @on(Input.Submitted, "#new-name")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        why = self._why()
        if why is None and self.item_kind == "method" and self.task_name is None:
            why = "A method belongs to a task: create the task first."
        if why is not None:
            self.query_one("#new-why", Static).update(why)
            return
        self.dismiss(
            NewItem(
                (
                    self.item_kind,
                    event.value.strip(),
                    self.task_name if self.item_kind == "method" else None,
                )
            )
        )

    def action_cancel(self) -> None:
        self.dismiss(None)


class RenameScreen(ModalScreen[str | None]):
    """A new name for one item; dismissed with it, or None."""

    DEFAULT_CSS = "RenameScreen {" + DIALOG_CSS + "}"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, kind: str, name: str, taken: set[str]) -> None:
        super().__init__()
        self.item_kind, self.item_name, self.taken = kind, name, taken

    def compose(self) -> ComposeResult:
        with Vertical() as body:
            body.border_title = f"Rename {self.item_kind} {self.item_name}"
            body.border_subtitle = "enter to rename · escape to cancel"
            yield Label("Every reference to it is renamed too, in one revision.")
            yield Input(self.item_name, id="rename-name")
            yield Static("", classes="why", id="rename-why")

    def _why(self, value: str) -> str | None:
        if value.strip() == self.item_name:
            return "Type the new name."
        return check_name(self.item_kind, value, self.taken)

    @on(Input.Changed, "#rename-name")
    def _changed(self, event: Input.Changed) -> None:
        self.query_one("#rename-why", Static).update(self._why(event.value) or "")

    @on(Input.Submitted, "#rename-name")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        why = self._why(event.value)
        if why is not None:
            self.query_one("#rename-why", Static).update(why)
            return
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """Yes or no to one consequential step (y/enter: yes; n/escape: no)."""

    DEFAULT_CSS = "ConfirmScreen {" + DIALOG_CSS + "}"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,n", "answer(False)", "No"),
        Binding("y", "answer(True)", "Yes"),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__()
        self.title_text, self.text = title, text

    def compose(self) -> ComposeResult:
        with Vertical() as body:
            body.border_title = self.title_text
            body.border_subtitle = "y: yes · n / escape: no"
            yield Static(self.text)
            with Horizontal():
                yield Button("Yes", id="confirm-yes", variant="error")
                yield Button("No", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def taken_names(items: Mapping[str, list[str]]) -> Callable[[str, str | None], set[str]]:
    """A ``taken`` function over {kind: names} (methods listed as ``Task.Method``)."""

    def taken(kind: str, task: str | None) -> set[str]:
        names = items.get(kind, [])
        if kind == "method":
            return {n.partition(".")[2] for n in names if n.partition(".")[0] == task}
        if kind in ("task", "operator"):  # one namespace: a call names either
            return set(items.get("task", [])) | set(items.get("operator", []))
        return set(names)

    return taken
