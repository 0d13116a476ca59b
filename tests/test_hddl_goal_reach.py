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
from knowledge.hddl.package import run_files
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
