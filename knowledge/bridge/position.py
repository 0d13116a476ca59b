"""What declarer's planner reasons about: a position as declarer knows it, plus the
assumptions a plan has made about the defenders' cards.

Tignum 2 planned over *state information sets*: declarer and dummy's cards are known, the
defenders' are not.  A :class:`Position` holds exactly that -- our two hands, the pool of
unseen cards, each defender's shown voids, the number of cards each still holds (the
vacant places) and the lengths a plan has *assumed* ("diamonds 3-3") -- and nothing that
declarer could not know.  Opponents' moves in a plan are *planned cards* drawn from the
unseen pool (the dissertation's "♦T (planned)"); playing one records where that card was.

Positions are immutable and hashable: the engine shares them between branches and keys
its caches on them.  Seats are ints (N=0, E=1, S=2, W=3) and suits ints (♠=0 … ♣=3, 4 is
no-trump) for speed; :mod:`knowledge.bridge.cards` names them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from knowledge.bridge.beliefs import DEFAULT_MODEL, BeliefModel, Knowledge
from knowledge.bridge.cards import ALL_CARDS, SUIT_MASKS, SUIT_OF
from knowledge.bridge.deal import Contract
from knowledge.bridge.information import Information

__all__ = ["Position", "Table", "position_of"]

UNKNOWN = -1

T = TypeVar("T")


def as_pair(values: Iterable[T]) -> tuple[T, T]:
    """Per-defender values as the fixed-size tuple the fields hold."""
    first, second = values
    return first, second


def as_four(values: Iterable[T]) -> tuple[T, T, T, T]:
    """Per-seat (or per-suit) values as the fixed-size tuple the fields hold."""
    a, b, c, d = values
    return a, b, c, d


@dataclass(frozen=True, eq=False)
class Table:
    """What does not change during one deal's planning: the contract and its scoring."""

    contract: Contract
    declarer: int
    vulnerable: bool
    model: BeliefModel = field(default=DEFAULT_MODEL)
    horizon: int = 2
    """Tricks to plan beyond the current one's start when there is a real choice."""

    @property
    def trump(self) -> int:
        return int(self.contract.denom)

    @property
    def dummy(self) -> int:
        return (self.declarer + 2) & 3

    @property
    def defenders(self) -> tuple[int, int]:
        """(declarer's left-hand opponent, right-hand opponent): per-defender tuples are
        indexed in this order (West, East when South declares)."""
        return ((self.declarer + 1) & 3, (self.declarer + 3) & 3)

    def is_defender(self, seat: int) -> bool:
        return (seat - self.declarer) & 1 == 1

    def defender_index(self, seat: int) -> int:
        return 0 if seat == (self.declarer + 1) & 3 else 1


