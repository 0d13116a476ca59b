"""Slips the domain's text shows by itself (``knowledge.hddl.slips``), one break each, on
two small domains written for these tests.  Every expected line was worked out by hand from
the domain text: which place the break touched, which variable it left idle, which action
should add what.

``WALK`` walks a person along roads: ``go`` has a method for "already there" (no steps)
and one that takes a step and goes on.  ``TURN`` turns a dish from one direction to another
and looks: ``turn`` deletes where it pointed and adds where it points now.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.hddl import parse_domain, parse_problem
from knowledge.hddl.package import run_files
from knowledge.hddl.slips import Slips
from workbench.cli import main

WALK = """\
(define (domain walk)
  (:requirements :typing :hierarchy :method-preconditions :negative-preconditions)
  (:types place)
  (:predicates (at ?l - place) (road ?a ?b - place))
  (:task go :parameters (?to - place))
  (:method m_there
    :parameters (?to - place)
    :task (go ?to)
    :precondition (at ?to)
    :ordered-subtasks (and))
  (:method m_step
    :parameters (?to ?from ?next - place)
    :task (go ?to)
    :precondition (and (at ?from) (road ?from ?next))
    :ordered-subtasks (and
      (step ?from ?next)
      (go ?to)))
  (:action step
    :parameters (?a ?b - place)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b)))
)
"""

WALK_PROBLEM = """\
(define (problem w1) (:domain walk)
  (:objects a b c - place)
  (:htn :ordered-subtasks (and (go c)))
  (:init (at a) (road a b) (road b c)))
"""

TURN = """\
(define (domain turn)
  (:requirements :typing :hierarchy :method-preconditions)
  (:types dish direction)
  (:predicates (pointing ?d - dish ?x - direction) (seen ?x - direction))
  (:task observe :parameters (?x - direction))
  (:method m_observe
    :parameters (?x ?from - direction ?d - dish)
    :task (observe ?x)
    :precondition (pointing ?d ?from)
    :ordered-subtasks (and (turn ?d ?from ?x) (look ?d ?x)))
  (:action turn
    :parameters (?d - dish ?from ?to - direction)
    :precondition (pointing ?d ?from)
    :effect (and (not (pointing ?d ?from)) (pointing ?d ?to)))
  (:action look
    :parameters (?d - dish ?x - direction)
    :precondition (pointing ?d ?x)
    :effect (seen ?x))
)
"""

TURN_PROBLEM = """\
(define (problem t1) (:domain turn)
  (:objects dish1 - dish north south - direction)
  (:htn :ordered-subtasks (and (observe south)))
  (:init (pointing dish1 north)))
