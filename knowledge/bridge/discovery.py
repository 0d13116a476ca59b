"""The discovery play: cash what is sure before a guess, so the guess is taken knowing
more about the defenders' hands.

Monte Carlo double dummy cannot value it: on each sampled layout the guess is no guess,
so cashing first and guessing first score the same, and the card played between them is
whichever its tie rule names.  Declarer at the table knows better: every round of a suit
the defenders follow to, or show out of, changes the vacant places, and with them the
odds of the guess.  So where the samples leave level a card that starts a guess (a suit
whose tricks needed are not sure on every layout, :func:`~.safety.lead_chance`; even its
top card, which starts it) and a winner of another suit (a card above every unseen one
in it), the winner is played first and the reason kept for the explanation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .beliefs import SUIT_NAMES
from .cards import SUIT_MASKS
from .information import Information
from .network import card_text
from .safety import MARGIN, lead_chance

__all__ = ["LAST_TRICKS", "Discovery", "discovery_play"]

LAST_TRICKS = 8
"""Discovery plays only in the last tricks: earlier, a winner cashed "for free" on the
samples gives up control and entries the rest of the hand needs -- on tune deals 1-40,
cashing before the guess from trick 2 on lost two boards and won none (both at trick 2,
each a trick below the plans' card), and the guess is the last decision anyway."""


@dataclass(frozen=True)
class Discovery:
    """A winner cashed before a guess the samples would have taken now."""

    card: int
    """the winner played"""
    instead: int
    """the card that starts the guess, which the samples had level with it"""
    need: int
    """tricks the contract needs from the guess's suit"""
    chance: float
    """the chance of them now, over declarer's information set"""
    seeing: float
    """the chance for a declarer who could see the defenders' cards"""

    def text(self) -> str:
        """One sentence for a bridge reader."""
        suit = SUIT_NAMES[self.instead // 13][:-1]
        return (
            f"Discovery play: {card_text(self.card)}, a sure winner, before the {suit} "
            f"guess ({card_text(self.instead)}, as many tricks on every sampled layout): "
            f"needing {self.need} {suit} trick{'s' * (self.need != 1)}, {self.chance:.0%} "
            f"as things stand ({self.seeing:.0%} for one who could see the cards), the guess "
            f"is taken after the defenders have shown more of their hands"
        )


def _winner(info: Information, card: int) -> bool:
    suit_unseen = info.unseen & SUIT_MASKS[card // 13]
    return suit_unseen.bit_length() <= card


def discovery_play(info: Information, seat: int, level: Sequence[int]) -> Discovery | None:
    """Among ``level`` -- cards the samples leave level, in the order the declarer
    ranks them -- a winner of another suit to cash before the first card that starts a
    guess; None where none starts one, or nothing can be cashed first."""
    if info.trick or len(level) < 2 or info.hands[seat].bit_count() > LAST_TRICKS:
        return None
    chances: dict[int, tuple[int, float, float] | None] = {}

    def chance(suit: int) -> tuple[int, float, float] | None:
        if suit not in chances:
            chances[suit] = lead_chance(info, seat, suit)
        return chances[suit]

    def is_guess(card: int) -> bool:
        # A guess: seeing the cards would make the tricks more often than any line
        # declarer can choose without seeing them (a two-way finesse: always against
        # half the time), not merely a break to hope for (a 3-3 split either way).
        found = chance(card // 13)
        return found is not None and found[1] < found[2] - MARGIN

    guess = next((c for c in level if is_guess(c)), None)
    if guess is None:
        return None
    for card in level:
        if card // 13 != guess // 13 and _winner(info, card) and not is_guess(card):
            need, odds, seeing = chance(guess // 13) or (0, 0.0, 0.0)
            return Discovery(card, guess, need, odds, seeing)
    return None
