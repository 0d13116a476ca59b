"""Why not this method here?  ``--why-not`` on HDDL, answered side by side.

The domain below is the IPC 2020 total-order Transport domain's tasks, methods and actions,
written out again by hand (the IPC files are development data and are not copied into the
project); the problem is our own: one road line ``loc_0 - loc_1 - loc_2 - loc_3``, truck_0
at loc_0, truck_1 at loc_3, package_0 at loc_1 to be taken to loc_2.  The runs are in
optimise mode (unit costs: the fewest actions), so each plan below is the unique shortest
one, worked out by hand:

* as planned, truck_0 fetches it: drive loc_0 -> loc_1, pick_up, drive loc_1 -> loc_2,
  drop (4 actions; truck_1 would need 5);
* with ``?v = truck_1`` forced: drive loc_3 -> loc_2 -> loc_1, pick_up, drive loc_1 ->
  loc_2, drop (5 actions, nothing shared with the plan);
* with ``m_drive_to_via_ordering_0(?l2=loc_2)`` forced for ``(get_to truck_0 loc_1)``: the
  truck must reach loc_2 first (loc_0 -> loc_1 -> loc_2) and come back to loc_1, then go
  on as planned: two drives more (6 actions).  Getting to loc_2 from loc_0 goes through
  ``get_to truck_0 loc_1`` again, in the very state the forced task started in: the
  recursion cut took that for a loop, and the re-plan gave up after two nodes.

Every expected line is written from that reasoning and the domain text here (line numbers
by searching ``DOMAIN``), not from the program's output.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tofs.forcing import Forced, parse_forced, split_task
from tests.hddl_validation import validate_plan
from workbench.cli import _force, main

DOMAIN = """\
(define (domain transport)
  (:requirements :negative-preconditions :typing :hierarchy)
  (:types
    package - locatable
    capacity_number - object
    location - object
    vehicle - locatable
    locatable - object)
  (:predicates
    (road ?l1 - location ?l2 - location)
    (at ?x - locatable ?l - location)
    (in ?p - package ?v - vehicle)
    (capacity ?v - vehicle ?s - capacity_number)
    (capacity_predecessor ?s1 - capacity_number ?s2 - capacity_number))
  (:task deliver :parameters (?p - package ?l - location))
  (:task get_to :parameters (?v - vehicle ?l - location))
  (:task load :parameters (?v - vehicle ?l - location ?p - package))
  (:task unload :parameters (?v - vehicle ?l - location ?p - package))
  (:method m_deliver_ordering_0
    :parameters (?l1 - location ?l2 - location ?p - package ?v - vehicle)
    :task (deliver ?p ?l2)
    :ordered-subtasks (and
      (get_to ?v ?l1)
      (load ?v ?l1 ?p)
      (get_to ?v ?l2)
      (unload ?v ?l2 ?p)))
  (:method m_unload_ordering_0
    :parameters (?l - location ?p - package ?s1 - capacity_number
                 ?s2 - capacity_number ?v - vehicle)
    :task (unload ?v ?l ?p)
    :ordered-subtasks (drop ?v ?l ?p ?s1 ?s2))
  (:method m_load_ordering_0
    :parameters (?l - location ?p - package ?s1 - capacity_number
                 ?s2 - capacity_number ?v - vehicle)
    :task (load ?v ?l ?p)
    :ordered-subtasks (pick_up ?v ?l ?p ?s1 ?s2))
  (:method m_drive_to_ordering_0
    :parameters (?l1 - location ?l2 - location ?v - vehicle)
    :task (get_to ?v ?l2)
    :ordered-subtasks (drive ?v ?l1 ?l2))
  (:method m_drive_to_via_ordering_0
    :parameters (?l2 - location ?l3 - location ?v - vehicle)
    :task (get_to ?v ?l3)
    :ordered-subtasks (and
      (get_to ?v ?l2)
      (drive ?v ?l2 ?l3)))
  (:method m_i_am_there_ordering_0
    :parameters (?l - location ?v - vehicle)
    :task (get_to ?v ?l)
    :ordered-subtasks (noop ?v ?l))
  (:action drive
    :parameters (?v - vehicle ?l1 - location ?l2 - location)
    :precondition (and
      (at ?v ?l1)
      (road ?l1 ?l2))
    :effect (and
      (not (at ?v ?l1))
      (at ?v ?l2)))
  (:action noop
    :parameters (?v - vehicle ?l2 - location)
    :precondition (and
      (at ?v ?l2))
    :effect ())
  (:action pick_up
    :parameters (?v - vehicle ?l - location ?p - package
                 ?s1 - capacity_number ?s2 - capacity_number)
    :precondition (and
      (at ?v ?l)
      (at ?p ?l)
      (capacity_predecessor ?s1 ?s2)
      (capacity ?v ?s2))
    :effect (and
      (not (at ?p ?l))
      (in ?p ?v)
      (capacity ?v ?s1)
      (not (capacity ?v ?s2))))
  (:action drop
    :parameters (?v - vehicle ?l - location ?p - package
                 ?s1 - capacity_number ?s2 - capacity_number)
    :precondition (and
      (at ?v ?l)
      (in ?p ?v)
      (capacity_predecessor ?s1 ?s2)
      (capacity ?v ?s1))
    :effect (and
      (not (in ?p ?v))
      (at ?p ?l)
      (capacity ?v ?s2)
      (not (capacity ?v ?s1)))))
