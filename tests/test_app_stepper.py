"""Pilot tests of step-through and why-not, driven with keys at a fixed size.

The stepper's tree is checked against the replay model after every key: each Textual
node's label is the model's label at the current position, and an open line's children
are exactly the model's children so far -- so "incremental" can never drift from "right".
Why-not runs its planner in a thread worker; tests wait for workers, then pause so the
posted message is handled.
"""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets.tree import TreeNode

from engine.tofs import CancelToken, RunResult, Status
from tests.trace_synth import synthetic_events
from workbench import runner
from workbench.app import WorkbenchApp
from workbench.runner import ProblemRef
from workbench.screens import PlanScreen
from workbench.screens.stepper import ReplayIndexed, StepperScreen
from workbench.screens.whynot import ForcedRunFinished, WhyNotScreen
from workbench.widgets import PlanTree, ProblemPicker
from workbench.widgets.plan_contrast import PlanColumn
from workbench.widgets.search_tree import LineData, SearchTree
from workbench.widgets.step_panel import StepPanel

SIZE = (120, 40)
DINNER = ProblemRef("examples", "dinner")
FINESSE = ProblemRef("examples", "finesse")
RM1 = ProblemRef("edaps", "RM1")


def planned(request: ProblemRef) -> RunResult:
    """A store-backed run with the trace on, exactly as the planning screen makes it."""
    return runner.execute(request, CancelToken(), lambda p: None)


def line_of(node: TreeNode[LineData]) -> int:
    assert node.data is not None
    return node.data.line


def assert_mirrors_model(tree: SearchTree, follows: bool = True) -> None:
    """Every Textual node shows the model's label now; built lines hold all children;
    the cursor is on the current node unless the user moved it (``follows=False``)."""
    r, k = tree.replay, tree.position
    seen = 0
    stack: list[tuple[int | None, TreeNode[LineData]]] = [(None, tree.root)]
    while stack:
        parent_line, node = stack.pop()
        lines = [line_of(c) for c in node.children]
        if parent_line is None:
            assert lines == tree.top_lines()
        elif lines:
            assert lines == r.children_at(parent_line, k), f"children of {parent_line}"
        for child in node.children:
            data = child.data
            assert data is not None and r.visible(data.line, k)
            assert data.plain == r.label(data.line, k) == str(child.label)
            assert child.allow_expand == r.has_children(data.line, k)
            seen += 1
            stack.append((data.line, child))
    assert seen == tree.materialized
    current = r.current_line(k)
    assert tree.current == current
    if current is not None and follows:
        assert tree.cursor_node is tree.node_of(current)


async def open_stepper(
    app: WorkbenchApp, pilot: Pilot[None], trace: Any, result: RunResult | None, title: str
) -> StepperScreen:
    await pilot.pause()
    await app.push_screen(StepperScreen(trace, result, title))
    await app.workers.wait_for_complete()  # a long trace is indexed in a worker
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, StepperScreen)
    return screen


