"""The play log: one row per trick, the way a bridge column prints a hand's play.

Columns: trick number, leader, the four cards (in seat order N E S W, or in play order
1st-4th; ``o`` switches), the winner (whose card is starred), the running count of
declarer's and the defence's tricks, and a *note* -- the scheme label a planner gives a
trick or a card, such as the dissertation's "[Draw second round of trump]".  Notes are
supplied by the caller (per trick, or per card in play order); the log does not invent
them.  A trick still in progress gets a row of its own with the cards played so far.

Notes wrap: the Note column takes the width the other columns leave (at least
:attr:`PlayLog.MIN_NOTE`) and a row grows as tall as its note.  On a narrow log the seats
are letters ("W", not "West"), so the note keeps room; if even that does not fit, the
table scrolls sideways, with its scroll bar showing.

Everything is read off a :class:`~knowledge.bridge.deal.PlayState`'s ``history`` (who led,
the cards, who won), so the log agrees with the card core by construction.  Choosing a
row (enter or a click) posts :class:`PlayLog.TrickSelected` with the trick's index and the
number of cards played by its end; :func:`position_after` turns that into the position a
:class:`~workbench.domains.bridge.table.BridgeTable` can show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.reactive import var
from textual.widgets import DataTable

from knowledge.bridge.cards import Seat
from knowledge.bridge.deal import PlayState
from workbench.domains.bridge.hand_diagram import card_text

__all__ = ["Notes", "PlayLog", "TrickRow", "position_after", "trick_rows"]

Notes = Mapping[int, str] | Sequence[str | None]
"""Optional labels by index: a mapping, or a sequence with None (or "") for no label."""

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
WINNER_MARK = "*"


def _note(notes: Notes | None, i: int) -> str:
    if notes is None:
        return ""
    if isinstance(notes, Mapping):
        return notes.get(i) or ""
    return (notes[i] or "") if 0 <= i < len(notes) else ""


@dataclass(frozen=True)
class TrickRow:
    """One trick of the log.  ``cards`` are in play order from ``leader``; ``winner`` is
    None for the trick in progress.  ``declarer`` and ``defence`` count tricks won up to
    and including this one; ``cards_played`` is the number of cards played (since the
    state's start) by the end of this row, what :func:`position_after` takes."""

    index: int
    number: int
    leader: Seat
    cards: tuple[int, ...]
    winner: Seat | None
    declarer: int
    defence: int
    note: str
    cards_played: int

    def card_of(self, seat: Seat) -> int | None:
        i = (seat - self.leader) & 3
        return self.cards[i] if i < len(self.cards) else None

    @property
    def complete(self) -> bool:
        return self.winner is not None


def trick_rows(
    state: PlayState, *, annotations: Notes | None = None, card_notes: Notes | None = None
) -> list[TrickRow]:
    """The log's rows for ``state``: its completed tricks, then the trick in progress.

    ``annotations`` label tricks (by index from 0, the first trick of ``state``'s
    history); ``card_notes`` label cards by their index in :meth:`PlayState.plays`.  A
    state set up mid-play (``won`` not zero at its start) numbers its tricks on from there.
    """
    side = Seat(state.declarer).side
    history = state.history
    won = [state.won[0], state.won[1]]
    for t in history:  # tricks taken before the state's first recorded trick
        won[Seat(t.winner).side] -= 1
    first = won[0] + won[1] + 1
    rows: list[TrickRow] = []
    tricks: list[tuple[int, tuple[int, ...], int | None]] = [
        (t.leader, t.cards, t.winner) for t in history
    ]
    if state.trick:
        tricks.append((state.leader, tuple(state.trick), None))
    played = 0
    for i, (leader, cards, winner) in enumerate(tricks):
        if winner is not None:
            won[Seat(winner).side] += 1
        labels = [_note(annotations, i)]
        for k, c in enumerate(cards):
            label = _note(card_notes, played + k)
            if label:
                labels.append(f"{card_text(c).plain}: {label}")
        played += len(cards)
        rows.append(
            TrickRow(
                index=i,
                number=first + i,
                leader=Seat(leader),
                cards=tuple(cards),
                winner=None if winner is None else Seat(winner),
                declarer=won[side],
                defence=won[side ^ 1],
                note="; ".join(x for x in labels if x),
                cards_played=played,
            )
        )
    return rows


def position_after(state: PlayState, cards_played: int) -> PlayState:
    """A copy of ``state`` taken back to ``cards_played`` cards (since its start): the
    position to show when a row of the log is chosen.  ``state`` is not changed."""
    position = state.copy()
    while position.cards_played > max(cards_played, 0):
        position.undo()
    return position


class PlayLog(DataTable[Text]):
    """The tricks of a play as a table; see the module docstring."""

    DEFAULT_CSS = """
    PlayLog {
        height: 1fr;
        & > .play-log--red { color: $text-error; }
        & > .play-log--winner { text-style: bold; }
        & > .play-log--note { color: $text-secondary; text-style: italic; }
    }
    """

    COMPONENT_CLASSES = DataTable.COMPONENT_CLASSES | {
        "play-log--red",
        "play-log--winner",
        "play-log--note",
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "o",
            "toggle_order",
            "Seat/play order",
            id="play_log.order",
            tooltip="Show each trick's cards by seat (N E S W) or in the order played",
        ),
    ]

    seat_order: var[bool] = var(True)
    """Cards in seat columns N E S W (else in play order, 1st to 4th)."""

    MIN_NOTE = 16
    """The narrowest the Note column gets (narrower, the table scrolls sideways)."""
    COMPACT_BELOW = 70
    """Below this many columns the seats are letters."""

    @dataclass
    class TrickSelected(Message):
        """The user chose a trick: ``index`` of the row (0 = the state's first trick),
        ``number`` the trick's number in the deal, ``cards_played`` the cards played by
        the end of it (for :func:`position_after`)."""

        play_log: PlayLog
        index: int
        number: int
        cards_played: int

        @property
        def control(self) -> PlayLog:
            return self.play_log

    def __init__(
        self,
        *,
        seat_order: bool = True,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes, cursor_type="row", zebra_stripes=True)
        self.set_reactive(PlayLog.seat_order, seat_order)
        self.rows_shown: list[TrickRow] = []
        """The rows in the table, in order (kept as data for callers and tests)."""
        self._filled_for: tuple[int, bool] | None = None

    def on_mount(self) -> None:
        self._fill()

    def on_resize(self) -> None:
        if self._filled_for != (self.size.width, self.seat_order):
            row = self.cursor_row
            self._fill()
            if self.rows_shown:
                self.move_cursor(row=min(max(row, 0), len(self.rows_shown) - 1))

    @property
    def compact(self) -> bool:
        """Seats as letters (a narrow log)."""
        return 0 < self.size.width < self.COMPACT_BELOW

    def show_state(
        self, state: PlayState, *, annotations: Notes | None = None, card_notes: Notes | None = None
    ) -> None:
        """Show the tricks of ``state`` (see :func:`trick_rows` for the notes)."""
        self.rows_shown = trick_rows(state, annotations=annotations, card_notes=card_notes)
        if self.is_mounted:
            self._fill()
            if self.rows_shown:
                self.move_cursor(row=len(self.rows_shown) - 1)

    def action_toggle_order(self) -> None:
        self.seat_order = not self.seat_order

    def watch_seat_order(self) -> None:
        if self.is_mounted:
            row = self.cursor_row
            self._fill()
            if self.rows_shown:
                self.move_cursor(row=min(row, len(self.rows_shown) - 1))

    def card_headings(self) -> tuple[str, ...]:
        return tuple(s.letter for s in SEATS) if self.seat_order else ("1st", "2nd", "3rd", "4th")

    def cells(self, row: TrickRow) -> list[Text]:
        """The row's cells as shown (card cells: '♠A', the winner's '♠A*')."""
        style = self.get_component_rich_style
        red = style("play-log--red", partial=True)
        winner_style = style("play-log--winner", partial=True)
        if self.seat_order:
            slots = [(s, row.card_of(s)) for s in SEATS]
        else:
            slots = [
                (Seat((row.leader + i) & 3), row.cards[i] if i < len(row.cards) else None)
                for i in range(4)
            ]
        cards: list[Text] = []
        for seat, c in slots:
            if c is None:
                cards.append(Text("\u00b7" if row.complete else "", style="dim"))
                continue
            t = card_text(c, red)
            if seat == row.winner:
                t.append(WINNER_MARK)
                t.stylize(winner_style)
            cards.append(t)
        name = (lambda seat: seat.letter) if self.compact else (lambda seat: seat.title)
        won = Text(name(row.winner) if row.winner is not None else "\u2026")
        return [
            Text(str(row.number), justify="right"),
            Text(name(row.leader)),
            *cards,
            won,
            Text(str(row.declarer), justify="right"),
            Text(str(row.defence), justify="right"),
            Text(row.note, style=style("play-log--note", partial=True)),
        ]

    def _fill(self) -> None:
        self.clear(columns=True)
        self._filled_for = (self.size.width, self.seat_order)
        won = "Won" if self.compact else "Won by"
        headings = ("#", "Led", *self.card_headings(), won, "Decl", "Def", "Note")
        keys = ("no", "lead", "c0", "c1", "c2", "c3", "won", "decl", "def", "note")
        rows = [self.cells(row) for row in self.rows_shown]
        # Every column but the note as wide as its widest cell; the note takes the rest.
        pad = 2 * self.cell_padding
        used = sum(
            max([len(heading), *(r[i].cell_len for r in rows)]) + pad
            for i, heading in enumerate(headings[:-1])
        )
        room = self.size.width - self.styles.gutter.width - used - pad - 2  # 2: scroll bar
        note_width = max(self.MIN_NOTE, room)
        for key, heading in zip(keys, headings, strict=True):
            self.add_column(
                Text(heading, justify="right" if key in ("no", "decl", "def") else "left"),
                key=key,
                width=note_width if key == "note" else None,
            )
        for row, cells in zip(self.rows_shown, rows, strict=True):
            # height None: as tall as the note wraps to
            self.add_row(*cells, key=f"trick-{row.index}", height=None)

    @on(DataTable.RowSelected)
    def _row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table is not self:
            return
        key = event.row_key.value or ""
        if not key.startswith("trick-"):
            return
        row = self.rows_shown[int(key.removeprefix("trick-"))]
        self.post_message(self.TrickSelected(self, row.index, row.number, row.cards_played))
