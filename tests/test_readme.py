"""The README's commands run as shown, in order, on a fresh store (its quick start, the
knowledge-store walk-through and the why-not example): a README that lies is a bug."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]

# What the README says these exit with (everything else: 0).
EXPECTED_STATUS = {"plan edaps RUM1": 2}
# The interactive ones: the workbench itself, and serving it.
INTERACTIVE = ("", "--serve")


def readme_commands() -> list[list[str]]:
    """Every ``./run ...`` line of the README's code blocks, as arguments, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"^```[^\n]*\n(.*?)^```", text, flags=re.M | re.S):
        for line in block.splitlines():
            line = line.removeprefix("$ ")
            if line == "./run" or line.startswith("./run "):
                argv = shlex.split(line, comments=True)[1:]
                if " ".join(argv) not in INTERACTIVE:
                    commands.append(argv)
    return commands


def test_the_readme_shows_the_commands_this_test_runs() -> None:
    shown = [" ".join(c[:3]) for c in readme_commands()]
    for must in ("plan examples dinner", "play bridge", "match bridge", "kb set edaps"):
        assert any(s.startswith(must) for s in shown), must


def test_every_readme_command_runs_as_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WORKBENCH_DB", str(tmp_path / "fresh.db"))
    monkeypatch.chdir(tmp_path)  # exports land here, not in the checkout
    for argv in readme_commands():
        # Paths in the README are relative to the project root, where a user runs ./run.
        argv = [str(ROOT / a) if (ROOT / a).is_file() and "/" in a else a for a in argv]
        shown = " ".join(argv)
        status = main(argv)
        out = capsys.readouterr()
        want = EXPECTED_STATUS.get(shown, 0)
        assert status == want, f"./run {shown} exited {status}:\n{out.err[-2000:]}"
        assert "Traceback" not in out.err, shown
