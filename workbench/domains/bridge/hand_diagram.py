"""One bridge hand as a diagram: the seat's name over four lines, ♠ ♥ ♦ ♣, ranks high to low.

The look of a hand in a bridge column or a book (``♠ AKQ2``, ``♦ —`` for a void), so a
reader who knows bridge reads it at a glance; hearts and diamonds are red.  The ranks come
from :func:`knowledge.bridge.cards.hand_to_pbn` (the card core's own order), so the widget
never decides what a hand holds -- it shows a 52-bit mask it is given.

A hand can be *hidden*, as declarer sees a defender's hand: each suit shows ``?`` and the
title says how many cards the hand still holds, which is what a declarer counts.  The
hand whose turn it is gets a marker, so a table of four diagrams says who is to play.
*Compact* diagrams name the seat by its letter ("▶ N dummy", "W decl"), as a bridge
column's small diagrams do, so that four whole hands fit an 80-column terminal; a diagram
that still gets less room than it needs ends its lines with "…", never cuts them silently.
:class:`~workbench.domains.bridge.table.BridgeTable` puts four of these round a trick.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from knowledge.bridge.cards import SUIT_SYMBOLS, Seat, card_name, hand_to_pbn

__all__ = ["RED_SUITS", "HandDiagram", "card_text"]

RED_SUITS = frozenset({1, 2})
"""Hearts and diamonds (suit numbers of :mod:`knowledge.bridge.cards`)."""

VOID = "\u2014"
TURN_MARK = "\u25b6 "


def card_text(card: int, red: Style | str = "") -> Text:
    """A card for the screen ('♠A', '♥T'), in ``red`` if it is a heart or a diamond."""
    return Text(card_name(card, symbols=True), style=red if card // 13 in RED_SUITS else "")


class HandDiagram(Widget):
    """Title line (seat, role, card count when hidden) and one line per suit.

    ``hand`` None means "not known" (an editor whose hand is still being typed): the suit
    lines stay empty rather than pretend to a void.
    """

    DEFAULT_CSS = """
    HandDiagram {
        width: 1fr;
        height: 5;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .hand-diagram--title { text-style: bold; }
        & > .hand-diagram--turn { color: $text-accent; text-style: bold; }
        & > .hand-diagram--red { color: $text-error; }
        & > .hand-diagram--muted { text-style: dim; }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "hand-diagram--title",
        "hand-diagram--turn",
        "hand-diagram--red",
        "hand-diagram--muted",
    }

    hand: reactive[int | None] = reactive(None)
    """The cards held, as a 52-bit mask (None: not known)."""
    hidden: reactive[bool] = reactive(False)
    """Show only how many cards are held (a defender's hand in declarer's view)."""
    turn: reactive[bool] = reactive(False)
    """This seat is to play."""
    role: reactive[str] = reactive("")
    """A word after the seat's name: "declarer", "dummy"."""
    compact: reactive[bool] = reactive(False, layout=True)
    """The seat by its letter and the role abbreviated (a small table)."""

    ROLE_SHORT: ClassVar[dict[str, str]] = {"declarer": "decl"}
    GUTTER: ClassVar[int] = 2
    """Columns of padding (``padding: 0 1`` in the CSS)."""

    def __init__(
        self,
        seat: Seat,
        hand: int | None = None,
        *,
        hidden: bool = False,
        role: str = "",
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.seat = Seat(seat)
        self.set_reactive(HandDiagram.hand, hand)
        self.set_reactive(HandDiagram.hidden, hidden)
        self.set_reactive(HandDiagram.role, role)

    def title(self) -> str:
        """The title line as text: 'North (dummy)', 'East: 12 cards' when hidden; compact,
        'N dummy', 'W decl', 'E: 12 cards'."""
        if self.compact:
            role = self.ROLE_SHORT.get(self.role, self.role)
            head = self.seat.letter + (f" {role}" if role else "")
        else:
            head = self.seat.title + (f" ({self.role})" if self.role else "")
        if self.hidden and self.hand is not None:
            n = self.hand.bit_count()
            head += f": {n} card{'s' * (n != 1)}"
        return (TURN_MARK if self.turn else "") + head

    def suit_lines(self) -> list[str]:
        """The four suit lines as plain text, spades first."""
        if self.hand is None:
            return [f"{sym} " for sym in SUIT_SYMBOLS]
        if self.hidden:
            return [f"{sym} ?" for sym in SUIT_SYMBOLS]
        holdings = hand_to_pbn(self.hand).split(".")
        return [f"{sym} {ranks or VOID}" for sym, ranks in zip(SUIT_SYMBOLS, holdings, strict=True)]

    def plain(self) -> str:
        """What the diagram shows, without styles (for tests, copying and logs)."""
        return "\n".join([self.title(), *self.suit_lines()])

    def natural_width(self) -> int:
        """Columns the diagram needs to show every line whole, its padding included."""
        lines = [self.title(), *self.suit_lines()]
        return max(Text(line).cell_len for line in lines) + self.GUTTER

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.natural_width() - self.GUTTER

    def render(self) -> Text:
        style = self.get_component_rich_style
        title = style("hand-diagram--turn" if self.turn else "hand-diagram--title")
        red = style("hand-diagram--red")
        muted = style("hand-diagram--muted")
        text = Text(self.title(), style=title, no_wrap=True, overflow="ellipsis")
        for suit, line in enumerate(self.suit_lines()):
            text.append("\n")
            text.append(line[:1], style=red if suit in RED_SUITS else "")
            rest = line[1:]
            text.append(rest, style=muted if rest.strip() in ("?", VOID, "") else "")
        return text
