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
from itertools import product
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
    seen: int = 0
    """the worlds where declarer could make the tricks after this card seeing every card
    (the union of the front: for each such world, the line that assumes it)"""


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
    classes: tuple[int, ...] = ()
    """the defenders' cards as classes of equals (rank masks): a layout holds the top
    ones of a class it holds part of, which stand for any of them"""

    def seeing(self) -> float:
        """The chance of the tricks for a declarer who could see the defenders' cards:
        what double dummy credits the suit with."""
        return _weight(_union(line.seen for line in self.lines), self.weights)

    def best(self) -> SuitLine:
        """The safest card: the highest chance, the lowest card among equal chances."""
        top = max(line.chance for line in self.lines)
        return min((line for line in self.lines if line.chance >= top - 1e-12), key=_rank)

    def line(self, card: int) -> SuitLine | None:
        """The line of the class ``card`` (a rank) belongs to, or None if not one of ours."""
        return next((line for line in self.lines if line.cards >> card & 1), None)

    def guarded(self, best: SuitLine, other: SuitLine) -> list[tuple[int, int, float, int]]:
        """Worlds where ``best`` is sure and ``other`` is not, as (defender seat, its
        cards, probability, those of its cards that stand for any of their class), most
        likely first."""
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
                vague = sum(cards & c for c in self.classes if cards & c not in (0, c))
                out.append((seat, cards, self.weights[i], vague))
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
    # The defenders' cards fall into classes: runs with none of ours (in hand or on the
    # table) between them, which take the same tricks.  A world says how many of each
    # class the first defender holds -- which ones it holds changes nothing but the card
    # a defender chooses to show, and it may show any of them.
    classes = _defender_classes(missing, ours[0] | ours[1] | _on_table(rel_trick))
    sizes = [c.bit_count() for c in classes]
    counts: list[tuple[int, ...]] = []
    weights: list[float] = []
    rest = v1 + v3 - sum(sizes)
    total = comb(v1 + v3, v1)
    for held in product(*(range(n + 1) for n in sizes)):
        k1 = sum(held)
        k3 = sum(sizes) - k1
        if k1 > v1 or k3 > v3 or rest < 0 or (k1 and d1 in voids) or (k3 and d3 in voids):
            continue
        w = comb(rest, v1 - k1)
        for n, k in zip(sizes, held, strict=True):
            w *= comb(n, k)
        if w:
            counts.append(held)
            weights.append(w / total)
    norm = sum(weights)
    weights = [w / norm for w in weights] if norm else weights
    layouts = [_canonical(classes, held) for held in counts]
    search = _Search(classes, counts, budget)
    everyone = (1 << len(counts)) - 1
    start = search.start()
    rel_turn = (turn - base) & 3
    lines = []
    others = _others(ours, rel_turn // 2, missing) | _on_table(rel_trick)
    for card in _classes(ours[rel_turn // 2], others):
        same = _class_of(card, ours[rel_turn // 2], others)
        hands_after = list(ours)
        hands_after[rel_turn // 2] &= ~(1 << card)
        front = search.after(
            (hands_after[0], hands_after[1]),
            start,
            (*rel_trick, (rel_turn, card)),
            need,
            everyone,
        )
        best = max(front, key=lambda v: _weight(v, weights), default=0)
        lines.append(SuitLine(card, same, _weight(best, weights), best, _union(front)))
    lines.sort(key=lambda line: -line.card)
    return SuitPlay(need, tuple(lines), tuple(layouts), tuple(weights), missing, d1, tuple(classes))


def _weight(worlds: int, weights: list[float] | tuple[float, ...]) -> float:
    total, i = 0.0, 0
    while worlds:
        if worlds & 1:
            total += weights[i]
        worlds >>= 1
        i += 1
    return total


def _defender_classes(missing: int, ours: int) -> list[int]:
    """The defenders' cards as runs (rank masks) with none of ``ours`` between them."""
    out: list[int] = []
    run = 0
    for r in range(13):
        if missing >> r & 1:
            run |= 1 << r
        elif ours >> r & 1 and run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return out


def _canonical(classes: list[int], held: tuple[int, ...]) -> int:
    """A rank mask for a world: the top ``held[j]`` cards of each class."""
    out = 0
    for cards, k in zip(classes, held, strict=True):
        for r in range(12, -1, -1):
            if k and cards >> r & 1:
                out |= 1 << r
                k -= 1
    return out


def _union(vectors: Iterable[int]) -> int:
    out = 0
    for v in vectors:
        out |= v
    return out


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
    """The alpha-mu recursion over one suit, memoised by position and worlds.

    A position holds our two hands (rank masks), how many of each class each defender has
    played (``used``: the first defender's counts, then the second's), the round so far
    (a defender's card as its class's top rank, or :data:`DISCARD`) and the tricks still
    needed."""

    def __init__(self, classes: list[int], counts: list[tuple[int, ...]], budget: int) -> None:
        self.budget = budget
        self.nodes = 0
        self.memo: dict[tuple[object, ...], tuple[int, ...]] = {}
        self.top = [c.bit_length() - 1 for c in classes]
        self.sizes = [c.bit_count() for c in classes]
        # has[d][j][n]: the worlds where defender d (0: first, 1: second) holds at least
        # n cards of class j
        self.has: list[list[list[int]]] = [[[0] * (n + 2) for n in self.sizes] for _ in range(2)]
        for i, held in enumerate(counts):
            for j, k in enumerate(held):
                for n in range(k + 1):
                    self.has[0][j][n] |= 1 << i
                for n in range(self.sizes[j] - k + 1):
                    self.has[1][j][n] |= 1 << i
        self.everyone = (1 << len(counts)) - 1

    def start(self) -> tuple[int, ...]:
        return (0,) * (2 * len(self.sizes))

    def _left(self, used: tuple[int, ...]) -> int:
        """The ranks (class tops) of the classes with a card still out."""
        n = len(self.sizes)
        return sum(1 << self.top[j] for j in range(n) if used[j] + used[n + j] < self.sizes[j])

    def after(
        self,
        ours: tuple[int, int],
        used: tuple[int, ...],
        trick: tuple[tuple[int, int], ...],
        need: int,
        worlds: int,
    ) -> tuple[int, ...]:
        """The front once ``trick`` (relative seats) has been played."""
        if len(trick) == 4:
            suit_cards = [(s, r) for s, r in trick if r != DISCARD]
            winner = max(suit_cards, key=lambda t: t[1])[0]
            return self.lead(ours, used, need - (1 if winner % 2 == 0 else 0), worlds)
        seat = (trick[-1][0] + 1) & 3
        if seat % 2 == 0:
            hand = ours[seat // 2]
            if not hand:
                return self.after(ours, used, (*trick, (seat, DISCARD)), need, worlds)
            vectors: list[int] = []
            others = _others(ours, seat // 2, self._left(used)) | _on_table(trick)
            for card in _classes(hand, others):
                after = _without(ours, seat // 2, card)
                front = self.after(after, used, (*trick, (seat, card)), need, worlds)
                if worlds in front:  # sure on every world: no other card can do better
                    return (worlds,)
                vectors += front
            self._count(len(vectors))
            return _maximal(vectors)
        return self.defend(ours, used, trick, need, worlds, seat)

    def defend(
        self,
        ours: tuple[int, int],
        used: tuple[int, ...],
        trick: tuple[tuple[int, int], ...],
        need: int,
        worlds: int,
        seat: int,
    ) -> tuple[int, ...]:
        """A defender's card, layout by layout: each world takes the worst child for us."""
        key = (ours, used, trick, need, worlds)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._count()
        d = 0 if seat == 1 else 1
        n = len(self.sizes)
        # Each class the defender may hold a card of, with the worlds where it does;
        # then a discard where it holds none.  A world takes the worst of its children
        # for declarer; a child where declarer fails everywhere settles it at once.
        acc: tuple[int, ...] = (worlds,)
        holding_any = 0
        for j in range(n):
            played = used[d * n + j]
            subset = worlds & self.has[d][j][played + 1]
            if not subset:
                continue
            holding_any |= subset
            now = (*used[: d * n + j], played + 1, *used[d * n + j + 1 :])
            front = self.after(ours, now, (*trick, (seat, self.top[j])), need, subset)
            self._count(len(acc) * len(front))
            acc = _maximal(a & (v | ~subset) for a in acc for v in front)
            if acc == (0,):
                break
        else:
            void = worlds & ~holding_any
            if void:
                front = self.after(ours, used, (*trick, (seat, DISCARD)), need, void)
                self._count(len(acc) * len(front))
                acc = _maximal(a & (v | ~void) for a in acc for v in front)
        result = tuple(a & worlds for a in acc)
        self.memo[key] = result
        return result

    def lead(
        self, ours: tuple[int, int], used: tuple[int, ...], need: int, worlds: int
    ) -> tuple[int, ...]:
        """A new round: declarer leads from either hand that still holds the suit."""
        if need <= 0:
            return (worlds,)
        if need > max(ours[0].bit_count(), ours[1].bit_count()):
            return (0,)
        left = self._left(used)
        # Winners: cards above every defender's card.  Led one a round from their hand
        # (entries are assumed), each makes a trick whatever the layout.
        top = left.bit_length()
        if need <= max((ours[0] >> top).bit_count(), (ours[1] >> top).bit_count()):
            return (worlds,)
        key = (ours, used, (), need, worlds)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._count()
        vectors: list[int] = []
        for hand in (0, 1):
            if not ours[hand]:
                continue
            for card in _classes(ours[hand], _others(ours, hand, left)):
                front = self.after(
                    _without(ours, hand, card), used, ((2 * hand, card),), need, worlds
                )
                if worlds in front:
                    self.memo[key] = (worlds,)
                    return (worlds,)
                vectors += front
        self._count(len(vectors))
        result = _maximal(vectors)
        self.memo[key] = result
        return result

    def _count(self, work: int = 1) -> None:
        """Count ``work`` against the budget: a position, or the pairs of two Pareto fronts
        combined at a defender's card (fronts of a few hundred world sets each make their
        product, not the positions, the cost: a suit with many small cards out took
        minutes on one position before this counted)."""
        self.nodes += work
        if self.nodes > self.budget:
            raise TooLarge(f"more than {self.budget} positions and front pairs")


def _without(ours: tuple[int, int], hand: int, card: int) -> tuple[int, int]:
    return (ours[0] & ~(1 << card), ours[1]) if hand == 0 else (ours[0], ours[1] & ~(1 << card))
