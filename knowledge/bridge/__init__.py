"""Contract bridge: the card-play core for the declarer-play planner (after Tignum 2).

``cards`` (seats, denominations, 52-bit hands), ``deal`` (deals, contracts and the mutable
play state that search makes and unmakes moves on), ``scoring`` (duplicate scores, IMPs)
and ``pbn`` (PBN/LIN records).  Kept import-light on purpose: importing the package loads
nothing; endplay is only imported by the modules that convert to or from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from knowledge.contract import KnowledgePackage, ProblemAnalysis

if TYPE_CHECKING:
    from engine.tofs import Domain, Problem, RunResult
    from engine.tofs.explanation import Phrasing

#: The development deals shipped with the package (dds-bridge/dds, Apache-2.0; see its README).
DATA_DIR = Path(__file__).parent / "data"


class BridgePackage(KnowledgePackage):
    """The bridge knowledge package: the method network and the shipped boards.  A deal is
    a game -- the defenders are opponents -- so it is planned in game mode only."""

    name = "bridge"
    description = "Declarer play at contract bridge: Tignum 2 (Smith 1997, Ch. 4-5)."
    problem_kind = "pbn-board"
    reads_stored_problems = True
    refused_modes: ClassVar[Mapping[str, str]] = {
        "optimise": "a bridge deal has opponents (the defenders): it is planned in game mode",
        "first": "a bridge deal has opponents (the defenders): it is planned in game mode",
    }

    def __init__(self) -> None:
        from .network import registry

        super().__init__()
        here = Path(__file__).parent
        boards = {p.stem: p for p in sorted((here / "deals").glob("*.pbn"))}
        self.sources = {"bridge": here / "bridge.toml"}
        self.registries = {"bridge": registry}
        self.problems = {n: self._board(n, path) for n, path in boards.items()}
        self.problem_domain = dict.fromkeys(boards, "bridge")
        self.problem_descriptions = {n: f"board file deals/{n}.pbn" for n in boards}
        self.problem_files = boards

    @staticmethod
    def _board(name: str, path: Path) -> Callable[[Domain], Problem]:
        from .problems import board_problem

        return lambda domain: board_problem(domain, name, path.read_text("utf-8"))

    def problem_from_text(self, domain: Domain, name: str, text: str) -> Problem:
        from .problems import board_problem

        return board_problem(domain, name, text)

    def phrasing(self, domain: Domain) -> Phrasing:
        from .phrasing import phrasing

        return phrasing(domain)

    def analysis(
        self, domain: Domain, problem: Problem, result: RunResult
    ) -> ProblemAnalysis | None:
        from .analysis import problem_analysis

        found: ProblemAnalysis | None = problem_analysis(domain, problem, result)
        return found


def package() -> KnowledgePackage:
    """The bridge knowledge package (:class:`BridgePackage`)."""
    return BridgePackage()
