"""Belief functions for declarer play: where are the defenders' unseen cards?

Tignum 2 (Smith 1997, §5.3.1 and §5.4.3; notes in ``seed000-bridge-results.md`` §3.7-§3.8)
weights each opponent branch of its decision tree by a *belief function* and -- a
non-obvious adaptation -- **changes the belief function with the method being used**, so
that an opponent node has two or three children rather than one per distribution:

* discard plans see the world as "opponent ruffs" / "opponent does not ruff";
* length-winner plans see "suit breaks evenly" / "suit breaks unevenly";
* cash-out plans see the **worst case** (every suit breaks as badly as possible).

This module supplies the numbers, on plain counts, so it depends on no card class.

Conventions
    Suits are ints 0..3 in the order spades, hearts, diamonds, clubs (as ``cards``).
    Defenders are the strings ``"W"`` and ``"E"`` (:data:`WEST`, :data:`EAST`); nothing
    else is accepted.  Whenever a split is written ``k`` it is **West's** count: West holds
    ``k`` of the ``n`` unseen cards of the suit and East ``n - k``.

Two models, one interface (:class:`BeliefModel`)
    :class:`VacantPlaces` (the default, :data:`DEFAULT_MODEL`): every deal of the unseen
    cards consistent with what is known is equally likely.  With ``a`` and ``b`` vacant
    places (cards each defender holds that are not yet known) a suit with ``n`` unseen
    cards splits ``k``/``n-k`` with probability ``C(n,k)·C(a+b-n, a-k)/C(a+b, a)``, and a
    particular card is with West with probability ``a/(a+b)``.  Cards seen are conditioned
    on as *particular* cards (the usual vacant-places reading: defenders follow with a
    random card of the suit).

    :class:`DissertationModel`: Tignum 2's arithmetic.  Each unseen card is independently
    with either defender, so a split has probability ``C(n,k)/2**n`` (splits the play has
    shown impossible are ruled out and the rest renormalised).  In the one place Tignum 2
    used a ratio of vacant places -- "does the defender short in this suit hold the trump?"
    -- it is reproduced *with its documented off-by-one* (8/14 for the correct 9/14;
    dissertation p. 83 footnote 3), unless ``off_by_one=False``.

:class:`Knowledge` is the information set on counts: hand sizes, unseen cards per suit,
cards played and voids shown.  :func:`belief_view` turns (view, knowledge, suit) into the
weighted :class:`Outcome` list an opponent node branches on.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from math import comb
from typing import Literal, overload

__all__ = [
    "DEFAULT_MODEL",
    "DEFENDERS",
    "DISCARD_SEAT",
    "DISSERTATION",
    "EAST",
    "MODELS",
    "PRUNE_CUTOFF",
    "RUFF_SEAT",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "VIEWS",
    "VIEW_ALIASES",
    "VIEW_CARD",
    "VIEW_EVEN",
    "VIEW_RUFF",
    "VIEW_SPLITS",
    "VIEW_WORST",
    "WEST",
    "BeliefModel",
    "Defender",
    "DissertationModel",
    "Knowledge",
    "Outcome",
    "Vacancies",
    "VacantPlaces",
    "belief_view",
    "get_model",
    "other",
    "p_finesse",
    "shape_counts",
]

Defender = Literal["W", "E"]
WEST: Defender = "W"
EAST: Defender = "E"
DEFENDERS: tuple[Defender, Defender] = (WEST, EAST)
_DEFENDER_NAMES = {WEST: "West", EAST: "East"}

SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")

# Tignum 2's seat convention (§3.7): when a defender shows out it does not matter which one,
# so assume the worst -- ruffs come in fourth seat, discards in second seat.
RUFF_SEAT = 4
DISCARD_SEAT = 2
# Tignum 2's likelihood pruner: an opponent method whose assumptions have probability below
# this (given the path's prior assumptions) is not applied (§5.4.3).
PRUNE_CUTOFF = 0.05


def _idx(defender: str) -> int:
    if defender == WEST:
        return 0
    if defender == EAST:
        return 1
    raise ValueError(f"a defender is 'W' or 'E', not {defender!r}")


def other(defender: Defender) -> Defender:
    """The other defender."""
    return EAST if _idx(defender) == 0 else WEST


def _check_suit(suit: int) -> int:
    if suit not in (0, 1, 2, 3):
        raise ValueError(f"a suit is 0..3 (spades, hearts, diamonds, clubs), not {suit!r}")
    return suit


@dataclass(frozen=True)
class Vacancies:
    """Vacant places: how many cards each defender holds that are not yet known."""

    west: int
    east: int

    def __post_init__(self) -> None:
        if self.west < 0 or self.east < 0:
            raise ValueError(f"vacant places cannot be negative: {self}")

    @property
    def total(self) -> int:
        return self.west + self.east

    def of(self, defender: Defender) -> int:
        return self.west if _idx(defender) == 0 else self.east

    def after_split(self, n: int, k: int) -> Vacancies:
        """Places left for the other suits once West holds ``k`` and East ``n - k`` of a suit."""
        return Vacancies(self.west - k, self.east - (n - k))


def _check(n: int, vac: Vacancies, k: int | None = None) -> None:
    if n < 0 or n > vac.total:
        raise ValueError(f"{n} unseen cards do not fit in {vac.total} vacant places")
    if k is not None and not 0 <= k <= n:
        raise ValueError(f"West's count {k} is not in 0..{n}")


def _feasible(n: int, k: int, vac: Vacancies) -> bool:
    return k <= vac.west and n - k <= vac.east


def shape_counts(n: int, shapes: Iterable[tuple[int, int]]) -> frozenset[int]:
    """West's counts covered by unoriented shapes: ``shape_counts(5, [(3, 2)]) == {2, 3}``."""
    counts: set[int] = set()
    for x, y in shapes:
        if x + y != n:
            raise ValueError(f"shape {x}-{y} does not add up to {n}")
        counts |= {x, y}
    return frozenset(counts)


