"""A variable chosen when the subtask that first uses it comes up (issue 30,
``knowledge/hddl/deferral.py``).

The domain is written for these tests.  Five parts each carry one of six finishes; the
initial network processes them in turn, and asks for each part's old finish through a
variable of its own (as Woodworking's problems do).  ``m-process`` sands a part from its
old finish to any new one: six ways, all of them good, since nothing later looks at the new
finish.  Worked out by hand:

* chosen with the network (as before), the five variables come in 6^5 = 7,776 bindings, of
  which one is right; a wrong old finish for part k is found only when part k is reached, so
  depth-first search sands the parts before it again for every binding tried -- thousands of
  nodes before the right binding turns up;
* chosen when part k comes up, a wrong old finish fails one node down (``sand``'s
  precondition is pulled up into ``m-process``).  The finishes are tried f1 first, so part
  k's right one comes after 5, 4, 3, 2 and 1 wrong ones: 15 nodes that fail.  The plan's
  own path has 16: the network's task, then per part ``process`` and ``sand``, a piece of
  the network for each of the four parts after the first, and the empty leaf.  31 nodes.
* and where the piece of the network that chooses part k's variable also checks what
  ``process`` needs when it starts (``(finished ?p ?old)``, every method of it checks it
  through ``sand``: :func:`~knowledge.hddl.planning.start_needs`), no wrong finish is
  ever bound: the 16 nodes of the plan's own path.
"""

from __future__ import annotations

import pytest

from engine.tofs import RunResult
from knowledge.hddl import parse_domain, parse_problem
from knowledge.hddl import planning as hddl_planning
from knowledge.hddl.decomposition import decomposition_tree, ipc_text
from knowledge.hddl.deferral import defer_method, deferred_domain, is_continuation
from knowledge.hddl.package import run_models
from knowledge.hddl.validation import validate_plan_text

DOMAIN = """\
(define (domain finish)
  (:requirements :typing :hierarchy :negative-preconditions)
  (:types part finish)
  (:predicates (finished ?p - part ?f - finish) (done ?p - part) (inspected ?p - part))
  (:task process :parameters (?p - part ?old - finish))
  (:task check :parameters (?p - part))
  (:method m-process :parameters (?p - part ?old ?new - finish)
    :task (process ?p ?old)
    :ordered-subtasks (and (sand ?p ?old ?new)))
  (:method m-check :parameters (?p ?q - part ?f - finish)
    :task (check ?p)
    :precondition (done ?p)
    :ordered-subtasks (and (t1 (inspect ?p)) (t2 (process ?q ?f)) (t3 (inspect ?q))))
  (:action sand :parameters (?p - part ?old ?new - finish)
    :precondition (and (finished ?p ?old) (not (done ?p)))
    :effect (and (not (finished ?p ?old)) (finished ?p ?new) (done ?p)))
  (:action inspect :parameters (?p - part) :effect (inspected ?p))
)
"""

PROBLEM = """\
(define (problem five) (:domain finish)
  (:objects p1 p2 p3 p4 p5 - part f1 f2 f3 f4 f5 f6 - finish)
  (:htn :parameters (?a ?b ?c ?d ?e - finish)
        :ordered-subtasks (and (process p1 ?a) (process p2 ?b) (process p3 ?c)
                               (process p4 ?d) (process p5 ?e)))
  (:init (finished p1 f6) (finished p2 f5) (finished p3 f4) (finished p4 f3)
         (finished p5 f2)))
"""


def test_a_method_is_cut_before_the_subtask_that_first_uses_an_unbound_variable() -> None:
    domain = parse_domain(DOMAIN)
    check = next(m for m in domain.methods if m.name == "m-check")
    (head, none), (rest, task) = defer_method(check)
    # ?q and ?f first show in t2: the head keeps ?p (its task's) and calls the rest.
    assert none is None and task is not None
    assert [p.name for p in head.params] == ["?p"]
    assert [s.name for s in head.subtasks] == ["inspect", "m-check@1"]
    # The rest carries nothing: ?p is not used after t1 (only what later steps use goes).
    assert head.subtasks[1].args == ()
    assert task.name == rest.task.name == "m-check@1" and is_continuation(task.name)
    assert [p.name for p in task.params] == []
    # ... and chooses ?q and ?f itself.
    assert [p.name for p in rest.params] == ["?q", "?f"]
    assert [s.name for s in rest.subtasks] == ["process", "inspect"]
    assert rest.precondition is None
    # A method whose variables are all bound by its first step is left as it is.
    process = next(m for m in domain.methods if m.name == "m-process")
    assert defer_method(process) == [(process, None)]
    cut = deferred_domain(domain)
    assert [m.name for m in cut.methods] == ["m-process", "m-check", "m-check@1"]
    assert [t.name for t in cut.tasks] == ["process", "check", "m-check@1"]


def _run(node_budget: int | None = None, *, through: bool = True) -> tuple[RunResult, str]:
    domain = parse_domain(DOMAIN)
    problem = parse_problem(PROBLEM, domain)
    run = run_models(domain, problem, node_budget=node_budget, through=through)
    tree = decomposition_tree(run.result, run.engine_problem.tasks) if run.result.found else None
    return run.result, ipc_text(tree) if tree is not None else ""


def test_the_network_variables_chosen_late_find_the_plan_at_once() -> None:
    assert _run(through=False)[0].nodes == 31  # worked out above, static needs only
    result, ipc = _run()
    assert result.found
    assert result.nodes == 16  # worked out above: process's need checked by the network
    # The plan reads as the domain's own methods: no continuation in the IPC text.
    assert "@" not in ipc
    assert "__top_method" in ipc  # the network with variables, as the IPC format names it
    assert validate_plan_text(DOMAIN, PROBLEM, ipc) == []
    # each part sanded from the finish it had
    for part, old in [("p1", "f6"), ("p2", "f5"), ("p3", "f4"), ("p4", "f3"), ("p5", "f2")]:
        assert f"sand {part} {old} " in ipc


def test_chosen_with_the_network_the_same_problem_needs_thousands_of_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hddl_planning, "deferred_domain", lambda domain: domain)
    monkeypatch.setattr(hddl_planning, "defer_method", lambda method: [(method, None)])
    result, _ = _run(node_budget=1_000)
    assert not result.found  # the budget runs out first


def test_a_continuation_reads_as_the_rest_of_its_method() -> None:
    from knowledge.hddl.decomposition import call_text

    assert call_text("m-check@1", ()) == "(m-check from step 2)"
    assert call_text("__top_method@3", ("f2", "f5")) == "(__top_method from step 4: f2 f5)"
    assert call_text("sand", ("p1", "f6", "f1")) == "(sand p1 f6 f1)"
