"""Worked examples: the dissertation's "dinner and a movie" (§3.1) and a small game."""

from __future__ import annotations

from pathlib import Path

from knowledge import KnowledgePackage

from . import dinner, finesse

HERE = Path(__file__).parent


class ExamplesPackage(KnowledgePackage):
    """Two small domains, planned with the engine's defaults and no hooks of their own."""

    name = "examples"
    description = "Small domains for learning the workbench and testing the engine."

    def __init__(self) -> None:
        super().__init__()
        self.sources = {"dinner": HERE / "dinner.toml", "finesse": HERE / "finesse.toml"}
        self.registries = {"dinner": dinner.registry, "finesse": finesse.registry}
        self.problems = {"dinner": dinner.dinner_problem, "finesse": finesse.finesse_problem}
        self.problem_domain = {"dinner": "dinner", "finesse": "finesse"}
        self.problem_descriptions = {
            "dinner": "Dinner and a movie: the planner must backtrack (first-plan mode).",
            "finesse": "Finesse or drop: a decision tree with opponent nodes (game mode).",
        }


def package() -> KnowledgePackage:
    return ExamplesPackage()
