"""Pilot tests of the bridge views: the table diagram, the play log and the deal editor.

The widgets and the editor screen run in tiny host apps (the workbench app wires the
screen in itself).  The deal is board 1 of the DDS development set and its recorded play
(``DDSPlay`` from ``DDSLeader`` in ``DDSTrump``; declarer is the leader's right-hand
opponent), read with :func:`knowledge.bridge.pbn.read_pbn`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import Input, Select

from knowledge.bridge import DATA_DIR as DATA
from knowledge.bridge.cards import CARD_NAMES, Denom, Seat, hand_to_pbn, parse_card
from knowledge.bridge.deal import Contract, Deal, PlayState, Vul
from knowledge.bridge.pbn import BoardRecord, parse_pbn, read_pbn
from workbench.domains.bridge.deal_editor import (
    DealEditorScreen,
    DealForm,
    DealSaved,
    SavedDeal,
    SaveDealAsScreen,
    check_deal_form,
)
from workbench.domains.bridge.play_log import PlayLog, position_after, trick_rows
from workbench.domains.bridge.table import BridgeTable
from workbench.screens.unsaved import UnsavedEditsScreen

SIZE = (120, 40)
DEAL1 = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
HANDS = dict(zip((Seat.N, Seat.E, Seat.S, Seat.W), DEAL1[2:].split(), strict=True))
DRAW = "[Draw second round of trump]"


@cache
def board1() -> BoardRecord:
    return read_pbn(DATA / "dds-list100.pbn")[0]


def board1_state(cards: int | None = None) -> PlayState:
    """Board 1 in 2♠ by West, after the first ``cards`` recorded cards (all by default)."""
    rec = board1()
    leader = Seat.parse(rec.tags["DDSLeader"])
    trump = Denom.parse(rec.tags["DDSTrump"])
    state = PlayState.from_position(
        rec.deal.hands, trump, leader, declarer=leader.prev, contract=Contract(2, trump)
    )
    play = rec.tags["DDSPlay"]
    for i in range(0, len(play), 2)[:cards]:
        state.play(parse_card(play[i : i + 2]))
    return state


def notes(messages: list[Message]) -> list[tuple[str, str]]:
    seen: dict[int, Notify] = {}
    for m in messages:
        if isinstance(m, Notify):
            seen.setdefault(id(m), m)
    return [(m.notification.message, m.notification.severity) for m in seen.values()]


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the screen"
        await pilot.pause(0.02)


# ---------------------------------------------------------------- host apps


class EditorHost(App[None]):
    """Pushes a deal editor and keeps what it is dismissed with."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__()
        self.kwargs = kwargs
        self.results: list[SavedDeal | None] = []
        self.editor: DealEditorScreen | None = None

    def on_mount(self) -> None:
        self.editor = DealEditorScreen(**self.kwargs)  # type: ignore[arg-type]
        self.push_screen(self.editor, self.results.append)


class TableHost(App[None]):
    """A bridge table over a play log; choosing a trick shows the table at that trick."""

    def __init__(self, state: PlayState, **log_kwargs: object) -> None:
        super().__init__()
        self.state = state
        self.log_kwargs = log_kwargs
        self.selected: list[PlayLog.TrickSelected] = []

    def compose(self) -> ComposeResult:
        yield BridgeTable(id="table")
        yield PlayLog(id="log")

    def on_mount(self) -> None:
        self.query_one(BridgeTable).show_state(self.state, vulnerability=Vul.NONE, board="1")
        self.query_one(PlayLog).show_state(self.state, **self.log_kwargs)  # type: ignore[arg-type]

    def on_play_log_trick_selected(self, message: PlayLog.TrickSelected) -> None:
        self.selected.append(message)
        self.query_one(BridgeTable).show_state(position_after(self.state, message.cards_played))


async def open_editor(pilot: Pilot[None]) -> DealEditorScreen:
    app = pilot.app
    assert isinstance(app, EditorHost)
    await until(pilot, lambda: app.editor is not None and app.editor.is_mounted)
    await pilot.pause()
    assert app.editor is not None
    return app.editor


