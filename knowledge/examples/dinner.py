"""Primitives of the "dinner and a movie" example.

The state is immutable: the clock, the tickets held, and what has been done.  Showings and
restaurants are facts of the evening, fixed by the dissertation's story.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.tofs import Domain, Problem, Registry, make_task

registry = Registry("dinner")
registry.constant("start_time", int, minimum=0, maximum=24 * 60 - 1)  # minutes after midnight

SHOWINGS = {"Grosse Pointe Blank at 22:20": (22 * 60 + 20, 107)}
RESTAURANTS = {"the Mongolian Barbecue": 21 * 60 + 30}


@dataclass(frozen=True)
class Evening:
    clock: int
    tickets: frozenset[str] = frozenset()
    seen: frozenset[str] = frozenset()
    dined: bool = False


@registry.primitive
def now(state: Evening) -> int:
    """The time now, in minutes after midnight (past 24:00 after midnight)."""
    return state.clock


@registry.primitive
def showings(state: Evening) -> list[str]:
    """The showings that would do: the 10:20 pm Grosse Pointe Blank."""
    return list(SHOWINGS)


@registry.primitive
def restaurants(state: Evening) -> list[str]:
    """The restaurants that would do: the Mongolian Barbecue."""
    return list(RESTAURANTS)


@registry.primitive
def showtime(state: Evening, movie: str) -> int:
    """When the showing starts."""
    return SHOWINGS[movie][0]


@registry.primitive
def runtime(state: Evening, movie: str) -> int:
    """How long the film runs, in minutes."""
    return SHOWINGS[movie][1]


@registry.primitive
def last_seating(state: Evening, restaurant: str) -> int:
    """The last time the restaurant seats a table."""
    return RESTAURANTS[restaurant]


@registry.primitive
def has_ticket(state: Evening, movie: str) -> bool:
    """Whether a ticket for this showing has been bought."""
    return movie in state.tickets


@registry.effect
def buy_ticket(state: Evening, movie: str) -> Evening:
    return replace(state, clock=state.clock + 10, tickets=state.tickets | {movie})


@registry.effect
def watch(state: Evening, movie: str) -> Evening:
    start, length = SHOWINGS[movie]
    return replace(state, clock=start + length, seen=state.seen | {movie})


@registry.effect
def dine(state: Evening, restaurant: str) -> Evening:
    return replace(state, clock=state.clock + 90, dined=True)


def dinner_problem(domain: Domain) -> Problem:
    return Problem(
        "dinner",
        Evening(clock=int(domain.constant("start_time", 1080))),
        (make_task(domain, "GoToDinnerAndMovie"),),
        mode="first",
        description="Dinner at the Mongolian Barbecue and the 22:20 Grosse Pointe Blank.",
    )
