"""A reader that goes away (``workbench kb list dinner | head -8``) is not an error: the workbench
stops quietly with exit status 0, as ``cat``, ``ls`` and other Unix tools do.

The pipe is real: the test makes one, closes its read end before the workbench writes a
byte, and runs the workbench with the write end as its standard output -- so every write
fails with EPIPE, whether it happens while printing or in the interpreter's final flush.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run_into_closed_pipe(args: list[str], db: Path) -> subprocess.CompletedProcess[bytes]:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line is written
    try:
        return subprocess.run(
            [sys.executable, "-m", "workbench", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=dict(os.environ, WORKBENCH_DB=str(db)),
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)


@pytest.mark.parametrize(
    "args",
    [
        ["kb", "list", "dinner"],
        ["kb", "list"],
        ["plan", "examples", "dinner"],
        ["list"],
        ["list", "--json"],
    ],
    ids=lambda a: " ".join(a),
)
def test_a_closed_pipe_is_quiet_and_exits_0(args: list[str], tmp_path: Path) -> None:
    done = _run_into_closed_pipe(args, tmp_path / "kb.db")
    assert done.stderr.decode() == ""
    assert done.returncode == 0


def test_the_same_commands_print_when_the_reader_stays(tmp_path: Path) -> None:
    """The control: with a reader, the commands above do write (so the quiet exit above
    is the pipe's doing, not a command that printed nothing)."""
    done = subprocess.run(
        [sys.executable, "-m", "workbench", "kb", "list", "dinner"],
        capture_output=True,
        cwd=ROOT,
        env=dict(os.environ, WORKBENCH_DB=str(tmp_path / "kb.db")),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(b"\n") > 8
