"""Messages the planner worker posts to the UI.

The worker runs in a thread and must never touch widgets, so everything a handler needs
travels in the message: the run's id (to drop messages from a run that was superseded),
the request, and the payload.  Handlers on the screen own every UI change.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from engine.tofs import Progress, RunResult
from workbench.runner import ProblemRef

__all__ = ["PlanFailed", "PlanFinished", "PlanProgress", "TestsFinished"]


@dataclass
class PlanProgress(Message):
    """The search is still running: node count, depth, best value so far, elapsed time."""

    run_id: int
    request: ProblemRef
    progress: Progress

    def can_replace(self, message: Message) -> bool:
        # Only the newest progress of a run matters; let the queue coalesce the rest.
        return isinstance(message, PlanProgress) and message.run_id == self.run_id


@dataclass
class PlanFinished(Message):
    """The search returned a result (which may say "no plan" or "cancelled")."""

    run_id: int
    request: ProblemRef
    result: RunResult


@dataclass
class PlanFailed(Message):
    """Loading or planning raised: ``message`` is what the user should read."""

    run_id: int
    request: ProblemRef
    message: str
    error_type: str


@dataclass
class TestsFinished(Message):
    """Knowledge tests ran: the report as Markdown, and the counts for a notification."""

    __test__ = False  # not a pytest test class

    scope: str
    report: str
    passed: int
    failed: int
