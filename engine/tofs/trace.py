"""The event stream of a run, for step-through replay and debugging.

Tracing is off by default and then costs one ``is not None`` test per event site.  Events
are frozen records in the order they happened, so a test can assert an exact list and the
workbench can replay a run forward and backward.
"""

from __future__ import annotations

import pickle
from array import array
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
        return (
            f"TraceEvent({self.seq}, {self.kind.name}, node={self.node}"
            f"{', ' if extra else ''}{extra})"
        )


_KINDS = list(EventKind)
_KIND_INDEX = {k: i for i, k in enumerate(_KINDS)}


class Trace:
    """Collects events; pass one in ``SearchOptions(trace=Trace())`` to switch tracing on.

    ``kinds`` keeps only some kinds of event (GTPyhop's verbosity levels become filters).

    A trace crosses process boundaries (the workbench plans in a child process) packed as
    columns in one bytes object, and is unpacked only when its events are first read: a
    million events then unpickle as one copy instead of a million objects, and whoever
    receives a run pays for the events only if they step through them.
    """

    def __init__(self, kinds: set[EventKind] | None = None, limit: int | None = None) -> None:
        self._events: list[TraceEvent] = []
        self._packed: bytes | None = None
        self.kinds = kinds
        self.limit = limit
        self.dropped = 0

    @property
    def events(self) -> list[TraceEvent]:
        if self._packed is not None:
            kinds, nodes, data = pickle.loads(self._packed)
            self._packed = None
            self._events = [
                TraceEvent(i, _KINDS[k], n, d)
                for i, (k, n, d) in enumerate(zip(kinds, nodes, data, strict=True))
            ]
        return self._events

    def emit(self, kind: EventKind, node: int, /, **data: Any) -> None:
        if self.kinds is not None and kind not in self.kinds:
            return
        events = self._events
        if self.limit is not None and len(events) >= self.limit:
            self.dropped += 1
            return
        events.append(TraceEvent(len(events), kind, node, data))

    def __getstate__(self) -> dict[str, Any]:
        events = self.events
        columns = (
            bytes(_KIND_INDEX[e.kind] for e in events),
            array("q", (e.node for e in events)),
            [e.data for e in events],
        )
        return {
            "kinds": self.kinds,
            "limit": self.limit,
            "dropped": self.dropped,
            "packed": pickle.dumps(columns, pickle.HIGHEST_PROTOCOL),
        }

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.kinds, self.limit, self.dropped = state["kinds"], state["limit"], state["dropped"]
        self._events, self._packed = [], state["packed"]

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[TraceEvent]:
        return iter(self.events)

    def of_kind(self, kind: EventKind) -> list[TraceEvent]:
        return [e for e in self.events if e.kind is kind]
