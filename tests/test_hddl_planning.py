"""Planning HDDL with TOFS: plans checked by an independent validator, honest statuses, and
explanations whose expected text was derived by hand from the example domain.

Every plan below goes through ``tests/hddl_validation.py`` (unified-planning's reader and
simulator, plus a hierarchy check on its parsed model): none of ``knowledge.hddl``'s
semantics judges its own plans.
"""

from __future__ import annotations

import json
import re
from itertools import pairwise
from pathlib import Path

import pytest

from knowledge.hddl.decomposition import decomposition_tree, ipc_text
from knowledge.hddl.package import run_files
from tests.hddl_validation import validate_plan
from workbench.cli import main

EXAMPLES = Path(__file__).resolve().parent.parent / "knowledge" / "hddl" / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden" / "hddl"
DELIVERY = EXAMPLES / "delivery-domain.hddl"
LIGHTS = EXAMPLES / "lights-domain.hddl"


def ipc(domain: Path, problem: Path) -> str:
    run = run_files(str(domain), str(problem))
    assert run.result.found
    return ipc_text(decomposition_tree(run.result, run.engine_problem.tasks))


@pytest.mark.parametrize(
    ("domain", "problem"),
    [(DELIVERY, EXAMPLES / "delivery-p1.hddl"), (LIGHTS, EXAMPLES / "lights-p1.hddl")],
)
def test_plans_pass_the_independent_validator(domain: Path, problem: Path) -> None:
    assert validate_plan(domain, problem, ipc(domain, problem)) == []


def test_the_validator_would_catch_a_broken_plan() -> None:
    """The check above could fail: swap two actions of a valid plan and it does."""
    text = ipc(DELIVERY, EXAMPLES / "delivery-p1.hddl").splitlines()
    text[1], text[2] = text[2].replace("1 ", "0 ", 1), text[1].replace("0 ", "1 ", 1)
    assert validate_plan(DELIVERY, EXAMPLES / "delivery-p1.hddl", "\n".join(text))


def test_delivery_plan_follows_the_methods_in_order() -> None:
    """By hand: the books go north -> south, then the (fragile) glasses south -> north in
    the padded truck; at north, drive-on tries hq first (a constant: declared first), which
    only loops back, so the truck drives on south."""
    run = run_files(str(DELIVERY), str(EXAMPLES / "delivery-p1.hddl"))
    steps = [(s.operator, *map(str, s.args)) for s in run.result.plan]
    assert steps == [
        ("drive", "t1", "hq", "north"),
        ("load", "t1", "books", "north"),
        ("drive", "t1", "north", "south"),
        ("unload", "t1", "books", "south"),
        ("load", "t1", "glasses", "south"),
        ("drive", "t1", "south", "north"),
        ("unload", "t1", "glasses", "north"),
    ]
    assert run.result.stats["repeats_pruned"] == 1


def test_decomposition_numbers_every_task_once() -> None:
    run = run_files(str(DELIVERY), str(EXAMPLES / "delivery-p1.hddl"))
    tree = decomposition_tree(run.result, run.engine_problem.tasks)
    ids = [a.id for a in tree.actions] + [t.id for t in tree.tasks]
    assert sorted(ids) == list(range(len(ids)))
    children = [c for t in tree.tasks for c in t.subtasks] + list(tree.root)
    assert sorted(children) == list(range(len(ids)))  # each task has exactly one parent
    assert [t.name for t in tree.tasks if t.id in tree.root] == ["deliver", "deliver"]


def normalised(text: str) -> str:
    lines = text.splitlines()
    lines[1] = "<counts>"  # nodes and seconds: the program's figures, not the domain's
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("problem", "status"), [("delivery-p1", 0), ("delivery-stranded", 2)])
def test_explanation_golden(problem: str, status: int, capsys: pytest.CaptureFixture[str]) -> None:
    """The full audit (``--explain=full``).  The goldens were written from the domain (see
    tests/golden/hddl/README.md).

    delivery-stranded: the parcel is picked up in the north, but the only road to the
    island leaves from the south, which no road reaches; the van shuttles hq <-> north and
    the step that would return to the north with the same tasks left is pruned as a loop,
    so the whole tree is searched and the problem is unsolvable.  The deepest failure is
    ``arrived`` at hq: the van is not on the island.
    """
    code = main(
        ["plan", "hddl", str(DELIVERY), str(EXAMPLES / f"{problem}.hddl"), "--explain=full"]
    )
    assert code == status
    expected = (GOLDEN / f"{problem}.txt").read_text(encoding="utf-8")
    assert normalised(capsys.readouterr().out) == expected