async def checked(pilot: Pilot[None]) -> DealEditorScreen:
    """Wait for the editor's debounced check of the fields as they are now."""
    screen = pilot.app.screen
    assert isinstance(screen, DealEditorScreen)
    await pilot.pause()
    await until(pilot, lambda: screen.checked_form == screen.read_form())
    return screen


async def type_into(pilot: Pilot[None], field: Input, text: str) -> None:
    """Focus ``field``, clear it and type ``text`` key by key, as a user would."""
    field.focus()
    field.value = ""
    await pilot.pause()
    await pilot.press(*text)
    await checked(pilot)


async def fill_in(pilot: Pilot[None], field: Input, text: str) -> None:
    """Set ``field`` at once (as a paste does): the same Changed path as typing, without
    a Pilot round trip per key."""
    field.value = text
    await checked(pilot)


def error_text(screen: DealEditorScreen, widget_id: str) -> str:
    error = screen.query_one(f"#{widget_id}-error")
    return str(error.render()) if error.has_class("-shown") else ""


# ---------------------------------------------------------------- the deal editor


async def test_duplicate_card_is_named_in_both_hands_and_saving_is_refused() -> None:
    seen: list[Message] = []
    app = EditorHost()
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_editor(pilot)
        assert screen.check_action("save", ()) is None  # an empty form cannot be saved
        for seat in (Seat.N, Seat.E, Seat.W):
            await fill_in(pilot, screen.hand_input(seat), HANDS[seat])
        # South types North's ♠Q instead of the ♠K.
        await type_into(pilot, screen.hand_input(Seat.S), "Q5.T83.KQ9.A7652")
        for seat in (Seat.N, Seat.S):
            message = error_text(screen, f"deal-hand-{seat.letter}")
            assert message == "SQ is in both North and South"
            assert screen.hand_input(seat).has_class("-invalid")
        assert error_text(screen, "deal-hand-E") == error_text(screen, "deal-hand-W") == ""
        assert "North: SQ is in both North and South" in str(
            screen.query_one("#deal-problems").render()
        )
        # The deal string follows the hands as they are typed.
        assert screen.deal_input.value == "N:" + " ".join(
            [HANDS[Seat.N], HANDS[Seat.E], "Q5.T83.KQ9.A7652", HANDS[Seat.W]]
        )
        assert [str(screen.query_one(f"#deal-count-{s}").render()) for s in "NESW"] == ["13/13"] * 4
        assert not screen.valid and screen.check_action("save", ()) is None
        assert screen.table.has_class("-invalid")
        await pilot.press("ctrl+s")  # disabled: nothing happens
        await pilot.pause()
        assert app.screen is screen and app.results == []
        assert screen.save("board-1") is None  # the palette's path refuses too
        await pilot.pause()
        assert app.screen is screen and app.results == []
        assert (
            "Not saved: the deal has 1 problem (North: SQ is in both North and South).",
            "error",
        ) in notes(seen)
        assert not any(isinstance(m, DealSaved) for m in seen)