async def press(pilot: Pilot[None], *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()


# --------------------------------------------------------------------------- stepping


async def test_stepping_dinner_grows_and_shrinks_the_tree() -> None:
    result = planned(DINNER)
    assert result.trace is not None and result.value == 367
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stepper(app, pilot, result.trace, result, DINNER.title)
        tree = screen.query_one(SearchTree)
        panel = screen.query_one(StepPanel)
        n = len(screen.replay)
        assert tree.position == 0 and tree.labels() == []
        assert panel.text.startswith(f"Event 0 of {n}\nBefore the first event")

        await press(pilot, "right")
        assert tree.position == 1 and tree.labels() == ["root #0"]
        assert "Created the root, node 0." in panel.text
        assert_mirrors_model(tree)

        await press(pilot, *["n"] * 6)  # expand the root, try both methods, create node 1
        assert tree.position == 7
        assert tree.labels() == ["root #0  → Go to dinner and a movie", "MovieThenDinner #1"]
        assert "Created node 1 below node 0 by MovieThenDinner." in panel.text
        assert "Node 1 ← MovieThenDinner (below node 0)" in panel.text
        assert_mirrors_model(tree)

        await press(pilot, "n")  # node 1 expanded: its task list shows in the panel
        assert "Expanded node 1 at depth 1: its first task is GoToMovie()" in panel.text
        assert "Task list:\n  1. GoToMovie()\n  … and 1 more" in panel.text
        grown = len(tree.labels())

        await press(pilot, "left", "p")  # back past node 1's creation: it disappears
        assert tree.position == 6
        assert tree.labels() == ["root #0  → Go to dinner and a movie"]
        assert len(tree.labels()) < grown
        assert "At node 0, the precondition of DinnerThenMovie holds." in panel.text
        assert "Methods tried:\n  ✓ MovieThenDinner precondition holds" in panel.text
        assert_mirrors_model(tree)

        await press(pilot, "right_square_bracket")  # run to the first choice made
        event = screen.replay.event_at(tree.position)
        assert event is not None and event.kind == "choice made"
        assert "Node 10 chose WatchMovie: value 367." in panel.text
        assert any(label.startswith("✓ WatchMovie #11") for label in tree.labels())
        assert_mirrors_model(tree)

        await press(pilot, "end")
        assert tree.position == n
        assert tree.labels()[0] == "root #0  → Go to dinner and a movie  = 367"
        assert f"Event {n} of {n}" in panel.text
        assert "Node 0 chose DinnerThenMovie: value 367." in panel.text
        assert f"Tree: {result.nodes} nodes" in panel.text
        assert_mirrors_model(tree)

        await press(pilot, "left_square_bracket")  # back to the previous choice made
        assert "Node 6 chose EatAt(R=the Mongolian Barbecue): value 367." in panel.text

        await press(pilot, "home")
        assert tree.position == 0 and tree.labels() == []

        await press(pilot, "escape")
        assert isinstance(app.screen, PlanScreen)


async def test_the_cursor_inspects_other_nodes_at_the_same_position() -> None:
    result = planned(DINNER)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stepper(app, pilot, result.trace, result, DINNER.title)
        tree = screen.query_one(SearchTree)
        panel = screen.query_one(StepPanel)
        await press(pilot, "end")
        assert "Node 0" in panel.text.split("\n\n")[2]
        await press(pilot, "down")  # the tree's own key: move to MovieThenDinner
        assert tree.position == len(screen.replay)  # not a step
        node = tree.cursor_node
        assert node is not None and node.data is not None
        assert node.data.plain.startswith("MovieThenDinner #1")
        assert "Node 1 ← MovieThenDinner (below node 0)" in panel.text
        await press(pilot, "space")  # open it: children are built on demand
        assert [line_of(c) for c in node.children] == screen.replay.children_at(
            node.data.line, tree.position
        )
        assert_mirrors_model(tree, follows=False)
        await press(pilot, "left")  # a step brings the cursor back to the current node
        assert_mirrors_model(tree)


async def test_a_random_walk_over_rm1_stays_in_step_with_the_model() -> None:
    result = planned(RM1)
    app = WorkbenchApp()
    rnd = random.Random(7)
    keys = ["n", "p", "right_square_bracket", "left_square_bracket", "right", "left"]
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stepper(app, pilot, result.trace, result, RM1.title)
        tree = screen.query_one(SearchTree)
        await press(pilot, *["right_square_bracket"] * 12)
        assert tree.anchor_line is not None  # 70 levels deep: the tree shows a window
        assert_mirrors_model(tree)
        for _ in range(8):
            await press(pilot, *rnd.choices(keys, weights=[5, 3, 2, 1, 3, 2], k=6))
            assert_mirrors_model(tree)
        await press(pilot, "end", *["left"] * 5)
        assert tree.position == len(screen.replay) - 5
        assert_mirrors_model(tree)


async def test_a_big_trace_keeps_the_widget_small() -> None:
    """120,000 events: indexed in a worker; jumps rebuild only the visible part, steps
    apply one delta."""
    events = synthetic_events(120_000)
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        screen = await open_stepper(app, pilot, events, None, "synthetic")
        assert any(isinstance(m, ReplayIndexed) for m in messages)
        tree = screen.query_one(SearchTree)
        n = len(screen.replay)
        assert n == len(events) and tree.position == 0
        await press(pilot, "end")
        assert tree.position == n and screen.replay.node_count(n) > 20_000
        assert tree.materialized < 200
        assert_mirrors_model(tree)
        await press(pilot, *["left"] * 15)
        assert tree.position == n - 15 and tree.materialized < 200
        assert_mirrors_model(tree)
        await press(pilot, *["left_square_bracket"] * 3, *["n"] * 10)
        assert tree.materialized < 200
        assert_mirrors_model(tree)
        await press(pilot, "home", *["right"] * 12)
        assert tree.position == 12
        assert_mirrors_model(tree)


async def test_keys_wait_while_a_long_trace_is_indexed(monkeypatch: pytest.MonkeyPatch) -> None:
    import workbench.screens.stepper as stepper
    from workbench.replay import Replay

    release = threading.Event()

    class SlowReplay(Replay):
        def __init__(self, events: Any, result: Any = None) -> None:
            if len(events):
                assert release.wait(10)
            super().__init__(events, result)

    monkeypatch.setattr(stepper, "Replay", SlowReplay)
    monkeypatch.setattr(stepper, "INDEX_IN_THREAD", 10)
    result = planned(DINNER)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.push_screen(StepperScreen(result.trace, result, DINNER.title))
        await press(pilot, "n", "end")  # the UI answers; stepping waits for the index
        screen = app.screen
        assert isinstance(screen, StepperScreen)
        assert "Indexing" in str(screen.query_one("#step-position").render())
        assert screen.query_one(SearchTree).labels() == []
        release.set()
        await app.workers.wait_for_complete()
        await press(pilot, "end")
        assert screen.query_one(SearchTree).position == len(result.trace.events)
        assert_mirrors_model(screen.query_one(SearchTree))


async def test_a_run_without_a_trace_says_so() -> None:
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        screen = await open_stepper(app, pilot, None, None, "nothing")
        await press(pilot, "n", "end")
        assert screen.query_one(SearchTree).position == 0
        notes = [m.notification.message for m in messages if isinstance(m, Notify)]
        assert any("no trace to replay" in n for n in notes)


# --------------------------------------------------------------------------- why not


async def open_why_not(
    app: WorkbenchApp,
    pilot: Pilot[None],
    request: ProblemRef,
    result: RunResult,
    task: str,
    label: str,
    **kw: Any,
) -> WhyNotScreen:
    cp = next(c for c in result.choice_points if c.task == task)
    alt = next(a for a in cp.alternatives if a.label == label)
    await pilot.pause()
    await app.push_screen(WhyNotScreen(request, result, cp, alt, **kw))
    await app.workers.wait_for_complete()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, WhyNotScreen)
    return screen


