"""An HDDL domain in the workbench: imported into a store, its problem picked, planned,
stepped through and explained by the generic screens, and its text edited with live
validation in the HDDL editor (``workbench/domains/hddl``)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static, TextArea, Tree

from engine.tofs import Status
from tests.test_app import SIZE, run_problem, screen_of
from workbench.app import WorkbenchApp
from workbench.cli import main
from workbench.domains.hddl.editor import HddlEditorScreen
from workbench.kb.catalog import open_store
from workbench.runner import ProblemRef
from workbench.screens.stepper import StepperScreen
from workbench.widgets import ExplanationPane, PlanTree, ProblemPicker

EXAMPLES = Path(__file__).resolve().parent.parent / "knowledge" / "hddl" / "examples"
P1 = ProblemRef("hddl", "delivery-p1", "delivery")


def imported(tmp_path: Path) -> Path:
    db = tmp_path / "store.db"
    files = [EXAMPLES / f for f in ("delivery-domain.hddl", "delivery-p1.hddl")]
    assert main(["kb", "import", *map(str, files), "--db", str(db)]) == 0
    return db


async def test_an_hddl_problem_is_planned_stepped_and_explained(tmp_path: Path) -> None:
    app = WorkbenchApp(imported(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        picker = screen_of(app).query_one(ProblemPicker)
        hddl = next(n for n in picker.root.children if str(n.label) == "hddl")
        assert [str(c.label) for c in hddl.children] == ["delivery/delivery-p1"]
        await run_problem(app, pilot, P1)
        view = screen_of(app).view
        assert view is not None
        result = view.result
        assert result.status is Status.OK
        assert [s.operator for s in result.plan] == [
            "drive",
            "load",
            "drive",
            "unload",
            "load",
            "drive",
            "unload",
        ]
        # The plan tree shows the choice at (deliver books south): why deliver-here failed.
        tree = screen_of(app).query_one(PlanTree)
        assert tree.root.children
        pane = screen_of(app).query_one(ExplanationPane)
        assert "delivery" in pane.source
        # Step through the run's trace.
        await pilot.press("s")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, StepperScreen)


async def test_the_hddl_editor_validates_and_saves(tmp_path: Path) -> None:
    db = imported(tmp_path)
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        picker = screen_of(app).query_one(ProblemPicker)
        assert picker.select(P1)
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HddlEditorScreen)
        outline: Tree[tuple[int, int]] = screen.query_one("#hddl-outline", Tree)
        sections = [str(n.label) for n in outline.root.children]
        assert sections == [
            "types (8)",  # truck van vehicle package depot city, and locatable location
            "constants (1)",
            "predicates (5)",
            "tasks (2)",
            "methods (4)",
            "actions (3)",
        ]
        area = screen.query_one("#hddl-text", TextArea)
        original = area.text
        # Break it: an undeclared predicate in the drive action's effect.
        area.load_text(original.replace("(at ?v ?to)))", "(parked ?v ?to)))", 1))
        screen.validate()
        issues = screen.query_one("#hddl-issues", Static)
        assert screen.problems and "line" in screen.problems[0]
        assert "parked" in " ".join(screen.problems)
        assert issues.has_class("invalid")
        assert screen.action_save() is False
        # Mend it differently: a comment-free rename of a method is a real edit.
        area.load_text(original.replace("deliver-here", "already-there"))
        screen.validate()
        assert not screen.problems
        before = screen.revision
        assert screen.action_save() is True
        assert screen.revision > before
    store = open_store(db)
    try:
        methods = [m.name for m in store.load("delivery").methods]
    finally:
        store.close()
    assert methods[0] == "already-there"
