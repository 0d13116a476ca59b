"""Nothing typed is lost by leaving: the "unsaved edits" question and the editors' side of it.

Every editor screen (knowledge, and each package's problem editor) derives from
:class:`GuardedScreen` and answers four questions: has it unsaved edits, what are they
called, save them, discard them.  Whatever would drop the edits -- quitting by any path,
leaving the editor, switching the knowledge editor's domain -- goes through
:func:`resolve_unsaved`, which asks :class:`UnsavedEditsScreen` (Save / Discard / Stay)
for each editor holding edits and only then goes on.  So the rule lives here once, and
each editor contributes only what it alone knows.

A save that the store or the editor refuses counts as "stay": the edits stay in the form,
the editor says why, and nothing goes on.  Never quitting on a failed save is the point.

The same class keeps the edits on disk while they are unsaved (a
:class:`~workbench.kb.drafts.Draft`, written a second after typing stops and removed once
the edits are saved or discarded), so a killed terminal does not lose them either.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Literal, TypeVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.timer import Timer

from workbench.kb.drafts import Draft, DraftBox
from workbench.screens.choice_dialog import ChoiceDialog

__all__ = [
    "Choice",
    "GuardedScreen",
    "UnsavedEditsScreen",
    "guarded_screens",
    "question_for",
    "resolve_unsaved",
]

Choice = Literal["save", "discard", "stay"]
ResultT = TypeVar("ResultT")
Then = Callable[[], object]
"""What to do once no edits are in the way (may be a coroutine function)."""


class UnsavedEditsScreen(ChoiceDialog[Choice]):
    """Save, Discard or Stay, for one editor's unsaved edits (s / d / escape, or buttons)."""

    PREFIX = "unsaved"
    HEADING = "Unsaved edits"
    CHOICES = (
        ("save", "Save", "primary"),
        ("discard", "Discard", "error"),
        ("stay", "Stay", "default"),
    )

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "s",
            "choose('save')",
            "Save",
            tooltip="Save the edits (checked as ctrl+s checks them), then go on",
        ),
        Binding("d", "choose('discard')", "Discard", tooltip="Drop the edits, then go on"),
        Binding(
            "escape",
            "choose('stay')",
            "Stay",
            tooltip="Go back to the form with the edits as they are",
        ),
    ]

    def __init__(self, what: str, editor: str, question: str) -> None:
        """``what`` has the edits ("method X in domain D"), in ``editor`` ("knowledge
        editor"); ``question`` asks what to do with them (see :func:`question_for`)."""
        super().__init__()
        self.what, self.editor, self.question = what, editor, question

    def text(self) -> str:
        return f"Unsaved edits to {self.what} ({self.editor}).\n\n{self.question}"


