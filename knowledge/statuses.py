"""Exit statuses of every command, and a run's status from its result.

Kept apart from the packages and the pipeline so that ``workbench --version``, the batch
commands and the tests can name a status without loading the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.tofs import RunResult

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_GAVE_UP",
    "EXIT_INTERRUPTED",
    "EXIT_JOBS_FAILED",
    "EXIT_NO_PLAN",
    "EXIT_PLAN",
    "exit_status",
]

EXIT_PLAN = 0
EXIT_BAD_INPUT = 1
EXIT_NO_PLAN = 2  # the whole tree was searched: no plan exists
EXIT_GAVE_UP = 3  # a budget stopped the search before any plan: nothing is known
EXIT_INTERRUPTED = 130  # ctrl+c stopped the search (the shell's 128 + SIGINT)
# A batch command (a match, a knowledge-test run) some of whose jobs raised: the rest ran and
# were reported, but the figures are incomplete.
EXIT_JOBS_FAILED = 4


def exit_status(result: RunResult) -> int:
    """A run's exit status: 0 a plan (proven best or not), 2 none exists, 3 gave up, 130
    interrupted (ctrl+c), whatever it had found by then."""
    from engine.tofs import Outcome, Status

    if result.status is Status.INTERRUPTED:
        return EXIT_INTERRUPTED

    return {
        Outcome.PLAN: EXIT_PLAN,
        Outcome.PLAN_UNPROVEN: EXIT_PLAN,
        Outcome.NO_PLAN: EXIT_NO_PLAN,
        Outcome.GAVE_UP: EXIT_GAVE_UP,
    }[result.outcome]
