"""The Python half of the bridge method network: primitives, the card-play effect, hooks.

The knowledge itself -- which schemes exist, when each applies, how the opponents may
answer and how likely each answer is -- lives in ``bridge.toml`` where a knowledge engineer
edits it.  What is here is what that file calls: card generators for each scheme ("the
top winners in this hand", "a low card towards partner's tenace"), the facts preconditions
test, the opponents' planned cards and the probabilities of their moves under the
method's belief view (:mod:`knowledge.bridge.beliefs`), the one operator's effect
(``PlayCard``), and the engine hooks: who is controlled, where planning stops, what a leaf
is worth.

Card generators return one card per suit at most (the lowest, or the top winner), so the
tree never branches on the ♦3 against the ♦2.
"""

from __future__ import annotations

from functools import wraps
from math import comb
from typing import Any

from engine.tofs import Registry
from knowledge.bridge.beliefs import MODELS, Vacancies, belief_view
from knowledge.bridge.cards import (
    RANK_CHARS,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SYMBOLS,
    highest,
    iter_cards_desc,
    lowest,
)
from knowledge.bridge.estimate import estimate_tricks, suit_worth
from knowledge.bridge.position import Position
from knowledge.bridge.scoring import score

__all__ = ["card_text", "registry", "seat_name"]

SEAT_NAMES = ("North", "East", "South", "West")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")

registry = Registry("bridge")
# constants the Python side reads (the table, the declarer's tie rule): checked on saving
registry.constant("belief_model", str, choices=tuple(MODELS))
registry.constant("plan_tricks", int, minimum=1, maximum=13)
registry.constant("tie_samples", int, minimum=0)
registry.constant("tie_margin", float, minimum=0)


def card_text(c: int) -> str:
    return SUIT_SYMBOLS[SUIT_OF[c]] + RANK_CHARS[c % 13]


def seat_name(seat: int) -> str:
    return SEAT_NAMES[seat]


class CardArg(int):
    """A card as a task argument: an int for the code, "♦A" in labels and explanations."""

    __slots__ = ()

    def __str__(self) -> str:
        return card_text(int(self))


class SeatArg(int):
    """A seat as a task argument: an int for the code, "North" in labels."""

    __slots__ = ()

    def __str__(self) -> str:
        return SEAT_NAMES[int(self)]


class SuitArg(int):
    """A suit as a task argument: an int for the code, "clubs" in labels."""

    __slots__ = ()

    def __str__(self) -> str:
        return SUIT_NAMES[int(self)]


CARDS = tuple(CardArg(c) for c in range(52))
SEATS = tuple(SeatArg(s) for s in range(4))
SUITS = tuple(SuitArg(s) for s in range(4))


def _as_cards(fn):
    """Generators return :class:`CardArg` values (so labels read "C=♦A", not "C=38")."""

    @wraps(fn)
    def wrapper(*args):
        return [CARDS[c] for c in fn(*args)]

    return wrapper


# ------------------------------------------------------------------ facts (no state)


@registry.primitive(uses_state=False)
def next_seat(p: int) -> SeatArg:
    """The seat after ``p`` in play order (clockwise)."""
    return SEATS[(p + 1) & 3]


@registry.primitive(uses_state=False)
def partner(p: int) -> SeatArg:
    """``p``'s partner."""
    return SEATS[(p + 2) & 3]


@registry.primitive(uses_state=False)
def prev_seat(p: int) -> SeatArg:
    """The seat before ``p`` in play order."""
    return SEATS[(p + 3) & 3]


@registry.primitive(uses_state=False)
def suit_name(s: int) -> str:
    """The suit's name, for labels ("diamonds")."""
    return SUIT_NAMES[s]


@registry.primitive(uses_state=False)
def card_name(c: int) -> str:
    """A card as text with its suit symbol (♦A)."""
    return card_text(c)


@registry.primitive(uses_state=False)
def seat(p: int) -> str:
    """A seat's name (North)."""
    return SEAT_NAMES[p]


@registry.primitive(uses_state=False)
def suit_of(c: int) -> int:
    """The suit of a card (0 spades .. 3 clubs)."""
    return SUIT_OF[c]


@registry.primitive(uses_state=False)
def suit_word(s: int) -> str:
    """The suit as a word before a noun, for labels ("a diamond discard")."""
    return SUIT_NAMES[s][:-1]


# ------------------------------------------------------------------ facts of the position


@registry.primitive
def leader(pos: Position) -> SeatArg:
    """The seat to lead the next trick (or that led the current one)."""
    return SEATS[pos.leader]


@registry.primitive
def deal_over(pos: Position) -> bool:
    """All thirteen tricks have been played."""
    return pos.won + pos.lost >= 13


@registry.primitive
def ours(pos: Position, p: int) -> bool:
    """Whether ``p`` is declarer or dummy (the seats the planner controls)."""
    return p in (pos.table.declarer, pos.table.dummy)


@registry.primitive
def on_lead(pos: Position, p: int) -> bool:
    """``p`` is to play the first card of a trick."""
    return not pos.trick and pos.leader == p


@registry.primitive
def led_suit(pos: Position) -> int:
    """The suit led to the current trick (-1 before the lead)."""
    s = pos.led_suit()
    return -1 if s is None else s


@registry.primitive
def can_follow(pos: Position, p: int) -> bool:
    """Our hand ``p`` holds a card of the suit led."""
    s = pos.led_suit()
    return s is not None and bool(pos.hands[p] & SUIT_MASKS[s])


