"""The safety play: within the suit the samples chose to play, the card that is surest of
the tricks the contract needs from it.

The samples pick a card by average double-dummy tricks, and on each sampled layout they
play on seeing every card: they value overtricks like the contract and cannot tell a line
that guards against a bad break from one that guesses it.  Where declarer is leading or
following in a suit that can decide the contract -- any suit at notrump, trumps in a suit
contract (a side suit's analysis would have to know about ruffs) -- the suit is analysed
over declarer's information set (:mod:`.suit_play`) for the tricks the contract still needs
from it, the other suits counted at their top tricks.  When another card of the same suit
is surer of them than the samples' card, it is played instead, and the reason is kept for
the explanation: the layouts it guards against, with their chances, in cards and seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from .beliefs import SUIT_NAMES
from .cards import RANK_CHARS, SUIT_SYMBOLS, Seat, suit_holding
from .deal import Contract
from .information import Information
from .network import card_text
from .scoring import score
from .suit_play import DISCARD, SuitPlay, TooLarge, analyse_lead, analyse_suit

__all__ = [
    "SAFETY_BUDGET",
    "SafetyPlay",
    "holding_text",
    "lead_chance",
    "safety_play",
    "suit_need",
]

SAFETY_BUDGET = 50_000
"""Positions a decision's analysis may examine (a suit with many cards out gives up)."""

MARGIN = 0.005
"""How much surer a card must be to replace the samples' card (a share of layouts)."""


@dataclass(frozen=True)
class SafetyPlay:
    """A card played because it is surer of the tricks needed than the samples' card."""

    suit: int
    need: int
    card: int
    """the card played (0..51)"""
    instead: int
    """the card the samples chose"""
    chance: float
    instead_chance: float
    guards: tuple[tuple[int, int, float, int], ...]
    """(defender seat, its cards of the suit as a card mask, probability, those of the
    cards that stand for any of their class of equals) of the layouts where the card
    played is sure and the samples' card is not, most likely first"""
    cost: float = 0.0
    """how much likelier the samples' card was to make an overtrick"""

    def text(self) -> str:
        """One sentence for a bridge reader: the tricks needed, what each card makes them
        on, and the layouts the safety play guards against."""
        suit_name = SUIT_NAMES[self.suit][:-1]
        sure = (
            "on every layout" if self.chance > 1 - 1e-9 else f"on {self.chance:.0%} of the layouts"
        )
        guards = "; ".join(
            f"{Seat(seat).title} holding {holding_text(self.suit, cards, vague)} ({p:.1%})"
            for seat, cards, p, vague in self.guards[:2]
        )
        more = f" and {len(self.guards) - 2} more layouts" if len(self.guards) > 2 else ""
        cost = f", at the cost of an overtrick on {self.cost:.0%}" if self.cost >= 0.005 else ""
        return (
            f"Safety play: needing {self.need} {suit_name} trick{'s' * (self.need != 1)}, "
            f"{card_text(self.card)} makes them {sure}, {card_text(self.instead)} "
            f"(the samples' card) on {self.instead_chance:.0%}; it guards against "
            f"{guards}{more}{cost}"
        )


def holding_text(suit: int, cards: int, vague: int = 0) -> str:
    """A defender's cards of one suit as a reader writes them: ``♠QT87``, or ``♠QTxx``
    where the cards in ``vague`` stand for any of their class of equals."""
    ranks = [
        "x" if vague >> c & 1 else RANK_CHARS[c - suit * 13]
        for c in range(suit * 13 + 12, suit * 13 - 1, -1)
        if cards >> c & 1
    ]
    return SUIT_SYMBOLS[suit] + "".join(ranks)


@dataclass(frozen=True)
class _Suit:
    """One suit from declarer's information set, as the suit analysis takes it."""

    hands: dict[int, int]
    """declarer's and dummy's ranks, by seat"""
    missing: int
    vacant: dict[int, int]
    voids: list[int]


def _suit(info: Information, suit: int) -> _Suit:
    decl, dummy = int(info.declarer), int(info.dummy)
    hands = {s: suit_holding(info.hands[s], suit) for s in (decl, dummy)}
    defenders = [s for s in range(4) if s not in hands]
    return _Suit(
        hands,
        suit_holding(info.unseen, suit),
        {s: info.counts[s] for s in defenders},
        [s for s in defenders if info.is_void(s, suit)],
    )


def _top_tricks(info: Information, suit: int) -> int:
    """Declarer's sure tricks in ``suit`` on top: the cards above every unseen one, as many
    as the longer hand can cash."""
    decl, dummy = int(info.declarer), int(info.dummy)
    ours = suit_holding(info.hands[decl], suit), suit_holding(info.hands[dummy], suit)
    unseen = suit_holding(info.unseen, suit)
    top = unseen.bit_length()
    winners = ((ours[0] | ours[1]) >> top).bit_count()
    return min(winners, max(ours[0].bit_count(), ours[1].bit_count()))


