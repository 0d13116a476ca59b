"""Pilot tests of the Textual workbench: picker, planner worker, plan tree, explanations.

Each test drives the real app headless at a fixed size.  The planner runs in a thread
worker, so tests wait for it with ``app.workers.wait_for_complete()`` and then
``pilot.pause()`` so the messages it posted are handled before asserting.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets.tree import TreeNode

from engine.tofs import Status
from engine.tofs.explanation import describe_alternative
from workbench.app import WorkbenchApp
from workbench.messages import PlanFailed, PlanFinished, PlanProgress
from workbench.runner import ProblemRef
from workbench.screens import HelpScreen, PlanScreen
from workbench.widgets import ExplanationPane, PlanTree, ProblemPicker, StatusLine
from workbench.widgets.explain_md import md
from workbench.widgets.plan_items import AlternativeItem, PolicyItem

SIZE = (120, 40)
DINNER = ProblemRef("examples", "dinner")
FINESSE = ProblemRef("examples", "finesse")
RM1_TEXT = Path(__file__).resolve().parents[1] / "knowledge/edaps/designs/RM1.txt"


def walk(node: TreeNode[Any]) -> Iterator[TreeNode[Any]]:
    yield node
    for child in node.children:
        yield from walk(child)


def labels(tree: PlanTree) -> list[str]:
    return [str(n.label) for n in walk(tree.root)]


def screen_of(app: WorkbenchApp) -> PlanScreen:
    screen = app.screen
    assert isinstance(screen, PlanScreen)
    return screen


async def run_problem(app: WorkbenchApp, pilot: Pilot[None], request: ProblemRef) -> None:
    """Highlight ``request`` in the picker and press the Run binding, as a user would."""
    await pilot.pause()
    picker = screen_of(app).query_one(ProblemPicker)
    picker.focus()
    assert picker.select(request)
    await pilot.pause()
    assert picker.current is not None and picker.current.request == request
    # The cursor moves after the next refresh (call_after_refresh): on a loaded machine
    # one pause may not reach it.
    for _ in range(40):
        if picker.cursor_node is not None and picker.cursor_node.data == picker.current:
            break
        await pilot.pause(0.05)
    assert picker.cursor_node is not None and picker.cursor_node.data == picker.current
    await pilot.press("r")
    await app.workers.wait_for_complete()
    await pilot.pause()


async def full_audit(app: WorkbenchApp, pilot: Pilot[None]) -> None:
    """Leave the reader's view for the full audit: the tree lists every alternative as
    the audit names it (``f``), the pane explains with every number (``a``)."""
    screen = screen_of(app)
    tree = screen.query_one(PlanTree)
    tree.focus()
    assert tree.filter == "reader" and not screen.audit  # the default
    await pilot.press("f", "a")
    await pilot.pause()
    assert tree.filter == "all" and screen.audit


def find(tree: PlanTree, name: str) -> TreeNode[Any]:
    """The first node for the alternative (or policy move) called ``name``."""

    def name_of(item: object) -> str | None:
        if isinstance(item, AlternativeItem):
            return item.alternative.label
        if isinstance(item, PolicyItem) and item.edge is not None:
            return item.edge.label
        return None

    return next(n for n in walk(tree.root) if name_of(n.data) == name)


def once(messages: list[Message], kind: type[Message]) -> list[Any]:
    """Messages of ``kind``, each counted once (the hook sees a message at every node it
    bubbles through)."""
    unique: dict[int, Message] = {}
    for m in messages:
        if isinstance(m, kind):
            unique.setdefault(id(m), m)
    return list(unique.values())


async def test_picker_lists_examples_and_problems() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        picker = screen_of(app).query_one(ProblemPicker)
        packages = {str(n.label): [str(c.label) for c in n.children] for n in picker.root.children}
        assert "examples" in packages
        assert {"dinner", "finesse"} <= set(packages["examples"])
        # The cursor starts on the first problem listed, and the pane describes it.
        first = picker.entries()[0]
        assert picker.current == first
        assert picker.cursor_node is not None and picker.cursor_node.data == first
        assert first.request.problem in screen_of(app).query_one(ExplanationPane).source
        # Highlighting dinner shows its description.
        assert picker.select(DINNER)
        await pilot.pause()
        assert "backtrack" in screen_of(app).query_one(ExplanationPane).source


async def test_run_dinner_shows_chosen_and_dead_end() -> None:
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await run_problem(app, pilot, DINNER)
        screen = screen_of(app)
        tree = screen.query_one(PlanTree)
        # The reader's view: the knowledge's labels, the dead end said in words.
        reader = labels(tree)
        assert any(t.startswith("✓ Dinner first, then the movie") for t in reader)
        assert any(
            t.startswith("✗ Movie first, then dinner") and "no plan below" in t for t in reader
        )
        assert not any("DinnerThenMovie" in t for t in reader)
        await full_audit(app, pilot)
        text = labels(tree)
        chosen = find(tree, "DinnerThenMovie")
        assert str(chosen.label).startswith("✓ DinnerThenMovie")
        assert isinstance(chosen.data, AlternativeItem) and chosen.data.alternative.chosen
        dead = find(tree, "MovieThenDinner")
        assert str(dead.label).startswith("✗ MovieThenDinner")
        assert "dead end" in str(dead.label)
        assert any("Watch Grosse Pointe Blank" in t for t in text)
        assert "value 367" in text[0]

        finished = once(messages, PlanFinished)
        assert len(finished) == 1
        assert finished[0].request == DINNER
        assert finished[0].run_id == screen.run_id
        assert finished[0].result.value == 367
        assert not screen.running
        status = screen.query_one(StatusLine)
        assert status.has_class("-ok")
        assert "value 367" in str(status.render())


async def test_highlighting_an_alternative_explains_it() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, DINNER)
        screen = screen_of(app)
        tree = screen.query_one(PlanTree)
        assert app.focused is tree and tree.cursor_node is tree.root
        # The reader's view of the dead end: its label and its deepest failure.
        await pilot.press("down", "down")  # root -> choice point -> movie first
        await pilot.pause()
        source = screen.query_one(ExplanationPane).source
        assert "Movie first, then dinner" in source and "tried, no plan below" in source
        assert "MovieThenDinner" not in source
        await full_audit(app, pilot)
        tree.move_cursor(tree.root)
        await pilot.pause()
        await pilot.press("down", "down")  # root -> choice point -> MovieThenDinner
        await pilot.pause()
        node = tree.cursor_node
        assert node is not None and isinstance(node.data, AlternativeItem)
        item = node.data
        assert item.alternative.label == "MovieThenDinner"
        source = screen.query_one(ExplanationPane).source
        sentence = describe_alternative(item.alternative, item.choice, "first")
        assert md(sentence) in source
        assert "dead end: no complete plan below" in source
        assert "now() <= last_seating(R)" in source  # the failing condition
        assert "1447" in source and "1290" in source  # and the values it saw

        await pilot.press("down")  # DinnerThenMovie, the chosen one
        await pilot.pause()
        assert "chosen: value 367" in screen.query_one(ExplanationPane).source


async def test_run_finesse_shows_policy_with_probabilities() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, FINESSE)
        screen = screen_of(app)
        tree = screen.query_one(PlanTree)
        assert isinstance(tree.root.data, PolicyItem)
        # The reader's view folds what never applied into one counted line.
        assert any("did not apply here" in t for t in labels(tree))
        await full_audit(app, pilot)
        duck = find(tree, "Duck")
        assert str(duck.label).startswith("▸ Duck")  # East's planned (most likely) move
        assert "p=0.9" in str(duck.label)
        rise = find(tree, "Rise")
        assert "p=0.1" in str(rise.label) and "620" in str(rise.label)
        cash_ace = find(tree, "CashAce")
        assert str(cash_ace.label).startswith("✗ CashAce")
        assert "lower value" in str(cash_ace.label)
        # Alternatives that never applied are listed too, dimmed with their reason.
        assert any("precondition failed" in t for t in labels(tree))

        tree.move_cursor(duck)
        await pilot.pause()
        source = screen.query_one(ExplanationPane).source
        assert "opponent move (planned move), p = 0.9" in source
        assert "East plays low" in source


async def test_a_lower_valued_alternative_shows_its_relevant_issues() -> None:
    """Cashing the ace (87.2) against the finesse (260): the pane names the branches where
    the two part -- the king standing (p = 0.74) costs 0.74 x (260 + 100) = 266.4."""
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, FINESSE)
        screen = screen_of(app)
        tree = screen.query_one(PlanTree)
        reader = find(tree, "CashAce")  # the reader's view: the label and the words
        assert str(reader.label).startswith("✗ Cash the ace at once") and "far worse" in str(
            reader.label
        )
        tree.move_cursor(reader)
        await pilot.pause()
        assert "far worse (by 172.8)" in screen.query_one(ExplanationPane).source
        await full_audit(app, pilot)
        cash_ace = find(tree, "CashAce")
        assert "lower value, far worse" in str(cash_ace.label)  # the badge
        tree.move_cursor(cash_ace)
        await pilot.pause()
        source = screen.query_one(ExplanationPane).source
        assert "far worse: 87.2 against 260" in source
        assert "### Relevant issues" in source
        assert "if the king stands" in source and "loses 266.4 overall" in source


async def test_expand_all_builds_the_whole_policy() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, FINESSE)
        await full_audit(app, pilot)
        tree = screen_of(app).query_one(PlanTree)
        assert not any("KingGuarded" in t for t in labels(tree))  # built lazily
        await pilot.press("e")
        await pilot.pause()
        text = labels(tree)
        assert any("KingGuarded" in t and "p=0.96" in t for t in text)
        assert any("KingStands" in t and "p=0.74" in t for t in text)


async def test_bad_problem_text_is_reported_not_fatal() -> None:
    """A stored design the parser refuses: the error crosses from the planning process
    as the parser's own message, with the line it names."""
    from workbench.kb.catalog import open_store

    lines = RM1_TEXT.read_text("utf-8").splitlines()
    lines[1] = "O thin"  # the conductor resistivity must be a number
    store = open_store(None)
    store.set_problem("edaps", "BROKEN", "edaps-design", "\n".join(lines) + "\n")
    store.close()
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await run_problem(app, pilot, ProblemRef("edaps", "BROKEN"))
        screen = screen_of(app)
        failed = once(messages, PlanFailed)
        assert len(failed) == 1 and failed[0].error_type == "DesignError"
        assert failed[0].message.startswith("BROKEN:2:")
        assert not any(isinstance(m, PlanFinished) for m in messages)
        status = screen.query_one(StatusLine)
        assert status.has_class("-error")
        assert "BROKEN:2:" in str(status.render())
        assert "BROKEN:2:" in screen.query_one(ExplanationPane).source
        notes = [m.notification for m in once(messages, Notify)]
        assert any("BROKEN:2:" in n.message and n.severity == "error" for n in notes)
        assert app.is_running and not screen.running


