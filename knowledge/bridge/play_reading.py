"""What the defenders' cards after the opening lead say about their hands.

Monte Carlo double dummy weighs every layout of the unseen cards alike, whatever the
defenders have played. A strong defender seldom gives a trick away: a layout in which a
card a defender chose would have cost the defence a trick, double dummy from the position
at that card, is one the play so far makes unlikely. Such a layout keeps the weight
:data:`MISPLAY` (defenders do err, and a defender cannot see
declarer's hand); one where every card read kept the defence's tricks keeps 1.

Only cards that were a choice in the layout are read: a defender whose legal cards were
all equals (touching, or apart only by cards gone) chose nothing. The opening lead is left
to :mod:`knowledge.bridge.lead_reading` (a leader cannot see dummy, and leads by
convention). Every later card is read: on 100 tune deals, reading only the latest four
gave away 0.57 double-dummy tricks a deal and reading all 0.49 (7 boards won, none lost);
each card read costs a double-dummy solve a layout.

The weights matter only where the layouts disagree on the card to play, so the declarer
asks for them there alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import SUIT_MASKS, class_representatives
from .information import Information
from .players import dd_solve_many

__all__ = ["MISPLAY", "play_weights", "read_points"]

MISPLAY = 0.1
"""The weight of a layout in which a card a defender played gives a trick away, against 1
for one in which none does."""


def read_points(info: Information) -> list[int]:
    """Indexes into ``info.plays`` of the defenders' cards after the opening lead, the
    latest first; none where the play did not start at the opening lead (a position set up
    mid-play: the earlier cards are not known)."""
    if info.set_up_mid_play:
        return []
    hidden = set(info.hidden)
    points = [i for i, (seat, _) in enumerate(info.plays) if i > 0 and seat in hidden]
    return points[::-1]


def play_weights(info: Information, layouts: Sequence[Sequence[int]]) -> list[float]:
    """Each layout's weight (four current hands, as :meth:`Information.sample` draws them):
    :data:`MISPLAY` where a card a defender chose would have cost the defence a trick in
    it, else 1.

    The cards are read from the latest back, and a layout is left at its first such card:
    the latest positions are the smallest to solve, and one card given away says as much
    as two (on 100 tune deals, weighing each such card again changed no board)."""
    weights = [1.0] * len(layouts)
    clean = list(range(len(layouts)))
    for i in read_points(info):
        if not clean:
            break
        asked = []
        positions = []
        for k in clean:
            pos = _position_at(info, layouts[k], i)
            if pos is not None:
                asked.append(k)
                positions.append(pos)
        if not positions:
            continue
        card = info.plays[i][1]
        best = dd_solve_many(positions, best_only=True)
        for k, (optimal, _) in zip(asked, best, strict=True):
            if card not in optimal:
                weights[k] = MISPLAY
        clean = [k for k in clean if weights[k] == 1.0]
    return weights


def _position_at(
    info: Information, hands: Sequence[int], i: int
) -> tuple[list[int], int, int, list[int]] | None:
    """The position just before play ``i`` in this layout (hands, trump, leader, trick), or
    None where its player had no choice there: its legal cards were all equals."""
    then = list(hands)
    for seat, card in info.plays[i:]:
        then[seat] |= 1 << card
    start = i - i % 4
    trick = [card for _, card in info.plays[start:i]]
    seat = info.plays[i][0]
    hand = then[seat]
    legal = hand & SUIT_MASKS[trick[0] // 13] if trick else hand
    legal = legal or hand
    gone = 0
    for _, card in info.plays[:start]:
        gone |= 1 << card
    if class_representatives(legal, hand, gone).bit_count() < 2:
        return None
    return then, info.trump, info.plays[start][0], trick
