"""Blame where it belongs: a literal an HDDL failure names is blamed on the action or
method whose text holds it, at its line, with its variables' values filled in.

A method checks the preconditions of its actions before it is applied (pull-up), so the
literal that stops it was often written in one of its steps, not in the method: the
failure must say "step 1 of m_unload, drop (domain.hddl:45), needs `(in box t1)`", or an
author who opens the method finds nothing.

Every expected string below was written by hand from the domain text in this file: the
line numbers are those of ``DOMAIN`` (``test_the_lines_quoted_below_are_the_domains``
guards them), the values those of the problems.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.tofs import SearchOptions
from knowledge.hddl.package import run_files
from workbench.cli import main

# A Transport-like domain: pick_up puts the package in the truck, drop takes it out;
# m_unload's only step is drop, so drop's whole precondition is checked by m_unload.
DOMAIN = """\
(define (domain mini)
  (:requirements :typing :hierarchy :method-preconditions)
  (:types vehicle package location - object)
  (:predicates
    (at ?x - object ?l - location)
    (in ?p - package ?v - vehicle)
    (road ?a ?b - location))
  (:task deliver :parameters (?p - package ?l - location))
  (:task unload :parameters (?v - vehicle ?l - location ?p - package))
  (:method m_deliver
    :parameters (?p - package ?l1 ?l - location ?v - vehicle)
    :task (deliver ?p ?l)
    :precondition (and
      (at ?v ?l1)
      (at ?p ?l1))
    :ordered-subtasks (and
      (pick_up ?v ?l1 ?p)
      (drive ?v ?l1 ?l)
      (unload ?v ?l ?p)))
  (:method m_unload
    :parameters (?v - vehicle ?l - location ?p - package)
    :task (unload ?v ?l ?p)
    :ordered-subtasks (and
      (drop ?v ?l ?p)))
  (:action pick_up
    :parameters (?v - vehicle ?l - location ?p - package)
    :precondition (and
      (at ?v ?l)
      (at ?p ?l))
    :effect (and
      (not (at ?p ?l))
      (in ?p ?v)))
  (:action drive
    :parameters (?v - vehicle ?a ?b - location)
    :precondition (and
      (at ?v ?a)
      (road ?a ?b))
    :effect (and
      (not (at ?v ?a))
      (at ?v ?b)))
  (:action drop
    :parameters (?v - vehicle ?l - location ?p - package)
    :precondition (and
      (at ?v ?l)
      (in ?p ?v))
    :effect (and
      (not (in ?p ?v))
      (at ?p ?l)))
)
"""

# The break: pick_up no longer adds (in ?p ?v).  The line is emptied, not removed, so
# every other line keeps its number.
BROKEN = DOMAIN.replace("(not (at ?p ?l))\n      (in ?p ?v)))", "(not (at ?p ?l))\n      ))")


def problem(init: str, htn: str = "(deliver box b)", goal: str = "") -> str:
    """A problem on one truck, one box and three places; ``goal`` goes on line 5."""
    return (
        "(define (problem p1) (:domain mini)\n"
        "  (:objects t1 - vehicle box - package a b c - location)\n"
        f"  (:htn :ordered-subtasks (and {htn}))\n"
        f"  (:init {init})\n"
        f"  {goal})\n"
    )


SOLVABLE = "(at t1 a) (at box a) (road a b)"


def files(
    tmp_path: Path, domain: str, init: str, htn: str = "(deliver box b)", goal: str = ""
) -> list[str]:
    (tmp_path / "domain.hddl").write_text(domain, encoding="utf-8")
    (tmp_path / "p1.hddl").write_text(problem(init, htn, goal), encoding="utf-8")
    return [str(tmp_path / "domain.hddl"), str(tmp_path / "p1.hddl")]


def test_the_lines_quoted_below_are_the_domains() -> None:
    lines = DOMAIN.splitlines()
    assert lines[45 - 1].strip() == "(in ?p ?v))" and lines[41 - 1].strip() == "(:action drop"
    assert lines[15 - 1].strip() == "(at ?p ?l1))" and lines[10 - 1].strip() == "(:method m_deliver"
    assert lines[37 - 1].strip() == "(road ?a ?b))" and lines[33 - 1].strip() == "(:action drive"
    assert BROKEN != DOMAIN and len(BROKEN.splitlines()) == len(lines)


def test_the_unbroken_domain_plans(tmp_path: Path) -> None:
    """The break below is what stops it: unbroken, the truck picks the box up at a,
    drives to b and drops it there."""
    run = run_files(*files(tmp_path, DOMAIN, SOLVABLE))
    steps = [(s.operator, *map(str, s.args)) for s in run.result.plan]
    assert steps == [
        ("pick_up", "t1", "a", "box"),
        ("drive", "t1", "a", "b"),
        ("drop", "t1", "b", "box"),
    ]


def test_a_pulled_up_literal_is_blamed_on_its_step(tmp_path: Path) -> None:
    """pick_up and drive apply; then m_unload, the only method of (unload t1 b box),
    checks drop's precondition: the truck is at b, but the box is in no truck.  The
    literal was written in drop, line 45, and reached m_unload as its step 1."""
    run = run_files(*files(tmp_path, BROKEN, SOLVABLE))
    failure = run.result.failure
    assert not run.result.found and failure is not None
    assert failure.message == (
        "(unload t1 b box): no method applies "
        "(step 1 of m_unload, drop (domain.hddl:45), needs `(in box t1)`)"
    )
    (cause,) = failure.causes
    assert cause.blame is not None
    assert (Path(cause.blame.file).name, cause.blame.line) == ("domain.hddl", 45)
    # What the method itself would have said before: its own text has no such literal.
    assert "m_unload needs" not in failure.message


def test_a_run_with_no_plan_is_searched_again_where_the_literal_was_written(
    tmp_path: Path,
) -> None:
    """Checking what a compound step needs when the method that calls it is chosen finds
    the break sooner: m_deliver checks unload's (in ?p ?v) at once, since pick_up no
    longer adds `in` and nothing before step 3 can change it, so the first search fails
    at (deliver box b) with nothing run.  The run shown is the second search, with static
    needs only: it fails at drop, after pick_up and drive, as above."""
    from engine.tofs import plan
    from knowledge.hddl.package import read_files
    from knowledge.hddl.planning import compile_problem

    domain, problem = read_files(*files(tmp_path, BROKEN, SOLVABLE))
    assert DOMAIN.splitlines()[19 - 1].strip() == "(unload ?v ?l ?p)))"  # step 3's line
    first = plan(*compile_problem(domain, problem), SearchOptions(mode="first"))
    assert first.failure is not None and first.failure.message == (
        "(deliver box b): no method applies "
        "(step 3 of m_deliver, unload (domain.hddl:19), needs `(in box t1)`)"
    )
    shown = run_files(*files(tmp_path, BROKEN, SOLVABLE)).result
    assert shown.failure is not None and "step 1 of m_unload, drop" in shown.failure.message
    assert shown.nodes > first.nodes


def test_a_pulled_up_literal_in_a_match_is_blamed_on_its_step(tmp_path: Path) -> None:
    """No road from a to b: m_deliver binds ?v = t1, ?l1 = a from (at ?v ?l1), its own
    (at box a) holds, and the first literal that fails is drive's (road ?a ?b), pulled up
    from step 2 as (road ?l1 ?l)."""
    run = run_files(*files(tmp_path, DOMAIN, "(at t1 a) (at box a)"))
    failure = run.result.failure
    assert failure is not None
    assert failure.message == (
        "(deliver box b): no method applies "
        "(step 2 of m_deliver, drive (domain.hddl:37), needs `(road a b)`)"
    )


def test_a_methods_own_literal_is_blamed_on_the_method(tmp_path: Path) -> None:
    """The box is at c, the truck at a: m_deliver binds ?v = t1, ?l1 = a and its own
    second literal, (at ?p ?l1) on line 15, is false for box at a."""
    run = run_files(*files(tmp_path, DOMAIN, "(at t1 a) (at box c) (road a b)"))
    failure = run.result.failure
    assert failure is not None
    assert failure.message == (
        "(deliver box b): no method applies (m_deliver (domain.hddl:15) needs `(at box a)`)"
    )
    (cause,) = failure.causes
    assert cause.blame is not None and cause.blame.line == 15


def test_an_actions_own_literal_is_blamed_on_the_action(tmp_path: Path) -> None:
    """The problem asks for drop itself: its precondition is its own, line 45."""
    run = run_files(*files(tmp_path, DOMAIN, SOLVABLE, htn="(drop t1 a box)"))
    failure = run.result.failure
    assert failure is not None and failure.blame is not None
    assert failure.blame.text == "drop (domain.hddl:45) needs `(in box t1)`"
    assert failure.message == "(drop t1 a box): drop (domain.hddl:45) needs `(in box t1)`"


def test_a_goal_literal_is_blamed_on_the_problems_goal(tmp_path: Path) -> None:
    """The box is delivered to b, but the goal (line 5 of the problem) wants it at c."""
    run = run_files(*files(tmp_path, DOMAIN, SOLVABLE, goal="(:goal (at box c))"))
    failure = run.result.failure
    assert not run.result.found and failure is not None and failure.blame is not None
    assert failure.message == "the goal: :goal (p1.hddl:5) needs `(at box c)`"
    assert Path(failure.blame.file).name == "p1.hddl"


def test_explain_and_json_carry_the_blame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same words in --explain, and in the JSON failure with the file and line an
    editor opens."""
    args = ["plan", "hddl", *files(tmp_path, BROKEN, SOLVABLE)]
    main([*args, "--explain"])
    out = capsys.readouterr().out
    assert "step 1 of m_unload, drop (domain.hddl:45), needs `(in box t1)`" in out
    main([*args, "--json"])
    data = json.loads(capsys.readouterr().out)
    blame = data["failure"]["causes"][0]["blame"]
    assert blame["text"] == "step 1 of m_unload, drop (domain.hddl:45), needs `(in box t1)`"
    assert (Path(blame["file"]).name, blame["line"]) == ("domain.hddl", 45)