# --------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------


class BeliefModel(ABC):
    """Where the unseen cards of one suit lie, given the vacant places.

    Subclasses give the probability of one particular layout (:meth:`p_set`) and the
    cross-suit conditional (:meth:`p_other_given_split`); everything else is derived here,
    so both models answer every question through the same methods.
    """

    name: str = ""

    @abstractmethod
    def p_set(self, n: int, k: int, vac: Vacancies) -> float:
        """P(West holds exactly one *particular* set of ``k`` of the ``n`` unseen cards)."""

    @abstractmethod
    def p_other_given_split(
        self, defender: Defender, n: int, k: int, vac: Vacancies, t: int = 1, m: int = 1
    ) -> float:
        """P(``defender`` holds at least ``m`` of the ``t`` unseen cards of another suit,
        given West holds ``k`` of this suit's ``n``) -- e.g. "the short hand has a trump"."""

    # ---- derived quantities -------------------------------------------------------------

    def split(self, n: int, vac: Vacancies) -> tuple[float, ...]:
        """P(West holds k of the n), for k = 0..n; sums to 1."""
        _check(n, vac)
        return tuple(comb(n, k) * self.p_set(n, k, vac) for k in range(n + 1))

    def p_split(self, n: int, k: int, vac: Vacancies, *, oriented: bool = False) -> float:
        """P(the suit splits k / n-k); both orientations unless ``oriented`` (West has k)."""
        _check(n, vac, k)
        dist = self.split(n, vac)
        if oriented or 2 * k == n:
            return dist[k]
        return dist[k] + dist[n - k]

    def p_length(
        self, defender: Defender, n: int, vac: Vacancies, lengths: Collection[int]
    ) -> float:
        """P(``defender`` holds a number of the n unseen cards that is in ``lengths``)."""
        dist = self.split(n, vac)
        west = _idx(defender) == 0
        return sum(p for k, p in enumerate(dist) if (k if west else n - k) in lengths)

    def p_cards(
        self,
        defender: Defender,
        n: int,
        j: int,
        vac: Vacancies,
        lengths: Collection[int] | None = None,
    ) -> float:
        """P(``defender`` holds ``j`` particular cards of the n [and its length is in
        ``lengths``]), e.g. "♥KQ onside and hearts 3-2"."""
        _check(n, vac)
        if not 0 <= j <= n:
            raise ValueError(f"{j} particular cards out of {n} unseen")
        west = _idx(defender) == 0
        total = 0.0
        for length in range(j, n + 1):
            if lengths is not None and length not in lengths:
                continue
            k = length if west else n - length
            total += comb(n - j, length - j) * self.p_set(n, k, vac)
        return total

    def p_card(self, defender: Defender, n: int, vac: Vacancies) -> float:
        """P(a particular one of the n unseen cards is with ``defender``)."""
        return self.p_cards(defender, n, 1, vac) if n else 0.0

    def p_at_least(self, defender: Defender, n: int, m: int, vac: Vacancies) -> float:
        """P(``defender`` holds at least ``m`` of the n unseen cards)."""
        return self.p_length(defender, n, vac, range(max(m, 0), n + 1))

    def p_void(self, defender: Defender, n: int, vac: Vacancies) -> float:
        """P(``defender`` holds none of the n unseen cards)."""
        return self.p_length(defender, n, vac, (0,))

    def p_joint(self, vac: Vacancies, conditions: Sequence[tuple[int, Collection[int]]]) -> float:
        """P(every suit i, with n_i unseen, has West's count in its set), independently."""
        result = 1.0
        for n, counts in conditions:
            result *= self.p_length(WEST, n, vac, counts)
        return result