"""

PROBLEM = """\
(define (problem line)
  (:domain transport)
  (:objects
    package_0 - package
    capacity_0 capacity_1 - capacity_number
    loc_0 loc_1 loc_2 loc_3 - location
    truck_0 truck_1 - vehicle)
  (:htn :ordered-subtasks (deliver package_0 loc_2))
  (:init
    (capacity_predecessor capacity_0 capacity_1)
    (road loc_0 loc_1) (road loc_1 loc_0)
    (road loc_1 loc_2) (road loc_2 loc_1)
    (road loc_2 loc_3) (road loc_3 loc_2)
    (at package_0 loc_1)
    (at truck_0 loc_0)
    (at truck_1 loc_3)
    (capacity truck_0 capacity_1)
    (capacity truck_1 capacity_1)))
"""

PLANNED = [
    "(drive truck_0 loc_0 loc_1)",
    "(pick_up truck_0 loc_1 package_0 capacity_0 capacity_1)",
    "(drive truck_0 loc_1 loc_2)",
    "(drop truck_0 loc_2 package_0 capacity_0 capacity_1)",
]
BY_TRUCK_1 = [
    "(drive truck_1 loc_3 loc_2)",
    "(drive truck_1 loc_2 loc_1)",
    "(pick_up truck_1 loc_1 package_0 capacity_0 capacity_1)",
    "(drive truck_1 loc_1 loc_2)",
    "(drop truck_1 loc_2 package_0 capacity_0 capacity_1)",
]


def line_of(after: str, text: str) -> int:
    """The line of ``DOMAIN`` holding ``text``, the first after the line holding ``after``."""
    lines = DOMAIN.splitlines()
    start = next(i for i, line in enumerate(lines) if after in line)
    return next(i for i in range(start, len(lines)) if text in lines[i]) + 1


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    domain, problem = tmp_path / "domain.hddl", tmp_path / "p.hddl"
    domain.write_text(DOMAIN)
    problem.write_text(PROBLEM)
    return domain, problem


def why_not(
    files: tuple[Path, Path], force: str, capsys: pytest.CaptureFixture[str], *more: str
) -> tuple[int, str, str]:
    try:
        code = main(
            ["plan", "hddl", *map(str, files), "--mode", "optimise", "--why-not", force, *more]
        )
    except SystemExit as exc:  # what the command line's own parsing ends with
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def answer(out: str) -> list[str]:
    """The why-not answer: the lines from "Why not" on."""
    lines = out.splitlines()
    return lines[next(i for i, line in enumerate(lines) if line.startswith("Why not")) :]


def plan_lines(out: str) -> list[str]:
    """The plan the run printed (the forced one), one step per line."""
    lines = out.splitlines()
    steps = []
    for line in lines[lines.index("Plan:") + 1 :]:
        step = re.fullmatch(r"\s+\d+\. (\(.*\))(  \[1\])?", line)
        if step is None:
            break
        steps.append(step.group(1))
    return steps


def test_the_plan_as_planned_is_the_one_worked_out(files, capsys) -> None:
    assert main(["plan", "hddl", *map(str, files), "--mode", "optimise"]) == 0
    assert plan_lines(capsys.readouterr().out) == PLANNED


@pytest.mark.parametrize(
    "force",
    [
        "m_deliver_ordering_0(?v=truck_1)",
        "deliver=m_deliver_ordering_0(?v=truck_1)",
        "(deliver package_0 loc_2)=m_deliver_ordering_0(v=truck_1)",
        "deliver=m_deliver_ordering_0(?l1=loc_1, ?v=truck_1)",
    ],
)
def test_another_truck_plans_and_the_diff_names_its_drives(files, capsys, force: str) -> None:
    """A partial binding (the truck only), the method alone or after its task, ``?v`` or
    ``v``, or the full label: the same choice, re-planned with ?l1 left to the search."""
    code, out, err = why_not(files, force, capsys)
    assert (code, err) == (0, "")
    assert plan_lines(out) == BY_TRUCK_1
    asked = force.split("=", 1)[1] if not force.startswith("m_") else force
    assert answer(out) == [
        f"Why not {asked} at (deliver package_0 loc_2)?",
        "  as planned: m_deliver_ordering_0(?l1=loc_1, ?v=truck_0)  4 actions",
        "  forced:     m_deliver_ordering_0(?l1=loc_1, ?v=truck_1)  5 actions (1 more)",
        "  steps added: 5 (drive 3, drop 1, pick_up 1); removed: 4 (drive 2, drop 1, pick_up 1)",
        "  diff (- as planned only, + forced only, step numbers in each plan):",
        *(f"  - {i:>3}. {s}" for i, s in enumerate(PLANNED, 1)),
        *(f"  + {i:>3}. {s}" for i, s in enumerate(BY_TRUCK_1, 1)),
    ]


def test_the_forced_task_may_come_back_to_itself(files, capsys) -> None:
    """Via loc_2 to loc_1 from loc_0 needs get_to loc_1 again in the forced task's own
    state: the re-plan finds the detour (it gave up after two nodes before)."""
    code, out, err = why_not(files, "get_to=m_drive_to_via_ordering_0(?l2=loc_2)", capsys)
    assert (code, err) == (0, "")
    detour = ["(drive truck_0 loc_1 loc_2)", "(drive truck_0 loc_2 loc_1)"]
    assert plan_lines(out) == [PLANNED[0], *detour, *PLANNED[1:]]
    assert answer(out) == [
        "Why not m_drive_to_via_ordering_0(?l2=loc_2) at (get_to truck_0 loc_1)?",
        "  as planned: m_drive_to_ordering_0(?l1=loc_0)      4 actions",
        "  forced:     m_drive_to_via_ordering_0(?l2=loc_2)  6 actions (2 more)",
        "  steps added: 2 (drive 2); removed: 0",
        "  diff (- as planned only, + forced only, step numbers in each plan):",
        "  = step 1 the same (1)",
        f"  +   2. {detour[0]}",
        f"  +   3. {detour[1]}",
        "  = steps 2-4 the same (3)",
    ]


@pytest.mark.parametrize(
    "force",
    ["m_deliver_ordering_0(?v=truck_1)", "get_to=m_drive_to_via_ordering_0(?l2=loc_2)"],
)
def test_a_forced_plan_passes_the_independent_validator(files, capsys, force: str) -> None:
    """The forced plan's IPC output holds its whole decomposition, the choices above the
    forced point included."""
    code, out, _ = why_not(files, force, capsys, "--ipc")
    assert code == 0
    assert validate_plan(files[0], files[1], out) == []


def test_a_method_whose_precondition_cannot_hold_is_blamed(files, capsys) -> None:
    """truck_0 is at loc_0, so m_i_am_there's noop for (get_to truck_0 loc_1) needs
    (at truck_0 loc_1), which is false; nothing else is left to search: no plan."""
    code, out, err = why_not(files, "get_to=m_i_am_there_ordering_0", capsys)
    assert (code, err) == (2, "")
    line = line_of("(:action noop", "(at ?v ?l2)")
    assert answer(out) == [
        "Why not m_i_am_there_ordering_0 at (get_to truck_0 loc_1)?",
        "  as planned: m_drive_to_ordering_0(?l1=loc_0)  4 actions",
        "  forced:     m_i_am_there_ordering_0           no plan exists with that choice "
        "(the whole tree below it was searched)",
        "  deepest failure: (get_to truck_0 loc_1): step 1 of m_i_am_there_ordering_0, noop "
        f"(domain.hddl:{line}), needs `(at truck_0 loc_1)`",
    ]


def test_a_load_where_the_package_is_not_is_proven_impossible(files, capsys) -> None:
    """Loading at loc_0, where the package is not, can never work: up to the load only
    get_to's drives and noops can run, and load's pick_up, and none of them puts a package
    anywhere (drive moves vehicles; pick_up takes the package away).  The search alone
    cannot say so -- getting a truck to loc_0 goes round get_to loops the recursion cut
    prunes, which leaves it incomplete -- so the answer rests on relaxed reachability
    over the forced method's own steps, for both trucks (?v is left free), and shows the
    deepest failure the search met with its blame."""
    code, out, err = why_not(files, "deliver=m_deliver_ordering_0(?l1=loc_0)", capsys)
    assert (code, err) == (2, "")
    lines = answer(out)
    planned = "m_deliver_ordering_0(?l1=loc_1, ?v=truck_0)"
    assert lines[1] == f"  as planned: {planned}  4 actions"
    assert lines[2] == (
        f"  forced:     {'m_deliver_ordering_0(?l1=loc_0)':<{len(planned)}}  "
        "no plan exists with that choice (proven by relaxed reachability: step 2 of "
        "m_deliver_ordering_0, (load truck_0 loc_0 package_0), can never be done after the "
        "steps before it, from the state at the choice point (and so for each of the 2 "
        "bindings allowed))"
    )
    assert "gave up" not in out
    line = line_of("(:action pick_up", "(at ?p ?l)")
    assert lines[3].startswith("  deepest failure: (load truck_")
    assert lines[3].endswith(
        f"loc_0 package_0): no method applies (step 1 of m_load_ordering_0, pick_up "
        f"(domain.hddl:{line}), needs `(at package_0 loc_0)`)"
    )


def test_a_choice_with_a_plan_is_never_proven_impossible(files) -> None:
    """The proof is asked before every forced search: on every alternative of every
    choice point on the plan, it must say nothing where the forced search finds a plan."""
    from engine.tofs.why_not import Anchor, allowed, replan_at
    from knowledge.contract import Read
    from knowledge.hddl.package import HddlPackage, read_files, run_models

    domain, problem = read_files(str(files[0]), str(files[1]))
    run = run_models(domain, problem)
    read = Read(run.engine_domain, run.engine_problem, (domain, problem))
    planned = 0
    for choice in run.result.choice_points:
        for alt in choice.alternatives:
            forced = replan_at(
                run.engine_domain,
                run.engine_problem,
                run.options,
                Anchor.of(run.result, choice),
                alt.label,
            )
            if forced.found:
                planned += 1
                assert HddlPackage().prove_forced(read, choice, allowed(choice, alt.label)) is None
    assert planned >= 3  # truck_0's and truck_1's delivery, the detour via loc_2 at least


CHOICES = "choice points: (deliver package_0 loc_2): m_deliver_ordering_0(?l1=loc_0, ?v=truck_0)"


@pytest.mark.parametrize(
    ("force", "said"),
    [
        ("nope=m_deliver_ordering_0", "no choice point on the plan has task 'nope'"),
        (
            "deliver=m_nope",
            "'m_nope' is not an alternative of 'deliver' at any choice point on the plan",
        ),
        (
            "deliver=m_drive_to_ordering_0",
            "'m_drive_to_ordering_0' is not an alternative of 'deliver' at any choice point",
        ),
        (
            "m_deliver_ordering_0(?x=loc_1)",
            "m_deliver_ordering_0 chooses no variable ?x at its choice points "
            "(it chooses ?l1, ?v; its task fixes the others)",
        ),
        (
            "deliver=m_deliver_ordering_0(?v=truck_9)",
            "no alternative of 'deliver' binds ?v to 'truck_9' (?v takes truck_0, truck_1 there)",
        ),
    ],
)
def test_an_unknown_name_is_one_line_with_the_choice_points(
    files, capsys, force: str, said: str
) -> None:
    code, out, err = why_not(files, force, capsys)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"workbench: error: --why-not: {said}")
    assert CHOICES in err and "(get_to truck_0 loc_1): m_drive_to_ordering_0(?l1=loc_0)" in err


@pytest.mark.parametrize(
    "force", ["m_deliver_ordering_0(?v=", "deliver=", "=m", "m(?v)", "m(?v=a, ?v=b)", "m(a=b))"]
)
def test_bad_text_is_one_line(files, capsys, force: str) -> None:
    code, out, err = why_not(files, force, capsys)
    assert (code, out) == (1, "")
    assert err.startswith("workbench: error: --why-not") and err.count("\n") == 1


def test_parse_forced_and_split_task() -> None:
    assert parse_forced("m") == Forced("m")
    assert parse_forced(" m( ?v = t , l=a ) ") == Forced("m", (("?v", "t"), ("l", "a")))
    assert split_task("(deliver p l)=m(?v=t)") == ("(deliver p l)", "m(?v=t)")
    assert split_task("m(?v=t)") == ("", "m(?v=t)")
    assert Forced("m", (("?v", "t"),)).matches("m", (("v", "t"), ("?l", "a")))
    assert not Forced("m", (("?v", "t"),)).matches("m", (("?v", "u"),))
    assert not Forced("m").matches("n", ())


WHY_NOT_TEXT = st.lists(
    st.sampled_from(
        [*"()=?,. _-ab", "deliver", "get_to", "m_deliver_ordering_0", "?v", "truck_1", "loc_1"]
    ),
    max_size=12,
).map("".join)


@given(WHY_NOT_TEXT)
@settings(max_examples=300, deadline=None)
def test_why_not_text_never_raises_past_the_parser(text: str) -> None:
    """Any text is a {task: alternative} or a SystemExit with status 1 (its message said)."""
    try:
        forced = _force([text])
    except SystemExit as exc:
        assert exc.code == 1
    else:
        assert len(forced) == 1


@given(WHY_NOT_TEXT)
@settings(max_examples=40, deadline=None)
def test_why_not_never_ends_in_a_traceback(tmp_path_factory, text: str) -> None:
    here = tmp_path_factory.mktemp("fuzz")
    domain, problem = here / "domain.hddl", here / "p.hddl"
    domain.write_text(DOMAIN)
    problem.write_text(PROBLEM)
    try:
        code = main(["plan", "hddl", str(domain), str(problem), "--why-not", text])
    except SystemExit as exc:
        code = int(exc.code or 0)
    assert code in (0, 1, 2, 3)


def test_the_why_not_screen_says_what_the_forced_choice_does_to_the_actions(files) -> None:
    """The workbench's why-not screen forces the alternative a line stands for (its exact
    label) and, for plans without costs (HDDL in first mode), adds the action counts and
    the steps added and removed to its summary -- the same sums as the command line's."""
    from engine.tofs.contrast import compare
    from engine.tofs.why_not import Anchor, replan_at
    from knowledge.hddl.package import read_files, run_models
    from workbench.screens.whynot import summary_text

    domain, problem = read_files(str(files[0]), str(files[1]))
    run = run_models(domain, problem)
    assert all(not s.costs for s in run.result.plan)
    choice = next(c for c in run.result.choice_points if c.task == "(deliver package_0 loc_2)")
    alt = next(
        a for a in choice.alternatives if a.label == "m_deliver_ordering_0(?l1=loc_1, ?v=truck_1)"
    )
    forced = replan_at(
        run.engine_domain, run.engine_problem, run.options, Anchor.of(run.result, choice), alt.label
    )
    text = summary_text(compare(run.result, forced, choice, alt)).plain
    # First-plan search tries methods in the order written and bindings in declaration order:
    # for (get_to truck_1 loc_1) from loc_3, m_drive_to cannot apply (no road loc_3 ->
    # loc_1); via loc_0 needs get_to loc_0, whose only road in is from loc_1, so it needs
    # (get_to truck_1 loc_1) again in the same state (cut); via loc_1 is that at once (cut);
    # via loc_2 drives loc_3 -> loc_2 -> loc_1.  Then pick_up, m_drive_to loc_1 -> loc_2,
    # drop.
    assert [s.description for s in forced.plan] == BY_TRUCK_1
    n = len(run.result.plan)
    assert f"{n} actions as planned, 5 forced: steps added 5 (drive 3, drop 1, pick_up 1)" in text