def test_unsolvable_names_the_failing_literals(capsys: pytest.CaptureFixture[str]) -> None:
    """No road reaches the island, so deliver-by-vehicle fails on its `exists` (line 40 of
    the domain), and the parcel is not there already, so deliver-here fails on `(at ?p
    ?to)` (line 28): each blamed where it is written, with the values filled in."""
    code = main(["plan", "hddl", str(DELIVERY), str(EXAMPLES / "delivery-unsolvable.hddl")])
    out = capsys.readouterr().out
    assert code == 2
    assert out.startswith("delivery/delivery-unsolvable (first): no plan exists")
    assert (
        "deepest failure: (deliver parcel island): no method applies (deliver-here "
        "(delivery-domain.hddl:28) needs `(at parcel island)`; deliver-by-vehicle "
        "(delivery-domain.hddl:40) needs `(exists (?l - location) (road ?l island))`)"
    ) in out


def test_json_keeps_the_promised_keys(capsys: pytest.CaptureFixture[str]) -> None:
    problem = EXAMPLES / "delivery-p1.hddl"
    assert main(["plan", "hddl", str(DELIVERY), str(problem), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["solved"] is True and data["status"] == "solved"
    assert data["plan"][0] == {"id": 0, "action": "drive", "args": ["t1", "hq", "north"]}
    assert {"decomposition", "nodes", "seconds", "root"} <= set(data)
    first = next(d for d in data["decomposition"] if d["id"] == data["root"][0])
    assert (first["task"], first["args"], first["method"]) == (
        "deliver",
        ["books", "south"],
        "deliver-by-vehicle",
    )


def test_ipc_output_is_what_the_validator_reads(capsys: pytest.CaptureFixture[str]) -> None:
    problem = EXAMPLES / "lights-p1.hddl"
    assert main(["plan", "hddl", str(LIGHTS), str(problem), "--ipc"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("==>\n") and out.rstrip().endswith("<==")
    assert re.search(r"^root \d+$", out, re.M)
    assert validate_plan(LIGHTS, problem, out) == []


def test_a_budget_gives_up_and_never_reports_a_plan(capsys: pytest.CaptureFixture[str]) -> None:
    problem = EXAMPLES / "delivery-p1.hddl"
    assert main(["plan", "hddl", str(DELIVERY), str(problem), "--node-budget", "3", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert (data["solved"], data["status"], data["plan"]) == (False, "gave up", [])


def test_why_not_forces_an_alternative(capsys: pytest.CaptureFixture[str]) -> None:
    """Forcing the road back to hq at the first (get-to t1 south) can only loop: no plan."""
    problem = EXAMPLES / "delivery-p1.hddl"
    force = "(get-to t1 south)=drive-on(?from=north, ?next=hq)"
    code = main(["plan", "hddl", str(DELIVERY), str(problem), "--why-not", force])
    assert code == 2
    assert "no plan exists (the whole tree was searched)" in capsys.readouterr().out


def test_bad_input_is_one_message_with_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.hddl"
    broken.write_text("(define (problem p) (:domain delivery)\n  (:objects a - city\n")
    code = main(["plan", "hddl", str(DELIVERY), str(broken)])
    err = capsys.readouterr().err
    assert code == 1
    assert re.search(r"broken\.hddl:\d+:\d+", err), err
    assert "Traceback" not in err
    assert main(["plan", "hddl", str(DELIVERY), str(tmp_path / "missing.hddl")]) == 1
    assert "no such file" in capsys.readouterr().err
    assert main(["plan", "hddl", str(DELIVERY)]) == 1
    assert "PROBLEM" in capsys.readouterr().err


def test_runs_are_deterministic() -> None:
    first = ipc(DELIVERY, EXAMPLES / "delivery-p1.hddl")
    assert all(ipc(DELIVERY, EXAMPLES / "delivery-p1.hddl") == first for _ in range(3))


def test_same_answer_whatever_the_hash_seed() -> None:
    """Sets of strings iterate in an order that changes with PYTHONHASHSEED; bindings are
    sorted, so the plan and its explanation must not."""
    import os
    import subprocess
    import sys

    command = [
        sys.executable,
        "-m",
        "workbench",
        "plan",
        "hddl",
        str(DELIVERY),
        str(EXAMPLES / "delivery-p1.hddl"),
        "--explain",
    ]
    outputs = set()
    for seed in ("1", "2", "3"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=True)
        outputs.add(normalised(done.stdout))
    assert len(outputs) == 1


LADDER_DOMAIN = """(define (domain ladder)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types rung)
  (:predicates (at ?r - rung) (above ?r ?s - rung) (done))
  (:task finish :parameters ())
  (:method climb-first
    :parameters (?r ?s - rung)
    :task (finish)
    :precondition (and (at ?r) (above ?s ?r))
    :ordered-subtasks (and (climb ?r ?s) (finish)))
  (:method stop-here
    :parameters ()
    :task (finish)
    :ordered-subtasks (and (stop)))
  (:action climb
    :parameters (?r ?s - rung)
    :precondition (at ?r)
    :effect (and (not (at ?r)) (at ?s)))
  (:action stop
    :parameters ()
    :precondition (not (done))
    :effect (done)))
"""


def _ladder(tmp_path: Path, rungs: int) -> tuple[str, str]:
    """A ladder whose first method always climbs: depth first climbs every rung before it
    tries stopping, though stopping at once is a plan of one action."""
    names = [f"r{i}" for i in range(rungs)]
    above = " ".join(f"(above {b} {a})" for a, b in pairwise(names))
    domain = tmp_path / "ladder-domain.hddl"
    problem = tmp_path / "ladder.hddl"
    domain.write_text(LADDER_DOMAIN)
    problem.write_text(
        f"(define (problem climb) (:domain ladder) (:objects {' '.join(names)} - rung)\n"
        f"  (:htn :ordered-subtasks (and (finish)))\n"
        f"  (:init (at r0) {above}))\n"
    )
    return str(domain), str(problem)


def test_deepening_finds_the_shallow_plan_depth_first_search_dives_past(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    domain, problem = _ladder(tmp_path, 400)
    budget = ["--node-budget", "300", "--json"]
    assert main(["plan", "hddl", domain, problem, *budget]) == 3  # 400 rungs: 800 steps
    assert json.loads(capsys.readouterr().out)["status"] == "gave up"
    assert main(["plan", "hddl", domain, problem, *budget, "--deepening", "4"]) == 0
    found = json.loads(capsys.readouterr().out)
    # Depth 4 is cut; the first plan within it climbs once (climb-first, climb, then
    # stop-here, stop: four steps below the root), found before any deeper one.
    assert [a["action"] for a in found["plan"]] == ["climb", "stop"]
    assert found["stats"]["deepening_rounds"] == 1
    assert main(["plan", "hddl", domain, problem, *budget[:2], "--deepening", "4", "--ipc"]) == 0
    assert validate_plan(Path(domain), Path(problem), capsys.readouterr().out) == []


def test_deepening_says_gave_up_when_only_cut_rounds_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    domain, problem = _ladder(tmp_path, 3)
    text = Path(domain).read_text().replace(":precondition (not (done))", ":precondition (done)")
    Path(domain).write_text(text)  # stop never applies: no plan at any depth
    assert main(["plan", "hddl", domain, problem, "--deepening", "1", "--json"]) == 2
    found = json.loads(capsys.readouterr().out)
    assert found["status"] == "unsolvable"  # the last round was not cut: all was searched
    assert found["stats"]["deepening_rounds"] >= 3


@pytest.mark.parametrize(
    ("with_goal", "order"), [(True, ["drive-on", "arrived"]), (False, ["arrived", "drive-on"])]
)
def test_recursive_methods_first_only_under_a_goal(with_goal: bool, order: list[str]) -> None:
    """get-to's methods as delivery-domain.hddl writes them: arrived (nothing to do), then
    drive-on, which calls get-to again.  Under a state goal the recursive one is tried
    first (a base case tried first ends a loop before the goal's work is done); without a
    goal, in the order written."""
    from dataclasses import replace

    from knowledge.hddl import read_domain, read_problem
    from knowledge.hddl.planning import compile_problem

    domain = read_domain(DELIVERY)
    problem = read_problem(EXAMPLES / "delivery-p1.hddl", domain)
    if not with_goal:
        problem = replace(problem, goal=None)
    engine_domain, _ = compile_problem(domain, problem)
    assert [m.name for m in engine_domain.tasks["get-to"].methods] == order


PICK_DOMAIN = """(define (domain pick)
  (:requirements :typing :hierarchy)
  (:types item)
  (:constants spare - item)
  (:predicates (here ?i - item) (taken ?i - item))
  (:task take-one :parameters ())
  (:method take-any
    :parameters (?i - item)
    :task (take-one)
    :precondition (here ?i)
    :ordered-subtasks (and (take ?i)))
  (:action take
    :parameters (?i - item)
    :precondition (here ?i)
    :effect (and (not (here ?i)) (taken ?i))))
"""


@pytest.mark.parametrize(
    ("declared", "here", "first"),
    [
        ("b2 b10 b1", "b10 b1 b2", "b2"),
        ("b10 b1 b2", "b1 b2 b10", "b10"),
        ("b1 b2 b10", "b2 b10 b1", "b1"),
        ("b2", "b2 spare", "spare"),
    ],
)
def test_a_literal_binds_in_the_order_objects_are_declared(
    tmp_path: Path, declared: str, here: str, first: str
) -> None:
    """Every item that is here can be taken, so any take is a plan, and the first-plan
    search takes its first binding: the object declared first (the domain's constants
    before the problem's objects), whatever the order of the facts or of the names
    ("b1" < "b10" < "b2" < "spare")."""
    domain, problem = tmp_path / "pick-domain.hddl", tmp_path / "pick.hddl"
    domain.write_text(PICK_DOMAIN)
    facts = " ".join(f"(here {o})" for o in here.split())
    problem.write_text(
        f"(define (problem p) (:domain pick) (:objects {declared} - item)\n"
        f"  (:htn :ordered-subtasks (and (take-one)))\n"
        f"  (:init {facts}))\n"
    )
    run = run_files(str(domain), str(problem))
    assert [(s.operator, *map(str, s.args)) for s in run.result.plan] == [("take", first)]
