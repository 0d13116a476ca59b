"""Pilot tests of the EDAPS views: process plan, critique, and the design editor screen.

The editor screen is pushed onto the real workbench app, on a private store per test
(``tmp_path/"kb.db"``).  Planning runs in a thread worker, so tests wait for it with
``app.workers.wait_for_complete()`` and a pause; validation is debounced, so tests either
wait for it (polling, with a deadline) or make the debounce long and check it did not run.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, TabbedContent, TextArea

from knowledge import get_package
from knowledge.edaps.parser import load_design
from knowledge.edaps.report import DESIGNS, EdapsRun, plan_design
from workbench.app import WorkbenchApp
from workbench.domains.edaps.critique import CritiqueView
from workbench.domains.edaps.design_editor import DesignPlanned, DesignSaved, DesignScreen
from workbench.domains.edaps.process_plan import ProcessPlanView
from workbench.domains.edaps.tables import STALE_NOTE
from workbench.kb.catalog import open_store
from workbench.palette import screen_commands
from workbench.screens.save_as import SaveAsScreen
from workbench.screens.unsaved import UnsavedEditsScreen
from workbench.widgets.status_line import StatusLine

SIZE = (120, 40)


def run_of(name: str) -> EdapsRun:
    return plan_design(get_package("edaps").domain("edaps"), load_design(DESIGNS / f"{name}.txt"))


def stored(db: Path | None, name: str) -> str | None:
    assert db is not None  # the test's own store, never the default one
    store = open_store(db)
    try:
        return store.problem_text("edaps", name)
    finally:
        store.close()


def cell_texts(table: DataTable, key: str) -> list[str]:
    return [str(c) for c in table.get_row(key)]


def problem_lines(screen: DesignScreen) -> list[str]:
    options = screen.query_one("#design-problems", OptionList)
    return [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]


def notes(messages: list[Message]) -> list[tuple[str, str]]:
    seen: dict[int, Notify] = {}
    for m in messages:
        if isinstance(m, Notify):
            seen.setdefault(id(m), m)
    return [(m.notification.message, m.notification.severity) for m in seen.values()]


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 5.0) -> None:
    """Pause until ``condition`` holds (the debounce and worker are asynchronous)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the screen"
        await pilot.pause(0.05)


async def checked(pilot: Pilot[None], screen: DesignScreen) -> None:
    """Wait for the debounced check of the editor's current text (under load the timer may
    also fire between keystrokes, on a text the user has not finished typing)."""
    await until(pilot, lambda: screen.checked_text == screen.editor.text)


async def open_design(
    app: WorkbenchApp, pilot: Pilot[None], name: str | None, **kwargs: Any
) -> DesignScreen:
    await pilot.pause()
    screen = DesignScreen(app.db, name, **kwargs)
    # Pushed from the app's own task, as a binding would, so the screen's task inherits
    # the context that carries run_test's message hook.
    app.call_later(app.push_screen, screen)
    await until(pilot, lambda: app.screen is screen and screen.is_mounted)
    await pilot.pause()
    return screen


async def plan_it(app: WorkbenchApp, pilot: Pilot[None]) -> None:
    await pilot.press("ctrl+r")
    await app.workers.wait_for_complete()
    await pilot.pause()


def active_tab(screen: DesignScreen) -> str:
    return screen.query_one(TabbedContent).active


# ---------------------------------------------------------------- the design screen


