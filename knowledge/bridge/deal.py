"""Deals, contracts and the mutable play state that search makes and unmakes cards on.

:class:`Deal` is the four hands before the opening lead, validated on construction so an
impossible deal (a card twice, a card missing, a 12-card hand) is refused with a message
that names the card and the seats.  :class:`PlayState` is the position during play.  It
is mutable on purpose: a planner that explores thousands of lines per deal plays a card
with :meth:`PlayState.play` and takes it back with :meth:`PlayState.undo` instead of
copying positions, the way chess engines make and unmake moves.  Both operations and
:meth:`PlayState.legal_mask` are a few integer operations on 52-bit hand masks
(:mod:`.cards`); nothing bigger than one tuple per completed trick is allocated.

Conversions to and from ``endplay.types.Deal`` let the double-dummy solver (DDS, through
endplay) check positions; endplay is imported only inside those functions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, NamedTuple

from .cards import (
    ALL_CARDS,
    CARD_NAMES,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_OF,
    CardError,
    Denom,
    Seat,
    card_name,
    hand_to_pbn,
    iter_cards,
    parse_card,
    parse_hand,
)

if TYPE_CHECKING:  # endplay is a runtime dependency only of the conversion helpers
    import endplay.types as ep

__all__ = [
    "Contract",
    "Deal",
    "DealError",
    "Doubling",
    "IllegalPlay",
    "PlayState",
    "Trick",
    "Vul",
    "card_from_endplay",
    "card_to_endplay",
    "check_hands",
    "dealer_for_board",
]


class DealError(ValueError):
    """An impossible deal or position.

    ``field`` says which input was wrong ("deal", "trick", "tricks"), ``seat`` and ``card``
    point at the culprit when there is one, so an editor can highlight it.
    """

    def __init__(
        self,
        message: str,
        *,
        field: str = "deal",
        seat: Seat | None = None,
        card: int | None = None,
    ) -> None:
        super().__init__(message)
        self.field = field
        self.seat = seat
        self.card = card


class IllegalPlay(ValueError):
    """A card that may not be played now: not the player's, or a revoke."""


