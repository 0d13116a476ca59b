"""Command-line conventions a user relies on: names listed when one is wrong, a busy port
said in one line, no progress bars in logs, exports kept out of the checkout, typed API."""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from knowledge.bridge import DATA_DIR
from workbench.cli import main
from workbench.export import default_export_folder
from workbench.screens.plan import PlanScreen

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("package", "listed"),
    [("examples", "dinner, finesse"), ("edaps", "MULTI, RM1, RUM1"), ("bridge", "fig5-1")],
)
def test_an_unknown_problem_lists_the_packages_problems(
    package: str, listed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["plan", package, "no-such-problem"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no-such-problem" in err and listed in err


def test_serving_on_a_port_in_use_says_so_in_one_line() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "workbench", "--serve", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    assert done.returncode == 1
    assert (
        done.stderr
        == f"workbench: error: port {port} on 127.0.0.1 is in use; choose another with --port\n"
    )


def test_a_match_logged_to_a_file_has_no_progress_bar(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["match", "bridge", str(DATA_DIR / "dds-list100.pbn"), "--boards", "1"]
    assert main([*args, "--declarers", "heuristic"]) == 0
    assert capsys.readouterr().err == ""  # stderr is not a terminal here


def test_exports_go_to_the_chosen_folder_never_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("WORKBENCH_EXPORTS", raising=False)
    default = default_export_folder()
    assert default.name == "exports" and tmp_path not in default.parents
    assert PlanScreen().export_folder == default
    monkeypatch.setenv("WORKBENCH_EXPORTS", str(tmp_path / "mine"))
    assert default_export_folder() == tmp_path / "mine"
    assert PlanScreen(None, tmp_path / "picked").export_folder == tmp_path / "picked"


def test_the_packages_are_marked_as_typed() -> None:
    for package in ("engine", "knowledge", "workbench"):
        assert (ROOT / package / "py.typed").is_file()


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    """Every command and kb command of the CLI, by its words."""
    from workbench.cli import build_parser

    found: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, words: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found[f"{words} {name}".strip()] = sub
                    walk(sub, f"{words} {name}")

    walk(build_parser(), "")
    return found


def test_every_command_that_prints_results_has_json() -> None:
    commands = _subcommands()
    assert {"plan", "list", "play", "match", "kb list", "kb test", "kb set"} <= set(commands)
    without = {
        words
        for words, parser in commands.items()
        if not any("--json" in a.option_strings for a in parser._actions)
    }
    # kb export prints the knowledge file itself; kb groups the kb commands.
    assert without == {"kb", "kb export"}


def test_kb_commands_print_json_a_program_can_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = ["--db", str(tmp_path / "kb.db"), "--json"]
    runs = [
        ["kb", "list"],
        ["kb", "list", "dinner"],
        ["kb", "lint", "dinner"],
        ["kb", "test", "dinner"],
        ["kb", "set", "dinner", "constant", "start_time", "value=1000"],
        ["kb", "history", "dinner"],
        ["kb", "undo", "dinner"],
        ["kb", "redo", "dinner"],
    ]
    for argv in runs:
        assert main([*argv, *db]) == 0, argv
        json.loads(capsys.readouterr().out)
    assert main(["kb", "history", "dinner", *db]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [h["action"] for h in history[-3:]] == ["update", "undo", "redo"]
    assert history[-1]["current"] is True and history[-1]["target"] == "start_time"
