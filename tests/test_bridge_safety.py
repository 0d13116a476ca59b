"""Safety plays: one suit analysed over declarer's information set (issue 31).

The golden answers come from bridge texts, not from the program:

* Mike Graham, "Safety Plays" (World Bridge Federation youth pages): with A J 6 5 in dummy
  opposite K 9 4 3, needing three tricks, "there is a guaranteed safety play for three
  tricks ... we play the ace first"; then low from dummy, the nine if East follows low,
  and if East shows out the king and a lead towards the jack.
* Al Holstein, "How to handle common suit-combinations" (table, line 1): A 10 3 2
  opposite Q 8 7 6 5 4, losing no more than one trick: "The only problem is a 3/0
  distribution. You must play low against the Q."

The chances are checked against the hypergeometric split odds, computed in the test.
"""

from __future__ import annotations

from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.bridge.cards import Seat, parse_hand
from knowledge.bridge.deal import Contract, PlayState
from knowledge.bridge.declarers import MonteCarloDeclarer
from knowledge.bridge.information import declarer_info
from knowledge.bridge.play_reader import decision_view, explained_decisions
from knowledge.bridge.safety import safety_play, suit_need
from knowledge.bridge.suit_play import SuitPlay, TooLarge, analyse_lead, analyse_suit
from knowledge.bridge.tofs_player import TofsDeclarer

RANKS = "23456789TJQKA"
N, E, S, W = 0, 1, 2, 3
FULL = {E: 13, W: 13}  # the vacant places before a card is played


def ranks(text: str) -> int:
    return sum(1 << RANKS.index(ch) for ch in text)


def missing(*ours: str) -> int:
    return 0x1FFF & ~sum(ranks(h) for h in ours)


def chances(play: SuitPlay) -> dict[str, float]:
    return {RANKS[line.card]: line.chance for line in play.lines}


# --------------------------------------------------------------- the suit, from the books


def test_graham_ace_first_is_the_only_sure_way_to_three_tricks() -> None:
    play = analyse_lead({N: ranks("AJ65"), S: ranks("K943")}, missing("AJ65", "K943"), FULL, 3, N)
    got = chances(play)
    assert got["A"] == pytest.approx(1.0)
    assert all(c < 0.99 for r, c in got.items() if r != "A")
    assert RANKS[play.best().card] == "A"


def test_graham_second_round_nine_when_east_follows_low_king_when_east_shows_out() -> None:
    # The ace went first (East the 2, South the 3, West the 7); dummy leads the 5.
    hands = {N: ranks("J6"), S: ranks("K94")}
    left = missing("AJ65", "K943") & ~ranks("27")
    five, eight = RANKS.index("5"), RANKS.index("8")
    east_low = analyse_suit(hands, left & ~ranks("8"), {E: 11, W: 12}, 2, [(N, five), (E, eight)])
    assert chances(east_low)["9"] == pytest.approx(1.0)
    assert chances(east_low)["K"] < 1.0  # East's Q T over dummy's jack
    assert chances(east_low)["4"] < 1.0
    # East shows out: West holds Q T 8; the king, then towards the jack.
    shows_out = analyse_suit(hands, left, {E: 11, W: 12}, 2, [(N, five), (E, -1)])
    assert chances(shows_out)["K"] == pytest.approx(1.0)
    assert shows_out.best().card == RANKS.index("K")


def test_holstein_low_towards_the_queen_guards_against_three_nil() -> None:
    hands = {N: ranks("AT32"), S: ranks("Q87654")}
    out = missing("AT32", "Q87654")
    from_ace = chances(analyse_lead(hands, out, FULL, 5, N))
    assert from_ace["2"] == pytest.approx(1.0)
    assert from_ace["A"] < 1.0
    from_queen = chances(analyse_lead(hands, out, FULL, 5, S))
    assert from_queen["4"] == pytest.approx(1.0)
    assert from_queen["Q"] < 1.0


def _split(k: int, cards: int = 5) -> float:
    """The chance one defender holds a given ``k`` of the ``cards`` missing (13 each)."""
    return comb(26 - cards, 13 - k) / comb(26, 13)


def test_four_tricks_low_towards_the_ace_jack_has_the_split_odds() -> None:
    """Four tricks from A J 6 5 opposite K 9 4 3: the queen with West, singleton,
    doubleton or tripleton (low towards A J, the ace on a singleton queen, else the jack)."""
    want = _split(1) + 4 * _split(2) + 6 * _split(3)
    play = analyse_lead({N: ranks("AJ65"), S: ranks("K943")}, missing("AJ65", "K943"), FULL, 4, S)
    assert chances(play)["3"] == pytest.approx(want)
    assert play.best().chance == pytest.approx(want)


def test_a_sure_suit_and_an_impossible_one() -> None:
    top = analyse_lead({N: ranks("AKQ2"), S: ranks("543")}, missing("AKQ2", "543"), FULL, 3, S)
    assert all(line.chance == pytest.approx(1.0) for line in top.lines)
    short = analyse_lead({N: ranks("AK432"), S: ranks("J5")}, missing("AK432", "J5"), FULL, 5, S)
    assert all(line.chance == 0 for line in short.lines)


