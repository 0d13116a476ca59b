"""Failures remembered (``SearchOptions.memo_failures``, on for HDDL): in first-plan mode
a child whose state and remaining tasks were searched before, in vain, is not searched
again -- where every loop cut of that search referred to a node inside it, so that it
comes out the same wherever the node comes up.

Monroe's plan recognition asks for it: the top task tries each person in turn, and the
persons who stand at the same place leave the same task list in the same state once the
person is used up (``generate_temp_electricity marketplace``, then the heating): five
persons at the marketplace were five searches of one subtree.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.tofs import RunResult, SearchOptions, Status, plan
from engine.tofs.explanation import describe_alternative
from knowledge.hddl import parse_domain, parse_problem, read_domain, read_problem
from knowledge.hddl.planning import compile_problem

EXAMPLES = Path(__file__).resolve().parent.parent / "knowledge" / "hddl" / "examples"
REPAIR = Path(__file__).resolve().parent / "data" / "hddl" / "repair"

# (top) picks an item, touches it (which changes nothing) and must then (finish): each way
# of finishing steps on a thing, which uses up (ready), and then fails for want of it.
# ``(next ...)`` tells the items apart: without it i2 and i3 would be spares of i1 (never
# tried, see test_hddl_symmetry), and there would be nothing left to remember.  m_top
# looks at its item, ``(here ?x)``: an item only typed would be tried once, the first
# (test_hddl_typing_only).
DOMAIN = """\
(define (domain touch)
  (:requirements :typing :hierarchy)
  (:types item thing)
  (:predicates (ready) (stepped ?y - thing) (next ?x ?z - item) (here ?x - item))
  (:task top :parameters ())
  (:task finish :parameters ())
  (:method m_top
    :parameters (?x - item)
    :task (top)
    :precondition (here ?x)
    :ordered-subtasks (and (touch ?x) (finish)))
  (:method m_finish
    :parameters (?y - thing)
    :task (finish)
    :ordered-subtasks (and (step ?y) (fail ?y)))
  (:action touch :parameters (?x - item))
  (:action step
    :parameters (?y - thing)
    :effect (and (not (ready)) (stepped ?y)))
  (:action fail
    :parameters (?y - thing)
    :precondition (and (ready) (stepped ?y)))
)
"""

PROBLEM = """\
(define (problem p) (:domain touch)
  (:objects i1 i2 i3 - item a b - thing)
  (:htn :ordered-subtasks (and (top)))
  (:init (ready) (next i1 i2) (next i2 i3) (here i1) (here i2) (here i3)))
