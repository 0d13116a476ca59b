"""How many tricks will declarer end with?  The planner's leaf evaluation.

Tignum 2 evaluated the leaves of its decision trees -- where "planning stops" -- with its
own estimate of the outcome, in bridge scores; the dissertation says the values are
imprecise and that what matters is their *order* (p. 85).  This is ours: a count of the
kind bridge books teach, under the assumptions the plan has made.

Each suit is played out on its own (:func:`suit_rounds`): round by round our side leads
its best card if it beats everything the defenders hold, and otherwise spends its top
card to force out theirs (K-Q-J against the A makes two tricks, not three); the
defenders, pooled, follow with their lowest cards and win with the cheapest card that
beats ours.  Their holding lasts as long as the longer defender's holding -- assumed by
the plan where it was ("diamonds 3-3"), else the most likely split.

* **No-trump**: declarer's tricks are the rounds our side wins in every suit, capped by
  what is left once the defenders take their own top tricks -- in a suit whose break the
  plan has assumed ("clubs 4-3"), no more of them than their longer holding has rounds.
* **A suit contract** counts **losers** in the master hand (the one with more trumps).
  Its play-out (:func:`play_suit`) is closer to the table: when both our hands hold a
  winner the shorter one wins (Q-x opposite A-K-x-x-x does not waste the queen under the
  ace), and once the shorter defender has run out only one of their cards goes per round
  (six cards split 4-2 still hold one on the fourth round) -- counting the defenders'
  cards two a round overcounted our length winners and the discards on them.  The losers
  are the rounds the master hand must lose in each suit, less the **ruffs** the other
  hand can take in suits it is shorter in (each trick conceded before it is void lets the
  defenders lead a trump and take one of its trumps), less the **discards** the master
  hand makes on the other hand's winners in suits it has run out of; the defenders' trump
  tricks are losers too.  A discard is *slow* when the lead must be given up first: the
  winners are only set up by conceding a round of the suit (Q-J-x-x opposite K-x against
  the A), or a defender would be out of the suit and ruff while the defenders still have
  a trump trick (drawing it gives them the lead).  Each time they are in they cash their
  top cards in our losing suits, so slow discards never bring the losers below those.
  When the defenders are on lead, the tricks they can cash at once come before any
  discard.

Entries, squeezes and the defenders' own ruffs are not seen -- the imprecision the
dissertation accepts.
"""

from __future__ import annotations

from functools import lru_cache

from knowledge.bridge.cards import SUIT_MASKS, iter_cards
from knowledge.bridge.position import Position

__all__ = ["MOST_LIKELY_LONGER", "estimate_tricks", "play_suit", "suit_rounds", "suit_worth"]

MOST_LIKELY_LONGER = (0, 1, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7)
"""The longer holding of the most likely split of n outstanding cards (a priori): 3 cards
split 2-1, 4 split 3-1, 6 split 4-2, 7 split 4-3, and so on."""


def suit_rounds(master: int, other: int, theirs: int, their_rounds: int) -> tuple[int, int, int]:
    """Play one suit out: (rounds we win, rounds the master hand loses, rounds we win
    after the master hand ran out -- each a discard for it).

    ``their_rounds`` is how many rounds the defenders can follow (their longer holding).
    This is the no-trump count: the hand with the highest card wins the round and the
    defenders shed two cards a round (the closer count of :func:`play_suit` made no-trump
    plans worse on the dev set).
    """
    return play_suit(master, other, theirs, their_rounds, table=False)[:3]


@lru_cache(maxsize=1 << 16)
def play_suit(
    master: int, other: int, theirs: int, their_rounds: int, table: bool = True
) -> tuple[int, int, int, int | None, tuple[int, ...]]:
    """:func:`suit_rounds` with the timing: also the first round we lose (None if none)
    and, per discard, the round it comes on.

    With ``table`` (suit contracts) the play is closer to the table: the shorter of our
    hands wins when both can (unblocking), and once the shorter defender is out only one
    of their cards goes a round."""
    m, o, t = list(iter_cards(master)), list(iter_cards(other)), list(iter_cards(theirs))
    # the shorter defender follows for this many rounds, then only the longer one does
    both_follow = max(0, len(t) - their_rounds) if table else len(t)
    rounds = max(len(m), len(o))
    won = master_lost = discards = 0
    first_loss: int | None = None
    discard_rounds: list[int] = []
    for r in range(rounds):
        if not t or their_rounds <= 0:
            # the defenders are out of the suit: every remaining round is ours
            left = max(len(m), len(o))
            won += left
            extra = max(0, len(o) - len(m))
            discards += extra
            discard_rounds += [r] * extra
            break
        their_top = t[-1]
        hands = [h for h in (m, o) if h]
        top = max(hands, key=lambda h: h[-1])
        winning = (
            [h for h in hands if h[-1] > their_top]
            if table
            else [top]
            if top[-1] > their_top
            else []
        )
        # win from the shorter hand when both can (unblock); else force with our best
        best = min(winning, key=len) if winning else top
        master_plays = bool(m)
        follow = 2 if r < both_follow else 1
        card = best.pop()  # our winner, or our best card forcing out theirs
        for h in hands:
            if h is not best:
                h.pop(0)  # the other hand follows low
        if winning:
            won += 1
            if not master_plays:
                discards += 1
                discard_rounds.append(r)
            del t[:follow]  # they follow low
        else:
            t.pop(next(i for i, c in enumerate(t) if c > card))  # they win cheaply
            if t and follow == 2:
                t.pop(0)
            if master_plays:
                master_lost += 1
            if first_loss is None:
                first_loss = r
        their_rounds -= 1
    return won, master_lost, discards, first_loss, tuple(discard_rounds)


