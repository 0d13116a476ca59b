"""Bridge boards as planning problems: declarer's next decision on a PBN board.

A problem is one board (its PBN text, as the knowledge store keeps it).  Planning starts
at declarer's first decision -- after the opening lead (the ``[Lead]`` tag, or the
heuristic defender's choice) -- or, when the board carries ``[StartAtTrick "N"]``, at the
start of trick N after the recorded ``[Play]``, following the recorded cards to the first
one declarer or dummy must choose.
"""

from __future__ import annotations

from dataclasses import replace

from engine.tofs import Domain, Problem
from knowledge.bridge.beliefs import get_model
from knowledge.bridge.cards import Seat
from knowledge.bridge.deal import PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.pbn import BoardRecord, PbnError, parse_pbn
from knowledge.bridge.position import Position, Table, position_of
from knowledge.bridge.tofs_player import root_tasks, sensible_cards

__all__ = [
    "BoardProblemError",
    "board_problem",
    "board_state",
    "names_a_file",
    "pick_board",
    "table_of",
]


class BoardProblemError(ValueError):
    """The board cannot be planned (no contract, played out, ...): the message says why."""


def table_of(domain: Domain, record: BoardRecord, horizon: int | None = None) -> Table:
    assert record.contract is not None and record.declarer is not None
    model = str(domain.constant("belief_model", "vacant-places"))
    return Table(
        record.contract,
        int(record.declarer),
        record.vulnerability.is_vulnerable(record.declarer),
        get_model(model),
        horizon if horizon is not None else int(domain.constant("plan_tricks", 2)),
    )


def board_state(record: BoardRecord, name: str) -> PlayState:
    """The play state where planning starts (see the module docstring)."""
    if record.contract is None or record.declarer is None:
        raise BoardProblemError(
            f"board {record.board or name}: no [Contract] and [Declarer] "
            "to plan (a passed-out board has nothing to play)"
        )
    start = record.tags.get("StartAtTrick")
    if start is not None:
        try:
            trick = int(start)
        except ValueError:
            raise BoardProblemError(
                f"board {record.board or name}, [StartAtTrick]: expected a "
                f"trick number 1-13, found {start!r}"
            ) from None
        if not 1 <= trick <= 13 or len(record.play) < 4 * (trick - 1):
            raise BoardProblemError(
                f"board {record.board or name}, [StartAtTrick]: trick {trick} needs "
                f"{4 * (trick - 1)} recorded cards; [Play] has {len(record.play)}"
            )
        state = record.play_state(4 * (trick - 1))
    else:
        state = record.play_state(0)
        if record.lead is not None:
            state.play(record.lead)
        else:
            from knowledge.bridge.defenders import HeuristicDefender
            from knowledge.bridge.information import defender_info, masked_state

            seat = Seat(state.turn)
            info = defender_info(state, seat)
            state.play(HeuristicDefender().choose(masked_state(state, info), seat, info))
    dside = state.declarer & 1
    recorded = list(record.play[state.cards_played :])
    while not state.is_over and (state.turn & 1) != dside:
        if not recorded:
            raise BoardProblemError(
                f"board {record.board or name}: the defence is to play and "
                "the record has no more cards"
            )
        state.play(recorded.pop(0))
    if state.is_over:
        raise BoardProblemError(f"board {record.board or name} is played out")
    return state


def names_a_file(text: str) -> bool:
    """Whether a problem argument is meant as a file rather than a board's name: it
    exists, has a folder in it, or ends as a PBN file does -- so that a mistyped path
    says "no such file", not "no problem of that name"."""
    from pathlib import Path

    path = Path(text)
    return path.exists() or len(path.parts) > 1 or path.suffix.lower() == ".pbn"


def pick_board(records: list[BoardRecord], name: str, board: str | None) -> BoardRecord:
    """The board of ``records`` whose ``[Board]`` tag is ``board`` (the first without one),
    or a :class:`BoardProblemError` naming the boards there are."""
    if not records:
        raise BoardProblemError(f"{name}: no board in the PBN text")
    if board is None:
        return records[0]
    for record in records:
        if str(record.board) == board:
            return record
    boards = ", ".join(str(r.board) for r in records[:20]) + (", ..." if len(records) > 20 else "")
    raise BoardProblemError(f"{name}: no board '{board}'; boards: {boards}")


def board_problem(domain: Domain, name: str, text: str, board: str | None = None) -> Problem:
    """The planning problem of a board in PBN text (a stored board, or a file's): the
    board ``board`` names by its ``[Board]`` tag, else the first."""
    try:
        records = parse_pbn(text, source=name)
    except PbnError as exc:
        raise BoardProblemError(str(exc)) from None
    record = pick_board(records, name, board)
    state = board_state(record, name)
    table = table_of(domain, record)
    pos: Position = position_of(declarer_info(state), table)
    if sensible_cards(pos, pos.turn) <= 1:
        pos = replace(pos, table=replace(table, horizon=1))
    contract = f"{record.contract} by {Seat(table.declarer).title}"
    return Problem(
        name,
        pos,
        root_tasks(pos),
        mode="game",
        description=f"Board {record.board}: {contract}, "
        f"{Seat(state.turn).title} to play to trick "
        f"{len(state.history) + 1}",
        options={"likelihood_cutoff": float(domain.constant("likelihood_cutoff", 0.05))},
    )