class DissertationModel(BeliefModel):
    """Tignum 2's arithmetic: each unseen card independently with either defender.

    A split k / n-k of n unseen cards has probability ``C(n,k)/2**n``, "worked out after
    ruling out splits the play has already shown to be impossible" -- here: splits that do
    not fit the vacant places (a shown void leaves 0 places) are dropped and the rest are
    renormalised.  With many places this is exactly the dissertation's formula.  Suits are
    independent, so joint probabilities are products (footnote 1, p. 79).

    The one vacant-places ratio Tignum 2 used, P(the defender short in the suit holds a
    card of another suit), is ``(places - 1) / (a + b - n)`` with ``off_by_one`` (as the
    program ran: 8/14, and 8/16 or equally 7/14 in the second round) and
    ``places / (a + b - n)`` without it (the author's footnoted corrections 9/14, 9/16),
    where ``places`` is that defender's vacant places less its cards in the suit.  For
    ``t`` such cards each is taken independently: ``1 - (1 - q)**t``.

    Note: the author's 9/16 counts the places as at trick 5 (9 each) less the two diamonds
    left after the first round.  Updating the places for the first-round plays too (8 each)
    gives 8/14 -- what :class:`VacantPlaces` returns from an up-to-date :class:`Knowledge`.
    """

    def __init__(self, off_by_one: bool = True) -> None:
        self.off_by_one = off_by_one
        self.name = "dissertation" if off_by_one else "dissertation-corrected"

    def __repr__(self) -> str:
        return f"DissertationModel(off_by_one={self.off_by_one})"

    def p_set(self, n: int, k: int, vac: Vacancies) -> float:
        _check(n, vac, k)
        if not _feasible(n, k, vac):
            return 0.0
        feasible = sum(comb(n, i) for i in range(n + 1) if _feasible(n, i, vac))
        return 1.0 / feasible

    def p_other_given_split(
        self, defender: Defender, n: int, k: int, vac: Vacancies, t: int = 1, m: int = 1
    ) -> float:
        _check(n, vac, k)
        if not _feasible(n, k, vac):
            return 0.0
        rest = vac.total - n
        if t > rest:
            raise ValueError(f"{t} cards of another suit do not fit in {rest} places")
        if rest == 0:
            return 1.0 if m <= 0 else 0.0
        places = vac.after_split(n, k).of(defender)
        q = max(places - (1 if self.off_by_one else 0), 0) / rest
        q = min(q, 1.0)
        return sum(comb(t, j) * q**j * (1 - q) ** (t - j) for j in range(max(m, 0), t + 1))


