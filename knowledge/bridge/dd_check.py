"""The double-dummy value of every card at a declarer decision: a check, not a reason.

The TOFS declarer plans on declarer's information set -- its own two hands and what the
play has shown -- and values its alternatives by the expected score over the layouts of
the defenders' cards it believes in.  :func:`double_dummy_check` answers a different
question about the same decision: *with all four hands face up and best play by everyone
from here*, how many tricks does declarer's side end with after each legal card, and what
does the contract then score?

That is what a reader wants beside the planner's values to see whether a card "really"
cost a trick.  It is **not** why the planner chose its card: double dummy sees the
defenders' hands, which declarer cannot, so a card can be right on the information
declarer has and still lose a trick double dummy (a finesse into a king that happens to
be offside), and vice versa.  Everything that shows these numbers labels them
:data:`LABEL` for that reason.

One DDS call per decision (``SolveBoard`` with all cards wanted, through
:func:`.players.dd_solve`) gives every legal card, equivalent cards included; the result
is deterministic.  Bad situations -- the play is over, a defender is to play, a hand is
hidden, no contract -- raise :class:`DDCheckError` (a ``ValueError``) with one sentence.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .cards import CARD_NAMES, SUIT_OF, Seat, card_name
from .deal import Contract, PlayState
from .players import dd_solve
from .scoring import score

__all__ = [
    "LABEL",
    "CardValue",
    "DDCheck",
    "DDCheckError",
    "checks_for",
    "double_dummy_check",
    "format_check",
]

LABEL = "Double-dummy check (sees all four hands; not the planner's reason)"
"""How every display of these numbers is headed."""


class DDCheckError(ValueError):
    """The position cannot be checked double dummy (the message says why)."""


@dataclass(frozen=True, slots=True)
class CardValue:
    """One legal card's double-dummy result."""

    card: int
    from_here: int
    """Tricks declarer's side takes from this position on, the trick in progress included."""
    tricks: int
    """Declarer's side's total for the deal: tricks already won plus ``from_here``."""
    score: int
    """The contract's duplicate score for ``tricks``, from declarer's side."""


@dataclass(frozen=True)
class DDCheck:
    """Every legal card of one declarer-side decision, valued double dummy."""

    seat: int
    declarer: int
    contract: Contract
    vulnerable: bool
    won: int
    """Tricks declarer's side had already won at this decision."""
    values: tuple[CardValue, ...]
    """One entry per legal card: best result first, then suit order, high card first."""
    nodes: int
    """Search nodes DDS reported."""

    @property
    def best_tricks(self) -> int:
        return max(v.tricks for v in self.values)

    @property
    def best_score(self) -> int:
        return max(v.score for v in self.values)

    @property
    def best_cards(self) -> tuple[int, ...]:
        best = self.best_tricks
        return tuple(v.card for v in self.values if v.tricks == best)

    def value_of(self, card: int) -> CardValue:
        for v in self.values:
            if v.card == card:
                return v
        raise DDCheckError(
            f"{CARD_NAMES[card] if 0 <= card < 52 else card!r} is not a legal "
            f"card for {Seat(self.seat).title} here"
        )

    def tricks_lost(self, card: int) -> int:
        """Double-dummy tricks ``card`` gives up against the best card (0 if it is best)."""
        return self.best_tricks - self.value_of(card).tricks

    def to_dict(self, played: int | None = None, *, symbols: bool = True) -> dict[str, Any]:
        """Plain data for JSON; ``played`` marks the card the planner played."""
        best = self.best_tricks
        data: dict[str, Any] = {
            "label": LABEL,
            "seat": Seat(self.seat).letter,
            "tricks_won_before": self.won,
            "best_tricks": best,
            "best_score": self.best_score,
            "best_cards": [card_name(c, symbols=symbols) for c in self.best_cards],
            "cards": [
                {
                    "card": card_name(v.card, symbols=symbols),
                    "tricks": v.tricks,
                    "tricks_from_here": v.from_here,
                    "score": v.score,
                    "best": v.tricks == best,
                    "played": v.card == played,
                }
                for v in self.values
            ],
            "nodes": self.nodes,
        }
        if played is not None and any(v.card == played for v in self.values):
            data["played"] = card_name(played, symbols=symbols)
            data["played_tricks_lost"] = self.tricks_lost(played)
        return data


