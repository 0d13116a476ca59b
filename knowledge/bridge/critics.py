"""Critics for the defenders' moves: is the card actually played "equivalent" to the
planned one, so that declarer can carry on with the plan instead of re-planning?

Smith 1997 (§5.3, §5.4.3) found that without critics Tignum re-planned after almost every
card.  Equivalence is judged *relative to declarer's and dummy's cards*: two defender
cards of one suit are equivalent when none of our cards (in hand or on the table) ranks
between them -- the ♦8 does what the planned ♦T does when our ♦Q and ♦2 surround both, but
the ♣8 is not the planned ♣3 when our ♣5 and ♣4 lie between.  A planned card that is no
longer unseen (the other defender has just played it) means the plan's picture of the
deal is wrong: rejected.  Two discards are equivalent whatever their suits.
"""

from __future__ import annotations

from engine.critics import Critic, CriticRegistry
from knowledge.bridge.cards import SUIT_OF
from knowledge.bridge.position import Position

__all__ = ["BridgeDiscard", "BridgeEquivalent", "BridgeLead", "critics", "equivalent_for_us"]

Move = tuple[str, tuple[object, ...]]


def equivalent_for_us(pos: Position, planned: int, actual: int) -> bool:
    """Same suit and no card of ours (held or on the table) ranked between them."""
    if SUIT_OF[planned] != SUIT_OF[actual]:
        return False
    lo, hi = sorted((planned, actual))
    ours = pos.ours
    for _, c in pos.trick:
        ours |= 1 << c  # cards on the table decide the trick too
    between = ours & ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)
    return not between


def _cards(planned: Move, actual: Move) -> tuple[int, int, int, int] | None:
    (_, pargs), (_, aargs) = planned, actual
    if len(pargs) < 2 or len(aargs) < 2:
        return None
    return int(pargs[0]), int(pargs[1]), int(aargs[0]), int(aargs[1])  # type: ignore[arg-type]


class BridgeEquivalent(Critic):
    name = "bridge-equivalent"
    description = ("The same seat plays a card no card of declarer's or dummy's separates "
                   "from the planned one, and the planned card is still unseen.")

    def accepts(self, state: Position, planned: Move, actual: Move) -> bool:
        cards = _cards(planned, actual)
        if cards is None:
            return False
        pseat, pcard, aseat, acard = cards
        if pseat != aseat:
            return False
        if pcard == acard:
            return True
        if not state.unseen >> pcard & 1:
            return False  # someone else already played it: the plan's picture is wrong
        return equivalent_for_us(state, pcard, acard)


class BridgeLead(BridgeEquivalent):
    name = "bridge-lead"
    description = "A lead of the planned suit that our cards do not tell from the planned card."


class BridgeDiscard(Critic):
    name = "bridge-discard"
    description = "Any discard is as good as the planned discard (neither follows nor ruffs)."

    def accepts(self, state: Position, planned: Move, actual: Move) -> bool:
        cards = _cards(planned, actual)
        if cards is None or cards[0] != cards[2]:
            return False
        led = state.led_suit()
        trump = state.table.trump
        return led is not None and SUIT_OF[cards[3]] not in (led, trump)


critics = CriticRegistry()
for _cls in (BridgeEquivalent, BridgeLead, BridgeDiscard):
    critics.register(_cls)