@registry.primitive
def has_trumps(pos: Position, p: int) -> bool:
    """Our hand ``p`` holds a trump (never in no-trump)."""
    t = pos.table.trump
    return t < 4 and bool(pos.hands[p] & SUIT_MASKS[t])


@registry.primitive
def trump_contract(pos: Position) -> bool:
    """The contract has a trump suit."""
    return pos.table.trump < 4


@registry.primitive
def trumps_out(pos: Position) -> int:
    """Trumps the defenders may still hold."""
    t = pos.table.trump
    return (pos.theirs & SUIT_MASKS[t]).bit_count() if t < 4 else 0


@registry.primitive
def partner_winning(pos: Position, p: int) -> bool:
    """``p``'s partner's card is winning the trick so far."""
    w = pos.winning()
    return w is not None and w[0] == ((p + 2) & 3)


# ------------------------------------------------------------------ our cards, by scheme


def _suit_cards(pos: Position, p: int, suit: int) -> int:
    return pos.hands[p] & SUIT_MASKS[suit]


def _top_winner(pos: Position, p: int, suit: int) -> int | None:
    """``p``'s highest card of ``suit`` if no defender can beat it."""
    mine = _suit_cards(pos, p, suit)
    if not mine:
        return None
    top = highest(mine)
    theirs = pos.theirs & SUIT_MASKS[suit]
    return top if not theirs or top > highest(theirs) else None


def _partnership_tricks(pos: Position, p: int, suit: int) -> int:
    """How many of the partnership's cards in ``suit`` can win a trick once the defenders'
    higher cards have fallen: a card does when the defenders hold no more cards above it
    than the partnership does (the ♠K, ♠Q and ♠J against the ♠A make two)."""
    ours = (pos.hands[p] | pos.hands[(p + 2) & 3]) & SUIT_MASKS[suit]
    theirs = pos.theirs & SUIT_MASKS[suit]
    count = 0
    for c in iter_cards_desc(ours):
        above = ~((2 << c) - 1)
        if (theirs & above).bit_count() <= (ours & above).bit_count():
            count += 1
    return count


@registry.primitive
def discard_for(pos: Position, p: int, c: int) -> str:
    """What a discard set up by leading ``c`` from ``p`` is for, in words: partner's losers
    in the side suits -- cards beyond the tricks the partnership can make there ("the club
    losers"; "a loser" when none is plain)."""
    q = (p + 2) & 3
    trump = pos.table.trump
    found = []
    for s in range(4):
        if s in (trump, SUIT_OF[c]):
            continue
        extra = _suit_cards(pos, q, s).bit_count() - _partnership_tricks(pos, p, s)
        if extra > 0:
            found.append((s, extra))
    if not found:
        return "a loser"
    words = " and ".join(SUIT_NAMES[s][:-1] for s, _ in found)
    many = len(found) > 1 or found[0][1] > 1
    return f"the {words} loser" + ("s" if many else "")


@registry.primitive
@_as_cards
def winners(pos: Position, p: int) -> list[int]:
    """Top winners ``p`` can lead, one per suit (cashing: "CashWinner")."""
    out = []
    for s in range(4):
        c = _top_winner(pos, p, s)
        if c is not None:
            out.append(c)
    return out


@registry.primitive
@_as_cards
def crossing_leads(pos: Position, p: int) -> list[int]:
    """A low card in each suit where partner has a top winner: lead it to cross."""
    out = []
    q = (p + 2) & 3
    for s in range(4):
        mine = _suit_cards(pos, p, s)
        if mine and _top_winner(pos, q, s) is not None and _top_winner(pos, p, s) is None:
            out.append(lowest(mine))
    return out


@registry.primitive
@_as_cards
def finesse_leads(pos: Position, p: int) -> list[int]:
    """Low cards towards partner's tenace: partner holds a card just below a missing one
    (A-Q missing the K, K-J missing the Q, ...) with a higher card or the lead behind it."""
    out = []
    q = (p + 2) & 3
    for s in range(4):
        mine, hers = _suit_cards(pos, p, s), _suit_cards(pos, q, s)
        theirs = pos.theirs & SUIT_MASKS[s]
        if not mine or not hers or not theirs:
            continue
        if _finesse_card(hers, theirs) is not None and highest(mine) < highest(hers):
            out.append(lowest(mine))
    return out


def _finesse_card(hers: int, theirs: int) -> int | None:
    """The card to finesse with: partner's highest card below a defender's card that is
    itself below one of partner's cards (Q of A-Q against the K)."""
    for c in iter_cards_desc(hers):
        above = theirs >> (c + 1)
        if not above:
            continue
        their_card = lowest(above) + c + 1
        if hers >> (their_card + 1):
            return c
    return None


@registry.primitive
@_as_cards
def sequence_leads(pos: Position, p: int) -> list[int]:
    """The top of a sequence below a missing honour (K of K-Q against the A): it forces
    the honour out and sets up the rest ("sequence winner")."""
    out = []
    q = (p + 2) & 3
    gone = pos.gone
    for s in range(4):
        mine = _suit_cards(pos, p, s)
        ours_s = mine | _suit_cards(pos, q, s)
        theirs = pos.theirs & SUIT_MASKS[s]
        if not mine or not theirs or _top_winner(pos, p, s) is not None:
            continue
        top = highest(mine)
        # cards of ours touching `top` (gaps filled only by played cards) make a sequence
        run, c = 1, top - 1
        while c >= s * 13 and (ours_s >> c & 1 or gone >> c & 1):
            run += ours_s >> c & 1
            c -= 1
        above = (theirs >> (top + 1)).bit_count()
        if run >= 2 and above == 1:
            out.append(top)
    return out


