"""A checkbox whose box is empty when it is off.

Textual's checkbox draws an ``X`` in both states and tells them apart by colour only, so
on a terminal with few colours, a monochrome theme or a colour-blind eye an unchecked
option reads as checked.  Here the box is blank when off and shows ``X`` when on, so the
state is in the character itself; the colours stay as the theme has them.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Checkbox

__all__ = ["TickBox"]


class TickBox(Checkbox):
    """A ``Checkbox`` drawn ``▐X▌`` when on and ``▐ ▌`` when off."""

    ON = "X"
    OFF = " "

    def render(self) -> Content:
        # ``BUTTON_INNER`` is Textual's documented glyph of the box; it is read at render
        # time, so setting it per instance here is enough.
        self.BUTTON_INNER = self.ON if self.value else self.OFF
        return super().render()
