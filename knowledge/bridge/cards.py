"""Cards, seats and hands as small integers, so card play is a handful of bit operations.

A card is an ``int`` 0..51: ``suit * 13 + (rank - 2)``, suits in the order spades, hearts,
diamonds, clubs (the order endplay and DDS use), ranks 2..14 (ace = 14).  A *hand* -- or any
set of cards -- is a 52-bit ``int`` with bit ``card`` set for each card it holds, so each
suit is a 13-bit lane and, inside a lane, a higher bit is a higher rank.  That makes the
questions search asks millions of times cheap: "which cards may I play?" is a mask with the
led suit's lane; "highest card in the suit" is ``bit_length``; "how many?" is ``bit_count``.

Cards stay plain ints (as squares do in python-chess) rather than objects, because the
planner allocates none per move; :func:`card_name` and :func:`parse_card` convert at the
edges.  Seats, denominations and ranks are ``IntEnum``s for readable APIs; hot loops use
their integer values.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum

__all__ = [
    "ALL_CARDS",
    "CARD_NAMES",
    "RANK_CHARS",
    "RANK_OF",
    "SUITS",
    "SUIT_LETTERS",
    "SUIT_MASKS",
    "SUIT_OF",
    "SUIT_SYMBOLS",
    "Card",
    "CardError",
    "Denom",
    "Rank",
    "Seat",
    "Side",
    "card",
    "card_name",
    "cards_in_suit",
    "class_representatives",
    "count",
    "equivalence_classes",
    "equivalent",
    "equivalents",
    "hand_to_pbn",
    "hand_to_text",
    "highest",
    "iter_cards",
    "iter_cards_desc",
    "lowest",
    "mask_of",
    "parse_card",
    "parse_hand",
    "parse_play",
    "suit_holding",
]

Card = int
"""A card, 0..51 (``suit * 13 + rank - 2``).  An alias, not a class: cards are hot-path data."""


class CardError(ValueError):
    """Text that does not name a card or a hand; the message quotes the text and the format."""


class Seat(IntEnum):
    """A seat at the table, clockwise from North, numbered as endplay's ``Player``."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def next(self) -> Seat:
        """The seat to the left: who plays after this seat (left-hand opponent)."""
        return Seat((self + 1) & 3)

    @property
    def prev(self) -> Seat:
        """The seat to the right (right-hand opponent)."""
        return Seat((self + 3) & 3)

    @property
    def partner(self) -> Seat:
        return Seat(self ^ 2)

    @property
    def side(self) -> Side:
        """N and S are one side, E and W the other: seat parity, so ``seat & 1`` in hot code."""
        return Side(self & 1)

    @property
    def letter(self) -> str:
        return "NESW"[self]

    @property
    def title(self) -> str:
        return ("North", "East", "South", "West")[self]

    @classmethod
    def parse(cls, text: str) -> Seat:
        """'N', 'north', 'E', ... -> Seat; raises ``ValueError`` naming the accepted letters."""
        t = text.strip().upper()
        if t and t in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
            return cls("NESW".index(t[0]))
        raise ValueError(f"{text!r} is not a seat; expected N, E, S or W")


class Side(IntEnum):
    """A partnership; ``Seat.side`` maps onto it."""

    NS = 0
    EW = 1


class Denom(IntEnum):
    """Suits and no-trump, numbered as endplay's ``Denom`` (and DDS): S, H, D, C, then NT."""

    S = 0
    H = 1
    D = 2
    C = 3
    NT = 4

    @property
    def letter(self) -> str:
        return ("S", "H", "D", "C", "NT")[self]

    @property
    def symbol(self) -> str:
        """Suit symbol for display (``NT`` for no-trump)."""
        return ("\u2660", "\u2665", "\u2666", "\u2663", "NT")[self]

    @property
    def is_major(self) -> bool:
        return self <= 1

    @property
    def is_minor(self) -> bool:
        return self in (2, 3)

    @classmethod
    def parse(cls, text: str) -> Denom:
        """'S', '♠', 'NT', 'N' -> Denom; raises ``ValueError`` naming what is accepted."""
        t = text.strip().upper()
        if t in ("N", "NT", "NOTRUMP", "NOTRUMPS"):
            return cls.NT
        if len(t) == 1 and t in _SUIT_CHARS:
            return cls(_SUIT_CHARS[t])
        raise ValueError(f"{text!r} is not a denomination; expected S, H, D, C or NT")


