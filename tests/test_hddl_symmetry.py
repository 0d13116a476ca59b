"""Spare objects (issue 30): interchangeable tools the bindings leave out.

Worked out from the text of the domain below: ``tool`` objects appear in no effect, so
their facts never change.  ``t1``, ``t2`` and ``t3`` each have only ``(sharp ?t)``: t2 and
t3 are spares of t1.  ``t4`` is blunt (a different fact) and stays; ``t5`` is named by the
goal's task network and stays; ``t6`` and ``t7`` are related by ``(paired t6 t7)`` and stay.
A ``part`` is changed by ``cut``, so no part is a spare.
"""

from __future__ import annotations

from knowledge.hddl import parse_domain, parse_problem
from knowledge.hddl.changes import Changes
from knowledge.hddl.package import run_models
from knowledge.hddl.planning import compile_problem, make_world
from knowledge.hddl.symmetry import spares

DOMAIN = """\
(define (domain workshop)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types tool part)
  (:predicates (sharp ?t - tool) (paired ?a ?b - tool) (cut ?p - part) (used ?t - tool ?p - part))
  (:task make :parameters (?p - part))
  (:task hold :parameters (?t - tool))
  (:method m-make :parameters (?p - part ?t - tool) :task (make ?p)
    :precondition (sharp ?t)
    :ordered-subtasks (and (cut ?p ?t)))
  (:method m-hold :parameters (?t - tool) :task (hold ?t) :ordered-subtasks (and (rest)))
  (:action cut :parameters (?p - part ?t - tool)
    :precondition (and (sharp ?t) (not (cut ?p)))
    :effect (cut ?p))
  (:action rest :parameters ())
)
"""

PROBLEM = """\
(define (problem w1) (:domain workshop)
  (:objects t1 t2 t3 t4 t5 t6 t7 - tool p1 p2 - part)
  (:htn :ordered-subtasks (and (make p1) (hold t5) (make p2)))
  (:init (sharp t1) (sharp t2) (sharp t3) (sharp t5) (sharp t6) (sharp t7) (paired t6 t7)))
"""


def _spares(domain_text: str, problem_text: str) -> set[str]:
    domain = parse_domain(domain_text)
    problem = parse_problem(problem_text, domain)
    world = make_world(domain, problem)
    return {str(o) for o in spares(domain, problem, world, Changes.of(domain))}


def test_tools_with_the_same_unchanging_facts_are_spares_of_the_first() -> None:
    assert _spares(DOMAIN, PROBLEM) == {"t2", "t3"}


def test_a_domain_that_compares_two_variables_has_no_spares() -> None:
    compared = DOMAIN.replace(
        ":precondition (sharp ?t)\n", ":precondition (and (sharp ?t) (not (= ?t ?t)))\n"
    )
    assert compared != DOMAIN
    assert _spares(compared, PROBLEM) == set()


def test_an_object_an_effect_can_mention_is_no_spare() -> None:
    wearing = DOMAIN.replace(":effect (cut ?p))", ":effect (and (cut ?p) (used ?t ?p)))")
    assert wearing != DOMAIN
    assert _spares(wearing, PROBLEM) == set()


def test_the_plan_uses_the_representative_and_the_search_never_tries_a_spare() -> None:
    domain = parse_domain(DOMAIN)
    engine_domain, problem = compile_problem(domain, parse_problem(PROBLEM, domain))
    method = engine_domain.tasks["make"].methods[0]
    (_, match), *_ = method.bindings
    env = dict.fromkeys(engine_domain.tasks["make"].params, "p1")
    tried = {str(v) for values in match.evaluate(problem.state, env) for v in values}
    assert tried == {"t1", "t5", "t6", "t7"}  # the sharp tools but the spares
    run = run_models(domain, parse_problem(PROBLEM, domain))
    assert [(s.operator, tuple(map(str, s.args))) for s in run.result.plan] == [
        ("cut", ("p1", "t1")),
        ("rest", ()),
        ("cut", ("p2", "t1")),
    ]
    # With t1 blunt, t2 stands for t2 and t3.
    blunt = PROBLEM.replace("(sharp t1) ", "")
    run = run_models(domain, parse_problem(blunt, domain))
    assert tuple(map(str, run.result.plan[0].args)) == ("p1", "t2")
