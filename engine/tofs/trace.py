"""The event stream of a run, for step-through replay and debugging.

Tracing is off by default and then costs one ``is not None`` test per event site.  Events
are frozen records in the order they happened, so a test can assert an exact list and the
workbench can replay a run forward and backward.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

__all__ = ["EventKind", "Trace", "TraceEvent"]


class EventKind(StrEnum):
    NODE_EXPANDED = "node expanded"
    METHOD_TRIED = "method tried"
    BINDING = "binding"
    PRECONDITION = "precondition"
    NODE_CREATED = "node created"
    NODE_PRUNED = "node pruned"
    LEAF_VALUED = "leaf valued"
    VALUE_BACKED_UP = "value backed up"
    CHOICE_MADE = "choice made"


@dataclass(frozen=True, slots=True)
class TraceEvent:
    seq: int
    kind: EventKind
    node: int
    data: dict[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        extra = ", ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"TraceEvent({self.seq}, {self.kind.name}, node={self.node}{', ' if extra else ''}{extra})"


class Trace:
    """Collects events; pass one in ``SearchOptions(trace=Trace())`` to switch tracing on.

    ``kinds`` keeps only some kinds of event (GTPyhop's verbosity levels become filters).
    """

    def __init__(self, kinds: set[EventKind] | None = None, limit: int | None = None) -> None:
        self.events: list[TraceEvent] = []
        self.kinds = kinds
        self.limit = limit
        self.dropped = 0

    def emit(self, kind: EventKind, node: int, /, **data: Any) -> None:
        if self.kinds is not None and kind not in self.kinds:
            return
        if self.limit is not None and len(self.events) >= self.limit:
            self.dropped += 1
            return
        self.events.append(TraceEvent(len(self.events), kind, node, data))

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[TraceEvent]:
        return iter(self.events)

    def of_kind(self, kind: EventKind) -> list[TraceEvent]:
        return [e for e in self.events if e.kind is kind]
