"""Budgets, cancel and interrupt, seen from anywhere in a run.

The search polls its own :class:`Watch` every few dozen nodes; :func:`watching` lends one
to the work before a search (reading a large input); and :func:`checkpoint` lets a domain's
own long loop (binding enumeration, a lexer) stop there.  Kept apart from the search so
that readers and parsers can import it without the search core.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Protocol

from ..results import Status

if TYPE_CHECKING:
    from .options import SearchOptions

__all__ = ["ACTIVE", "SearchStopped", "Watch", "checkpoint", "resident_mb", "watching"]

# How often (seconds) a run with a memory budget reads its resident size: often enough to
# stop within a few tens of MB of the budget, rarely enough to cost nothing.
_MEMORY_EVERY = 0.05
try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):
    _PAGE = 4096


def resident_mb() -> float | None:
    """This process's resident memory in MB, or None where it cannot be read.

    Linux: ``/proc/self/statm`` (the current size, one small read).  Elsewhere the peak
    from ``getrusage`` -- never below the current size, so a budget on it stops no later.
    """
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[1])
        return pages * _PAGE / 1e6
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    except (ImportError, OSError):
        return None
    return peak / 1e6 if sys.platform == "darwin" else peak / 1e3  # bytes there, KiB here


class SearchStopped(BaseException):
    """Raised by :func:`checkpoint` inside a domain's own long loop (matching a
    precondition against millions of bindings) when the running search must stop.

    A ``BaseException``, so that a domain's ``except Exception`` cannot swallow it; the
    search catches it where it called into the domain and ends that loop there."""


class _Polled(Protocol):
    """What :func:`checkpoint` asks: a running search, or a :class:`Watch`."""

    def poll(self) -> bool: ...


class _Active(threading.local):
    """The search (or watch) running in this thread, for :func:`checkpoint`."""

    search: _Polled | None = None


ACTIVE = _Active()


def checkpoint() -> None:
    """For a domain's loops that may run long without the search seeing a node (binding
    enumeration): stops the running search there at its budget, cancel or interrupt by
    raising :class:`SearchStopped`.  Does nothing outside a search.  Costs a clock read:
    call it every thousand steps or so, not every step."""
    search = ACTIVE.search
    if search is not None and search.poll():
        raise SearchStopped


class Watch:
    """A run's budgets, cancel and interrupt, looked at from anywhere: the search polls its
    own, and :func:`watching` lends one to the work before a search -- reading and
    compiling a large input -- whose loops call :func:`checkpoint` as the binding loops do.
    """

    def __init__(self, options: SearchOptions, now: float | None = None) -> None:
        now = time.perf_counter() if now is None else now
        start = options.started if options.started is not None else now
        self.deadline = start + options.time_budget if options.time_budget else None
        self.memory = options.memory_budget
        self.cancel = options.cancel
        self.next_memory = 0.0
        self.stop: Status | None = None

    def poll(self) -> bool:
        """Whether the run must stop (and why, in ``stop``): cancelled or interrupted, past
        the time budget, or over the memory budget."""
        if self.stop is not None:
            return True
        if self.cancel is not None and self.cancel.cancelled:
            self.stop = Status.INTERRUPTED if self.cancel.interrupted else Status.CANCELLED
            return True
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            self.stop = Status.TIME_BUDGET
        elif self.memory is not None and now >= self.next_memory:
            self.next_memory = now + _MEMORY_EVERY
            used = resident_mb()
            if used is not None and used > self.memory:
                self.stop = Status.MEMORY_BUDGET
        return self.stop is not None


@contextmanager
def watching(options: SearchOptions) -> Iterator[Watch]:
    """The run's budgets over the work inside the ``with`` (reading its input): a
    :func:`checkpoint` there raises :class:`SearchStopped` once one runs out, and the
    watch's ``stop`` says which.  Inside a running search, that search's budgets rule."""
    watch = Watch(options)
    outer = ACTIVE.search
    if outer is None:
        ACTIVE.search = watch
    try:
        yield watch
    finally:
        if outer is None:
            ACTIVE.search = None