async def test_cancel_stops_a_running_search() -> None:
    """A search of several seconds (four RM1 boards, full tree, no pruner) in the planning
    process: progress reaches the status line, and Escape stops it."""
    from textual.widgets import Checkbox

    from knowledge.edaps.generate import stuck_together
    from knowledge.edaps.parser import format_design, load_design
    from workbench.kb.catalog import open_store
    from workbench.widgets.run_options import RunOptions

    rm1 = load_design(RM1_TEXT)
    store = open_store(None)
    store.set_problem("edaps", "URM3", "edaps-design", format_design(stuck_together(rm1, 4)))
    store.close()
    messages: list[Message] = []
    app = WorkbenchApp()
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        screen = screen_of(app)
        await pilot.pause()
        options = screen.query_one(RunOptions)
        options.query_one("#opt-full-tree", Checkbox).value = True
        options.query_one("#opt-prune", Checkbox).value = False
        assert screen.query_one(ProblemPicker).select(ProblemRef("edaps", "URM3"))
        await pilot.pause()
        await pilot.press("r")
        for _ in range(500):  # let a progress message reach the status line
            await pilot.pause(0.02)
            if "nodes" in str(screen.query_one(StatusLine).render()):
                break
        assert screen.running
        assert "Planning edaps/URM3" in str(screen.query_one(StatusLine).render())
        await pilot.press("escape")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert any(isinstance(m, PlanProgress) for m in messages)
        [finished] = once(messages, PlanFinished)
        assert finished.result.status is Status.CANCELLED
        assert 0 < finished.result.nodes < 274_310  # URM3's full tree, had it finished
        assert not screen.running
        status = screen.query_one(StatusLine)
        assert status.has_class("-warning") and "cancelled" in str(status.render())