class GuardedScreen(Screen[ResultT]):
    """An editor screen whose unsaved edits are asked about before they could be lost,
    and kept as a draft on disk meanwhile.

    Subclasses implement :meth:`has_unsaved_edits`, :meth:`unsaved_title`,
    :meth:`save_edits`, :meth:`discard_edits` and (to keep drafts) :meth:`current_draft`
    with :attr:`drafts` set; they call :meth:`edits_changed` on every edit.
    """

    EDITOR_NAME: ClassVar[str] = "editor"
    """What the dialog calls this screen ("knowledge editor")."""
    DRAFT_DELAY: ClassVar[float] = 1.0
    """Seconds after the last edit before the draft is written (one write per pause)."""
    DRAFT_MAX_WAIT: ClassVar[float] = 10.0
    """Seconds of typing without a pause after which the draft is written anyway."""

    def __init__(self, name: str | None = None, id: str | None = None) -> None:
        super().__init__(name=name, id=id)
        self.drafts: DraftBox | None = None
        """Where this screen keeps its draft (None: it keeps none)."""
        self._draft_timer: Timer | None = None
        self._draft_pending_since: float | None = None
        self._draft_key: tuple[str, str, str, str] | None = None
        self._draft_warned = False

    # .................................................................. the protocol

    def has_unsaved_edits(self) -> bool:
        """Whether leaving now would lose something the user typed."""
        return False

    def unsaved_title(self) -> str:
        """What holds the edits, as the dialog names it ("method X in domain D")."""
        return "this item"

    async def save_edits(self) -> bool:
        """Save exactly as the screen's own save does; whether it was saved (a refusal is
        shown by the screen itself, and the edits stay)."""
        return False

    async def discard_edits(self) -> None:
        """Drop the edits: the form shows what the store holds again."""

    def current_draft(self) -> Draft | None:
        """The draft of the edits as they are now (None: nothing to keep)."""
        return None

    # .................................................................. guarding

    async def guard(
        self, doing: str, then: Then, stay: Then | None = None, question: str | None = None
    ) -> None:
        """``then()`` now if nothing is unsaved here, else after the user chose Save (and
        the save succeeded) or Discard; ``stay()`` if they chose to stay."""
        await resolve_unsaved(self.app, [self], doing, then, stay, question)

    # .................................................................. drafts

    def edits_changed(self) -> None:
        """Something was typed: write the draft once typing pauses."""
        if self.drafts is None:
            return
        now = time.monotonic()
        if self._draft_pending_since is None:
            self._draft_pending_since = now
        elif now - self._draft_pending_since >= self.DRAFT_MAX_WAIT:
            self.sync_draft()  # typing without a pause: do not wait for one
            return
        if self._draft_timer is not None:
            self._draft_timer.stop()
        self._draft_timer = self.set_timer(self.DRAFT_DELAY, self.sync_draft, name="draft")

    def adopt_draft(self, draft: Draft) -> None:
        """The edits of ``draft`` are now this screen's: keep it up to date from here on
        (and remove it if the form turns out to hold nothing unsaved)."""
        self._draft_key = draft.key
        self.sync_draft()

    def sync_draft(self) -> None:
        """Make the draft on disk match the form now: written while there are unsaved
        edits, removed once there are none."""
        if self._draft_timer is not None:
            self._draft_timer.stop()
            self._draft_timer = None
        self._draft_pending_since = None
        box = self.drafts
        if box is None:
            return
        draft = self.current_draft() if self.has_unsaved_edits() else None
        try:
            if self._draft_key is not None and (draft is None or draft.key != self._draft_key):
                box.drop(self._draft_key)
                self._draft_key = None
            if draft is not None:
                box.put(draft)
                self._draft_key = draft.key
        except OSError as exc:
            if not self._draft_warned:
                self._draft_warned = True
                self.notify(
                    f"Could not keep a copy of the unsaved edits in {box.folder}: "
                    f"{exc.strerror or exc}. Save them soon.",
                    title="No draft",
                    severity="warning",
                )


def question_for(doing: str) -> str:
    """The dialog's question when the user asked for ``doing`` ("quitting")."""
    return f"Save them before {doing}, discard them, or stay and keep editing?"


def guarded_screens(app: App[Any]) -> list[GuardedScreen[Any]]:
    """The editor screens open in ``app``, the one in front first."""
    return [s for s in reversed(app.screen_stack) if isinstance(s, GuardedScreen)]


async def _call(action: Then | None) -> None:
    if action is None:
        return
    result = action()
    if inspect.isawaitable(result):
        await result


async def resolve_unsaved(
    app: App[Any],
    screens: Sequence[GuardedScreen[Any]],
    doing: str,
    then: Then,
    stay: Then | None = None,
    question: str | None = None,
) -> None:
    """Ask about each of ``screens`` with unsaved edits in turn, then ``then()``.

    ``doing`` names what the user asked for, in the dialog's question ("quitting"), unless
    ``question`` says it all.

    Stay (or a refused save) stops there and calls ``stay()``; the edits are untouched.
    While a question is showing, another request (ctrl+q pressed again) is ignored.
    """
    if any(isinstance(s, UnsavedEditsScreen) for s in app.screen_stack):
        return
    pending = [s for s in screens if s.is_attached and s.has_unsaved_edits()]
    if not pending:
        await _call(then)
        return
    screen, rest = pending[0], pending[1:]
    what = screen.unsaved_title()

    async def answered(choice: Choice | None) -> None:
        if choice == "save":
            if not await screen.save_edits():
                app.notify(
                    f"The edits to {what} were not saved (the {screen.EDITOR_NAME} says "
                    "why), so nothing was dropped: they are still there.",
                    title="Not saved",
                    severity="error",
                    timeout=8,
                )
                await _call(stay)
                return
        elif choice == "discard":
            await screen.discard_edits()
        else:
            await _call(stay)
            return
        screen.sync_draft()
        await resolve_unsaved(app, rest, doing, then, stay, question)

    dialog = UnsavedEditsScreen(what, screen.EDITOR_NAME, question or question_for(doing))
    app.push_screen(dialog, answered)
