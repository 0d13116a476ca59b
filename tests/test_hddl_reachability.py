"""Relaxed reachability over an HDDL problem (knowledge.hddl.reachability): what can never
hold or never be done, why in words, ``kb lint``'s static findings, and "no plan exists"
proven where the search alone gave up.

The domains are small and written here; the expected answers are read off them by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.hddl import parse_domain, parse_problem
from knowledge.hddl.reachability import analyse, domain_findings
from workbench.cli import main

# A Transport in miniature: deliver = go to the package, load (pick_up), go to the
# destination, unload (drop).  get_to recurses on the left, as Transport's does, so a
# search of a broken copy is cut by recursion pruning and cannot say "no plan" alone.
DOMAIN = """
(define (domain mini)
  (:requirements :typing :hierarchy)
  (:types package vehicle location - object)
  (:predicates (at ?x - object ?l - location) (in ?p - package ?v - vehicle)
               (road ?a - location ?b - location))
  (:task deliver :parameters (?p - package ?l - location))
  (:task get_to :parameters (?v - vehicle ?l - location))
  (:method m_deliver
    :parameters (?p - package ?l1 - location ?l2 - location ?v - vehicle)
    :task (deliver ?p ?l2)
    :ordered-subtasks (and (get_to ?v ?l1) (pick_up ?v ?l1 ?p) (get_to ?v ?l2)
                           (drop ?v ?l2 ?p)))
  (:method m_there
    :parameters (?v - vehicle ?l - location)
    :task (get_to ?v ?l)
    :precondition (at ?v ?l)
    :ordered-subtasks (and))
  (:method m_drive_via
    :parameters (?v - vehicle ?l1 - location ?l2 - location)
    :task (get_to ?v ?l2)
    :ordered-subtasks (and (get_to ?v ?l1) (drive ?v ?l1 ?l2)))
  (:action drive
    :parameters (?v - vehicle ?a - location ?b - location)
    :precondition (and (at ?v ?a) (road ?a ?b))
    :effect (and (not (at ?v ?a)) (at ?v ?b)))
  (:action pick_up
    :parameters (?v - vehicle ?l - location ?p - package)
    :precondition (and (at ?v ?l) (at ?p ?l))
    :effect (and (not (at ?p ?l)) PICKED))
  (:action drop
    :parameters (?v - vehicle ?l - location ?p - package)
    :precondition (and (at ?v ?l) (in ?p ?v))
    :effect (and (not (in ?p ?v)) (at ?p ?l))))
"""

PROBLEM = """
(define (problem p1) (:domain mini)
  (:objects pkg - package truck - vehicle a b - location)
  (:htn :parameters () :ordered-subtasks (and (deliver pkg b)))
  (:init (at truck a) (at pkg a) (road a b) (road b a)))
