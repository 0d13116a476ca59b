"""``plan`` and ``play`` take the same inputs, and plain output ends with the answer
(issue 29, item 6).

A bridge board is a name (the store's board, or the package's with ``--bundled``) or a PBN
file, for ``plan`` and ``play`` alike; ``plan --help`` says what each package takes; and
every package's plain ``plan`` output ends with one line: the outcome in the four outcomes'
words and the figure a user came for.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEALS = ROOT / "knowledge" / "bridge" / "deals"
HDDL = ROOT / "knowledge" / "hddl" / "examples"


@pytest.fixture(autouse=True)
def _store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORKBENCH_DB", str(tmp_path / "store.db"))


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


def test_plan_bridge_takes_a_pbn_file_as_it_takes_the_board_name(capsys) -> None:
    status, by_name, _ = _run(["plan", "bridge", "353021-trick5", "--json"], capsys)
    assert status == 0
    status, by_file, _ = _run(
        ["plan", "bridge", str(DEALS / "353021-trick5.pbn"), "--json"], capsys
    )
    assert status == 0
    a, b = json.loads(by_name), json.loads(by_file)
    assert a["value"] == b["value"] and a["plan"] == b["plan"] and a["problem"] == b["problem"]


def test_plan_bridge_board_picks_one_of_a_file_and_names_the_others(capsys) -> None:
    board = ["plan", "bridge", str(DEALS / "353021.pbn"), "--board"]
    status, out, _ = _run([*board, "353021", "--json"], capsys)
    assert status == 0 and json.loads(out)["plan"]
    status, _, err = _run([*board, "7"], capsys)
    assert status == 1 and "no board '7'; boards: 353021" in err and "Traceback" not in err


@pytest.mark.parametrize(
    "argv,says",
    [
        (["plan", "bridge", "nope"], "package 'bridge' has no problem 'nope', and no PBN file"),
        (["play", "bridge", "nope"], "package 'bridge' has no problem 'nope', and no PBN file"),
        (["plan", "bridge", "no/such.pbn"], "no/such.pbn: no such file"),
        (["play", "bridge", "no/such.pbn"], "no/such.pbn: no such file"),
    ],
)
def test_a_name_that_is_neither_is_one_line_naming_the_problems(argv, says, capsys) -> None:
    status, _, err = _run(argv, capsys)
    assert status == 1 and says in err and "Traceback" not in err
    if "nope" in argv:
        assert "353021-trick5" in err  # the names there are


@pytest.mark.parametrize("bundled", [[], ["--bundled"]])
def test_play_bridge_takes_the_board_name_as_it_takes_the_file(bundled, capsys) -> None:
    """``play bridge 353021`` plays the store's board of that name (``--bundled``: the
    package's file), the same board as ``play bridge deals/353021.pbn``."""
    scripted = ["--defense", "scripted", "--json", *bundled]
    status, by_name, err = _run(["play", "bridge", "353021", *scripted], capsys)
    assert status == 0, err
    status, by_file, _ = _run(["play", "bridge", str(DEALS / "353021.pbn"), *scripted], capsys)
    assert status == 0
    a, b = json.loads(by_name), json.loads(by_file)
    assert a["play"] == b["play"] and a["board"] == b["board"] == "353021"
    assert len(a["play"]) == 2 * 52  # the whole board, played out


def test_plan_help_says_what_each_package_takes(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["plan", "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    said = out[out.index("what each package takes as PROBLEM:") :]
    lines = " ".join(said.split())  # wrapped lines, read as one text
    assert "bridge a board name (353021, " in lines and "or a PBN file" in lines
    assert "edaps a design name (MULTI, RM1, RUM1) or a design file" in lines
    assert "examples a problem name (dinner, finesse)" in lines
    assert "hddl DOMAIN PROBLEM: a domain file and a problem file (.hddl)" in lines


def _last(argv: list[str], capsys) -> tuple[int, str]:
    status, out, _ = _run(argv, capsys)
    return status, out.rstrip("\n").splitlines()[-1]


def test_plain_edaps_ends_with_the_lead_time(capsys) -> None:
    """The dissertation's published process plan for RM1 takes 642.33 minutes of shop
    time, 319.70 setup plus 322.63 run (knowledge/edaps/README.md), the figure the README
    quotes: the plain output's last line says it."""
    status, last = _last(["plan", "edaps", "RM1"], capsys)
    assert status == 0
    assert last == (
        "Outcome: plan found and proven best; lead time 642.33 min (setup 319.70 + run 322.63)."
    )


def test_an_unmanufacturable_design_ends_with_what_cannot_be_made(capsys) -> None:
    status, last = _last(["plan", "edaps", "RUM1"], capsys)
    assert status == 2
    assert last.startswith("Outcome: no plan exists (the whole tree was searched); ")
    assert last.endswith("cannot be made.")


def test_plain_examples_and_hddl_end_with_the_outcome_and_the_steps(capsys) -> None:
    # dinner and a movie: dinner, a ticket, the film -- three steps, the first plan found
    status, last = _last(["plan", "examples", "dinner"], capsys)
    assert status == 0
    assert last == (
        "Outcome: plan found (first-plan mode: the first found, not compared with others); 3 steps."
    )
    # delivery p1: drive to the books, load, drive south, unload; load the glasses, drive
    # north, unload -- seven actions
    argv = ["plan", "hddl", str(HDDL / "delivery-domain.hddl"), str(HDDL / "delivery-p1.hddl")]
    status, last = _last(argv, capsys)
    assert status == 0 and last.startswith("Outcome: plan found") and last.endswith("; 7 actions.")


def test_plain_bridge_ends_with_the_expected_score_and_the_chance_to_make(capsys) -> None:
    status, out, _ = _run(["plan", "bridge", "353021-trick5", "--json"], capsys)
    value = json.loads(out)["value"]
    status, last = _last(["plan", "bridge", "353021-trick5"], capsys)
    assert status == 0
    assert last.startswith(f"Outcome: plan found and proven best; expected score {value:+.2f}")
    assert ", makes with p = 0." in last and last.endswith(" in the planner's tree.")
