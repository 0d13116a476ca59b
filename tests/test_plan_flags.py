"""Every ``plan`` flag on every package is honoured -- the JSON shows the setting took
effect -- or refused with exit status 1 and one line saying why; and HDDL's ``--mode
optimise`` finds the plan with the fewest actions, saying "proven shortest" only when it
searched the whole tree."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from workbench.cli import main

HDDL = Path(__file__).resolve().parent.parent / "knowledge" / "hddl" / "examples"
DELIVERY = [str(HDDL / "delivery-domain.hddl"), str(HDDL / "delivery-p1.hddl")]

# One quick problem per package, and a why-not each can answer.
PROBLEMS: dict[str, list[str]] = {
    "examples": ["dinner"],
    "edaps": ["RM1"],
    "bridge": ["353021-trick5"],
    "hddl": DELIVERY,
}
WHY_NOT = {
    "examples": "Go to dinner and a movie=MovieThenDinner",
    "edaps": "Clean the flux=Brush",
    "bridge": None,  # taken from the plan's first choice point
    "hddl": "(get-to t1 north)=arrived",
}

Check = Callable[[dict[str, Any]], bool]
REFUSED = "refused"


def options(**expected: Any) -> Check:
    return lambda data: all(data["options"][k] == v for k, v in expected.items())


FLAGS: dict[str, tuple[list[str], dict[str, Check | str]]] = {
    # flag: (arguments, {package: check of the JSON, or REFUSED}); "*" is every other package
    "mode-first": (
        ["--mode", "first"],
        {"bridge": REFUSED, "*": options(mode="first")},
    ),
    "mode-optimise": (
        ["--mode", "optimise"],
        {"bridge": REFUSED, "*": options(mode="optimise")},
    ),
    "mode-game": (
        ["--mode", "game"],
        {"edaps": REFUSED, "hddl": REFUSED, "*": options(mode="game")},
    ),
    "full-tree": (["--full-tree"], {"*": options(full_tree=True, transpositions=False)}),
    "no-prune": (["--no-prune"], {"*": options(partial_plan_prune=False)}),
    "criterion": (
        ["--criterion", "maximin"],
        {"bridge": options(criterion="maximin"), "*": REFUSED},
    ),
    "alpha": (
        ["--criterion", "hurwicz", "--alpha", "0.3"],
        {"bridge": options(criterion="hurwicz", alpha=0.3), "*": REFUSED},
    ),
    "deepening": (
        ["--deepening", "2"],
        {"edaps": REFUSED, "bridge": REFUSED, "*": options(deepening=2)},
    ),
    "node-budget": (["--node-budget", "40"], {"*": options(node_budget=40)}),
    "time-budget": (["--time-budget", "60"], {"*": options(time_budget=60.0)}),
    "memory-budget": (["--memory-budget", "3G"], {"*": options(memory_budget=3000.0)}),
    "explain": (["--explain"], {"*": lambda data: "explanation" in data}),
    "explain-full": (["--explain=full"], {"*": lambda data: "explanation" in data}),
    # Repairs of a domain's text: HDDL's only (its example plans, so none is proposed).
    "repair": (
        ["--repair"],
        {
            "hddl": lambda data: data["repairs"] == [] and data["repair"]["already_plans"],
            "*": REFUSED,
        },
    ),
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        status = main(argv)
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _refused(status: int, out: str, err: str) -> bool:
    return (
        status == 1 and out == "" and err.count("\n") == 1 and err.startswith("workbench: error: ")
    )


@pytest.mark.parametrize("flag", sorted(FLAGS))
@pytest.mark.parametrize("package", sorted(PROBLEMS))
def test_every_flag_is_honoured_or_refused(
    package: str, flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    args, expect = FLAGS[flag]
    check = expect.get(package, expect.get("*"))
    status, out, err = _run(
        ["plan", package, *PROBLEMS[package], *args, "--json", "--bundled"], capsys
    )
    if check == REFUSED:
        assert _refused(status, out, err), (status, out[:200], err)
        return
    assert callable(check)
    assert status in (0, 2, 3), err
    assert check(json.loads(out)), out[:2000]


@pytest.mark.parametrize("package", sorted(PROBLEMS))
def test_json_and_why_not_take_effect(package: str, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["plan", package, *PROBLEMS[package], "--bundled"]
    status, out, _ = _run([*base, "--json"], capsys)
    data = json.loads(out)  # --json: JSON, where the text is not
    assert status == 0 and not _run(base, capsys)[1].lstrip().startswith("{")
    force = WHY_NOT[package]
    if force is None:  # the first choice point's first alternative not chosen
        cp = next(c for c in data["choice_points"] if len(c["alternatives"]) > 1)
        other = next(a for a in cp["alternatives"] if not a["chosen"])
        force = f"{cp['task']}={other['label']}"
    status, out, err = _run([*base, "--json", "--why-not", force], capsys)
    assert status in (0, 2, 3), err
    task, alternative = force.split("=")
    assert json.loads(out)["options"]["force"] == {task: alternative}


@pytest.mark.parametrize("package", sorted(PROBLEMS))
def test_tree_prints_a_games_policy_or_is_refused(
    package: str, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["plan", package, *PROBLEMS[package], "--bundled"]
    status, out, err = _run([*base, "--tree"], capsys)
    if package == "bridge":  # a game: the policy is printed
        assert status == 0 and out != _run(base, capsys)[1]
    else:
        assert _refused(status, out, err) and "game's decision tree" in err


def test_hddl_refuses_game_mode_saying_why(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["plan", "hddl", *DELIVERY, "--mode", "game"], capsys)
    assert _refused(status, out, err) and "HDDL problems have no opponents" in err


def test_package_flags_are_the_package_s_own(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["plan", "edaps", "RM1", "--ipc"], capsys)
    assert _refused(status, out, err) and "package 'edaps' takes no argument '--ipc'" in err
    status, out, err = _run(["plan", "hddl", *DELIVERY, "--ipc", "--json"], capsys)
    assert _refused(status, out, err) and "the ipc format prints the plan alone" in err


def test_edaps_first_mode_gives_the_first_manufacturable_plan(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = _run(["plan", "edaps", "RM1", "--json", "--bundled"], capsys)
    best = json.loads(out)
    status, out, _ = _run(
        ["plan", "edaps", "RM1", "--mode", "first", "--json", "--bundled"], capsys
    )
    first = json.loads(out)
    assert status == 0 and first["manufacturable"] and first["options"]["mode"] == "first"
    assert first["nodes"] < best["nodes"] and first["lead_time"] >= best["lead_time"]
    text = _run(["plan", "edaps", "RM1", "--mode", "first", "--bundled"], capsys)[1]
    assert "the first one: first-plan mode compares no others" in text


# ------------------------------------------------------------ HDDL: the fewest actions

SHORTCUT_DOMAIN = """
(define (domain shortcut)
  (:requirements :hierarchy :typing)
  (:types place)
  (:predicates (at ?p - place) (road ?a ?b - place))
  (:task go :parameters (?to - place))
  (:method go-around :parameters (?from ?via ?to - place)
    :task (go ?to)
    :precondition (and (at ?from) (road ?from ?via) (road ?via ?to))
    :ordered-subtasks (and (step ?from ?via) (step ?via ?to)))
  (:method go-direct :parameters (?from ?to - place)
    :task (go ?to)
    :precondition (and (at ?from) (road ?from ?to))
    :ordered-subtasks (and (step ?from ?to)))
  (:action step :parameters (?a ?b - place)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b))))