"""

GOOD = DOMAIN.replace("PICKED", "(in ?p ?v)")
BROKEN = DOMAIN.replace("PICKED", "")


def _files(tmp_path: Path, domain: str, problem: str = PROBLEM) -> list[str]:
    (tmp_path / "domain.hddl").write_text(domain)
    (tmp_path / "p1.hddl").write_text(problem)
    return [str(tmp_path / "domain.hddl"), str(tmp_path / "p1.hddl")]


def test_solvable_problem_reaches_what_its_plan_uses() -> None:
    domain = parse_domain(GOOD)
    facts = analyse(domain, parse_problem(PROBLEM, domain))
    # picked up at a, driven to b, dropped there: each of these holds in the plan
    assert facts.can_hold("in", ["pkg", "truck"])
    assert facts.can_hold("at", ["pkg", "b"])
    assert facts.can_apply("drop", ["truck", "b", "pkg"])
    assert facts.can_accomplish("deliver", ["pkg", "b"])
    assert facts.method_applies("m_deliver")
    # a package is never "at" a package, and no road leads from a to a
    assert not facts.can_hold("at", ["pkg", "pkg"])
    assert not facts.can_apply("drive", ["truck", "a", "a"])
    assert facts.unsolvable() is None


def test_lost_add_effect_is_named_with_its_reason() -> None:
    domain = parse_domain(BROKEN)
    facts = analyse(domain, parse_problem(PROBLEM, domain))
    assert not facts.can_hold("in")
    assert not facts.can_apply("drop")
    assert not facts.method_applies("m_deliver")
    assert facts.why_never("in", ["pkg", "truck"]) == (
        "(in pkg truck) is false in the initial state and added by no action of the domain"
    )
    reason = facts.unsolvable()
    assert reason is not None
    assert reason.startswith("task 1 of the initial task network, (deliver pkg b)")
    # followed down to the action and the literal at fault
    assert "step 4, (drop ?v ?l2 ?p)" in reason
    assert "whose precondition (in ?p ?v) can never hold" in reason
    assert reason.endswith("added by no action of the domain)")


def test_why_never_follows_an_adder_whose_precondition_cannot_hold() -> None:
    # pick_up adds (in ?p ?v) again but now needs (loaded ?v), which nothing adds
    text = GOOD.replace("(and (at ?v ?l) (at ?p ?l))", "(and (at ?v ?l) (at ?p ?l) (loaded ?v))")
    text = text.replace("(road ?a - location ?b - location))", "(road ?a ?b) (loaded ?v))")
    domain = parse_domain(text)
    facts = analyse(domain, parse_problem(PROBLEM, domain))
    why = facts.why_never("in", ["pkg", "truck"])
    assert why.startswith("(in pkg truck) is false in the initial state and added only by pick_up")
    assert "whose precondition (loaded truck) can never hold" in why


def test_lint_findings_name_predicate_task_and_method_with_lines() -> None:
    text = BROKEN.replace(
        "(:task get_to", "(:task unload_all :parameters (?v - vehicle))\n  (:task get_to"
    )
    domain = parse_domain(text)
    stored = parse_problem(PROBLEM, domain)
    # without a stored problem no predicate is blamed: `road` is static, held by inits
    assert "predicate" not in {f.kind for f in domain_findings(domain)}
    found = {(f.kind, f.name): f for f in domain_findings(domain, [stored.init])}
    pred = found[("predicate", "in")]
    assert "added by no action" in pred.message and "drop" in pred.message
    assert pred.line == 5  # the (:predicates line declaring `in`
    assert found[("task", "unload_all")].message == "no method decomposes this task"
    deliver = found[("method", "m_deliver")]
    assert "step 4, (drop ?v ?l2 ?p), can never be done" in deliver.message
    assert deliver.line is not None and text.splitlines()[deliver.line - 1].strip().startswith(
        "(:method m_deliver"
    )
    # get_to's methods need nothing that cannot hold
    assert ("method", "m_there") not in found and ("method", "m_drive_via") not in found
    # a stored problem whose initial state holds `in` makes the predicate possible
    held = parse_problem(PROBLEM.replace("(road a b)", "(in pkg truck) (road a b)"), domain)
    again = domain_findings(domain, [held.init])
    assert ("predicate", "in") not in {(f.kind, f.name) for f in again}


def test_method_whose_subtask_cannot_be_done() -> None:
    # a task with no method, called by a method: the method never applies, nor its task
    text = GOOD.replace(
        "(:task get_to", "(:task inspect :parameters (?v - vehicle))\n  (:task get_to"
    ).replace("(drop ?v ?l2 ?p)))", "(drop ?v ?l2 ?p) (inspect ?v)))")
    domain = parse_domain(text)
    facts = analyse(domain, parse_problem(PROBLEM, domain))
    assert not facts.method_applies("m_deliver")
    assert facts.method_applies("m_there")
    reason = facts.unsolvable()
    assert reason is not None
    assert "step 5, (inspect ?v), which can never be done: no method decomposes it" in reason


def test_plan_says_no_plan_exists_with_the_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # get_to first: its left recursion is pruned, so the search alone only gives up
    problem = PROBLEM.replace("(deliver pkg b)", "(get_to truck b) (deliver pkg a)")
    status = main(["plan", "hddl", *_files(tmp_path, BROKEN, problem)])
    out = capsys.readouterr().out
    assert status == 2
    assert out.startswith("mini/p1 (first): no plan exists")
    assert "no plan exists (proven by relaxed reachability:" in out
    assert "added by no action of the domain" in out
    # The explanation says how it was proven: recursion was cut, so never "whole tree".
    assert main(["plan", "hddl", *_files(tmp_path, BROKEN, problem), "--explain"]) == 2
    explained = capsys.readouterr().out
    assert "There is no plan: proven by relaxed reachability" in explained
    assert "whole tree was searched" not in explained


def test_solvable_problem_plans_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["plan", "hddl", *_files(tmp_path, GOOD), "--ipc"])
    out = capsys.readouterr().out
    assert status == 0
    actions = [line.split(" ", 1)[1] for line in out.splitlines() if line[:1].isdigit()]
    # truck at a with the package: pick it up, drive to b, drop it
    assert actions[:3] == ["pick_up truck a pkg", "drive truck a b", "drop truck b pkg"]


def test_kb_lint_reports_what_can_never_hold_with_stored_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "kb.db")
    files = _files(tmp_path, BROKEN)
    assert main(["--db", db, "kb", "import", *files]) == 0
    capsys.readouterr()
    status = main(["--db", db, "kb", "lint", "mini"])
    out = capsys.readouterr().out
    assert status == 2  # an error: `in` can never hold
    lines = out.splitlines()
    (pred,) = [line for line in lines if "[never-holds]" in line]
    assert pred.startswith("error [never-holds] domain in (line ")
    assert "needed by drop but added by no action" in pred
    (method,) = [line for line in lines if "[method-never-applies]" in line]
    assert "deliver.m_deliver" in method and "step 4, (drop ?v ?l2 ?p)" in method


def test_kb_lint_is_quiet_on_a_domain_that_plans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "kb.db")
    assert main(["--db", db, "kb", "import", *_files(tmp_path, GOOD)]) == 0
    capsys.readouterr()
    assert main(["--db", db, "kb", "lint", "mini"]) == 0
    out = capsys.readouterr().out
    assert "never-holds" not in out and "method-never-applies" not in out


def test_what_the_relaxation_cannot_prove_still_gives_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # drop needs (not (in ?p ?v)) and pick_up adds (in ?p ?v): the delete relaxation drops
    # negative literals, so it proves nothing; the search, cut by recursion, gives up
    broken = GOOD.replace("(and (at ?v ?l) (in ?p ?v))", "(and (at ?v ?l) (not (in ?p ?v)))")
    problem = PROBLEM.replace("(deliver pkg b)", "(get_to truck b) (deliver pkg a)")
    status = main(["plan", "hddl", *_files(tmp_path, broken, problem), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "gave up" and "proof" not in data
    assert status != 0


def test_json_carries_the_proof(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = PROBLEM.replace("(deliver pkg b)", "(get_to truck b) (deliver pkg a)")
    assert main(["plan", "hddl", *_files(tmp_path, BROKEN, problem), "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["status"] == "unsolvable" and data["outcome"] == "no plan exists"
    assert data["proof"].startswith("proven by relaxed reachability: task 2 of the initial")
