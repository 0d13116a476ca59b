"""The headless CLI: plan, explain, JSON, and clear errors instead of tracebacks."""

from __future__ import annotations

import json

from workbench.cli import main


def test_plan_dinner_explain_prints_plan_and_backtracking(capsys) -> None:
    assert main(["plan", "examples", "dinner", "--explain"]) == 0
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
    assert main(["plan", "examples", "finesse", "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Policy (decision tree" in out and "p=0.9" in out
    assert "likelihood pruned" not in out  # the pruned move is off the planned line


def test_why_not_forces_an_alternative(capsys) -> None:
    assert main(["plan", "examples", "finesse", "--json", "--why-not", "Play=CashAce"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert abs(data["value"] - 87.2) < 1e-9


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
