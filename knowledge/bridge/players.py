"""Players, the play loop that runs a board between a declarer and a defence, and DD helpers.

A :class:`Player` chooses one card: ``choose(state, seat, info) -> card``.  A declarer
player is asked for both declarer's and dummy's cards; a defender player for both defenders'.
:func:`play_board` enforces information hiding: a player whose ``double_dummy`` attribute is
false receives the :class:`~.information.Information` of the seat it plays for and a
:func:`~.information.masked_state` (hidden hands emptied) -- never the real position.
Double-dummy players get a copy of the real :class:`~.deal.PlayState`.

Optional player attributes the loop reads after each decision (and clears before it):
``nodes`` (search nodes for that decision) and ``note`` (an annotation such as
"[Draw second round of trump]"); they land in :class:`PlayRecord` per card.

The double-dummy helpers (:func:`dd_solve`, :func:`dd_solve_many`, :func:`dd_trace`) call
DDS through endplay's ctypes layer directly, filling DDS's binary ``deal`` struct from our
52-bit hands instead of going through endplay's ``Deal`` objects and PBN text: a decision of
a Monte-Carlo player solves dozens of positions.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

from .cards import CARD_NAMES, RANK_OF, Seat
from .deal import Contract, Deal, IllegalPlay, PlayState
from .information import Information, declarer_info, defender_info, masked_state

__all__ = [
    "DoubleDummyPlayer",
    "PlayRecord",
    "PlayTimeout",
    "Player",
    "dd_best",
    "dd_fresh_start",
    "dd_solve",
    "dd_solve_many",
    "dd_trace",
    "dd_value",
    "log_notes",
    "lowest_first",
    "play_board",
]


@runtime_checkable
class Player(Protocol):
    """Chooses cards for one side.  ``double_dummy`` players may see every hand."""

    name: str
    double_dummy: bool

    def choose(self, state: PlayState, seat: Seat, info: Information) -> int: ...


class PlayTimeout(TimeoutError):
    """A board took longer than its time budget (checked between cards)."""


@dataclass
class PlayRecord:
    """One board played out: every card, who played it, and what the players reported."""

    deal: Deal
    contract: Contract
    declarer: Seat
    declarer_name: str
    defender_name: str
    cards: list[int] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    nodes: list[int | None] = field(default_factory=list)
    notes: list[str | None] = field(default_factory=list)
    declarer_tricks: int = 0

    @property
    def play_text(self) -> str:
        """All cards in play order, e.g. 'SQS3S6SA…'."""
        return "".join(CARD_NAMES[c] for c in self.cards)

    @property
    def made(self) -> bool:
        return self.declarer_tricks >= self.contract.tricks_needed

    def _side(self, declarer_side: bool) -> list[int]:
        d = self.declarer & 1
        return [i for i, s in enumerate(self.seats) if ((s & 1) == d) == declarer_side]

    @property
    def declarer_seconds(self) -> float:
        return sum(self.seconds[i] for i in self._side(True))

    @property
    def declarer_nodes(self) -> int | None:
        vals = [self.nodes[i] for i in self._side(True) if self.nodes[i] is not None]
        return sum(vals) if vals else None  # type: ignore[arg-type]

    def to_dict(self) -> dict:
        return {
            "contract": str(self.contract),
            "declarer": self.declarer.letter,
            "declarer_player": self.declarer_name,
            "defender_player": self.defender_name,
            "tricks": self.declarer_tricks,
            "made": self.made,
            "play": self.play_text,
            "cards": [
                {
                    "card": CARD_NAMES[c],
                    "seat": Seat(s).letter,
                    "seconds": round(t, 6),
                    "nodes": n,
                    "note": note,
                }
                for c, s, t, n, note in zip(
                    self.cards, self.seats, self.seconds, self.nodes, self.notes, strict=True
                )
            ],
        }


def log_notes(player: object, recorded: Sequence[str | None], start: int = 0) -> list[str | None]:
    """The play log's notes of a board ``player`` played (``recorded``: the record's, the
    first for the card after ``start`` cards of the deal): the player's own where it keeps
    them -- a declarer that plans on demand (``TofsDeclarer.log_notes``) names each card's
    plan only when asked -- else the record's."""
    own = getattr(player, "log_notes", None)
    return own(recorded, start) if own is not None else list(recorded)


def _reset(player: object, attr: str) -> None:
    if hasattr(player, attr):
        # a read-only property raises AttributeError: the player manages it
        with contextlib.suppress(AttributeError):
            setattr(player, attr, None)