class VacantPlaces(BeliefModel):
    """Every consistent deal equally likely: the hypergeometric (vacant places) model.

    ``P(West has k of n) = C(n,k)·C(a+b-n, a-k) / C(a+b, a)``; a particular card is with
    West with probability ``a/(a+b)``.  Suits are dependent (they share places), so joint
    probabilities use the multivariate hypergeometric.
    """

    name = "vacant-places"

    def __repr__(self) -> str:
        return "VacantPlaces()"

    def p_set(self, n: int, k: int, vac: Vacancies) -> float:
        _check(n, vac, k)
        if not _feasible(n, k, vac):
            return 0.0
        return comb(vac.total - n, vac.west - k) / comb(vac.total, vac.west)

    def p_other_given_split(
        self, defender: Defender, n: int, k: int, vac: Vacancies, t: int = 1, m: int = 1
    ) -> float:
        _check(n, vac, k)
        if not _feasible(n, k, vac):
            return 0.0
        rest = vac.after_split(n, k)
        if t > rest.total:
            raise ValueError(f"{t} cards of another suit do not fit in {rest.total} places")
        return self.p_at_least(defender, t, m, rest)

    def p_joint(self, vac: Vacancies, conditions: Sequence[tuple[int, Collection[int]]]) -> float:
        total_n = sum(n for n, _ in conditions)
        _check(total_n, vac)
        rest = vac.total - total_n
        denominator = comb(vac.total, vac.west)

        def walk(i: int, k_sum: int, weight: int) -> int:
            if i == len(conditions):
                need = vac.west - k_sum
                return weight * comb(rest, need) if 0 <= need <= rest else 0
            n, counts = conditions[i]
            return sum(
                walk(i + 1, k_sum + k, weight * comb(n, k))
                for k in sorted(set(counts))
                if 0 <= k <= n
            )

        return walk(0, 0, 1) / denominator


DISSERTATION = DissertationModel()
DEFAULT_MODEL: BeliefModel = VacantPlaces()
MODELS: dict[str, BeliefModel] = {
    "vacant-places": DEFAULT_MODEL,
    "dissertation": DISSERTATION,
    "dissertation-corrected": DissertationModel(off_by_one=False),
}


def get_model(name: str) -> BeliefModel:
    """A model by name (``vacant-places``, ``dissertation``, ``dissertation-corrected``)."""
    try:
        return MODELS[name]
    except KeyError:
        raise ValueError(f"no belief model {name!r}; models: {', '.join(MODELS)}") from None


# --------------------------------------------------------------------------------------
# The information set, on counts
# --------------------------------------------------------------------------------------


@overload
def _set4(row: tuple[int, int, int, int], suit: int, value: int) -> tuple[int, int, int, int]: ...
@overload
def _set4(row: tuple[int, ...], suit: int, value: int) -> tuple[int, ...]: ...
def _set4(row: tuple[int, ...], suit: int, value: int) -> tuple[int, ...]:
    return (*row[:suit], value, *row[suit + 1 :])


def _set2(pair: tuple, d: int, value: object) -> tuple:
    return (value, pair[1]) if d == 0 else (pair[0], value)