async def test_fixed_deal_is_drawn_and_saved_as_pbn_that_reads_back() -> None:
    seen: list[Message] = []
    app = EditorHost()
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_editor(pilot)
        for seat, hand in HANDS.items():
            await fill_in(
                pilot, screen.hand_input(seat), hand if seat != Seat.S else "Q5.T83.KQ9.A7652"
            )
        assert not screen.valid
        await type_into(pilot, screen.hand_input(Seat.S), HANDS[Seat.S])  # fixed
        assert screen.valid and screen.check.errors == {}
        assert not screen.table.has_class("-invalid")
        diagram = screen.table.hand(Seat.W).plain().splitlines()
        assert diagram == ["West", "♠ AT942", "♥ AQ4", "♦ 32", "♣ KJ3"]
        assert screen.table.hand(Seat.N).hand == Deal.from_pbn(DEAL1)[Seat.N]
        await type_into(pilot, screen.query_one("#deal-contract", Input), "4S")
        assert "who declares 4♠?" in error_text(screen, "deal-declarer")
        assert not screen.valid
        screen.query_one("#deal-declarer", Select).value = Seat.W
        await type_into(pilot, screen.query_one("#deal-board", Input), "1")
        assert screen.valid
        centre = screen.table.trick_panel.plain()
        assert "4♠ by West" in centre and "Vul: none" in centre  # board 1: nobody vulnerable
        assert screen.table.hand(Seat.E).role == "dummy"
        await pilot.press("ctrl+s")  # no name yet: asks for one
        await until(pilot, lambda: isinstance(app.screen, SaveDealAsScreen))
        await pilot.press(*"board-1", "enter")
        await until(pilot, lambda: app.results != [])
        [saved] = app.results
        assert saved is not None and saved.name == "board-1"
        (back,) = parse_pbn(saved.pbn)
        assert back.deal == Deal.from_pbn(DEAL1) == saved.record.deal
        assert back.board == "1" and back.dealer is Seat.N and back.vulnerability is Vul.NONE
        assert back.contract == Contract.parse("4S") and back.declarer is Seat.W
        assert any(isinstance(m, DealSaved) and m.saved == saved for m in seen)


async def test_fill_the_fourth_hand() -> None:
    app = EditorHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(pilot)
        for seat in (Seat.N, Seat.E, Seat.W):
            await fill_in(pilot, screen.hand_input(seat), HANDS[seat])
        assert screen.check.fill_seat is Seat.S and screen.can_fill
        assert "South's hand is not given yet: ctrl+f fills it" in str(
            screen.query_one("#deal-problems").render()
        )
        await pilot.press("ctrl+f")
        await checked(pilot)
        assert screen.hand_input(Seat.S).value == HANDS[Seat.S]
        assert screen.deal_input.value == DEAL1
        assert screen.valid and not screen.can_fill
        assert screen.check.deal == Deal.from_pbn(DEAL1)
        assert str(screen.query_one("#deal-count-S").render()) == "13/13"


async def test_deal_string_fills_the_hands_and_counts_are_explained() -> None:
    app = EditorHost()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(pilot)
        rotated = Deal.from_pbn(DEAL1).to_pbn(Seat.W)  # "W:… N… E… S…"
        screen.deal_input.focus()
        await pilot.pause()
        screen.deal_input.post_message(events.Paste(rotated))
        await checked(pilot)
        assert [screen.hand_input(s).value for s in (Seat.N, Seat.E, Seat.S, Seat.W)] == list(
            HANDS.values()
        )
        assert screen.valid and screen.deal_input.value == rotated  # not rewritten
        # North drops the ♠Q: 12 cards, and the message says what is missing.
        await fill_in(pilot, screen.hand_input(Seat.N), "J6.K652.J85.T98")
        message = error_text(screen, "deal-hand-N")
        assert message == "North has 12 cards; every hand needs 13; missing: SQ"
        assert str(screen.query_one("#deal-count-N").render()) == "12/13"
        assert screen.deal_input.value.startswith("N:J6.K652.J85.T98 ")
        assert not screen.valid
        await fill_in(pilot, screen.deal_input, "N:AKQ.T98")
        assert "has 1 hand(s); expected 4" in error_text(screen, "deal-text")


async def test_loading_a_record_and_escape_asks_before_discarding() -> None:
    rec = board1()
    app = EditorHost(record=rec, name="list100-1")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(pilot)
        assert screen.valid and not screen.dirty
        assert screen.deal_input.value == rec.deal.to_pbn()
        await type_into(pilot, screen.query_one("#deal-board", Input), "1a")
        assert screen.dirty and screen.sub_title == "list100-1 ●"
        await pilot.press("escape")  # asks: escape again stays
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert screen.query_one("#deal-board", Input).value == "1a"
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")  # discard
        await until(pilot, lambda: app.results == [None])