def play_board(
    deal: Deal,
    contract: Contract,
    declarer: Seat | int,
    declarer_player: Player,
    defender_player: Player,
    *,
    lead: int | None = None,
    timeout: float | None = None,
    on_card: Callable[[PlayState, int, Seat, str | None], None] | None = None,
    start: PlayState | None = None,
) -> PlayRecord:
    """Play the board to the end and return the record.

    ``start`` continues from a position of this board instead of the first card (the
    record then holds the cards played from there on).
    ``lead`` fixes the opening lead (a PBN ``[Lead]``); otherwise the defence chooses it.
    ``timeout`` (seconds for the whole board) is checked between cards and raises
    :class:`PlayTimeout`; a single decision that never returns cannot be cut off here --
    run the board in a worker process for that (:mod:`.match` does).  ``on_card(state,
    card, seat, note)`` is called after each card with the position after it.
    """
    declarer = Seat(declarer)
    state = start.copy() if start is not None else PlayState.start(deal, contract, declarer)
    rec = PlayRecord(
        deal=deal,
        contract=contract,
        declarer=declarer,
        declarer_name=getattr(declarer_player, "name", "declarer"),
        defender_name=getattr(defender_player, "name", "defence"),
    )
    t_start = time.perf_counter()
    dside = declarer & 1
    while not state.is_over:
        seat = Seat(state.turn)
        ours = (seat & 1) == dside
        player = declarer_player if ours else defender_player
        nodes: int | None = None
        note: str | None = None
        if lead is not None and state.cards_played == 0:
            c = lead
            dt = 0.0
        else:
            info = declarer_info(state) if ours else defender_info(state, seat)
            view = (
                state.copy()
                if getattr(player, "double_dummy", False)
                else masked_state(state, info)
            )
            _reset(player, "nodes")
            _reset(player, "note")
            t0 = time.perf_counter()
            c = player.choose(view, seat, info)
            dt = time.perf_counter() - t0
            nodes = getattr(player, "nodes", None)
            note = getattr(player, "note", None)
        if not (isinstance(c, int) and 0 <= c < 52 and state.legal_mask() >> c & 1):
            name = CARD_NAMES[c] if isinstance(c, int) and 0 <= c < 52 else repr(c)
            who = (
                "the recorded lead"
                if lead is not None and state.cards_played == 0
                else getattr(player, "name", "player")
            )
            raise IllegalPlay(
                f"{who} chose {name} for {seat.title}, which is not a legal play; "
                f"legal: {' '.join(CARD_NAMES[x] for x in state.legal_plays())}"
            )
        state.play(c)
        rec.cards.append(c)
        rec.seats.append(int(seat))
        rec.seconds.append(dt)
        rec.nodes.append(nodes)
        rec.notes.append(note)
        if on_card is not None:
            on_card(state, c, seat, note)
        if timeout is not None and time.perf_counter() - t_start > timeout and not state.is_over:
            raise PlayTimeout(
                f"board not finished after {timeout:g} s ({state.cards_played} cards played)"
            )
    rec.declarer_tricks = state.declarer_tricks
    return rec


# -- double dummy through DDS -------------------------------------------------------------------


def decision_rng(seed: int, cards_played: int) -> random.Random:
    """The random stream one decision samples its layouts from: the board's seed and how
    many cards have been played.  Every sampling declarer draws from it, so two of them
    at the same point of the same board see the same layouts -- a match then compares
    what they do with the samples, not which samples each happened to draw (common random
    numbers)."""
    return random.Random(seed * 64 + cards_played)


def lowest_first(cards: Sequence[int] | set[int]) -> int:
    """The lowest card by rank, then by suit order (S, H, D, C): a deterministic tie-break."""
    return min(cards, key=lambda c: (RANK_OF[c], c))


def _fill(dl, hands: Sequence[int], trump: int, leader: int, trick: Sequence[int]) -> None:
    dl.trump = trump
    dl.first = leader
    for i in range(3):
        if i < len(trick):
            dl.currentTrickSuit[i] = trick[i] // 13
            dl.currentTrickRank[i] = trick[i] % 13 + 2
        else:
            dl.currentTrickSuit[i] = 0
            dl.currentTrickRank[i] = 0
    for h in range(4):
        hand = hands[h]
        row = dl.remainCards[h]
        for s in range(4):
            row[s] = ((hand >> (13 * s)) & 0x1FFF) << 2


def _decode(fut) -> tuple[dict[int, int], int]:
    out: dict[int, int] = {}
    for i in range(fut.cards):
        score = fut.score[i]
        if score < 0:
            continue
        s = fut.suit[i]
        holding = (1 << fut.rank[i]) | fut.equals[i]
        for r in range(2, 15):
            if holding >> r & 1:
                out[s * 13 + r - 2] = score
    return out, fut.nodes


Position = tuple[Sequence[int], int, int, Sequence[int]]
"""(hands, trump, leader of the current trick, cards of the current trick)."""


def _position(state: PlayState) -> Position:
    return (state.hands, state.trump, state.leader, state.trick)


# A last trick of four clubs: no deal of a real board is like it.
_UNLIKE_ANY_BOARD: Position = ((1 << 0, 1 << 1, 1 << 2, 1 << 3), 4, 0, ())


