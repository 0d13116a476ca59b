"""The bridge table: four hand diagrams round the trick in progress.

The classic diagram -- North at the top, West left, East right, South at the bottom --
with the centre telling what a player at the table would ask: the contract and who
declares, who is vulnerable, the cards on the table (which seat played which, the leader
marked, who is to play) and the tricks each side has taken.  It shows a
:class:`~knowledge.bridge.deal.PlayState` (only the cards still held; the trick on the
table in the middle; right after a trick is completed, that trick and its winner) or a
:class:`~knowledge.bridge.deal.Deal` before play (all 52 cards, no trick).

*Declarer's view* hides the defenders' hands (each shows how many cards it holds), which
is what the planner playing declarer is allowed to know; ``v`` toggles it when the table
has focus, and a screen may set :attr:`BridgeTable.declarer_view` itself.

The widget only displays: everything it shows is read off the position with the card
core's own properties (``trick_winner``, ``declarer_tricks``, ``history``...), and it
keeps a copy of the state, never the caller's object, so a search that goes on playing
and undoing cards cannot change the picture under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from knowledge.bridge.cards import Denom, Seat
from knowledge.bridge.deal import Contract, Deal, PlayState, Vul
from workbench.domains.bridge.hand_diagram import HandDiagram, card_text

__all__ = ["BridgeTable", "TablePosition", "TrickPanel", "vul_text"]

SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)
LEAD_MARK = "\u25b8"


def vul_text(vul: Vul) -> str:
    """'Vul: N-S', 'Vul: none', 'Vul: both' (how a scorecard says it)."""
    return "Vul: " + ("none", "N-S", "E-W", "both")[vul]


@dataclass(frozen=True)
class TablePosition:
    """Everything the table shows, read off a deal or a play state once.

    ``trick`` holds the cards shown in the middle in play order, led by ``leader``;
    ``complete`` says they are a finished trick (won by ``winner``), otherwise ``winner``
    is who is winning so far and ``turn`` who plays next.  ``trick_no`` is the number of
    the trick shown (0 before any card is played).  ``won`` is tricks taken by N-S and E-W.
    """

    hands: tuple[int | None, int | None, int | None, int | None]
    contract: Contract | None = None
    declarer: Seat | None = None
    trump: Denom | None = None
    vulnerability: Vul | None = None
    dealer: Seat | None = None
    board: str | None = None
    passed_out: bool = False
    trick: tuple[int, ...] = ()
    leader: Seat | None = None
    turn: Seat | None = None
    winner: Seat | None = None
    complete: bool = False
    trick_no: int = 0
    won: tuple[int, int] | None = None
    over: bool = False

    @property
    def in_play(self) -> bool:
        """Whether this is a position in the play (rather than a deal before the lead)."""
        return self.won is not None

    def card_of(self, seat: Seat) -> int | None:
        """The card ``seat`` has played to the trick shown, if any."""
        if self.leader is None:
            return None
        i = (seat - self.leader) & 3
        return self.trick[i] if i < len(self.trick) else None

    @classmethod
    def of_state(
        cls,
        state: PlayState,
        *,
        vulnerability: Vul | None = None,
        dealer: Seat | None = None,
        board: str | None = None,
        last_trick: bool = True,
    ) -> TablePosition:
        """The position of ``state``; with ``last_trick``, a just-completed trick stays in
        the middle (with its winner) until the next card is led, as at the table."""
        done = state.won[0] + state.won[1]
        hands = state.hands
        base = cls(
            hands=(hands[0], hands[1], hands[2], hands[3]),
            contract=state.contract,
            declarer=Seat(state.declarer),
            trump=Denom(state.trump),
            vulnerability=vulnerability,
            dealer=dealer,
            board=board,
            won=(state.won[0], state.won[1]),
            over=state.is_over,
            turn=None if state.is_over else Seat(state.turn),
            leader=Seat(state.leader),
            trick_no=done + 1,
        )
        if state.trick:
            return replace(base, trick=tuple(state.trick), winner=state.trick_winner)
        if last_trick and state.history:
            last = state.history[-1]
            return replace(
                base,
                trick=last.cards,
                leader=Seat(last.leader),
                winner=Seat(last.winner),
                complete=True,
                trick_no=done,
            )
        return base


class TrickPanel(Widget):
    """The middle of the table: contract, vulnerability, the trick, the tricks taken."""

    DEFAULT_CSS = """
    TrickPanel {
        width: 1fr;
        height: 1fr;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        & > .trick-panel--contract { text-style: bold; }
        & > .trick-panel--red { color: $text-error; }
        & > .trick-panel--lead { text-style: bold; }
        & > .trick-panel--winner { color: $text-success; text-style: bold; }
        & > .trick-panel--turn { color: $text-accent; text-style: bold; }
        & > .trick-panel--muted { text-style: dim; }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "trick-panel--contract",
        "trick-panel--red",
        "trick-panel--lead",
        "trick-panel--winner",
        "trick-panel--turn",
        "trick-panel--muted",
    }

    position: reactive[TablePosition | None] = reactive(None)
    compact: reactive[bool] = reactive(False)
    """Seats by their letters and no blank lines (a small table); every line fits
    :attr:`COMPACT_WIDTH` columns."""

    WIDTH = 34
    """Content width the compass and every full line fit in (the table's middle column;
    "Trick 12: South led, North to play" is the longest)."""
    COMPACT_WIDTH = 20
    """Content width every compact line fits in."""

    def _seat(self, seat: Seat) -> str:
        return seat.letter if self.compact else seat.title

    def headline(self) -> str:
        p = self.position
        if p is None:
            return ""
        if p.passed_out:
            return "Passed out"
        if p.contract is not None:
            by = f" by {self._seat(p.declarer)}" if p.declarer is not None else ""
            return p.contract.display() + by
        if p.trump is not None and p.declarer is not None:
            if self.compact:
                trumps = "NT" if p.trump is Denom.NT else f"{p.trump.symbol} trumps"
            else:
                trumps = "no trumps" if p.trump is Denom.NT else f"{p.trump.symbol} trumps"
            return f"{trumps}, {self._seat(p.declarer)} declares"
        if p.declarer is not None:
            return f"{self._seat(p.declarer)} declares"
        return "No contract"

    def status(self) -> str:
        """The line under the trick: who led, who is to play, who won it.  Compact, the
        leader is left to the compass's lead mark ("Trick 4: W to play")."""
        p = self.position
        if p is None or not p.in_play:
            return ""
        if p.complete and p.winner is not None:
            if p.over:
                if self.compact:
                    return f"Last trick won by {p.winner.letter}"
                return f"Trick {p.trick_no} won by {p.winner.title}; play over"
            return f"Trick {p.trick_no} won by {self._seat(p.winner)}"
        if not p.trick:
            if p.turn is None:
                return ""
            return f"Trick {p.trick_no}: {self._seat(p.turn)} to lead"
        assert p.leader is not None and p.turn is not None
        if self.compact:
            return f"Trick {p.trick_no}: {p.turn.letter} to play"
        return f"Trick {p.trick_no}: {p.leader.title} led, {p.turn.title} to play"

    def score(self) -> str:
        """Tricks taken: by declarer and defence when declarer is known."""
        p = self.position
        if p is None or p.won is None:
            return ""
        if p.declarer is not None:
            side = p.declarer & 1
            need = f"/{p.contract.tricks_needed}" if p.contract is not None else ""
            decl, dfn = ("Decl", "def") if self.compact else ("Declarer", "defence")
            return f"{decl} {p.won[side]}{need} \u00b7 {dfn} {p.won[side ^ 1]}"
        if self.compact:
            return f"NS {p.won[0]} \u00b7 EW {p.won[1]}"
        return f"N-S {p.won[0]} \u00b7 E-W {p.won[1]}"

    @staticmethod
    def line_count_for(compact: bool) -> int:
        """Lines :meth:`render` draws, compact or not."""
        return 7 if compact else 9

    def cell(self, seat: Seat) -> Text:
        """A seat's place in the compass: 'N ♠A', the leader marked '▸', '?' if to play."""
        p = self.position
        style = self.get_component_rich_style
        text = Text()
        if p is None:
            return Text(seat.letter, style=style("trick-panel--muted"))
        c = p.card_of(seat)
        lead = c is not None and seat == p.leader
        text.append(LEAD_MARK if lead else " ", style=style("trick-panel--lead"))
        text.append(seat.letter, style=style("trick-panel--muted") if c is None else "")
        if c is not None:
            card = card_text(c, style("trick-panel--red"))
            if seat == p.winner:
                card.stylize(style("trick-panel--winner"))
                card.append("*")
            elif lead:
                card.stylize(style("trick-panel--lead"))
            text.append(" ")
            text.append_text(card)
        elif p.in_play and not p.complete and p.trick and seat == p.turn:
            text.append(" ?", style=style("trick-panel--turn"))
        return text

    def render(self) -> Text:
        style = self.get_component_rich_style
        width = max(self.size.width, 13) if self.size.width else self.WIDTH
        p = self.position
        lines: list[Text] = [Text(self.headline(), style=style("trick-panel--contract"))]
        vul = p.vulnerability if p is not None else None
        lines.append(Text(vul_text(vul) if vul is not None else ""))
        if not self.compact:
            lines.append(Text())
        north, south = self.cell(Seat.N), self.cell(Seat.S)
        west, east = self.cell(Seat.W), self.cell(Seat.E)
        lines.append(_centred(north, width))
        middle = Text()
        middle.append_text(west)
        middle.append(" " * max(1, width - west.cell_len - east.cell_len))
        middle.append_text(east)
        lines.append(middle)
        lines.append(_centred(south, width))
        if not self.compact:
            lines.append(Text())
        lines.append(Text(self.status()))
        lines.append(Text(self.score()))
        # One line each, whatever the width: a line too long ends in "…", never wraps
        # below the panel's last row out of sight.
        return Text("\n", no_wrap=True, overflow="ellipsis").join(lines)

    def plain(self) -> str:
        """What the panel shows, without styles."""
        return self.render().plain


