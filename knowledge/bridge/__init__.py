"""Contract bridge: the card-play core for the declarer-play planner (after Tignum 2).

``cards`` (seats, denominations, 52-bit hands), ``deal`` (deals, contracts and the mutable
play state that search makes and unmakes moves on), ``scoring`` (duplicate scores, IMPs)
and ``pbn`` (PBN/LIN records).  Kept import-light on purpose: importing the package loads
nothing; endplay is only imported by the modules that convert to or from it.
"""

from pathlib import Path

#: The development deals shipped with the package (dds-bridge/dds, Apache-2.0; see its README).
DATA_DIR = Path(__file__).parent / "data"


def package():  # type: ignore[no-untyped-def]
    """The bridge knowledge package: the method network and the shipped boards."""
    from knowledge import KnowledgePackage

    from .analysis import problem_analysis
    from .network import registry
    from .phrasing import phrasing
    from .problems import board_problem

    here = Path(__file__).parent
    boards = {p.stem: p for p in sorted((here / "deals").glob("*.pbn"))}

    def from_file(name: str):  # type: ignore[no-untyped-def]
        return lambda domain: board_problem(domain, name, boards[name].read_text("utf-8"))

    return KnowledgePackage(
        name="bridge",
        description="Declarer play at contract bridge: Tignum 2 (Smith 1997, Ch. 4-5).",
        sources={"bridge": here / "bridge.toml"},
        registries={"bridge": registry},
        problems={n: from_file(n) for n in boards},
        problem_domain=dict.fromkeys(boards, "bridge"),
        problem_descriptions={n: f"board file deals/{n}.pbn" for n in boards},
        problem_files=boards,
        problem_kind="pbn-board",
        problem_loader=board_problem,
        phrasing=phrasing,
        analysis=problem_analysis,
    )