"""


def line_of(needle: str, text: str) -> int:
    (hit,) = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return hit


def changed(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, old
    return text.replace(old, new)


def suspects(tmp_path: Path, domain: str, problem: str) -> list[str]:
    (tmp_path / "domain.hddl").write_text(domain, encoding="utf-8")
    (tmp_path / "p.hddl").write_text(problem, encoding="utf-8")
    run = run_files(str(tmp_path / "domain.hddl"), str(tmp_path / "p.hddl"))
    assert not run.result.found
    return [b.text for b in run.result.suspects]


def test_both_domains_plan_unbroken(tmp_path: Path) -> None:
    for domain, problem, steps in (
        (WALK, WALK_PROBLEM, [("step", "a", "b"), ("step", "b", "c")]),
        (TURN, TURN_PROBLEM, [("turn", "dish1", "north", "south"), ("look", "dish1", "south")]),
    ):
        (tmp_path / "domain.hddl").write_text(domain, encoding="utf-8")
        (tmp_path / "p.hddl").write_text(problem, encoding="utf-8")
        run = run_files(str(tmp_path / "domain.hddl"), str(tmp_path / "p.hddl"))
        assert [(s.operator, *map(str, s.args)) for s in run.result.plan] == steps


def test_a_method_that_calls_its_own_task_first_is_named_with_the_step_to_put_first(
    tmp_path: Path,
) -> None:
    """m_step's two steps swapped: (go ?to) comes first, the same task with the same
    arguments in the same state, so the search can only go round (it gives up at the
    recursion cut).  The fix is to put (step ?from ?next) first again."""
    domain = changed(
        WALK, "(step ?from ?next)\n      (go ?to)))", "(go ?to)\n      (step ?from ?next)))"
    )
    found = suspects(tmp_path, domain, WALK_PROBLEM)
    method = line_of("(:method m_step", domain)
    assert (
        f"m_step (domain.hddl:{method}): step 1, (go ?to), is its own task again, with the "
        "same arguments, before anything has changed, so the search can only go round: "
        "should it come after step 2, (step ?from ?next)?"
    ) in found


def test_an_action_that_takes_a_parameter_it_never_uses_is_asked_to_add_with_it(
    tmp_path: Path,
) -> None:
    """turn loses (pointing ?d ?to): ?to is left in no literal of turn, and turn deletes
    (pointing ?d ?from), where ?from is a direction like ?to."""
    domain = changed(
        TURN, "(not (pointing ?d ?from)) (pointing ?d ?to))", "(not (pointing ?d ?from)))"
    )
    assert Slips(parse_domain(domain), parse_problem(TURN_PROBLEM)).idle_parameter() is not None
    found = suspects(tmp_path, domain, TURN_PROBLEM)
    turn = line_of("(:action turn", domain)
    assert (
        f"turn (domain.hddl:{turn}) takes ?to but no literal of it uses it: should its "
        "effect add (pointing ?d ?to)?"
    ) in found
    # Unbroken, no action of either domain has an idle parameter.
    for text, problem in ((TURN, TURN_PROBLEM), (WALK, WALK_PROBLEM)):
        assert Slips(parse_domain(text), parse_problem(problem)).idle_parameter() is None


def test_a_negated_fact_of_the_problem_is_asked_to_be_read_the_right_way_round(
    tmp_path: Path,
) -> None:
    """step now needs (not (road ?a ?b)): roads are facts of the problem (no action adds
    or deletes one), and m_step's own precondition binds ?next by a road, so every step
    it could take needs the road it stands on to be missing."""
    domain = changed(WALK, "(and (at ?a) (road ?a ?b))", "(and (at ?a) (not (road ?a ?b)))")
    found = suspects(tmp_path, domain, WALK_PROBLEM)
    step = line_of("(:action step", domain)
    assert (
        f"step (domain.hddl:{step}) needs (not (road ?a ?b)), a fact of the problem that no "
        "action changes, to be false: should it read (road ?a ?b)?"
    ) in found


def test_a_lost_method_is_found_through_the_action_no_method_calls_any_more(
    tmp_path: Path,
) -> None:
    """m_step deleted: step, the only action that adds `at`, is now called by no method,
    and go's remaining method m_there can only find (at c) true already."""
    start = WALK.index("  (:method m_step")
    end = WALK.index("  (:action step")
    domain = WALK[:start] + "\n" * WALK[start:end].count("\n") + WALK[end:]
    found = suspects(tmp_path, domain, WALK_PROBLEM)
    there = line_of("(:method m_there", domain)
    assert (
        "no method calls step, which alone adds `at`: has task go lost a method? its "
        f"m_there (domain.hddl:{there}) only finds `at` true already"
    ) in found


RIDE = """\
(define (domain ride)
  (:requirements :typing :hierarchy)
  (:types person car place)
  (:predicates (at ?x - object ?l - place))
  (:task travel :parameters (?p - person ?to - place))
  (:method m_ride
    :parameters (?p - person ?c - car ?from ?to - place)
    :task (travel ?p ?to)
    :ordered-subtasks (and (ride ?p ?c ?from ?to)))
  (:action ride
    :parameters (?p - person ?c - car ?from ?to - place)
    :precondition (and (at ?p ?from) (at ?c ?from))
    :effect (and (not (at ?p ?from)) (not (at ?c ?from)) (at ?p ?to) (at ?c ?to)))
)
"""


def test_an_action_that_moves_one_thing_and_leaves_another_behind_is_named() -> None:
    """ride loses (at ?c ?to): it still takes the car away from ?from, and the person to
    ?to, so the car's arrival is what it lacks."""
    broken = changed(RIDE, " (at ?p ?to) (at ?c ?to))", " (at ?p ?to))")
    ((action, came, left, lacking),) = Slips(parse_domain(broken)).half_moves()
    assert (action.name, lacking) == ("ride", "(at ?c ?to)")
    assert (str(came.args[0]), str(left.args[0])) == ("?p", "?c")
    assert Slips(parse_domain(RIDE)).half_moves() == []


RIDE_PROBLEM = """\
(define (problem r1) (:domain ride)
  (:objects ann - person car1 - car home work - place)
  (:htn :ordered-subtasks (and (travel ann work)))
  (:init (at ann home) (at car1 home)))
"""


