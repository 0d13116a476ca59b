"""Where to look when a run ends with no plan (issue 28, "in the workbench"): the planning
screen lists the deepest failure's blame and the suspects, enter on one opens the HDDL
editor (or the knowledge editor for a TOML domain) at the line, and ``kb test`` failures
carry the same blame.

The broken domain is ``tests/test_hddl_blame.py``'s Transport in miniature with the break
of the issue: ``pick_up`` no longer adds ``(in ?p ?v)``, so ``drop``'s precondition
``(in ?p ?v)`` -- which ``m_unload`` checks for its one step -- can never hold.  Lines are
found in the stored text by what is written there (the store keeps a canonical HDDL text,
whose lines are the ones planning blames), never copied from a run's output.
"""

from __future__ import annotations

from pathlib import Path

from textual.message import Message
from textual.notifications import Notify
from textual.widgets import TextArea

from engine.tofs import RunResult, Status
from engine.tofs.results import Blame
from knowledge.hddl.stored import hddl_text, stored_path
from tests.test_app import SIZE, once, run_problem, screen_of
from tests.test_hddl_blame import BROKEN, SOLVABLE, problem
from workbench.app import WorkbenchApp
from workbench.cli import main
from workbench.domains.hddl.editor import HddlEditorScreen
from workbench.kb.catalog import open_store
from workbench.messages import PlanFinished
from workbench.runner import ProblemRef
from workbench.screens.editor import EditorScreen
from workbench.widgets import ExplanationPane, ProblemPicker
from workbench.widgets.failure_list import FailureList
from workbench.widgets.item_form import FieldInput, ItemForm
from workbench.widgets.kb_fields import ItemRef

P1 = ProblemRef("hddl", "p1", "mini")


def broken_store(tmp_path: Path) -> Path:
    """A store holding the broken domain 'mini' and its problem 'p1'."""
    (tmp_path / "mini.hddl").write_text(BROKEN, encoding="utf-8")
    (tmp_path / "p1.hddl").write_text(problem(SOLVABLE), encoding="utf-8")
    db = tmp_path / "store.db"
    files = [str(tmp_path / "mini.hddl"), str(tmp_path / "p1.hddl"), "--db", str(db)]
    assert main(["kb", "import", *files]) == 0
    return db


def stored_text(db: Path, domain: str = "mini") -> str:
    store = open_store(db)
    try:
        return hddl_text(store.load(domain))
    finally:
        store.close()


def notes(messages: list[Message]) -> list[str]:
    """What the notifications said, in order."""
    return [m.notification.message for m in once(messages, Notify)]


