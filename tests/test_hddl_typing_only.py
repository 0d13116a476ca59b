"""Arguments only typed (issue 30): one object per combination of types where a free
variable's value goes only to places no method uses but to type it.

Worked out from the text of the domain below (Woodworking's shape): ``colour``'s third
argument is a machine each method only types -- a sprayer or a brusher -- before it paints
with a machine of its own (``?s``, ``?b``), so ``(colour, 2)`` is such a place, checked
against machine, sprayer and brusher, and accepting sprayers and brushers.  ``m-finish``
leaves ``?m`` free and hands it only there: of the machines sp1 sp2 sp3 br1 br2 sw1 sw2,
the first sprayer and the first brusher are worth trying, and no saw (no method of
``colour`` takes one).  Every machine has a fact of its own, so none is a spare.
"""

from __future__ import annotations

from pathlib import Path

from knowledge.hddl import parse_domain, parse_problem
from knowledge.hddl.decomposition import decomposition_tree, ipc_text
from knowledge.hddl.package import run_models
from knowledge.hddl.planning import compile_problem, deferred_domain
from knowledge.hddl.typing_only import typing_only
from tests.hddl_validation import validate_plan

DOMAIN = """\
(define (domain paint)
  (:requirements :typing :hierarchy)
  (:types sprayer brusher saw - machine part colour)
  (:predicates (painted ?p - part ?c - colour) (has ?m - machine ?c - colour))
  (:task finish :parameters (?p - part ?c - colour))
  (:task colour :parameters (?p - part ?c - colour ?m - machine))
  (:method m-finish :parameters (?p - part ?c - colour ?m - machine) :task (finish ?p ?c)
    :ordered-subtasks (and (colour ?p ?c ?m)))
  (:method m-spray :parameters (?p - part ?c - colour ?m - sprayer ?s - sprayer)
    :task (colour ?p ?c ?m)
    :precondition (has ?s ?c)
    :ordered-subtasks (and (spray ?p ?c ?s)))
  (:method m-brush :parameters (?p - part ?c - colour ?m - brusher ?b - brusher)
    :task (colour ?p ?c ?m)
    :precondition (has ?b ?c)
    :ordered-subtasks (and (brush ?p ?c ?b)))
  (:action spray :parameters (?p - part ?c - colour ?s - sprayer)
    :precondition (has ?s ?c) :effect (painted ?p ?c))
  (:action brush :parameters (?p - part ?c - colour ?b - brusher)
    :precondition (has ?b ?c) :effect (painted ?p ?c))
)
"""

PROBLEM = """\
(define (problem p1) (:domain paint)
  (:objects sp1 sp2 sp3 - sprayer br1 br2 - brusher sw1 sw2 - saw p1 - part
            red blue green white yellow pink grey black - colour)
  (:htn :ordered-subtasks (and (finish p1 {colour})))
  (:init (has sp1 red) (has sp2 blue) (has sp3 green) (has br1 white) (has br2 yellow)
         (has sw1 pink) (has sw2 grey)))
"""


def _tried(domain_text: str, colour: str = "yellow") -> set[str]:
    """The values of ``m-finish``'s ``?m`` its binding offers."""
    domain = parse_domain(domain_text)
    engine_domain, problem = compile_problem(
        domain, parse_problem(PROBLEM.format(colour=colour), domain)
    )
    (method,) = engine_domain.tasks["finish"].methods
    (_, match), *_ = method.bindings
    env = dict(zip(engine_domain.tasks["finish"].params, ("p1", colour), strict=True))
    return {str(v) for values in match.evaluate(problem.state, env) for v in values}


def test_the_machine_colour_takes_is_a_place_only_typed() -> None:
    found = typing_only(deferred_domain(parse_domain(DOMAIN)))
    assert found.checked == {("colour", 2): {("machine",), ("sprayer",), ("brusher",)}}
    assert found.accepted == {("colour", 2): {("sprayer",), ("brusher",)}}


def test_one_machine_of_each_type_a_method_takes_is_tried() -> None:
    assert _tried(DOMAIN) == {"sp1", "br1"}


def test_a_machine_a_method_looks_at_is_tried_in_full() -> None:
    looked_at = DOMAIN.replace(":precondition (has ?b ?c)", ":precondition (has ?m ?c)", 1)
    assert looked_at != DOMAIN
    assert typing_only(deferred_domain(parse_domain(looked_at))).checked == {}
    assert _tried(looked_at) == {"sp1", "sp2", "sp3", "br1", "br2", "sw1", "sw2"}


def test_the_plan_through_the_representative_passes_the_validator(tmp_path: Path) -> None:
    """Yellow is br2's: the plan goes through br1 as ``colour``'s typed machine and br2 as
    the brush, which the independent validator accepts."""
    domain = parse_domain(DOMAIN)
    problem_text = PROBLEM.format(colour="yellow")
    run = run_models(domain, parse_problem(problem_text, domain))
    assert run.result.found
    assert [(s.operator, tuple(map(str, s.args))) for s in run.result.plan] == [
        ("brush", ("p1", "yellow", "br2"))
    ]
    ipc = ipc_text(decomposition_tree(run.result, run.engine_problem.tasks))
    assert "colour p1 yellow br1 -> m-brush" in ipc
    files = tmp_path / "domain.hddl", tmp_path / "problem.hddl"
    files[0].write_text(DOMAIN, encoding="utf-8")
    files[1].write_text(problem_text, encoding="utf-8")
    assert validate_plan(*files, ipc) == []


def test_a_colour_no_machine_has_still_has_no_plan() -> None:
    domain = parse_domain(DOMAIN)
    run = run_models(domain, parse_problem(PROBLEM.format(colour="black"), domain))
    assert not run.result.found
    assert run.result.status.value == "no plan"
