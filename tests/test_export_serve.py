"""Markdown export of a plan, the SVG screenshot, and serving the app to a browser."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from engine.tofs import SearchOptions, plan
from knowledge import get_package
from workbench.export import export_path, plan_markdown
from workbench.serve import serve_command


def test_markdown_has_the_plan_and_the_reader_view() -> None:
    """By default the export says what the pane says: the reader's view."""
    domain, problem = get_package("examples").problem("dinner")
    text = plan_markdown("examples/dinner", plan(domain, problem, SearchOptions(mode="first")))
    assert text.startswith("# examples/dinner\n")
    assert "1. Have dinner at the Mongolian Barbecue (90.00)" in text
    assert "## Explanation" in text and "### Go to dinner and a movie" in text
    assert "**Go to dinner and a movie: dinner first, then the movie.**" in text
    assert "- movie first, then dinner: tried, no plan below" in text
    assert "MovieThenDinner" not in text


def test_markdown_has_the_plan_and_every_alternative() -> None:
    """The full audit: every alternative with its reason."""
    domain, problem = get_package("examples").problem("dinner")
    result = plan(domain, problem, SearchOptions(mode="first"))
    text = plan_markdown("examples/dinner", result, audit=True)
    assert text.startswith("# examples/dinner\n")
    assert "1. Have dinner at the Mongolian Barbecue (90.00)" in text
    assert "### Choice: Go to dinner and a movie" in text
    assert "- **MovieThenDinner**: dead end: no complete plan below" in text
    assert "- ✓ **DinnerThenMovie**: chosen: value 367" in text


def test_markdown_of_a_game_shows_the_policy() -> None:
    domain, problem = get_package("examples").problem("finesse")
    result = plan(domain, problem, SearchOptions(mode="game"))
    text = plan_markdown("examples/finesse", result, audit=True)
    assert "## Policy" in text and "p=0.9" in text
    assert "## Policy" not in plan_markdown("examples/finesse", result)  # the audit's


def test_export_path_never_overwrites(tmp_path: Path) -> None:
    first = export_path(tmp_path, "edaps", "designs/RM1.txt", ".md")
    assert first.name == "edaps-RM1.md"
    first.write_text("x")
    assert export_path(tmp_path, "edaps", "RM1", ".md").name == "edaps-RM1-2.md"


def test_serve_command_runs_this_python_on_the_chosen_store(tmp_path: Path) -> None:
    cmd = serve_command(tmp_path / "kb.db")
    assert cmd.startswith(sys.executable) and "-m workbench --db" in cmd
    assert str((tmp_path / "kb.db").resolve()) in cmd


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_serve_answers_a_browser_on_loopback(tmp_path: Path) -> None:
    """The page is served at the URL the server prints (with its token), and only there."""
    port = _free_port()
    env = dict(os.environ, WORKBENCH_DB=str(tmp_path / "kb.db"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", "--serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # printed before it listens
        match = re.fullmatch(r"Serving the workbench at (\S+) \(Ctrl\+C to stop\)\n", first)
        assert match, first
        url = match.group(1)
        assert url.startswith(f"http://127.0.0.1:{port}/?token=")
        deadline = time.monotonic() + 90  # start-up on a loaded machine; usually ~2 s
        page = ""
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    page = r.read().decode("utf-8", "replace")
                break
            except urllib.error.HTTPError:  # an answer, not a server still starting
                raise
            except OSError:
                time.sleep(0.3)
        assert "TOFS Workbench" in page
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10)
        assert refused.value.code == 403
    finally:
        proc.terminate()
        proc.wait(timeout=10)