def _check_position(state: PlayState) -> None:
    if state.is_over:
        raise DDCheckError("the play is over: there is no card to check")
    if (state.turn & 1) != (state.declarer & 1):
        raise DDCheckError(
            f"{Seat(state.turn).title} is a defender: the double-dummy check "
            "is for declarer's and dummy's decisions"
        )
    if not state.legal_mask():
        raise DDCheckError(
            f"{Seat(state.turn).title} holds no card: the position shows fewer than four hands"
        )
    # every seat still to play to this trick holds the same number of cards, those that
    # have played one fewer: a masked state (hidden hands emptied) fails here
    k = state.hands[state.turn].bit_count()
    for i in range(4):
        seat = (state.leader + i) & 3
        want = k - 1 if i < len(state.trick) else k
        if state.hands[seat].bit_count() != want:
            raise DDCheckError(
                f"{Seat(seat).title} holds {state.hands[seat].bit_count()} "
                f"card(s), not {want}: the double-dummy check needs all four "
                "real hands"
            )


def double_dummy_check(
    state: PlayState, *, vulnerable: bool, contract: Contract | None = None
) -> DDCheck:
    """The double-dummy result of every legal card for declarer or dummy at ``state``.

    ``state`` must be the real position (all four hands, as :func:`.players.play_board`
    holds it), with declarer or dummy to play.  ``contract`` defaults to the state's;
    ``vulnerable`` is declarer's vulnerability (for the score).  One DDS call.

    This sees the defenders' hands, so it checks the planner's choice -- it is not the
    planner's reason for it (see the module docstring).
    """
    contract = contract or state.contract
    if contract is None:
        raise DDCheckError("no contract: the double-dummy check needs one to score the tricks")
    _check_position(state)
    legal = state.legal_plays()
    scores, nodes = dd_solve(state)
    missing = [c for c in legal if c not in scores]
    if missing:
        raise DDCheckError(
            f"the double-dummy solver gave no value for {' '.join(CARD_NAMES[c] for c in missing)}"
        )
    won = state.declarer_tricks
    values = [
        CardValue(c, scores[c], won + scores[c], score(contract, vulnerable, won + scores[c]))
        for c in legal
    ]
    values.sort(key=lambda v: (-v.tricks, SUIT_OF[v.card], -v.card))
    return DDCheck(
        seat=state.turn,
        declarer=state.declarer,
        contract=contract,
        vulnerable=vulnerable,
        won=won,
        values=tuple(values),
        nodes=nodes,
    )


def format_check(data: dict[str, Any], *, indent: str = "  ") -> list[str]:
    """Text lines for a play log from :meth:`DDCheck.to_dict` data (or ``{"label", "error"}``):
    the label, then one line per distinct result, best first, the best marked and the card
    the planner played starred."""
    lines = [f"{indent}{data.get('label', LABEL)}:"]
    if "error" in data or not data.get("cards"):
        lines.append(f"{indent}  (not available: {data.get('error', 'no legal card')})")
        return lines
    groups: dict[tuple[int, int], list[str]] = {}
    for c in data["cards"]:
        groups.setdefault((c["tricks"], c["score"]), []).append(
            c["card"] + ("*" if c["played"] else "")
        )
    for (tricks, pts), names in sorted(groups.items(), key=lambda kv: (-kv[0][0], -kv[0][1])):
        tag = "  <- best" if tricks == data["best_tricks"] else ""
        lines.append(f"{indent}  {tricks:2d} tricks {pts:+6d}  {' '.join(names)}{tag}")
    if "played" in data:
        lost = data["played_tricks_lost"]
        verdict = (
            "a best card double dummy"
            if lost == 0
            else f"{lost} trick{'s' if lost > 1 else ''} short of the best double dummy"
        )
        lines.append(f"{indent}  (* = {data['played']}, the planner's card: {verdict})")
    return lines


def checks_for(
    cards: Iterable[int], start: PlayState, decisions: Iterable[int], *, vulnerable: bool
) -> dict[int, DDCheck | DDCheckError]:
    """:func:`double_dummy_check` after the first ``n`` of ``cards`` for each ``n`` in
    ``decisions`` (cards played from ``start``); an unreadable position maps to its error."""
    played = list(cards)
    out: dict[int, DDCheck | DDCheckError] = {}
    for n in sorted(set(decisions)):
        try:
            if not 0 <= n <= len(played):
                raise DDCheckError(f"no position after {n} cards: the play has {len(played)}")
            state = start.copy().replay(played[:n])
            out[n] = double_dummy_check(state, vulnerable=vulnerable)
        except DDCheckError as exc:
            out[n] = exc
        except ValueError as exc:  # an illegal card in the record
            out[n] = DDCheckError(str(exc))
    return out
