"""Traces for replay and contrast tests: real runs of shipped problems, and synthetic
depth-first traces of any size shaped like the engine's.

The engine's own runs top out at tens of thousands of events on the shipped problems; the
step-through must stay incremental at 10^5 and beyond, so tests build bigger traces here:
every node is expanded, tries its methods (some preconditions fail), creates children or
prunes them, and backs up a choice -- the same event kinds, in the same order, as TOFS.
"""

from __future__ import annotations

import random
from functools import cache

from engine.tofs import EventKind, RunResult, SearchOptions, Trace, TraceEvent, plan
from knowledge import get_package

__all__ = ["synthetic_events", "traced_run"]


@cache
def traced_run(package: str, problem: str) -> tuple[RunResult, tuple[TraceEvent, ...]]:
    """A shipped problem planned with its own options and a trace (computed once)."""
    domain, prob = get_package(package).problem(problem)
    trace = Trace()
    result = plan(
        domain, prob, SearchOptions(**{**prob.options, "mode": prob.mode, "trace": trace})
    )
    return result, tuple(trace.events)


def synthetic_events(
    target: int, branching: int = 3, depth: int = 14, seed: int = 1, agenda: bool = False
) -> list[TraceEvent]:
    """About ``target`` events of a depth-first search (stops creating nodes past it)."""
    rnd = random.Random(seed)
    events: list[TraceEvent] = []
    counter = [0]

    def emit(kind: EventKind, node: int, **data: object) -> None:
        events.append(TraceEvent(len(events), kind, node, data))

    def new() -> int:
        counter[0] += 1
        return counter[0] - 1

    def visit(node: int, d: int) -> float:
        if len(events) >= target or d >= depth:
            emit(EventKind.LEAF_VALUED, node, value=float(d), complete=True)
            return float(d)
        task = (f"T{d}", (d,))
        extra = {"task_list": tuple((f"T{j}", (j,)) for j in range(d, depth))} if agenda else {}
        emit(
            EventKind.NODE_EXPANDED, node, task=task, depth=d, g=float(d), tasks=depth - d, **extra
        )
        for m in range(branching):
            emit(EventKind.METHOD_TRIED, node, task=task, method=f"M{m}")
            emit(EventKind.PRECONDITION, node, method=f"M{m}", result=rnd.random() < 0.85)
        best: float | None = None
        best_alt = None
        for m in range(branching):
            if len(events) >= target:
                break
            if rnd.random() < 0.1:
                emit(
                    EventKind.NODE_PRUNED,
                    node,
                    alternative=f"M{m}",
                    reason="bound pruned",
                    bound=1.0,
                    best=0.5,
                )
                continue
            child = new()
            emit(EventKind.NODE_CREATED, child, parent=node, alternative=f"M{m}", cost=1.0)
            v = visit(child, d + 1)
            if best is None or v < best:
                best, best_alt = v, f"M{m}"
        if best_alt is not None:
            emit(EventKind.CHOICE_MADE, node, alternative=best_alt, value=best)
        return best if best is not None else 0.0

    root = new()
    emit(EventKind.NODE_CREATED, root, parent=None, alternative=None, cost=0.0)
    visit(root, 0)
    return events
