"""Where a declarer's double-dummy tricks go: by phase of the hand, kind of card and scheme.

A match scores each board by the tricks declarer's own cards gave away against perfect
play (:attr:`.match.BoardResult.dd_losses`).  To make a declarer stronger one first needs
to know which of its cards cost them: the opening tricks (where the plan is made), the
middle or the end; leads, follows, ruffs or discards; and under which scheme the card was
played (the note the TOFS declarer writes beside each card, "[Set up a club ruff]").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import Denom, parse_play
from .deal import Contract

if TYPE_CHECKING:
    from .match import BoardResult

__all__ = ["PHASES", "LossBreakdown", "card_kind", "phase_of", "where_lost"]

PHASES = (("opening", 0, 4), ("middle", 4, 9), ("end", 9, 13))
"""Tricks 1-4, 5-9 and 10-13 (0-based trick ranges, end exclusive)."""


def phase_of(card_number: int) -> str:
    trick = card_number // 4
    return next(name for name, lo, hi in PHASES if lo <= trick < hi)


def card_kind(cards: Sequence[int], i: int, trump: int) -> str:
    """ "lead", "follow", "ruff" or "discard": what card ``i`` of the play was."""
    start = i - i % 4
    if i == start:
        return "lead"
    led, suit = cards[start] // 13, cards[i] // 13
    if suit == led:
        return "follow"
    return "ruff" if trump != Denom.NT and suit == trump else "discard"


@dataclass(frozen=True)
class LossBreakdown:
    boards: int
    by_phase: dict[str, int]
    by_kind: dict[str, int]
    by_scheme: dict[str, int]

    def per_deal(self, n: int) -> float:
        return n / self.boards if self.boards else 0.0

    def to_text(self, top: int = 8) -> str:
        total = sum(self.by_phase.values())
        lines = [f"{total} tricks lost on {self.boards} boards ({self.per_deal(total):.2f} a deal)"]
        for title, table in (("phase", self.by_phase), ("kind", self.by_kind)):
            parts = ", ".join(f"{k} {self.per_deal(v):.2f}" for k, v in table.items())
            lines.append(f"  by {title}: {parts}")
        lines.append("  by scheme (the note on the card):")
        for scheme, n in Counter(self.by_scheme).most_common(top):
            lines.append(f"    {self.per_deal(n):.2f}  {scheme}")
        return "\n".join(lines)


def where_lost(results: Iterable[BoardResult]) -> LossBreakdown:
    """Sum the tricks lost over match results by phase, kind of card and scheme (boards
    not analysed double dummy are left out)."""
    phases = {name: 0 for name, _, _ in PHASES}
    kinds = dict.fromkeys(("lead", "follow", "ruff", "discard"), 0)
    schemes: Counter[str] = Counter()
    boards = 0
    for r in results:
        if r.dd_lost is None:
            continue
        boards += 1
        cards = parse_play(r.play)
        trump = int(Contract.parse(r.contract).denom)
        for i, lost in r.dd_losses:
            phases[phase_of(i)] += lost
            kinds[card_kind(cards, i, trump)] += lost
            note = r.notes[i] if i < len(r.notes) else None
            schemes[(note or "(no note)").strip("[]")] += lost
    return LossBreakdown(boards, phases, kinds, dict(schemes))
