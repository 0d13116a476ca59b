"""Smoke test: the real ``workbench`` in a real terminal (tmux), driven with keys."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

WORKBENCH = Path(sys.executable).with_name("workbench")
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


SOCKET = "tofs-workbench-smoke"  # a private tmux server: no user config, no other sessions


def _tmux(*args: str) -> str:
    return subprocess.run(
        ["tmux", "-L", SOCKET, "-f", "/dev/null", *args], check=True, capture_output=True, text=True
    ).stdout


def _wait_for(session: str, text: str, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = _tmux("capture-pane", "-p", "-t", session)
        if text in screen:
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{text!r} never appeared; the screen was:\n{screen}")


def test_workbench_runs_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"wb-smoke-{tmp_path.name}"[:40]
    db = tmp_path / "kb.db"
    # COLUMNS/LINES from the test runner would pin Textual's size; the terminal decides.
    _tmux(
        "new-session",
        "-d",
        "-s",
        session,
        "-x",
        "150",
        "-y",
        "45",
        f"env -u COLUMNS -u LINES {WORKBENCH} --db {db}",
    )
    try:
        _wait_for(session, "Problems")
        screen = _wait_for(session, "RM1")
        assert "dinner" in screen and "finesse" in screen and "353021" in screen
        _wait_for(session, "bridge / 353021")  # the picker's cursor is on the first problem
        for _ in range(12):  # down past the other bridge boards, the edaps line and MULTI
            _tmux("send-keys", "-t", session, "Down")
            time.sleep(0.3)
            if "edaps / RM1" in _tmux("capture-pane", "-p", "-t", session):
                break
        _wait_for(session, "edaps / RM1")  # ... and the user sees it moved
        _tmux("send-keys", "-t", session, "r")
        screen = _wait_for(
            session, "edaps/RM1 (optimise): plan found and proven best · value 642.33 min"
        )
        assert "Apply the photoresist" in screen
        _tmux("send-keys", "-t", session, "F1")
        _wait_for(session, "Everywhere")
        _tmux("send-keys", "-t", session, "Escape")
        time.sleep(0.3)
        _tmux("send-keys", "-t", session, "q")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _has(session):
            time.sleep(0.2)
        assert not _has(session), "q did not quit the workbench"
    finally:
        subprocess.run(["tmux", "-L", SOCKET, "kill-server"], capture_output=True)


def _has(session: str) -> bool:
    return (
        subprocess.run(
            ["tmux", "-L", SOCKET, "has-session", "-t", session], capture_output=True
        ).returncode
        == 0
    )