def _establishable(pos: Position, p: int, suit: int) -> bool:
    """``p`` is long enough in ``suit`` (not trumps, four cards or more) to outlast the
    defenders' most likely longer holding: its low cards can be set up as winners."""
    from knowledge.bridge.estimate import MOST_LIKELY_LONGER

    mine = _suit_cards(pos, p, suit)
    n = (pos.theirs & SUIT_MASKS[suit]).bit_count()
    if suit == pos.table.trump or not n or mine.bit_count() < 4:
        return False
    return mine.bit_count() > MOST_LIKELY_LONGER[min(n, len(MOST_LIKELY_LONGER) - 1)]


@registry.primitive
@_as_cards
def length_leads(pos: Position, p: int) -> list[int]:
    """A suit where ``p`` is long enough to outlast the defenders' most likely longer
    holding: its top winner (or a low card, to concede the trick the length needs)."""
    out = []
    for s in range(4):
        if _establishable(pos, p, s):
            top = _top_winner(pos, p, s)
            out.append(top if top is not None else lowest(_suit_cards(pos, p, s)))
    return out


@registry.primitive
def long_suits(pos: Position, p: int) -> list[SuitArg]:
    """Suits partner could set up by length that ``p``, on lead, cannot start: ``p`` holds
    none, and partner is long enough (:func:`length_leads`) and holds the top card to
    take the first round (ConsiderLength from the other hand: cross first)."""
    q = (p + 2) & 3
    return [
        SUITS[s]
        for s in range(4)
        if not _suit_cards(pos, p, s)
        and _establishable(pos, q, s)
        and _top_winner(pos, q, s) is not None
    ]


@registry.primitive
@_as_cards
def entries_for(pos: Position, p: int, suit: int) -> list[int]:
    """How ``p`` puts partner on lead to start partner's long ``suit``: a low card of
    another suit (not trumps) in which partner has a top winner above it.  One card: from
    the entry suit where ``p`` holds the most cards (the least to lose by spending
    partner's winner there)."""
    q = (p + 2) & 3
    best: tuple[int, int] | None = None
    for s in range(4):
        mine = _suit_cards(pos, p, s)
        win = _top_winner(pos, q, s)
        if s == suit or s == pos.table.trump or not mine or win is None or lowest(mine) > win:
            continue
        if best is None or mine.bit_count() > best[0]:
            best = (mine.bit_count(), lowest(mine))
    return [best[1]] if best is not None else []


@registry.primitive
@_as_cards
def discard_leads(pos: Position, p: int) -> list[int]:
    """The top winner of a side suit ``p`` holds more cards of than partner, while partner
    has losers elsewhere to throw on it (set up a discard)."""
    q = (p + 2) & 3
    trump = pos.table.trump
    partner_losers = any(
        _suit_cards(pos, q, s) and _top_winner(pos, q, s) is None for s in range(4) if s != trump
    )
    if not partner_losers:
        return []
    out = []
    for s in range(4):
        if s == trump:
            continue
        top = _top_winner(pos, p, s)
        if (
            top is not None
            and _suit_cards(pos, p, s).bit_count() > _suit_cards(pos, q, s).bit_count()
        ):
            out.append(top)
    return out


@registry.primitive
@_as_cards
def trump_leads(pos: Position, p: int) -> list[int]:
    """The card to draw trumps with: the top trump if it is a winner, else a low one.
    Not when the defenders' only trump is the master (it will make anyway; §5.3)."""
    t = pos.table.trump
    if t >= 4:
        return []
    mine = _suit_cards(pos, p, t)
    theirs = pos.theirs & SUIT_MASKS[t]
    if not mine or not theirs:
        return []
    ours_t = mine | _suit_cards(pos, (p + 2) & 3, t)
    if theirs.bit_count() == 1 and highest(theirs) > highest(ours_t):
        return []
    top = _top_winner(pos, p, t)
    return [top if top is not None else lowest(mine)]


@registry.primitive
@_as_cards
def ruff_leads(pos: Position, p: int) -> list[int]:
    """A low card in a suit partner is void in while holding trumps (take a ruff)."""
    t = pos.table.trump
    q = (p + 2) & 3
    if t >= 4 or not pos.hands[q] & SUIT_MASKS[t]:
        return []
    return [
        lowest(_suit_cards(pos, p, s))
        for s in range(4)
        if s != t and _suit_cards(pos, p, s) and not _suit_cards(pos, q, s)
    ]


@registry.primitive
@_as_cards
def ruff_setup_leads(pos: Position, p: int) -> list[int]:
    """A low card of a side suit ``p`` holds more of than partner, where partner still
    has trumps and no winner of the suit: lose tricks in it until partner is void, then
    ruff (SetUpRuff; Figure 5.1's club ruff)."""
    t = pos.table.trump
    q = (p + 2) & 3
    if t >= 4 or not pos.hands[q] & SUIT_MASKS[t]:
        return []
    out = []
    for s in range(4):
        mine, hers = _suit_cards(pos, p, s), _suit_cards(pos, q, s)
        if (
            s != t
            and hers
            and mine.bit_count() > hers.bit_count()
            and _top_winner(pos, p, s) is None
            and _top_winner(pos, q, s) is None
        ):
            out.append(lowest(mine))
    return out


