"""Critics for the defenders' moves: is the card actually played "equivalent" to the
planned one, so that declarer can carry on with the plan instead of re-planning?

Smith 1997 (§5.3, §5.4.3) found that without critics Tignum re-planned after almost every
card.  Equivalence is judged *relative to our cards*: two defender cards of one suit are
equivalent when none of our cards ranks between them -- the ♦8 does what the planned ♦T
does when our ♦Q and ♦2 surround both, but the ♣8 is not the planned ♣3 when declarer's
♣5 and ♣4 lie between.  "Our cards" are the cards on the table, declarer's hand, and
dummy's hand unless dummy is still to play to this trick: dummy's card is then chosen
after seeing the defender's, so the difference is absorbed there.  That last clause is
our reading, not the dissertation's words; it is the one simple rule that reproduces all
eleven accept/reject decisions the dissertation reports (deals 353021 and 353306, §3.7 of
the notes) -- counting dummy always contradicts 353306's trick 2 (♣7 accepted for ♣2),
never counting it contradicts its trick 4 (♣9 rejected for ♣5).

A planned card that is no longer unseen (the other defender has just played it) means the
plan's picture of the deal is wrong: rejected.  Two discards are equivalent whatever their
suits.
"""

from __future__ import annotations

from engine.critics import Critic, CriticRegistry
from engine.critics.base import Move
from knowledge.bridge.cards import SUIT_OF
from knowledge.bridge.position import Position

__all__ = ["BridgeDiscard", "BridgeEquivalent", "BridgeLead", "critics", "equivalent_for_us"]


def equivalent_for_us(pos: Position, planned: int, actual: int) -> bool:
    """Same suit and no card of ours (see the module docstring) ranked between them."""
    if SUIT_OF[planned] != SUIT_OF[actual]:
        return False
    lo, hi = sorted((planned, actual))
    t = pos.table
    ours = pos.hands[t.declarer]
    dummy_to_play = pos.trick and all(seat != t.dummy for seat, _ in pos.trick)
    if not dummy_to_play:
        ours |= pos.hands[t.dummy]
    for _, c in pos.trick:
        ours |= 1 << c  # cards on the table decide the trick too
    between = ours & ((1 << hi) - 1) & ~((1 << (lo + 1)) - 1)
    return not between


def _cards(planned: Move, actual: Move) -> tuple[int, int, int, int] | None:
    (_, pargs), (_, aargs) = planned, actual
    if len(pargs) < 2 or len(aargs) < 2:
        return None
    return int(pargs[0]), int(pargs[1]), int(aargs[0]), int(aargs[1])


class BridgeEquivalent(Critic):
    name = "bridge-equivalent"
    description = (
        "The same seat plays a card no card of declarer's or dummy's separates "
        "from the planned one, and the planned card is still unseen."
    )

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
        led = state.led_suit()
        trump = state.table.trump
        if led is not None and all(SUIT_OF[c] not in (led, trump) for c in (pcard, acard)):
            return True  # two discards
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
