"""The defenders' cards read: layouts where a card a defender chose would have given a
trick away count a tenth (issue 31).

Two checks that do not rest on the module's own bookkeeping: the weights against a
replay of each layout from the deal's first card with the double-dummy solver asked
afresh at every defender's card; and the layout that is really there, which against the
double-dummy defence (every card it plays keeps the defence's tricks) must never be
weighed down.
"""

from __future__ import annotations

import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.bridge.cards import Seat, parse_card
from knowledge.bridge.deal import Contract, Deal, PlayState
from knowledge.bridge.declarers import DoubleDummyDeclarer
from knowledge.bridge.defenders import DoubleDummyDefender
from knowledge.bridge.information import declarer_info, seat_info
from knowledge.bridge.play_reading import MISPLAY, play_weights, read_points
from knowledge.bridge.players import dd_solve
from knowledge.bridge.tofs_player import TieBreak, _settled

# Tune deal T1 (benchmarks/data/tune-seed1.pbn): 2♠ by North, East leads the ♦8.
DEAL = Deal.from_pbn("N:KJ74.J8.AKJ5.AQ6 A.AQT94.82.KT932 Q532.763.T93.875 T986.K52.Q764.J4")
CONTRACT = Contract.parse("2S")


def _played(cards: int) -> PlayState:
    """The deal after ``cards`` cards, the defence and declarer both double dummy."""
    state = PlayState.start(DEAL, CONTRACT, Seat.N)
    state.play(parse_card("D8"))
    declarer, defence = DoubleDummyDeclarer(), DoubleDummyDefender()
    while state.cards_played < cards:
        seat = Seat(state.turn)
        player = declarer if seat in (Seat.N, Seat.S) else defence
        state.play(player.choose(state, seat, seat_info(state, seat)))
    return state


def _replayed_weight(state: PlayState, hands: tuple[int, ...]) -> float:
    """The weight of a layout of the current hands, worked out by replaying the play from
    its first card on the deal the layout makes and asking DDS at every defender's card
    after the lead whether another card of that hand would have kept more tricks."""
    info = declarer_info(state)
    start = list(hands)
    for seat, card in info.plays:
        start[seat] |= 1 << card
    replay = PlayState.from_position(
        start, state.trump, info.plays[0][0], declarer=Seat.N, contract=CONTRACT
    )
    for i, (seat, card) in enumerate(info.plays):
        if i > 0 and seat in info.hidden:
            scores, _ = dd_solve(replay)
            if scores[card] < max(scores.values()):
                return MISPLAY
        replay.play(card)
    return 1.0


@pytest.mark.parametrize("cards", [9, 18, 27])
def test_weights_agree_with_a_replay_of_each_layout(cards: int) -> None:
    state = _played(cards)
    info = declarer_info(state)
    layouts = info.consistent_layouts(random.Random(cards), 12)
    weights = play_weights(info, layouts)
    assert weights == [_replayed_weight(state, h) for h in layouts]
    assert MISPLAY in weights and 1.0 in weights  # the cards read tell layouts apart


@pytest.mark.parametrize("cards", [6, 13, 22, 30])
def test_the_real_layout_is_never_weighed_down_against_double_dummy_defenders(
    cards: int,
) -> None:
    state = _played(cards)
    info = declarer_info(state)
    assert play_weights(info, [tuple(state.hands)]) == [1.0]


def test_no_card_is_read_before_the_defence_has_chosen_one() -> None:
    info = declarer_info(_played(1))
    assert read_points(info) == []  # the opening lead is the lead reading's


def test_the_record_says_what_the_defenders_cards_did() -> None:
    spade = parse_card("S5")
    tie = TieBreak(20, 0.0, {spade: 1.5}, {spade: "Duck"}, spade, unlikely=3)
    assert "3 layouts counted a tenth" in tie.text()
    assert "would have been played" not in tie.text()
    changed = TieBreak(
        20, 0.0, {spade: 1.5}, {spade: "Duck"}, spade, unlikely=1, unread_card=parse_card("SA")
    )
    assert "1 layout counted a tenth" in changed.text()
    assert "every layout alike, ♠A would have been played" in changed.text()
    assert TieBreak(20, 0.0, {spade: 1.5}, {spade: "Duck"}, spade).reading_text() == ""


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 3), min_size=3, max_size=3), min_size=1, max_size=6),
    st.data(),
)
def test_a_settled_card_stays_best_whatever_the_unread_layouts_weigh(
    rows: list[list[int]], data: st.DataObject
) -> None:
    """Where the declarer stops reading, every weighting of the layouts it left unread
    gives the same card the most tricks (brute force over the weights)."""
    cards = [0, 1, 2]
    solved = [({c: row[c] for c in cards}, 0) for row in rows]
    n = len(solved)
    unread = data.draw(st.lists(st.sampled_from(range(n)), unique=True))
    weights = [1.0 if k in unread else data.draw(st.sampled_from([MISPLAY, 1.0])) for k in range(n)]
    if not _settled(solved, weights, unread, cards):
        return
    winners = set()
    for chosen in product([MISPLAY, 1.0], repeat=len(unread)):
        w = list(weights)
        for k, x in zip(unread, chosen, strict=True):
            w[k] = x
        totals = [sum(w[k] * solved[k][0][c] for k in range(n)) for c in cards]
        top = max(totals)
        winners.add(tuple(c for c in cards if totals[c] == top))
    assert len(winners) == 1