async def test_why_not_cash_the_ace() -> None:
    result = planned(FINESSE)
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        screen = await open_why_not(app, pilot, FINESSE, result, "South: play the suit", "CashAce")
        finished = {id(m): m for m in messages if isinstance(m, ForcedRunFinished)}
        assert len(finished) == 1
        c = screen.contrast
        assert c is not None and c.forced.value == pytest.approx(87.2)
        summary = screen.summary
        assert "the value is 87.2 against 260: far worse, by 172.8" in summary
        assert "if the king stands" in summary and "loses 266.4 overall" in summary
        assert "As planned (Finesse): value 260" in summary
        assert "Forced (CashAce): value 87.2" in summary
        assert "difference -172.8 (worse by 172.8)" in summary
        assert (
            "They part at South: play the suit: Finesse as planned, CashAce when forced" in summary
        )
        base = screen.query_one("#base-plan", PlanColumn)
        forced = screen.query_one("#forced-plan", PlanColumn)
        assert base.texts[0] == "» ◆ South: play the suit: Finesse"
        assert forced.texts[0] == "» ◆ South: play the suit: CashAce"
        assert "  2. The defence takes a trick (West to play)" in forced.texts
        assert "≠ 2. East plays low" in base.texts
        assert str(base.border_title) == "As planned: Finesse · 260"
        assert str(forced.border_title) == "Forced: CashAce · 87.2"
        await press(pilot, "escape")
        assert isinstance(app.screen, PlanScreen)