async def test_messages_from_a_superseded_run_are_ignored() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, DINNER)
        screen = screen_of(app)
        tree = screen.query_one(PlanTree)
        before = labels(tree)
        screen.post_message(PlanFailed(screen.run_id - 1, FINESSE, "stale", "ValueError"))
        await pilot.pause()
        assert labels(tree) == before
        assert screen.query_one(StatusLine).has_class("-ok")


async def test_help_screen_lists_bindings_and_closes() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.markdown()
        for expected in ("**r**  Run", "Cancel", "Expand all", "Quit", "Help", "Cursor Up"):
            assert expected in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, PlanScreen)


async def test_command_palette_offers_run_commands() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Run" in titles and "Help" in titles
        assert "Run examples/finesse" in titles
        command = next(
            c for c in app.get_system_commands(app.screen) if c.title == "Run examples/finesse"
        )
        command.callback()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(screen_of(app).query_one(PlanTree).root.data, PolicyItem)


async def test_q_quits() -> None:
    app = WorkbenchApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_knowledge_tests_run_from_the_workbench(tmp_path) -> None:
    """`t` runs the highlighted problem's domain tests on the store and shows a report."""
    app = WorkbenchApp(tmp_path / "kb.db")
    seen: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await pilot.pause()
        picker = screen_of(app).query_one(ProblemPicker)
        picker.focus()
        assert picker.select(ProblemRef("edaps", "RM1"))
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        from workbench.messages import TestsFinished

        done = [m for m in seen if isinstance(m, TestsFinished)]
        assert len(done) == 1 and (done[0].passed, done[0].failed) == (5, 0)
        source = screen_of(app).query_one(ExplanationPane).source
        assert "# Knowledge tests: edaps" in source and "RM1 lead time" in source
        assert "5 passed, 0 failed" in str(screen_of(app).query_one(StatusLine).render())