@dataclass(frozen=True)
class Knowledge:
    """What declarer knows about the defenders' hands, as counts.  Immutable: every update
    returns a new ``Knowledge``, so planner branches can share one.

    ``hands``: cards each defender (W, E) still holds.  ``unseen[s]``: cards of suit ``s``
    the defenders hold that are not known (not in declarer's or dummy's hand, not played,
    not revealed).  ``known[d][s]``: cards of suit ``s`` known to be in defender ``d``'s
    hand but not yet played.  ``played[d][s]``: cards of ``s`` defender ``d`` has played
    (used to label original lengths, "diamonds 5-1").  ``voids[d]``: suits ``d`` has shown
    out of.
    """

    hands: tuple[int, int] = (13, 13)
    unseen: tuple[int, int, int, int] = (0, 0, 0, 0)
    known: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 0, 0), (0, 0, 0, 0))
    played: tuple[tuple[int, ...], tuple[int, ...]] = ((0, 0, 0, 0), (0, 0, 0, 0))
    voids: tuple[frozenset[int], frozenset[int]] = field(
        default_factory=lambda: (frozenset(), frozenset())
    )

    def __post_init__(self) -> None:
        self._validate()

    @classmethod
    def start(cls, ours: Sequence[int]) -> Knowledge:
        """Before any card is seen: ``ours[s]`` = declarer's plus dummy's cards in suit s."""
        if len(ours) != 4 or sum(ours) != 26 or any(not 0 <= x <= 13 for x in ours):
            raise ValueError(f"declarer and dummy hold 26 cards, 0..13 a suit: {tuple(ours)}")
        return cls(unseen=tuple(13 - x for x in ours))  # type: ignore[arg-type]

    @classmethod
    def from_counts(
        cls,
        unseen: Sequence[int],
        hands: tuple[int, int],
        played: Sequence[Sequence[int]] | None = None,
    ) -> Knowledge:
        """A position given directly: unseen cards per suit, the defenders' hand sizes and
        (for labels only) what each has played per suit."""
        kwargs: dict = {}
        if played is not None:
            kwargs["played"] = (tuple(played[0]), tuple(played[1]))
        return cls(hands=tuple(hands), unseen=tuple(unseen), **kwargs)  # type: ignore[arg-type]

    def _validate(self) -> None:
        if len(self.unseen) != 4 or any(x < 0 for x in self.unseen):
            raise ValueError(f"unseen cards per suit must be 4 counts >= 0: {self.unseen}")
        for d in (0, 1):
            if self.hands[d] < 0 or any(x < 0 for x in self.known[d]):
                raise ValueError("hand sizes and known cards cannot be negative")
            for s in self.voids[d]:
                if self.known[d][s]:
                    raise ValueError(
                        f"{DEFENDERS[d]} is void in {SUIT_NAMES[s]} but holds a known card of it"
                    )
        if sum(self.hands) != sum(self.unseen) + sum(map(sum, self.known)):
            raise ValueError(
                f"the defenders hold {sum(self.hands)} cards but "
                f"{sum(self.unseen) + sum(map(sum, self.known))} are accounted for"
            )
        for s in range(4):
            if self.unseen[s] and s in self.voids[0] and s in self.voids[1]:
                raise ValueError(
                    f"both defenders are void in {SUIT_NAMES[s]}, yet {self.unseen[s]} are unseen"
                )
        self.free_places()  # raises if the voids force more cards into a hand than it holds

    # ---- updates ------------------------------------------------------------------------

    def play(
        self, defender: Defender, suit: int, *, led: int | None = None, known: bool = False
    ) -> Knowledge:
        """``defender`` played a card of ``suit``; if ``led`` is another suit it showed out
        of ``led``.  ``known=True`` when the card was one already revealed."""
        d, s = _idx(defender), _check_suit(suit)
        new = self if led is None or led == s else self.show_out(defender, led)
        if s in new.voids[d]:
            raise ValueError(f"{DEFENDERS[d]} showed out of {SUIT_NAMES[s]} and cannot play one")
        if known:
            if not new.known[d][s]:
                raise ValueError(f"{DEFENDERS[d]} has no revealed {SUIT_NAMES[s]} to play")
            kn = _set2(new.known, d, _set4(new.known[d], s, new.known[d][s] - 1))
            un = new.unseen
        else:
            if not new.unseen[s]:
                raise ValueError(f"no unseen {SUIT_NAMES[s]} left for {DEFENDERS[d]} to play")
            kn, un = new.known, _set4(new.unseen, s, new.unseen[s] - 1)
        return replace(
            new,
            hands=_set2(new.hands, d, new.hands[d] - 1),
            unseen=un,
            known=kn,
            played=_set2(new.played, d, _set4(new.played[d], s, new.played[d][s] + 1)),
        )

    def show_out(self, defender: Defender, suit: int) -> Knowledge:
        """Record that ``defender`` has no card of ``suit``."""
        d, s = _idx(defender), _check_suit(suit)
        if s in self.voids[d]:
            return self
        return replace(self, voids=_set2(self.voids, d, self.voids[d] | {s}))

    def reveal(self, defender: Defender, suit: int, count: int = 1) -> Knowledge:
        """``count`` unseen cards of ``suit`` become known to be in ``defender``'s hand."""
        d, s = _idx(defender), _check_suit(suit)
        if count > self.unseen[s]:
            raise ValueError(f"only {self.unseen[s]} unseen {SUIT_NAMES[s]} to reveal")
        row = _set4(self.known[d], s, self.known[d][s] + count)
        return replace(
            self,
            unseen=_set4(self.unseen, s, self.unseen[s] - count),
            known=_set2(self.known, d, row),
        )

    # ---- queries ------------------------------------------------------------------------

    def is_void(self, defender: Defender, suit: int) -> bool:
        return suit in self.voids[_idx(defender)]

    def void_in(self, suit: int) -> Defender | None:
        """The defender known to be void in ``suit`` (West if both are), else ``None``."""
        for d in DEFENDERS:
            if self.is_void(d, suit):
                return d
        return None

    def free_places(self) -> Vacancies:
        """Vacant places for the cards of suits nobody has shown out of: hand size, less
        known cards, less the unseen cards of suits the *other* defender is void in (those
        are certainly here)."""
        free = []
        for d in (0, 1):
            forced = sum(self.unseen[s] for s in self.voids[1 - d] if s not in self.voids[d])
            f = self.hands[d] - sum(self.known[d]) - forced
            if f < 0:
                raise ValueError(
                    f"the voids shown force {forced} cards into "
                    f"{DEFENDERS[d]}'s hand of {self.hands[d]}"
                )
            free.append(f)
        return Vacancies(free[0], free[1])

    def vacancies(self, suit: int) -> Vacancies:
        """The places ``suit``'s unseen cards can occupy: the free places, or (0, n) / (n, 0)
        when West / East has shown out of it."""
        n = self.unseen[_check_suit(suit)]
        void = self.void_in(suit)
        if void == WEST:
            return Vacancies(0, n)
        if void == EAST:
            return Vacancies(n, 0)
        return self.free_places()

    def original(self, suit: int, k: int) -> tuple[int, int]:
        """(West, East) lengths in ``suit`` at trick 1 if West holds ``k`` of its unseen."""
        n = self.unseen[suit]
        return (
            k + self.played[0][suit] + self.known[0][suit],
            n - k + self.played[1][suit] + self.known[1][suit],
        )