def test_check_deal_form_uses_the_core_messages() -> None:
    form = DealForm(hands=(HANDS[Seat.N], HANDS[Seat.E], "K5.T83.KQ9.A7652X", ""), contract="8NT")
    check = check_deal_form(form)
    assert "'X' in C is not a rank" in check.errors["S"]
    assert (
        "contract level" in check.errors["contract"] or "not a contract" in check.errors["contract"]
    )
    assert not check.ok and check.fill_seat is None


# ---------------------------------------------------------------- table and play log


async def test_table_shows_the_trick_in_progress() -> None:
    state = board1_state(14)  # trick 4: East led ♠7, South played ♠5, West to play
    app = TableHost(state)
    async with app.run_test(size=SIZE) as pilot:
        table = app.query_one(BridgeTable)
        panel = table.trick_panel.plain()
        assert "2♠ by West" in panel and "Vul: none" in panel
        assert "Trick 4: East led, West to play" in panel
        assert "▸E ♠7*" in panel and "S ♠5" in panel and "W ?" in panel
        assert "Declarer 1/8 · defence 2" in panel
        assert table.hand(Seat.W).turn and not table.hand(Seat.S).turn
        # Only the cards still held are drawn.
        assert table.hand(Seat.S).hand == state.hands[Seat.S]
        assert table.hand(Seat.S).plain().splitlines()[1] == "♠ K"
        assert table.hand(Seat.E).plain().splitlines()[1] == "♠ 83"
        # Declarer's view hides the defenders (N and S), showing their card counts.
        table.focus()
        await pilot.press("v")
        assert table.hand(Seat.N).plain().splitlines() == [
            "North: 10 cards",
            "♠ ?",
            "♥ ?",
            "♦ ?",
            "♣ ?",
        ]
        assert table.hand(Seat.E).plain().splitlines()[1] == "♠ 83"
        state.play(parse_card("SA"))  # the table keeps its own copy
        await pilot.pause()
        assert "Trick 4: East led, West to play" in table.trick_panel.plain()


async def test_play_log_rows_for_a_played_out_board() -> None:
    state = board1_state()
    app = TableHost(state, annotations={3: DRAW}, card_notes={0: "[Lead top of sequence]"})
    async with app.run_test(size=SIZE) as pilot:
        log = app.query_one(PlayLog)
        rows = log.rows_shown
        assert len(rows) == 12 and log.row_count == 12  # 11 tricks and the 12th begun
        first = rows[0]
        assert (first.number, first.leader, first.winner) == (1, Seat.N, Seat.S)
        assert [CARD_NAMES[c] for c in first.cards] == ["CT", "C4", "CA", "CJ"]
        assert (first.declarer, first.defence) == (0, 1)
        assert first.note == "♣T: [Lead top of sequence]"
        assert rows[3].note == DRAW
        assert [str(c) for c in log.get_row("trick-0")] == [
            "1",
            "North",
            "♣T",
            "♣4",
            "♣A*",
            "♣J",
            "South",
            "0",
            "1",
            "♣T: [Lead top of sequence]",
        ]
        last = rows[-1]
        assert last.winner is None and [CARD_NAMES[c] for c in last.cards] == ["DJ"]
        assert (last.declarer, last.defence) == (state.declarer_tricks, state.defender_tricks)
        assert [t.winner for t in state.history] == [r.winner for r in rows[:-1]]
        # Play order: the leader's card first.
        log.focus()
        await pilot.press("o")
        assert [str(c) for c in log.get_row("trick-3")][2:6] == ["♠7", "♠5", "♠2", "♠Q*"]
        # Choosing trick 2 shows the table after it.
        log.move_cursor(row=1)
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.selected))
        assert (app.selected[0].index, app.selected[0].cards_played) == (1, 8)
        await pilot.pause()
        panel = app.query_one(BridgeTable).trick_panel.plain()
        assert "Trick 2 won by North" in panel and "Declarer 0/8 · defence 2" in panel


