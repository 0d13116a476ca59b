"""The headless CLI: plan, explain, JSON, and clear errors instead of tracebacks."""

from __future__ import annotations

import json

import pytest

from workbench.cli import main


def test_plan_dinner_explain_prints_plan_and_backtracking(capsys) -> None:
    assert main(["plan", "examples", "dinner", "--explain=full"]) == 0
    out = capsys.readouterr().out
    assert "1. Have dinner at the Mongolian Barbecue" in out
    assert "Choice points:" in out
    assert "MovieThenDinner: dead end" in out
    assert "HaveDinner(the Mongolian Barbecue) needs `now() <= last_seating(R)`" in out
    assert "* DinnerThenMovie: chosen" in out


def test_plan_json_keeps_the_contract_keys(capsys) -> None:
    assert main(["plan", "examples", "dinner", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["nodes"] > 0 and isinstance(data["seconds"], float)
    (cp,) = data["choice_points"]
    assert cp["task"] == "Go to dinner and a movie"
    assert [set(a) for a in cp["alternatives"]] == [{"label", "value", "reason", "chosen"}] * 2
    assert [a["reason"] for a in cp["alternatives"]] == ["dead end", "chosen"]


def test_game_plan_prints_the_policy(capsys) -> None:
    assert main(["plan", "examples", "finesse", "--explain=full", "--tree"]) == 0
    out = capsys.readouterr().out
    assert "Policy (decision tree" in out and "p=0.9" in out
    assert "likelihood pruned" not in out  # the pruned move is off the planned line


def test_why_not_forces_an_alternative(capsys) -> None:
    assert main(["plan", "examples", "finesse", "--json", "--why-not", "Play=CashAce"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert abs(data["value"] - 87.2) < 1e-9


def test_why_not_takes_the_alternative_at_that_choice_point(capsys) -> None:
    """RM1's second side pocket: its task is first expanded below the first pocket's
    end-milling branch, so forcing by task key missed it; --why-not re-plans from the
    choice point on the plan, and the value is the one the base run claimed for it."""
    task = "Mill the milling feature at (0.00, 4.00)"
    assert main(["plan", "edaps", "RM1", "--json"]) == 0
    base = json.loads(capsys.readouterr().out)
    [cp] = [c for c in base["choice_points"] if c["task"] == task]
    [alt] = [a for a in cp["alternatives"] if a["label"] == "EndMilling"]
    assert main(["plan", "edaps", "RM1", "--json", "--why-not", f"{task}=EndMilling"]) == 0
    forced = json.loads(capsys.readouterr().out)
    assert abs(forced["lead_time"] - alt["value"]) < 0.01  # the output rounds to 0.01 min
    [again] = [c for c in forced["choice_points"] if c["task"] == task]
    assert [a["label"] for a in again["alternatives"] if a["chosen"]] == ["EndMilling"]


def test_why_not_names_the_choice_points_when_nothing_matches(capsys) -> None:
    assert main(["plan", "examples", "finesse", "--why-not", "Play=Pray"]) == 1
    err = capsys.readouterr().err
    assert "'Pray' is not an alternative of 'Play' at any choice point on the plan" in err
    assert "South: play the suit: Finesse, CashAce" in err
    assert main(["plan", "edaps", "RM1", "--why-not", "Nope=Y"]) == 1
    err = capsys.readouterr().err
    assert "no choice point on the plan has task 'Nope'" in err and "Traceback" not in err


def test_bad_input_gives_a_message_not_a_traceback(capsys) -> None:
    assert main(["plan", "examples", "nope"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("workbench: error: package 'examples' has no problem 'nope'")
    assert "Traceback" not in err
    assert main(["plan", "nowhere", "x"]) == 1
    assert "no knowledge package 'nowhere'" in capsys.readouterr().err


def test_list_shows_packages_and_problems(capsys) -> None:
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "examples:" in out and "dinner" in out and "finesse" in out


@pytest.mark.parametrize("extra", [[], ["--explain"], ["--json"], ["--json", "--explain"]])
def test_a_budget_that_stops_the_search_is_said_and_never_called_unmanufacturable(
    capsys, extra: list[str]
) -> None:
    """RM1 is manufacturable: ten nodes are simply not enough to find out.  Every form of
    the output says the budget stopped the search, and the status is 3, not 2."""
    assert main(["plan", "edaps", "RM1", "--node-budget", "10", *extra]) == 3
    out = capsys.readouterr().out
    assert "cannot be made" not in out and "unmanufacturable" not in out.lower()
    assert "gave up at the node budget of 10 nodes" in out
    if "--json" in extra:
        data = json.loads(out)
        assert data["manufacturable"] is None and data["outcome"] == "gave up"
        assert data["diagnostics"] == []


def test_a_budget_after_a_plan_gives_the_best_found_and_says_it_is_not_proven(capsys) -> None:
    status = main(["plan", "edaps", "RM1", "--full-tree", "--node-budget", "3000", "--explain"])
    out = capsys.readouterr().out
    assert status == 0
    assert "best plan found when the node budget of 3,000 nodes stopped the search" in out
    assert "(not proven best)" in out


def test_exit_statuses_no_plan_and_usage_are_told_apart(capsys) -> None:
    assert main(["plan", "edaps", "RUM1"]) == 2  # the whole tree searched: cannot be made
    assert "Total nodes: 148." in capsys.readouterr().out  # the dissertation's whole tree
    with pytest.raises(SystemExit) as usage:
        main(["plan", "edaps"])  # argparse: a required argument is missing
    assert usage.value.code == 1
    assert "the following arguments are required: problem" in capsys.readouterr().err
    with pytest.raises(SystemExit) as unknown:
        main(["plan", "edaps", "RM1", "--no-such-flag"])
    assert unknown.value.code == 1
    with pytest.raises(SystemExit):
        main(["plan", "--help"])
    assert "3  gave up at a budget with no plan found" in capsys.readouterr().out
