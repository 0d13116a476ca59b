"""The acceptance journey of the workbench, driven with keys in one session of the real app:
edit a method precondition to an invalid expression (the error is shown and the store does
not change), fix it, run RM1, open the plan tree, expand a pruned alternative and read its
reason, force it with why-not, and step the trace back and forth.

The other Pilot tests check each screen in depth; this one checks that the screens work
together, in the order a knowledge engineer uses them.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Static

from engine.tofs import Reason
from workbench.app import WorkbenchApp
from workbench.kb.catalog import open_store
from workbench.runner import ProblemRef
from workbench.screens import PlanScreen
from workbench.screens.editor import EditorScreen
from workbench.screens.stepper import StepperScreen
from workbench.screens.whynot import WhyNotScreen
from workbench.widgets import ExplanationPane, PlanTree, ProblemPicker
from workbench.widgets.item_form import FieldInput
from workbench.widgets.kb_fields import ItemRef
from workbench.widgets.kb_tree import KnowledgeTree
from workbench.widgets.plan_items import AlternativeItem
from workbench.widgets.step_panel import StepPanel

SIZE = (120, 40)
RM1 = ProblemRef("edaps", "RM1")
PAINT = ItemRef("method", "ApplyPhotoresist.Paint")


async def settle(app: WorkbenchApp, pilot: Pilot[None]) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


def digest(db: Path) -> tuple[str, ...]:
    return tuple(
        hashlib.sha256(p.read_bytes()).hexdigest() if p.exists() else ""
        for p in (db, db.with_name(db.name + "-wal"))
    )


async def test_edit_run_explain_force_and_step(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        plan_screen = app.screen
        assert isinstance(plan_screen, PlanScreen)
        picker = plan_screen.query_one(ProblemPicker)
        picker.focus()
        assert picker.select(RM1)
        await settle(app, pilot)

        # --- the editor opens on RM1's domain; an invalid precondition is refused
        await pilot.press("f2")
        await settle(app, pilot)
        editor = app.screen
        assert isinstance(editor, EditorScreen) and editor.domain == "edaps"
        tree = editor.query_one(KnowledgeTree)
        tree.focus()
        assert tree.select_item(PAINT)
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        pre = editor.query_one("#f-precondition", FieldInput)
        original = pre.value
        pre.focus()
        await pilot.press("end", "ctrl+u", *"min_gap( > paint_min_gap")
        await pilot.pause()
        error = editor.query_one("#e-precondition", Static)
        assert error.has_class("-shown") and "syntax error" in str(error.render())
        before = digest(db)
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert digest(db) == before  # the store is unchanged, byte for byte
        # --- fixed: the error goes, the save makes a revision
        await pilot.press("end", "ctrl+u", *original.replace("min_gap()", "min_gap( )"))
        await pilot.pause()
        assert not error.has_class("-shown")
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        store = open_store(db)
        saved = next(
            m
            for m in store.load("edaps").methods
            if m.task == "ApplyPhotoresist" and m.name == "Paint"
        )
        assert saved.precondition == original.replace("min_gap()", "min_gap( )")
        store.close()
        tree.focus()
        await pilot.press("f2")  # close the editor
        await settle(app, pilot)
        assert app.screen is plan_screen

        # --- run RM1 from the picker
        picker.focus()
        await pilot.press("r")
        await settle(app, pilot)
        plan_tree = plan_screen.query_one(PlanTree)
        assert isinstance(plan_screen, PlanScreen) and plan_screen.view is not None
        assert abs((plan_screen.view.result.value or 0) - 642.3271) < 1e-3
        assert app.focused is plan_tree

        # --- show only the rejected alternatives, walk to a partial-plan pruned one, and
        # read the full audit of it
        await pilot.press("f", "f", "f", "a")
        await pilot.pause()
        for _ in range(200):
            node = plan_tree.cursor_node
            data = node.data if node is not None else None
            if (
                isinstance(data, AlternativeItem)
                and data.alternative.reason is Reason.PARTIAL_PLAN_PRUNED
            ):
                break
            await pilot.press("down")
            await pilot.pause()
        else:
            raise AssertionError("no partial-plan pruned alternative reached with the keys")
        item = data
        await pilot.press("space")  # expand it
        await pilot.pause()
        reason = plan_screen.query_one(ExplanationPane).source
        assert "partial-plan pruned" in reason
        assert item.alternative.detail is not None and "costs" in reason

        # --- why not this alternative?
        await pilot.press("w")
        await settle(app, pilot)
        why = app.screen
        assert isinstance(why, WhyNotScreen) and why.contrast is not None
        c = why.contrast
        assert c.applied is True and c.forced.value is not None
        assert abs(c.forced.value - (item.alternative.value or 0)) < 1e-6  # as claimed
        assert c.loss is not None and c.loss > 0
        assert f"Forced ({item.alternative.label})" in why.summary
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is plan_screen

        # --- step through the trace: forward to the first choice, back, to the end
        await pilot.press("s")
        await settle(app, pilot)
        stepper = app.screen
        assert isinstance(stepper, StepperScreen)
        panel = stepper.query_one(StepPanel)
        start = panel.text
        await pilot.press("right", "right", "right")
        await pilot.pause()
        forward = panel.text
        assert forward != start
        await pilot.press("left", "left", "left")
        await pilot.pause()
        assert panel.text == start
        await pilot.press("end")
        await pilot.pause()
        assert panel.text not in (start, forward)
        await pilot.press("escape")
        await settle(app, pilot)
        assert app.screen is plan_screen
