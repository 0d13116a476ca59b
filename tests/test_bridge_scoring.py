"""Duplicate scoring against endplay's independent implementation, plus classic hands."""

from __future__ import annotations

import pytest

from knowledge.bridge.cards import Denom, Seat
from knowledge.bridge.deal import Contract, Doubling, Vul
from knowledge.bridge.scoring import (
    IMP_TABLE,
    BoardResult,
    board_a_match,
    imps,
    score,
    score_ns,
    trick_score,
    undertrick_penalty,
)


def test_full_grid_matches_endplay() -> None:
    """Every level, strain, doubling, vulnerability and trick count 0..13 (7,280 cases)."""
    from endplay.types import Vul as EpVul

    n = 0
    for level in range(1, 8):
        for denom in Denom:
            for doubling in Doubling:
                contract = Contract(level, denom, doubling)
                for vulnerable in (False, True):
                    for tricks in range(14):
                        ep = contract.to_endplay(Seat.N, tricks)
                        expect = ep.score(EpVul.ns if vulnerable else EpVul.none)
                        assert score(contract, vulnerable, tricks) == expect, (
                            str(contract),
                            vulnerable,
                            tricks,
                        )
                        n += 1
    assert n == 7 * 5 * 3 * 2 * 14


@pytest.mark.parametrize(
    ("contract", "vul", "tricks", "points"),
    [
        ("4H", False, 10, 420),
        ("4H", True, 10, 620),
        ("3NT", False, 10, 430),
        ("1NTX", True, 6, -200),
        ("7NTXX", True, 13, 2980),
        ("2S", False, 8, 110),  # part-score: 60 + 50
        ("2SX", False, 8, 470),  # doubled into game: 120 + 300 + 50 insult
        ("1CXX", True, 9, 80 + 50 + 100 + 2 * 400),  # part-score, insult, 2 overtricks
        ("5D", False, 11, 400),
        ("6S", True, 12, 1430),
        ("7C", False, 13, 1440),
        ("3NTX", False, 4, -1100),  # down 5: 100 + 200 + 200 + 300 + 300
        ("3NTX", True, 4, -1400),  # down 5: 200 + 300 * 4
        ("3NTXX", False, 7, -600),  # down 2: twice (100 + 200)
        ("4S", True, 7, -300),
        ("4S", False, 0, -500),
    ],
)
def test_classic_scores(contract: str, vul: bool, tricks: int, points: int) -> None:
    assert score(Contract.parse(contract), vul, tricks) == points


def test_components() -> None:
    assert trick_score(Contract.parse("3NT")) == 100
    assert trick_score(Contract.parse("4HX")) == 240
    assert trick_score(Contract.parse("1DXX")) == 80
    assert [undertrick_penalty(d, Doubling.X, False) for d in range(1, 6)] == [
        100,
        300,
        500,
        800,
        1100,
    ]
    assert [undertrick_penalty(d, Doubling.X, True) for d in range(1, 4)] == [200, 500, 800]
    assert undertrick_penalty(13, Doubling.XX, True) == 2 * (200 + 300 * 12)
    with pytest.raises(ValueError):
        score(Contract.parse("1NT"), False, 14)


def test_score_from_north_south() -> None:
    c = Contract.parse("4S")
    assert score_ns(c, Seat.S, Vul.NS, 10) == 620
    assert score_ns(c, Seat.E, Vul.NS, 10) == -420
    assert score_ns(c, Seat.W, Vul.BOTH, 9) == 100
    assert score_ns(None, Seat.N, Vul.BOTH, 0) == 0


def test_imp_scale() -> None:
    assert imps(0) == imps(10) == 0
    assert imps(20) == 1 and imps(40) == 1 and imps(50) == 2
    assert imps(420 - 170) == 6  # game against part-score in the other room
    assert imps(-(620 + 200)) == -13
    assert imps(1430 + 100) == 17
    assert imps(3990) == 23 and imps(4000) == 24 and imps(7600) == 24
    # each bound is the last difference of its band
    for i, top in enumerate(IMP_TABLE):
        assert imps(top) == i and imps(top + 10) == i + 1


def test_board_a_match() -> None:
    assert board_a_match(420, 170) is BoardResult.WIN
    assert board_a_match(450, 420) is BoardResult.WIN  # an overtrick wins the board
    assert board_a_match(-50, -50) is BoardResult.TIE and BoardResult.TIE.points == 0.5
    assert board_a_match(100, 110) is BoardResult.LOSS and BoardResult.LOSS.points == 0
