"""What one seat may know during the play: its information set, and deals consistent with it.

A player that does not peek is handed an :class:`Information` built for its seat by
:func:`declarer_info` or :func:`defender_info` -- never the true :class:`~.deal.PlayState`.
It holds the cards the seat can see (its own hand, dummy's once dummy is down, every card
played and by whom), the suits each player has shown out of, how many cards each hidden hand
still holds, and the *unseen* cards: those the hidden hands share between them.
:func:`masked_state` gives such a player a ``PlayState`` with the hidden hands emptied, so it
can still call ``legal_plays``, read the trick and the history, but cannot find a hidden card.

:meth:`Information.sample` deals the unseen cards to the hidden hands consistently with
everything known (each hand's card count, the voids shown), uniformly over all consistent
layouts.  With two hidden hands -- declarer's view, and a defender's view once dummy is down
-- it is constructive and exact: the cards of a suit one hand has shown out of must be in
the other hand, and the rest are split by one ``random.sample`` of the right size, which is
a bijection with the consistent layouts, so every layout is equally likely.  With three
hidden hands (a defender on opening lead, before dummy is seen) no voids can have been shown
yet, so a plain shuffle is uniform (a rejection loop covers positions set up by hand).
Sampling costs a few microseconds, which is what Monte-Carlo players need.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import comb

from .cards import ALL_CARDS, SUIT_MASKS, SUIT_OF, Seat, iter_cards
from .deal import Contract, PlayState

__all__ = [
    "InconsistentInformation",
    "Information",
    "declarer_info",
    "defender_info",
    "masked_state",
    "seat_info",
]


class InconsistentInformation(ValueError):
    """No layout of the unseen cards agrees with what has been seen (a bug or bad input)."""


@dataclass(frozen=True, slots=True)
class Information:
    """One seat's information set at a decision point.

    ``viewer`` is the seat whose knowledge this is: declarer (who also sees dummy, and plays
    for it) or a defender.  ``hands`` are the cards still held, with 0 for each hidden seat;
    ``counts`` the number of cards each seat still holds (public: everyone sees how many
    cards have been played).  ``plays`` lists ``(seat, card)`` in play order from the
    opening lead; ``played_by[seat]`` is the mask of cards that seat has played.
    ``voids[seat]`` is a 4-bit mask of the suits that seat has shown out of (failed to
    follow).  ``unseen`` is the mask of cards held by the hidden seats, ``hidden`` those
    seats.  ``trick``/``leader``/``turn``/``won``/``gone`` mirror the play state.
    """

    viewer: Seat
    declarer: Seat
    trump: int
    contract: Contract | None
    hands: tuple[int, int, int, int]
    counts: tuple[int, int, int, int]
    hidden: tuple[Seat, ...]
    unseen: int
    plays: tuple[tuple[int, int], ...]
    played_by: tuple[int, int, int, int]
    voids: tuple[int, int, int, int]
    trick: tuple[int, ...]
    leader: Seat
    turn: Seat
    won: tuple[int, int]
    dummy_visible: bool
    gone: int
    """Cards out of play: completed tricks, and cards absent from a position set up mid-play
    (what :func:`.cards.equivalents` wants)."""

    # -- seats -------------------------------------------------------------------------------

    @property
    def dummy(self) -> Seat:
        return self.declarer.partner

    @property
    def lho(self) -> Seat:
        """Declarer's left-hand opponent (the opening leader)."""
        return self.declarer.next

    @property
    def rho(self) -> Seat:
        return self.declarer.prev

    @property
    def is_declarer_side(self) -> bool:
        return (self.viewer & 1) == (self.declarer & 1)

    @property
    def played(self) -> int:
        """Every card played so far, including the trick on the table."""
        return self.played_by[0] | self.played_by[1] | self.played_by[2] | self.played_by[3]

    @property
    def set_up_mid_play(self) -> bool:
        """Whether the play began in a position set up mid-play: cards are out of play that
        nobody played here, so the first card played was no opening lead and the earlier
        cards are not known."""
        return bool(self.gone & ~self.played)

    @property
    def cards_played(self) -> int:
        return len(self.plays)

    @property
    def tricks_needed(self) -> int:
        return self.contract.tricks_needed if self.contract else 7

    def is_void(self, seat: Seat | int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def led_suits(self, seat: Seat | int) -> list[int]:
        """The suits ``seat`` has led, in order (its opening lead first, if it made it)."""
        out = []
        for i, (s, c) in enumerate(self.plays):
            if s == seat and self._is_lead(i):
                out.append(SUIT_OF[c])
        return out

    def _is_lead(self, i: int) -> bool:
        # A card is a lead when it is the first card of a trick: every fourth card.
        return i % 4 == 0

    # -- sampling ----------------------------------------------------------------------------

    def _split(self) -> tuple[int, int, list[int], int]:
        """(forced to hidden[0], forced to hidden[1], free cards, how many free go to hidden[0])."""
        a, b = self.hidden
        va, vb = self.voids[a], self.voids[b]
        force_a = force_b = 0
        for s in range(4):
            cards = self.unseen & SUIT_MASKS[s]
            if not cards:
                continue
            ia, ib = va >> s & 1, vb >> s & 1
            if ia and ib:
                raise InconsistentInformation(
                    f"{Seat(a).title} and {Seat(b).title} have both shown out of "
                    f"{'SHDC'[s]}, yet {cards.bit_count()} of its cards are unseen"
                )
            if ib:
                force_a |= cards
            elif ia:
                force_b |= cards
        free = self.unseen & ~(force_a | force_b)
        need_a = self.counts[a] - force_a.bit_count()
        need_b = self.counts[b] - force_b.bit_count()
        if need_a < 0 or need_b < 0 or need_a + need_b != free.bit_count():
            raise InconsistentInformation(
                f"the voids shown force more cards into {Seat(a).title} or {Seat(b).title} "
                f"than they hold ({self.counts[a]} and {self.counts[b]})"
            )
        return force_a, force_b, list(iter_cards(free)), need_a

    def count_layouts(self) -> int:
        """How many layouts of the unseen cards are consistent (two hidden seats only)."""
        if len(self.hidden) != 2:
            raise ValueError("layouts are counted for two hidden hands")
        _, _, free, need_a = self._split()
        return comb(len(free), need_a)

    def length_range(self, seat: Seat | int, suit: int) -> tuple[int, int]:
        """The fewest and most unseen cards of ``suit`` hidden ``seat`` can hold now,
        given the voids shown and the card counts (two hidden seats only)."""
        if len(self.hidden) != 2 or seat not in self.hidden:
            raise ValueError("length ranges are for one of two hidden hands")
        _, b = self.hidden
        force_a, force_b, free, need_a = self._split()
        if seat == b:
            force_a, force_b = force_b, force_a
            need_a = len(free) - need_a
        forced = (force_a & SUIT_MASKS[suit]).bit_count()
        f_s = sum(1 for c in free if SUIT_OF[c] == suit)
        lo = max(0, need_a - (len(free) - f_s))
        return forced + lo, forced + min(f_s, need_a)

    def sample(self, rng: random.Random) -> tuple[int, int, int, int]:
        """One consistent layout: all four current hands (visible ones as they are)."""
        hands = list(self.hands)
        if len(self.hidden) == 2:
            a, b = self.hidden
            force_a, force_b, free, need_a = self._split()
            pick = 0
            for c in rng.sample(free, need_a):
                pick |= 1 << c
            hands[a] = force_a | pick
            hands[b] = force_b | (self.unseen & ~(force_a | force_b) & ~pick)
            return hands[0], hands[1], hands[2], hands[3]
        cards = list(iter_cards(self.unseen))
        for _ in range(10_000):
            rng.shuffle(cards)
            i = 0
            ok = True
            for seat in self.hidden:
                n = self.counts[seat]
                m = 0
                for c in cards[i : i + n]:
                    m |= 1 << c
                i += n
                if any(self.voids[seat] >> s & 1 and m & SUIT_MASKS[s] for s in range(4)):
                    ok = False
                    break
                hands[seat] = m
            if ok:
                return hands[0], hands[1], hands[2], hands[3]
        raise InconsistentInformation("no consistent layout found in 10,000 shuffles")

    def consistent_layouts(self, rng: random.Random, n: int) -> list[tuple[int, int, int, int]]:
        """``n`` independent uniform samples of :meth:`sample`."""
        return [self.sample(rng) for _ in range(n)]

    def is_consistent(self, hands: tuple[int, ...]) -> bool:
        """Whether four current hands agree with this information set."""
        union = 0
        for seat in range(4):
            h = hands[seat]
            if h.bit_count() != self.counts[seat] or union & h:
                return False
            union |= h
            if seat in self.hidden:
                if h & ~self.unseen:
                    return False
                if any(self.voids[seat] >> s & 1 and h & SUIT_MASKS[s] for s in range(4)):
                    return False
            elif h != self.hands[seat]:
                return False
        visible = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        return union == visible | self.unseen


# -- building the information sets --------------------------------------------------------------


def _common(
    state: PlayState, viewer: Seat, visible: tuple[int, ...], dummy_visible: bool
) -> Information:
    plays: list[tuple[int, int]] = []
    played_by = [0, 0, 0, 0]
    voids = [0, 0, 0, 0]

    def add_trick(leader: int, cards: tuple[int, ...] | list[int]) -> None:
        lsuit = SUIT_OF[cards[0]]
        for i, c in enumerate(cards):
            seat = (leader + i) & 3
            plays.append((seat, c))
            played_by[seat] |= 1 << c
            if SUIT_OF[c] != lsuit:
                voids[seat] |= 1 << lsuit

    for t in state.history:
        add_trick(t.leader, t.cards)
    if state.trick:
        add_trick(state.leader, state.trick)
    hands = tuple(state.hands[s] if s in visible else 0 for s in range(4))
    hidden = tuple(Seat(s) for s in range(4) if s not in visible)
    seen = 0
    for h in hands:
        seen |= h
    for h in played_by:
        seen |= h
    unseen = ALL_CARDS & ~seen
    # cards gone before this state was created (a position set up mid-play) are not unseen
    unseen &= state.hands[0] | state.hands[1] | state.hands[2] | state.hands[3]
    return Information(
        viewer=viewer,
        declarer=Seat(state.declarer),
        trump=state.trump,
        contract=state.contract,
        hands=hands,  # type: ignore[arg-type]
        counts=tuple(h.bit_count() for h in state.hands),  # type: ignore[arg-type]
        hidden=hidden,
        unseen=unseen,
        plays=tuple(plays),
        played_by=tuple(played_by),  # type: ignore[arg-type]
        voids=tuple(voids),  # type: ignore[arg-type]
        trick=tuple(state.trick),
        leader=Seat(state.leader),
        turn=Seat(state.turn),
        won=(state.won[0], state.won[1]),
        dummy_visible=dummy_visible,
        gone=state.gone,
    )


def declarer_info(state: PlayState) -> Information:
    """Declarer's information set: declarer's and dummy's hands, the play, the voids shown."""
    d = state.declarer
    return _common(state, Seat(d), (d, d ^ 2), True)


def _dummy_down(state: PlayState) -> bool:
    return bool(state.history) or bool(state.trick)


def defender_info(state: PlayState, seat: Seat | int) -> Information:
    """A defender's information set: own hand, dummy's once the opening lead is made, the play."""
    seat = Seat(seat)
    if (seat & 1) == (state.declarer & 1):
        raise ValueError(f"{seat.title} is on declarer's side, not a defender")
    down = _dummy_down(state)
    visible = (int(seat), state.declarer ^ 2) if down else (int(seat),)
    return _common(state, seat, visible, down)


def seat_info(state: PlayState, seat: Seat | int) -> Information:
    """The information set of whoever decides for ``seat`` (declarer decides for dummy)."""
    if (seat & 1) == (state.declarer & 1):
        return declarer_info(state)
    return defender_info(state, seat)


def masked_state(state: PlayState, info: Information) -> PlayState:
    """A copy of ``state`` with every hand hidden from ``info.viewer`` emptied."""
    st = state.copy()
    for s in info.hidden:
        st.hands[s] = 0
    return st
