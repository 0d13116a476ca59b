"""The goal cut (issue 30): a node whose state lacks a goal literal that no task left can
add is a dead end at once, not at the leaf.

The domain is written for this test: ``visit`` has two methods, one that walks on by
``step`` and one that only ``rest``s; only ``flag`` adds ``(flagged)``, and only the
method ``m_flag`` of ``finish`` calls it.  The problem's goal asks for ``(flagged)``.
Worked out by hand: once ``finish`` has been decomposed without ``m_flag`` (``m_skip``,
listed first), no task left can add ``flagged``, so every node below is cut; the plan
takes ``m_flag``.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.hddl import parse_domain, parse_problem
from knowledge.hddl.package import run_files, run_models
from knowledge.hddl.planning import compile_problem

DOMAIN = """\
(define (domain flags)
  (:requirements :typing :hierarchy)
  (:types place)
  (:predicates (at ?p - place) (road ?a ?b - place) (flagged))
  (:task tour :parameters ())
  (:task walk :parameters (?to - place))
  (:task finish :parameters ())
  (:method m_tour :parameters (?to - place) :task (tour)
    :ordered-subtasks (and (finish) (walk ?to)))
  (:method m_walk :parameters (?from ?to - place) :task (walk ?to)
    :precondition (and (at ?from) (road ?from ?to))
    :ordered-subtasks (and (step ?from ?to)))
  (:method m_skip :parameters () :task (finish) :ordered-subtasks (and (rest)))
  (:method m_flag :parameters () :task (finish) :ordered-subtasks (and (flag)))
  (:action step :parameters (?a ?b - place)
    :precondition (and (at ?a) (road ?a ?b))
    :effect (and (not (at ?a)) (at ?b)))
  (:action rest :parameters ())
  (:action flag :parameters () :effect (flagged))
)
"""

PROBLEM = """\
(define (problem f1) (:domain flags)
  (:objects a b c - place)
  (:htn :ordered-subtasks (and (tour)))
  (:init (at a) (road a b) (road a c))
  (:goal (flagged)))
"""


def test_a_task_list_that_can_no_longer_add_a_goal_literal_is_cut(tmp_path: Path) -> None:
    domain = parse_domain(DOMAIN)
    _, problem = compile_problem(domain, parse_problem(PROBLEM, domain))
    assert problem.goal_reach is not None
    start = problem.state
    # (flagged) is false at the start: a list holding finish can still add it ...
    assert problem.goal_reach(start, (("finish", ()), ("walk", ("b",))))
    # ... one holding only walk, rest or step cannot.
    assert not problem.goal_reach(start, (("walk", ("b",)),))
    assert not problem.goal_reach(start, (("rest", ()), ("walk", ("b",))))
    (tmp_path / "domain.hddl").write_text(DOMAIN, encoding="utf-8")
    (tmp_path / "p.hddl").write_text(PROBLEM, encoding="utf-8")
    run = run_files(str(tmp_path / "domain.hddl"), str(tmp_path / "p.hddl"))
    assert [s.operator for s in run.result.plan] == ["flag", "step"]
    # m_skip's branch (rest, then walk b or c) is cut at once, before walk is expanded.
    assert run.result.stats["goal_cut"] >= 1


def test_no_goal_no_cut() -> None:
    domain = parse_domain(DOMAIN)
    text = PROBLEM.replace("\n  (:goal (flagged)))", ")")
    _, problem = compile_problem(domain, parse_problem(text, domain))
    assert problem.goal_reach is None


STACKS = """\
(define (domain stacks)
  (:requirements :typing :hierarchy)
  (:types block)
  (:constants table-top - block)
  (:predicates (on ?x ?y - block) (clear ?x - block))
  (:task put-on :parameters (?x ?y - block))
  (:task shuffle :parameters (?x - block))
  (:task to-top :parameters (?x - block))
  (:task tidy :parameters ())
  (:method m-put :parameters (?x ?y - block) :task (put-on ?x ?y)
    :ordered-subtasks (and (stack ?x ?y)))
  (:method m-shuffle :parameters (?x ?z - block) :task (shuffle ?x)
    :ordered-subtasks (and (stack ?x ?z)))
  (:method m-top :parameters (?x - block) :task (to-top ?x)
    :ordered-subtasks (and (stack ?x table-top)))
  (:method m-tidy :parameters () :task (tidy) :ordered-subtasks (and (dust)))
  (:action stack :parameters (?x ?y - block) :effect (on ?x ?y))
  (:action dust :parameters () :effect (clear table-top))
)
"""

STACKS_PROBLEM = """\
(define (problem s1) (:domain stacks)
  (:objects a b c - block)
  (:htn :ordered-subtasks (and (put-on b c) (put-on a b)))
  (:init (on b c))
  (:goal (and (on a b) (on b c) (on c table-top))))