def suit_need(info: Information, suit: int) -> int:
    """Tricks the contract still needs from ``suit``: what is left to make, less the top
    tricks of the other suits (the current trick is this suit's, when it is under way)."""
    side = int(info.declarer) & 1
    left = info.tricks_needed - info.won[side]
    return left - sum(_top_tricks(info, t) for t in range(4) if t != suit)


def safety_play(
    info: Information,
    seat: int,
    card: int,
    *,
    vulnerable: bool = False,
    budget: int = SAFETY_BUDGET,
) -> SafetyPlay | None:
    """The card of ``card``'s suit surest of the tricks the contract needs from the suit,
    where it is surer than ``card`` (the samples' choice) by more than :data:`MARGIN` and
    worth more on the score.  A safety play pays for the contract with overtricks: it is
    made where the contract's chances are worth more than the overtricks' (the expected
    score over the layouts, one trick either side of the need counted).  None where the
    suit is not one to analyse, nothing is at stake, or it is too large."""
    suit = card // 13
    contract = info.contract
    if contract is None or (info.trump < 4 and suit != info.trump):
        return None
    trick = info.trick
    if trick and trick[0] // 13 != suit:
        return None
    at = _suit(info, suit)
    hands, missing, vacant, voids = at.hands, at.missing, at.vacant, at.voids
    need = suit_need(info, suit)
    most = max(h.bit_count() for h in hands.values()) + (1 if trick else 0)
    if need < 1 or need > most:
        return None
    seats = [(int(info.leader) + i) & 3 for i in range(len(trick))]
    played = [
        (s, c - suit * 13 if c // 13 == suit else DISCARD)
        for s, c in zip(seats, trick, strict=True)
    ]

    def analyse(tricks: int) -> SuitPlay:
        if played:
            return analyse_suit(hands, missing, vacant, tricks, played, voids=voids, budget=budget)
        return analyse_lead(hands, missing, vacant, tricks, seat, voids=voids, budget=budget)

    try:
        analyses = {need: analyse(need)}
        chosen = analyses[need].line(card - suit * 13)
        # Only a card surer of the need than the samples' can replace theirs: where none
        # is, the analyses one trick either side (for the score) are not made.
        if chosen is None or all(
            line.chance <= chosen.chance + MARGIN for line in analyses[need].lines
        ):
            return None
        analyses.update({t: analyse(t) for t in (need - 1, need + 1) if 1 <= t <= most})
    except TooLarge:
        return None

    def chance(rank: int, tricks: int) -> float:
        if tricks < 1:
            return 1.0
        found = analyses[tricks].line(rank) if tricks in analyses else None
        return found.chance if found is not None else 0.0

    base = info.tricks_needed - need  # what the rest of the hand is counted to make
    worth = {
        line.card: _expected(contract, vulnerable, base, need, partial(chance, line.card))
        for line in analyses[need].lines
    }
    best = max(analyses[need].lines, key=lambda line: (worth[line.card], line.chance, -line.card))
    if best.card == chosen.card or best.chance <= chosen.chance + MARGIN:
        return None
    if worth[best.card] <= worth[chosen.card]:
        return None
    shift = suit * 13
    guards = tuple(
        (s, held << shift, p, vague << shift)
        for s, held, p, vague in analyses[need].guarded(best, chosen)
    )
    cost = max(0.0, chance(chosen.card, need + 1) - chance(best.card, need + 1))
    return SafetyPlay(
        suit, need, suit * 13 + best.card, card, best.chance, chosen.chance, guards, cost
    )


def _expected(
    contract: Contract, vulnerable: bool, base: int, need: int, at_least: Callable[[int], float]
) -> float:
    """The expected score where the suit makes at least ``t`` tricks with the chance
    ``at_least(t)``: an overtrick, the contract, one down, or two down (or more)."""
    out, above = 0.0, 0.0
    for t in (need + 1, need, need - 1):
        p = at_least(t)
        out += (p - above) * score(contract, vulnerable, max(0, min(13, base + t)))
        above = p
    return out + (1 - above) * score(contract, vulnerable, max(0, base + need - 2))


def lead_chance(
    info: Information, seat: int, suit: int, *, budget: int = SAFETY_BUDGET
) -> tuple[int, float, float] | None:
    """The tricks the contract needs from ``suit``, the chance of them led now from
    ``seat`` by its best card over declarer's information set, and the chance a
    declarer seeing every card would have; None where the suit is not one to analyse,
    nothing is needed from it, or it is too large."""
    if info.contract is None or (info.trump < 4 and suit != info.trump) or info.trick:
        return None
    at = _suit(info, suit)
    need = suit_need(info, suit)
    if need < 1 or not at.hands[seat]:
        return None
    if need > max(h.bit_count() for h in at.hands.values()):
        return need, 0.0, 0.0
    try:
        play = analyse_lead(
            at.hands, at.missing, at.vacant, need, seat, voids=at.voids, budget=budget
        )
    except TooLarge:
        return None
    return need, play.best().chance, play.seeing()