"""

SHORTCUT_PROBLEM = """
(define (problem shortcut-p1) (:domain shortcut)
  (:objects home mill town - place)
  (:htn :ordered-subtasks (and (go town)))
  (:init (at home) (road home mill) (road mill town) (road home town)))
"""


def _plan(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    status, out, err = _run([*argv, "--json", "--bundled"], capsys)
    assert out, err
    return status, json.loads(out)


@pytest.mark.parametrize(
    "files",
    [DELIVERY, [str(HDDL / "lights-domain.hddl"), str(HDDL / "lights-p1.hddl")]],
)
def test_hddl_optimise_is_no_longer_than_the_first_plan(
    files: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    _, first = _plan(["plan", "hddl", *files], capsys)
    status, best = _plan(["plan", "hddl", *files, "--mode", "optimise"], capsys)
    assert status == 0 and best["options"]["mode"] == "optimise"
    assert best["actions"] == len(best["plan"]) <= len(first["plan"])
    assert best["proven_shortest"] is (best["outcome"] == "plan")


def test_hddl_optimise_finds_the_shorter_plan_the_first_one_misses(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    domain, problem = tmp_path / "shortcut.hddl", tmp_path / "shortcut-p1.hddl"
    domain.write_text(SHORTCUT_DOMAIN)
    problem.write_text(SHORTCUT_PROBLEM)
    argv = ["plan", "hddl", str(domain), str(problem)]
    _, first = _plan(argv, capsys)
    assert [a["action"] for a in first["plan"]] == ["step", "step"]  # around, as written
    assert "proven_shortest" not in first  # first-plan mode claims nothing about length
    status, best = _plan([*argv, "--mode", "optimise"], capsys)
    assert status == 0 and [a["args"] for a in best["plan"]] == [["home", "town"]]
    assert best["actions"] == 1 and best["proven_shortest"] is True
    text = _run([*argv, "--mode", "optimise"], capsys)[1]
    assert "1 action(s): proven shortest (the whole tree was searched)." in text
    # Stopped before the whole tree was searched, the plan it has is not proven shortest.
    status, cut = _plan([*argv, "--mode", "optimise", "--node-budget", "4"], capsys)
    assert status == 0 and cut["proven_shortest"] is False and cut["actions"] == 2
    text = _run([*argv, "--mode", "optimise", "--node-budget", "4"], capsys)[1]
    assert "not proven shortest" in text and "proven shortest (the whole" not in text