class Vul(IntEnum):
    """Board vulnerability.  (Numbered naturally; endplay's ``Vul`` orders none, both, ns, ew.)"""

    NONE = 0
    NS = 1
    EW = 2
    BOTH = 3

    def is_vulnerable(self, seat: Seat | int) -> bool:
        """Whether ``seat``'s side is vulnerable."""
        return bool(self & (1 << (seat & 1)))

    @property
    def pbn(self) -> str:
        return ("None", "NS", "EW", "All")[self]

    @classmethod
    def parse(cls, text: str) -> Vul:
        """PBN spellings: None/Love/-, NS, EW, All/Both."""
        t = text.strip().upper()
        for vul, names in (
            (cls.NONE, ("NONE", "LOVE", "-", "O", "")),
            (cls.NS, ("NS", "N-S")),
            (cls.EW, ("EW", "E-W")),
            (cls.BOTH, ("ALL", "BOTH", "B")),
        ):
            if t in names:
                return vul
        raise ValueError(f"{text!r} is not a vulnerability; expected None, NS, EW or All")

    @classmethod
    def for_board(cls, board: int) -> Vul:
        """The standard duplicate rotation (boards 1-16, repeating)."""
        i = board - 1
        return (cls.NONE, cls.NS, cls.EW, cls.BOTH)[(i + (i // 4) % 4) % 4]

    def to_endplay(self) -> ep.Vul:
        from endplay.types import Vul as EpVul

        return (EpVul.none, EpVul.ns, EpVul.ew, EpVul.both)[self]

    @classmethod
    def from_endplay(cls, vul: ep.Vul) -> Vul:
        return (cls.NONE, cls.BOTH, cls.NS, cls.EW)[int(vul)]


def dealer_for_board(board: int) -> Seat:
    """Board 1 is dealt by North, 2 by East, and so on round the table."""
    return Seat((board - 1) % 4)


class Doubling(IntEnum):
    """Undoubled, doubled (X) or redoubled (XX); the value doubles the trick score ``2**d``."""

    NONE = 0
    X = 1
    XX = 2


_CONTRACT_RE = re.compile(
    r"^([1-7])\s*(NT|N|S|H|D|C|\u2660|\u2665|\u2666|\u2663)\s*(XX|X|R|D|\*\*|\*)?$"
)


@dataclass(frozen=True, slots=True)
class Contract:
    """Level 1-7, denomination, doubling.  Declarer is kept apart: a contract is what was bid."""

    level: int
    denom: Denom
    doubling: Doubling = Doubling.NONE

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ValueError(f"contract level {self.level} is not 1-7")
        object.__setattr__(self, "denom", Denom(self.denom))
        object.__setattr__(self, "doubling", Doubling(self.doubling))

    @property
    def tricks_needed(self) -> int:
        return self.level + 6

    @property
    def trump(self) -> Denom:
        return self.denom

    @classmethod
    def parse(cls, text: str) -> Contract:
        """'4H', '3NT', '3N', '6SX', '7NTXX' (also '*'/'**' and D/R for X/XX) -> Contract."""
        m = _CONTRACT_RE.match(text.strip().upper())
        if not m:
            raise ValueError(
                f"{text!r} is not a contract; expected a level 1-7, a strain "
                "S, H, D, C or NT, then optionally X or XX (e.g. 4H, 3NT, 6SX)"
            )
        dbl = {None: 0, "X": 1, "D": 1, "*": 1, "XX": 2, "R": 2, "**": 2}[m.group(3)]
        return cls(int(m.group(1)), Denom.parse(m.group(2)), Doubling(dbl))

    def __str__(self) -> str:
        return f"{self.level}{self.denom.letter}{'X' * self.doubling}"

    def display(self) -> str:
        """'4♥X' for the screen."""
        return f"{self.level}{self.denom.symbol}{'X' * self.doubling}"

    def to_endplay(self, declarer: Seat, tricks: int | None = None) -> ep.Contract:
        """An endplay ``Contract`` (its result is over/under-tricks, set from ``tricks``)."""
        from endplay.types import Contract as EpContract
        from endplay.types import Denom as EpDenom
        from endplay.types import Penalty, Player

        c = EpContract(
            level=self.level,
            denom=EpDenom(int(self.denom)),
            declarer=Player(int(declarer)),
            penalty=(Penalty.passed, Penalty.doubled, Penalty.redoubled)[self.doubling],
        )
        if tricks is not None:
            c.result = tricks - self.tricks_needed
        return c


def card_from_endplay(c: ep.Card) -> int:
    """An ``endplay.types.Card`` as a card number (endplay ranks are bit values 4..0x4000)."""
    return int(c.suit) * 13 + int(c.rank).bit_length() - 3


def card_to_endplay(c: int) -> ep.Card:
    from endplay.types import Card as EpCard
    from endplay.types import Denom as EpDenom
    from endplay.types import Rank as EpRank

    return EpCard(suit=EpDenom(c // 13), rank=EpRank(4 << (c % 13)))


# -- deals ---------------------------------------------------------------------------------


def _seat_list(seats: Iterable[Seat]) -> str:
    names = [s.title for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def check_hands(hands: Sequence[int], *, cards_each: int | None = 13, field: str = "deal") -> None:
    """Raise :class:`DealError` unless the four hands are disjoint and hold ``cards_each``.

    With ``cards_each=13`` every card must be dealt, so missing cards are named too.
    Duplicates are reported first: they are the likeliest typing slip and explain the
    counts that follow from them.
    """
    if len(hands) != 4:
        raise DealError(f"a deal has four hands, not {len(hands)}", field=field)
    seen = 0
    for i, h in enumerate(hands):
        clash = seen & h
        if clash:
            c = (clash & -clash).bit_length() - 1
            other = next(Seat(j) for j in range(i) if hands[j] >> c & 1)
            more = clash.bit_count() - 1
            extra = f" (and {more} more card{'s' * (more > 1)} held twice)" if more else ""
            raise DealError(
                f"{CARD_NAMES[c]} is in both {other.title} and {Seat(i).title}{extra}",
                field=field,
                seat=Seat(i),
                card=c,
            )
        seen |= h
    if cards_each is not None:
        wrong = [Seat(i) for i, h in enumerate(hands) if h.bit_count() != cards_each]
        if wrong:
            counts = ", ".join(
                f"{s.title} has {n} card{'s' * (n != 1)}"
                for s, n in ((s, hands[s].bit_count()) for s in wrong)
            )
            missing = ALL_CARDS & ~seen if cards_each == 13 else 0
            tail = (
                f"; missing: {', '.join(CARD_NAMES[c] for c in iter_cards(missing))}"
                if missing
                else ""
            )
            raise DealError(
                f"{counts}; every hand needs {cards_each}{tail}", field=field, seat=wrong[0]
            )


@dataclass(frozen=True, slots=True)
class Deal:
    """Four 13-card hands as masks, indexed by :class:`Seat`; immutable and validated."""

    hands: tuple[int, int, int, int]

    def __post_init__(self) -> None:
        check_hands(self.hands)

    def __getitem__(self, seat: Seat | int) -> int:
        return self.hands[seat]

    def holder(self, c: int) -> Seat:
        """The seat dealt card ``c``."""
        for s in range(4):
            if self.hands[s] >> c & 1:
                return Seat(s)
        raise AssertionError("a validated deal holds every card")  # pragma: no cover

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """'N:AKQ.… … … …' (first seat, then hands clockwise; '-' for one unknown hand).

        One hand given as '-' is completed with the cards nobody else holds, as PBN allows.
        """
        t = text.strip()
        first = Seat.N
        if len(t) >= 2 and t[1] == ":":
            try:
                first = Seat.parse(t[0])
            except ValueError as e:
                raise DealError(f"deal {text!r}: {e} before ':'") from None
            t = t[2:]
        parts = t.split()
        if len(parts) != 4:
            raise DealError(
                f"deal {text!r} has {len(parts)} hand(s); expected 4 separated by "
                "spaces, e.g. N:AKQ.T98..5432 …"
            )
        hands = [0, 0, 0, 0]
        unknown: list[Seat] = []
        for i, part in enumerate(parts):
            seat = Seat((first + i) & 3)
            if part == "-":
                unknown.append(seat)
                continue
            try:
                hands[seat] = parse_hand(part)
            except CardError as e:
                raise DealError(f"{seat.title}: {e}", seat=seat) from None
        if len(unknown) == 1:
            check_hands(hands, cards_each=None)
            hands[unknown[0]] = ALL_CARDS & ~(hands[0] | hands[1] | hands[2] | hands[3])
        elif unknown:
            raise DealError(
                f"{_seat_list(unknown)} are not given ('-'); at most one hand may be left out",
                seat=unknown[0],
            )
        return cls((hands[0], hands[1], hands[2], hands[3]))

    def to_pbn(self, first: Seat = Seat.N) -> str:
        """The PBN ``[Deal]`` value, starting with ``first``."""
        return (
            first.letter
            + ":"
            + " ".join(hand_to_pbn(self.hands[(first + i) & 3]) for i in range(4))
        )

    def __str__(self) -> str:
        return self.to_pbn()

    def to_endplay(self, first: Seat = Seat.N, trump: Denom = Denom.NT) -> ep.Deal:
        """An ``endplay.types.Deal`` with ``first`` on lead and ``trump`` set."""
        from endplay.types import Deal as EpDeal
        from endplay.types import Denom as EpDenom
        from endplay.types import Player

        return EpDeal(self.to_pbn(), first=Player(int(first)), trump=EpDenom(int(trump)))

    @classmethod
    def from_endplay(cls, deal: ep.Deal) -> Deal:
        """The four hands of an endplay deal (its current trick must be empty)."""
        if deal.curtrick:
            raise DealError(
                "the endplay deal has cards on the table; use "
                "PlayState.from_endplay for a position in mid-trick"
            )
        return cls.from_pbn(deal.to_pbn())


# -- play ------------------------------------------------------------------------------------


class Trick(NamedTuple):
    """A completed trick: who led, the four cards in play order, who won it.

    Seats are stored as plain ints (``Seat(t.winner)`` for display): building an enum
    member per trick would cost more than the rest of :meth:`PlayState.play`.
    """

    leader: int
    cards: tuple[int, int, int, int]
    winner: int

    def card_of(self, seat: Seat | int) -> int:
        return self.cards[(seat - self.leader) & 3]


_new_trick = tuple.__new__  # NamedTuple's own __new__ is a Python function: 2x slower


def _winner_index(cards: Sequence[int], trump: int) -> int:
    """Index in ``cards`` (play order) of the card winning so far."""
    wi = 0
    w = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if SUIT_OF[c] == SUIT_OF[w]:
            if c > w:
                wi, w = i, c
        elif SUIT_OF[c] == trump:
            wi, w = i, c
    return wi


class PlayState:
    """A position in the play: hands left, the trick on the table, tricks won, history.

    Attributes are public for fast reading by search code, but change them only through
    :meth:`play` and :meth:`undo`.  ``won`` is indexed by side (0 = N-S, 1 = E-W);
    ``gone`` is the mask of cards in completed tricks (what :func:`.cards.equivalents`
    wants); ``trick`` holds the current trick's cards in play order.
    """

    __slots__ = (
        "_total",
        "_wins",
        "contract",
        "declarer",
        "gone",
        "hands",
        "history",
        "leader",
        "trick",
        "trump",
        "turn",
        "won",
    )

    def __init__(
        self,
        hands: Sequence[int],
        trump: Denom | int,
        leader: Seat | int,
        *,
        declarer: Seat | int | None = None,
        contract: Contract | None = None,
        trick: Sequence[int] = (),
        won: tuple[int, int] = (0, 0),
    ) -> None:
        """A position; prefer :meth:`start` or :meth:`from_position`, which validate."""
        self.hands: list[int] = list(hands)
        self.trump: int = int(trump)
        self.leader: int = int(leader)
        self.declarer: int = int(declarer) if declarer is not None else (self.leader + 3) & 3
        self.contract = contract
        self.trick: list[int] = list(trick)
        self.turn: int = (self.leader + len(self.trick)) & 3
        self.won: list[int] = [won[0], won[1]]
        self.history: list[Trick] = []
        in_play = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        for c in self.trick:
            in_play |= 1 << c
        self.gone: int = ALL_CARDS & ~in_play
        self._wins: list[int] = [
            _winner_index(self.trick[: i + 1], self.trump) for i in range(len(self.trick))
        ]
        left = (in_play.bit_count() + 3) // 4
        self._total: int = won[0] + won[1] + left

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def start(cls, deal: Deal, contract: Contract, declarer: Seat | int) -> PlayState:
        """Before the opening lead, which declarer's left-hand opponent makes."""
        return cls(
            deal.hands,
            contract.denom,
            (int(declarer) + 1) & 3,
            declarer=declarer,
            contract=contract,
        )

    @classmethod
    def from_position(
        cls,
        hands: Sequence[int],
        trump: Denom | int,
        leader: Seat | int,
        *,
        trick: Sequence[int] = (),
        won: tuple[int, int] = (0, 0),
        declarer: Seat | int | None = None,
        contract: Contract | None = None,
    ) -> PlayState:
        """A mid-play position: the cards still held, the trick so far (in play order, led by
        ``leader``) and tricks already won by N-S and E-W.

        Checks that the cards are consistent -- nobody holds a card twice, the seats that
        have played to this trick hold one card fewer than those still to play -- so a
        hand-typed ending is refused with a reason rather than played wrongly.
        """
        check_hands(hands, cards_each=None, field="position")
        if len(trick) > 3:
            raise DealError(
                f"a trick in progress has at most 3 cards, not {len(trick)}", field="trick"
            )
        in_hands = hands[0] | hands[1] | hands[2] | hands[3]
        seen = 0
        for i, c in enumerate(trick):
            seat = Seat((int(leader) + i) & 3)
            if (in_hands | seen) >> c & 1:
                raise DealError(
                    f"{CARD_NAMES[c]} is on the table (played by {seat.title}) and also held",
                    field="trick",
                    seat=seat,
                    card=c,
                )
            seen |= 1 << c
        k = hands[(int(leader) + len(trick)) & 3].bit_count()
        if k == 0 and trick:
            raise DealError(
                "the trick in progress cannot be completed: the hands are empty", field="trick"
            )
        for i in range(4):
            seat = Seat((int(leader) + i) & 3)
            want = k - 1 if i < len(trick) else k
            if hands[seat].bit_count() != want:
                raise DealError(
                    f"{seat.title} holds {hands[seat].bit_count()} card(s) but should "
                    f"hold {want}: the seats still to play to this trick hold "
                    f"{k}, those that have played one fewer",
                    field="position",
                    seat=seat,
                )
        if won[0] < 0 or won[1] < 0 or won[0] + won[1] + k > 13:
            raise DealError(
                f"{won[0]} + {won[1]} tricks won plus {k} still to play exceed 13", field="tricks"
            )
        return cls(hands, trump, leader, declarer=declarer, contract=contract, trick=trick, won=won)

    @classmethod
    def from_endplay(
        cls,
        deal: ep.Deal,
        *,
        declarer: Seat | int | None = None,
        won: tuple[int, int] = (0, 0),
        contract: Contract | None = None,
    ) -> PlayState:
        """From an ``endplay.types.Deal`` (its ``first``, ``trump`` and ``curtrick``)."""
        pbn = deal.to_pbn().split(":", 1)[1].split()  # to_pbn() starts with North
        hands = [parse_hand(h) for h in pbn]
        trick = [card_from_endplay(c) for c in deal.curtrick]
        return cls.from_position(
            hands,
            int(deal.trump),
            int(deal.first),
            trick=trick,
            won=won,
            declarer=declarer,
            contract=contract,
        )

    def to_endplay(self) -> ep.Deal:
        """This position as an ``endplay.types.Deal`` (for DDS): hands, leader, trump, trick."""
        from endplay.types import Deal as EpDeal
        from endplay.types import Denom as EpDenom
        from endplay.types import Player

        hands = list(self.hands)
        for i, c in enumerate(self.trick):
            hands[(self.leader + i) & 3] |= 1 << c
        d = EpDeal(
            "N:" + " ".join(hand_to_pbn(h) for h in hands),
            first=Player(self.leader),
            trump=EpDenom(self.trump),
        )
        for c in self.trick:
            d.play(card_to_endplay(c))
        return d

    def copy(self) -> PlayState:
        """An independent copy (search should prefer play/undo; this is for keeping a position)."""
        other = PlayState.__new__(PlayState)
        other.hands = list(self.hands)
        other.trump, other.leader, other.turn = self.trump, self.leader, self.turn
        other.declarer, other.contract = self.declarer, self.contract
        other.trick = list(self.trick)
        other.won = list(self.won)
        other.history = list(self.history)
        other.gone = self.gone
        other._wins = list(self._wins)
        other._total = self._total
        return other

    # -- make / unmake ---------------------------------------------------------------------------

    def legal_mask(self) -> int:
        """The cards the player to move may play, as a mask: the led suit if held, else all."""
        hand = self.hands[self.turn]
        if self.trick:
            follow = hand & SUIT_MASKS[SUIT_OF[self.trick[0]]]
            if follow:
                return follow
        return hand

    def legal_plays(self) -> list[int]:
        """The cards the player to move may play, lowest card number first."""
        m = self.legal_mask()
        out: list[int] = []
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        return out

    def play(self, c: int) -> None:
        """Play card ``c`` for the player to move; completes the trick on the fourth card.

        Raises :class:`IllegalPlay` (and changes nothing) if the card is not in that hand
        or fails to follow suit.
        """
        seat = self.turn
        hand = self.hands[seat]
        bit = 1 << c
        if not hand & bit:
            raise IllegalPlay(self._not_held(c))
        trick = self.trick
        n = len(trick)
        if n:
            lsuit = SUIT_OF[trick[0]]
            s = SUIT_OF[c]
            if s != lsuit and hand & SUIT_MASKS[lsuit]:
                raise IllegalPlay(
                    f"{Seat(seat).title} must follow {SUIT_LETTERS[lsuit]} and "
                    f"cannot play {CARD_NAMES[c]}"
                )
            wi = self._wins[-1]
            w = trick[wi]
            ws = SUIT_OF[w]
            if (s == ws and c > w) or (s == self.trump and ws != s):
                wi = n
        else:
            wi = 0
        self.hands[seat] = hand ^ bit
        if n == 3:
            leader = self.leader
            winner = (leader + wi) & 3
            self.won[winner & 1] += 1
            a, b, d = trick
            self.history.append(_new_trick(Trick, (leader, (a, b, d, c), winner)))
            self.gone |= (1 << a) | (1 << b) | (1 << d) | bit
            trick.clear()
            self._wins.clear()
            self.leader = self.turn = winner
        else:
            trick.append(c)
            self._wins.append(wi)
            self.turn = (seat + 1) & 3

    def undo(self) -> int:
        """Take back the last card played and return it; raises ``IndexError`` at the start."""
        trick = self.trick
        if trick:
            c = trick.pop()
            self._wins.pop()
            seat = (self.leader + len(trick)) & 3
            self.hands[seat] |= 1 << c
            self.turn = seat
            return c
        if not self.history:
            raise IndexError("no card to take back")
        leader, cards, winner = self.history.pop()
        self.won[winner & 1] -= 1
        a, b, d, c = cards
        self.gone &= ~((1 << a) | (1 << b) | (1 << d) | (1 << c))
        seat = (leader + 3) & 3
        self.hands[seat] |= 1 << c
        self.leader = leader
        self.turn = seat
        trick.extend((a, b, d))
        wi = (
            1
            if (SUIT_OF[b] == SUIT_OF[a] and b > a) or (SUIT_OF[b] == self.trump != SUIT_OF[a])
            else 0
        )
        self._wins.extend((0, wi))
        w = trick[wi]
        self._wins.append(
            2
            if (SUIT_OF[d] == SUIT_OF[w] and d > w) or (SUIT_OF[d] == self.trump != SUIT_OF[w])
            else wi
        )
        return c

    def _not_held(self, c: int) -> str:
        if not 0 <= c < 52:
            return f"{c} is not a card number (0-51)"
        holder = next((Seat(s).title for s in range(4) if self.hands[s] >> c & 1), None)
        where = f"it is {holder}'s" if holder else "it has been played"
        return f"{Seat(self.turn).title} cannot play {CARD_NAMES[c]}: {where}"

    # -- reading the position ------------------------------------------------------------------

    @property
    def trick_winner(self) -> Seat | None:
        """Who is winning the trick in progress (None before the lead)."""
        if not self.trick:
            return None
        return Seat((self.leader + self._wins[-1]) & 3)

    @property
    def remaining_tricks(self) -> int:
        """Tricks still to be completed, counting the one in progress."""
        return self._total - self.won[0] - self.won[1]

    @property
    def is_over(self) -> bool:
        return self.won[0] + self.won[1] == self._total

    @property
    def declarer_tricks(self) -> int:
        return self.won[self.declarer & 1]

    @property
    def defender_tricks(self) -> int:
        return self.won[(self.declarer & 1) ^ 1]

    @property
    def cards_played(self) -> int:
        """Cards played since this state was created (history plus the trick in progress)."""
        return 4 * len(self.history) + len(self.trick)

    def played_mask(self) -> int:
        """Every card out of the hands: completed tricks plus the trick on the table."""
        m = self.gone
        for c in self.trick:
            m |= 1 << c
        return m

    def plays(self) -> list[int]:
        """The cards played since this state was created, in play order."""
        out = [c for t in self.history for c in t.cards]
        out.extend(self.trick)
        return out

    def replay(self, cards: Iterable[int | str]) -> PlayState:
        """Play ``cards`` (numbers or text such as 'SA') in order; returns ``self``."""
        for c in cards:
            self.play(parse_card(c) if isinstance(c, str) else c)
        return self

    def snapshot(self) -> tuple[object, ...]:
        """Everything that defines the state, hashable: for tests and transposition tables."""
        return (
            tuple(self.hands),
            self.trump,
            self.declarer,
            self.leader,
            self.turn,
            tuple(self.trick),
            tuple(self.won),
            tuple(self.history),
            self.gone,
            tuple(self._wins),
            self._total,
        )

    def __repr__(self) -> str:
        trick = " ".join(card_name(c) for c in self.trick)
        return (
            f"<PlayState trump={Denom(self.trump).letter} turn={Seat(self.turn).letter} "
            f"trick=[{trick}] NS={self.won[0]} EW={self.won[1]}>"
        )
