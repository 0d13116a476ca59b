"""The opening lead read by the conventions, and the samples drawn to agree with it.

The conventional card from each holding is the standard table of opening leads (as taught
in, e.g., the ACBL's "Commonly Used Conventions" and every defence primer): the top of a
sequence (K from KQJx), fourth best from length headed by an honour (4 from K854), never
away from an ace against a suit contract (A from A754), the top of a doubleton (8 from
83) or of nothing (9 from 962), low from three to an honour (2 from Q72); against a suit
contract two touching honours are a sequence (K from KQ3), against notrump they are not (3
from KQ3).  From four small cards players lead either fourth best or top of nothing, and
from an honour doubleton either card.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest

from knowledge.bridge.cards import CARD_NAMES, SUIT_OF, Seat, parse_card
from knowledge.bridge.deal import Contract, Deal, PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.lead_reading import (
    MISREAD,
    conventional_leads,
    lead_weight,
    read_layouts,
)

SPADES = SUIT_OF[parse_card("S2")]


def _mask(*cards: str) -> int:
    out = 0
    for c in cards:
        out |= 1 << parse_card(c)
    return out


@pytest.mark.parametrize(
    ("holding", "trump_contract", "leads"),
    [
        ("K Q J 4", False, "K"),
        ("K 8 5 4", False, "4"),
        ("A 7 5 4", True, "A"),
        ("8 3", True, "8"),
        ("9 6 2", False, "9"),
        ("Q 7 2", False, "2"),
        ("K Q 3", True, "K"),
        ("K Q 3", False, "3"),
        ("A K 3", True, "A"),
        ("9 7 6 2", False, "2 9"),
        ("K 3", False, "3 K"),
        ("J", True, "J"),
    ],
)
def test_the_conventional_lead_from_each_holding(
    holding: str, trump_contract: bool, leads: str
) -> None:
    held = _mask(*(f"S{r}" for r in holding.split()))
    expected = _mask(*(f"S{r}" for r in leads.split()))
    assert conventional_leads(held, SPADES, trump_contract, trumps=False) == expected


def test_any_trump_lead_is_conventional() -> None:
    held = _mask("SK", "S8", "S5", "S4")
    assert conventional_leads(held, SPADES, True, trumps=True) == held


# 3NT by South; West leads the ♠K.  North and South hold no spade honour but the ♠A, so
# the ♠Q and ♠J are with the defenders: by the conventions West holds the ♠Q (K from KQJ
# or KQT, or KQ with a broken sequence); a ♠K led from Kx or K alone is no sequence.
DEAL = Deal.from_pbn("N:A85.AK4.KQ32.K54 T97.J8765.J9.J98 643.QT9.AT54.AQ7 KQJ2.32.876.T632")


def _after_the_lead() -> PlayState:
    state = PlayState.start(DEAL, Contract.parse("3NT"), Seat.S)
    state.play(parse_card("SK"))
    return state


def test_a_layout_agrees_with_the_lead_or_is_kept_with_the_misread_chance() -> None:
    info = declarer_info(_after_the_lead())
    west, east = int(Seat.W), int(Seat.E)
    true = tuple(info.hands[s] if s not in (west, east) else 0 for s in range(4))
    # the real layout: West led the K from KQJ2, the only conventional card
    real = list(true)
    real[west] = DEAL.hands[west] & ~_mask("SK")
    real[east] = DEAL.hands[east]
    assert lead_weight(info, tuple(real)) == 1.0
    # swap the ♠Q to East (for one of East's hearts): the K from KJ2 is no sequence lead
    swapped = list(real)
    swapped[west] = real[west] & ~_mask("SQ") | _mask("HJ")
    swapped[east] = real[east] & ~_mask("HJ") | _mask("SQ")
    assert info.is_consistent(tuple(swapped))
    assert lead_weight(info, tuple(swapped)) == MISREAD


def test_the_samples_put_the_queen_with_the_leader_as_the_lead_says() -> None:
    """The share of sampled layouts with the ♠Q in West's hand matches the exact
    posterior, enumerated over West's spades: each set of the six unseen spades has
    C(19, 12 - k) layouts (West holds 12 more cards, 19 unseen cards are not spades),
    times the lead's weight from K plus that set.  Uniformly the share is near a half;
    read by the lead, well over three quarters.  Drawn again from the same seed, the same."""
    info = declarer_info(_after_the_lead())
    west = int(Seat.W)
    queen = _mask("SQ")
    unseen_spades = [parse_card(f"S{r}") for r in "QJT972"]
    exact = {True: 0.0, False: 0.0}
    prior = {True: 0.0, False: 0.0}
    for k in range(len(unseen_spades) + 1):
        for chosen in combinations(unseen_spades, k):
            held = _mask("SK", *(CARD_NAMES[c] for c in chosen))
            ways = comb(19, 12 - k)
            conventional = conventional_leads(held, SPADES, False, trumps=False)
            w = 1 / conventional.bit_count() if conventional & _mask("SK") else MISREAD
            has_queen = bool(held & queen)
            exact[has_queen] += ways * w
            prior[has_queen] += ways
    posterior = exact[True] / (exact[True] + exact[False])
    uniform_share = prior[True] / (prior[True] + prior[False])
    n = 600
    uniform = info.consistent_layouts(random.Random(7), n)
    read = read_layouts(info, random.Random(7), n)
    share_uniform = sum(bool(h[west] & queen) for h in uniform) / n
    share_read = sum(bool(h[west] & queen) for h in read) / n
    assert share_uniform == pytest.approx(uniform_share, abs=0.06)
    assert share_read == pytest.approx(posterior, abs=0.06)
    assert posterior > 0.75 and uniform_share < 0.55
    assert read == read_layouts(info, random.Random(7), n)


def test_the_first_card_of_a_position_set_up_mid_play_is_no_opening_lead() -> None:
    from knowledge.bridge.cards import parse_hand
    from knowledge.bridge.lead_reading import opening_lead

    # Two cards each, West on lead: the ♠K West leads here is not the deal's opening lead.
    hands = [parse_hand(h) for h in ("A2...", ".KQ..", "43...", "K5...")]
    state = PlayState.from_position(
        hands, 4, Seat.W, declarer=Seat.S, contract=Contract.parse("1NT")
    )
    state.play(parse_card("SK"))
    assert opening_lead(declarer_info(state)) is None
    after_the_lead = declarer_info(_after_the_lead())
    assert opening_lead(after_the_lead) == (int(Seat.W), parse_card("SK"))
