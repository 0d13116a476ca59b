"""Worked examples: the dissertation's "dinner and a movie" (§3.1) and a small game."""

from __future__ import annotations

from pathlib import Path

from knowledge import KnowledgePackage

from . import dinner, finesse

HERE = Path(__file__).parent


def package() -> KnowledgePackage:
    return KnowledgePackage(
        name="examples",
        description="Small domains for learning the workbench and testing the engine.",
        sources={"dinner": HERE / "dinner.toml", "finesse": HERE / "finesse.toml"},
        registries={"dinner": dinner.registry, "finesse": finesse.registry},
        problems={"dinner": dinner.dinner_problem, "finesse": finesse.finesse_problem},
        problem_domain={"dinner": "dinner", "finesse": "finesse"},
        problem_descriptions={
            "dinner": "Dinner and a movie: the planner must backtrack (first-plan mode).",
            "finesse": "Finesse or drop: a decision tree with opponent nodes (game mode).",
        },
    )
