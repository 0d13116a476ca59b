"""What the opening lead says about the leader's holding in its suit, and layouts drawn to
agree with it.

A defender leads by conventions every declarer reads: the top of a sequence (the ♠K from
♠KQ..., so the ♠Q is with the leader), fourth best from a long suit headed by an honour,
the top of a doubleton or of nothing, low from three to an honour, and against a suit
contract never away from an ace.  Monte Carlo double dummy draws the defenders' hands as
if any holding could have produced the card led; here a layout whose leader would have led
another card from the suit by those conventions is kept with the chance :data:`MISREAD`
(leaders deviate, and double-dummy defenders do not lead by convention at all), one where
the card is among ``k`` conventional ones with ``1/k``.  Which *suit* was led says less
and is not read: suit choice depends on the auction, which these deals do not have.

The samples then stand for the layouts as likely as the lead makes them (rejection
sampling from the uniform draw of :meth:`~.information.Information.sample`).
"""

from __future__ import annotations

import random

from .cards import RANK_OF, SUIT_MASKS, SUIT_OF
from .defenders import fourth_best, high, low, sequence_lead
from .information import Information

__all__ = ["MISREAD", "conventional_leads", "lead_weight", "opening_lead", "read_layouts"]

MISREAD = 0.1
"""The weight of a layout where the card led is not a conventional lead from the leader's
holding, against 1 where it is the only one."""

DRAWS = 20
"""Layouts drawn at most for each one kept (past it, the last drawn are kept as they
come): a lead the conventions explain on few layouts does not stall the decision."""

_JACK = 11


def conventional_leads(holding: int, suit: int, trump_contract: bool, trumps: bool) -> int:
    """The cards (a mask) the conventions lead from ``holding`` (the leader's cards of
    ``suit`` before the lead) against a suit contract or notrump; ``trumps``: the suit
    is trumps, where any card may be led (a passive lead says little)."""
    m = holding & SUIT_MASKS[suit]
    n = m.bit_count()
    if n <= 1 or trumps:
        return m
    top = high(m)
    seq = sequence_lead(m, suit, trump_contract)
    if seq is not None:
        return 1 << seq
    if trump_contract and RANK_OF[top] == 14:
        return 1 << top  # an ace is not underled against a suit contract
    if RANK_OF[top] < _JACK:  # no honour: top of nothing (or fourth best from four)
        return (1 << top) | (1 << fourth_best(m, suit) if n >= 4 else 0)
    if n == 2:
        return m  # an honour doubleton: the honour or the small one
    return 1 << (fourth_best(m, suit) if n >= 4 else low(m))


def opening_lead(info: Information) -> tuple[int, int] | None:
    """(seat, card) of the opening lead where a hidden hand -- a defender, in declarer's
    view -- made it: the lead there is to read; None before the lead, where it is seen, or
    in a position set up mid-play (cards are absent from play: the first card played there
    was no opening lead)."""
    if not info.plays or info.plays[0][0] not in info.hidden or info.set_up_mid_play:
        return None
    return info.plays[0]


def lead_weight(info: Information, hands: tuple[int, ...]) -> float:
    """How well the opening lead agrees with ``hands`` (a layout of the current hands):
    1/k where it is one of k conventional leads from the leader's holding, :data:`MISREAD`
    where it is none; 1 where there is no lead to read (:func:`opening_lead`)."""
    lead = opening_lead(info)
    if lead is None:
        return 1.0
    seat, card = lead
    suit = SUIT_OF[card]
    holding = (hands[seat] | info.played_by[seat]) & SUIT_MASKS[suit]
    trump_contract = info.trump < 4
    conventional = conventional_leads(holding, suit, trump_contract, suit == info.trump)
    if conventional >> card & 1:
        return 1.0 / conventional.bit_count()
    return MISREAD


def read_layouts(info: Information, rng: random.Random, n: int) -> list[tuple[int, int, int, int]]:
    """``n`` layouts drawn from ``info`` in proportion to :func:`lead_weight` (rejection
    sampling, at most :data:`DRAWS` draws a layout)."""
    if opening_lead(info) is None:
        return info.consistent_layouts(rng, n)  # nothing to read: mcdd's layouts
    kept: list[tuple[int, int, int, int]] = []
    draws = 0
    while len(kept) < n:
        hands = info.sample(rng)
        draws += 1
        weight = lead_weight(info, hands)
        if weight >= 1.0 or draws > DRAWS * n or rng.random() < weight:
            kept.append(hands)
    return kept
