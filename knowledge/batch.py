"""What runs a batch's jobs: the seam between batch code and where its jobs run.

A batch (a declarer match, a knowledge-test run, a benchmark) is a list of pure jobs and one
function ``fn(job) -> result``; jobs and results are plain picklable records.  Batch code
in ``knowledge`` takes an optional :class:`BatchExecutor` and otherwise runs its jobs as it
always has (in this process, or its own process pool).  The executor that sends jobs to a
Dask cluster lives in ``workbench.cluster``: the dependency runs one way,
``workbench -> knowledge -> engine``, so nothing here imports it (or Dask).
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

__all__ = ["BatchExecutor", "error_text", "in_process"]

_J = TypeVar("_J")
_R = TypeVar("_R")


class BatchExecutor(Protocol):
    """Runs ``fn`` on every job and returns the results in job order.

    Each job's result is ``fn(job)``, or ``failed(job, error, traceback)`` when ``fn``
    raised (or the job could not be run at all), so that a fault is reported with its job
    and never lost; every job yields exactly one result, and ``progress(done, total,
    result)`` is called once per job, in the caller's thread, as results come in.
    """

    def __call__(
        self,
        fn: Callable[[_J], _R],
        jobs: Sequence[_J],
        *,
        failed: Callable[[_J, str, str | None], _R],
        progress: Callable[[int, int, _R], None] | None = None,
    ) -> list[_R]: ...


def in_process(
    fn: Callable[[_J], _R],
    jobs: Sequence[_J],
    *,
    failed: Callable[[_J, str, str | None], _R],
    progress: Callable[[int, int, _R], None] | None = None,
) -> list[_R]:
    """The executor of last resort: every job in turn, in this process."""
    results: list[_R] = []
    for job in jobs:
        try:
            result = fn(job)
        except Exception as exc:  # a fault of one job: report it, run the rest
            result = failed(job, error_text(exc), "".join(traceback.format_exception(exc)))
        results.append(result)
        if progress is not None:
            progress(len(results), len(jobs), result)
    return results


def error_text(exc: BaseException) -> str:
    """How a job's exception is named in a report: ``RuntimeError: what went wrong``."""
    return f"{type(exc).__name__}: {exc}"
