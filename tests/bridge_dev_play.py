"""A board of the dev set played by a TOFS declarer against the heuristic defence, and the
values its plans gave the cards, for the tests of how the declarer settles and offers its
cards (no double-dummy analysis of the play: the tests read the declarer's own decisions)."""

from __future__ import annotations

from engine.tofs import RunResult
from knowledge.bridge import DATA_DIR
from knowledge.bridge.match import play_problem, problem_from_record
from knowledge.bridge.pbn import read_pbn
from knowledge.bridge.players import PlayRecord
from knowledge.bridge.tofs_player import TofsDeclarer, _skip_decompositions

DEV = DATA_DIR / "dds-list100.pbn"


def play_dev(board: int, **options: object) -> tuple[TofsDeclarer, PlayRecord]:
    problem = problem_from_record(read_pbn(DEV)[board], board)
    player = TofsDeclarer(vulnerable=problem.declarer_vulnerable, seed=board, **options)  # type: ignore[arg-type]
    rec = play_problem(problem, player, "heuristic", options={"dd_analysis": False})
    return player, rec


def card_values(run: RunResult) -> dict[int, float]:
    """Each offered card's best plan value at the run's first decision, as the planner's
    tree has it."""
    assert run.policy is not None
    node = _skip_decompositions(run.policy)
    out: dict[int, float] = {}
    for e in node.children:
        if e.step is not None:
            c = int(e.step.args[1])
            out[c] = max(out.get(c, float("-inf")), e.node.value)
    return out