@registry.primitive
@_as_cards
def low_leads(pos: Position, p: int) -> list[int]:
    """The lowest card of each suit ``p`` holds (any other lead)."""
    return [lowest(_suit_cards(pos, p, s)) for s in range(4) if _suit_cards(pos, p, s)]


@registry.primitive
@_as_cards
def follow_low(pos: Position, p: int) -> list[int]:
    """``p``'s lowest card of the suit led."""
    s = pos.led_suit()
    mine = _suit_cards(pos, p, s) if s is not None else 0
    return [lowest(mine)] if mine else []


@registry.primitive
@_as_cards
def follow_win(pos: Position, p: int) -> list[int]:
    """``p``'s cheapest card of the suit led that beats the card winning so far (none when
    partner is winning with a card no defender can beat, or the trick is ruffed)."""
    s = pos.led_suit()
    w = pos.winning()
    if s is None or w is None:
        return []
    mine = _suit_cards(pos, p, s)
    if SUIT_OF[w[1]] != s:
        return []
    above = mine >> (w[1] + 1)
    if not above:
        return []
    c = lowest(above) + w[1] + 1
    return [] if c == lowest(mine) else [c]


@registry.primitive
@_as_cards
def follow_finesse(pos: Position, p: int) -> list[int]:
    """Third hand in a finesse: the card just below the missing honour, when it beats the
    card winning so far (the Q of A-Q after the K did not appear)."""
    s = pos.led_suit()
    w = pos.winning()
    if s is None or w is None or SUIT_OF[w[1]] != s:
        return []
    mine = _suit_cards(pos, p, s)
    c = _finesse_card(mine, pos.theirs & SUIT_MASKS[s])
    if c is None or c < w[1] or c in follow_win(pos, p) or c == lowest(mine):
        return []
    return [c]


@registry.primitive
@_as_cards
def follow_high(pos: Position, p: int) -> list[int]:
    """``p``'s highest card of the suit led, when it differs from the cheaper choices."""
    s = pos.led_suit()
    mine = _suit_cards(pos, p, s) if s is not None else 0
    if not mine:
        return []
    c = highest(mine)
    return [] if c == lowest(mine) or c in follow_win(pos, p) else [c]


@registry.primitive
@_as_cards
def ruffs(pos: Position, p: int) -> list[int]:
    """The lowest trump of ``p`` that wins the trick (overruffing if need be) and, when a
    defender is still to play to it, the lowest that no trump of theirs can overruff
    (ruffing high: ♦Q from ♦A-K-Q-7 when the hand after us may be void too)."""
    t = pos.table.trump
    w = pos.winning()
    mine = _suit_cards(pos, p, t) if t < 4 else 0
    if not mine or w is None:
        return []
    if SUIT_OF[w[1]] == t:
        above = mine >> (w[1] + 1)
        if not above:
            return []
        low = lowest(above) + w[1] + 1
    else:
        low = lowest(mine)
    out = [low]
    if len(pos.trick) < 3:
        theirs = pos.theirs & SUIT_MASKS[t]
        safe = mine >> theirs.bit_length() if theirs else 0
        if safe:
            high = lowest(safe) + theirs.bit_length()
            if high != low:
                out.append(high)
    return out


@registry.primitive
@_as_cards
def discards(pos: Position, p: int) -> list[int]:
    """The lowest card of each side suit ``p`` could throw, real losers first.

    The order is the tie-break: a card whose suit loses nothing by it (its worth, see
    :func:`~knowledge.bridge.estimate.suit_worth`, unchanged) before one that costs a
    trick or a stopper, and among those the suit with the least promise.  The trick
    estimate often values every discard alike -- when the defenders are running a long
    suit their tricks cap it -- and then throwing the ♠A "ties" with throwing the ♣2."""
    t = pos.table.trump
    other = pos.hands[(p + 2) & 3]
    ranked = []
    for s in range(4):
        mine = _suit_cards(pos, p, s)
        if s == t or not mine:
            continue
        card = lowest(mine)
        worth = suit_worth(pos, s, mine, other)
        ranked.append((worth - suit_worth(pos, s, mine & ~(1 << card), other), worth, s, card))
    out = [card for *_, card in sorted(ranked)]
    if not out and t < 4 and _suit_cards(pos, p, t):
        out.append(lowest(_suit_cards(pos, p, t)))  # only trumps left: must underruff
    return out


# ------------------------------------------------------------------ the defenders


def _vac(pos: Position) -> Vacancies:
    t = pos.table
    lho, rho = t.defenders
    return Vacancies(
        max(0, pos.counts[0] - pos.hands[lho].bit_count()),
        max(0, pos.counts[1] - pos.hands[rho].bit_count()),
    )


def _who(pos: Position, p: int) -> str:
    return "W" if pos.table.defender_index(p) == 0 else "E"


