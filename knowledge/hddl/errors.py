"""What goes wrong reading HDDL, said once per problem, with the place it is at.

A syntax error stops the parse, so it comes alone; semantic checks go on past the first
finding and report them all, so that one run shows everything to fix.  ``HddlError`` is a
``ValueError`` so callers that treat bad input as bad input need not know it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["HddlError", "Issue"]


@dataclass(frozen=True, slots=True)
class Issue:
    """One finding: the file, the 1-based line and column of the construct, and what is wrong.

    Line 0 is about the file as a whole (it does not exist, it is not an HDDL domain of the
    store), and is shown without a position."""

    path: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        if not self.line:  # about the file as a whole (it does not exist)
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


class HddlError(ValueError):
    """A file that is not HDDL this reader takes; ``issues`` lists every finding in order."""

    def __init__(self, issues: Iterable[Issue]) -> None:
        self.issues: tuple[Issue, ...] = tuple(
            sorted(issues, key=lambda i: (i.path, i.line, i.column))
        )
        super().__init__("\n".join(str(i) for i in self.issues))
