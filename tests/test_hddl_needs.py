"""What a compound task needs when it starts, pulled up into the method that calls it
(``knowledge/hddl/needs.py``): the literals over static predicates that every method of
the task checks before anything of it has run.

The domain below is Monroe's ``clear_road_hazard`` in small: clearing a road blocks it
(the crew walks there and puts up cones), then cleans it up, which one method does by
calling for help where the hazard is ``very`` serious and the other by the crew's own
cleaning, at any level.  Both need some ``(hazard ?a ?b ?l)``: static (no action adds or
deletes it), so it holds from the start, and the top task's choice of a road can be
checked against it before the road is blocked.  Every expected value below was worked out
by hand from this text.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.hddl import parse_domain
from knowledge.hddl.conditions import Obj, World, compile_test
from knowledge.hddl.decomposition import decomposition_tree, ipc_text
from knowledge.hddl.model import Atom, Const, Exists, Not, Typed, Var
from knowledge.hddl.needs import WILD, Need, instantiate
from knowledge.hddl.package import run_files
from knowledge.hddl.planning import static_needs
from tests.hddl_validation import validate_plan

DOMAIN = """\
(define (domain hazards)
  (:requirements :typing :hierarchy :method-preconditions :negative-preconditions)
  (:types place level crew - object)
  (:constants very - level)
  (:predicates
    (at ?c - crew ?p - place)
    (road ?a ?b - place)
    (hazard ?a ?b - place ?l - level)
    (cones ?a ?b - place)
    (clean ?a ?b - place))
  (:task top :parameters ())
  (:task clear_road :parameters (?a ?b - place))
  (:task block :parameters (?a ?b - place))
  (:task clean_up :parameters (?a ?b - place))
  (:task get_to :parameters (?c - crew ?p - place))
  (:method m_top
    :parameters (?a ?b - place)
    :task (top)
    :ordered-subtasks (and (clear_road ?a ?b)))
  (:method m_clear
    :parameters (?a ?b - place)
    :task (clear_road ?a ?b)
    :ordered-subtasks (and (block ?a ?b) (clean_up ?a ?b)))
  (:method m_block
    :parameters (?a ?b - place ?c - crew)
    :task (block ?a ?b)
    :ordered-subtasks (and (get_to ?c ?a) (place_cones ?c ?a ?b)))
  (:method m_very
    :parameters (?a ?b - place)
    :task (clean_up ?a ?b)
    :ordered-subtasks (and (check ?a ?b very) (call_help ?a ?b)))
  (:method m_normal
    :parameters (?a ?b - place ?l - level ?c - crew)
    :task (clean_up ?a ?b)
    :precondition (and (not (clean ?a ?b)))
    :ordered-subtasks (and (clean_road ?c ?a ?b ?l)))
  (:method m_here
    :parameters (?c - crew ?p - place)
    :task (get_to ?c ?p)
    :precondition (and (at ?c ?p))
    :ordered-subtasks (and))
  (:method m_walk
    :parameters (?c - crew ?from ?next ?p - place)
    :task (get_to ?c ?p)
    :precondition (and (at ?c ?from) (road ?from ?next))
    :ordered-subtasks (and (walk ?c ?from ?next) (get_to ?c ?p)))
  (:action walk
    :parameters (?c - crew ?a ?b - place)
    :precondition (and (at ?c ?a) (road ?a ?b))
    :effect (and (not (at ?c ?a)) (at ?c ?b)))
  (:action place_cones
    :parameters (?c - crew ?a ?b - place)
    :precondition (and (at ?c ?a))
    :effect (and (cones ?a ?b)))
  (:action check
    :parameters (?a ?b - place ?l - level)
    :precondition (and (hazard ?a ?b ?l)))
  (:action call_help
    :parameters (?a ?b - place)
    :precondition (and (cones ?a ?b))
    :effect (and (clean ?a ?b)))
  (:action clean_road
    :parameters (?c - crew ?a ?b - place ?l - level)
    :precondition (and (hazard ?a ?b ?l) (at ?c ?a) (cones ?a ?b))
    :effect (and (clean ?a ?b)))
)
"""


def problem(hazards: str, crew_at: str = "p3") -> str:
    """Four places in a row, the crew c1 at ``crew_at``, and ``hazards``."""
    return (
        "(define (problem p) (:domain hazards)\n"
        "  (:objects p1 p2 p3 p4 - place low - level c1 - crew)\n"
        "  (:htn :ordered-subtasks (and (top)))\n"
        f"  (:init (at c1 {crew_at}) (road p1 p2) (road p2 p3) (road p3 p4) (road p2 p1)\n"
        f"         (road p3 p2) (road p4 p3) {hazards}))\n"
    )


def files(tmp_path: Path, hazards: str, crew_at: str = "p3") -> tuple[str, str]:
    (tmp_path / "domain.hddl").write_text(DOMAIN, encoding="utf-8")
    (tmp_path / "p.hddl").write_text(problem(hazards, crew_at), encoding="utf-8")
    return str(tmp_path / "domain.hddl"), str(tmp_path / "p.hddl")


P0, P1 = ("p", "0"), ("p", "1")


def test_each_task_needs_what_all_its_methods_check() -> None:
    """clean_up: m_very checks (hazard ?a ?b very) through its first action, m_normal
    (hazard ?a ?b ?l) through its only one, ?l its own: both imply some hazard on the
    road, whatever its level.  m_normal's (not (clean ?a ?b)) is about a predicate actions
    change, and m_very has nothing like it.  clear_road gets clean_up's need through its
    second step (block cannot change a static literal); top has no parameters, so what
    it needs is that some hazard exists at all.  get_to's m_here checks nothing static
    (m_walk's road is about its own ?from and ?next), so get_to needs nothing, and
    neither does block."""
    needs = static_needs(parse_domain(DOMAIN))
    hazard = Need("atom", "hazard", (P0, P1, WILD))
    assert needs["clean_up"] == {hazard}
    assert needs["clear_road"] == {hazard}
    assert needs["top"] == {Need("atom", "hazard", (WILD, WILD, WILD))}
    assert "get_to" not in needs and "block" not in needs


def test_a_need_is_written_in_the_callers_words() -> None:
    """Wild places become a quantified variable, named apart from the caller's own."""
    need = Need("atom", "hazard", (P0, ("c", "p4"), WILD))
    assert instantiate(need, (Var("?x"), Var("?y"))) == Exists(
        (Typed("?any1"),), Atom("hazard", (Var("?x"), Const("p4"), Var("?any1")))
    )
    clash = instantiate(need, (Var("?any1"), Var("?y")))
    assert isinstance(clash, Exists) and clash.params == (Typed("?any1_"),)
    assert instantiate(Need("not", "clean", (P1, P0)), (Var("?x"), Var("?y"))) == Not(
        Atom("clean", (Var("?y"), Var("?x")))
    )


def test_the_road_with_the_hazard_is_chosen_at_once(tmp_path: Path) -> None:
    """The only hazard is on p3 -> p4, at level low, and c1 is at p3.  m_top's (?a, ?b)
    is checked against the need it pulls up from clear_road, so the one binding it offers
    is (p3, p4) -- without it, (p1, p1) came first and its road was blocked.  Then, one
    node each: the top task; (clear_road p3 p4); m_clear's block and clean_up; m_block
    with c1 (its only crew); m_here (c1 is there), leaving place_cones and clean_up;
    clean_up after the cones, where m_very's check needs (hazard p3 p4 very) and fails at
    once, and m_normal binds ?l = low, ?c = c1; clean_road; the empty leaf: 8 nodes.
    The plan passes the independent validator: m_very's ``very`` was generalised away,
    not kept (it would have cut the only plan)."""
    domain, problem_path = files(tmp_path, "(hazard p3 p4 low)")
    run = run_files(domain, problem_path)
    steps = [(s.operator, *map(str, s.args)) for s in run.result.plan]
    assert steps == [("place_cones", "c1", "p3", "p4"), ("clean_road", "c1", "p3", "p4", "low")]
    assert run.result.nodes == 8
    ipc = ipc_text(decomposition_tree(run.result, run.engine_problem.tasks))
    assert validate_plan(Path(domain), Path(problem_path), ipc) == []


def test_a_very_serious_hazard_is_cleaned_by_calling_for_help(tmp_path: Path) -> None:
    """The same road at level very: m_very applies (its check is pulled up whole, and
    call_help's (cones p3 p4) too, since check changes nothing)."""
    run = run_files(*files(tmp_path, "(hazard p3 p4 very)"))
    steps = [(s.operator, *map(str, s.args)) for s in run.result.plan]
    assert steps == [
        ("place_cones", "c1", "p3", "p4"),
        ("check", "p3", "p4", "very"),
        ("call_help", "p3", "p4"),
    ]


def test_the_crew_still_walks_to_the_hazard(tmp_path: Path) -> None:
    """c1 starts at p1: get_to walks p1 -> p2 -> p3 (the need says nothing of where the
    crew is, so the walk is searched as before)."""
    run = run_files(*files(tmp_path, "(hazard p3 p4 low)", crew_at="p1"))
    steps = [(s.operator, *map(str, s.args)) for s in run.result.plan]
    assert steps == [
        ("walk", "c1", "p1", "p2"),
        ("walk", "c1", "p2", "p3"),
        ("place_cones", "c1", "p3", "p4"),
        ("clean_road", "c1", "p3", "p4", "low"),
    ]


def test_no_hazard_no_road_to_clear(tmp_path: Path) -> None:
    """Nothing to clean: m_top has no binding at all, and the search ends at its first
    node, having searched everything (no plan, proven; 225 nodes without the need)."""
    run = run_files(*files(tmp_path, ""))
    assert not run.result.found
    assert run.result.nodes == 1
    assert str(run.result.status) == "no plan"
    # The first binding tried, (p1, p1), is blamed on the step that needs the hazard:
    # m_top's (clear_road ?a ?b), written on line 19.
    assert DOMAIN.splitlines()[19 - 1].strip() == ":ordered-subtasks (and (clear_road ?a ?b)))"
    assert run.result.failure is not None
    assert run.result.failure.message == (
        "(top): no method applies (step 1 of m_top, clear_road (domain.hddl:19), "
        "needs `(exists (?any1 - object) (hazard p1 p1 ?any1))`)"
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [("a", True), ("b", False), ("c", False)],
)
def test_an_exists_over_one_literal_is_answered_from_its_facts(value: str, expected: bool) -> None:
    """(exists (?x - t) (p ?y ?x)) with (p a b) and (c a) true, and only b a t: true for
    ?y = a (b is a t); false for c (a is no t) and for b (no fact starts with b)."""
    a, b, c = Obj("a"), Obj("b"), Obj("c")
    world = World({"p": 0}, {"a": a, "b": b, "c": c}, {"object": (a, b, c), "t": (b,)})
    formula = Exists((Typed("?x", ("t",)),), Atom("p", (Var("?y"), Var("?x"))))
    test = compile_test(formula, world, {"?y": "y"})
    state = (frozenset({(a, b), (c, a)}),)
    assert test(state, {"y": Obj(value)}) is expected


def test_an_exists_with_a_repeated_variable_wants_the_same_value_twice() -> None:
    """(exists (?x) (p ?x ?x)): true with (p c c) among the facts, false with (p a b) only."""
    a, b, c = Obj("a"), Obj("b"), Obj("c")
    world = World({"p": 0}, {"a": a, "b": b, "c": c}, {"object": (a, b, c)})
    test = compile_test(Exists((Typed("?x"),), Atom("p", (Var("?x"), Var("?x")))), world, {})
    assert test((frozenset({(a, b), (c, c)}),), {}) is True
    assert test((frozenset({(a, b)}),), {}) is False
