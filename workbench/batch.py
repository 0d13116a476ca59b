"""What every batch command (a match, a knowledge-test run) does with jobs that raised."""

from __future__ import annotations

import sys

from knowledge import EXIT_JOBS_FAILED, EXIT_PLAN

__all__ = ["report_failures"]


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