def line_in_block(text: str, block: str, *needles: str) -> int:
    """The 1-based line, at or after the line opening ``block``, holding every needle."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if block in line)
    return next(i + 1 for i in range(start, len(lines)) if all(n in lines[i] for n in needles))


async def test_a_run_with_no_plan_blames_drop_and_enter_opens_the_line(tmp_path: Path) -> None:
    db = broken_store(tmp_path)
    drop_needs_in = line_in_block(stored_text(db), "(:action drop", ":precondition", "(in ?p ?v)")
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, P1)
        screen = screen_of(app)
        assert screen.view is not None and not screen.view.result.found
        places = screen.query_one(FailureList)
        assert places.display
        first = places.places[0]
        assert first.role == "deepest failure"
        assert first.blame.file == stored_path("mini") and first.blame.line == drop_needs_in
        # m_unload's one step is drop; it needs the box in the truck.
        assert "step 1 of m_unload, drop" in first.blame.text
        assert "(in box t1)" in first.blame.text
        palette = {c.title for c in app.get_system_commands(screen)}
        assert "Where to look: the blame and suspects of a run with no plan" in palette
        await pilot.press("b")
        await pilot.pause()
        assert screen.focused is places and places.highlighted == 0
        await pilot.press("enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, HddlEditorScreen) and editor.domain == "mini"
        area = editor.query_one("#hddl-text", TextArea)
        row, _ = area.cursor_location
        assert row + 1 == drop_needs_in
        assert "(in ?p ?v)" in area.document.get_line(row)


def no_plan(domain: str, problem_name: str, suspects: list[Blame]) -> RunResult:
    """A finished search with no plan and the given suspects, as a package would rank them
    (built here: the suspects of a real run are the package's analysis, tested there)."""
    return RunResult(
        domain=domain,
        problem=problem_name,
        mode="first",
        status=Status.NO_PLAN,
        value=None,
        plan=[],
        choice_points=[],
        nodes=1,
        tree_nodes=1,
        seconds=0.0,
        suspects=suspects,
    )


async def test_suspects_are_listed_in_rank_and_one_without_a_line_opens_nothing(
    tmp_path: Path,
) -> None:
    db = broken_store(tmp_path)
    pick_up_effect = line_in_block(stored_text(db), "(:action pick_up", ":effect")
    suspects = [
        Blame("`in` is added by no action", stored_path("mini"), pick_up_effect),
        Blame("`(in box t1)` is false in the initial state"),  # no file, no line
        Blame("`(at t1 a)` in the problem", stored_path("mini/p1"), 4),
    ]
    messages: list[Message] = []
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        places = screen.query_one(FailureList)
        assert not places.display  # nothing to look at before a run
        screen.post_message(PlanFinished(screen.run_id, P1, no_plan("mini", "p1", suspects)))
        await pilot.pause()
        assert places.display
        assert [p.role for p in places.places] == ["suspect 1", "suspect 2", "suspect 3"]
        assert [p.blame for p in places.places] == suspects
        rendered = [str(places.get_option_at_index(i).prompt) for i in range(3)]
        assert rendered[0].endswith(f"→ mini (stored HDDL):{pick_up_effect}")
        assert rendered[1].endswith("(no line to open)")
        await pilot.press("b", "down", "enter")  # the one with no line
        await pilot.pause()
        assert app.screen is screen
        assert "no line to open" in notes(messages)[-1]
        await pilot.press("down", "enter")  # a line of the problem: no editor edits it
        await pilot.pause()
        assert app.screen is screen
        assert "line 4 of the problem 'p1', not of the domain" in notes(messages)[-1]
        await pilot.press("home", "enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, HddlEditorScreen)
        area = editor.query_one("#hddl-text", TextArea)
        assert area.cursor_location[0] + 1 == pick_up_effect
        assert ":effect" in area.document.get_line(area.cursor_location[0])


async def test_a_place_in_a_toml_domain_opens_its_item_and_field(tmp_path: Path) -> None:
    """The dinner example: a blame on the line of WatchMovie's precondition opens the
    knowledge editor on operator WatchMovie with the cursor in its precondition."""
    db = tmp_path / "kb.db"
    store = open_store(db)  # seeds the bundled knowledge
    try:
        text = store.export("dinner")
    finally:
        store.close()
    watch = line_in_block(text, 'name = "WatchMovie"', "precondition = ")
    assert "has_ticket(M)" in text.splitlines()[watch - 1]
    suspect = Blame("WatchMovie needs has_ticket(M)", "dinner.toml", watch)
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        run = no_plan("dinner", "dinner", [suspect])
        screen.post_message(PlanFinished(screen.run_id, ProblemRef("examples", "dinner"), run))
        await pilot.pause()
        await pilot.press("b", "enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, EditorScreen)
        assert editor.query_one(ItemForm).ref == ItemRef("operator", "WatchMovie")
        focused = editor.focused
        assert isinstance(focused, FieldInput) and focused.spec.key == "precondition"
        assert "has_ticket(M)" in focused.value


async def test_knowledge_tests_in_the_app_carry_the_blame(tmp_path: Path) -> None:
    """``t`` on the planning screen: the failed test's lines name drop's line, as
    ``kb test`` does."""
    db = broken_store(tmp_path)
    line = line_in_block(stored_text(db), "(:action drop", ":precondition", "(in ?p ?v)")
    expect = '{"outcome": "solved"}'
    assert main(["kb", "set", "mini", "test", "delivers", "problem=p1", f"expect={expect}",
                 "--db", str(db)]) == 0  # fmt: skip
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert screen.query_one(ProblemPicker).select(P1)
        await pilot.pause()
        await pilot.press("t")
        await app.workers.wait_for_complete()
        await pilot.pause()
        report = screen.query_one(ExplanationPane).source
        assert "✗ **delivers**" in report
        assert f"drop (mini (stored HDDL):{line}), needs `(in box t1)`" in report