def _p_void(pos: Position, p: int, suit: int) -> float:
    d = pos.table.defender_index(p)
    if pos.voids[d] >> suit & 1 or pos.lengths[d][suit] == 0:
        return 1.0
    if pos.hands[p] & SUIT_MASKS[suit] or pos.lengths[d][suit] > 0:
        return 0.0
    other = 1 - d
    if pos.voids[other] >> suit & 1 or pos.lengths[other][suit] == 0:
        return 0.0 if pos.unseen & SUIT_MASKS[suit] else 1.0
    n = (pos.unseen & SUIT_MASKS[suit]).bit_count()
    vac = _vac(pos)
    if n == 0:
        return 1.0
    if vac.total == 0 or n > vac.total:
        return 0.0
    return pos.table.model.p_void(_who(pos, p), n, vac)  # type: ignore[arg-type]


def _p_holds_one_of(pos: Position, p: int, cards: int) -> float:
    """Probability defender ``p`` holds at least one of the unseen ``cards``."""
    k = (cards & pos.unseen).bit_count()
    if pos.hands[p] & cards:
        return 1.0
    if k == 0:
        return 0.0
    vac = _vac(pos)
    mine = vac.of(_who(pos, p))  # type: ignore[arg-type]
    other = vac.total - mine
    if mine == 0:
        return 0.0
    if k > other:
        return 1.0
    return 1.0 - comb(other, k) / comb(vac.total, k)


def _their_pool(pos: Position, p: int) -> int:
    """Cards defender ``p`` might play: placed with him, or unseen (and not a suit he is
    known void in)."""
    d = pos.table.defender_index(p)
    pool = pos.hands[p] | pos.unseen
    for s in range(4):
        if pos.voids[d] >> s & 1 or pos.lengths[d][s] == 0:
            pool &= ~SUIT_MASKS[s]
    return pool


@registry.primitive
@_as_cards
def their_low(pos: Position, p: int) -> list[int]:
    """Defender ``p`` follows with a card that does not win: the lowest such unseen card
    of the suit led (the planned card)."""
    s = pos.led_suit()
    w = pos.winning()
    if s is None or w is None:
        return []
    pool = _their_pool(pos, p) & SUIT_MASKS[s]
    if not pool:
        return []
    if SUIT_OF[w[1]] == s:
        below = pool & ((1 << w[1]) - 1)
        return [lowest(below)] if below else []
    return [lowest(pool)]


@registry.primitive
@_as_cards
def their_win(pos: Position, p: int) -> list[int]:
    """Defender ``p`` beats the card winning so far as cheaply as he can (planned card)."""
    s = pos.led_suit()
    w = pos.winning()
    if s is None or w is None or SUIT_OF[w[1]] != s:
        return []
    if w[0] == ((p + 2) & 3):
        return []  # partner is winning: he does not overtake
    pool = _their_pool(pos, p) & SUIT_MASKS[s]
    above = pool >> (w[1] + 1)
    return [lowest(above) + w[1] + 1] if above else []


@registry.primitive
@_as_cards
def their_ruff(pos: Position, p: int) -> list[int]:
    """Defender ``p``, void in the suit led, ruffs with the lowest trump that wins."""
    t = pos.table.trump
    s = pos.led_suit()
    w = pos.winning()
    if t >= 4 or s is None or s == t or w is None or w[0] == ((p + 2) & 3):
        return []
    pool = _their_pool(pos, p) & SUIT_MASKS[t]
    if SUIT_OF[w[1]] == t:
        pool >>= w[1] + 1
        return [lowest(pool) + w[1] + 1] if pool else []
    return [lowest(pool)] if pool else []


@registry.primitive
@_as_cards
def their_discard(pos: Position, p: int) -> list[int]:
    """Defender ``p``, void in the suit led, throws the lowest card of a suit where it
    gives us nothing, the longest such (the planned card).

    A defender keeps his guards: throwing from a suit where our length or our next card
    would then win a round more (by :func:`~knowledge.bridge.estimate.suit_worth`) comes
    last.  Without this the planned defenders bared dummy's small cards into winners."""
    s = pos.led_suit()
    t = pos.table
    pool = _their_pool(pos, p)
    decl, dummy = pos.hands[t.declarer], pos.hands[t.dummy]
    ranked = []
    for x in range(4):
        cards = pool & SUIT_MASKS[x]
        if x in (s, t.trump) or not cards:
            continue
        card = lowest(cards)
        harm = suit_worth(pos, x, decl, dummy, pos.theirs & ~(1 << card)) - suit_worth(
            pos, x, decl, dummy, pos.theirs
        )
        ranked.append((harm, -cards.bit_count(), x, card))
    if not ranked:
        cards = pool & ~SUIT_MASKS[s] if s is not None else pool
        return [lowest(cards)] if cards else []
    return [min(ranked)[-1]]


@registry.primitive
@_as_cards
def their_leads(pos: Position, p: int) -> list[int]:
    """Defender ``p``'s possible leads: the lowest unseen card of each suit he may hold."""
    pool = _their_pool(pos, p)
    return [lowest(pool & SUIT_MASKS[s]) for s in range(4) if pool & SUIT_MASKS[s]]


@registry.primitive
def p_void(pos: Position, p: int) -> float:
    """Probability defender ``p`` holds no card of the suit led (belief model)."""
    s = pos.led_suit()
    return 1.0 if s is None else _p_void(pos, p, s)


@registry.primitive
def p_can_win(pos: Position, p: int) -> float:
    """Probability defender ``p`` holds a card of the suit led that beats the card winning
    so far (given nothing about whether he follows)."""
    s = pos.led_suit()
    w = pos.winning()
    if s is None or w is None or SUIT_OF[w[1]] != s or w[0] == ((p + 2) & 3):
        return 0.0
    above = SUIT_MASKS[s] & ~((1 << (w[1] + 1)) - 1)
    return _p_holds_one_of(pos, p, above & (pos.unseen | pos.hands[p]))