# --------------------------------------------------------------------------------------
# Per-method belief views
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """One child of an opponent node: an assumption about the unseen cards and its weight.

    ``label`` is what explanations print ("diamonds 3-3", "East has the ♦K").  ``key`` is a
    stable machine name ("ruff", "no-ruff", "even", "uneven", "worst", "4-3", "W", "E").
    ``shapes`` are the original (trick-1) suit lengths the outcome covers, longer first;
    ``holder`` the defender the assumption is about, if any; ``ruff`` whether a defender
    ruffs in this outcome (``None`` when the view says nothing about ruffs).
    """

    label: str
    probability: float
    key: str
    shapes: tuple[tuple[int, int], ...] = ()
    holder: Defender | None = None
    ruff: bool | None = None


VIEW_RUFF = "ruff"
VIEW_EVEN = "even"
VIEW_WORST = "worst-case"
VIEW_SPLITS = "splits"
VIEW_CARD = "card"
VIEWS = (VIEW_RUFF, VIEW_EVEN, VIEW_WORST, VIEW_SPLITS, VIEW_CARD)
VIEW_ALIASES = {
    "no-ruff": VIEW_RUFF,
    "uneven": VIEW_EVEN,
    "worst": VIEW_WORST,
    "finesse": VIEW_CARD,
}
"""View names a method may declare.  ``ruff`` (discard plans), ``even`` (length winners),
``worst-case`` (cashing out), ``splits`` (one branch per break: the author's remedy for deal
353306, "investigate both the 4-3 and the 5-2 break"), ``card`` (who holds one card)."""


def _shape(w: int, e: int) -> tuple[int, int]:
    return (max(w, e), min(w, e))


def _shape_text(shapes: Iterable[tuple[int, int]]) -> str:
    items = [f"{x}-{y}" for x, y in sorted(set(shapes), key=lambda s: (s[0] - s[1], s))]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def belief_view(
    view: str,
    knowledge: Knowledge,
    suit: int,
    *,
    model: BeliefModel = DEFAULT_MODEL,
    trump: int | None = None,
    card: str | None = None,
) -> list[Outcome]:
    """The outcomes an opponent node splits into under ``view``, probabilities summing to 1.

    ``suit`` is the suit the method is about (led, set up or finessed in).  The ``ruff``
    view needs ``trump``; the ``worst-case`` view uses it when given; the ``card`` view
    takes the card's rank text in ``card`` ("K") for its labels.  Outcomes of probability 0
    are left out.
    """
    view = VIEW_ALIASES.get(view, view)
    _check_suit(suit)
    if view == VIEW_RUFF:
        if trump is None:
            raise ValueError("the ruff view needs the trump suit")
        outcomes = _ruff_view(knowledge, suit, trump, model)
    elif view == VIEW_EVEN:
        outcomes = _even_view(knowledge, suit, model)
    elif view == VIEW_WORST:
        outcomes = _worst_view(knowledge, suit, trump, model)
    elif view == VIEW_SPLITS:
        outcomes = _splits_view(knowledge, suit, model)
    elif view == VIEW_CARD:
        outcomes = _card_view(knowledge, suit, card or "card", model)
    else:
        raise ValueError(f"no belief view {view!r}; views: {', '.join(VIEWS)}")
    return [o for o in outcomes if o.probability > 0]


def _dist(knowledge: Knowledge, suit: int, model: BeliefModel) -> tuple[float, ...]:
    return model.split(knowledge.unseen[suit], knowledge.vacancies(suit))