"""


def run(domain_text: str, problem_text: str, memo: bool) -> RunResult:
    domain = parse_domain(domain_text)
    engine_domain, engine_problem = compile_problem(domain, parse_problem(problem_text, domain))
    return plan(engine_domain, engine_problem, options(memo))


def options(memo: bool) -> SearchOptions:
    return SearchOptions(
        mode="first",
        prune_repeats=True,
        prune_recursion=True,
        record_failed_alternatives=True,
        memo_failures=memo,
    )


@pytest.mark.parametrize(("memo", "nodes"), [(False, 19), (True, 9)])
def test_a_failed_task_list_is_not_searched_again(memo: bool, nodes: int) -> None:
    """By hand.  The root, (top), is node 1.  m_top with i1: node 2, (touch i1) and
    (finish); touch changes nothing, so node 3 is (finish) in the initial state.  m_finish
    with a: node 4, (step a) (fail a); step applies: node 5, (fail a), which cannot apply
    ((ready) is gone; step changes both its literals, so neither was pulled up into
    m_finish).  The same with b: nodes 6 and 7.  Six nodes for i1, and as many for i2 and
    i3 when nothing is remembered: 19.  Remembered, (finish) in the initial state failed
    under i1, so i2 and i3 get one node each (their own touch, whose task lists differ)
    and stop there: 9.  Either way nothing was cut, so there is no plan, proven."""
    result = run(DOMAIN, PROBLEM, memo)
    assert result.nodes == nodes
    assert result.status == Status.NO_PLAN
    assert result.stats["known_failures"] == (2 if memo else 0)


def first_plan(domain: Path, problem: Path, memo: bool) -> tuple[Status, list[tuple[str, ...]]]:
    hddl_domain = read_domain(domain)
    engine_domain, engine_problem = compile_problem(hddl_domain, read_problem(problem, hddl_domain))
    result = plan(engine_domain, engine_problem, options(memo))
    return result.status, [(s.operator, *map(str, s.args)) for s in result.plan]


@pytest.mark.parametrize(
    ("domain", "problem"),
    [
        (EXAMPLES / "delivery-domain.hddl", EXAMPLES / "delivery-p1.hddl"),
        (EXAMPLES / "delivery-domain.hddl", EXAMPLES / "delivery-stranded.hddl"),
        (EXAMPLES / "delivery-domain.hddl", EXAMPLES / "delivery-unsolvable.hddl"),
        (EXAMPLES / "lights-domain.hddl", EXAMPLES / "lights-p1.hddl"),
        (REPAIR / "courier-domain.hddl", REPAIR / "courier-p1.hddl"),
    ],
)
def test_remembering_changes_no_answer(domain: Path, problem: Path) -> None:
    """A remembered failure only skips a subtree that fails: the same search otherwise,
    so the same first plan, or the same status where there is none."""
    assert first_plan(domain, problem, True) == first_plan(domain, problem, False)


# A failure that holds only where it was found.  Under (g), (h) calls (g) again in the
# same state, which recursion pruning cuts because (g) is still being decomposed above: so
# (h) (finish) fails there.  Straight under (top), the same (h) (finish) in the same state
# has a plan: (g) is not open, so it is done by ok, then z makes (finish) possible.
RECURSION = """\
(define (domain again)
  (:requirements :hierarchy)
  (:predicates (zdone))
  (:task top :parameters ())
  (:task g :parameters ())
  (:task h :parameters ())
  (:method m_top1 :parameters () :task (top) :ordered-subtasks (and (g) (finish)))
  (:method m_top2 :parameters () :task (top) :ordered-subtasks (and (h) (finish)))
  (:method m_g1 :parameters () :task (g) :ordered-subtasks (and (h)))
  (:method m_g3 :parameters () :task (g) :ordered-subtasks (and (ok)))
  (:method m_h1 :parameters () :task (h) :ordered-subtasks (and (g) (z)))
  (:action ok :parameters ())
  (:action z :parameters () :effect (zdone))
  (:action finish :parameters () :precondition (zdone))
)
"""

AGAIN = """\
(define (problem p) (:domain again)
  (:htn :ordered-subtasks (and (top)))
  (:init))
"""


@pytest.mark.parametrize("memo", [False, True])
def test_a_failure_cut_by_a_task_open_above_it_is_not_remembered(memo: bool) -> None:
    """By hand.  m_top1: (g) (finish), g taken up; m_g1 gives (h) (finish), h taken up;
    m_h1 gives (g) (z) (finish) -- (g) again, in the same state, while it is open: cut.
    So (h) (finish) failed, but by a cut that refers to the node above it that took up
    (g), and it is not remembered.  m_g3 leaves (finish) without zdone: m_top1 fails.
    m_top2 then gives the same (h) (finish), in the same state: searched again, m_h1's
    (g) is not open now, m_g1 is cut ((h) is), m_g3 does ok, then z, then finish."""
    result = run(RECURSION, AGAIN, memo)
    assert [s.operator for s in result.plan] == ["ok", "z", "finish"]
    assert result.stats["known_failures"] == 0


def test_a_remembered_failure_is_explained_as_one() -> None:
    """(top) by m_top with i1, i2 or i3 leaves (finish) alone in the same state; m_win
    plays ok.  i1's (finish) fails; i2's and i3's are that same task list in that same
    state, so they are not searched, and the choice point says why."""
    winnable = DOMAIN.replace(
        "  (:action touch",
        "  (:method m_win :parameters () :task (top) :ordered-subtasks (and (ok)))\n"
        "  (:action ok :parameters ())\n"
        "  (:action touch",
    ).replace("(and (touch ?x) (finish))", "(and (finish))")
    result = run(winnable, PROBLEM, True)
    assert [s.operator for s in result.plan] == ["ok"]
    root = result.choice_points[0]
    reasons = [(a.label, describe_alternative(a, root, "first")) for a in root.alternatives]
    assert reasons[0][1].startswith("dead end: no complete plan below")
    remembered = (
        "transposed: the same state with the same tasks left was searched on another "
        "branch, and led to no plan"
    )
    assert [r for _, r in reasons[1:3]] == [remembered, remembered]
    assert reasons[3][1] == "chosen: the first alternative, in the order tried, that led to a plan"