def dd_fresh_start() -> None:
    """Make this thread's next DDS solve start from nothing, as in a fresh process.

    DDS keeps a thread's transposition table when the next deal looks like the one it
    solved last, so the nodes it reports for a board depend on what the process solved
    before -- in a match, on which job its worker happened to run before (the local pool,
    a cluster).  A solve of a position unlike any board makes the next deal a new one.
    It takes microseconds, and makes a job's node counts a function of the job alone.
    """
    dd_solve(_UNLIKE_ANY_BOARD)


def dd_solve(state: PlayState | Position) -> tuple[dict[int, int], int]:
    """DD value of every legal card for the side to move (tricks from now, this trick
    included), and the nodes DDS searched."""
    import endplay._dds as _dds

    pos = _position(state) if isinstance(state, PlayState) else state
    dl = _dds.deal()
    _fill(dl, *pos)
    fut = _dds.futureTricks()
    _dds.SolveBoard(dl, -1, 3, 1, fut, 0)
    return _decode(fut)


def dd_solve_many(
    positions: Sequence[PlayState | Position],
    *,
    deadline: float | None = None,
    chunk: int = 8,
    best_only: bool = False,
) -> list[tuple[dict[int, int], int]]:
    """:func:`dd_solve` for many positions with DDS's threaded batch call.

    Positions are solved in chunks of ``chunk``; once ``time.perf_counter()`` passes
    ``deadline`` no new chunk starts, so the result may be shorter than the input (never
    empty if the input was not).  ``best_only``: each position's optimal cards alone (DDS
    need not score the others, which is cheaper).
    """
    import endplay._dds as _dds

    out: list[tuple[dict[int, int], int]] = []
    n = len(positions)
    i = 0
    chunk = max(1, min(chunk, _dds.MAXNOOFBOARDS))
    while i < n:
        if out and deadline is not None and time.perf_counter() > deadline:
            break
        part = positions[i : i + chunk]
        bop = _dds.boards()
        bop.noOfBoards = len(part)
        for j, p in enumerate(part):
            pos = _position(p) if isinstance(p, PlayState) else p
            _fill(bop.deals[j], *pos)
            bop.target[j] = -1
            bop.solutions[j] = 2 if best_only else 3
            bop.mode[j] = 1
        solved = _dds.solvedBoards()
        _dds.SolveAllBoardsBin(bop, solved)
        for j in range(len(part)):
            out.append(_decode(solved.solvedBoard[j]))
        i += chunk
    return out


def dd_value(state: PlayState) -> int:
    """Total tricks declarer's side takes from this position with best play by all four."""
    if state.is_over:
        return state.declarer_tricks
    scores, _ = dd_solve(state)
    best = max(scores.values())
    rest = state.remaining_tricks
    mine = best if (state.turn & 1) == (state.declarer & 1) else rest - best
    return state.declarer_tricks + mine


def dd_best(state: PlayState) -> tuple[int, dict[int, int], int]:
    """The lowest optimal card for the player to move, every card's value, nodes searched."""
    scores, nodes = dd_solve(state)
    best = max(scores.values())
    return lowest_first([c for c, v in scores.items() if v == best]), scores, nodes


class DoubleDummyPlayer:
    """Sees all four hands; plays the lowest DD-optimal card (declarer or defender)."""

    name = "dd"
    double_dummy = True

    def __init__(self, **_: object) -> None:
        self.nodes: int | None = None
        self.note: str | None = None

    def choose(self, state: PlayState, seat: Seat, info: Information) -> int:
        legal = state.legal_mask()
        if legal.bit_count() == 1:
            return (legal & -legal).bit_length() - 1
        card, _, nodes = dd_best(state)
        self.nodes = nodes
        return card


def dd_trace(deal: Deal, trump: int, declarer: Seat | int, cards: Sequence[int]) -> list[int]:
    """Declarer's DD tricks before the play and after each card (DDS ``AnalysePlay``),
    the opening lead made by declarer's left-hand opponent: ``len(cards) + 1`` values
    (DDS itself stops after the lead to the last trick; the forced rest is filled in)."""
    import endplay._dds as _dds

    dl = _dds.deal()
    _fill(dl, deal.hands, trump, (int(declarer) + 1) & 3, ())
    trace = _dds.playTraceBin()
    trace.number = len(cards)
    for i, c in enumerate(cards):
        trace.suit[i] = c // 13
        trace.rank[i] = c % 13 + 2
    solved = _dds.solvedPlay()
    _dds.AnalysePlayBin(dl, trace, solved, 0)
    out = [solved.tricks[i] for i in range(solved.number)]
    # DDS stops once the rest of the play is forced (after the lead to the last trick):
    # from there on the value cannot change
    while len(out) < len(cards) + 1:
        out.append(out[-1])
    return out
