"""Contract bridge: the card-play core for the declarer-play planner (after Tignum 2).

``cards`` (seats, denominations, 52-bit hands), ``deal`` (deals, contracts and the mutable
play state that search makes and unmakes moves on), ``scoring`` (duplicate scores, IMPs)
and ``pbn`` (PBN/LIN records).  Kept import-light on purpose: importing the package loads
nothing; endplay is only imported by the modules that convert to or from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from knowledge.contract import KnowledgePackage, PackageError, ProblemAnalysis, Read

if TYPE_CHECKING:
    import argparse

    from engine.tofs import Domain, Problem, RunResult
    from engine.tofs.explanation import Phrasing
    from knowledge.pipeline import PlanOutcome
    from knowledge.request import PlanRequest

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

    def add_plan_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "--board",
            help="the [Board] tag of the board to plan, in a PBN file of several "
            "(default: the first)",
        )

    def plan_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"board": args.board} if args.board is not None else {}

    def read(self, request: PlanRequest) -> Read:
        """A board by name -- the store's text of it, or the package's file with
        ``--bundled`` -- or from a PBN file: ``plan`` takes what ``play`` takes."""
        from .pbn import PbnError, read_pbn_text
        from .problems import BoardProblemError, board_problem, names_a_file

        name, text = request.problem, request.problem_text
        if text is None and name in self.problem_files:
            text = self.problem_files[name].read_text("utf-8")
        elif text is None:
            path = Path(name)
            if not names_a_file(name):
                raise PackageError(
                    f"package 'bridge' has no problem '{name}', and no PBN file of that name "
                    f"exists; problems: {', '.join(sorted(self.problems))}"
                )
            try:
                text = read_pbn_text(path)
            except PbnError as exc:
                raise BoardProblemError(str(exc)) from None
            name = path.stem
        domain = self.domain("bridge", request.spec)
        return Read(domain, board_problem(domain, name, text, request.options.get("board")))

    def inputs(self) -> str:
        return (
            f"a board name ({', '.join(sorted(self.problems))}) or a PBN file (--board N "
            "picks one of several)"
        )

    def figure(self, outcome: PlanOutcome) -> str | None:
        """The expected score and how likely the contract is to make, what a declarer
        plans a hand for."""
        from .phrasing import make_probability, points

        result = outcome.result
        if not result.found or result.value is None:
            return None
        said = f"expected score {points(result.value)}"
        if result.policy is not None:
            said += f", makes with p = {make_probability(result.policy):.2f} in the planner's tree"
        return said

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