def _p_has_trump(
    knowledge: Knowledge,
    defender: Defender,
    suit: int,
    trump: int,
    model: BeliefModel,
    k: int | None,
) -> float:
    """P(``defender`` holds a trump), given West holds ``k`` of ``suit``'s unseen cards
    (``None``: not conditioning on a split, because a void in ``suit`` is already shown)."""
    t = knowledge.unseen[trump]
    if knowledge.known[_idx(defender)][trump]:
        return 1.0
    if knowledge.is_void(defender, trump) or t == 0:
        return 0.0
    if knowledge.is_void(other(defender), trump):  # all the unseen trumps are here
        return 1.0
    if k is None:
        return model.p_at_least(defender, t, 1, knowledge.free_places())
    return model.p_other_given_split(
        defender, knowledge.unseen[suit], k, knowledge.free_places(), t, 1
    )


def _ruff_view(knowledge: Knowledge, suit: int, trump: int, model: BeliefModel) -> list[Outcome]:
    """Discard plans (§3.8): "opponent ruffs" or "opponent does not ruff" when ``suit`` is
    led now.  A ruff needs a defender void in ``suit`` holding a trump; as in Tignum 2 it
    does not matter which (ruffs are taken in fourth seat)."""
    _check_suit(trump)
    if trump == suit:
        raise ValueError("the led suit is trumps: nobody can ruff it")
    name, trump_word = SUIT_NAMES[suit], SUIT_NAMES[trump][:-1]
    n = knowledge.unseen[suit]
    void = knowledge.void_in(suit)
    # (shape, probability of the shape, probability of a ruff given the shape)
    cases: list[tuple[tuple[int, int], float, float]] = []
    if n == 0 or void is not None:
        k = 0 if void == WEST or n == 0 else n
        shape = _shape(*knowledge.original(suit, k))
        w_void, e_void = (
            void == d or (n == 0 and not knowledge.known[_idx(d)][suit]) for d in DEFENDERS
        )
        if w_void and e_void:
            trumps_out = knowledge.unseen[trump] + sum(kn[trump] for kn in knowledge.known)
            cases.append((shape, 1.0, 1.0 if trumps_out else 0.0))
        elif w_void or e_void:
            short: Defender = WEST if w_void else EAST
            cases.append((shape, 1.0, _p_has_trump(knowledge, short, suit, trump, model, None)))
        else:
            cases.append((shape, 1.0, 0.0))
    else:
        for k, pk in enumerate(_dist(knowledge, suit, model)):
            if pk == 0:
                continue
            w, e = knowledge.original(suit, k)
            short_d = (
                WEST
                if k == 0 and not knowledge.known[0][suit]
                else EAST
                if k == n and not knowledge.known[1][suit]
                else None
            )
            pr = 0.0 if short_d is None else _p_has_trump(knowledge, short_d, suit, trump, model, k)
            cases.append((_shape(w, e), pk, pr))
    p_ruff = min(max(sum(pk * pr for _, pk, pr in cases), 0.0), 1.0)
    ruff_shapes = sorted({s for s, _, pr in cases if pr > 0})
    follow_shapes = sorted({s for s, _, pr in cases if pr == 0})
    maybe_shapes = sorted({s for s, _, pr in cases if 0 < pr < 1})
    last = "the last" if knowledge.unseen[trump] == 1 else "a"
    ruff_label = (
        f"opponent ruffs: {name} {_shape_text(ruff_shapes)} and the short hand "
        f"has {last} {trump_word}"
        if ruff_shapes
        else "opponent ruffs"
    )
    reasons = [f"{name} {_shape_text(follow_shapes)}"] if follow_shapes else []
    if maybe_shapes:
        reasons.append(f"the short hand has no {trump_word}")
    no_label = f"no ruff ({', or '.join(reasons)})" if reasons else "no ruff"
    return [
        Outcome(ruff_label, p_ruff, "ruff", tuple(ruff_shapes), None, True),
        Outcome(
            no_label,
            1.0 - p_ruff,
            "no-ruff",
            tuple(sorted(set(follow_shapes) | set(maybe_shapes))),
            None,
            False,
        ),
    ]


