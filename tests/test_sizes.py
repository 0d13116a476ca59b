"""True at any size: what the screens draw at 80x24, 120x40 and 160x50 (issue 29).

These tests read the *rendered screen* (the characters the compositor would send to the
terminal), not the widgets' own text, so a hand that a too-narrow grid pushes out of sight
fails them.  Golden cards come from the PBN deals in the repository, read with the card
core; the expected texts are the deals' own holdings, not program output.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from textual.widget import Widget

from knowledge.bridge.cards import SUIT_SYMBOLS, Seat, hand_to_pbn
from knowledge.bridge.deal import PlayState
from knowledge.bridge.pbn import BoardRecord, read_pbn
from workbench.app import WorkbenchApp
from workbench.domains.bridge.hand_diagram import HandDiagram
from workbench.domains.bridge.play_log import PlayLog
from workbench.domains.bridge.table import BridgeTable
from workbench.domains.bridge.view import BridgeScreen
from workbench.runner import ProblemRef
from workbench.widgets import ProblemPicker

SIZES = [(80, 24), (120, 40), (160, 50)]
DEALS = Path(__file__).resolve().parent.parent / "knowledge" / "bridge" / "deals"
SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def board(name: str) -> BoardRecord:
    return read_pbn(DEALS / f"{name}.pbn")[0]


def before_the_lead(record: BoardRecord) -> PlayState:
    """The deal with no card played: all 52 cards in the hands."""
    assert record.contract is not None and record.declarer is not None
    return PlayState.from_position(
        record.deal.hands,
        record.contract.denom,
        record.declarer.next,
        declarer=record.declarer,
        contract=record.contract,
    )


def screen_lines(app: App[Any]) -> list[str]:
    return [strip.text for strip in app.screen._compositor.render_strips()]


def drawn(app: App[Any], widget: Widget) -> list[str]:
    """The screen's characters inside ``widget``'s region (what the user sees of it),
    blank lines (padding) left out."""
    r = widget.region
    lines = [line[r.x : r.right] for line in screen_lines(app)[r.y : r.bottom]]
    return [line for line in lines if line.strip()]


def holdings(lines: list[str]) -> dict[str, str]:
    """Suit symbol -> ranks, read off drawn suit lines ('♠ AJ6', '♦ —')."""
    out: dict[str, str] = {}
    for line in lines:
        m = re.match(r"\s*([♠♥♦♣]) (\S+)", line)
        if m:
            out[m.group(1)] = "" if m.group(2) == "—" else m.group(2)
    return out


class BoardHost(App[None]):
    """The workbench's bridge screen on a board before the lead."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.record = board(name)
        self.name_ = name

    def on_mount(self) -> None:
        self.push_screen(BridgeScreen(self.record, self.name_, before_the_lead(self.record)))

    def compose(self) -> ComposeResult:
        return iter(())


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", ["353306", "353021"])
async def test_the_table_draws_all_52_cards_whole(name: str, size: tuple[int, int]) -> None:
    """Each hand's four suits are on screen in full, so the four hands hold the 52 cards,
    and no hand's line ends in an ellipsis or runs past the table's border."""
    app = BoardHost(name)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        table = app.screen.query_one(BridgeTable)
        assert table.region.right <= size[0]
        seen: list[str] = []
        for seat in SEATS:
            diagram = table.hand(seat)
            lines = drawn(app, diagram)
            assert not any("…" in line for line in lines), (seat, lines)
            assert diagram.region.right <= table.region.right - 1  # inside the border
            got = holdings(lines)
            pbn = hand_to_pbn(app.record.deal.hands[seat]).split(".")
            want = dict(zip(SUIT_SYMBOLS, pbn, strict=True))
            assert got == want, (seat, lines)
            seen += [f"{suit}{rank}" for suit, ranks in got.items() for rank in ranks]
        assert len(seen) == len(set(seen)) == 52


async def press_v_on(app: WorkbenchApp, pilot: Pilot[None], name: str) -> BridgeScreen:
    await pilot.pause()
    picker = app.screen.query_one(ProblemPicker)
    picker.focus()
    assert picker.select(ProblemRef("bridge", name))
    await pilot.pause()
    await pilot.press("v")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, BridgeScreen)
    return screen


async def test_easts_hand_is_whole_at_120x40(tmp_path: Path) -> None:
    """The issue's case: board 353306 at 120x40 showed East as '♥ KJ ♦ KQ ♣ A8' under
    '▶ Ea'; the deal gives East ♥KJ6 ♦KQT ♣A8643, dummy, East to play."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await press_v_on(app, pilot, "353306")
        east = drawn(app, screen.query_one(BridgeTable).hand(Seat.E))
        assert east[0].strip() in ("▶ East (dummy)", "▶ E dummy")
        assert holdings(east) == {"♠": "74", "♥": "KJ6", "♦": "KQT", "♣": "A8643"}


async def test_east_is_drawn_at_80x24(tmp_path: Path) -> None:
    """353021 at trick 5 at 80x24: East was not drawn at all.  After four tricks East
    holds ♠T9743 ♦T9 ♣Q7 (the deal's ♠T9743 ♥T5 ♦T98 ♣Q87 less ♥5 ♥T ♦8 ♣8)."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await press_v_on(app, pilot, "353021-trick5")
        table = screen.query_one(BridgeTable)
        assert table.region.right <= 80
        east = drawn(app, table.hand(Seat.E))
        assert east[0].strip().startswith("E")
        assert holdings(east) == {"♠": "T9743", "♥": "", "♦": "T9", "♣": "Q7"}


async def test_the_play_log_wraps_its_notes(tmp_path: Path) -> None:
    """After playing 353021 out, every word of every note is on screen in the log (the
    Note column used to be cut to '♠4: [Foll')."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await press_v_on(app, pilot, "353021")
        await pilot.press("p")
        await app.workers.wait_for_complete()
        await pilot.pause()
        log = screen.query_one(PlayLog)
        assert len(log.rows_shown) == 13
        text = " ".join(drawn(app, log))
        words = {w for row in log.rows_shown for w in row.note.split()}
        assert "follow" in words  # the notes are there to be checked ("to follow low")
        missing = [w for w in words if w not in text]
        assert not missing, missing


async def test_a_diagram_too_narrow_says_so() -> None:
    """Given less room than its lines need, a hand ends them in '…' rather than cutting."""

    class Narrow(App[None]):
        def compose(self) -> ComposeResult:
            diagram = HandDiagram(Seat.W, board("353306").deal.hands[Seat.W])
            diagram.styles.width = 5  # three columns inside its padding
            yield diagram

    app = Narrow()
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        lines = drawn(app, app.query_one(HandDiagram))
        assert lines[0].strip() == "We…"
        assert any(line.rstrip().endswith("…") for line in lines[1:])


async def test_rum1_says_why_at_80x24(tmp_path: Path) -> None:
    """At 80x24 a run's outcome and its reason are in view when the run ends: RUM1 cannot
    be made because one hole's tolerance is tighter than the shop can hold."""
    from tests.test_app import run_problem

    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=(80, 24)) as pilot:
        await run_problem(app, pilot, ProblemRef("edaps", "RUM1"))
        await pilot.pause()
        pane = app.screen.query_one("#explanation")
        seen = " ".join(line.strip("│ ") for line in drawn(app, pane))
        seen = re.sub(r"\s+", " ", seen)
        assert "This design cannot be made as it stands." in seen
        assert "Loosen its tolerance to 2.00 mils or more." in seen
        assert pane.outer_size.height >= (24 - 3) // 2
