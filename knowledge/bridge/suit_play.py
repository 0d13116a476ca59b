"""How to play one suit for the tricks the contract needs from it, over declarer's
information set: the suit-combination analysis behind a safety play.

Monte Carlo double dummy scores each card on sampled layouts, and on every layout it
plays on as if it could see the defenders' cards: it takes the winning finesse, drops the
singleton queen.  Averaged, that credits a line with a choice declarer will not be able to
make at the table (strategy fusion), and it counts tricks, not the contract: so it never
gives up an overtrick to guard against a bad break, which is what a safety play is.

Here the suit is played out exactly, in the way the suit-combination books work:

* every layout of the missing cards between the defenders is a *world*, weighted by the
  vacant places (each defender's unseen cards) and by the voids already shown;
* declarer chooses each card without seeing the defenders' cards: one card for every
  world that the cards played so far leave possible -- the card may depend on what the
  defenders have shown, never on what they hold;
* the defenders see everything and play, layout by layout, whatever beats declarer
  (the pessimism of a double-dummy defence, also the books');
* declarer regains the lead after each round and may lead from either hand (entries are
  assumed, as the books assume them).

The value of a position is the set of worlds where declarer can be sure of the tricks it
needs, as a Pareto front of such sets (declarer's strategies that are best on some
worlds): Cazenave and Ventos' alpha-mu search (arXiv 1911.07960) played to the end of one
suit, where it is small enough to be exact.  A world is a bit in an ``int``, a set of
worlds an ``int``, and a front a tuple of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from math import comb

__all__ = ["SuitLine", "SuitPlay", "TooLarge", "analyse_suit"]

DISCARD = -1
"""A card of another suit: played by a hand that has none left of this one."""

NODE_BUDGET = 200_000
"""Positions examined before the analysis gives up (a suit with many missing cards)."""


class TooLarge(Exception):
    """The suit needs more positions than :data:`NODE_BUDGET` allows."""


@dataclass(frozen=True)
class SuitLine:
    """One card the seat to play may choose, with how often it brings the tricks."""

    card: int
    """rank index 0..12 (2..ace) in the suit: the lowest of its class"""
    cards: int
    """rank mask of the cards that play as this one (touching, or apart by played cards)"""
    chance: float
    """the share of the weighted worlds where the tricks needed are sure after this card"""
    worlds: int
    """those worlds, as bits (see :attr:`SuitPlay.layouts`)"""


@dataclass(frozen=True)
class SuitPlay:
    """The analysis of one suit from the seat to play: each sensible card and its chance."""

    need: int
    lines: tuple[SuitLine, ...]
    """one per card that differs in effect, highest card first"""
    layouts: tuple[int, ...]
    """world bit ``i`` -> the missing cards (rank mask) the first defender holds (the one
    after the seat to play's side in the rotation: :attr:`first_defender`)"""
    weights: tuple[float, ...]
    """world bit ``i`` -> its probability"""
    missing: int
    """rank mask of the defenders' cards in the suit"""
    first_defender: int
    """the seat (0..3) whose holding :attr:`layouts` gives; the other has the rest"""

    def best(self) -> SuitLine:
        """The safest card: the highest chance, the lowest card among equal chances."""
        top = max(line.chance for line in self.lines)
        return min((line for line in self.lines if line.chance >= top - 1e-12), key=_rank)

    def line(self, card: int) -> SuitLine | None:
        """The line of the class ``card`` (a rank) belongs to, or None if not one of ours."""
        return next((line for line in self.lines if line.cards >> card & 1), None)

    def guarded(self, best: SuitLine, other: SuitLine) -> list[tuple[int, int, float]]:
        """Worlds where ``best`` is sure and ``other`` is not, as (defender seat, its
        cards, probability), most likely first."""
        out = []
        bits = best.worlds & ~other.worlds
        for i, held in enumerate(self.layouts):
            if bits >> i & 1:
                first, second = held, self.missing & ~held
                seat, cards = (
                    (self.first_defender, first)
                    if first.bit_count() >= second.bit_count()
                    else ((self.first_defender + 2) & 3, second)
                )
                out.append((seat, cards, self.weights[i]))
        return sorted(out, key=lambda t: (-t[2], t[0], -t[1]))


def _rank(line: SuitLine) -> int:
    return line.card


def analyse_suit(
    hands: dict[int, int],
    missing: int,
    vacant: dict[int, int],
    need: int,
    trick: Iterable[tuple[int, int]] = (),
    *,
    voids: Iterable[int] = (),
    budget: int = NODE_BUDGET,
) -> SuitPlay:
    """Analyse the suit from the seat whose turn it is.

    ``hands`` holds the rank masks of the two hands of declarer's side by seat (0..3,
    partners); ``missing`` the defenders' unplayed cards of the suit; ``vacant`` each
    defender's unseen cards (all suits); ``voids`` the defenders known to hold none of the
    suit (shown out, here or in ``trick``); ``trick`` the cards of the suit already played
    to this trick as ``(seat, rank)`` in order (a defender's discard as :data:`DISCARD`),
    the seat to play being the next one.  ``need`` tricks are wanted from the suit,
    counting this one.

    Raises :class:`TooLarge` past ``budget`` positions, ``ValueError`` on a position that
    is not declarer's side to play."""
    seats = sorted(hands)
    if len(seats) != 2 or (seats[0] + 2) & 3 != seats[1]:
        raise ValueError("hands must be the two hands of one side")
    played = list(trick)
    turn = (played[-1][0] + 1) & 3 if played else None
    if turn is None:
        raise ValueError("give the trick so far, or use analyse_lead")
    on_table = _on_table(tuple(played))
    if on_table & (missing | hands[seats[0]] | hands[seats[1]]):
        raise ValueError("a card on the table is also held or missing")
    shown = {s for s, r in played if r == DISCARD} | set(voids)
    return _analyse(hands, missing, vacant, need, tuple(played), turn, shown, budget)


def analyse_lead(
    hands: dict[int, int],
    missing: int,
    vacant: dict[int, int],
    need: int,
    leader: int,
    *,
    voids: Iterable[int] = (),
    budget: int = NODE_BUDGET,
) -> SuitPlay:
    """Analyse the suit with ``leader`` (one of the two hands) to lead it now."""
    return _analyse(hands, missing, vacant, need, (), leader, set(voids), budget)


def _analyse(
    hands: dict[int, int],
    missing: int,
    vacant: dict[int, int],
    need: int,
    trick: tuple[tuple[int, int], ...],
    turn: int,
    voids: set[int],
    budget: int,
) -> SuitPlay:
    if turn not in hands:
        raise ValueError("it is not declarer's side to play")
    # Relative seats: 0 and 2 are ours (0 the lower seat number), 1 and 3 the defenders
    # after them.
    base = min(hands)
    ours = (hands[base], hands[(base + 2) & 3])
    d1, d3 = (base + 1) & 3, (base + 3) & 3
    v1, v3 = vacant.get(d1, 0), vacant.get(d3, 0)
    rel_trick = tuple(((s - base) & 3, r) for s, r in trick)
    # Cards of this suit already played to this trick by a defender are gone; the worlds
    # split only what is still unseen.
    cards = [r for r in range(13) if missing >> r & 1]
    layouts: list[int] = []
    weights: list[float] = []
    rest = v1 + v3 - len(cards)
    total = comb(v1 + v3, v1) if v1 + v3 >= 0 else 0
    for subset in range(1 << len(cards)):
        held = 0
        for i, r in enumerate(cards):
            if subset >> i & 1:
                held |= 1 << r
        k1, k3 = held.bit_count(), len(cards) - held.bit_count()
        if k1 > v1 or k3 > v3 or rest < 0 or (k1 and d1 in voids) or (k3 and d3 in voids):
            continue
        w = comb(rest, v1 - k1)
        if w:
            layouts.append(held)
            weights.append(w / total)
    norm = sum(weights)
    weights = [w / norm for w in weights] if norm else weights
    search = _Search(tuple(layouts), missing, budget)
    everyone = (1 << len(layouts)) - 1
    rel_turn = (turn - base) & 3
    lines = []
    others = _others(ours, rel_turn // 2, missing) | _on_table(rel_trick)
    for card in _classes(ours[rel_turn // 2], others):
        same = _class_of(card, ours[rel_turn // 2], others)
        hands_after = list(ours)
        hands_after[rel_turn // 2] &= ~(1 << card)
        front = search.after(
            (hands_after[0], hands_after[1]),
            missing,
            (*rel_trick, (rel_turn, card)),
            need,
            everyone,
        )
        best = max(front, key=lambda v: _weight(v, weights), default=0)
        lines.append(SuitLine(card, same, _weight(best, weights), best))
    lines.sort(key=lambda line: -line.card)
    return SuitPlay(need, tuple(lines), tuple(layouts), tuple(weights), missing, d1)


def _weight(worlds: int, weights: list[float] | tuple[float, ...]) -> float:
    total, i = 0.0, 0
    while worlds:
        if worlds & 1:
            total += weights[i]
        worlds >>= 1
        i += 1
    return total


def _others(ours: tuple[int, int], hand: int, missing: int) -> int:
    return ours[1 - hand] | missing


def _on_table(trick: tuple[tuple[int, int], ...]) -> int:
    """The cards of this round already played: they split runs too (the ace beats the
    queen on the table, the jack does not)."""
    return sum(1 << r for _, r in trick if r != DISCARD)


def _classes(holding: int, others: int) -> list[int]:
    """The lowest card of each run of ``holding`` not split by a card in ``others``."""
    out: list[int] = []
    previous_in_run = False
    for r in range(13):
        if holding >> r & 1:
            if not previous_in_run:
                out.append(r)
            previous_in_run = True
        elif others >> r & 1:
            previous_in_run = False
    return out


def _class_of(card: int, holding: int, others: int) -> int:
    """The run of ``holding`` that ``card`` starts (see :func:`_classes`)."""
    out = 0
    for r in range(card, 13):
        if holding >> r & 1:
            out |= 1 << r
        elif others >> r & 1:
            break
    return out


def _maximal(vectors: Iterable[int]) -> tuple[int, ...]:
    """The Pareto front: the sets no other set contains."""
    kept: list[int] = []
    for v in sorted(set(vectors), key=lambda x: -x.bit_count()):
        if not any(v & k == v for k in kept):
            kept.append(v)
    return tuple(kept)


class _Search:
    """The alpha-mu recursion over one suit, memoised by position and worlds."""

    def __init__(self, layouts: tuple[int, ...], missing: int, budget: int) -> None:
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[int, ...]] = {}
        # worlds where the first defender (relative seat 1) holds each card
        self.holds1 = [0] * 13
        for i, held in enumerate(layouts):
            for r in range(13):
                if held >> r & 1:
                    self.holds1[r] |= 1 << i
        self.everyone = (1 << len(layouts)) - 1
        self.initial = missing

    def after(
        self,
        ours: tuple[int, int],
        left: int,
        trick: tuple[tuple[int, int], ...],
        need: int,
        worlds: int,
    ) -> tuple[int, ...]:
        """The front once ``trick`` (relative seats) has been played."""
        if len(trick) == 4:
            suit_cards = [(s, r) for s, r in trick if r != DISCARD]
            winner = max(suit_cards, key=lambda t: t[1])[0]
            return self.lead(ours, left, need - (1 if winner % 2 == 0 else 0), worlds)
        seat = (trick[-1][0] + 1) & 3
        if seat % 2 == 0:
            hand = ours[seat // 2]
            if not hand:
                return self.after(ours, left, (*trick, (seat, DISCARD)), need, worlds)
            vectors: list[int] = []
            for card in _classes(hand, _others(ours, seat // 2, left) | _on_table(trick)):
                after = (
                    (ours[0] & ~(1 << card), ours[1])
                    if seat == 0
                    else (ours[0], ours[1] & ~(1 << card))
                )
                front = self.after(after, left, (*trick, (seat, card)), need, worlds)
                if worlds in front:  # sure on every world: no other card can do better
                    return (worlds,)
                vectors += front
            return _maximal(vectors)
        return self.defend(ours, left, trick, need, worlds, seat)

    def defend(
        self,
        ours: tuple[int, int],
        left: int,
        trick: tuple[tuple[int, int], ...],
        need: int,
        worlds: int,
        seat: int,
    ) -> tuple[int, ...]:
        """A defender's card, layout by layout: each world takes the worst child for us."""
        key = (ours, left, trick, need, worlds)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._count()
        # Each card the defender may hold, with the worlds where it does; then a discard
        # where it holds none.  A world takes the worst of its children for declarer; a
        # child where declarer fails everywhere settles it at once.
        acc: tuple[int, ...] = (worlds,)
        holding_any = 0
        for r in range(13):
            if not left >> r & 1:
                continue
            held = self.holds1[r] if seat == 1 else self.everyone & ~self.holds1[r]
            subset = worlds & held
            if subset:
                holding_any |= subset
                front = self.after(ours, left & ~(1 << r), (*trick, (seat, r)), need, subset)
                acc = _maximal(a & (v | ~subset) for a in acc for v in front)
                if acc == (0,):
                    break
        else:
            void = worlds & ~holding_any
            if void:
                front = self.after(ours, left, (*trick, (seat, DISCARD)), need, void)
                acc = _maximal(a & (v | ~void) for a in acc for v in front)
        result = tuple(a & worlds for a in acc)
        self.memo[key] = result
        return result

    def lead(self, ours: tuple[int, int], left: int, need: int, worlds: int) -> tuple[int, ...]:
        """A new round: declarer leads from either hand that still holds the suit."""
        if need <= 0:
            return (worlds,)
        if need > max(ours[0].bit_count(), ours[1].bit_count()):
            return (0,)
        # Winners: cards above every defender's card.  Led one a round from their hand
        # (entries are assumed), each makes a trick whatever the layout.
        if need <= max(
            (ours[0] >> left.bit_length()).bit_count(), (ours[1] >> left.bit_length()).bit_count()
        ):
            return (worlds,)
        key = (ours, left, (), need, worlds)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._count()
        vectors: list[int] = []
        for hand in (0, 1):
            if not ours[hand]:
                continue
            for card in _classes(ours[hand], _others(ours, hand, left)):
                after = (
                    (ours[0] & ~(1 << card), ours[1])
                    if hand == 0
                    else (ours[0], ours[1] & ~(1 << card))
                )
                front = self.after(after, left, ((2 * hand, card),), need, worlds)
                if worlds in front:
                    self.memo[key] = (worlds,)
                    return (worlds,)
                vectors += front
        result = _maximal(vectors)
        self.memo[key] = result
        return result

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.budget:
            raise TooLarge(f"more than {self.budget} positions")