class Rank(IntEnum):
    """Ranks by face value, so ``Rank.ACE > Rank.KING`` reads naturally; card = suit*13 + rank-2."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return RANK_CHARS[self - 2]


SUITS: tuple[Denom, Denom, Denom, Denom] = (Denom.S, Denom.H, Denom.D, Denom.C)
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "\u2660\u2665\u2666\u2663"
RANK_CHARS = "23456789TJQKA"
_SUIT_CHARS = {
    "S": 0,
    "H": 1,
    "D": 2,
    "C": 3,
    "\u2660": 0,
    "\u2665": 1,
    "\u2666": 2,
    "\u2663": 3,
    "\u2664": 0,
    "\u2661": 1,
    "\u2662": 2,
    "\u2667": 3,
}
_RANK_INDEX = {ch: i for i, ch in enumerate(RANK_CHARS)}

LANE = 0x1FFF
"""The 13 bits of one suit."""
SUIT_MASKS: tuple[int, int, int, int] = (LANE, LANE << 13, LANE << 26, LANE << 39)
"""``SUIT_MASKS[s]``: every card of suit ``s`` as a 52-bit mask."""
ALL_CARDS = (1 << 52) - 1

SUIT_OF: tuple[int, ...] = tuple(c // 13 for c in range(52))
"""Lookup table card -> suit; a tuple index is cheaper than a division in hot loops."""
RANK_OF: tuple[int, ...] = tuple(c % 13 + 2 for c in range(52))
"""Lookup table card -> rank 2..14."""
CARD_NAMES: tuple[str, ...] = tuple(SUIT_LETTERS[c // 13] + RANK_CHARS[c % 13] for c in range(52))
"""Lookup table card -> text such as 'SA', 'HT', 'C2'."""


def card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3) and ``rank`` (2..14)."""
    if not (0 <= suit <= 3 and 2 <= rank <= 14):
        raise CardError(f"no card has suit {suit} and rank {rank}; suit is 0..3, rank 2..14")
    return suit * 13 + rank - 2


