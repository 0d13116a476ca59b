"""Planning in a separate process, so the interface keeps the interpreter to itself.

A planner in a thread shares the GIL with Textual's event loop: every time the loop waits
for I/O the planner takes the lock, and the loop then waits up to a switch interval for it
back -- dozens of times per key press.  ``benchmarks/ui_latency.py`` measured keys answered
in 2 ms at the median but up to a quarter of a second at worst that way.  Here the search
runs in one warm child process (spawned once, reused by every run) and the calling thread
only waits on it, so the event loop is never starved.

:meth:`PlanningProcess.execute` has the signature of :func:`workbench.runner.execute` and
blocks the same way (call it from a thread worker).  Across the process boundary:

* **cancel** -- a small shared array of cancelled run ids (a ring: a run is cancelled
  long before sixteen later cancels could overwrite its slot), plus one slot that cancels
  every run at shutdown.  Run ids only grow, so nothing needs resetting;
* **progress** -- the child reports at most every ``PROGRESS_PERIOD`` seconds through a
  queue; the waiting thread passes on the newest report for its own run;
* **the result** -- pickled; a recorded trace travels packed and is unpacked only when
  someone steps through it (see :class:`engine.tofs.trace.Trace`), so a million events
  arrive without holding the GIL for seconds;
* **errors** -- the child turns every exception into the message the user should read
  (:func:`workbench.runner.error_message`), raised here as :class:`PlanningError`.
"""

from __future__ import annotations

import atexit
import itertools
import multiprocessing as mp
import os
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from pathlib import Path
from typing import Any

from engine.tofs import CancelToken, Progress, RunResult

__all__ = ["PlanningError", "PlanningProcess", "planning_process"]

PROGRESS_PERIOD = 0.1
"""Seconds between progress reports from the child (the status line needs no more)."""

_POLL = 0.05
_CONTEXT = mp.get_context("spawn")  # fork is unsafe in a process running threads


class PlanningError(ValueError):
    """The child could not plan: ``str(error)`` is what to tell the user."""

    def __init__(self, message: str, kind: str) -> None:
        super().__init__(message)
        self.kind = kind

    def __reduce__(self) -> tuple[Any, ...]:
        return (PlanningError, (str(self), self.kind))


# ---------------------------------------------------------------------- the child's side

_RING = 16
_cancelled: Any = None  # slot 0: every run up to this id; slots 1..: single run ids
_progress_queue: Any = None


def _init_child(cancelled: Any, progress_queue: Any) -> None:
    global _cancelled, _progress_queue
    _cancelled, _progress_queue = cancelled, progress_queue
    # The child inherits the terminal: a stray print or warning from knowledge code would
    # be drawn over the interface.  Errors reach the user as messages instead.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    import workbench.runner  # noqa: F401 - warm the imports before the first run


class _SharedToken(CancelToken):
    """The child's view of the shared cancelled-run ids."""

    def __init__(self, run_id: int) -> None:
        super().__init__()
        self.run_id = run_id

    @property
    def cancelled(self) -> bool:
        ids = _cancelled.get_obj()  # unlocked reads: one 64-bit word at a time suffices
        return ids[0] >= self.run_id or self.run_id in ids[1:]


def _run_in_child(
    run_id: int,
    request: Any,
    db: Path | None,
    settings: Any,
    force: Mapping[str | int, str] | None,
    at: Any,
) -> tuple[Any, ...]:
    from workbench import runner

    last = 0.0

    def progress(p: Progress) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= PROGRESS_PERIOD:
            last = now
            _progress_queue.put((run_id, p))

    try:
        result = runner.execute(request, _SharedToken(run_id), progress, db, settings, force, at)
    except Exception as exc:
        # A refused request names the error it was raised as (``BadInput.kind``).
        return ("error", runner.error_message(exc), getattr(exc, "kind", type(exc).__name__))
    return ("ok", result)


# ---------------------------------------------------------------------- the parent's side


def _start_resource_tracker() -> None:
    """multiprocessing's resource tracker inherits ``sys.stderr.fileno()``; under Textual
    that is a capture object answering -1, which makes the spawn fail.  Start the tracker
    (once per process) with the real stderr."""
    captured, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured


class PlanningProcess:
    """One warm child process that runs planner calls one after another."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._executor: ProcessPoolExecutor | None = None
        self._cancelled: Any = None
        self._slot = 0
        self._queue: Any = None
        self._latest: dict[int, Progress] = {}

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                _start_resource_tracker()
                self._cancelled = _CONTEXT.Array("q", _RING + 1)
                self._queue = _CONTEXT.Queue()
                self._executor = ProcessPoolExecutor(
                    1,
                    mp_context=_CONTEXT,
                    initializer=_init_child,
                    initargs=(self._cancelled, self._queue),
                )
            return self._executor

    def start(self) -> None:
        """Spawn the child now (it takes about half a second) rather than on the first run."""
        self._pool().submit(int)

    def _cancel(self, run_id: int) -> None:
        with self._cancelled.get_lock():
            self._cancelled[1 + self._slot] = run_id
            self._slot = (self._slot + 1) % _RING

    def _drain(self, run_id: int) -> Progress | None:
        """Newest progress for ``run_id``; other runs' reports are kept for their waiters."""
        with self._lock:
            while True:
                try:
                    rid, p = self._queue.get_nowait()
                except (queue.Empty, OSError, EOFError):
                    break
                self._latest[rid] = p
            return self._latest.pop(run_id, None)

    def execute(
        self,
        request: Any,
        cancel: CancelToken | None,
        progress: Callable[[Progress], None] | None,
        db: Path | None = None,
        settings: Any = None,
        force: Mapping[str | int, str] | None = None,
        at: Any = None,
    ) -> RunResult:
        """Plan in the child (blocking); see :func:`workbench.runner.execute`."""
        run_id = next(self._ids)
        job = (run_id, request, db, settings, dict(force) if force else None, at)
        try:
            future: Future[tuple[Any, ...]] = self._pool().submit(_run_in_child, *job)
        except BrokenProcessPool:
            self._restart()
            future = self._pool().submit(_run_in_child, *job)
        sent_cancel = False
        try:
            while True:
                try:
                    outcome = future.result(timeout=_POLL)
                    break
                except TimeoutError:
                    pass
                if not sent_cancel and cancel is not None and cancel.cancelled:
                    self._cancel(run_id)
                    sent_cancel = True
                p = self._drain(run_id)
                if p is not None and progress is not None:
                    progress(p)
        except BrokenProcessPool as exc:
            self._restart()
            raise PlanningError(
                "The planning process stopped unexpectedly; it has been restarted. Run again.",
                "BrokenProcessPool",
            ) from exc
        finally:
            with self._lock:
                self._latest.pop(run_id, None)
        if outcome[0] == "error":
            raise PlanningError(outcome[1], outcome[2])
        result: RunResult = outcome[1]
        return result

    def _restart(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def shutdown(self) -> None:
        """Cancel whatever runs and let the child go (at interpreter exit)."""
        with self._lock:
            executor, self._executor = self._executor, None
            if self._cancelled is not None:
                self._cancelled[0] = 2**62
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


planning_process = PlanningProcess()
"""The process every workbench screen plans in (one per interpreter)."""
atexit.register(planning_process.shutdown)