@dataclass(frozen=True, slots=True)
class Position:
    table: Table
    hands: tuple[int, int, int, int]
    """Known cards still held, by seat; a defender's entry holds cards the plan placed."""
    unseen: int
    """Cards the defenders hold that are not placed with either of them."""
    trick: tuple[tuple[int, int], ...]
    """The trick in progress: (seat, card) in play order."""
    leader: int
    won: int
    """Tricks won by declarer's side."""
    lost: int
    counts: tuple[int, int]
    """Cards each defender (left-hand, right-hand opponent) still holds, placed or not."""
    lengths: tuple[tuple[int, ...], tuple[int, ...]]
    """Per defender and suit: cards of the suit still held, if a plan assumed it (else -1)."""
    voids: tuple[int, int]
    """Per defender: bit s set when the defender has shown out of suit s."""
    start_tricks: int
    """Tricks completed when planning began (the horizon counts from here)."""
    played: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 0, 0), (0, 0, 0, 0))
    """Per defender and suit: cards played so far (labels name original lengths)."""
    scheme: str = ""
    """The scheme under way, "view:suit" (the belief view the defenders' answers are
    weighted by, and the suit it is about); empty when none."""

    # ------------------------------------------------------------------ reading
    @property
    def turn(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @property
    def tricks_done(self) -> int:
        return self.won + self.lost

    @property
    def ours(self) -> int:
        t = self.table
        return self.hands[t.declarer] | self.hands[t.dummy]

    @property
    def theirs(self) -> int:
        """Every card the defenders still hold (placed or unseen)."""
        lho, rho = self.table.defenders
        return self.unseen | self.hands[lho] | self.hands[rho]

    @property
    def gone(self) -> int:
        """Cards out of play (completed tricks): neither held, unseen, nor on the table --
        what :func:`knowledge.bridge.cards.equivalents` wants."""
        held = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3] | self.unseen
        for _, c in self.trick:
            held |= 1 << c
        return ALL_CARDS & ~held

    def led_suit(self) -> int | None:
        return SUIT_OF[self.trick[0][1]] if self.trick else None

    def winning(self) -> tuple[int, int] | None:
        """(seat, card) winning the trick so far."""
        if not self.trick:
            return None
        trump = self.table.trump
        best = self.trick[0]
        for seat, c in self.trick[1:]:
            bs, cs = SUIT_OF[best[1]], SUIT_OF[c]
            if (cs == bs and c > best[1]) or (cs == trump and bs != trump):
                best = (seat, c)
        return best

    def may_hold(self, seat: int, suit: int) -> bool:
        """Could defender ``seat`` still hold a card of ``suit``?"""
        d = self.table.defender_index(seat)
        if self.voids[d] >> suit & 1 or self.lengths[d][suit] == 0:
            return False
        return bool((self.unseen | self.hands[seat]) & SUIT_MASKS[suit])

    def break_assumed(self, suit: int) -> bool:
        """The plan has assumed how ``suit`` breaks: both defenders' lengths are set and
        account for every card of the suit they hold."""
        w, e = self.lengths[0][suit], self.lengths[1][suit]
        return w >= 0 and e >= 0 and w + e == (self.theirs & SUIT_MASKS[suit]).bit_count()

    # ------------------------------------------------------------------ changing
    def with_card(self, seat: int, c: int) -> Position:
        """``seat`` plays ``c`` (a defender's card comes from the unseen pool or his
        placed cards); completes the trick when it is the fourth card."""
        bit = 1 << c
        hands = list(self.hands)
        unseen = self.unseen
        counts = self.counts
        lengths = self.lengths
        voids = self.voids
        suit = SUIT_OF[c]
        if self.table.is_defender(seat):
            d = self.table.defender_index(seat)
            if hands[seat] & bit:
                hands[seat] &= ~bit
            else:
                unseen &= ~bit
            counts = _set(counts, d, counts[d] - 1)
            played = _set(self.played, d, _set(self.played[d], suit, self.played[d][suit] + 1))
            if lengths[d][suit] > 0:
                lengths = _set(lengths, d, _set(lengths[d], suit, lengths[d][suit] - 1))
            led = self.led_suit()
            if led is not None and suit != led:
                voids = _set(voids, d, voids[d] | 1 << led)
                lengths = _set(lengths, d, _set(lengths[d], led, 0))
        else:
            hands[seat] &= ~bit
            played = self.played
        trick = (*self.trick, (seat, c))
        if len(trick) < 4:
            return replace(
                self,
                hands=as_four(hands),
                unseen=unseen,
                trick=trick,
                counts=counts,
                lengths=lengths,
                voids=voids,
                played=played,
            )
        probe = replace(self, trick=trick)
        winner = probe.winning()
        assert winner is not None
        ours = winner[0] in (self.table.declarer, self.table.dummy)
        return replace(
            self,
            hands=as_four(hands),
            unseen=unseen,
            trick=(),
            leader=winner[0],
            won=self.won + ours,
            lost=self.lost + (not ours),
            counts=counts,
            lengths=lengths,
            voids=voids,
            played=played,
            scheme=self.scheme if ours or self.scheme.startswith("setup-ruff") else "",
        )

    def assume_length(self, seat: int, suit: int, n: int) -> Position:
        """Record a plan's assumption: defender ``seat`` holds ``n`` cards of ``suit``
        now (the partner then holds the rest of the unplaced ones)."""
        d = self.table.defender_index(seat)
        out = _set(self.lengths, d, _set(self.lengths[d], suit, n))
        other = 1 - d
        rest = self.theirs & SUIT_MASKS[suit]
        out = _set(out, other, _set(out[other], suit, max(0, rest.bit_count() - n)))
        return replace(self, lengths=out)

    def with_scheme(self, scheme: str) -> Position:
        return self if scheme == self.scheme else replace(self, scheme=scheme)

    def key(self) -> tuple[Any, ...]:
        return (
            self.hands,
            self.unseen,
            self.trick,
            self.leader,
            self.won,
            self.lost,
            self.counts,
            self.lengths,
            self.voids,
            self.scheme,
        )

    def knowledge(self, *, before_trick: bool = False) -> Knowledge:
        """The same information set as counts, for the belief functions.

        ``before_trick``: as it was when the current trick was led -- the defenders' cards
        on the table go back to the unseen pool.  Tignum 2 weighs a scheme's outcomes once
        for the whole trick (the ruff is taken in fourth seat whoever is short), so the
        fourth-seat node uses the knowledge of the lead, not of second hand's card.
        """
        if before_trick and self.trick:
            pos = self
            unseen = self.unseen
            counts = list(self.counts)
            played = [list(self.played[0]), list(self.played[1])]
            voids = list(self.voids)
            led = SUIT_OF[self.trick[0][1]]
            for seat, c in self.trick:
                if self.table.is_defender(seat):
                    d = self.table.defender_index(seat)
                    unseen |= 1 << c
                    counts[d] += 1
                    played[d][SUIT_OF[c]] -= 1
                    if SUIT_OF[c] != led:
                        voids[d] &= ~(1 << led)
            pos = replace(
                self,
                unseen=unseen,
                counts=as_pair(counts),
                played=(tuple(played[0]), tuple(played[1])),
                voids=as_pair(voids),
                trick=(),
            )
            return pos.knowledge()
        lho, rho = self.table.defenders
        unseen_by_suit = as_four((self.unseen & SUIT_MASKS[s]).bit_count() for s in range(4))
        known = as_pair(
            tuple((self.hands[seat] & SUIT_MASKS[s]).bit_count() for s in range(4))
            for seat in (lho, rho)
        )
        shown_out = as_pair(frozenset(s for s in range(4) if v >> s & 1) for v in self.voids)
        return Knowledge(
            hands=self.counts,
            unseen=unseen_by_suit,
            known=known,
            played=self.played,
            voids=shown_out,
        )