def card_name(c: Card, *, symbols: bool = False) -> str:
    """'SA', or '♠A' with ``symbols`` (for display; PBN and LIN use letters)."""
    if symbols:
        return SUIT_SYMBOLS[c // 13] + RANK_CHARS[c % 13]
    return CARD_NAMES[c]


def parse_card(text: str) -> Card:
    """'SA', 'h7', '♦T', 'C10' -> card: suit letter or symbol, then rank (T or 10 for the ten)."""
    t = text.strip().upper()
    if len(t) >= 2 and t[0] in _SUIT_CHARS:
        r = t[1:]
        if r == "10":
            r = "T"
        if len(r) == 1 and r in _RANK_INDEX:
            return _SUIT_CHARS[t[0]] * 13 + _RANK_INDEX[r]
    raise CardError(
        f"{text!r} is not a card; expected a suit (S, H, D, C) then a rank "
        "(2-9, T or 10, J, Q, K, A), e.g. SA, H7, DT, C2"
    )


def parse_play(text: str) -> list[Card]:
    """Cards written back to back, two characters each, as play records keep them
    ('SQS3S6SA...' -> [♠Q, ♠3, ♠6, ♠A])."""
    return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


def mask_of(cards: Iterable[Card]) -> int:
    """The set of ``cards`` as a mask."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def count(mask: int) -> int:
    return mask.bit_count()


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards of ``mask`` in card-number order: S2..SA, then H2..HA, D2..DA, C2..CA."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def iter_cards_desc(mask: int) -> Iterator[Card]:
    """The cards of ``mask`` from the highest-numbered down (within a suit: ace first)."""
    while mask:
        c = mask.bit_length() - 1
        yield c
        mask ^= 1 << c


def highest(mask: int) -> Card:
    """Highest card of a one-suit ``mask`` (-1 if empty).  Restrict with ``SUIT_MASKS`` first."""
    return mask.bit_length() - 1


def lowest(mask: int) -> Card:
    """Lowest card of a one-suit ``mask`` (-1 if empty)."""
    return (mask & -mask).bit_length() - 1


def cards_in_suit(hand: int, suit: int) -> int:
    """The cards of ``hand`` in ``suit``, still as a 52-bit mask (cards keep their numbers)."""
    return hand & SUIT_MASKS[suit]


def suit_holding(hand: int, suit: int) -> int:
    """The 13-bit lane of ``suit``: bit ``rank - 2`` set for each rank held."""
    return (hand >> (13 * suit)) & LANE


# -- relative ranks ------------------------------------------------------------------------
#
# Two cards of a suit are *equivalent* for one hand when every card ranked between them is
# either held by that hand or already gone (played to a completed trick): whichever of them
# the hand plays, the rest of the deal sees the same thing.  Search need only try one card of
# each class, and critics use the classes to say "the Q and J are now equals".  Cards lying
# on the table in the current trick are NOT gone for this purpose -- they still decide this
# trick -- so pass the cards of completed tricks only.


def equivalent(a: Card, b: Card, holding: int, gone: int) -> bool:
    """Whether cards ``a`` and ``b`` are equivalent for a hand holding ``holding`` (52-bit)."""
    if SUIT_OF[a] != SUIT_OF[b]:
        return False
    lo, hi = (a, b) if a < b else (b, a)
    between = ((1 << hi) - 1) ^ ((2 << lo) - 1)
    return not (between & ~(holding | gone))


def equivalents(c: Card, holding: int, gone: int) -> int:
    """The cards of ``holding`` equivalent to ``c`` (including ``c`` if held), as a mask.

    The run of 'held or gone' cards through ``c`` is found with one addition (the carry
    stops at the first card above that is neither) and one ``bit_length`` below.
    """
    suit = SUIT_OF[c]
    shift = 13 * suit
    avail = (((holding | gone) >> shift) & LANE) | (1 << (c - shift))
    bit = 1 << (c - shift)
    top = (avail + bit) & ~avail  # the first bit above the run
    upper = top - bit  # bits c .. top-1
    below = bit - 1
    holes = ~avail & below  # cards below c that are neither held nor gone
    lower = below ^ ((1 << holes.bit_length()) - 1)
    return ((upper | lower) << shift) & holding


def equivalence_classes(holding: int, gone: int) -> list[int]:
    """``holding`` split into classes of equivalent cards (masks), lowest first, suit by suit."""
    classes: list[int] = []
    rest = holding
    while rest:
        c = (rest & -rest).bit_length() - 1
        cls = equivalents(c, holding, gone)
        classes.append(cls)
        rest &= ~cls
    return classes


def class_representatives(cards: int, holding: int, gone: int) -> int:
    """One card (the lowest) of each equivalence class among ``cards`` (a subset of ``holding``).

    What a search tries instead of every legal card: ``class_representatives(legal, hand,
    gone)``.
    """
    reps = 0
    rest = cards
    while rest:
        low = rest & -rest
        reps |= low
        rest &= ~equivalents(low.bit_length() - 1, holding, gone)
    return reps


# -- text ------------------------------------------------------------------------------------


def parse_hand(text: str) -> int:
    """A PBN hand 'AKQ.T98..5432' (spades.hearts.diamonds.clubs; '10' accepted for T) -> mask.

    Raises ``CardError`` for a bad character, a wrong number of suits, or a rank given
    twice (which a mask would otherwise swallow silently).
    """
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise CardError(
            f"hand {text!r} has {len(parts)} suit(s); expected 4 separated by dots "
            "(spades.hearts.diamonds.clubs), e.g. AKQ.T98..5432"
        )
    mask = 0
    for suit, part in enumerate(parts):
        p = part.upper().replace("10", "T")
        if p == "-":
            p = ""
        for ch in p:
            i = _RANK_INDEX.get(ch)
            if i is None:
                raise CardError(
                    f"hand {text!r}: {ch!r} in {SUIT_LETTERS[suit]} is not a rank; "
                    "expected 2-9, T, J, Q, K, A"
                )
            bit = 1 << (suit * 13 + i)
            if mask & bit:
                raise CardError(f"hand {text!r}: {CARD_NAMES[suit * 13 + i]} appears twice")
            mask |= bit
    return mask


def hand_to_pbn(hand: int) -> str:
    """Mask -> 'AKQ.T98..5432' (ranks high to low, empty for a void), as PBN writes hands."""
    return ".".join(
        "".join(RANK_CHARS[i] for i in range(12, -1, -1) if lane >> i & 1)
        for lane in (suit_holding(hand, s) for s in range(4))
    )


def hand_to_text(hand: int, *, symbols: bool = True) -> str:
    """Mask -> '♠AKQ ♥T98 ♦— ♣5432' for display."""
    out = []
    for s in range(4):
        lane = suit_holding(hand, s)
        ranks = "".join(RANK_CHARS[i] for i in range(12, -1, -1) if lane >> i & 1) or "\u2014"
        out.append((SUIT_SYMBOLS[s] if symbols else SUIT_LETTERS[s]) + ranks)
    return " ".join(out)
