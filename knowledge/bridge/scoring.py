"""Duplicate bridge scoring, IMPs and board-a-match, as the Laws (2017) tabulate them.

The planner compares lines of play by what they score, not by tricks alone: an overtrick
is worth 30 in 4♥ but a safety play that guarantees 3NT is worth 400+.  So the score of a
contract is written out rule by rule here (trick score, game or part-score bonus, slam
bonus, insult, overtricks, undertricks) and tested against endplay's independent
implementation over every contract, doubling, vulnerability and trick count.
"""

from __future__ import annotations

from bisect import bisect_left
from enum import IntEnum

from .cards import Denom, Seat
from .deal import Contract, Doubling, Vul

__all__ = [
    "IMP_TABLE",
    "BoardResult",
    "board_a_match",
    "imps",
    "score",
    "score_ns",
    "trick_score",
    "undertrick_penalty",
]


def trick_score(contract: Contract, tricks_bid: int | None = None) -> int:
    """Points for the bid tricks: minors 20, majors 30, NT 40 for the first and 30 after,
    multiplied by 2 doubled and 4 redoubled.  Game is a trick score of 100 or more."""
    level = contract.level if tricks_bid is None else tricks_bid
    d = contract.denom
    per = 20 if d in (Denom.D, Denom.C) else 30
    base = per * level + (10 if d == Denom.NT else 0)
    return base << contract.doubling


def undertrick_penalty(down: int, doubling: Doubling, vulnerable: bool) -> int:
    """What defeating a contract by ``down`` tricks gives the defenders (a positive number).

    Undoubled: 50 a trick, 100 vulnerable.  Doubled not vulnerable: 100, then 200 for the
    2nd and 3rd, 300 each after; doubled vulnerable: 200, then 300 each.  Redoubled: twice
    the doubled figure.
    """
    if down <= 0:
        return 0
    if doubling == Doubling.NONE:
        return down * (100 if vulnerable else 50)
    if vulnerable:
        doubled = 200 + 300 * (down - 1)
    else:
        doubled = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return doubled * (2 if doubling == Doubling.XX else 1)


def score(contract: Contract, declarer_vulnerable: bool, tricks: int) -> int:
    """Duplicate score of ``contract`` making ``tricks`` (0..13), from declarer's side."""
    if not 0 <= tricks <= 13:
        raise ValueError(f"tricks must be 0..13, not {tricks}")
    need = contract.tricks_needed
    vul = declarer_vulnerable
    if tricks < need:
        return -undertrick_penalty(need - tricks, contract.doubling, vul)
    ts = trick_score(contract)
    total = ts
    total += (500 if vul else 300) if ts >= 100 else 50
    if contract.level == 6:
        total += 750 if vul else 500
    elif contract.level == 7:
        total += 1500 if vul else 1000
    over = tricks - need
    if contract.doubling == Doubling.NONE:
        total += over * (20 if contract.denom in (Denom.D, Denom.C) else 30)
    else:
        total += 50 * contract.doubling  # the "insult": 50 doubled, 100 redoubled
        total += over * (100 << (contract.doubling - 1)) * (2 if vul else 1)
    return total


def score_ns(contract: Contract | None, declarer: Seat | int, vul: Vul, tricks: int) -> int:
    """The same score from North-South's side, given the board's vulnerability (0 if passed out)."""
    if contract is None:
        return 0
    s = score(contract, vul.is_vulnerable(declarer), tricks)
    return s if int(declarer) & 1 == 0 else -s


# WBF IMP scale: IMP_TABLE[i] is the largest difference worth i IMPs (4000+ is 24).
# fmt: off
IMP_TABLE: tuple[int, ...] = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590, 740, 890,
    1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)
# fmt: on


def imps(difference: int) -> int:
    """IMPs for a points difference (signed like the difference)."""
    n = bisect_left(IMP_TABLE, abs(difference))
    return n if difference >= 0 else -n


class BoardResult(IntEnum):
    """Board-a-match outcome for one side; the value is in half board-points."""

    LOSS = 0
    TIE = 1
    WIN = 2

    @property
    def points(self) -> float:
        return self / 2


def board_a_match(our_score: int, their_score: int) -> BoardResult:
    """Win, tie or loss by total points: any margin wins the board, equal scores tie."""
    if our_score > their_score:
        return BoardResult.WIN
    if our_score < their_score:
        return BoardResult.LOSS
    return BoardResult.TIE
