"""What every batch command (a match, a knowledge-test run) shares: its progress bar, what
it says of jobs that raised, and of a run stopped with ctrl+c.

Where the jobs run -- this process, the local pool, a Dask cluster (:mod:`workbench.cluster`)
-- changes none of it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from knowledge import EXIT_JOBS_FAILED, EXIT_PLAN

__all__ = ["EXIT_INTERRUPTED", "interrupted", "progress_bar", "report_failures"]

# ctrl+c: the shell's convention (128 + SIGINT), so a script can tell it from a result.
EXIT_INTERRUPTED = 130


def progress_bar(
    describe: Callable[[Any], str], *, width: int = 30
) -> Callable[[int, int, Any], None]:
    """A ``progress(done, total, result)`` that draws ``[####....] done/total what`` on
    stderr: jobs done, whichever order they finish in.  A bar is for a person watching,
    never for a log, so it draws nothing when stderr is not a terminal."""

    def progress(done: int, total: int, result: Any) -> None:
        if not sys.stderr.isatty():
            return
        filled = width * done // max(total, 1)
        print(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {describe(result)}",
            end="\n" if done == total else "",
            file=sys.stderr,
            flush=True,
        )

    return progress


def interrupted() -> int:
    """ctrl+c during a batch: by now its workers are stopped (the local pool's killed, the
    cluster's jobs cancelled); say so in one line rather than with a traceback."""
    print("\nworkbench: interrupted; the batch's remaining jobs were cancelled", file=sys.stderr)
    return EXIT_INTERRUPTED


def report_failures(failed: list[tuple[str, str | None, str | None]], noun: str) -> int:
    """Say on stderr which jobs of a batch raised, with the first traceback; the exit status.

    ``failed`` holds (what, error, traceback) per failed job.  A batch never hides a failure
    in its figures: each is named, and the status is non-zero when any job failed.
    """
    if not failed:
        return EXIT_PLAN
    for what, error, _ in failed:
        print(f"{what} failed: {error}", file=sys.stderr)
    first = next(((what, tb) for what, _, tb in failed if tb), None)
    if first is not None:
        print(f"\nFirst traceback, {first[0]}:\n{first[1].rstrip()}", file=sys.stderr)
    print(f"{len(failed)} {noun}{'s' if len(failed) != 1 else ''} failed", file=sys.stderr)
    return EXIT_JOBS_FAILED
