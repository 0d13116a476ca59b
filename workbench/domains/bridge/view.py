"""The bridge table: a board's four hands, the trick in progress, and the play log.

Opened with ``v`` on a bridge board.  It shows the board where planning starts (after the
opening lead, or at ``[StartAtTrick]``), with declarer's analysis of that position under
the table (:class:`~workbench.domains.bridge.analysis_panel.AnalysisPanel`: sure and
extra tricks, entries, the threat, after Lo 1987), and ``p`` plays the board out: the TOFS declarer
against the chosen defence, in a thread worker that posts one message with the finished
record (a board takes well under a second).  The log then carries the declarer's scheme
annotations ("[Draw trump]"); choosing a trick shows the table as it was after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header

from knowledge.bridge.deal import PlayState
from knowledge.bridge.pbn import BoardRecord, parse_pbn
from workbench.domains.bridge.analysis_panel import AnalysisPanel
from workbench.domains.bridge.play_log import PlayLog, position_after
from workbench.domains.bridge.table import BridgeTable
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.status_line import StatusLine

__all__ = ["BoardPlayed", "BridgeScreen", "open_board", "play_notes", "stored_board"]


@dataclass
class BoardPlayed(Message):
    """The worker finished playing the board (``error`` set if it could not)."""

    state: PlayState | None
    notes: list[str | None]
    tricks: int
    error: str | None = None


class BridgeScreen(Screen[None]):
    """A board at the table; ``p`` plays it out with the TOFS declarer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "p",
            "play",
            "Play it out",
            id="bridge.play",
            tooltip="Play the board to the end: TOFS declarer against the defence",
        ),
        Binding(
            "t",
            "toggle_defence",
            "Defence",
            id="bridge.defence",
            tooltip="Switch the defence between heuristic and double-dummy",
        ),
        Binding("escape", "close", "Back", id="bridge.close"),
    ]
    DEFAULT_CSS = """
    BridgeScreen {
        #bridge-panes {
            height: 1fr;
            layout: grid;
            grid-size: 2 2;
            grid-columns: 76 1fr;
            grid-rows: 22 1fr;
        }
        #bridge-table { width: 1fr; height: 1fr; }
        #bridge-log { row-span: 2; width: 1fr; height: 1fr; }
        #bridge-analysis-pane {
            height: 1fr;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            &:focus-within { border: round $accent; }
        }
        #bridge-analysis { border: none; }
        /* Narrow: the table takes the whole height of its column, the analysis goes
           under the play log. */
        &.-table-narrow #bridge-table { row-span: 2; }
        &.-table-narrow #bridge-log { row-span: 1; }
    }
    """

    NARROW_BELOW = 110
    """Below this many columns (the app's narrow breakpoint) the analysis goes under the
    log and the table takes its column's whole height."""
    LOG_MIN = 50
    """The play log keeps at least this many columns beside a full-size table; with less,
    the table goes compact."""

    PANES: ClassVar[str] = "#bridge-table, #bridge-log, #bridge-analysis-pane"
    """The panes a maximize key means (see :mod:`workbench.panes`)."""

    def __init__(self, record: BoardRecord, name: str, start: PlayState) -> None:
        super().__init__()
        self.record = record
        self.board_name = name
        self.start = start
        self.defence = "heuristic"
        self.played: PlayState | None = None

    @classmethod
    def of_text(cls, name: str, text: str) -> BridgeScreen:
        """The screen for a stored board (its PBN text); raises ValueError if unreadable."""
        from knowledge.bridge.problems import board_state

        records = parse_pbn(text, source=name)
        if not records:
            raise ValueError(f"{name}: no board in the PBN text")
        record = records[0]
        return cls(record, name, board_state(record, name))

    def compose(self) -> ComposeResult:
        yield Header()
        with Container(id="bridge-panes"):  # a grid: see DEFAULT_CSS and _lay_out
            table = BridgeTable(id="bridge-table")
            table.border_title = "Table"
            yield table
            log = PlayLog(id="bridge-log")
            log.border_title = "Play"
            yield log
            # Scrolled, so that an analysis taller than its pane shows a scroll bar
            # rather than losing its last lines.
            with VerticalScroll(id="bridge-analysis-pane") as pane:
                pane.border_title = "Declarer's analysis (after Lo 1987)"
                yield AnalysisPanel(id="bridge-analysis")
        yield StatusLine("", id="bridge-status")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = f"bridge / {self.board_name}"
        self._show(self.start, [])
        self.query_one(StatusLine).set_status(
            f"Board {self.record.board}: {self.record.contract} by "
            f"{self.record.declarer.title if self.record.declarer else '?'}. "
            "p plays it out.",
            "ok",
        )

    def _show(self, state: PlayState, notes: list[str | None]) -> None:
        r = self.record
        self.query_one(BridgeTable).show_state(
            state, vulnerability=r.vulnerability, dealer=r.dealer, board=r.board
        )
        self._analyse(state)
        self.query_one(PlayLog).show_state(state, card_notes=notes)
        self._lay_out()

    def on_resize(self) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        """The table's column: full size if the log keeps :data:`LOG_MIN` columns beside
        it, else compact; the table's rows as it needs them (its hands whole either way)."""
        table = self.query_one(BridgeTable)
        room = self.query_one("#bridge-panes").size.width or self.app.size.width
        full, small = table.natural_width(False), table.natural_width(True)
        compact = room - full < self.LOG_MIN
        width = small if compact else full
        height = table.natural_height(compact)
        panes = self.query_one("#bridge-panes").styles
        narrow = self.app.size.width < self.NARROW_BELOW
        columns, rows = f"{width} 1fr", "1fr 1fr" if narrow else f"{height} 1fr"
        self.set_class(narrow, "-table-narrow")
        if (str(panes.grid_columns), str(panes.grid_rows)) != (columns, rows):
            panes.grid_columns = columns
            panes.grid_rows = rows

    def _analyse(self, state: PlayState) -> None:
        """Declarer's analysis of the position shown (from declarer's view only)."""
        r = self.record
        vulnerable = r.declarer is not None and r.vulnerability.is_vulnerable(r.declarer)
        self.query_one(AnalysisPanel).show_state(state, vulnerable)

    def action_toggle_defence(self) -> None:
        self.defence = "dd" if self.defence == "heuristic" else "heuristic"
        self.notify(f"Defence: {self.defence}", timeout=2)

    def action_play(self) -> None:
        self.query_one(StatusLine).set_status(
            f"Playing the board out against the {self.defence} defence…", "running"
        )
        self._play(self.defence)

    @work(thread=True, exclusive=True, exit_on_error=False, group="bridge-play")
    def _play(self, defence: str) -> None:
        """Thread body: play from the start position, post the result.  Touches no widget."""
        from knowledge.bridge.defenders import make_defender
        from knowledge.bridge.players import play_board
        from knowledge.bridge.tofs_player import TofsDeclarer

        r = self.record
        try:
            assert r.declarer is not None and r.contract is not None
            declarer = TofsDeclarer(vulnerable=r.vulnerability.is_vulnerable(r.declarer))
            rec = play_board(
                r.deal, r.contract, r.declarer, declarer, make_defender(defence), start=self.start
            )
        except Exception as exc:
            self.post_message(BoardPlayed(None, [], 0, f"{type(exc).__name__}: {exc}"))
            return
        state = self.start.copy()
        for c in rec.cards:
            state.play(c)
        notes = play_notes(self.start.cards_played, rec, declarer)
        self.post_message(BoardPlayed(state, notes, state.declarer_tricks))

    @on(BoardPlayed)
    def _played(self, message: BoardPlayed) -> None:
        status = self.query_one(StatusLine)
        if message.state is None:
            status.set_status(f"Could not play the board: {message.error}", "error")
            return
        self.played = message.state
        self._show(message.state, message.notes)
        need = self.record.contract.tricks_needed if self.record.contract else 7
        verdict = "made" if message.tricks >= need else f"down {need - message.tricks}"
        status.set_status(
            f"Declarer took {message.tricks} tricks: {verdict}.",
            "ok" if message.tricks >= need else "warning",
        )

    @on(PlayLog.TrickSelected)
    def _trick(self, message: PlayLog.TrickSelected) -> None:
        state = self.played or self.start
        r = self.record
        shown = position_after(state, message.cards_played)
        self.query_one(BridgeTable).show_state(
            shown,
            vulnerability=r.vulnerability,
            dealer=r.dealer,
            board=r.board,
        )
        self._analyse(shown)

    def action_close(self) -> None:
        self.dismiss(None)