async def test_why_not_movie_first_explains_no_plan() -> None:
    result = planned(DINNER)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_why_not(
            app, pilot, DINNER, result, "Go to dinner and a movie", "MovieThenDinner"
        )
        summary = screen.summary
        assert "With MovieThenDinner forced at Go to dinner and a movie there is no plan" in summary
        assert "now() <= last_seating(R)" in summary
        assert "Forced (MovieThenDinner): no plan" in summary
        forced = screen.query_one("#forced-plan", PlanColumn)
        assert forced.texts[0] == "» ◆ Go to dinner and a movie: MovieThenDinner"
        assert forced.texts[-1].startswith("≠ ✗ no plan: HaveDinner(the Mongolian Barbecue)")
        assert screen.query_one("#whynot-summary").has_class("-failed")


async def test_why_not_reports_a_failed_run_without_crashing() -> None:
    def broken(*_: Any, **__: Any) -> RunResult:
        raise ValueError("the store is locked")

    result = planned(DINNER)
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        screen = await open_why_not(
            app, pilot, DINNER, result, "Go to dinner and a movie", "MovieThenDinner", runner=broken
        )
        assert (
            "Could not re-plan with MovieThenDinner forced: the store is locked" in screen.summary
        )
        notes = [m.notification for m in messages if isinstance(m, Notify)]
        assert any("the store is locked" in n.message and n.severity == "error" for n in notes)
        assert app.is_running


async def test_leaving_why_not_cancels_the_forced_run() -> None:
    started = threading.Event()
    seen: list[CancelToken] = []

    def slow(
        request: ProblemRef,
        base: RunResult,
        choice: Any,
        alternative: str,
        db: Any,
        *,
        settings: Any,
        cancel: CancelToken,
        progress: Any,
    ) -> RunResult:
        seen.append(cancel)
        started.set()
        for _ in range(500):
            if cancel.cancelled:
                break
            threading.Event().wait(0.01)
        return RunResult("dinner", "dinner", "first", Status.CANCELLED, None, [], [], 0, 0, 0.0)

    result = planned(DINNER)
    cp = result.choice_points[0]
    alt = next(a for a in cp.alternatives if not a.chosen)
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.push_screen(WhyNotScreen(DINNER, result, cp, alt, runner=slow))
        assert started.wait(5)
        assert isinstance(app.screen, WhyNotScreen)
        assert (
            "Re-planning examples/dinner from Go to dinner and a movie (node 0) with "
            "MovieThenDinner taken"
        ) in app.screen.summary
        await press(pilot, "escape")
        await app.workers.wait_for_complete()
        assert seen and seen[0].cancelled
        assert isinstance(app.screen, PlanScreen)


# --------------------------------------------------------------------------- integration


async def test_s_and_w_from_the_plan() -> None:
    """The planning screen's `s` opens the step-through and `w` the why-not comparison."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        plan_screen = app.screen
        picker = plan_screen.query_one(ProblemPicker)
        picker.focus()
        assert picker.select(DINNER)
        await press(pilot, "r")
        await app.workers.wait_for_complete()
        await pilot.pause()
        tree = plan_screen.query_one(PlanTree)
        tree.focus()
        await press(pilot, "s")
        assert isinstance(app.screen, StepperScreen)
        await press(pilot, "end")
        assert "Node 0 chose DinnerThenMovie" in app.screen.query_one(StepPanel).text
        await press(pilot, "escape")
        assert app.screen is plan_screen

        await press(pilot, "w")  # on the summary line: nothing to force
        assert app.screen is plan_screen
        await press(pilot, "down", "down")  # choice point -> MovieThenDinner
        await press(pilot, "w")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, WhyNotScreen)
        assert "there is no plan" in app.screen.summary


async def test_the_panel_writes_values_as_the_runs_reader_does() -> None:
    """RM1's values are minutes, written with two decimals and the unit by its reader's
    view ("642.33 min"); the step panel says the root's value the same way, never the
    trace's raw float."""
    result = planned(RM1)
    assert result.explanation is not None and result.value is not None
    said = result.explanation.phrasing.value(result.value)
    assert said.endswith(" min") and said.split()[0].count(".") == 1
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_stepper(app, pilot, result.trace, result, RM1.title)
        await press(pilot, "end")
        tree = screen.query_one(SearchTree)
        root = tree.top_lines()[0]
        tree.move_cursor(tree.node_of(root))
        await pilot.pause()
        text = str(screen.query_one(StepPanel).text)
        assert f"Value {said} (" in text, text
