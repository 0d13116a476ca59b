"""Where a declarer's double-dummy tricks go: the breakdown the bridge benchmark prints."""

from __future__ import annotations

from knowledge.bridge.cards import Denom, parse_card
from knowledge.bridge.losses import card_kind, phase_of, where_lost
from knowledge.bridge.match import BoardResult

# Trick 1 the defence's; trick 2: a diamond lead, a follow, a spade ruff, a club discard.
PLAY = ["HK", "H2", "H3", "HA", "D2", "D3", "S4", "C5"]


def test_kinds_of_card() -> None:
    cards = [parse_card(c) for c in PLAY]
    kinds = [card_kind(cards, i, Denom.S) for i in range(4, 8)]
    assert kinds == ["lead", "follow", "ruff", "discard"]
    # at no-trump a spade on a diamond lead is only a discard
    assert card_kind(cards, 6, Denom.NT) == "discard"


def test_phases_are_tricks_1_to_4_5_to_9_and_10_to_13() -> None:
    assert [phase_of(4 * t) for t in (0, 3, 4, 8, 9, 12)] == [
        "opening", "opening", "middle", "middle", "end", "end",
    ]  # fmt: skip


def test_losses_add_up_by_phase_kind_and_scheme() -> None:
    play = PLAY + ["C2", "C3", "C4", "C6"] * 3 + ["C7", "C8", "C9", "CT"]  # 24 cards
    notes: list[str | None] = [None] * 24
    notes[6], notes[7], notes[20] = "[Ruff a heart]", "[Discard a loser]", "[Ruff a heart]"
    r = BoardResult(
        board="1",
        declarer="tofs",
        defense="dd",
        contract="4S",
        declarer_seat="S",
        dd_lost=4,
        dd_losses=[(6, 1), (7, 2), (20, 1)],
        play="".join(play),
        notes=notes,
    )
    unanalysed = BoardResult(board="2", declarer="tofs", defense="dd", contract="4S",
                             declarer_seat="S")  # fmt: skip
    out = where_lost([r, unanalysed])
    assert out.boards == 1
    assert out.by_phase == {"opening": 3, "middle": 1, "end": 0}
    assert out.by_kind == {"lead": 1, "follow": 0, "ruff": 1, "discard": 2}
    assert out.by_scheme == {"Ruff a heart": 2, "Discard a loser": 2}
    assert "4 tricks lost on 1 boards (4.00 a deal)" in out.to_text()