def test_json_carries_the_answer_as_data(files, capsys) -> None:
    code, out, _ = why_not(files, "get_to=m_i_am_there_ordering_0", capsys, "--json")
    assert code == 2
    (answer_data,) = json.loads(out)["why_not"]
    line = line_of("(:action noop", "(at ?v ?l2)")
    assert answer_data == {
        "task": "(get_to truck_0 loc_1)",
        "node": answer_data["node"],
        "asked": "m_i_am_there_ordering_0",
        "planned": "m_drive_to_ordering_0(?l1=loc_0)",
        "forced": None,
        "actions": {"planned": 4, "forced": None},
        "added": [],
        "removed": [],
        "outcome": "no plan",
        "outcome_text": "no plan exists (the whole tree was searched)",
        "failure": "(get_to truck_0 loc_1): step 1 of m_i_am_there_ordering_0, noop "
        f"(domain.hddl:{line}), needs `(at truck_0 loc_1)`",
        "blame": {
            "text": f"step 1 of m_i_am_there_ordering_0, noop (domain.hddl:{line}), needs "
            "`(at truck_0 loc_1)`",
            "file": str(files[0]),
            "line": line,
        },
    }
    code, out, _ = why_not(files, "m_deliver_ordering_0(?v=truck_1)", capsys, "--json")
    (answer_data,) = json.loads(out)["why_not"]
    assert (answer_data["actions"], answer_data["added"], answer_data["removed"]) == (
        {"planned": 4, "forced": 5},
        BY_TRUCK_1,
        PLANNED,
    )