def test_trick_rows_of_a_mid_play_position() -> None:
    later = board1_state(20)
    start = PlayState.from_position(
        later.hands,
        later.trump,
        later.leader,
        trick=later.trick,
        won=(later.won[0], later.won[1]),
        declarer=later.declarer,
    )
    play = board1().tags["DDSPlay"]
    for i in range(40, 56, 2):
        start.play(parse_card(play[i : i + 2]))
    rows = trick_rows(start)
    assert rows[0].number == 6  # five tricks were taken before this position
    assert (rows[-1].declarer, rows[-1].defence) == (start.declarer_tricks, start.defender_tricks)
    assert hand_to_pbn(position_after(start, 0).hands[Seat.N]) == hand_to_pbn(later.hands[Seat.N])


# ---------------------------------------------------------------------- in the workbench


async def test_bridge_board_at_the_table_and_played_out(tmp_path: Path) -> None:
    """`v` on a bridge board shows it at the table where planning starts; `p` plays it
    out with the TOFS declarer; the log carries its scheme notes; `d` opens the deal
    editor on the same board."""
    from workbench.app import WorkbenchApp
    from workbench.domains.bridge.deal_editor import DealEditorScreen
    from workbench.domains.bridge.view import BridgeScreen
    from workbench.runner import ProblemRef
    from workbench.screens import PlanScreen
    from workbench.widgets import ProblemPicker

    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        plan_screen = app.screen
        assert isinstance(plan_screen, PlanScreen)
        picker = plan_screen.query_one(ProblemPicker)
        picker.focus()
        assert picker.select(ProblemRef("bridge", "353021"))
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, BridgeScreen)
        assert screen.start.cards_played == 1  # West's recorded lead, dummy to play
        table = screen.query_one(BridgeTable)
        assert "4♥" in table.plain() and "♦6" in table.plain()
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.played is not None and screen.played.is_over
        log = screen.query_one(PlayLog)
        assert len(log.rows_shown) == 13
        # each card declarer chose in the reader's words, as `play --explain` says it ("♦K:
        # to win as cheaply as possible (+626.53); ..."), its plan made when the log asked
        # where the samples chose the card alone: none reads as the samples' bare verdict
        said = " ".join(row.note for row in log.rows_shown)
        assert ": to " in said and "Most tricks on the samples" not in said
        assert not re.search(r"\b[A-Z][A-Za-z]*\([A-Za-z_]\w*=", said)  # no Name(X=...)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is plan_screen
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DealEditorScreen)


async def test_a_bridge_decision_is_planned_in_the_workbench(tmp_path: Path) -> None:
    """`r` on a bridge board plans declarer's decision in the planning process: the
    policy shows Tignum 2's plans at trick 5 of 353021 and the opponents' branches with
    their probabilities."""
    from tests.test_app import labels, run_problem, screen_of
    from workbench.app import WorkbenchApp
    from workbench.runner import ProblemRef
    from workbench.widgets import PlanTree

    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=(130, 40)) as pilot:
        await run_problem(app, pilot, ProblemRef("bridge", "353021-trick5"))
        screen = screen_of(app)
        assert screen.view is not None and screen.view.result.mode == "game"
        tree = screen.query_one(PlanTree)
        await pilot.press("e")  # expand everything
        await pilot.pause()
        # The reader's view: the card and the plan in the knowledge's words, no method names
        reader = "\n".join(labels(tree))
        assert "✓ North leads ♦A: set up a diamond discard for the club losers" in reader
        assert "North leads ♦A: cash all high cards" in reader
        assert "SetUpDiscard" not in reader and "NextTrick" not in reader
        assert "14 other schemes did not apply here" in reader
        assert "opponent ruffs: diamonds 5-1" in reader and "p=0.0529" in reader
        await pilot.press("f", "e")  # the whole tree, as the audit names it
        await pilot.pause()
        text = "\n".join(labels(tree))
        assert "SetUpDiscard(C=♦A)" in text and "CashOut(C=♦A)" in text
        assert "p=" in text  # opponents' branches carry their probabilities