def _centred(text: Text, width: int) -> Text:
    pad = max(0, (width - text.cell_len) // 2)
    return Text(" " * pad) + text


class BridgeTable(Widget, can_focus=True):
    """Four :class:`HandDiagram`\\ s round a :class:`TrickPanel`, in a 3 x 3 grid.

    The grid is laid out from the hands shown, never from fixed widths: the West and
    East columns are as wide as their diagrams need and the middle takes the rest.  The
    table fills the width its screen gives it; below :meth:`natural_width` (full) it goes
    *compact* on its own (seats by their letters, no blank lines: 19 rows instead of 22),
    so a screen that gives it at least the compact natural width gets four whole hands
    (the board screen does; anything narrower ends lines in "…").
    """

    DEFAULT_CSS = """
    BridgeTable {
        layout: grid;
        grid-size: 3 3;
        grid-columns: 20 1fr 20;
        grid-rows: 5 10 5;
        width: 1fr;
        height: 22;
        padding: 0 1;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
        border-subtitle-color: $text-muted;
        &:focus { border: round $accent; border-title-color: $accent; }
        &.-invalid { border: round $error; border-subtitle-color: $text-error; }
        & > HandDiagram { height: 1fr; }
        & > #hand-W, & > #hand-E { padding-top: 2; }
        &.-compact > #hand-W, &.-compact > #hand-E { padding-top: 1; }
        & > TrickPanel { padding: 0 1; }
        & > .corner { color: $text-muted; width: 1fr; height: 1fr; }
    }
    """

    GUTTER = 4
    """Columns of border and padding round the grid (``border`` and ``padding: 0 1``)."""
    MIN_SIDE = 8
    """The narrowest West or East column (room for the corners' "Dealer S")."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "v",
            "toggle_declarer_view",
            "Declarer's view",
            id="table.declarer_view",
            tooltip="Hide or show the defenders' hands (what declarer can see)",
        ),
    ]

    declarer_view: reactive[bool] = reactive(False)
    """Hide the defenders' hands (only when a declarer is known)."""

    def __init__(
        self,
        *,
        declarer_view: bool = False,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.set_reactive(BridgeTable.declarer_view, declarer_view)
        self.position: TablePosition | None = None
        """What the table shows (None: nothing yet)."""
        self.state: PlayState | None = None
        """A copy of the play state shown (None when a deal is shown)."""
        self._corners: tuple[list[str], str] | None = None
        self._layout: dict[str, object] | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="corner-nw", classes="corner")
        yield HandDiagram(Seat.N, id="hand-N")
        yield Static("", id="corner-ne", classes="corner")
        yield HandDiagram(Seat.W, id="hand-W")
        yield TrickPanel(id="trick")
        yield HandDiagram(Seat.E, id="hand-E")
        yield Static("", classes="corner")
        yield HandDiagram(Seat.S, id="hand-S")
        yield Static("", classes="corner")

    def on_mount(self) -> None:
        self._refresh_view()

    def on_resize(self) -> None:
        self._fit()

    # -- layout ---------------------------------------------------------------------------

    def _side_width(self, seat: Seat, compact: bool) -> int:
        diagram = self.hand(seat)
        was = diagram.compact
        diagram.set_reactive(HandDiagram.compact, compact)
        try:
            return max(self.MIN_SIDE, diagram.natural_width())
        finally:
            diagram.set_reactive(HandDiagram.compact, was)

    def natural_width(self, compact: bool) -> int:
        """Columns the table needs to show every hand and the middle whole, compact (seats
        by their letters) or not, its border and padding included."""
        middle = max(
            TrickPanel.COMPACT_WIDTH if compact else TrickPanel.WIDTH,
            self._side_width(Seat.N, compact),
            self._side_width(Seat.S, compact),
        )
        west, east = self._side_width(Seat.W, compact), self._side_width(Seat.E, compact)
        return west + middle + east + 2 + self.GUTTER  # the panel's own padding: 0 1

    def natural_height(self, compact: bool) -> int:
        """Rows the table needs, its border included."""
        return 5 + (TrickPanel.line_count_for(compact)) + 5 + 2

    def _fit(self) -> None:
        """Lay the grid out for the width the table has (compact below the full width)."""
        if not self.is_mounted:
            return
        full = self.natural_width(False)
        width = self.outer_size.width or full
        compact = width < full
        self.set_class(compact, "-compact")
        for seat in SEATS:
            self.hand(seat).compact = compact
        self.trick_panel.compact = compact
        west, east = self._side_width(Seat.W, compact), self._side_width(Seat.E, compact)
        middle = max(0, width - self.GUTTER - west - east)
        rows = self.natural_height(compact) - 2
        for seat in (Seat.N, Seat.S):  # the hand centred over the middle column
            pad = max(0, (middle - self._side_width(seat, compact)) // 2)
            self.hand(seat).styles.padding = (0, 1, 0, 1 + pad)
        wanted = {
            "grid_columns": f"{west} 1fr {east}",
            "grid_rows": f"5 {rows - 10} 5",
            "height": rows + 2,
        }
        styles = self.styles
        if self._layout != wanted:  # each change costs a layout pass
            self._layout = wanted
            styles.grid_columns = wanted["grid_columns"]  # type: ignore[assignment]
            styles.grid_rows = wanted["grid_rows"]  # type: ignore[assignment]
            styles.height = wanted["height"]  # type: ignore[assignment]

    # -- what to show ---------------------------------------------------------------------

    def show_deal(
        self,
        deal: Deal | Sequence[int | None] | None,
        *,
        contract: Contract | None = None,
        declarer: Seat | None = None,
        vulnerability: Vul | None = None,
        dealer: Seat | None = None,
        board: str | None = None,
        passed_out: bool = False,
    ) -> None:
        """A deal before the lead, all cards showing.  Four masks (None for a hand not
        known yet) are accepted too, so an editor can show a deal it has not validated."""
        if deal is None:
            hands: tuple[int | None, ...] = (None, None, None, None)
        elif isinstance(deal, Deal):
            hands = deal.hands
        else:
            hands = tuple(deal)
        self.state = None
        self.show_position(
            TablePosition(
                hands=(hands[0], hands[1], hands[2], hands[3]),
                contract=contract,
                declarer=declarer,
                trump=contract.denom if contract else None,
                vulnerability=vulnerability,
                dealer=dealer,
                board=board,
                passed_out=passed_out,
            )
        )

    def show_state(
        self,
        state: PlayState,
        *,
        vulnerability: Vul | None = None,
        dealer: Seat | None = None,
        board: str | None = None,
        last_trick: bool = True,
    ) -> None:
        """A position in the play: the cards still held, the trick in the middle (or, with
        ``last_trick``, the trick just completed until the next lead)."""
        self.state = state.copy()
        self.show_position(
            TablePosition.of_state(
                state,
                vulnerability=vulnerability,
                dealer=dealer,
                board=board,
                last_trick=last_trick,
            )
        )

    def show_position(self, position: TablePosition | None) -> None:
        """Show ``position`` as it is (the two methods above build one)."""
        self.position = position
        if self.is_mounted:
            self._refresh_view()

    def clear(self) -> None:
        """Empty table."""
        self.state = None
        self.show_position(None)

    def hand(self, seat: Seat) -> HandDiagram:
        return self.query_one(f"#hand-{Seat(seat).letter}", HandDiagram)

    @property
    def trick_panel(self) -> TrickPanel:
        return self.query_one(TrickPanel)

    def plain(self) -> str:
        """The four hands and the centre as text (North, West, centre, East, South)."""
        parts = [
            self.hand(Seat.N).plain(),
            self.hand(Seat.W).plain(),
            self.trick_panel.plain(),
            self.hand(Seat.E).plain(),
            self.hand(Seat.S).plain(),
        ]
        return "\n".join(parts)

    # -- declarer's view ------------------------------------------------------------------

    def action_toggle_declarer_view(self) -> None:
        self.declarer_view = not self.declarer_view

    def watch_declarer_view(self) -> None:
        if self.is_mounted:
            self._refresh_view()

    def hidden_seats(self) -> frozenset[Seat]:
        """The seats whose cards are hidden now (the defenders in declarer's view)."""
        p = self.position
        if not self.declarer_view or p is None or p.declarer is None:
            return frozenset()
        return frozenset({p.declarer.next, p.declarer.prev})

    def _refresh_view(self) -> None:
        p = self.position
        hidden = self.hidden_seats()
        for seat in SEATS:
            diagram = self.hand(seat)
            diagram.hand = p.hands[seat] if p is not None else None
            diagram.hidden = seat in hidden
            diagram.turn = bool(p is not None and p.in_play and not p.over and p.turn == seat)
            role = ""
            if p is not None and p.declarer is not None:
                role = (
                    "declarer"
                    if seat == p.declarer
                    else "dummy"
                    if seat == p.declarer.partner
                    else ""
                )
            diagram.role = role
        self.trick_panel.position = p
        self._fit()
        board = p.board if p is not None and p.board else None
        dealer = p.dealer if p is not None else None
        nw = []
        if board:
            nw.append(f"Board {board}")
        if dealer is not None:
            nw.append(f"Dealer {dealer.letter}")
        view = "declarer's view" if hidden else ""
        if self._corners != (nw, view):  # an update costs a layout pass: only on a change
            self._corners = (nw, view)
            self.query_one("#corner-nw", Static).update(Text("\n".join(nw)))
            self.query_one("#corner-ne", Static).update(Text(view, justify="right"))