async def test_echo_tab_shows_the_translated_input(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        assert screen.editor.text == stored(app.db, "RM1")
        assert not screen.dirty and screen.checked.ok
        echo = screen.query_one("#echo-text", TextArea)
        assert echo.text.startswith("Begin echo of translated input.")
        assert echo.read_only
        screen.query_one(TabbedContent).active = "tab-echo"
        await pilot.pause()
        assert echo.region.height > 0  # visible in its tab
        summary = screen.query_one("#design-summary", DataTable)
        assert cell_texts(summary, "components") == ["Components", "18"]
        assert cell_texts(summary, "pths") == ["Plated through-holes", "5"]
        assert problem_lines(screen) == ["✓ The design parses."]


async def test_plan_rm1_shows_the_published_plan(tmp_path: Path) -> None:
    seen: list[Message] = []
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_design(app, pilot, "RM1")
        await plan_it(app, pilot)
        assert any(isinstance(m, DesignPlanned) for m in seen)
        assert active_tab(screen) == "tab-plan"
        view = screen.query_one(ProcessPlanView)
        table = view.query_one(DataTable)
        assert cell_texts(table, "999T") == [
            "999",
            "T",
            "",
            "319.70",
            "322.63",
            "01",
            "Total time to manufacture",
        ]
        assert cell_texts(table, "001A01")[:3] == ["001", "A", "VMC1"]
        assert table.row_count == len(view.rows) and table.has_focus
        assert "lead time 642.33 min" in view.header_text
        assert "642.33" in str(view.query_one("#plan-header").render())
        critique = screen.query_one(CritiqueView)
        assert critique.header_text.startswith("RM1 is manufacturable: lead time 642.33")
        assert not critique.query_one(DataTable).display
        status = screen.query_one(StatusLine)
        assert status.has_class("-ok") and "642.33" in str(status.render())
        assert not screen.running


async def test_plan_rum1_shows_the_critique(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RUM1")
        await plan_it(app, pilot)
        assert active_tab(screen) == "tab-critique"
        critique = screen.query_one(CritiqueView)
        table = critique.query_one(DataTable)
        assert table.row_count == 1
        feature, what, where, requested, achievable, measure, line = cell_texts(table, "d0")
        assert (feature, what, where) == ("H5", "hole", "(0.20, 2.40)")
        assert (requested, achievable, measure, line) == ("1.5", "2.0", "tolerance (mils)", "14")
        assert critique.message_text.startswith("ERROR: Tolerance of 1.5000 mils is not achievable")
        assert "is 2.0000 mils." in critique.message_text
        plan = screen.query_one(ProcessPlanView)
        assert plan.rows == [] and "RUM1 cannot be made" in plan.header_text
        assert screen.query_one(StatusLine).has_class("-warning")
        # enter on the diagnostic shows its input line in the editor
        assert table.has_focus
        await pilot.press("enter")
        await pilot.pause()
        assert active_tab(screen) == "tab-design" and screen.editor.has_focus
        assert screen.editor.selected_text.startswith("H 0.2 2.4 1 0.15 1.5")


async def test_an_error_is_listed_and_save_is_refused(tmp_path: Path) -> None:
    seen: list[Message] = []
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_design(app, pilot, "RM1")
        before = stored(app.db, "RM1")
        editor = screen.editor
        assert editor.document.get_line(20) == "D 4 6 1"
        editor.move_cursor((20, 4))
        await pilot.press("delete", "a", "b", "c")  # "D 4 abc 1", typed
        assert screen.dirty and screen.sub_title == "RM1 ●"
        await checked(pilot, screen)
        assert problem_lines(screen) == ["21:5  expected a number for <width>, found 'abc'"]
        assert editor.has_class("-invalid")

        await pilot.press("ctrl+s")
        await pilot.pause()
        assert stored(app.db, "RM1") == before
        assert any(
            "Not saved" in text and "21:5" in text and severity == "error"
            for text, severity in notes(seen)
        )
        assert screen.query_one(StatusLine).has_class("-error")
        assert screen.dirty

        # Planning is refused too, without starting a worker.
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not screen.running and not app.workers
        assert any("before planning" in text for text, _ in notes(seen))

        # Choosing the problem puts the cursor on it.
        options = screen.query_one("#design-problems", OptionList)
        options.focus()
        options.highlighted = 0
        await pilot.press("enter")
        await pilot.pause()
        assert editor.has_focus and editor.cursor_location == (20, 4)


async def test_fixing_and_saving_writes_the_store(tmp_path: Path) -> None:
    seen: list[Message] = []
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_design(app, pilot, "RM1")
        editor = screen.editor
        editor.replace("abc", (20, 4), (20, 5))
        await checked(pilot, screen)
        assert not screen.checked.ok
        editor.replace("7", (20, 4), (20, 7))  # "D 4 7 1": fixed, and a new board width
        await checked(pilot, screen)
        assert screen.checked.ok
        assert problem_lines(screen) == ["✓ The design parses."]
        await pilot.press("ctrl+s")
        await pilot.pause()
        text = stored(app.db, "RM1")
        assert text is not None and "\nD 4 7 1\n" in text and text == editor.text
        assert not screen.dirty and screen.sub_title == "RM1"
        assert any(isinstance(m, DesignSaved) and m.name == "RM1" and not m.new for m in seen)
        assert (
            cell_texts(screen.query_one("#design-summary", DataTable), "board")[1] == "4 × 7 × 1 in"
        )


async def test_validation_is_debounced(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        screen.DEBOUNCE = 30.0  # nothing may be checked until the typing pauses
        # Loading the text armed a timer at the old debounce; on a loaded machine it can
        # fire between the two keys below.  Checking now disarms it, so every timer from
        # here on is one the typing armed.
        screen.validate_now()
        await pilot.pause()
        screen.editor.move_cursor((20, 4))
        await pilot.press("delete", "x")
        await pilot.pause(0.2)
        assert screen.checked.ok and problem_lines(screen) == ["✓ The design parses."]
        assert screen.checked_text != screen.editor.text
        screen.validate_now()  # what the timer would call
        await pilot.pause()
        assert problem_lines(screen)[0].startswith("21:5  expected a number")


async def test_save_as_creates_a_new_problem(tmp_path: Path) -> None:
    seen: list[Message] = []
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_design(app, pilot, "RM1")
        screen.editor.replace("0.02", (21, 2), (21, 7))  # "G 0.02"
        await pilot.press("f2")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, SaveAsScreen)
        name = modal.query_one(Input)
        assert name.value == "RM1-edited"
        name.value = "rm1"  # taken (case does not matter): refused, with the reason
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is modal
        assert "already a design called RM1" in str(modal.query_one("#save-as-why").render())
        name.value = "RM1-wide-gap"
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert screen.design_name == "RM1-wide-gap" and not screen.dirty
        text = stored(app.db, "RM1-wide-gap")
        assert text is not None and "\nG 0.02\n" in text
        assert "\nG 0.015\n" in (stored(app.db, "RM1") or "")  # the original is untouched
        store = open_store(app.db)
        rows = {r["name"]: r for r in store.problems("edaps")}
        store.close()
        assert rows["RM1-wide-gap"]["kind"] == "edaps-design"
        assert rows["RM1-wide-gap"]["description"] == "edited from RM1"
        assert any(isinstance(m, DesignSaved) and m.new for m in seen)


async def test_save_as_can_be_cancelled(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, SaveAsScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.design_name == "RM1"
        store = open_store(app.db)
        assert len(store.problems("edaps")) == 3
        store.close()


async def test_a_new_design_is_saved_through_save_as(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, None)
        assert screen.checked.ok and screen.dirty and screen.sub_title == "(new design) ●"
        await pilot.press("ctrl+s")
        await pilot.pause()
        modal = app.screen
        assert isinstance(modal, SaveAsScreen)
        modal.query_one(Input).value = "Blank"
        await pilot.press("enter")
        await pilot.pause()
        assert stored(app.db, "Blank") == screen.editor.text
        assert screen.design_name == "Blank"


async def test_plan_uses_the_edited_text_and_the_stores_knowledge(tmp_path: Path) -> None:
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
        screen = await open_design(app, pilot, "RM1")
        # RUM1's one difference, typed into RM1 and not saved: now unmanufacturable.
        assert screen.editor.document.get_line(13) == "H 0.2 2.4 1 0.15 2.5"
        screen.editor.replace("1.5", (13, 17), (13, 20))
        await plan_it(app, pilot)
        assert active_tab(screen) == "tab-critique"
        assert screen.query_one(CritiqueView).rows[0].cells()[2] == "(0.20, 2.40)"
        screen.editor.replace("2.5", (13, 17), (13, 20))
        screen.validate_now()
        critique = screen.query_one(CritiqueView)
        assert critique.stale  # the critique is of the text before this edit, and says so
        assert str(critique.query_one("#critique-header").render()).startswith(STALE_NOTE)
        await plan_it(app, pilot)
        assert active_tab(screen) == "tab-plan"
        assert not critique.stale and not screen.query_one(ProcessPlanView).stale
        descriptions = [r.description for r in screen.query_one(ProcessPlanView).rows]
        assert any(d.startswith("Spray photoresist") for d in descriptions)


async def test_plan_on_open(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1", plan_on_open=True)
        await until(pilot, lambda: screen.query_one(ProcessPlanView).run is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert active_tab(screen) == "tab-plan"


@pytest.mark.parametrize(("name", "tab"), [("RM1", "tab-plan"), ("RUM1", "tab-critique")])
async def test_a_run_from_the_planning_screen_is_shown_not_replanned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, tab: str
) -> None:
    """What PlanScreen's `v` does: hand over its RunResult; the screen adds the critique."""
    import workbench.domains.edaps.design_editor as editor_module
    from engine.tofs import CancelToken
    from workbench import runner
    from workbench.runner import ProblemRef

    db = tmp_path / "kb.db"
    result = runner.execute(ProblemRef("edaps", name), CancelToken(), lambda _: None, db)

    def never(*_: object) -> EdapsRun:
        raise AssertionError("planned again")

    monkeypatch.setattr(editor_module, "plan_design_text", never)
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, name, result=result)
        await until(pilot, lambda: screen.query_one(ProcessPlanView).run is not None)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert active_tab(screen) == tab
        run = screen.query_one(ProcessPlanView).run
        assert run is not None and run.result is result
        if name == "RM1":
            assert "lead time 642.33" in screen.query_one(ProcessPlanView).header_text
        else:
            [row] = screen.query_one(CritiqueView).rows
            assert row.cells()[2:5] == ("(0.20, 2.40)", "1.5", "2.0")


async def test_a_failing_plan_is_reported_not_fatal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import workbench.domains.edaps.design_editor as editor_module

    def broken(*_: object) -> EdapsRun:
        raise ValueError("the knowledge names unknown task 'Nap'")

    monkeypatch.setattr(editor_module, "plan_design_text", broken)
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        await plan_it(app, pilot)
        assert app.is_running and not screen.running
        status = screen.query_one(StatusLine)
        assert status.has_class("-error") and "unknown task 'Nap'" in str(status.render())
        assert "planning failed" in screen.query_one(ProcessPlanView).header_text


async def test_unknown_name_starts_a_new_design_under_that_name(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "Nope")
        assert screen.saved_text is None and screen.dirty
        assert screen.query_one(StatusLine).has_class("-warning")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert stored(app.db, "Nope") == screen.editor.text


async def test_opening_by_another_case_saves_under_the_stored_name(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "rm1")
        assert screen.design_name == "RM1"
        screen.editor.replace("0.02", (21, 2), (21, 7))
        await pilot.press("ctrl+s")
        await pilot.pause()
        store = open_store(app.db)
        names = [r["name"] for r in store.problems("edaps")]
        store.close()
        assert names == ["MULTI", "RM1", "RUM1"]
        assert "\nG 0.02\n" in (stored(app.db, "RM1") or "")


async def test_escape_asks_about_unsaved_changes_then_leaves(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        await pilot.press("escape")  # nothing changed: leaves at once
        await pilot.pause()
        assert app.screen is not screen
        screen = await open_design(app, pilot, "RM1")
        screen.editor.insert("\n")
        await pilot.pause()
        await pilot.press("escape")  # asks: escape again stays
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert screen.has_unsaved_edits()
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")  # discard
        await until(pilot, lambda: app.screen is not screen and not screen.is_attached)
        assert stored(app.db, "RM1") == screen.saved_text


# ---------------------------------------------------------------- the widgets alone


class Host(App[None]):
    """A tiny app holding one widget, to test it without the workbench around it."""

    def __init__(self, widget: ProcessPlanView | CritiqueView) -> None:
        super().__init__()
        self.widget = widget

    def compose(self) -> ComposeResult:
        yield self.widget


async def test_process_plan_view_alone() -> None:
    run = run_of("RM1")
    view = ProcessPlanView()
    view.show_run(run)  # before mounting: shown when it mounts
    app = Host(view)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = view.query_one(DataTable)
        assert [str(c.label) for c in table.columns.values()] == [
            "Opn",
            "A",
            "BC/WW",
            "Setup",
            "Runtime",
            "LN",
            "Description",
        ]
        assert table.row_count == len(view.rows) > 100
        assert cell_texts(table, "999T")[3:5] == ["319.70", "322.63"]
        totals = [r for r in view.rows if r.kind == "total"]
        assert cell_texts(table, totals[0].key)[6] == "Total time on VMC1"
        assert "lead time 642.33" in view.header_text
        view.show_run(run_of("RUM1"))
        await pilot.pause()
        assert table.row_count == 0 and not table.display
        assert "cannot be made" in view.header_text
        view.clear()
        await pilot.pause()
        assert view.run is None and view.header_text == ProcessPlanView.EMPTY


async def test_critique_view_alone() -> None:
    view = CritiqueView()
    app = Host(view)
    seen: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        await pilot.pause()
        assert view.header_text == CritiqueView.EMPTY and view.selected is None
        view.show_run(run_of("MULTI"))
        await pilot.pause()
        table = view.query_one(DataTable)
        assert table.row_count == len(view.rows) == 4  # MULTI: four unmanufacturable features
        assert view.has_class("-bad")
        first = view.rows[0].diagnostic
        assert view.selected == first and view.message_text == f"ERROR: {first.message}"
        table.focus()
        await pilot.press("down")
        await pilot.pause()
        second = view.rows[1].diagnostic
        assert view.selected == second and view.message_text == f"ERROR: {second.message}"
        await pilot.press("enter")
        await pilot.pause()
        chosen = [m for m in seen if isinstance(m, CritiqueView.DiagnosticSelected)]
        assert chosen and chosen[0].diagnostic == second
        view.show_run(run_of("RM1"))
        await pilot.pause()
        assert view.has_class("-ok") and not view.has_class("-bad")
        assert "manufacturable: lead time 642.33" in view.header_text
        assert table.row_count == 0 and view.message_text == ""
        assert not view.query_one("#critique-message").display


async def test_tabs_and_commands(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        commands = {c.title: c.callback for c in screen_commands(screen)}
        assert {
            "Design: save",
            "Design: save as…",
            "Design: plan it",
            "Design: show echo",
            "Design: show critique",
        } <= set(commands)
        commands["Design: show echo"]()
        await pilot.pause()
        assert active_tab(screen) == "tab-echo"
        assert screen.query_one("#echo-text", TextArea).has_focus
        commands["Design: plan it"]()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert active_tab(screen) == "tab-plan"
        commands["Design: show input"]()
        await pilot.pause()
        assert active_tab(screen) == "tab-design" and screen.editor.has_focus


async def test_a_design_saved_elsewhere_meanwhile_is_not_overwritten(tmp_path: Path) -> None:
    """Two editors of one design: the second save is refused, and the first one's text
    stays in the store (the editor keeps its own, unsaved)."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_design(app, pilot, "RM1")
        theirs = (stored(app.db, "RM1") or "").replace("\nG 0.015\n", "\nG 0.03\n")
        other = open_store(app.db)
        try:
            other.set_problem("edaps", "RM1", "edaps-design", theirs, "someone else's")
        finally:
            other.close()
        screen.editor.replace("0.02", (21, 2), (21, 7))
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert stored(app.db, "RM1") == theirs
        assert screen.dirty
        status = str(screen.query_one(StatusLine).render())
        assert "saved by someone else" in status, status