@registry.primitive
def p_plays_high(pos: Position, p: int) -> float:
    """Probability defender ``p`` beats the card winning so far: when he can, in third
    and fourth seat; in second seat only to cover an honour (second hand low)."""
    follow = 1.0 - p_void(pos, p)
    if not their_low(pos, p):
        return follow  # every card he can hold of the suit beats ours: he must
    if len(pos.trick) == 1 and pos.trick[0][1] % 13 < 8:
        return 0.0
    return min(p_can_win(pos, p), follow)


@registry.primitive
def p_has_trump(pos: Position, p: int) -> float:
    """Probability defender ``p`` still holds a trump."""
    t = pos.table.trump
    if t >= 4:
        return 0.0
    return 1.0 - _p_void(pos, p, t)


@registry.primitive
def p_lead(pos: Position, p: int, c: int) -> float:
    """Probability defender ``p`` leads the suit of ``c``: in proportion to how many
    unseen cards of the suit there are (a longer suit is likelier to be his)."""
    pool = _their_pool(pos, p)
    total = pool.bit_count()
    return (pool & SUIT_MASKS[SUIT_OF[c]]).bit_count() / total if total else 0.0


@registry.primitive
def second_hand(pos: Position) -> bool:
    """The next card is the second of the trick."""
    return len(pos.trick) == 1


@registry.primitive
def honour_led(pos: Position) -> bool:
    """The card led is an honour (ten or higher): second hand covers it."""
    return bool(pos.trick) and pos.trick[0][1] % 13 >= 8


# ------------------------------------------------------------------ schemes and belief views
#
# A scheme method (bridge.toml) leads with ``LeadCard(P, C, view)``: the lead records the
# scheme as "view:suit" in the position.  While our side keeps the lead the scheme goes on
# (``scheme_next``), and when the scheme's suit is led the defenders' answers are the
# outcomes of the scheme's belief view (Smith 1997, §5.4.3: the belief function changes
# with the method) -- a discard plan sees "ruff / no ruff", a length plan "even / uneven",
# cashing out the worst case -- instead of the generic card-by-card model.
#
# A cross to the hand holding a long suit (CrossToLength) leads in one suit for a scheme in
# another: ``LeadCard(P, C, scheme_in(view, Z))`` records "splits:Z", partner takes the
# trick (WinCross), and the scheme goes on from there in Z.  The splits view branches once
# per break of Z ("clubs 4-3", "clubs 5-2"), and each branch records its break in the
# position (``AnswerCard``), so the leaf estimate counts the defenders' tricks in that world.


class OutcomeArg(str):
    """One outcome of a belief view as a task argument: its label when shown.

    ``shapes`` are the breaks the outcome covers (original lengths, longer first), as in
    :class:`knowledge.bridge.beliefs.Outcome`; ``assume`` is what the outcome takes for
    granted about the defender answering, as
    (suit, cards of it he holds now) -- the splits view's "clubs 5-2" puts the short
    holding with him -- or ``None`` when the outcome assumes no length."""

    probability: float
    key: str
    ruff: bool | None
    shapes: tuple[tuple[int, int], ...]
    assume: tuple[int, int] | None


def _outcome(
    label: str,
    probability: float,
    key: str,
    ruff: bool | None = None,
    shapes: tuple[tuple[int, int], ...] = (),
    assume: tuple[int, int] | None = None,
) -> OutcomeArg:
    o = OutcomeArg(label)
    o.probability, o.key, o.ruff, o.shapes, o.assume = probability, key, ruff, shapes, assume
    return o


def _scheme(pos: Position) -> tuple[str, int] | None:
    if not pos.scheme:
        return None
    view, _, suit = pos.scheme.partition(":")
    return view, int(suit)


@registry.primitive(uses_state=False)
def scheme_in(view: str, suit: int) -> str:
    """The scheme "view:suit" for a lead that starts a plan in another suit than its own
    (crossing to the hand that holds the long suit)."""
    return f"{view}:{int(suit)}"


@registry.primitive
def scheme_view(pos: Position) -> str:
    """The belief view of the scheme under way ("" when none)."""
    sch = _scheme(pos)
    return sch[0] if sch else ""


@registry.primitive
@_as_cards
def scheme_next(pos: Position, p: int) -> list[int]:
    """The scheme's next lead from ``p``: the next top winner of the scheme's suit (a
    discard or length plan), or any top winner (cashing out).  Empty when the scheme is
    over: no such card in this hand."""
    sch = _scheme(pos)
    if sch is None or not on_lead(pos, p):
        return []
    view, suit = sch
    if view == "setup-ruff":
        mine = _suit_cards(pos, p, suit)
        partner_trumps = (
            pos.table.trump < 4 and pos.hands[(p + 2) & 3] & SUIT_MASKS[pos.table.trump]
        )
        return [lowest(mine)] if mine and partner_trumps else []
    c = _top_winner(pos, p, suit)
    if c is not None:
        return [c]
    if view == "worst-case":
        return [x for x in (_top_winner(pos, p, s) for s in range(4)) if x is not None][:1]
    return []


@registry.primitive
def scheme_active(pos: Position, p: int) -> bool:
    """A scheme is under way and ``p`` can lead its next card."""
    return bool(scheme_next(pos, p))