def play_notes(start: int, rec: Any, declarer: Any) -> list[str | None]:
    """The play log's notes, one a card from the deal's first: at each card declarer's
    side chose by planning, the reader's view of that decision in a line -- the plan in
    the knowledge's words and what it rests on, as ``play --explain`` says it; at a card
    that followed a plan already made, the scheme's label; none for the defenders'."""
    from knowledge.bridge.play_reader import decision_notes
    from knowledge.bridge.players import log_notes

    explained = decision_notes(declarer)
    recorded = log_notes(declarer, rec.notes, start)
    side = rec.declarer & 1
    notes: list[str | None] = [None] * start
    for i, (note, seat) in enumerate(zip(recorded, rec.seats, strict=True)):
        mine = (seat & 1) == side
        notes.append(explained.get(start + i, note) if mine else None)
    return notes


def stored_board(db: Path | None, name: str) -> str | None:
    """The stored PBN text of a bridge board (None if the store has none)."""
    from workbench.kb.catalog import open_store

    store = open_store(db)
    try:
        return store.problem_text("bridge", name)
    finally:
        store.close()


def open_board(app: App[Any], db: Path | None, name: str) -> None:
    """Show the stored board ``name`` at the table (``v`` on a bridge board)."""
    from workbench.kb import StoreError

    try:
        text = stored_board(db, name)
        if text is None:
            raise ValueError(f"the store has no bridge board '{name}'")
        screen = BridgeScreen.of_text(name, text)
    except (ValueError, StoreError) as exc:
        app.notify(str(exc), title="Cannot show the board", severity="error")
        return
    app.push_screen(screen)