def test_the_re_plan_shares_the_node_budget_with_the_plan(files) -> None:
    """The base run and the forced re-plan share one node budget: with three nodes left
    after the plan, the forced plan (five actions, so at least five nodes below the choice
    point) cannot be reached, and the stop names the user's budget."""
    from engine.tofs import Status
    from knowledge.hddl.package import read_files, run_models

    domain, problem = read_files(str(files[0]), str(files[1]))
    base = run_models(domain, problem, mode="optimise").result
    budget = base.nodes + 3
    forced = run_models(
        domain,
        problem,
        mode="optimise",
        node_budget=budget,
        force={"": "m_deliver_ordering_0(?v=truck_1)"},
    ).result
    assert forced.status is Status.NODE_BUDGET and not forced.found
    assert forced.nodes <= 3
    assert f"the node budget of {budget:,} nodes" in forced.outcome_text


def test_the_screens_re_plan_is_proven_impossible_too(files) -> None:
    """The why-not screen re-plans through the same pipeline (``replan_from``): a load
    where the package is not is proven impossible there as on the command line.  The run
    checks compound steps' needs about static predicates only, as the command line's
    why-not does where the alternative asked about is not offered otherwise (load's
    ``(at ?p ?l)`` checked when m_deliver is chosen drops ``?l1=loc_0`` at once)."""
    from engine.tofs import Status
    from engine.tofs.contrast import compare
    from engine.tofs.why_not import Anchor
    from knowledge.hddl.package import read_files, run_models
    from workbench.screens.whynot import summary_text

    domain, problem = read_files(str(files[0]), str(files[1]))
    run = run_models(domain, problem, through=False)
    choice = next(c for c in run.result.choice_points if c.task == "(deliver package_0 loc_2)")
    label = "m_deliver_ordering_0(?l1=loc_0, ?v=truck_0)"
    alt = next(a for a in choice.alternatives if a.label == label)
    assert not any(
        a.label == label
        for c in run_models(domain, problem).result.choice_points
        for a in c.alternatives
    )
    forced = run_models(
        domain, problem, through=False, replan_from=(Anchor.of(run.result, choice), label)
    ).result
    proof = (
        "proven by relaxed reachability: step 2 of m_deliver_ordering_0, (load truck_0 loc_0 "
        "package_0), can never be done after the steps before it, from the state at the "
        "choice point"
    )
    assert (forced.status, forced.proof) == (Status.NO_PLAN, proof)
    text = summary_text(compare(run.result, forced, choice, alt)).plain
    assert f"No plan exists with that choice ({proof})." in text
