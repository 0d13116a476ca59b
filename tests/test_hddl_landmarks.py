"""The atoms a goal atom needs (issue 30, :mod:`knowledge.hddl.landmarks`), and the goal
cut that asks them of the tasks left.

The domain is written for this test, after Monroe's compiled observations: ``(told3)``
is the goal; only ``tell3`` adds it and needs ``(told2)``; only ``tell2`` adds that and
needs ``(told1)``; ``tell1`` needs nothing.  Worked out by hand: ``(told3)`` needs
``(told2)``, which needs ``(told1)``.  ``story`` has three methods: one that skips the
second telling, one that tells the third first, and the right one, written in that order.
At the start nothing is told, so a task list without ``second`` cannot add ``(told2)``,
and one whose only ``second`` comes after its only ``third`` cannot add ``(told2)``
before ``(told3)``: both are cut, which the goal alone could not do (``third`` adds the
goal atom in both).
"""

from __future__ import annotations

import pytest

from knowledge.hddl import goal_reach, parse_domain, parse_problem
from knowledge.hddl.landmarks import landmarks
from knowledge.hddl.package import run_models
from knowledge.hddl.planning import compile_problem
from knowledge.hddl.reachability import positive_atoms

DOMAIN = """\
(define (domain telling)
  (:requirements :hierarchy)
  (:predicates (told1) (told2) (told3) (idle))
  (:task story :parameters ())
  (:task first :parameters ())
  (:task second :parameters ())
  (:task third :parameters ())
  (:method m_skip :parameters () :task (story)
    :ordered-subtasks (and (first) (third)))
  (:method m_backwards :parameters () :task (story)
    :ordered-subtasks (and (third) (first) (second)))
  (:method m_right :parameters () :task (story)
    :ordered-subtasks (and (first) (second) (third)))
  (:method m_first :parameters () :task (first) :ordered-subtasks (and (tell1)))
  (:method m_second :parameters () :task (second) :ordered-subtasks (and (tell2)))
  (:method m_third_wait :parameters () :task (third) :ordered-subtasks (and (wait)))
  (:method m_third :parameters () :task (third) :ordered-subtasks (and (tell3)))
  (:action tell1 :parameters () :effect (told1))
  (:action tell2 :parameters () :precondition (told1) :effect (and (told2) (not (told1))))
  (:action tell3 :parameters () :precondition (told2) :effect (and (told3) (not (told2))))
  (:action wait :parameters () :effect (idle))
)
"""

PROBLEM = """\
(define (problem t1) (:domain telling)
  (:htn :ordered-subtasks (and (story)))
  (:init)
  (:goal (told3)))
"""


def _names(found: list) -> list[tuple[str, tuple[str, ...], tuple[int, ...]]]:
    return [(a.predicate, tuple(str(t.name) for t in a.args), up) for a, up in found]


def test_the_chain_of_needs_behind_a_goal_atom() -> None:
    domain = parse_domain(DOMAIN)
    goal = parse_problem(PROBLEM, domain).goal
    assert goal is not None
    # index 0 is the goal atom (told3); (told2) is needed for it, (told1) for (told2)
    assert _names(landmarks(domain, positive_atoms(goal))) == [
        ("told2", (), (0,)),
        ("told1", (), (1,)),
    ]


def test_an_action_s_needs_are_taken_on_the_atom_s_own_arguments() -> None:
    """``stack ?x ?y`` adds ``(on ?x ?y)`` and needs ``(holding ?x)`` and ``(clear ?y)``;
    ``put-on`` adds it too, needing ``(holding ?x)`` and ``(near ?x ?z)`` for a ``?z``
    the atom does not fix.  So ``(on a b)`` needs ``(holding a)`` alone: the only need
    both share, on the atom's arguments.  ``pick a`` adds that and needs ``(clear a)``
    and ``(handempty)``; no action adds ``clear``, which is then as it was at the start
    at every node, so only ``(handempty)`` is kept."""
    domain = parse_domain("""\
(define (domain blocks)
  (:requirements :typing :hierarchy)
  (:types block)
  (:predicates (on ?x ?y - block) (holding ?x - block) (clear ?x - block)
               (near ?x ?y - block) (handempty))
  (:task put :parameters (?x ?y - block))
  (:method m_put :parameters (?x ?y - block) :task (put ?x ?y)
    :ordered-subtasks (and (stack ?x ?y)))
  (:action stack :parameters (?x ?y - block)
    :precondition (and (holding ?x) (clear ?y))
    :effect (and (on ?x ?y) (handempty) (not (holding ?x))))
  (:action put-on :parameters (?x ?y ?z - block)
    :precondition (and (holding ?x) (near ?x ?z))
    :effect (on ?x ?y))
  (:action pick :parameters (?x - block)
    :precondition (and (clear ?x) (handempty))
    :effect (and (holding ?x) (not (handempty))))
)
""")
    problem = parse_problem(
        """\
(define (problem b1) (:domain blocks)
  (:objects a b - block)
  (:htn :ordered-subtasks (and (put a b)))
  (:init (clear a) (clear b) (handempty))
  (:goal (on a b)))
""",
        domain,
    )
    assert problem.goal is not None
    assert _names(landmarks(domain, positive_atoms(problem.goal))) == [
        ("holding", ("a",), (0,)),
        ("handempty", (), (1,)),
    ]


def test_a_task_list_that_cannot_add_a_needed_atom_or_not_in_order_is_cut() -> None:
    domain = parse_domain(DOMAIN)
    _, problem = compile_problem(domain, parse_problem(PROBLEM, domain))
    reach = problem.goal_reach
    assert reach is not None
    row = {p.name: i for i, p in enumerate(domain.predicates)}  # a state's rows

    def state(*facts: str) -> tuple[frozenset[tuple[str, ...]], ...]:
        rows: list[set[tuple[str, ...]]] = [set() for _ in row]
        for predicate in facts:
            rows[row[predicate]].add(())
        return tuple(frozenset(r) for r in rows)

    first, second, third = ("first", ()), ("second", ()), ("third", ())
    assert state() == problem.state
    assert reach(state(), (first, second, third))
    assert not reach(state(), (first, third))  # nothing left adds (told2)
    assert not reach(state(), (third, first, second))  # (told2) only after (told3) can come
    # Told twice already: only the third telling is needed, and ``third`` can make it.
    assert reach(state("told2"), (third,))
    # Told all three: nothing more is needed, whatever is false.
    assert reach(state("told3"), ())
    assert reach(state("told3"), (first,))


def test_the_cut_keeps_the_plan_and_comes_sooner(monkeypatch: pytest.MonkeyPatch) -> None:
    """m_skip and m_backwards can never plan: with the needs asked both are cut as soon as
    they are chosen; with the goal alone each is decomposed until its telling fails.  The
    same plan either way, in fewer nodes with the needs."""
    domain = parse_domain(DOMAIN)
    run = run_models(domain, parse_problem(PROBLEM, domain))
    monkeypatch.setattr(goal_reach, "landmarks", lambda *_: [])
    alone = run_models(domain, parse_problem(PROBLEM, domain))
    assert [s.operator for s in run.result.plan] == ["tell1", "tell2", "tell3"]
    assert [s.operator for s in alone.result.plan] == ["tell1", "tell2", "tell3"]
    assert run.result.nodes < alone.result.nodes
