"""Repairs in the workbench (issue 28): ``R`` on a run with no plan, or ``ctrl+r`` in the
HDDL editor, searches one-place edits of the stored domain in a worker, previews each
(summary, diff, the plan it gives) and ``a`` applies the highlighted one as the domain's
next revision -- refused, writing nothing, when the domain was saved meanwhile.

The broken domain is Transport in miniature with the issue's break (``pick_up`` no longer
adds ``(in ?p ?v)``; ``tests/test_app_places.py``).  What a repair must be is worked out
by hand from it: the only action that could add ``in`` is ``pick_up`` (it runs right
before the failing ``drop`` on the path, with ?p = box, ?v = t1), so the best repair adds
``(in ?p ?v)`` to its effect, and the plan it gives is the unbroken domain's: pick the box
up at a, drive to b, drop it there.
"""

from __future__ import annotations

import re
from pathlib import Path

from rich.syntax import Syntax
from textual.message import Message
from textual.pilot import Pilot
from textual.widgets import OptionList, Static, TextArea

from engine.tofs import Status
from tests.test_app import SIZE, run_problem, screen_of
from tests.test_app_places import P1, broken_store, line_in_block, notes, stored_text
from tests.test_app_reach import assert_every_binding_in_palette
from workbench.app import WorkbenchApp
from workbench.cli import main
from workbench.domains.hddl.editor import HddlEditorScreen
from workbench.domains.hddl.repair_view import RepairScreen
from workbench.kb.catalog import open_store

PLAN = ("(pick_up t1 a box)", "(drive t1 a b)", "(drop t1 b box)")


def revision(db: Path) -> int:
    store = open_store(db)
    try:
        return store.revision("mini")
    finally:
        store.close()


def pick_up_adds_in(text: str) -> bool:
    """Whether pick_up's effect (from its :effect to the next action), its deletes taken
    out, adds `(in ?p ?v)`."""
    lines = text.splitlines()
    start = line_in_block(text, "(:action pick_up", ":effect") - 1
    end = next(i for i in range(start, len(lines)) if "(:action drive" in lines[i])
    effect = re.sub(r"\(not\s*\([^()]*\)\)", "", " ".join(lines[start:end]))
    return "(in ?p ?v)" in effect


async def searched(app: WorkbenchApp, pilot: Pilot[None]) -> RepairScreen:
    """The repair screen on top, once its search has finished."""
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, RepairScreen)
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert not screen.searching
    return screen


async def test_r_on_a_run_with_no_plan_previews_and_applies_the_repair(tmp_path: Path) -> None:
    db = broken_store(tmp_path)
    before = revision(db)
    assert not pick_up_adds_in(stored_text(db))
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, P1)
        plan_screen = screen_of(app)
        assert plan_screen.view is not None and plan_screen.view.result.status is Status.NO_PLAN
        palette = {c.title for c in app.get_system_commands(plan_screen)}
        assert "Repair: one-place edits of the domain that make the problem plan" in palette
        await pilot.press("R")
        screen = await searched(app, pilot)
        await assert_every_binding_in_palette(app, screen)
        first = screen.repairs[0]
        assert first.valid and first.kind == "add-effect" and first.place == "pick_up"
        assert "(in ?p ?v)" in first.summary and "pick_up" in first.summary
        assert first.plan == PLAN
        # The preview: the summary, the diff coloured as a diff, the plan it gives.
        listing = screen.query_one("#repair-list", OptionList)
        assert listing.highlighted == 0 and first.summary in str(
            listing.get_option_at_index(0).prompt
        )
        diff = screen.query_one("#repair-diff", Static).content
        assert isinstance(diff, Syntax) and diff.lexer is not None and diff.lexer.name == "Diff"
        assert any(line.startswith("+") and "(in ?p ?v)" in line for line in diff.code.splitlines())
        plan_text = str(screen.query_one("#repair-plan", Static).content)
        assert all(step in plan_text for step in PLAN)
        await pilot.press("a")
        await pilot.pause()
        assert app.screen is plan_screen
        assert revision(db) > before
        assert pick_up_adds_in(stored_text(db))
        # The repaired domain plans.
        await run_problem(app, pilot, P1)
        view = screen_of(app).view
        assert view is not None and view.result.status is Status.OK
        assert [f"({s.operator} {' '.join(map(str, s.args))})" for s in view.result.plan] == list(
            PLAN
        )


async def test_a_repair_is_not_applied_over_an_edit_saved_meanwhile(tmp_path: Path) -> None:
    db = broken_store(tmp_path)
    messages: list[Message] = []
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await run_problem(app, pilot, P1)
        await pilot.press("R")
        screen = await searched(app, pilot)
        assert screen.repairs
        # Someone else saves the domain (a knowledge test added from the command line).
        expect = '{"outcome": "solved"}'
        assert main(["kb", "set", "mini", "test", "t", "problem=p1", f"expect={expect}",
                     "--db", str(db)]) == 0  # fmt: skip
        meanwhile = revision(db)
        await pilot.press("a")
        await pilot.pause()
        assert app.screen is screen  # still here, nothing applied
        assert revision(db) == meanwhile and not pick_up_adds_in(stored_text(db))
        said = notes(messages)[-1]
        assert said.startswith("Nothing was written: domain 'mini' changed after revision")
        assert f"it is now at revision {meanwhile}" in said
        # Searched again on the new revision, the repair applies.
        await pilot.press("ctrl+r")
        screen = await searched(app, pilot)
        assert screen.revision == meanwhile and screen.repairs
        await pilot.press("a")
        await pilot.pause()
        assert revision(db) > meanwhile and pick_up_adds_in(stored_text(db))


async def test_ctrl_r_in_the_hddl_editor_applies_a_repair_and_reloads(tmp_path: Path) -> None:
    db = broken_store(tmp_path)
    messages: list[Message] = []
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE, message_hook=messages.append) as pilot:
        await pilot.pause()
        app.push_screen(HddlEditorScreen(db, "mini"))
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, HddlEditorScreen)
        await assert_every_binding_in_palette(app, editor)
        area = editor.query_one("#hddl-text", TextArea)
        # Unsaved edits first: the repair searches the stored text, so it is refused.
        area.insert(" ")
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert isinstance(app.screen, HddlEditorScreen) and editor.dirty
        assert "Save (ctrl+s) or undo" in notes(messages)[-1]
        area.load_text(editor.saved_text)
        await pilot.press("ctrl+r")
        screen = await searched(app, pilot)
        assert screen.problem == "p1"  # the domain's one stored problem
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, HddlEditorScreen)
        assert pick_up_adds_in(area.text) and not editor.dirty
        assert editor.revision == revision(db)
