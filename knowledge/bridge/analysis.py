"""Declarer's analysis of a position, suit by suit, the way Lo (1987) has a declarer count.

Lo's thesis (``seeds/001_…``; checked notes in ``reference/seed001-003-bridge.md``
§A3, §A5-§A10, §A17) models what a declarer does before playing a card: set the goal,
count the **sure tricks** ("tricks you can take without giving up the lead"), then, suit
by suit, the **extra tricks** four techniques can build -- promotion, length, finesse and
throw-in -- and the **entries** each hand has; then play first the suit that builds the
most.  That count is what a bridge teacher reads first, so it is shown beside the
planner's own values; the planner does not use it.

Everything here is computed from what declarer knows (a :class:`~.position.Position`):
our two hands, the defenders' cards as a pool, and how many places each defender has
left.  Chances come from the same split tables the planner weighs its branches with
(:mod:`.beliefs`: vacant places by default, adjusted for the cards seen), so "diamonds
3-3" means the same here as in the planner's explanation.

How each number is found (our reading of Lo; the thesis gives frames per card pattern,
not an algorithm -- its own ch. 11 recommends one proposer per technique, as here):

* **Sure tricks**: our cards that outrank every card the defenders hold, but no more than
  the longer hand's length (A-K opposite Q makes two).  A suit is **blocked** when no
  order of play cashes them all without an entry from another suit (A-K opposite Q-x-x-x).
* **Promotion** (Lo's Technique 1): the suit played from the top, our highest card
  forcing out theirs, the defenders never running out (so no length trick creeps in):
  the tricks beyond the sure ones.  K-Q-J against the A gives two, Q-J-10 against A-K one,
  J-10-9-8 against A-K-Q one (§A7.2).
* **Finesse** (Technique 3): one card of ours with exactly one of theirs above it, led
  towards from the other hand; it works when that card lies with the defender who plays
  second, with the vacant-places chance of that (50 % a priori, §A7.3).
* **Throw-in** (Technique 4): the same card wins if the defender on that hand's left is
  made to lead the suit.  Lo gives it no chance figure (its condition is ``nil``), so
  none is given here; it is his default when the finesse is judged below 0.5 (ch. 10).
* **Length** (Technique 2): for every way the defenders' cards can split, the suit
  played out with both defenders following as long as they can; what that adds to the
  promotion count, weighted by the split's chance.  On Lo's examples this is his formula
  (Σ P(split) × the cards the long hand has over the longer defender): 0.36 for 4-3,
  0.68 for 4-4 (§A10.3); it does not count twice what promotion already counted.
* **Entries** (§A7.6): a winner in one hand is an entry to it if the other hand can lead
  a lower card of the suit to it.
* **Threat** (§A10.4): the defenders' own sure tricks per suit (their cards above all of
  ours), capped by how long they can cash them (their longer holding; in a suit contract
  also the shorter of our trump-holding hands, which ruffs); the suit with the most is
  the one they threaten when they get the lead, and their sure tricks elsewhere are how
  they get it.

In a suit contract Lo only sketches the analysis (ch. 11, §A17.4: "count losers too"):
the sure and extra tricks are counted as above, and -- ours, not Lo's -- the master hand's
**losers** (the hand with more trumps, each suit played out at its likeliest split), the
**discards** it can make on the other hand's winners, and the **ruffs** the other hand
can take.  Squeezes, hold-ups, safety plays and the defenders' ruffs are not seen, as
in Lo.

Everything is deterministic: the same position gives the same analysis.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from typing import Any

from knowledge.bridge.beliefs import DEFAULT_MODEL, DEFENDERS, SUIT_NAMES, BeliefModel, Knowledge
from knowledge.bridge.cards import (
    RANK_CHARS,
    SUIT_LETTERS,
    SUIT_MASKS,
    SUIT_OF,
    SUIT_SYMBOLS,
    Seat,
    parse_hand,
)
from knowledge.bridge.deal import Contract
from knowledge.bridge.position import Position, Table, as_four

__all__ = [
    "FINESSE",
    "FINESSE_THRESHOLD",
    "LENGTH",
    "PROMOTION",
    "THROW_IN",
    "Analysis",
    "Break",
    "Entries",
    "Losers",
    "SuitAnalysis",
    "Technique",
    "Threat",
    "analyse",
    "analysis_lines",
    "compact_lines",
    "planner_line",
    "planner_values",
    "position_from_hands",
    "problem_analysis",
]

FINESSE_THRESHOLD = 0.5
"""Lo ch. 10: "if the answer is less than 0.5, then the Finesse technique is not suitable"
and the throw-in (the default) is taken instead."""

PROMOTION = "promotion"
FINESSE = "finesse"
THROW_IN = "throw-in"
LENGTH = "length"


# --------------------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Break:
    """One way the defenders' cards of a suit may lie, as the planner names it ("3-3":
    their lengths at trick 1), its chance, and the extra tricks length makes then."""

    shape: str
    probability: float
    tricks: int


@dataclass(frozen=True)
class Technique:
    """One way of building extra tricks in a suit (Lo's technique-information entry).

    ``tricks`` are the extra tricks when it works (for length: the most it can make);
    ``chance`` the probability it works (1 for promotion; ``None`` for the throw-in, which
    Lo gives no figure); ``expected`` Lo's contribution: tricks × chance, or for length
    Σ P(break) × tricks (``None`` with no chance).  ``cards`` are the defenders' cards it
    is about -- those promotion knocks out, the card a finesse traps; ``defender`` the
    seat it needs (where the finesse card must lie, whom the throw-in puts on lead).
    """

    kind: str
    tricks: int
    chance: float | None
    expected: float | None
    condition: str
    gives_up_lead: int = 0
    cards: tuple[str, ...] = ()
    defender: str | None = None
    breaks: tuple[Break, ...] = ()


@dataclass(frozen=True)
class Entries:
    """Entries to one hand in one suit: how many, and the cards that can serve."""

    count: int
    cards: tuple[str, ...]


@dataclass(frozen=True)
class SuitAnalysis:
    """One suit as Lo's analysis module reports it (§A17.3), in bridge words.

    ``holdings`` maps seat letters (declarer's side) to the ranks held ("AK53", "" for a
    void).  ``sure_cards`` lists each hand's cards that outrank all the defenders'.
    ``techniques`` are ordered as Lo orders them: promotion, finesse, throw-in, length.
    ``their_sure`` is the defenders' expected sure tricks in the suit when they are on
    lead (the threat, §A10.4).
    """

    suit: int
    holdings: dict[str, str]
    theirs: int
    sure: int
    sure_cards: dict[str, tuple[str, ...]]
    blocked: str | None
    techniques: tuple[Technique, ...]
    entries: dict[str, Entries]
    their_sure: float
    their_top: tuple[str, ...]

    @property
    def name(self) -> str:
        return SUIT_NAMES[self.suit]

    def technique(self, kind: str) -> Technique | None:
        return next((t for t in self.techniques if t.kind == kind), None)

    @property
    def promotion(self) -> int:
        t = self.technique(PROMOTION)
        return t.tricks if t else 0

    @property
    def chosen(self) -> Technique | None:
        """Lo's best-technique selection between the finesse and its default, the
        throw-in: the finesse when its chance is at least :data:`FINESSE_THRESHOLD`."""
        finesse = self.technique(FINESSE)
        if finesse is not None and (finesse.chance or 0.0) >= FINESSE_THRESHOLD - 1e-9:
            return finesse
        return self.technique(THROW_IN) or finesse

    @property
    def length(self) -> Technique | None:
        return self.technique(LENGTH)

    @property
    def most(self) -> int:
        """The most tricks the suit can give beyond the sure ones (best case)."""
        rounds = max((len(h) for h in self.holdings.values()), default=0)
        chosen = self.chosen
        extra = self.promotion + (chosen.tricks if chosen else 0)
        extra += self.length.tricks if self.length else 0
        return max(0, min(extra, rounds - self.sure))

    @property
    def expected(self) -> float:
        """Lo's contribution of the suit (§A10.1) plus its sure tricks: sure + promotion
        + the chosen finesse's expectation + the length expectation."""
        chosen = self.chosen
        value = float(self.sure + self.promotion)
        value += chosen.expected or 0.0 if chosen else 0.0
        value += self.length.expected or 0.0 if self.length else 0.0
        return value


@dataclass(frozen=True)
class Threat:
    """The suit the defenders threaten (§A10.4) and how they get the lead to cash it."""

    suit: int
    tricks: float
    cards: tuple[str, ...]
    ways_in: tuple[str, ...]
    by_defender: dict[str, float]
    """Lo's degree of threat per defender: -Σ P(the defender holds each sure trick)."""


@dataclass(frozen=True)
class Losers:
    """Suit contracts (after Lo ch. 11, our count): the master hand's losers per suit at
    the likeliest splits, the discards it can make on the other hand's winners (sure, and
    those that need a break), and the ruffs the other hand can take."""

    hand: str
    per_suit: tuple[int, int, int, int]
    allowed: int
    discards: tuple[str, ...]
    """Winners of the other hand the master hand can discard on now, before giving up
    the lead."""
    later_discards: tuple[tuple[str, tuple[str, ...]], ...]
    """(card, the defenders' cards to knock out first): discards once promotion is done."""
    length_discards: tuple[tuple[int, tuple[str, ...], str, float], ...]
    """(suit, cards, break, chance): discards that need the suit to break."""
    ruffs: int
    ruffing_hand: str

    @property
    def total(self) -> int:
        return sum(self.per_suit)


@dataclass(frozen=True)
class Analysis:
    """Declarer's analysis of a position: the goal, each suit, entries, threat, totals."""

    contract: str
    contract_text: str
    declarer: str
    dummy: str
    trick: int
    won: int
    needed: int
    remaining: int
    notrump: bool
    suits: tuple[SuitAnalysis, ...]
    threat: Threat | None
    losers: Losers | None = None
    planner: dict[str, Any] | None = field(default=None)

    @property
    def sure(self) -> int:
        return sum(s.sure for s in self.suits)

    @property
    def short(self) -> int:
        """Extra tricks still to build: what the contract needs beyond the sure tricks."""
        return max(0, self.needed - self.sure)

    @property
    def promotion(self) -> int:
        return sum(s.promotion for s in self.suits)

    @property
    def expected(self) -> float:
        return sum(s.expected for s in self.suits)

    def suit(self, suit: int | str) -> SuitAnalysis:
        index = suit if isinstance(suit, int) else SUIT_LETTERS.index(suit.upper())
        return next(s for s in self.suits if s.suit == index)

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data (the ``analysis`` key of ``--json``), with the
        text lines a reader sees."""
        data = asdict(self)
        data["suits"] = [
            {
                **asdict(s),
                "suit": SUIT_LETTERS[s.suit],
                "promotion": s.promotion,
                "chosen": s.chosen.kind if s.chosen else None,
                "expected": round(s.expected, 4),
            }
            for s in self.suits
        ]
        if self.threat is not None:
            data["threat"]["suit"] = SUIT_LETTERS[self.threat.suit]
        if self.losers is not None:
            data["losers"]["total"] = self.losers.total
            data["losers"]["length_discards"] = [
                {"suit": SUIT_LETTERS[s], "cards": list(c), "break": b, "chance": p}
                for s, c, b, p in self.losers.length_discards
            ]
        data["sure"] = self.sure
        data["short"] = self.short
        data["expected"] = round(self.expected, 4)
        data["text"] = analysis_lines(self)
        return data


# --------------------------------------------------------------------------------------
# One suit played out
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Round:
    won: bool
    card: int
    """The winning rank: ours when ``won``, else the defenders'."""
    played: tuple[bool, bool]
    """Whether each of our hands (declarer, dummy) had a card of the suit to play."""


@lru_cache(maxsize=1 << 14)
def _play_out(
    a: tuple[int, ...],
    b: tuple[int, ...],
    theirs: tuple[int, ...],
    longest: int | None,
    trapped: tuple[int, int] | None = None,
) -> tuple[_Round, ...]:
    """Play one suit out, our side leading each round (ranks ascending; ``a`` declarer,
    ``b`` dummy).

    Each round we cash a winner if we have one -- from the shorter hand when both can,
    so as not to block the suit -- and otherwise force with our highest card, the other
    hand following low.  The defenders, pooled, win cheaply (their lowest card above
    ours) and otherwise follow with their lowest cards: two a round while both can, then
    one, for ``longest`` rounds (their longer holding), after which every round is ours.
    With ``longest`` None they never run out (they follow with cards below all of ours),
    so the count has no length tricks in it: what promotion alone makes.

    ``trapped`` = (rank, hand): a finesse that works -- the defenders' card of that rank
    lies with the defender who plays before ``hand`` when the other hand leads, so it can
    never beat a card of ``hand`` (which plays after it), only the other hand's.
    """
    hands = (list(a), list(b))
    t = list(theirs)
    both = len(t) - longest if longest is not None else 0
    left = longest if longest is not None else 0
    out: list[_Round] = []

    def against(i: int) -> list[int]:
        """The defenders' cards that can beat a card of our hand ``i``."""
        if trapped is not None and trapped[1] == i and trapped[0] in t:
            return [c for c in t if c != trapped[0]]
        return t

    for r in range(max(len(a), len(b))):
        played = (bool(hands[0]), bool(hands[1]))
        if longest is not None and (left <= 0 or not t):
            best = max((h for h in hands if h), key=lambda h: h[-1])
            card = best.pop()
            for h in hands:
                if h is not best and h:
                    h.pop(0)
            out.append(_Round(True, card, played))
            continue
        tops = [max(against(i), default=0) for i in (0, 1)]
        winners = [i for i in (0, 1) if hands[i] and hands[i][-1] > tops[i]]
        if winners:
            i = min(winners, key=lambda j: (len(hands[j]), j))
            card = hands[i].pop()
            if hands[1 - i]:
                hands[1 - i].pop(0)
            out.append(_Round(True, card, played))
            if longest is not None:
                del t[: 2 if r < both else 1]
                left -= 1
        else:
            i = max((j for j in (0, 1) if hands[j]), key=lambda j: (hands[j][-1], -j))
            card = hands[i].pop()
            if hands[1 - i]:
                hands[1 - i].pop(0)
            win = min(c for c in against(i) if c > card)
            t.remove(win)
            out.append(_Round(False, win, played))
            if longest is not None:
                if r < both and t:
                    t.pop(0)
                left -= 1
    return tuple(out)


def _won(rounds: Iterable[_Round]) -> int:
    return sum(r.won for r in rounds)


@lru_cache(maxsize=1 << 14)
def _cash(
    a: tuple[int, ...], b: tuple[int, ...], top: int, lead: int
) -> tuple[int, tuple[tuple[int, ...], tuple[int, ...], int]]:
    """The most winners (cards above ``top``) cashed in a row with hand ``lead`` (0
    declarer, 1 dummy) on lead and no entry from another suit, and the cards left and the
    hand on lead where that run ends.  Every card each hand may play is tried."""
    hands = (a, b)
    best: tuple[int, tuple[tuple[int, ...], tuple[int, ...], int]] = (0, (a, b, lead))
    if not hands[lead]:
        return best
    other = 1 - lead
    for x in sorted(set(hands[lead])):
        follows: list[int | None] = [*sorted(set(hands[other]))] or [None]
        for y in follows:
            high = x if y is None or x > y else y
            if high <= top:
                continue  # the defenders win this round: the run ends
            rest = [a, b]
            rest[lead] = _without(rest[lead], x)
            if y is not None:
                rest[other] = _without(rest[other], y)
            n, end = _cash(rest[0], rest[1], top, lead if high == x else other)
            if n + 1 > best[0]:
                best = (n + 1, end)
    return best


def _without(cards: tuple[int, ...], x: int) -> tuple[int, ...]:
    i = cards.index(x)
    return cards[:i] + cards[i + 1 :]


def _entries(h: Sequence[int], o: Sequence[int], top: int) -> tuple[int, tuple[int, ...]]:
    """Entries to hand ``h``: its winners each won over a lower card led from ``o``
    (a greedy matching, which is the largest), and the winners that can serve."""
    wins = sorted(c for c in h if c > top)
    lows = sorted(o)
    j = count = 0
    for w in wins:
        if j < len(lows) and w > lows[j]:
            count += 1
            j += 1
    return count, tuple(sorted(wins, reverse=True))


# --------------------------------------------------------------------------------------
# Words
# --------------------------------------------------------------------------------------


def _ranks(cards: Iterable[int]) -> str:
    return "".join(RANK_CHARS[r - 2] for r in sorted(cards, reverse=True))


def _card(suit: int, rank: int) -> str:
    return SUIT_SYMBOLS[suit] + RANK_CHARS[rank - 2]


def _cards(suit: int, ranks: Iterable[int]) -> str:
    """'♠A', '♠AK' -- one symbol for the suit, the ranks after it."""
    return SUIT_SYMBOLS[suit] + _ranks(ranks)


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "< 1 %"
    if 0.995 < p < 1:
        return "> 99 %"
    return f"{round(p * 100)} %"


def _tricks(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def _or(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


# --------------------------------------------------------------------------------------
# The analysis
# --------------------------------------------------------------------------------------


def _at_trick_start(pos: Position) -> tuple[tuple[int, int, int, int], int, Knowledge]:
    """Hands, the defenders' cards and the knowledge as when the current trick was led:
    the analysis is of the whole trick to come, not of a trick half played."""
    hands = list(pos.hands)
    theirs = pos.theirs
    for seat, c in pos.trick:
        if pos.table.is_defender(seat):
            theirs |= 1 << c
        else:
            hands[seat] |= 1 << c
    return as_four(hands), theirs, pos.knowledge(before_trick=True)


def _split(
    knowledge: Knowledge, suit: int, placed: tuple[int, int], model: BeliefModel
) -> list[tuple[int, int, str, float]]:
    """Each way the suit can lie now: (declarer's left-hand opponent's cards, right-hand
    opponent's cards, the break at trick 1 as "3-3", chance)."""
    n = knowledge.unseen[suit]
    if n == 0:
        w, e = placed
        shape = knowledge.original(suit, 0)
        return [(w, e, f"{max(shape)}-{min(shape)}", 1.0)]
    out = []
    for k, p in enumerate(model.split(n, knowledge.vacancies(suit))):
        if p > 0:
            w, e = knowledge.original(suit, k)
            out.append((k + placed[0], n - k + placed[1], f"{max(w, e)}-{min(w, e)}", p))
    return out


def _suit(
    pos: Position,
    suit: int,
    hands: tuple[int, int, int, int],
    theirs_mask: int,
    knowledge: Knowledge,
) -> tuple[SuitAnalysis, dict[str, Any]]:
    """One suit's analysis, and the play-outs the suit contract's loser count reuses."""
    table = pos.table
    model = table.model
    seats = (table.declarer, table.dummy)
    lho, rho = table.defenders
    m = SUIT_MASKS[suit]
    base = 13 * suit - 2

    def ranks(mask: int) -> tuple[int, ...]:
        return tuple(sorted((c - base) for c in range(52) if mask >> c & 1 and SUIT_OF[c] == suit))

    a, b = ranks(hands[seats[0]] & m), ranks(hands[seats[1]] & m)
    theirs = ranks(theirs_mask & m)
    placed = ((hands[lho] & m).bit_count(), (hands[rho] & m).bit_count())
    top = theirs[-1] if theirs else 0
    longer = max(len(a), len(b))
    letters = [Seat(s).letter for s in seats]
    holdings = {letters[0]: _ranks(a), letters[1]: _ranks(b)}
    winners = [tuple(c for c in h if c > top) for h in (a, b)]
    sure = min(len(winners[0]) + len(winners[1]), longer)
    sure_cards = {letters[i]: tuple(_card(suit, c) for c in reversed(winners[i])) for i in (0, 1)}

    blocked = None
    if sure and len(winners[0]) + len(winners[1]) <= 10:
        runs = [_cash(a, b, top, lead) for lead in (0, 1) if (a, b)[lead]]
        n, (end_a, end_b, _) = max(runs, key=lambda r: r[0])
        if n < sure:
            left = [sum(c > top for c in h) for h in (end_a, end_b)]
            stranded = 0 if left[0] >= left[1] else 1
            blocked = f"blocked: needs an entry to {Seat(seats[stranded]).title}"

    force = _play_out(a, b, theirs, None)
    by_force = _won(force)
    techniques: list[Technique] = []
    if by_force > sure:
        last = max(i for i, r in enumerate(force) if r.won)
        knocked = [r.card for r in force[:last] if not r.won]
        techniques.append(
            Technique(
                PROMOTION,
                by_force - sure,
                1.0,
                float(by_force - sure),
                f"knocking out the {_cards(suit, knocked)}" if knocked else "",
                len(knocked),
                tuple(_card(suit, c) for c in sorted(knocked, reverse=True)),
            )
        )

    # Finesse and throw-in: a card of ours with exactly one of theirs above it.
    if theirs:
        second = theirs[-2] if len(theirs) > 1 else 0
        candidates = [c for c in (*a, *b) if second < c < top]
        if candidates:
            c = max(candidates)
            h = 0 if c in a else 1
            tenace, other = (a, b)[h], (a, b)[1 - h]
            if len(tenace) >= 2 and any(x < c for x in other):
                gain = _won(_play_out(a, b, theirs, None, (top, h))) - by_force
                seat = Seat(seats[h])
                onside, target = seat.prev, seat.next
                x_bit = 1 << (base + top)
                if hands[onside] & x_bit:
                    chance = 1.0
                elif hands[target] & x_bit:
                    chance = 0.0
                else:
                    name = DEFENDERS[table.defender_index(onside)]
                    chance = model.p_card(name, knowledge.unseen[suit], knowledge.vacancies(suit))
                missing = _card(suit, top)
                if gain > 0 and chance > 0:
                    techniques.append(
                        Technique(
                            FINESSE,
                            gain,
                            chance,
                            gain * chance,
                            f"if {onside.title} has the {missing}",
                            0,
                            (missing,),
                            onside.title,
                        )
                    )
                if gain > 0:
                    techniques.append(
                        Technique(
                            THROW_IN,
                            1,
                            None,
                            None,
                            f"if {target.title} is made to lead {SUIT_NAMES[suit]}",
                            1,
                            (missing,),
                            target.title,
                        )
                    )

    splits = _split(knowledge, suit, placed, model) if theirs else []
    if theirs and longer:
        gains: dict[tuple[str, int], float] = {}
        outcomes = [
            (w, e, shape, p, max(0, _won(_play_out(a, b, theirs, max(w, e))) - by_force))
            for w, e, shape, p in splits
        ]
        mixed = {
            shape
            for _, _, shape, _, x in outcomes
            if len({y for _, _, sh, _, y in outcomes if sh == shape}) > 1
        }
        for w, e, shape, p, extra in outcomes:
            if shape in mixed:  # the same break, different tricks: say who is long
                long_seat = lho if w > e else rho
                shape = f"{shape} with {Seat(long_seat).title} long" if w != e else shape
            if extra:
                gains[(shape, extra)] = gains.get((shape, extra), 0.0) + p
        if gains:
            breaks = tuple(
                Break(shape, p, extra)
                for (shape, extra), p in sorted(gains.items(), key=lambda i: (-i[0][1], -i[1]))
            )
            best = breaks[0]
            techniques.append(
                Technique(
                    LENGTH,
                    best.tricks,
                    sum(x.probability for x in breaks if x.tricks == best.tricks),
                    sum(x.probability * x.tricks for x in breaks),
                    f"if {SUIT_NAMES[suit]} break {best.shape}",
                    0,
                    breaks=breaks,
                )
            )

    entries = {}
    for i in (0, 1):
        count, cards = _entries((a, b)[i], (a, b)[1 - i], top)
        entries[letters[i]] = Entries(count, tuple(_card(suit, c) for c in cards))

    # The threat: their cards above all of ours, cashed while they can follow (and, in a
    # suit contract, until a trump-holding hand of ours is out of the suit and ruffs).
    ours_top = max((*a, *b), default=0)
    their_top = tuple(c for c in theirs if c > ours_top)
    stops = [
        len((a, b)[i])
        for i in (0, 1)
        if table.trump < 4 and suit != table.trump and hands[seats[i]] & SUIT_MASKS[table.trump]
    ]
    cap = min(stops) if stops else 13
    their_sure = (
        sum(p * min(len(their_top), max(w, e), cap) for w, e, _, p in splits) if their_top else 0.0
    )

    analysis = SuitAnalysis(
        suit,
        holdings,
        len(theirs),
        sure,
        sure_cards,
        blocked,
        tuple(techniques),
        entries,
        their_sure,
        tuple(_card(suit, c) for c in sorted(their_top, reverse=True)),
    )
    return analysis, {"a": a, "b": b, "theirs": theirs, "splits": splits, "force": force}


def _threat(pos: Position, suits: Sequence[SuitAnalysis], knowledge: Knowledge) -> Threat | None:
    """The suit with the most sure tricks for the defenders (§A10.4), if any."""
    worst = max(suits, key=lambda s: (round(s.their_sure, 9), -s.suit))
    if worst.their_sure <= 0:
        return None
    model = pos.table.model
    lho, rho = pos.table.defenders
    by_defender = {}
    for seat in (lho, rho):
        name = DEFENDERS[pos.table.defender_index(seat)]
        n = knowledge.unseen[worst.suit]
        each = model.p_card(name, n, knowledge.vacancies(worst.suit)) if n else 0.0
        by_defender[Seat(seat).title] = round(-each * len(worst.their_top), 4)
    ways_in = tuple(c for s in suits if s.suit != worst.suit for c in s.their_top[:1])
    return Threat(worst.suit, worst.their_sure, worst.their_top, ways_in, by_defender)


def _losers(
    pos: Position,
    hands: tuple[int, int, int, int],
    suits: Sequence[SuitAnalysis],
    plays: Sequence[dict[str, Any]],
    needed: int,
    remaining: int,
) -> Losers:
    """The master hand's losers, its discards and the other hand's ruffs (suit contracts)."""
    table = pos.table
    tm = SUIT_MASKS[table.trump]
    seats = (table.declarer, table.dummy)
    trumps = [(hands[s] & tm).bit_count() for s in seats]
    master = 0 if trumps[0] >= trumps[1] else 1
    other = 1 - master
    per_suit = [0, 0, 0, 0]
    discards: list[str] = []
    later: list[tuple[str, tuple[str, ...]]] = []
    length_discards: list[tuple[int, tuple[str, ...], str, float]] = []
    ruff_chances = 0
    for s, play in zip(suits, plays, strict=True):
        a, b, theirs, splits = play["a"], play["b"], play["theirs"], play["splits"]
        if not a and not b:
            continue
        likeliest = max(splits, key=lambda x: x[3]) if splits else None
        rounds = (
            _play_out(a, b, theirs, max(likeliest[0], likeliest[1]))
            if likeliest
            else _play_out(a, b, theirs, 0)
        )
        per_suit[s.suit] = sum(1 for r in rounds if not r.won and r.played[master])
        if s.suit != table.trump:
            ruff_chances += sum(
                1 for r in rounds if not r.won and r.played[master] and not r.played[other]
            )
        force = play["force"]
        sure_disc = [r.card for r in force if r.won and r.played[other] and not r.played[master]]
        knocked: list[int] = []
        for r in force:
            if not r.won:
                knocked.append(r.card)
            elif r.played[other] and not r.played[master]:
                if knocked:
                    gone = tuple(_card(s.suit, c) for c in sorted(knocked, reverse=True))
                    later.append((_card(s.suit, r.card), gone))
                else:
                    discards.append(_card(s.suit, r.card))
        if s.suit == table.trump or not theirs:
            continue
        # discards that need a break: the most of them, at the breaks that give them
        extra: dict[tuple[int, ...], tuple[list[str], float]] = {}
        for w, e, shape, p in splits:
            rs = _play_out(a, b, theirs, max(w, e))
            disc = [r.card for r in rs if r.won and r.played[other] and not r.played[master]]
            more = tuple(c for c in disc if c not in sure_disc)
            if more:
                shapes, q = extra.get(more, ([], 0.0))
                extra[more] = ([*shapes, shape] if shape not in shapes else shapes, q + p)
        if extra:
            cards, (shapes, q) = max(extra.items(), key=lambda i: (len(i[0]), i[1][1]))
            said = tuple(_card(s.suit, c) for c in sorted(cards, reverse=True))
            length_discards.append((s.suit, said, " or ".join(shapes), q))
    ruffs = min(trumps[other], ruff_chances)
    return Losers(
        Seat(seats[master]).title,
        as_four(per_suit),
        max(0, remaining - needed),
        tuple(discards),
        tuple(later),
        tuple(length_discards),
        ruffs,
        Seat(seats[other]).title,
    )


def analyse(pos: Position, planner: dict[str, Any] | None = None) -> Analysis:
    """Declarer's analysis of ``pos`` (declarer's information set), as of the start of
    the current trick.  ``planner`` carries the planner's own values to show beside it
    (see :func:`planner_line`)."""
    table = pos.table
    hands, theirs, knowledge = _at_trick_start(pos)
    suits: list[SuitAnalysis] = []
    plays: list[dict[str, Any]] = []
    for s in range(4):
        analysis, play = _suit(pos, s, hands, theirs, knowledge)
        suits.append(analysis)
        plays.append(play)
    done = pos.won + pos.lost
    remaining = 13 - done
    needed = max(0, table.contract.tricks_needed - pos.won)
    losers = _losers(pos, hands, suits, plays, needed, remaining) if table.trump < 4 else None
    return Analysis(
        str(table.contract),
        table.contract.display(),
        Seat(table.declarer).title,
        Seat(table.dummy).title,
        done + 1,
        pos.won,
        needed,
        remaining,
        table.trump == 4,
        tuple(suits),
        _threat(pos, suits, knowledge),
        losers,
        planner,
    )


def position_from_hands(
    declarer_hand: str,
    dummy_hand: str,
    contract: str,
    declarer: str = "S",
    *,
    model: BeliefModel = DEFAULT_MODEL,
) -> Position:
    """Declarer's position before the opening lead from the two hands declarer sees
    (PBN, 'AK43.AQ4.A73.852'), the other 26 cards unseen: what a textbook example gives."""
    seat = Seat.parse(declarer)
    hands = [0, 0, 0, 0]
    hands[seat] = parse_hand(declarer_hand)
    hands[seat.partner] = parse_hand(dummy_hand)
    if hands[seat] & hands[seat.partner]:
        raise ValueError("declarer and dummy cannot hold the same card")
    if hands[seat].bit_count() != 13 or hands[seat.partner].bit_count() != 13:
        raise ValueError("declarer and dummy each hold 13 cards before the lead")
    table = Table(Contract.parse(contract), int(seat), False, model)
    unknown = ((-1, -1, -1, -1), (-1, -1, -1, -1))
    return Position(
        table,
        as_four(hands),
        ((1 << 52) - 1) & ~(hands[seat] | hands[seat.partner]),
        (),
        int(seat.next),
        0,
        0,
        (13, 13),
        unknown,
        (0, 0),
        0,
    )


# --------------------------------------------------------------------------------------
# Text
# --------------------------------------------------------------------------------------


def _how(t: Technique) -> str:
    """How a technique builds its tricks and on what: "by a finesse if East has the ♥K
    (50 %)" -- what follows "1 extra"."""
    if t.kind == PROMOTION:
        return f"by promotion, {t.condition}" if t.condition else "by promotion"
    if t.kind == FINESSE:
        return f"by a finesse {t.condition} ({_pct(t.chance or 0.0)})"
    if t.kind == THROW_IN:
        return f"by a throw-in {t.condition}"
    if len({b.tricks for b in t.breaks}) == 1 and sum(b.probability for b in t.breaks) > 0.9999:
        return "by length, however they break"
    groups: dict[int, list[Break]] = {}
    for b in t.breaks:
        groups.setdefault(b.tricks, []).append(b)
    said: list[str] = []
    for tricks, group in sorted(groups.items(), reverse=True):
        shapes = _or(list(dict.fromkeys(b.shape for b in group)))
        chance = _pct(sum(b.probability for b in group))
        said.append(f"if {shapes} ({chance})" if not said else f"{tricks} if {shapes} ({chance})")
    return "by length " + ", ".join(said)


def _suit_text(s: SuitAnalysis) -> str:
    """One suit's row: its sure tricks, then each way to build more, as Lo lists them."""
    if not any(s.holdings.values()):
        return "none held"
    sure = (
        "no sure trick" if not s.sure else f"{s.sure} sure {'trick' if s.sure == 1 else 'tricks'}"
    )
    parts = [sure + (f" ({s.blocked})" if s.blocked else "")]
    promotion = s.technique(PROMOTION)
    if promotion:
        parts.append(f"{promotion.tricks} extra {_how(promotion)}")
    finesse, throw_in = s.technique(FINESSE), s.technique(THROW_IN)
    chosen = s.chosen
    if chosen is not None:
        second = throw_in if chosen is finesse else finesse
        also = f", or {_how(second)}" if second is not None else ""
        parts.append(f"{chosen.tricks} extra {_how(chosen)}{also}")
    if s.length:
        parts.append(f"{s.length.tricks} extra {_how(s.length)}")
    if len(parts) == 1:
        parts.append("no way to build extra tricks")
    return "; ".join(parts)


def _entries_text(analysis: Analysis) -> str:
    said = []
    for seat in (analysis.declarer, analysis.dummy):
        letter = Seat.parse(seat).letter
        items = []
        for s in analysis.suits:
            e = s.entries[letter]
            if not e.count:
                continue
            cards = SUIT_SYMBOLS[s.suit] + "".join(c[1:] for c in e.cards)
            if e.count < len(e.cards):
                cards += f" ({'one' if e.count == 1 else e.count} of them)"
            items.append(cards)
        said.append(f"{seat}: {', '.join(items) if items else 'none'}")
    order = sorted(said, key=lambda t: "NESW".index(t[0]))
    return "Entries — " + "; ".join(order)


def _total_text(analysis: Analysis) -> str:
    sure = analysis.sure
    head = f"{sure} sure {'trick' if sure == 1 else 'tricks'}"
    if analysis.short == 0:
        return f"Total: {head}, enough for the contract: cash them before anything goes wrong."
    items: list[tuple[tuple[float, ...], str, SuitAnalysis | None]] = []
    promoted = [s for s in analysis.suits if s.promotion]
    if promoted:
        n = sum(s.promotion for s in promoted)
        lost = sum(t.gives_up_lead for s in promoted if (t := s.technique(PROMOTION)))
        lead = f" (giving up the lead {_times(lost)})" if lost else ""
        items.append(((n, 0, 1.0), f"{n} by promotion{lead}", None))
    for s in analysis.suits:
        chosen = s.chosen
        if chosen is not None:
            if chosen.kind == FINESSE:
                what = f"by a {s.name[:-1]} finesse ({_pct(chosen.chance or 0.0)})"
                chance = chosen.chance or 0.0
            else:
                what = f"by a throw-in in {s.name}"
                chance = 0.0
            items.append(((chosen.tricks, 1, chance), f"{chosen.tricks} {what}", None))
        if s.length:
            best = s.length.breaks[0]
            shapes = _or(
                list(dict.fromkeys(b.shape for b in s.length.breaks if b.tricks == best.tricks))
            )
            chance = s.length.chance or 0.0
            said = (
                f"{best.tricks} from {s.name}, however they break (<entry>)"
                if chance > 0.9999
                else f"{best.tricks} from {s.name} if {shapes} ({_pct(chance)}; <entry>)"
            )
            items.append(((best.tricks, 2, chance), said, s))
    # Lo's order: the most extra tricks first (guideline b); among equals promotion (the
    # safest, ch. 11), then finesse or throw-in, then length (used last, §A4.3)
    items.sort(key=lambda i: (-i[0][0], i[0][1], -i[0][2]))
    # Lo's guideline (c), "watch your entries", for the suit to play first
    first = next((suit for _, _, suit in items if suit is not None), None)
    items = [
        (
            key,
            text.replace(
                "<entry>",
                _long_hand_entries(analysis, suit) if suit is not None and suit is first else "",
            )
            .replace("; )", ")")
            .replace(" ()", ""),
            suit,
        )
        for key, text, suit in items
    ]
    built = "; ".join(text for _, text, _ in items[:3]) or "no way to build them"
    return f"Total: {head}, {analysis.short} more needed: {built}."


def _long_hand_entries(analysis: Analysis, s: SuitAnalysis) -> str:
    """Lo's guideline (c), "watch your entries": for a suit set up by length, the long
    hand's entries outside the suit."""
    holdings = s.holdings
    long_letter = max(
        holdings, key=lambda k: (len(holdings[k]), k == Seat.parse(analysis.declarer).letter)
    )
    if len(holdings[long_letter]) == min(len(h) for h in holdings.values()):
        return ""
    outside = []
    for other in analysis.suits:
        if other.suit == s.suit:
            continue
        e = other.entries[long_letter]
        if e.count:
            outside.append(SUIT_SYMBOLS[other.suit] + "".join(c[1:] for c in e.cards))
    title = Seat.parse(long_letter).title
    if not outside:
        return f"no entry to {title} outside {s.name}"
    return f"{title}'s entries outside {s.name}: {', '.join(outside)}"


def _threat_text(threat: Threat) -> str:
    suit = SUIT_NAMES[threat.suit]
    n = round(threat.tricks, 1)
    amount = _tricks(int(n)) if n == int(n) else f"{n:.1f} tricks"
    ways = f" (with the {_or(threat.ways_in)})" if threat.ways_in else ""
    return f"The defenders threaten {suit}: {amount} once they get in{ways}."


def _losers_text(losers: Losers) -> str:
    per = " ".join(f"{SUIT_SYMBOLS[s]}{n}" for s, n in enumerate(losers.per_suit) if n) or "none"
    head = f"{losers.hand}'s losers: {per}, {losers.allowed} allowed"
    parts = []
    if losers.discards:
        parts.append(f"the {_and(losers.discards)} now")
    for card, gone in losers.later_discards:
        suit = SUIT_SYMBOLS.index(card[0])
        parts.append(f"the {card} once the {_cards(suit, _rank_values(gone))} is gone")
    for suit, cards, shape, p in losers.length_discards:
        ranks = "".join(c[1:] for c in cards)
        parts.append(
            f"the {SUIT_SYMBOLS[suit]}{ranks} if {SUIT_NAMES[suit]} break {shape} ({_pct(p)})"
        )
    said = f"; discards on {', '.join(parts)}" if parts else ""
    if losers.ruffs:
        ruffs = "ruff" if losers.ruffs == 1 else "ruffs"
        said += f"; {losers.ruffs} {ruffs} in {losers.ruffing_hand}"
    return head + said + "."


def _rank_values(cards: Iterable[str]) -> list[int]:
    return [RANK_CHARS.index(c[1]) + 2 for c in cards]


def _and(items: Sequence[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def planner_line(planner: dict[str, Any]) -> str:
    """The planner's own values, beside Lo's count: its card, the expected score it
    gave it, and its static count of the position (the estimate its leaves are valued
    by, :func:`knowledge.bridge.estimate.estimate_tricks`)."""
    parts = []
    if planner.get("card"):
        value = planner.get("value")
        score = f" (expected score {value:+.2f})" if isinstance(value, (int, float)) else ""
        parts.append(f"plays {planner['card']}{score}")
    if planner.get("estimate") is not None:
        parts.append(f"its static count of this position is {planner['estimate']:g} tricks")
    return "The planner " + "; ".join(parts) + "." if parts else ""


def analysis_lines(analysis: Analysis, *, planner: bool = True) -> list[str]:
    """The analysis as a teacher reads it: the goal, one line a suit, entries, the
    threat, the totals (and, in a suit contract, the losers), then the planner's own
    values.  Bridge words only; about ten lines."""
    a = analysis
    if a.trick == 1:
        goal = f"{_tricks(a.needed)} needed"
    else:
        goal = f"{a.won} won, {a.needed} more needed from {a.remaining}"
    if a.needed > a.remaining:
        goal += " (the contract can no longer be made)"
    letters = [Seat.parse(a.declarer).letter, Seat.parse(a.dummy).letter]
    first, second = sorted(letters, key="NESW".index)
    titles = f"{Seat.parse(first).title} | {Seat.parse(second).title}"
    lines = [
        f"Declarer's analysis (after Lo 1987): {a.contract_text} by {a.declarer}, "
        f"trick {a.trick}: {goal} — {titles}"
    ]
    widths = [max(len(s.holdings[x]) for s in a.suits) for x in (first, second)]
    widths = [max(w, 1) for w in widths]
    for s in a.suits:
        cells = [
            (s.holdings[x] or "—").ljust(w) for x, w in zip((first, second), widths, strict=True)
        ]
        lines.append(f"  {SUIT_SYMBOLS[s.suit]} {cells[0]} | {cells[1]}  {_suit_text(s)}")
    lines.append("  " + _entries_text(a))
    if a.threat is not None:
        lines.append("  " + _threat_text(a.threat))
    lines.append("  " + _total_text(a))
    if a.losers is not None:
        lines.append("  " + _losers_text(a.losers))
    if planner and a.planner:
        said = planner_line(a.planner)
        if said:
            lines.append("  " + said)
    return lines


def _short(t: Technique) -> str:
    """A technique in a few words, for the table's panel."""
    if t.kind == PROMOTION:
        out = f" ({_and(t.cards)} out)" if t.cards else ""
        return f"{t.tricks} by promotion{out}"
    if t.kind == FINESSE:
        return f"{t.tricks} by finesse: {t.defender} {t.cards[0]} ({_pct(t.chance or 0.0)})"
    if t.kind == THROW_IN:
        return f"{t.tricks} by throw-in of {t.defender}"
    return f"{t.tricks} {_how(t)}"


def compact_lines(analysis: Analysis) -> list[str]:
    """The analysis in the width of the table (about 70 columns): the goal, one line a
    suit, entries, the threat and the planner's count -- for the workbench's table view."""
    a = analysis
    goal = (
        f"{_tricks(a.needed)} needed"
        if a.trick == 1
        else f"{a.won} won, {a.needed} more needed from {a.remaining}"
    )
    lines = [f"{a.contract_text} by {a.declarer}: {goal}; {a.sure} sure, {a.short} short"]
    for s in a.suits:
        if not any(s.holdings.values()):
            lines.append(f"{SUIT_SYMBOLS[s.suit]} none held")
            continue
        parts = ["no sure trick" if not s.sure else f"{s.sure} sure"]
        if s.blocked:
            parts[0] += " (blocked)"
        shown = [t for t in (s.technique(PROMOTION), s.chosen, s.length) if t is not None]
        parts += [_short(t) for t in shown] or ["nothing to build"]
        lines.append(f"{SUIT_SYMBOLS[s.suit]} " + " · ".join(parts))
    lines.append(_entries_text(a))
    if a.threat is not None:
        t = a.threat
        ways = f" (in with the {_or(t.ways_in)})" if t.ways_in else ""
        word = "trick" if t.tricks == 1 else "tricks"
        lines.append(f"Threat: {t.tricks:.2g} {SUIT_NAMES[t.suit][:-1]} {word} for them{ways}")
    if a.losers is not None:
        per = " ".join(f"{SUIT_SYMBOLS[i]}{n}" for i, n in enumerate(a.losers.per_suit) if n)
        lines.append(f"{a.losers.hand}'s losers: {per or 'none'}, {a.losers.allowed} allowed")
    if a.planner and a.planner.get("estimate") is not None:
        lines.append(f"The planner's static count: {a.planner['estimate']:g} tricks")
    return lines


def planner_values(pos: Position, result: Any = None, card: int | None = None) -> dict[str, Any]:
    """The planner's own values at ``pos``, to show beside the analysis: the card it
    plays (``card``, else the first of its plan), the expected score it gave the plan
    (``result.value``) and its static count of the position -- the estimate it values
    the leaves of its trees by (:func:`knowledge.bridge.estimate.estimate_tricks`)."""
    from knowledge.bridge.estimate import estimate_tricks

    if card is None and result is not None and getattr(result, "plan", None):
        card = int(result.plan[0].args[1])
    value = getattr(result, "value", None)
    return {
        "card": _card(SUIT_OF[card], card % 13 + 2) if card is not None else None,
        "value": round(float(value), 3) if value is not None else None,
        "estimate": estimate_tricks(pos),
    }


def problem_analysis(domain: Any, problem: Any, result: Any) -> Any:
    """The bridge package's analysis hook (``KnowledgePackage.analysis``): declarer's
    analysis of the problem's position with the planner's values beside it, as text
    lines for ``--explain`` and data for ``--json``; None for a problem that is not a
    bridge position."""
    from knowledge import ProblemAnalysis

    pos = getattr(problem, "state", None)
    if not isinstance(pos, Position):
        return None
    analysis = analyse(pos, planner_values(pos, result))
    return ProblemAnalysis(tuple(analysis_lines(analysis)), analysis.to_dict())