def test_a_large_suit_gives_up_rather_than_run_on() -> None:
    with pytest.raises(TooLarge):
        analyse_lead(
            {N: ranks("AQ32"), S: ranks("J54")}, missing("AQ32", "J54"), FULL, 3, S, budget=50
        )


def test_wide_fronts_count_against_the_budget() -> None:
    """K Q T 8 6 opposite a singleton, seven cards out in seven classes: few positions,
    but the defenders' fronts of world sets multiply at every card they play.  Counting
    only positions, the safety play's budget let this run for minutes on a board of the
    report set (R34); the pairs of fronts now count, and it gives up."""
    with pytest.raises(TooLarge):
        analyse_lead(
            {N: ranks("KQT86"), S: ranks("3")}, missing("KQT86", "3"), FULL, 3, S, budget=50_000
        )


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**13 - 1), st.integers(0, 2**13 - 1), st.integers(1, 4))
def test_chances_are_probabilities_and_the_best_is_best(north: int, south: int, need: int) -> None:
    """Any two holdings: each line's chance is in [0, 1], the best line's is the largest,
    and more tricks are never likelier than fewer."""
    south &= ~north
    if not north or not south or (north | south).bit_count() > 9:
        return
    out = 0x1FFF & ~(north | south)
    try:
        play = analyse_lead({N: north, S: south}, out, FULL, need, N, budget=20_000)
        fewer = analyse_lead({N: north, S: south}, out, FULL, max(1, need - 1), N, budget=20_000)
    except TooLarge:
        return
    assert all(0 <= line.chance <= 1 + 1e-9 for line in play.lines)
    assert play.best().chance == max(line.chance for line in play.lines)
    assert fewer.best().chance >= play.best().chance - 1e-9


# --------------------------------------------------------------- at the table


def _ending() -> PlayState:
    """Graham's suit as the last four tricks of 3NT, dummy (North) on lead, six tricks in:
    three more are needed, from spades alone.  East holds Q T 8 7, the layout the ace
    first guards against."""
    hands = [parse_hand(h) for h in ("AJ65...", "QT87...", "K943...", "2.QJT..")]
    return PlayState.from_position(
        hands, 4, Seat.N, won=(6, 3), declarer=Seat.S, contract=Contract.parse("3NT")
    )


def test_the_tricks_needed_from_the_suit() -> None:
    info = declarer_info(_ending())
    assert suit_need(info, 0) == 3


def test_tofs_plays_the_safety_play_and_says_why_where_the_samples_would_not() -> None:
    state = _ending()
    info = declarer_info(state)
    player = TofsDeclarer()
    card = player.choose(state, Seat.N, info)
    assert card == 12  # the spade ace
    decision = player.decisions[-1]
    safety = decision.safety
    assert safety is not None and safety.card == 12
    assert safety.chance == pytest.approx(1.0) and safety.instead_chance < 1.0
    assert safety.instead != 12  # the samples' own card was another spade
    tie = decision.tiebreak
    assert tie is not None and tie.tricks[safety.instead] >= tie.tricks[12]
    assert all(seat in (E, W) for seat, _, _, _ in safety.guards)
    text = safety.text()
    assert text.startswith(
        "Safety play: needing 3 spade tricks, \u2660A makes them on every layout"
    )
    assert "guards against" in text and "holding \u2660Q" in text
    assert player.note == "[Safety play]"
    # Monte Carlo double dummy on its own samples: it averages tricks, plays the low spade
    # and keeps no reason.
    mcdd = MonteCarloDeclarer(seed=0)
    assert mcdd.choose(state, Seat.N, info) != 12
    assert mcdd.last_scores[3] > mcdd.last_scores[12]
    assert mcdd.note is None


def test_the_readers_view_says_it_is_a_safety_play() -> None:
    state = _ending()
    player = TofsDeclarer()
    player.choose(state, Seat.N, declarer_info(state))
    [(decision, point, explanation)] = explained_decisions(player)
    view = decision_view(explanation, point.node, decision.tiebreak, decision.safety)
    assert view is not None
    assert view.verdict.startswith("Safety play: needing 3 spade tricks")


def test_the_ablation_plays_the_samples_card() -> None:
    state = _ending()
    player = TofsDeclarer(safety=False)
    assert player.choose(state, Seat.N, declarer_info(state)) != 12
    assert player.decisions[-1].safety is None


def test_no_safety_play_outside_the_trump_suit_of_a_suit_contract() -> None:
    state = _ending()
    info = declarer_info(state)
    hearts = PlayState.from_position(
        [state.hands[s] for s in range(4)],
        1,
        Seat.N,
        won=(6, 3),
        declarer=Seat.S,
        contract=Contract.parse("3H"),
    )
    assert safety_play(info, N, 3) is not None  # at notrump the low spade is replaced
    assert safety_play(declarer_info(hearts), N, 3) is None