def _set(t: tuple[Any, ...], i: int, v: Any) -> tuple[Any, ...]:
    return (*t[:i], v, *t[i + 1 :])


def position_of(info: Information, table: Table, start_tricks: int | None = None) -> Position:
    """Declarer's information set as a planning position: own and dummy's cards, the
    trick on the table, the tricks won, and what the play has shown about the defenders
    (how many cards each holds, which suits each has shown out of)."""
    hands = [0, 0, 0, 0]
    hands[table.declarer] = info.hands[table.declarer]
    hands[table.dummy] = info.hands[table.dummy]
    lho, rho = table.defenders
    voids = (info.voids[lho], info.voids[rho])
    trick = tuple(((info.leader + i) & 3, c) for i, c in enumerate(info.trick))
    counts = (info.counts[lho], info.counts[rho])
    side = table.declarer & 1
    won, lost = info.won[side], info.won[1 - side]
    lengths = as_pair(
        tuple(0 if voids[d] >> s & 1 else UNKNOWN for s in range(4)) for d in range(2)
    )
    played = as_pair(
        tuple((info.played_by[seat] & SUIT_MASKS[s]).bit_count() for s in range(4))
        for seat in (lho, rho)
    )
    done = won + lost
    return Position(
        table,
        as_four(hands),
        info.unseen,
        trick,
        int(info.leader),
        won,
        lost,
        counts,
        lengths,
        voids,
        done if start_tricks is None else start_tricks,
        played,
    )
