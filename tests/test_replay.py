"""The replay model behind step-through: positions, deltas, labels, words -- no Textual.

The central property: the tree reached by applying deltas (one event at a time forward,
or all the way to the end and back) is exactly the tree :meth:`Replay.snapshot` computes
from scratch at that position, and its nodes are the trace's NODE_CREATED events.
"""

from __future__ import annotations

import random

import pytest

from engine.tofs import EventKind, SearchOptions, Trace, TraceEvent, plan
from knowledge import get_package
from tests.trace_synth import synthetic_events, traced_run
from workbench.replay import ItemKind, Replay, ReplayState, events_of, task_text


def replay_of(package: str, problem: str) -> Replay:
    result, events = traced_run(package, problem)
    return Replay(events, result)


def created(events: tuple[TraceEvent, ...] | list[TraceEvent]) -> int:
    return sum(e.kind is EventKind.NODE_CREATED for e in events)


@pytest.mark.parametrize("package,problem", [("examples", "dinner"), ("examples", "finesse")])
def test_every_position_forward_equals_back_from_the_end(package: str, problem: str) -> None:
    r = replay_of(package, problem)
    n = len(r)
    forward = ReplayState(r)
    seen = {}
    for k in range(n + 1):
        assert forward.position == k
        assert forward.lines == r.snapshot(k), f"forward state differs at {k}"
        seen[k] = dict(forward.lines)
        if k < n:
            forward.forward()
    back = ReplayState(r, n)
    for k in range(n, -1, -1):
        assert back.lines == seen[k], f"stepping back differs at {k}"
        if k:
            back.back()
    assert back.lines == {}


