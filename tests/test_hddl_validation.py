"""The independent plan check (``tests/hddl_validation.py``) on plans written here by hand.

The plans are derived by reading ``knowledge/hddl/examples/``: one valid plan per problem is
accepted, and each corrupted copy is rejected with a message that names what is wrong.  Only
files of this repository are read.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.hddl_validation import PlanFormatError, parse_ipc_plan, read_up_problem, validate_plan

EXAMPLES = Path(__file__).resolve().parent.parent / "knowledge" / "hddl" / "examples"
DELIVERY = (EXAMPLES / "delivery-domain.hddl", EXAMPLES / "delivery-p1.hddl")
LIGHTS = (EXAMPLES / "lights-domain.hddl", EXAMPLES / "lights-p1.hddl")

# delivery-p1: the truck goes hq -> north, takes the books to south, takes the glasses (there
# already) back to north.  deliver-by-vehicle's subtasks run go1, take, go2, drop (its
# :ordering), whatever order they are listed in.
DELIVERY_PLAN = """\
==>
0 drive t1 hq north
1 load t1 books north
2 drive t1 north south
3 unload t1 books south
4 load t1 glasses south
5 drive t1 south north
6 unload t1 glasses north
root 7 8
7 deliver books south -> deliver-by-vehicle 9 1 11 3
8 deliver glasses north -> deliver-by-vehicle 13 4 14 6
9 get-to t1 north -> drive-on 0 10
10 get-to t1 north -> arrived
11 get-to t1 south -> drive-on 2 12
12 get-to t1 south -> arrived
13 get-to t1 south -> arrived
14 get-to t1 north -> drive-on 5 15
15 get-to t1 north -> arrived
<==
"""

# lights-p1: the study is powered and its lamps are off, so Switch-Them-On it is.  Written in
# the files' own mixed case.
LIGHTS_PLAN = """\
==>
0 Switch-All Study
root 1
1 Light-Room Study -> Switch-Them-On 0
<==
"""


def changed(plan: str, *edits: tuple[str, str]) -> str:
    for old, new in edits:
        assert plan.count(old) == 1, old
        plan = plan.replace(old, new)
    return plan


def one_says(found: list[str], *words: str) -> bool:
    return any(all(word in message for word in words) for message in found)


def test_valid_delivery_plan_is_accepted() -> None:
    # Among others, "arrived" for task 13 holds only where it stands (after action 3), not in
    # the initial state, where the truck is at hq.
    assert validate_plan(*DELIVERY, DELIVERY_PLAN) == []


def test_valid_lights_plan_is_accepted() -> None:
    assert validate_plan(*LIGHTS, LIGHTS_PLAN) == []


def test_planner_output_around_the_plan_and_a_top_task_are_accepted() -> None:
    """Text before ``==>`` is ignored, and the root may be an artificial ``__top`` task."""
    plan = "search took 0.1 s\n" + changed(
        DELIVERY_PLAN, ("root 7 8\n", "root 16\n16 __top -> __top_method 7 8\n")
    )
    assert validate_plan(*DELIVERY, plan) == []


def test_an_inapplicable_action_is_named() -> None:
    # No road leads from hq to south.
    found = validate_plan(
        *DELIVERY, changed(DELIVERY_PLAN, ("0 drive t1 hq north", "0 drive t1 hq south"))
    )
    assert one_says(
        found, "line 2:", "action 0 (drive t1 hq south)", "not applicable", "road(hq, south)"
    )


def test_actions_in_another_order_than_the_decompositions_are_named() -> None:
    # The glasses loaded before the books are unloaded: applicable (the truck carries both),
    # but deliver-by-vehicle for the books ends with their unload, before the glasses' turn.
    plan = changed(
        DELIVERY_PLAN,
        (
            "3 unload t1 books south\n4 load t1 glasses south",
            "3 load t1 glasses south\n4 unload t1 books south",
        ),
        ("deliver-by-vehicle 9 1 11 3", "deliver-by-vehicle 9 1 11 4"),
        ("deliver-by-vehicle 13 4 14 6", "deliver-by-vehicle 13 3 14 6"),
    )
    found = validate_plan(*DELIVERY, plan)
    assert found == [
        "the decomposition puts the actions in the order 0 1 2 4 3 5 6, "
        "the plan lists 0 1 2 3 4 5 6"
    ]


def test_a_method_of_another_task_is_named() -> None:
    found = validate_plan(
        *DELIVERY,
        changed(
            DELIVERY_PLAN, ("10 get-to t1 north -> arrived", "10 get-to t1 north -> deliver-here")
        ),
    )
    assert one_says(
        found,
        "line 13:",
        "task 10 (get-to t1 north)",
        "method deliver-here decomposes deliver, not get-to",
    )


def test_an_unknown_method_is_named() -> None:
    found = validate_plan(*DELIVERY, changed(DELIVERY_PLAN, ("-> arrived\n11", "-> teleport\n11")))
    assert one_says(found, "task 10 (get-to t1 north)", "no method teleport")


def test_a_method_whose_precondition_fails_is_named() -> None:
    # Already-Lit needs every lamp of the study on; none is, and nothing switches them on.
    found = validate_plan(*LIGHTS, "==>\nroot 0\n0 Light-Room Study -> Already-Lit\n")
    assert one_says(
        found, "task 0 (light-room study)", "precondition of method already-lit does not hold"
    )
    assert one_says(found, "the goal is not reached", "on(")


def test_a_missing_subtask_is_named() -> None:
    found = validate_plan(
        *DELIVERY,
        changed(DELIVERY_PLAN, ("deliver-by-vehicle 9 1 11 3", "deliver-by-vehicle 9 11 3")),
    )
    assert one_says(
        found,
        "task 7 (deliver books south)",
        "method deliver-by-vehicle has 4 subtasks, the line gives 3",
    )
    assert one_says(found, "action 1 (load t1 books north) is reached from no root task")


def test_subtasks_out_of_the_methods_order_are_named() -> None:
    # The load listed before getting to the package (the :subtasks list's order, not the
    # :ordering's) is not deliver-by-vehicle's order.
    found = validate_plan(
        *DELIVERY,
        changed(DELIVERY_PLAN, ("deliver-by-vehicle 9 1 11 3", "deliver-by-vehicle 3 9 1 11")),
    )
    assert one_says(
        found, "task 7 (deliver books south)", "are not those of method deliver-by-vehicle"
    )


def test_a_subtask_with_other_arguments_is_named() -> None:
    # drive-on's recursive subtask must get to the same place as the task it decomposes.
    plan = changed(DELIVERY_PLAN, ("10 get-to t1 north -> arrived", "10 get-to t1 hq -> arrived"))
    found = validate_plan(*DELIVERY, plan)
    assert one_says(
        found,
        "task 9 (get-to t1 north)",
        "(drive t1 hq north, get-to t1 hq) are not those of method drive-on for it "
        "(drive ?v ?from ?next, get-to ?v ?to)",
    )


def test_root_tasks_other_than_the_initial_network_are_named() -> None:
    found = validate_plan(*DELIVERY, changed(DELIVERY_PLAN, ("root 7 8", "root 8 7")))
    assert one_says(
        found,
        "root tasks (deliver glasses north, deliver books south) are not the problem's "
        "initial task network (deliver books south, deliver glasses north)",
    )


def test_a_goal_not_reached_is_named() -> None:
    # Stop before the glasses are unloaded: the hierarchy then misses a subtask too.
    plan = changed(DELIVERY_PLAN, ("6 unload t1 glasses north\n", ""), ("13 4 14 6", "13 4 14"))
    found = validate_plan(*DELIVERY, plan)
    assert one_says(found, "the goal is not reached", "at(glasses, north)")


def test_an_action_outside_the_hierarchy_is_named() -> None:
    plan = changed(
        DELIVERY_PLAN,
        ("6 unload t1 glasses north\n", "6 unload t1 glasses north\n16 drive t1 north hq\n"),
    )
    found = validate_plan(*DELIVERY, plan)
    assert one_says(found, "action 16 (drive t1 north hq) is reached from no root task")
    assert one_says(
        found,
        "the decomposition puts the actions in the order 0 1 2 3 4 5 6, "
        "the plan lists 0 1 2 3 4 5 6 16",
    )


def test_an_action_used_twice_and_an_undefined_subtask_are_named() -> None:
    found = validate_plan(*DELIVERY, changed(DELIVERY_PLAN, ("drive-on 5 15", "drive-on 0 15")))
    assert one_says(found, "action 0 (drive t1 hq north) is a subtask 2 times")
    found = validate_plan(*DELIVERY, changed(DELIVERY_PLAN, ("drive-on 5 15", "drive-on 5 99")))
    assert one_says(found, "task 14 (get-to t1 north) names subtask 99, which no line defines")


def test_tasks_decomposed_into_each_other_are_named() -> None:
    plan = changed(
        DELIVERY_PLAN,
        ("<==", "16 get-to t1 hq -> drive-on 4 17\n17 get-to t1 hq -> drive-on 4 16\n<=="),
    )
    found = validate_plan(*DELIVERY, plan)
    assert one_says(found, "tasks [16, 17] decompose into each other in a cycle")
    assert one_says(found, "action 4 (load t1 glasses south) is a subtask 3 times")


def test_wrong_action_arguments_are_named() -> None:
    found = validate_plan(
        *LIGHTS, changed(LIGHTS_PLAN, ("0 Switch-All Study", "0 Switch-All Desk-Lamp"))
    )
    assert one_says(found, "action 0 (switch-all desk-lamp)", "desk-lamp is not of type room")
    found = validate_plan(
        *LIGHTS, changed(LIGHTS_PLAN, ("0 Switch-All Study", "0 Switch-All Study Hall"))
    )
    assert one_says(found, "switch-all takes 1 arguments")
    found = validate_plan(
        *LIGHTS, changed(LIGHTS_PLAN, ("0 Switch-All Study", "0 Light-Room Study"))
    )
    assert one_says(found, "light-room is a task, not an action")


def test_an_unpowered_room_is_named() -> None:
    # The hall has no power: neither its switch-all nor Switch-Them-On for it may be used.
    plan = "==>\n0 switch-all hall\nroot 1\n1 light-room hall -> switch-them-on 0\n"
    found = validate_plan(*LIGHTS, plan)
    assert one_says(found, "action 0 (switch-all hall) is not applicable", "powered(hall)")
    assert one_says(
        found,
        "root tasks (light-room hall) are not the problem's initial task network "
        "(light-room study)",
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("0 drive t1 hq north\nroot 0\n", "no line starts with '==>'"),
        ("==>\n0 drive t1 hq north\n", "no 'root' line"),
        ("==>\n0 drive t1 hq north\nroot 1\n1 deliver books south\n", "not a decomposition line"),
        (
            "==>\n0 drive t1 hq north\n0 drive t1 north hq\nroot 0\n",
            "id 0 is already used on line 2",
        ),
        ("==> plan\nroot\n", "nothing may follow '==>'"),
    ],
)
def test_text_not_in_the_format_is_refused(text: str, words: str) -> None:
    with pytest.raises(PlanFormatError, match=words):
        parse_ipc_plan(text)
    found = validate_plan(*DELIVERY, text)
    assert len(found) == 1 and found[0].startswith("plan format:") and words in found[0]


def test_the_plan_reader() -> None:
    plan = parse_ipc_plan(
        "noise\n==>\n3 Drive  T1 hq north \nroot 5\n"
        "5 get-to t1 north -> drive-on 3 6\n6 get-to t1 north -> arrived\n<==\ntrailing\n"
    )
    assert [(s.id, s.name, s.args) for s in plan.actions] == [(3, "drive", ("t1", "hq", "north"))]
    assert plan.root == (5,)
    assert plan.tasks[5].method == "drive-on" and plan.tasks[5].children == (3, 6)
    assert plan.tasks[6].children == () and plan.tasks[6].line == 6


def test_unified_planning_reads_the_examples_as_written() -> None:
    """The section reordering and the ``either`` rewrite keep what the files say."""
    delivery = read_up_problem(*DELIVERY)
    assert sorted(m.name for m in delivery.methods) == [
        "arrived",
        "deliver-by-vehicle",
        "deliver-here",
        "drive-on",
    ]
    assert delivery.method("deliver-by-vehicle").total_order() == ["go1", "take", "go2", "drop"]
    assert str(delivery.fluent("padded").signature[0].type) == "vehicle - locatable"
    assert [str(s.task.name) for s in delivery.task_network.subtasks] == ["deliver", "deliver"]
    lights = read_up_problem(*LIGHTS)
    assert sorted(m.name for m in lights.methods) == ["already-lit", "switch-them-on"]
    assert len(lights.goals) == 1


def test_the_checker_does_not_use_our_hddl_reader() -> None:
    """Independence: the checker imports nothing of the workbench (it lives in the product,
    ``knowledge/hddl/validation.py``, for ``plan hddl --repair``; the tests import it
    through ``tests/hddl_validation.py``)."""
    root = Path(__file__).resolve().parent.parent
    source = (root / "knowledge" / "hddl" / "validation.py").read_text(encoding="utf-8")
    modules = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules.add(node.module.split(".")[0])
    assert modules.isdisjoint({"knowledge", "engine", "workbench", "tests"})
    assert "unified_planning" in modules
