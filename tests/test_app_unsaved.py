"""Nothing lost on quit: the Save / Discard / Stay question, and drafts that survive a
killed terminal.

Each test drives the real workbench app on its own store (``tmp_path/"kb.db"``) and checks
both the screen and the store (a save is one new revision; a discard or a refused save
changes nothing).  Waits are for conditions, never for time: ``until`` polls with a
deadline.  The draft delay is shortened (``fast_drafts``) so the tests do not sit out a
second of idleness; "killed" means the app is torn down without its quit action, which
is all a killed terminal leaves behind too.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.app import App
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.widgets import Input, Select, TextArea

from workbench.app import WorkbenchApp
from workbench.domains.bridge.deal_editor import DealEditorScreen, edit_board
from workbench.domains.edaps.design_editor import DesignScreen
from workbench.domains.edaps.design_form import DESIGN_KIND
from workbench.kb.catalog import open_store
from workbench.kb.drafts import Draft, DraftBox, digest, moved_on
from workbench.screens import PlanScreen
from workbench.screens.draft_offer import DraftOfferScreen
from workbench.screens.editor import EditorScreen
from workbench.screens.unsaved import GuardedScreen, UnsavedEditsScreen
from workbench.widgets.item_form import FieldInput, ItemForm
from workbench.widgets.kb_fields import ItemRef, find_item
from workbench.widgets.kb_tree import KnowledgeTree

SIZE = (120, 40)
PAINT = ItemRef("method", "ApplyPhotoresist.Paint")
ORIGINAL = "min_gap() > paint_min_gap"
FIXED = "min_gap() > paint_min_gap + 0.001"
INVALID = "min_gap( > paint_min_gap"


@pytest.fixture(autouse=True)
def fast_drafts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GuardedScreen, "DRAFT_DELAY", 0.05)


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting for the app"
        await pilot.pause(0.02)


def revision(db: Path) -> int:
    store = open_store(db)
    try:
        return store.revision("edaps")
    finally:
        store.close()


def precondition(db: Path) -> str:
    store = open_store(db)
    try:
        item = find_item(store.load("edaps"), PAINT)
        assert item is not None
        return str(item.precondition)
    finally:
        store.close()


def dialog(app: App[None]) -> UnsavedEditsScreen:
    screen = app.screen
    assert isinstance(screen, UnsavedEditsScreen)
    return screen


async def open_editor(app: WorkbenchApp, pilot: Pilot[None]) -> EditorScreen:
    """The knowledge editor on edaps, pushed from the app's own task (as f2 would)."""
    await pilot.pause()
    screen = EditorScreen(app.db, "edaps")
    app.call_later(app.push_screen, screen)
    await until(pilot, lambda: app.screen is screen and screen.spec is not None)
    await pilot.pause()
    return screen


async def edit_paint(pilot: Pilot[None], screen: EditorScreen, text: str) -> FieldInput:
    """Open ApplyPhotoresist.Paint and put ``text`` in its precondition (as a paste)."""
    tree = screen.query_one(KnowledgeTree)
    tree.focus()
    assert tree.select_item(PAINT)
    await until(pilot, lambda: screen.query_one(ItemForm).ref == PAINT)
    # The form names its item before its fields are mounted: wait for the field itself.
    await until(pilot, lambda: bool(screen.query("#f-precondition")))
    field = screen.query_one("#f-precondition", FieldInput)
    field.focus()
    await pilot.pause()
    field.value = text
    await until(pilot, lambda: screen.dirty)
    return field


# ---------------------------------------------------------------------- quitting