"""


def test_a_goal_atom_is_matched_on_the_arguments_of_the_tasks_left() -> None:
    """Worked out from the text: ``put-on ?x ?y`` adds ``(on ?x ?y)`` and nothing else;
    ``shuffle ?x`` adds ``(on ?x ANY)`` (``?z`` is its method's own); ``to-top ?x`` adds
    ``(on ?x table-top)``; ``tidy`` adds no ``on``.  At the start ``(on b c)`` holds and
    ``(on a b)`` and ``(on c table-top)`` do not."""
    domain = parse_domain(STACKS)
    _, problem = compile_problem(domain, parse_problem(STACKS_PROBLEM, domain))
    reach = problem.goal_reach
    assert reach is not None
    start = problem.state
    both = (("put-on", ("a", "b")), ("to-top", ("c",)))
    assert reach(start, both)
    # put-on b c adds (on b c), which holds already; (on a b) is lost without put-on a b.
    assert not reach(start, (("put-on", ("b", "c")), ("to-top", ("c",))))
    assert reach(start, (("shuffle", ("a",)), ("to-top", ("c",))))  # a may go on b
    assert reach(start, (("shuffle", ("c",)), ("put-on", ("a", "b"))))  # c on table-top too
    assert not reach(start, (("shuffle", ("b",)), ("put-on", ("a", "b"))))  # b's, not c's
    assert not reach(start, (("to-top", ("a",)), ("put-on", ("a", "b"))))  # (on c table-top)
    assert not reach(start, (("tidy", ()), ("put-on", ("a", "b"))))


LOOKS = """\
(define (domain looks)
  (:requirements :typing :hierarchy :equality)
  (:types block)
  (:constants a - block)
  (:predicates (seen))
  (:task look :parameters (?x - block))
  (:task survey :parameters (?x ?y - block))
  (:method m-look-a :parameters (?x - block) :task (look ?x)
    :precondition (= ?x a)
    :ordered-subtasks (and (see)))
  (:method m-look-other :parameters (?x - block) :task (look ?x)
    :ordered-subtasks (and (rest)))
  (:method m-survey :parameters (?x ?y - block) :task (survey ?x ?y)
    :ordered-subtasks (and (look ?y) (rest)))
  (:action see :parameters () :effect (seen))
  (:action rest :parameters ())
)
"""


def test_a_method_whose_precondition_fixes_an_argument_adds_only_for_that_argument() -> None:
    """Worked out from the text: only ``m-look-a`` reaches ``see``, the one adder of
    ``(seen)``, and only when ``?x`` is ``a``; ``survey ?x ?y`` looks at ``?y``, so it can
    add ``(seen)`` only when its second argument is ``a``."""
    domain = parse_domain(LOOKS)
    problem_text = """\
(define (problem l1) (:domain looks)
  (:objects b - block)
  (:htn :ordered-subtasks (and (look b)))
  (:init)
  (:goal (seen)))
"""
    _, problem = compile_problem(domain, parse_problem(problem_text, domain))
    reach = problem.goal_reach
    assert reach is not None
    start = problem.state
    assert reach(start, (("look", ("a",)),))
    assert not reach(start, (("look", ("b",)),))
    assert reach(start, (("survey", ("b", "a")),))
    assert not reach(start, (("survey", ("a", "b")),))
    # the plan cannot be made: (look b) can only rest, and the cut says so at the root
    run = run_models(domain, parse_problem(problem_text, domain))
    assert not run.result.found
    assert run.result.stats["goal_cut"] == 1


PAINT = """\
(define (domain paint)
  (:requirements :typing :hierarchy)
  (:types part colour)
  (:predicates (untreated ?x - part) (colour ?x - part ?c - colour))
  (:task process :parameters (?x - part ?c - colour))
  (:method own :parameters (?x - part ?c - colour) :task (process ?x ?c)
    :ordered-subtasks (and (paint ?x ?c)))
  (:method other :parameters (?x ?y - part ?c - colour) :task (process ?x ?c)
    :ordered-subtasks (and (paint ?y ?c)))
  (:action paint :parameters (?x - part ?c - colour)
    :precondition (untreated ?x)
    :effect (and (not (untreated ?x)) (colour ?x ?c)))
)
"""

PAINT_PROBLEM = """\
(define (problem p1) (:domain paint)
  (:objects p1 p2 - part red blue - colour)
  (:htn :parameters (?c1 ?c2 - colour)
    :ordered-subtasks (and (process p1 ?c1) (process p2 ?c2)))
  (:init (untreated p1) (untreated p2))
  (:goal (and (colour p1 blue) (colour p2 red))))
"""


def test_the_network_left_adds_what_its_steps_add_when_their_preconditions_can_hold() -> None:
    """Worked out from the text: the initial network's colours are chosen late, so once
    ``process p1`` is done the rest of the network is a continuation that does
    ``process p2 ?c2``.  Through ``other``, that task can paint *any* part, so by what it
    adds alone it could still make ``(colour p1 blue)``; but ``paint`` needs the part
    ``untreated``, which painting p1 undid and nothing left adds.  So p1 painted red is a
    dead end as soon as p1 is done; p1 red and still untreated is not (``other`` could
    paint it blue); p1 painted blue is not."""
    domain = parse_domain(PAINT)
    engine_domain, problem = compile_problem(domain, parse_problem(PAINT_PROBLEM, domain))
    reach = problem.goal_reach
    assert reach is not None
    rests = [name for name in engine_domain.tasks if name.startswith("__top_method@")]
    assert len(rests) == 1  # the network after its first step
    rest = ((rests[0], ()),)
    row = {p.name: i for i, p in enumerate(domain.predicates)}  # a state's rows

    def state(*facts: tuple[str, ...]) -> tuple[frozenset[tuple[str, ...]], ...]:
        rows: list[set[tuple[str, ...]]] = [set(), set()]
        for predicate, *args in facts:
            rows[row[predicate]].add(tuple(args))
        return tuple(frozenset(r) for r in rows)

    assert not reach(state(("colour", "p1", "red"), ("untreated", "p2")), rest)
    assert reach(state(("colour", "p1", "red"), ("untreated", "p1"), ("untreated", "p2")), rest)
    assert reach(state(("colour", "p1", "blue"), ("untreated", "p2")), rest)
    run = run_models(domain, parse_problem(PAINT_PROBLEM, domain))
    # Red comes first: p1 painted red by its own method is cut at once; a plan paints
    # each part once, in the goal's colour (p2 first, through ``other``, as it happens).
    assert sorted((s.operator, tuple(map(str, s.args))) for s in run.result.plan) == [
        ("paint", ("p1", "blue")),
        ("paint", ("p2", "red")),
    ]
    assert run.result.stats["goal_cut"] >= 1


ERRANDS = """\
(define (domain errands)
  (:requirements :typing :hierarchy :equality)
  (:types person)
  (:constants alice - person)
  (:predicates (l1))
  (:task tlt :parameters ())
  (:task chore :parameters (?p - person))
  (:task errand :parameters (?p - person))
  (:task climb :parameters (?p - person))
  (:method m_tlt_chore :parameters (?p - person) :task (tlt)
    :ordered-subtasks (and (chore ?p)))
  (:method m_tlt_errand :parameters (?p - person) :task (tlt)
    :ordered-subtasks (and (errand ?p)))
  (:method m_chore :parameters (?p ?q - person) :task (chore ?p)
    :ordered-subtasks (and (climb ?q)))
  (:method m_errand :parameters (?p - person) :task (errand ?p)
    :ordered-subtasks (and (climb ?p)))
  (:method m_climb_seen :parameters (?p - person) :task (climb ?p)
    :precondition (= ?p alice)
    :ordered-subtasks (and (seen_climb)))
  (:method m_climb :parameters (?p - person) :task (climb ?p)
    :ordered-subtasks (and (plain_climb ?p)))
  (:action seen_climb :parameters () :effect (l1))
  (:action plain_climb :parameters (?p - person))
)
"""

ERRANDS_PROBLEM = """\
(define (problem e1) (:domain errands)
  (:objects bob - person)
  (:htn :ordered-subtasks (and (tlt)))
  (:init)
  (:goal (l1)))
"""


def test_the_steps_a_goal_atom_s_guarded_way_fixes_are_tried_first() -> None:
    """Worked out from the text, as Monroe-PO's observed actions are: only ``seen_climb``
    adds ``(l1)``, and only ``m_climb_seen`` calls it, for ``alice`` alone.  ``errand ?p``
    climbs ``?p`` itself, so it keeps that guard: it adds ``(l1)`` only for ``alice``;
    ``chore ?p`` climbs a ``?q`` of its own, which may be anyone, so the guard is dropped
    and ``chore`` may add ``(l1)`` whoever ``?p`` is.  Ranked, ``errand alice`` fixes one
    argument of a guarded way and comes before ``chore alice``, written first; the others
    fix none and keep their order."""
    domain = parse_domain(ERRANDS)
    _, problem = compile_problem(domain, parse_problem(ERRANDS_PROBLEM, domain))
    assert problem.goal_order is not None
    ranked, rank = problem.goal_order
    assert {"tlt", "errand", "chore"} <= ranked
    assert "climb" not in ranked  # its steps' ways fix nothing: (seen_climb) has no argument
    assert rank((("errand", ("alice",)),)) > 0
    assert rank((("errand", ("bob",)),)) == 0
    assert rank((("chore", ("alice",)),)) == 0
    assert rank((("climb", ("alice",)), ("chore", ("bob",)))) == rank((("errand", ("alice",)),))
    # Where two alternatives' steps fix as much, the one whose guarded step comes sooner
    # ranks first: what is observed happens in its order.
    assert rank((("chore", ("bob",)), ("climb", ("alice",)))) > 0
    assert rank((("chore", ("bob",)), ("climb", ("alice",)))) < rank(
        (("climb", ("alice",)), ("chore", ("bob",)))
    )
    run = run_models(domain, parse_problem(ERRANDS_PROBLEM, domain))
    assert [s.operator for s in run.result.plan] == ["seen_climb"]
    first = run.result.expansions[0]
    assert (first.method, dict(first.bindings)) == ("m_tlt_errand", {"?p": "alice"})


PAIRS = """\
(define (domain pairs)
  (:requirements :typing :hierarchy :equality)
  (:types person)
  (:constants alice - person)
  (:predicates (l1))
  (:task tlt :parameters ())
  (:task climb :parameters (?p - person))
  (:method m_tlt :parameters (?b ?a - person) :task (tlt)
    :ordered-subtasks (and (climb ?a) (climb ?b))
    :constraints (not (= ?a ?b)))
  (:method m_climb_seen :parameters (?p - person) :task (climb ?p)
    :precondition (= ?p alice)
    :ordered-subtasks (and (seen_climb)))
  (:method m_climb :parameters (?p - person) :task (climb ?p)
    :ordered-subtasks (and (plain_climb ?p)))
  (:action seen_climb :parameters () :effect (l1))
  (:action plain_climb :parameters (?p - person))
)
"""

PAIRS_PROBLEM = """\
(define (problem p1) (:domain pairs)
  (:objects bob - person)
  (:htn :ordered-subtasks (and (tlt)))
  (:init)
  (:goal (l1)))
"""


def test_of_two_ways_that_fix_as_much_the_one_whose_guarded_step_comes_sooner_is_first() -> None:
    """Worked out from the text: ``m_tlt`` climbs ``?a`` then ``?b``, and ``?b`` is bound
    first, so as written the first binding with alice in it is ``?b`` alice, ``?a`` bob:
    bob climbs first, then alice's climb is the one observed.  ``?b`` bob, ``?a`` alice
    fixes the guard as much, with alice's climb first; it is tried first, and its plan
    is alice's observed climb, then bob's."""
    domain = parse_domain(PAIRS)
    run = run_models(domain, parse_problem(PAIRS_PROBLEM, domain))
    first = run.result.expansions[0]
    assert (first.method, dict(first.bindings)) == ("m_tlt", {"?b": "bob", "?a": "alice"})
    assert [s.operator for s in run.result.plan] == ["seen_climb", "plain_climb"]