def _cross_winner(pos: Position, p: int) -> int | None:
    """In a trick partner led to cross to ``p`` (the scheme under way is about another
    suit than the one led): ``p``'s cheapest card that beats the defenders' every card of
    the suit led and the card winning so far."""
    sch = _scheme(pos)
    s = pos.led_suit()
    if sch is None or s is None or sch[1] == s or pos.trick[0][0] != ((p + 2) & 3):
        return None
    w = pos.winning()
    if w is None or SUIT_OF[w[1]] != s:
        return None  # ruffed: the cross has failed
    theirs = pos.theirs & SUIT_MASKS[s]
    floor = max(w[1], highest(theirs) if theirs else -1)
    above = _suit_cards(pos, p, s) >> (floor + 1)
    return lowest(above) + floor + 1 if above else None


@registry.primitive
def crossing(pos: Position, p: int) -> bool:
    """Partner led to cross to ``p`` and ``p`` can win the trick: the cross is what the
    lead was for, so ``p`` takes it (SimpleCross)."""
    return _cross_winner(pos, p) is not None


@registry.primitive
@_as_cards
def cross_winner(pos: Position, p: int) -> list[int]:
    """The card ``p`` takes partner's crossing lead with: the cheapest sure winner."""
    c = _cross_winner(pos, p)
    return [] if c is None else [c]


@registry.primitive
def view_applies(pos: Position, p: int) -> bool:
    """Defender ``p`` answers a lead of the scheme's suit by our side: his move is one of
    the scheme view's outcomes rather than the generic card-by-card model."""
    sch = _scheme(pos)
    if (
        sch is None
        or sch[0] not in ("ruff", "even", "splits", "worst-case", "sequence")
        or not pos.trick
    ):
        return False
    leader, card = pos.trick[0]
    return (
        SUIT_OF[card] == sch[1]
        and leader in (pos.table.declarer, pos.table.dummy)
        and len(pos.trick) in (1, 3)
    )


@registry.primitive
def view_outcomes(pos: Position, p: int) -> list[OutcomeArg]:
    """The outcomes defender ``p`` branches into under the scheme's view.  As in Tignum 2,
    ruffs come in fourth seat and showing out in second; the other seat just follows."""
    if not view_applies(pos, p):
        return []
    view, suit = _scheme(pos)  # type: ignore[misc]
    second = len(pos.trick) == 1
    d = pos.table.defender_index(p)
    void = pos.voids[d] >> suit & 1 or not pos.may_hold(p, suit)
    follow = [_outcome("follows", 1.0, "follow")]
    if void:
        # Fourth seat sees the whole trick: a defender known to be void who can still win
        # it with a trump does (Tignum 2's ruffs come in fourth seat); otherwise he throws
        # a card.
        follow = [
            _outcome("ruffs (void known)", 1.0, "ruff", True)
            if len(pos.trick) == 3 and their_ruff(pos, p)
            else _outcome("shows out (void known)", 1.0, "uneven")
        ]
    if view in ("even", "splits") and pos.break_assumed(suit):
        return follow  # an earlier round assumed the break: the plan goes on in that world
    trump = pos.table.trump if pos.table.trump < 4 else None
    try:
        if view == "sequence":
            return (None if void else _sequence_outcomes(pos, p, suit)) or follow
        outs = _view(pos, view, suit, second, bool(void), trump)
    except ValueError:
        # The plan's assumptions so far leave no consistent deal (a void assumed here,
        # planned cards there): the branch is impossible; let it just follow.
        return follow
    if outs is None:
        return follow
    if view in ("even", "splits"):
        # an outcome of one break records it (the even view's "diamonds 3-3"; every
        # outcome of the splits view), so the next round does not weigh it again
        return [
            _outcome(
                o.label,
                o.probability,
                o.key,
                o.ruff,
                o.shapes,
                _short_hand(pos, p, suit, o.shapes[0]) if len(o.shapes) == 1 else None,
            )
            for o in outs
        ]
    return [_outcome(o.label, o.probability, o.key, o.ruff) for o in outs]


def _sequence_outcomes(pos: Position, p: int, suit: int) -> list[OutcomeArg] | None:
    """A sequence plan's view: the defenders take their honour at the first chance.

    Figure 5.13 values the spade sequence at -200 on every readable branch: Tignum 2 let
    the honour win at once, from whichever hand holds it.  The generic model lets second
    hand duck the ace and then, not knowing why, lets fourth hand duck it too, which
    values a sequence as if the honour might never be taken.  Second hand splits on who
    holds the honour (the belief model's "who holds this card"); fourth hand, his partner
    having passed the chance, holds it.  None where he cannot beat the card winning
    (partner is winning, or the trick is ruffed): he just follows."""
    t = pos.table
    w = pos.winning()
    if w is None or w[0] not in (t.declarer, t.dummy) or SUIT_OF[w[1]] != suit:
        return None
    above = SUIT_MASKS[suit] & ~((2 << w[1]) - 1)
    if not _their_pool(pos, p) & above:
        return None
    card = highest(pos.theirs & above)
    honour = card_text(card)
    who, partner = seat_name(p), seat_name((p + 2) & 3)
    if len(pos.trick) == 3:
        return [
            _outcome(
                f"{who} takes the {honour} (the defenders win at the first chance)", 1.0, "win"
            )
        ]
    p_has = _p_holds(pos, p, card)
    low = "follow" if their_low(pos, p) else "uneven"
    outs = [
        _outcome(f"{who} has the {honour} and takes it at once", p_has, "win"),
        _outcome(f"{partner} has the {honour}", 1.0 - p_has, low),
    ]
    return [o for o in outs if o.probability > 0]