async def test_ctrl_q_asks_stay_keeps_the_edit_and_save_saves_then_quits(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        before = revision(db)
        field = await edit_paint(pilot, screen, FIXED)

        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        text = str(dialog(app).query_one("#unsaved-text").render())
        assert "method ApplyPhotoresist.Paint in edaps" in text and "quitting" in text

        await pilot.press("escape")  # stay
        await until(pilot, lambda: app.screen is screen)
        assert app.is_running and field.value == FIXED and screen.has_unsaved_edits()
        assert app.focused is field  # back in the form, where the edit is
        assert revision(db) == before

        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("s")  # save
        await until(pilot, lambda: not app.is_running)
    assert revision(db) > before
    assert precondition(db) == FIXED
    store = open_store(db)
    assert [r.action for r in store.history("edaps")][-1] == "update"  # exactly one revision
    assert len(store.history("edaps")) == 2
    store.close()
    assert DraftBox(db).all() == []  # saved: no draft left behind


async def test_discard_drops_the_edit_and_quits(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        before = revision(db)
        await edit_paint(pilot, screen, FIXED)
        await until(pilot, lambda: DraftBox(db).all() != [])  # kept while unsaved
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")
        await until(pilot, lambda: not app.is_running)
    assert revision(db) == before and precondition(db) == ORIGINAL
    assert DraftBox(db).all() == []  # discarded: the draft goes too


async def test_a_refused_save_stays_with_the_edit(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    seen: list[Message] = []
    async with app.run_test(size=SIZE, message_hook=seen.append) as pilot:
        screen = await open_editor(app, pilot)
        before = revision(db)
        field = await edit_paint(pilot, screen, INVALID)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("s")
        await until(pilot, lambda: app.screen is screen)
        await pilot.pause()
        assert app.is_running and field.value == INVALID and screen.has_unsaved_edits()
        assert revision(db) == before
        notes = [m.notification.message for m in seen if isinstance(m, Notify)]
        assert any("were not saved" in n and "still there" in n for n in notes)
        assert "refused" in str(screen.query_one("#kb-outcome").render())


async def test_no_question_without_unsaved_edits(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await open_editor(app, pilot)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: not app.is_running)


async def test_the_palette_quit_asks_too(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        await edit_paint(pilot, screen, FIXED)
        quit_command = next(c for c in app.get_system_commands(screen) if c.title == "Quit")
        assert "asked" in quit_command.help
        app.call_later(quit_command.callback)
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.click("#unsaved-stay")  # the buttons work as the keys do
        await until(pilot, lambda: app.screen is screen)
        assert app.is_running and screen.has_unsaved_edits()


# ---------------------------------------------------------------------- leaving, switching


async def test_leaving_or_reverting_the_editor_asks(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        field = await edit_paint(pilot, screen, FIXED)

        await pilot.press("escape")  # revert asks first
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("escape")  # stay
        await until(pilot, lambda: app.screen is screen)
        assert field.value == FIXED

        await pilot.press("f2")  # leave
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        assert "leaving the editor" in str(dialog(app).query_one("#unsaved-text").render())
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert field.value == FIXED

        await pilot.press("f2")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert precondition(db) == ORIGINAL
        assert DraftBox(db).all() == []


async def test_opening_another_item_asks(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        field = await edit_paint(pilot, screen, FIXED)
        tree = screen.query_one(KnowledgeTree)
        tree.focus()
        other = ItemRef("constant", "paint_min_gap")
        assert tree.select_item(other)  # highlighting keeps the edited item open
        await pilot.pause()
        assert screen.query_one(ItemForm).ref == PAINT
        await pilot.press("enter")  # opening it asks
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is screen)
        assert screen.query_one(ItemForm).ref == PAINT and field.value == FIXED
        tree.focus()
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")
        await until(pilot, lambda: screen.query_one(ItemForm).ref == other)
        assert not screen.has_unsaved_edits() and precondition(db) == ORIGINAL


async def test_quitting_asks_about_every_editor_with_edits(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        design = DesignScreen(db, "RM1")
        app.call_later(app.push_screen, design)
        await until(pilot, lambda: app.screen is design and design.is_mounted)
        design.editor.insert("\n")
        screen = await open_editor(app, pilot)  # over the design editor (as the palette does)
        await edit_paint(pilot, screen, FIXED)
        before = revision(db)
        await pilot.press("ctrl+q")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        assert "knowledge editor" in str(dialog(app).query_one("#unsaved-text").render())
        await pilot.press("d")  # the method's edits go ...
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        assert "design RM1" in str(dialog(app).query_one("#unsaved-text").render())
        await pilot.press("s")  # ... the design's are saved, then the app quits
        await until(pilot, lambda: not app.is_running)
    assert revision(db) == before and precondition(db) == ORIGINAL
    store = open_store(db)
    assert store.problem_text("edaps", "RM1") == design.saved_text
    assert (design.saved_text or "").startswith("\n")
    store.close()


async def test_switching_domain_asks(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        field = await edit_paint(pilot, screen, FIXED)
        picker = screen.query_one("#kb-domain", Select)
        picker.value = "dinner"
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("escape")  # stay: still edaps, the picker says so too
        await until(pilot, lambda: app.screen is screen and picker.value == "edaps")
        await pilot.pause()
        assert screen.domain == "edaps" and field.value == FIXED

        picker.value = "dinner"
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("s")  # save, then switch
        await until(pilot, lambda: screen.domain == "dinner")
        assert precondition(db) == FIXED


async def test_the_design_editor_asks_and_saves(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = DesignScreen(db, "RM1")
        app.call_later(app.push_screen, screen)
        await until(pilot, lambda: app.screen is screen and screen.is_mounted)
        screen.editor.insert("\n")  # a blank line: still a design that parses
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        assert "design RM1" in str(dialog(app).query_one("#unsaved-text").render())
        await pilot.press("s")
        await until(pilot, lambda: not screen.is_attached)
        store = open_store(db)
        assert store.problem_text("edaps", "RM1") == screen.saved_text
        store.close()


# ---------------------------------------------------------------------- drafts


async def test_a_draft_survives_a_killed_terminal_and_is_restored(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        before = revision(db)
        await edit_paint(pilot, screen, FIXED)
        await until(pilot, lambda: len(DraftBox(db).all()) == 1)
    # The app is gone without quitting (run_test tears it down; no question was asked).
    (draft,) = DraftBox(db).all()
    assert (draft.editor, draft.domain, draft.kind, draft.name) == (
        "knowledge",
        "edaps",
        "method",
        PAINT.name,
    )
    assert draft.fields["precondition"] == FIXED and draft.base == before
    assert precondition(db) == ORIGINAL and revision(db) == before  # not in the knowledge

    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DraftOfferScreen))
        offer = app.screen
        assert isinstance(offer, DraftOfferScreen)
        text = offer.text()
        assert "method ApplyPhotoresist.Paint in edaps" in text and draft.when() in text
        assert "changed since" not in text
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, EditorScreen))
        restored = app.screen
        assert isinstance(restored, EditorScreen)
        await until(pilot, lambda: restored.query_one(ItemForm).ref == PAINT)
        await until(pilot, lambda: bool(restored.query("#f-precondition")))
        field = restored.query_one("#f-precondition", FieldInput)
        assert field.value == FIXED and restored.has_unsaved_edits()  # filled, not saved
        assert revision(db) == before
        await pilot.press("ctrl+s")
        await until(pilot, lambda: not restored.has_unsaved_edits())
        assert precondition(db) == FIXED
        await until(pilot, lambda: DraftBox(db).all() == [])


async def test_typing_without_a_pause_still_writes_the_draft(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(GuardedScreen, "DRAFT_DELAY", 600.0)  # the pause never comes
    monkeypatch.setattr(GuardedScreen, "DRAFT_MAX_WAIT", 0.0)
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_editor(app, pilot)
        field = await edit_paint(pilot, screen, FIXED)
        assert DraftBox(db).all() == []
        field.value = FIXED + " + 0"
        await until(pilot, lambda: len(DraftBox(db).all()) == 1)
        assert DraftBox(db).all()[0].fields["precondition"] == FIXED + " + 0"


async def test_an_offered_draft_says_the_store_moved_on_and_can_be_discarded(
    tmp_path: Path,
) -> None:
    db = tmp_path / "kb.db"
    store = open_store(db)
    base = store.revision("edaps")
    box = DraftBox(db)
    box.put(Draft("knowledge", "edaps", "method", PAINT.name, {"precondition": FIXED}, base=base))
    store.edit(
        "edaps", "constant", "paint_min_gap", {"name": "paint_min_gap", "value": 0.005}, base=base
    )
    store.close()
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DraftOfferScreen))
        offer = app.screen
        assert isinstance(offer, DraftOfferScreen)
        assert f"made at r{base}" in offer.text() and "changed since" in offer.text()
        await pilot.press("escape")  # later: kept for the next start
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert len(box.all()) == 1
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DraftOfferScreen))
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert box.all() == []


async def test_a_design_draft_is_restored(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = DesignScreen(db, "RM1")
        app.call_later(app.push_screen, screen)
        await until(pilot, lambda: app.screen is screen and screen.is_mounted)
        screen.editor.insert("* a note\n")
        edited = screen.editor.text
        await until(pilot, lambda: len(DraftBox(db).all()) == 1)
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DraftOfferScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, DesignScreen))
        restored = app.screen
        assert isinstance(restored, DesignScreen)
        assert restored.query_one("#design-text", TextArea).text == edited
        assert restored.has_unsaved_edits() and restored.dirty


async def test_a_deal_draft_is_restored_into_the_deal_editor(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        plan = app.screen
        assert isinstance(plan, PlanScreen)
        app.call_later(edit_board, app, db, "353021")
        await until(pilot, lambda: isinstance(app.screen, DealEditorScreen))
        screen = app.screen
        assert isinstance(screen, DealEditorScreen)
        screen.query_one("#deal-board", Input).value = "7b"
        await until(pilot, lambda: len(DraftBox(db).all()) == 1)
    (draft,) = DraftBox(db).all()
    assert (draft.editor, draft.domain, draft.name) == ("deal", "bridge", "353021")
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DraftOfferScreen))
        await pilot.press("r")
        await until(pilot, lambda: isinstance(app.screen, DealEditorScreen))
        screen = app.screen
        assert isinstance(screen, DealEditorScreen)
        await pilot.pause()
        assert screen.query_one("#deal-board", Input).value == "7b"
        assert screen.has_unsaved_edits()
        await pilot.press("escape")  # leaving asks; discarding removes the draft
        await until(pilot, lambda: isinstance(app.screen, UnsavedEditsScreen))
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, PlanScreen))
        assert DraftBox(db).all() == []