def _even_view(knowledge: Knowledge, suit: int, model: BeliefModel) -> list[Outcome]:
    """Length-winner plans (§3.8): the suit breaks evenly (lengths differ by at most one)
    or unevenly."""
    name = SUIT_NAMES[suit]
    even: dict[tuple[int, int], float] = {}
    uneven: dict[tuple[int, int], float] = {}
    for k, pk in enumerate(_dist(knowledge, suit, model)):
        if pk == 0:
            continue
        shape = _shape(*knowledge.original(suit, k))
        bucket = even if shape[0] - shape[1] <= 1 else uneven
        bucket[shape] = bucket.get(shape, 0.0) + pk
    p_even = sum(even.values())
    p_uneven = sum(uneven.values())
    total = p_even + p_uneven
    return [
        Outcome(
            f"{name} {_shape_text(even)}" if even else f"{name} break evenly",
            p_even / total,
            "even",
            tuple(sorted(even)),
        ),
        Outcome(
            f"{name} break unevenly ({_shape_text(uneven)})"
            if uneven
            else f"{name} break unevenly",
            p_uneven / total,
            "uneven",
            tuple(sorted(uneven)),
        ),
    ]


def _worst_view(
    knowledge: Knowledge, suit: int, trump: int | None, model: BeliefModel
) -> list[Outcome]:
    """Cash-out plans (§3.8): the world is always worst case -- the suit breaks as badly as
    it still can and, with a trump suit, the short hand ruffs at the first opportunity."""
    name = SUIT_NAMES[suit]
    dist = _dist(knowledge, suit, model)
    candidates = [k for k, p in enumerate(dist) if p > 0]
    k = max(
        candidates,
        key=lambda i: (abs(knowledge.original(suit, i)[0] - knowledge.original(suit, i)[1]), -i),
    )
    w, e = knowledge.original(suit, k)
    shape = _shape(w, e)
    short: Defender = WEST if w <= e else EAST
    ruff = None
    label = f"{name} {shape[0]}-{shape[1]} (worst case)"
    if trump is not None and trump != suit:
        has_trump = (
            knowledge.unseen[trump] > 0 and not knowledge.is_void(short, trump)
        ) or knowledge.known[_idx(short)][trump] > 0
        ruff = has_trump
        if has_trump:
            label += "; the short hand ruffs at the first opportunity"
    return [Outcome(label, 1.0, "worst", (shape,), short, ruff)]


def _splits_view(knowledge: Knowledge, suit: int, model: BeliefModel) -> list[Outcome]:
    """One outcome per break ("clubs 4-3", "clubs 5-2", ...), commonest first."""
    name = SUIT_NAMES[suit]
    by_shape: dict[tuple[int, int], float] = {}
    for k, pk in enumerate(_dist(knowledge, suit, model)):
        if pk:
            shape = _shape(*knowledge.original(suit, k))
            by_shape[shape] = by_shape.get(shape, 0.0) + pk
    total = sum(by_shape.values())
    return [
        Outcome(f"{name} {x}-{y}", p / total, f"{x}-{y}", ((x, y),))
        for (x, y), p in sorted(by_shape.items(), key=lambda i: (-i[1], i[0]))
    ]


def _card_view(knowledge: Knowledge, suit: int, card: str, model: BeliefModel) -> list[Outcome]:
    """Who holds one particular unseen card of ``suit`` ("West has the ♦K")."""
    n = knowledge.unseen[suit]
    if n == 0:
        raise ValueError(f"no unseen {SUIT_NAMES[suit]}: no card to place")
    vac = knowledge.vacancies(suit)
    p_west = model.p_card(WEST, n, vac)
    text = f"{SUIT_SYMBOLS[suit]}{card}"
    return [
        Outcome(f"West has the {text}", p_west, WEST, holder=WEST),
        Outcome(f"East has the {text}", 1.0 - p_west, EAST, holder=EAST),
    ]


def p_finesse(
    knowledge: Knowledge,
    suit: int,
    onside: Defender,
    *,
    honours: int = 1,
    model: BeliefModel = DEFAULT_MODEL,
    lengths: Collection[int] | None = None,
) -> float:
    """P(the finesse works): the ``honours`` particular missing cards of ``suit`` are all with
    ``onside``, the defender who plays before the tenace [and ``onside``'s length in the
    suit's unseen cards is in ``lengths``].  A priori one honour is 1/2 under both models."""
    n = knowledge.unseen[_check_suit(suit)]
    return model.p_cards(onside, n, honours, knowledge.vacancies(suit), lengths)