def _their_rounds(pos: Position, suit: int, theirs: int) -> int:
    """How many rounds of ``suit`` the defenders can follow: their longer holding."""
    n = theirs.bit_count()
    known = [pos.lengths[d][suit] for d in (0, 1)]
    if known[0] >= 0 and known[1] >= 0:
        return max(known)
    if known[0] >= 0 or known[1] >= 0:
        k = min(known[0] if known[0] >= 0 else known[1], n)
        return max(k, n - k)
    return MOST_LIKELY_LONGER[n] if n < len(MOST_LIKELY_LONGER) else n


def suit_worth(pos: Position, suit: int, mine: int, partner: int, theirs: int | None = None) -> int:
    """What one suit is worth to our side with these holdings: the rounds we win in it
    less the defenders' cards above all of ours (their tricks on their own lead).

    ``theirs`` is a hypothetical holding for the defenders (one of their cards gone); its
    split is then the most likely one, since the lengths the plan assumed no longer fit
    it.  Without it the defenders hold what they hold and the plan's split is used.

    A single-suit figure, so it tells apart cards the whole-hand estimate values alike --
    which loser to discard when the defenders' long suit caps the count anyway, and which
    guard a defender keeps."""
    m = SUIT_MASKS[suit]
    th = (pos.theirs if theirs is None else theirs) & m
    n = th.bit_count()
    rounds = (
        _their_rounds(pos, suit, th)
        if theirs is None
        else (MOST_LIKELY_LONGER[n] if n < len(MOST_LIKELY_LONGER) else n)
    )
    won = play_suit(mine & m, partner & m, th, rounds, table=pos.table.trump < 4)[0]
    return won - _above(th, (mine | partner) & m)


def _above(theirs: int, ours: int) -> int:
    """How many of ``theirs`` beat every card of ``ours`` (one suit): all of them if we
    hold none."""
    return (theirs >> ours.bit_length()).bit_count()


def estimate_tricks(pos: Position) -> float:
    """Declarer's tricks at the end of the deal (those won plus an estimate of the rest)."""
    remaining = 13 - pos.won - pos.lost
    if remaining <= 0:
        return float(pos.won)
    t = pos.table
    trump = t.trump if t.trump < 4 else None
    decl, dummy = pos.hands[t.declarer], pos.hands[t.dummy]
    theirs_all = pos.theirs
    if trump is None:
        ours = their_sure = 0
        for s in range(4):
            m = SUIT_MASKS[s]
            th = theirs_all & m
            rounds = _their_rounds(pos, s, th)
            won, _, _ = suit_rounds(decl & m, dummy & m, th, rounds)
            ours += won
            # the defenders' tricks on their own lead: their top cards above all of ours --
            # where the plan has assumed the suit's break, no more than the rounds their
            # longer holding lasts (Q-J-T split 2-1 make two tricks, 3-0 three)
            above = _above(th, (decl | dummy) & m)
            their_sure += min(above, rounds) if pos.break_assumed(s) else above
        return pos.won + max(0.0, min(float(remaining), float(ours), float(remaining - their_sure)))
    tm = SUIT_MASKS[trump]
    master, other = (
        (decl, dummy) if (decl & tm).bit_count() >= (dummy & tm).bit_count() else (dummy, decl)
    )
    side_lost = ruffable = discards = slow = quick = 0
    other_trumps = (other & tm).bit_count()
    their_trumps = bool(theirs_all & tm)
    their_lead = not pos.trick and t.is_defender(pos.leader)
    trump_lost = play_suit(
        master & tm, other & tm, theirs_all & tm, _their_rounds(pos, trump, theirs_all & tm)
    )[1]
    for s in range(4):
        if s == trump:
            continue
        m = SUIT_MASKS[s]
        th = theirs_all & m
        rounds = _their_rounds(pos, s, th)
        _, lost, disc, first_loss, on = play_suit(master & m, other & m, th, rounds)
        discards += disc
        # a discard after a round conceded in the suit, or on a round a defender is out
        # of it while they keep a trump trick (we must give them the lead to draw it)
        out = max(0, th.bit_count() - rounds)
        slow += sum(
            1
            for r in on
            if (first_loss is not None and r > first_loss) or (trump_lost and r >= out)
        )
        side_lost += lost
        can = min(lost, max(0, (master & m).bit_count() - (other & m).bit_count()))
        if can and their_trumps:
            # Every trick we lose before the short hand is void gives the defenders the
            # lead, and a trump lead from them takes one of its trumps away.
            concessions = min((other & m).bit_count(), lost) + their_lead
            can = min(can, max(0, other_trumps - concessions))
        ruffable += can
        their_tops = _above(th, (master | other) & m)
        # They cash until a hand of ours with trumps has run out and ruffs.
        stops = [(h & m).bit_count() for h in (master, other) if h & tm]
        quick += min([their_tops, *stops])
    ruffs = min(ruffable, (other & tm).bit_count())
    side = max(0, side_lost - ruffs - (discards - slow))
    # slow discards come after the defenders have been in: not below what they cash then
    side = max(side - slow, min(side, quick))
    if their_lead:
        # On lead, the defenders cash their top cards before our discards can help.
        side = max(side, quick)
    losers = trump_lost + side
    return pos.won + max(0.0, float(remaining - losers))
