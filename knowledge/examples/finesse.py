"""Primitives and hooks of the finesse game: who is controlled, and what a leaf is worth."""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.tofs import Domain, Problem, Registry, make_task

DECLARER_SIDE = frozenset({"South", "North"})


@dataclass(frozen=True)
class Table:
    """The state: what has happened, and the two scores at stake (from the constants)."""

    score_made: float
    score_down: float
    king_gone: bool = False
    made: bool | None = None


def make_registry() -> Registry:
    """A fresh registry (tests add hooks such as a planning horizon to their own copy)."""
    reg = Registry("finesse")
    reg.constant("score_made", float)
    reg.constant("score_down", float)

    @reg.primitive
    def king_gone(state: Table) -> bool:
        """Whether the king has already been played."""
        return state.king_gone

    @reg.effect
    def king_played(state: Table, seat: str) -> Table:
        return replace(state, king_gone=True)

    @reg.effect
    def made(state: Table, seat: str) -> Table:
        return replace(state, made=True)

    @reg.effect
    def down(state: Table, seat: str) -> Table:
        return replace(state, made=False)

    @reg.hook("controlled")
    def controlled(state: Table, agent: str) -> bool:
        return agent in DECLARER_SIDE

    @reg.hook("evaluate")
    def evaluate(state: Table) -> float:
        if state.made is None:
            return 0.0
        return state.score_made if state.made else state.score_down

    return reg


registry = make_registry()


def finesse_problem(domain: Domain) -> Problem:
    table = Table(float(domain.constant("score_made")), float(domain.constant("score_down")))
    return Problem(
        "finesse",
        table,
        (make_task(domain, "Play", "South"),),
        mode="game",
        description="Two tricks needed from A-Q opposite small, missing the king.",
    )