def _p_holds(pos: Position, p: int, card: int) -> float:
    """P(defender ``p`` holds ``card``), under the table's belief model when it is unseen
    (:func:`_p_holds_one_of` counts vacant places whatever the model)."""
    bit, suit, partner = 1 << card, SUIT_OF[card], (p + 2) & 3
    if pos.hands[p] & bit:
        return 1.0
    if pos.hands[partner] & bit or not pos.may_hold(p, suit):
        return 0.0
    if not pos.may_hold(partner, suit):
        return 1.0
    outs = belief_view(
        "card", pos.knowledge(), suit, model=pos.table.model, card=RANK_CHARS[card % 13]
    )
    return sum(o.probability for o in outs if o.holder == _who(pos, p))


def _short_hand(pos: Position, p: int, suit: int, shape: tuple[int, int]) -> tuple[int, int] | None:
    """(suit, cards of it defender ``p`` holds now) if the suit broke ``shape`` (original
    lengths, longer first).  As Tignum 2 puts discards in second seat, the defender
    answering in second seat is given the short holding, unless the cards played make
    that impossible."""
    d = pos.table.defender_index(p)
    n = (pos.theirs & SUIT_MASKS[suit]).bit_count()
    for length in (shape[1], shape[0]):
        mine = length - pos.played[d][suit]
        others = sum(shape) - length - pos.played[1 - d][suit]
        if (
            mine < 0
            or others < 0
            or mine + others != n
            or mine > pos.counts[d]
            or others > pos.counts[1 - d]
        ):
            continue
        known = pos.lengths[d][suit]
        if known < 0 or known == mine:
            return suit, mine
    return None


def _view(
    pos: Position, view: str, suit: int, second: bool, void: bool, trump: int | None
) -> list[Any] | None:
    """The view's outcomes at this seat, or None where the seat just follows."""
    if view == "ruff":
        if second or trump is None or trump == suit or void:
            return None
        return belief_view(
            "ruff", pos.knowledge(before_trick=True), suit, model=pos.table.model, trump=trump
        )
    if view in ("even", "splits"):
        if not second or void:
            return None
        return belief_view(view, pos.knowledge(), suit, model=pos.table.model)
    if second or void:
        return None
    return belief_view(
        "worst-case", pos.knowledge(before_trick=True), suit, model=pos.table.model, trump=trump
    )


@registry.primitive(uses_state=False)
def prob(o: OutcomeArg) -> float:
    """An outcome's probability."""
    return o.probability


@registry.primitive
@_as_cards
def view_card(pos: Position, p: int, o: OutcomeArg) -> list[int]:
    """The planned card for an outcome: a ruff, a show-out (a discard), or following low."""
    if o.key == "win":
        return their_win(pos, p)
    if o.key == "ruff" or (o.key == "worst" and o.ruff):
        return their_ruff(pos, p) or their_low(pos, p) or their_win(pos, p)
    if o.key == "uneven" or (o.assume is not None and o.assume[1] == 0):
        return their_discard(pos, p)
    return their_low(pos, p) or their_win(pos, p)


# ------------------------------------------------------------------ the operator's effect


@registry.effect
def play_card(pos: Position, p: int, c: int) -> Position:
    return pos.with_card(p, c)


@registry.effect
def answer_card(pos: Position, p: int, c: int, o: OutcomeArg) -> Position:
    """A defender's answer under a scheme's view: the outcome's assumption about his
    length is recorded (the plan goes on in that world), then his card is played."""
    if o.assume is not None:
        pos = pos.assume_length(p, *o.assume)
    return pos.with_card(p, c)


@registry.effect
def lead_card(pos: Position, p: int, c: int, view: str | None) -> Position:
    """Lead ``c``, starting the scheme ``view`` in the card's suit -- or in the suit
    ``view`` names ("splits:3": a cross to the hand whose long clubs are the plan)."""
    if view and ":" not in view:
        view = f"{view}:{SUIT_OF[c]}"
    return pos.with_scheme(view or "").with_card(p, c)


# ------------------------------------------------------------------ hooks


@registry.hook("controlled")
def controlled(pos: Position, agent: int) -> bool:
    return agent in (pos.table.declarer, pos.table.dummy)


@registry.hook("stop_planning")
def stop_planning(pos: Position, tasks: tuple, depth: int) -> bool:
    """Plan whole tricks, never more than the table's horizon: past the first trick only
    while we keep the lead, and past the second only while a scheme goes on (its tricks
    are one plan, as in Tignum 2's trees)."""
    if tasks[0][0] != "Continue":
        return False
    done = pos.won + pos.lost - pos.start_tricks
    if done >= pos.table.horizon:
        return True
    if done >= 1 and pos.table.is_defender(pos.leader):
        return True
    return done >= 2 and not scheme_active(pos, pos.leader)


@registry.hook("evaluate")
def evaluate(pos: Position) -> float:
    """The expected duplicate score for declarer's side: the trick estimate, rounded."""
    t = pos.table
    tricks = estimate_tricks(pos)
    return float(score(t.contract, t.vulnerable, round(tricks)))


@registry.hook("state_key")
def state_key(pos: Position) -> tuple:
    return pos.key()
