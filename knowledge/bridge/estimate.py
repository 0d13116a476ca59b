"""How many tricks will declarer end with?  The planner's leaf evaluation.

Tignum 2 evaluated the leaves of its decision trees -- where "planning stops" -- with its
own estimate of the outcome, in bridge scores; the dissertation says the values are
imprecise and that what matters is their *order* (p. 85).  This is ours: a playing-trick
count of the kind bridge books teach, under the assumptions the plan has made.

For each suit: **top tricks** (our cards ranked above every defender's card, no more
than the longer of our two holdings), **length tricks** once the defenders' longest
holding is exhausted (its length assumed by the plan if it was, else the most likely
split), and in a suit contract **ruffs** in the hand with fewer trumps, while side-suit
winners count only as long as the defenders cannot ruff them (when we cannot draw their
trumps).  The defenders' own top tricks cap the total.  It looks at cards only -- no
entries, no squeezes -- which is exactly the imprecision the dissertation accepts.
"""

from __future__ import annotations

from knowledge.bridge.cards import SUIT_MASKS
from knowledge.bridge.position import Position

__all__ = ["estimate_tricks", "MOST_LIKELY_LONGER"]

MOST_LIKELY_LONGER = (0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7)
"""The longer holding of the most likely split of n outstanding cards (a priori): 3 cards
split 2-1, 4 split 3-1, 6 split 4-2, 7 split 4-3, and so on."""


def _tops(ours: int, theirs: int) -> tuple[int, int]:
    """(our cards above all of theirs, their cards above all of ours) in one suit."""
    if not ours:
        return 0, theirs.bit_count()
    if not theirs:
        return ours.bit_count(), 0
    their_top = theirs.bit_length() - 1
    our_top = ours.bit_length() - 1
    our_above = (ours >> (their_top + 1)).bit_count() if our_top > their_top else 0
    their_above = (theirs >> (our_top + 1)).bit_count() if their_top > our_top else 0
    return our_above, their_above


def _defender_lengths(pos: Position, suit: int, theirs: int) -> tuple[int, int]:
    """(longer, shorter) holding of the defenders in ``suit``: assumed where the plan
    assumed it, else the most likely split."""
    n = theirs.bit_count()
    known = [pos.lengths[d][suit] for d in (0, 1)]
    if known[0] >= 0 and known[1] >= 0:
        return max(known), min(known)
    if known[0] >= 0 or known[1] >= 0:
        k = known[0] if known[0] >= 0 else known[1]
        k = min(k, n)
        return max(k, n - k), min(k, n - k)
    longer = MOST_LIKELY_LONGER[n] if n < len(MOST_LIKELY_LONGER) else n
    return longer, n - longer


def estimate_tricks(pos: Position) -> float:
    """Declarer's tricks at the end of the deal (those won plus an estimate of the rest)."""
    remaining = 13 - pos.won - pos.lost
    if remaining <= 0:
        return float(pos.won)
    t = pos.table
    trump = t.trump if t.trump < 4 else None
    a_hand, b_hand = pos.hands[t.declarer], pos.hands[t.dummy]
    theirs_all = pos.theirs
    their_trumps = theirs_all & SUIT_MASKS[trump] if trump is not None else 0
    can_draw = True
    if trump is not None and their_trumps:
        ours_t = (a_hand | b_hand) & SUIT_MASKS[trump]
        tops, _ = _tops(ours_t, their_trumps)
        longer, _ = _defender_lengths(pos, trump, their_trumps)
        can_draw = tops >= longer
    ours_total = 0
    theirs_total = 0
    losers_for_ruffs = []
    for suit in range(4):
        m = SUIT_MASKS[suit]
        a, b = a_hand & m, b_hand & m
        th = theirs_all & m
        la, lb = a.bit_count(), b.bit_count()
        long_len = max(la, lb)
        our_tops, their_tops = _tops(a | b, th)
        our_tops = min(our_tops, long_len)
        longer, shorter = _defender_lengths(pos, suit, th)
        if long_len > longer:
            tricks = our_tops + (long_len - max(longer, our_tops))
        else:
            tricks = our_tops
        if trump is not None and suit != trump and their_trumps and not can_draw:
            tricks = min(tricks, shorter)  # after that a defender ruffs
        ours_total += tricks
        if trump is not None and suit != trump:
            losers_for_ruffs.append((suit, la, lb, long_len - tricks))
        # The defence's sure tricks: their tops, as long as we must follow (in a suit
        # contract we ruff once the shorter of our hands with trumps runs out).
        cap = longer
        if trump is not None and suit != trump:
            cap = min(cap, min(la, lb) if (a_hand | b_hand) & SUIT_MASKS[trump] else cap)
        theirs_total += min(their_tops, cap)
    if trump is not None:
        ta = (a_hand & SUIT_MASKS[trump]).bit_count()
        tb = (b_hand & SUIT_MASKS[trump]).bit_count()
        short_trumps = min(ta, tb)
        short_is_a = ta <= tb
        ruffs = 0
        for _suit, la, lb, losers in losers_for_ruffs:
            short_len, long_len = (la, lb) if short_is_a else (lb, la)
            ruffs += max(0, min(long_len - short_len, losers))
        ours_total += min(short_trumps, ruffs)
    estimate = min(float(remaining), float(ours_total), float(remaining - theirs_total))
    return pos.won + max(0.0, estimate)