# ---------------------------------------------------------------------- the draft box


def test_drafts_are_files_beside_the_store_never_in_it(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    open_store(db).close()
    before = db.read_bytes()
    box = DraftBox(db)
    assert box.folder == tmp_path / "kb.db.drafts"
    draft = Draft("design", "edaps", "design", "RM1", {"text": "x"}, base_digest=digest("y"))
    box.put(draft)
    box.put(Draft("design", "edaps", "design", "RM1", {"text": "xy"}))  # replaces it
    (kept,) = box.all()
    assert kept.fields == {"text": "xy"} and kept.pid == os.getpid()
    assert [p.name for p in box.folder.iterdir()] == [f"{box._file(draft.key).name}"]
    assert db.read_bytes() == before  # the store file is not touched
    (box.folder / "junk.json").write_text("{not json", encoding="utf-8")
    assert [d.name for d in box.all()] == ["RM1"]  # an unreadable file is skipped
    (box.folder / "junk.json").unlink()
    box.drop(draft.key)
    assert box.all() == [] and not box.folder.exists()


def test_a_live_workbenchs_draft_is_not_offered(tmp_path: Path) -> None:
    box = DraftBox(tmp_path / "kb.db")
    box.put(Draft("design", "edaps", "design", "RM1", {"text": "x"}))
    path = box._file(("design", "edaps", "design", "RM1"))
    data = json.loads(path.read_text(encoding="utf-8"))
    data["pid"] = os.getppid()  # the process that started this one: alive
    path.write_text(json.dumps(data), encoding="utf-8")
    assert len(box.all()) == 1 and box.left_over() == []
    data["pid"] = 2**22 + 12345  # beyond any pid in use
    path.write_text(json.dumps(data), encoding="utf-8")
    assert len(box.left_over()) == 1


def test_moved_on_names_what_changed(tmp_path: Path) -> None:
    store = open_store(tmp_path / "kb.db")
    try:
        base = store.revision("edaps")
        method = Draft("knowledge", "edaps", "method", PAINT.name, {}, base=base)
        assert moved_on(method, store) is None
        rm1 = store.problem_text("edaps", "RM1")
        design = Draft("design", "edaps", "design", "RM1", {}, base_digest=digest(rm1))
        assert moved_on(design, store) is None
        store.set_problem("edaps", "RM1", DESIGN_KIND, (rm1 or "") + "\n", "")
        assert "saved since" in (moved_on(design, store) or "")
        store.edit(
            "edaps",
            "constant",
            "paint_min_gap",
            {"name": "paint_min_gap", "value": 0.005},
            base=base,
        )
        assert f"r{base}" in (moved_on(method, store) or "")
        gone = Draft("knowledge", "nowhere", "task", "T", {})
        assert "no domain nowhere" in (moved_on(gone, store) or "")
    finally:
        store.close()