def test_rm1_forward_and_back_agree_at_sampled_positions() -> None:
    r = replay_of("edaps", "RM1")
    n = len(r)
    samples = sorted(
        {0, 1, 2, n // 3, n // 2, n - 2, n - 1, n, *random.Random(5).sample(range(n), 12)}
    )
    state = ReplayState(r)
    forward = {}
    for k in range(n + 1):
        if k in samples:
            forward[k] = dict(state.lines)
        if k < n:
            state.forward()
    for k in reversed(samples):  # back from the end one event at a time
        while state.position > k:
            state.back()
        assert state.lines == forward[k] == r.snapshot(k)


@pytest.mark.parametrize(
    "package,problem", [("examples", "dinner"), ("examples", "finesse"), ("edaps", "RM1")]
)
def test_node_count_matches_node_created_events(package: str, problem: str) -> None:
    result, events = traced_run(package, problem)
    r = Replay(events, result)
    assert r.node_count(len(r)) == created(events) == result.nodes
    nodes = [line for line, item in r.items.items() if item.kind is ItemKind.NODE]
    assert len(nodes) == created(events)
    assert r.node_count(0) == 0
    # At every position the count is the NODE_CREATED events applied so far.
    running = 0
    for k, e in enumerate(events):
        assert r.node_count(k) == running
        running += e.kind is EventKind.NODE_CREATED


def test_a_single_step_touches_one_line_and_a_few_labels() -> None:
    """At most one line appears; a label changes for the event's node and, when it makes
    a choice, for its children (chosen, or losing with the run's reason)."""
    r = replay_of("edaps", "RM1")
    for k in range(len(r)):
        d = r.step(k)
        line = r.node_item.get(r.events[k].node)
        kids = len(r.items[line].children) if line is not None else 0
        assert len(d.added) <= 1 and not d.removed and len(d.changed) <= 1 + kids
        back = r.delta(k + 1, k)
        assert back.removed == d.added and not back.added and back.changed == d.changed


def test_jumps_equal_snapshots() -> None:
    r = replay_of("examples", "finesse")
    rnd = random.Random(3)
    state = ReplayState(r)
    for _ in range(60):
        k = rnd.randrange(len(r) + 1)
        state.go(k)
        assert state.lines == r.snapshot(k)


def test_dinner_tree_at_the_end() -> None:
    r = replay_of("examples", "dinner")
    end = len(r)
    labels = [label for _, label in r.snapshot(end).values()]
    assert labels[0].startswith("root #0  → Go to dinner and a movie")
    assert labels[0].endswith("= 367")
    assert any(label.startswith("✓ DinnerThenMovie #6") for label in labels)
    assert any(label.startswith("MovieThenDinner #1") for label in labels)
    # Once the root has chosen, the loser shows the run's reason.
    loser = r.node_item[1]
    assert r.label(loser, end).endswith("dead end") and r.tone(loser, end) == "rejected"
    assert not r.label(loser, end - 1).endswith("dead end")
    assert any(
        "Watch Grosse Pointe Blank at 22:20" in label and "complete plan" in label
        for label in labels
    )
    # The chosen path is marked only once its CHOICE_MADE has been replayed.
    chosen = r.node_item[6]
    assert r.tone(chosen, end) == "chosen"
    choice_at_root = max(r.choice_events)
    assert r.tone(chosen, choice_at_root) == "plain"
    assert r.tone(chosen, choice_at_root + 1) == "chosen"


def test_pruned_and_failed_alternatives_are_lines() -> None:
    r = replay_of("examples", "finesse")
    end = len(r)
    pruned = [i for i in r.items.values() if i.kind is ItemKind.PRUNED]
    assert [(p.alternative, p.data["reason"]) for p in pruned] == [
        ("SingletonFalls", "likelihood pruned")
    ]
    assert "likelihood pruned (p 0.04, cutoff 0.05)" in r.label(pruned[0].id, end)
    failed = {i.alternative for i in r.items.values() if i.kind is ItemKind.FAILED}
    assert {"PlayQueen", "PlayAce", "CashQueen"} <= failed
    assert r.tone(pruned[0].id, end) == "rejected"


def test_partial_plan_pruned_children_are_marked_not_duplicated() -> None:
    r = replay_of("edaps", "RM1")
    end = len(r)
    # ApplyPhotoresist (node 57): Spread and Spray were built, then pruned by the pruner.
    below = [r.items[c] for c in r.children_at(r.node_item[57], end)]
    names = [c.alternative for c in below]
    assert names.count("Spread") == 1 and names.count("Spray") == 1
    spread = next(c for c in below if c.alternative == "Spread")
    assert spread.kind is ItemKind.NODE
    assert "partial-plan pruned" in r.label(spread.id, end)
    assert r.tone(spread.id, end) == "rejected"


def kind_at(r: Replay, k: int) -> EventKind:
    event = r.event_at(k)
    assert event is not None, f"no event at {k}"
    return event.kind


def test_choice_navigation() -> None:
    r = replay_of("examples", "dinner")
    first = r.next_choice(0)
    assert kind_at(r, first) is EventKind.CHOICE_MADE
    assert (
        r.next_choice(first) > first and kind_at(r, r.next_choice(first)) is EventKind.CHOICE_MADE
    )
    assert r.previous_choice(first) == 0
    assert r.previous_choice(r.next_choice(first)) == first
    last = r.choice_events[-1] + 1
    assert r.next_choice(last) == len(r)


def test_every_event_kind_is_described() -> None:
    r = replay_of("examples", "finesse")
    words = {kind_at(r, k): r.describe(k) for k in range(1, len(r) + 1)}
    assert set(words) == set(EventKind) - {EventKind.BINDING}
    assert words[EventKind.NODE_PRUNED].startswith("At node 11, SingletonFalls was pruned")
    assert r.describe(0).startswith("Before the first event")
    dinner = replay_of("examples", "dinner")
    binding = next(k + 1 for k, e in enumerate(dinner.events) if e.kind is EventKind.BINDING)
    assert (
        dinner.describe(binding)
        == "At node 1, SeeShowing binds M = 'Grosse Pointe Blank at 22:20'."
    )
    assert dinner.describe(2) == (
        "Expanded node 0 at depth 0: its first task is "
        "GoToDinnerAndMovie(), cost so far 0, 1 task on the list."
    )


def test_node_view_collects_what_the_trace_says() -> None:
    r = replay_of("examples", "finesse")
    end = len(r)
    third = r.node_view(3, end)
    assert third.task == ("Third", ("South",)) and third.depth == 3 and third.g is None
    assert third.tried == (("CashQueen", True), ("PlayQueen", False), ("PlayAce", False))
    assert third.chosen == "CashQueen" and third.value == 620.0
    east = r.node_view(2, end)
    assert east.node_kind == "external" and east.value == 260.0
    assert east.agenda is None and east.tasks_left == 2
    early = r.node_view(3, r.node_item[3] + 1)  # just created
    assert not early.expanded and early.value is None and early.alternative == "Rise"


def test_full_task_lists_are_used_when_the_trace_has_them() -> None:
    r = Replay(synthetic_events(500, agenda=True))
    view = r.node_view(0, len(r))
    assert view.agenda is not None and [task_text(t) for t in view.agenda[:2]] == ["T0(0)", "T1(1)"]


def test_game_runs_replay_with_node_kinds() -> None:
    result, events = traced_run("examples", "finesse")
    r = Replay(events, result)
    assert r.node_view(2, len(r)).node_kind == "external"
    assert r.node_view(0, len(r)).node_kind == "decision"
    backed = next(
        k + 1 for k, e in enumerate(events) if e.kind is EventKind.VALUE_BACKED_UP and e.node == 2
    )
    assert r.describe(backed) == "Backed up value 260 to node 2 (external node)."


def test_a_truncated_or_filtered_trace_still_replays() -> None:
    pkg = get_package("examples")
    domain, prob = pkg.problem("finesse")
    short = Trace(limit=30)
    result = plan(domain, prob, SearchOptions(mode="game", trace=short))
    assert short.dropped > 0
    r = Replay(events_of(short), result)
    assert len(r) == 30 and r.node_count(30) == created(short.events)
    assert ReplayState(r, 30).lines == r.snapshot(30)
    # Only some kinds recorded: lines whose parent was never seen become top-level lines.
    nodes_only = Trace(kinds={EventKind.NODE_CREATED, EventKind.CHOICE_MADE})
    plan(domain, prob, SearchOptions(mode="game", trace=nodes_only))
    r = Replay(events_of(nodes_only))
    assert r.node_count(len(r)) == result.nodes
    assert ReplayState(r, len(r)).lines == r.snapshot(len(r))
    assert events_of(None) == []


def test_a_hundred_thousand_events_replay_incrementally() -> None:
    events = synthetic_events(120_000)
    r = Replay(events)
    n = len(r)
    assert n >= 100_000
    assert r.node_count(n) == created(events)
    # Stepping is O(1) per event: no delta of one step is bigger than a line and two labels.
    for k in range(0, n, 997):
        d = r.step(k)
        assert len(d.added) <= 1 and len(d.changed) <= 2
    # Going to the end and back to k gives the same tree as coming forward to k.
    for k in (1, 5_000, n // 2, n - 3):
        state = ReplayState(r, n)
        for _ in range(3):
            state.back()
        state.go(k)
        assert state.lines == r.snapshot(k)
        state.back()
        assert state.lines == r.snapshot(k - 1)
    # Children lists are sorted by appearance, so "visible at k" is a bisect.
    root = r.roots[0]
    assert r.children_at(root, n) == sorted(r.children_at(root, n))
