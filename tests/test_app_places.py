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

from textual.widgets import TextArea

from engine.tofs import RunResult, Status
from engine.tofs.results import Blame
from knowledge.hddl.stored import hddl_text, stored_path
from tests.test_app import SIZE, run_problem, screen_of
from tests.test_hddl_blame import BROKEN, SOLVABLE, problem
from workbench.app import WorkbenchApp
from workbench.cli import main
from workbench.domains.hddl.editor import HddlEditorScreen
from workbench.kb.catalog import open_store
from workbench.messages import PlanFinished
from workbench.runner import ProblemRef
from workbench.widgets.failure_list import FailureList

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