def test_kb_lint_warns_of_a_slip_before_any_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same broken ride, stored: ``kb lint`` names the action and what it lacks; the
    unbroken domain lints without a slip."""
    for text, slipped in (
        (changed(RIDE, " (at ?p ?to) (at ?c ?to))", " (at ?p ?to))"), True),
        (RIDE, False),
    ):
        (tmp_path / "domain.hddl").write_text(text, encoding="utf-8")
        (tmp_path / "r1.hddl").write_text(RIDE_PROBLEM, encoding="utf-8")
        db = str(tmp_path / f"kb{slipped}.db")
        files = [str(tmp_path / "domain.hddl"), str(tmp_path / "r1.hddl")]
        assert main(["--db", db, "kb", "import", *files]) == 0
        capsys.readouterr()
        main(["--db", db, "kb", "lint", "ride"])
        lines = [line for line in capsys.readouterr().out.splitlines() if "[slip]" in line]
        if not slipped:
            assert lines == []
            continue
        (line,) = lines
        assert line.startswith("warning [slip] operator ride (line ")
        assert line.endswith("adds (at ?p ?to) but, deleting (at ?c ?from), adds no (at ?c ?to)")


MARK = """\
(define (domain mark)
  (:requirements :typing :hierarchy :method-preconditions)
  (:types item)
  (:predicates (marked ?x - item) (next ?x ?y - item))
  (:task tick :parameters (?x - item))
  (:method m_tick
    :parameters (?x ?y - item)
    :task (tick ?x)
    :precondition (next ?x ?y)
    :ordered-subtasks (and (mark ?x) (check ?x)))
  (:action mark
    :parameters (?x - item)
    :effect (marked ?x))
  (:action check
    :parameters (?x - item)
    :precondition (marked ?x))
)
"""

MARK_PROBLEM = """\
(define (problem k1) (:domain mark)
  (:objects a b - item)
  (:htn :ordered-subtasks (and (tick a)))
  (:init (next a b)))
"""


def test_the_same_methods_earlier_step_that_marked_another_object_is_named(
    tmp_path: Path,
) -> None:
    """m_tick marks ?y (b) where it meant ?x (a): check, its own next step, needs
    (marked a), and mark ran on b -- one of the two calls has the wrong variable."""
    assert [s.operator for s in _plan(tmp_path, MARK, MARK_PROBLEM)] == ["mark", "check"]
    domain = changed(MARK, "(and (mark ?x) (check ?x))", "(and (mark ?y) (check ?x))")
    found = suspects(tmp_path, domain, MARK_PROBLEM)
    method = line_of("(:method m_tick", domain)
    assert (
        f"m_tick (domain.hddl:{method}): step 1, (mark ?y), adds `marked` for other objects "
        "((mark b)) than step 2, (check ?x), needs: is one of the two called with the wrong "
        "variable?"
    ) in found


def test_a_later_step_that_adds_the_very_literal_is_asked_to_come_first(
    tmp_path: Path,
) -> None:
    """m_tick inspects before it marks, and inspecting is checking, one level down: the
    check of a fails on (marked a), which m_tick's step 2, mark with ?x bound to a by the
    path, would add."""
    nested = changed(
        MARK,
        "  (:action mark",
        "  (:task inspect :parameters (?x - item))\n"
        "  (:method m_inspect :parameters (?x - item) :task (inspect ?x)\n"
        "    :ordered-subtasks (and (check ?x)))\n"
        "  (:action mark",
    )
    domain = changed(nested, "(and (mark ?x) (check ?x))", "(and (inspect ?x) (mark ?x))")
    found = suspects(tmp_path, domain, MARK_PROBLEM)
    method = line_of("(:method m_tick", domain)
    assert (
        f"m_tick (domain.hddl:{method}): step 2, (mark ?x), adds (marked a) that step 1, "
        "(inspect ?x), needs: should it come first?"
    ) in found


def _plan(tmp_path: Path, domain: str, problem: str) -> list:
    (tmp_path / "domain.hddl").write_text(domain, encoding="utf-8")
    (tmp_path / "p.hddl").write_text(problem, encoding="utf-8")
    return list(run_files(str(tmp_path / "domain.hddl"), str(tmp_path / "p.hddl")).result.plan)


def test_a_task_of_the_problems_network_left_with_no_method_is_named(tmp_path: Path) -> None:
    """Both methods of go deleted: go is called by no method any more, only by the problem's
    network, and a goal (at c) makes the run fail at its root (no task left can add it),
    so the slip is what says where to look."""
    domain = WALK
    for name in ("m_there", "m_step"):
        start = domain.index(f"  (:method {name}")
        end = domain.index("  (:", start + 3)
        domain = domain[:start] + domain[end:]
    problem = changed(WALK_PROBLEM, "(road b c)))", "(road b c))\n  (:goal (at c)))")
    found = suspects(tmp_path, domain, problem)
    task = line_of("(:task go", domain)
    assert (
        f"task go (domain.hddl:{task}) has no method at all, though the problem's task "
        "network calls it: was one deleted?"
    ) in found
