"""Discovery plays: a sure winner cashed before a guess (issue 31).

The standard case is the two-way finesse: with K J 3 opposite A T 2 declarer can finesse
for the queen either way, always right seeing the cards and right about half the time
without.  The books' advice is to take such a guess last, after the other suits have
shown how the defenders' hands are made.  Monte Carlo double dummy cannot see the point:
on every sampled layout the finesse goes the right way, so cashing first and guessing
first score alike, and its rule for level cards (the lowest) picks the guess.
"""

from __future__ import annotations

import random

import pytest

from knowledge.bridge.cards import Seat, parse_card, parse_hand
from knowledge.bridge.deal import Contract, PlayState
from knowledge.bridge.discovery import discovery_play
from knowledge.bridge.information import declarer_info
from knowledge.bridge.play_reader import decision_view, explained_decisions
from knowledge.bridge.players import dd_solve_many, lowest_first
from knowledge.bridge.safety import lead_chance
from knowledge.bridge.tofs_player import TofsDeclarer

N, E, S, W = 0, 1, 2, 3


def _ending() -> PlayState:
    """3NT, five tricks played (three to declarer), dummy on lead with eight cards each:
    the diamonds give three tricks on top, the clubs must give three more -- the queen
    guessed."""
    hands = [parse_hand(h) for h in (".2.AKQ5.KJ3", ".A.76.Q9876", "2.3.432.AT2", "AK..JT98.54")]
    return PlayState.from_position(
        hands, 4, Seat.N, won=(3, 2), declarer=Seat.S, contract=Contract.parse("3NT")
    )


def test_the_clubs_are_a_guess_and_the_diamonds_are_not() -> None:
    info = declarer_info(_ending())
    need, chance, seeing = lead_chance(info, N, 3) or (0, 0.0, 0.0)
    assert need == 3
    assert seeing == pytest.approx(1.0)  # seeing the cards, one finesse or the other wins
    assert 0.4 < chance < 0.6  # without: about half the time
    # the fourth diamond needs a 3-3 break: a hope, not a guess -- seeing the cards
    # would not make it likelier
    need, chance, seeing = lead_chance(info, N, 2) or (0, 0.0, 0.0)
    assert need == 4 and chance == pytest.approx(seeing)


def test_a_winner_is_cashed_before_the_guess() -> None:
    info = declarer_info(_ending())
    ace, jack = parse_card("DA"), parse_card("CJ")
    found = discovery_play(info, N, [jack, ace])
    assert found is not None and found.card == ace and found.instead == jack
    assert found.need == 3 and found.seeing == pytest.approx(1.0)
    assert discovery_play(info, N, [ace, parse_card("DK")]) is None  # no guess among them


def test_tofs_cashes_first_and_says_why_where_the_samples_would_guess_now() -> None:
    state = _ending()
    info = declarer_info(state)
    player = TofsDeclarer()
    card = player.choose(state, Seat.N, info)
    assert card // 13 == 2 and card > parse_card("DJ")  # a top diamond
    tie = player.decisions[-1].tiebreak
    assert tie is not None and tie.discovery is not None
    assert tie.discovery.card == card and tie.discovery.instead // 13 == 3
    assert tie.tricks[card] == tie.tricks[tie.discovery.instead]  # level on the samples
    assert tie.ranked == "the discovery play"
    text = tie.discovery.text()
    assert text.startswith("Discovery play:") and "club guess" in text
    # mcdd's rule on the same layouts: every card's average tricks, the lowest of the best
    layouts = info.consistent_layouts(random.Random(player.seed * 64 + len(info.plays)), 12)
    solved = dd_solve_many([(h, info.trump, int(info.leader), info.trick) for h in layouts])
    average: dict[int, float] = {}
    for scores, _ in solved:
        for c, v in scores.items():
            average[c] = average.get(c, 0.0) + v / len(solved)
    top = max(average.values())
    assert lowest_first([c for c, v in average.items() if v == top]) // 13 == 3  # a club
    # the reader's view says it
    [(decision, point, explanation)] = explained_decisions(player)
    view = decision_view(explanation, point.node, decision.tiebreak, decision.safety)
    assert view is not None and "Discovery play:" in view.verdict


def test_the_ablation_keeps_no_discovery() -> None:
    state = _ending()
    player = TofsDeclarer(discovery=False)
    player.choose(state, Seat.N, declarer_info(state))
    tie = player.decisions[-1].tiebreak
    assert tie is not None and tie.discovery is None
