"""The "Where to look" pane: a run with no plan, as places in the knowledge to open.

One entry per place (:func:`workbench.places.places`): the blame of the deepest failure,
then the ranked suspects, each saying where it was written (``file:line``) or that the
knowledge does not say.  The list only displays and reports the choice
(:class:`FailureList.PlaceChosen`); the screen knows which editor opens there.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from engine.tofs import RunResult
from workbench.places import Place, places, where

__all__ = ["FailureList", "place_text"]


def place_text(place: Place) -> Text:
    """One entry: the role, the blame's words, and the line enter opens (the file too when
    the words do not name it), or that there is no line to open."""
    blame = place.blame
    at = where(blame)
    if blame.line is None:
        goes = ("(no line to open)", "dim")
    else:
        goes = (f"→ line {blame.line}" if at in blame.text else f"→ {at}", "cyan")
    mark = ("✗ ", "bold red") if place.role == "deepest failure" else ("? ", "yellow")
    return Text.assemble(mark, (f"{place.role}: ", "bold"), blame.text, "  ", goes)


class FailureList(OptionList):
    """Where to look in the run on screen, when it ended with no plan."""

    class PlaceChosen(Message):
        """The user chose a place (enter): open it in its editor."""

        def __init__(self, place: Place) -> None:
            super().__init__()
            self.place = place

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.places: list[Place] = []

    def show_result(self, result: RunResult | None) -> bool:
        """List the places of ``result`` (none when it has a plan, or no result); whether
        there is anything to list."""
        self.places = places(result) if result is not None else []
        self.clear_options()
        self.add_options(Option(place_text(p), id=str(i)) for i, p in enumerate(self.places))
        if self.places:
            self.highlighted = 0
        return bool(self.places)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.PlaceChosen(self.places[int(event.option.id)]))