async def test_the_workbench_plans_what_the_store_holds(tmp_path) -> None:
    """An edit in the store (spraying becomes cheapest) changes the app's next plan."""
    from workbench.kb.catalog import open_store

    db = tmp_path / "kb.db"
    store = open_store(db)
    store.edit(
        "edaps",
        "constant",
        "spray_minutes",
        {"name": "spray_minutes", "value": 0.1},
        base=store.revision("edaps"),
    )
    store.close()
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, ProblemRef("edaps", "RM1"))
        shown = "\n".join(labels(screen_of(app).query_one(PlanTree)))
        assert "✓ Spray" in shown and "✗ Spindle" in shown
    assert open_store(db).runs("edaps")[-1]["problem"] == "RM1"


async def test_export_markdown_and_svg(tmp_path) -> None:
    """`x` writes the plan and its explanations as Markdown; `X` saves the screen as SVG."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).export_folder = tmp_path
        await run_problem(app, pilot, DINNER)
        await pilot.press("x")  # the reader's view, as the pane shows it
        await pilot.press("a", "x")  # the full audit
        await pilot.press("X")
        await pilot.pause()
    reader = (tmp_path / "examples-dinner.md").read_text()
    assert "## Explanation" in reader and "movie first, then dinner: tried, no plan" in reader
    assert "MovieThenDinner" not in reader
    assert "MovieThenDinner" in (tmp_path / "examples-dinner-2.md").read_text()
    svg = tmp_path / "examples-dinner-screen.svg"
    assert svg.read_text().startswith("<svg")


async def test_run_options_are_applied_and_checked(tmp_path) -> None:
    """A node budget stops the run (status says so); a bad budget is refused with a message."""
    from textual.widgets import Input

    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.query_one("#opt-nodes", Input).value = "abc"
        await pilot.pause()
        assert screen.start_run(ProblemRef("edaps", "RM1")) is None
        assert "Node budget: expected a whole number" in str(screen.query_one(StatusLine).render())
        screen.query_one("#opt-nodes", Input).value = "100"
        await run_problem(app, pilot, ProblemRef("edaps", "RM1"))
        assert screen.view is not None
        assert screen.view.result.status is Status.NODE_BUDGET
        assert screen.view.result.nodes == 100
        assert screen.view.result.trace is not None  # recorded for step-through


async def test_plan_tree_filters(tmp_path) -> None:
    """`f` cycles: the reader's view -> all considered -> chosen path only -> rejected
    alternatives only.  The reader's view names processes by the knowledge's labels and
    folds those that never applied into one counted line."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, ProblemRef("edaps", "RM1"))
        tree = screen_of(app).query_one(PlanTree)
        tree.focus()
        reader = "\n".join(labels(tree))
        assert "✓ Spindle photoresist from heated mylar" in reader
        assert "✗ Spread photoresist from a spinner" in reader and "slightly worse" in reader
        assert "1 other process did not apply here" in reader and "✗ Paint" not in reader
        assert "→ Spindle photoresist from heated mylar" in reader
        await pilot.press("f")
        assert tree.border_title is not None and "all considered" in tree.border_title
        everything = "\n".join(labels(tree))
        assert "✓ Spindle" in everything and "✗ Spread" in everything
        await pilot.press("f")
        chosen = "\n".join(labels(tree))
        assert "✓ Spindle" in chosen and "✗ Spread" not in chosen and "✗ Paint" not in chosen
        assert tree.border_title is not None and "chosen path only" in tree.border_title
        await pilot.press("f")
        rejected = "\n".join(labels(tree))
        assert "✗ Spread" in rejected and "partial-plan pruned" in rejected
        assert "✓ Spindle" not in rejected
        await pilot.press("f")
        assert "\n".join(labels(tree)) == reader
