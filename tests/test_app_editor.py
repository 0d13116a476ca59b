"""Pilot tests of the knowledge editor screen, plus the pure field checks behind it.

Each app test opens the editor on its own store (``tmp_path/"kb.db"``, seeded from the
bundled knowledge) at a fixed size, drives it with keys as a user would, and checks both
what the screen shows and what the store holds.  The lint worker runs in a thread, so
tests wait with ``app.workers.wait_for_complete()`` and then ``pilot.pause()``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from textual.app import App
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select, Static, TabbedContent
from textual.widgets.tree import TreeNode

from engine.tofs.model import MethodDef
from workbench.kb.catalog import domain_owner, open_store
from workbench.palette import screen_commands
from workbench.screens.editor import EditorScreen
from workbench.screens.help import binding_rows
from workbench.screens.unsaved import UnsavedEditsScreen
from workbench.widgets.item_form import FieldInput, ItemForm
from workbench.widgets.kb_fields import (
    EditContext,
    ItemRef,
    build_value,
    check_form,
    find_item,
    item_values,
    primitive_near,
)
from workbench.widgets.kb_history_view import HistoryPanel
from workbench.widgets.kb_lint_view import LintList
from workbench.widgets.kb_tree import CallRef, KnowledgeTree

SIZE = (120, 40)
PAINT = ItemRef("method", "ApplyPhotoresist.Paint")
ORIGINAL = "min_gap() > paint_min_gap"
INVALID = "min_gap( > paint_min_gap"
FIXED = "min_gap() > paint_min_gap + 0.001"


class EditorApp(App[None]):
    """The editor pushed over an empty default screen, as the workbench will push it."""

    def __init__(self, db: Path, domain: str = "edaps") -> None:
        super().__init__()
        self.db = db
        self.domain = domain

    def on_mount(self) -> None:
        self.push_screen(EditorScreen(self.db, self.domain))


def editor(app: App[None]) -> EditorScreen:
    screen = app.screen
    assert isinstance(screen, EditorScreen)
    return screen


async def settle(app: App[None], pilot: Pilot[None]) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def start(app: EditorApp, pilot: Pilot[None]) -> EditorScreen:
    await settle(app, pilot)
    screen = editor(app)
    assert screen.spec is not None and screen.spec.name == app.domain
    return screen


async def open_paint(app: App[None], pilot: Pilot[None]) -> ItemForm:
    """Put the tree cursor on ApplyPhotoresist.Paint (opening it), then enter its form."""
    screen = editor(app)
    tree = screen.query_one(KnowledgeTree)
    tree.focus()
    assert tree.select_item(PAINT)
    await settle(app, pilot)
    assert tree.cursor_node is not None and tree.cursor_node.data == PAINT
    form = screen.query_one(ItemForm)
    assert form.ref == PAINT
    await pilot.press("enter")  # into the form
    await settle(app, pilot)
    assert isinstance(app.focused, FieldInput)
    return form


async def type_into(pilot: Pilot[None], field: Input, text: str) -> None:
    """Focus ``field``, clear it with keys and type ``text`` key by key."""
    field.focus()
    await pilot.pause()
    await pilot.press("end", "ctrl+u", *text)
    await pilot.pause()


async def paste_into(pilot: Pilot[None], field: Input, text: str) -> None:
    """Replace ``field``'s text in one edit, as a paste does (faster where typing is not
    the point of the test)."""
    field.focus()
    await pilot.pause()
    field.value = text
    await pilot.pause()


def error_of(screen: EditorScreen, dom_id: str) -> str:
    line = screen.query_one(f"#e-{dom_id}", Static)
    return str(line.render()) if line.has_class("-shown") else ""


def files_digest(db: Path) -> dict[str, str]:
    """Hashes of the database and its write-ahead log: the bytes a refused edit must keep."""
    out = {}
    for path in (db, db.with_name(db.name + "-wal")):
        out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else ""
    return out


def text_of(widget: Static) -> str:
    return str(widget.render())


def precondition_in_store(db: Path) -> str:
    store = open_store(db)
    try:
        item = find_item(store.load("edaps"), PAINT)
        assert item is not None
        return str(item.precondition)
    finally:
        store.close()


def revision_in_store(db: Path) -> int:
    store = open_store(db)
    try:
        return store.revision("edaps")
    finally:
        store.close()


# ---------------------------------------------------------------------- the main flow


async def test_edit_validate_refuse_save_history_undo(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        form = await open_paint(app, pilot)
        pre = screen.query_one("#f-precondition", FieldInput)
        assert pre.value == ORIGINAL
        assert error_of(screen, "precondition") == ""

        # Live validation: the error and its column show as the text is typed.
        await type_into(pilot, pre, INVALID)
        assert pre.value == INVALID
        err = error_of(screen, "precondition")
        assert "syntax error" in err and "column 10" in err
        assert pre.has_class("-bad") and form.dirty

        # Saving is refused by the store; not one byte of the file changes.
        store = open_store(db)
        before_spec = store.load("edaps")
        before_rev = store.revision("edaps")
        digest = files_digest(db)
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        outcome = text_of(screen.query_one("#kb-outcome", Static))
        assert "refused" in outcome and "column 10" in outcome
        assert screen.query_one(TabbedContent).active == "tab-outcome"
        assert files_digest(db) == digest
        assert store.load("edaps") == before_spec and store.revision("edaps") == before_rev
        assert pre.value == INVALID  # the text is kept for fixing

        # Fixing it (close the call, then add a margin) clears the error; saving makes a
        # new revision the history lists.
        pre.focus()
        await pilot.press("home", *["right"] * len("min_gap("), ")")
        await pilot.pause()
        assert error_of(screen, "precondition") == ""
        await pilot.press("end", *" + 0.001")
        await pilot.pause()
        assert pre.value == FIXED
        assert error_of(screen, "precondition") == "" and not pre.has_class("-bad")
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        saved = store.revision("edaps")
        assert saved > before_rev and screen.base == saved
        assert precondition_in_store(db) == FIXED
        assert f"Saved method ApplyPhotoresist.Paint as r{saved}" in text_of(
            screen.query_one("#kb-outcome", Static)
        )
        history = screen.query_one(HistoryPanel)
        assert history.revisions[0].id == saved
        newest = str(screen.query_one("#kb-revisions", OptionList).get_option_at_index(0).prompt)
        assert f"r{saved}" in newest and "update method ApplyPhotoresist.Paint" in newest
        form = screen.query_one(ItemForm)
        assert form.ref == PAINT and not form.dirty
        assert screen.query_one("#f-precondition", FieldInput).value == FIXED
        assert app.focused is screen.query_one("#f-precondition", FieldInput)  # keep typing

        # Undo (from the tree) restores the old precondition as a further revision.
        screen.query_one(KnowledgeTree).focus()
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert precondition_in_store(db) == ORIGINAL
        assert store.revision("edaps") > saved
        assert screen.query_one("#f-precondition", FieldInput).value == ORIGINAL
        assert history.revisions[0].action == "undo"

        # Redo brings the fix back.
        await pilot.press("ctrl+y")
        await settle(app, pilot)
        assert precondition_in_store(db) == FIXED
        store.close()


async def test_undo_refused_while_form_has_unsaved_edits(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        await open_paint(app, pilot)
        pre = screen.query_one("#f-precondition", FieldInput)
        await paste_into(pilot, pre, FIXED)
        rev = screen.base
        await pilot.press("ctrl+z")
        await settle(app, pilot)
        assert screen.base == rev and precondition_in_store(db) == ORIGINAL
        assert pre.value == FIXED  # nothing typed was lost
        await pilot.press("escape")  # revert: asks first; d discards the edits
        await settle(app, pilot)
        assert isinstance(app.screen, UnsavedEditsScreen)
        await pilot.press("d")
        await settle(app, pilot)
        assert screen.query_one("#f-precondition", FieldInput).value == ORIGINAL
        assert not screen.query_one(ItemForm).dirty
        await pilot.press("ctrl+s")  # nothing to save: no empty revision is made
        await settle(app, pilot)
        assert screen.base == rev and revision_in_store(db) == rev


# ---------------------------------------------------------------------- completion and help


async def test_autocomplete_completes_the_word_being_typed(tmp_path: Path) -> None:
    app = EditorApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        await open_paint(app, pilot)
        pre = screen.query_one("#f-precondition", FieldInput)
        await type_into(pilot, pre, "min_g")
        await settle(app, pilot)
        assert pre._suggestion == "min_gap"
        await pilot.press("right")  # accept
        assert pre.value == "min_gap"
        # In the middle of an expression only the last word is completed (constants too).
        await pilot.press(*"() > paint_m")
        await settle(app, pilot)
        assert pre._suggestion == "min_gap() > paint_min_gap"
        # Calls complete task and operator names; typing into the last (empty) entry of a
        # list adds a fresh one after it.
        assert len(screen.query("#f-subtasks-3")) == 0
        sub = screen.query_one("#f-subtasks-2", FieldInput)
        assert sub.value == ""
        await type_into(pilot, sub, "GenericS")
        await settle(app, pilot)
        assert sub._suggestion == "GenericSetup"
        assert screen.query_one("#f-subtasks-3", FieldInput).value == ""


async def test_primitive_doc_shown_for_focused_expression(tmp_path: Path) -> None:
    app = EditorApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        await open_paint(app, pilot)
        hint = screen.query_one("#kb-hint", Static)
        screen.query_one("#f-precondition", FieldInput).focus()
        await settle(app, pilot)
        shown = text_of(hint)
        assert "min_gap()" in shown and "Smallest coupler gap" in shown
        screen.query_one("#f-label", FieldInput).focus()  # not an expression field
        await settle(app, pilot)
        assert text_of(hint) == ""


# ---------------------------------------------------------------------- lint


async def test_lint_lists_finding_and_jumps_to_its_item(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    store = open_store(db)
    store.edit(
        "edaps",
        "operator",
        "Unused",
        {"name": "Unused", "params": ["x"], "precondition": "x > 0"},
        base=None,
    )
    store.close()
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        await pilot.press("ctrl+l")
        await settle(app, pilot)
        assert screen.query_one(TabbedContent).active == "tab-lint"
        lint = screen.query_one(LintList)
        index = next(
            i
            for i, f in enumerate(lint.findings)
            if f.rule == "unused-operator" and f.name == "Unused"
        )
        assert "Unused" in str(lint.get_option_at_index(index).prompt)
        lint.focus()
        lint.highlighted = index
        await pilot.press("enter")
        await settle(app, pilot)
        ref = ItemRef("operator", "Unused")
        assert screen.query_one(ItemForm).ref == ref
        tree = screen.query_one(KnowledgeTree)
        assert tree.cursor_node is not None and tree.cursor_node.data == ref
        assert screen.query_one("#f-precondition", FieldInput).value == "x > 0"


# ---------------------------------------------------------------------- concurrency


async def test_stale_edit_is_refused_and_reload_keeps_the_edits(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        await open_paint(app, pilot)
        loaded = screen.base
        await paste_into(pilot, screen.query_one("#f-precondition", FieldInput), FIXED)
        # Someone else changes the domain between our load and our save.
        other = open_store(db)
        rev = other.edit(
            "edaps",
            "constant",
            "paint_min_gap",
            {"name": "paint_min_gap", "value": 0.005},
            base=loaded,
        )
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        outcome = text_of(screen.query_one("#kb-outcome", Static))
        assert "changed after revision" in outcome and "ctrl+r" in outcome
        assert other.revision("edaps") == rev.id
        assert precondition_in_store(db) == ORIGINAL
        # Reload: the new state is the base, and the typed text is still in the form.
        await pilot.press("ctrl+r")
        await settle(app, pilot)
        assert screen.base == rev.id
        assert screen.query_one("#f-precondition", FieldInput).value == FIXED
        await pilot.press("ctrl+s")
        await settle(app, pilot)
        assert precondition_in_store(db) == FIXED
        assert other.load("edaps").constant_values()["paint_min_gap"] == 0.005
        other.close()


# ---------------------------------------------------------------------- tree, history, keys


def _walk(node: TreeNode[Any]) -> list[TreeNode[Any]]:
    out = [node]
    for child in node.children:
        out += _walk(child)
    return out


async def test_tree_shows_methods_in_priority_order_and_opens_calls(tmp_path: Path) -> None:
    app = EditorApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        tree = screen.query_one(KnowledgeTree)
        task = tree.node_for(ItemRef("task", "ApplyPhotoresist"))
        assert task is not None
        names = [str(n.label).split("  ")[0] for n in task.children]
        assert names == ["1. Spread", "2. Spindle", "3. Spray", "4. Paint"]
        paint = tree.node_for(PAINT)
        assert paint is not None
        calls = [n.data for n in paint.children]
        assert all(isinstance(c, CallRef) and c.target is not None for c in calls)
        assert [c.source for c in calls if isinstance(c, CallRef)] == [
            "GenericSetup()",
            "PaintPhotoresist()",
        ]
        assert screen.spec is not None
        first = screen.spec.methods_of("MakeBoard")[0]
        board = tree.node_for(ItemRef("method", f"MakeBoard.{first.name}"))
        assert board is not None
        call = next(
            n
            for n in board.children
            if isinstance(n.data, CallRef)
            and n.data.target is not None
            and n.data.target.kind == "task"
        )
        assert not call.children
        call.expand()  # a call to a task opens onto that task's methods, built now
        await settle(app, pilot)
        assert call.children and all(
            isinstance(n.data, ItemRef) and n.data.kind == "method" for n in call.children
        )
        groups = [str(n.label) for n in tree.root.children]
        assert groups[0].startswith("Tasks (") and any(g.startswith("Constants (") for g in groups)
        assert any(g.startswith("Operators (") for g in groups)
        assert any(g.startswith("Knowledge tests (") for g in groups)


async def test_history_shows_diff_against_current(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    store = open_store(db)
    spec = store.load("edaps")
    item = find_item(spec, PAINT)
    assert item is not None
    first = store.revision("edaps")
    store.edit(
        "edaps", "method", PAINT.name, item.model_dump() | {"precondition": FIXED}, base=first
    )
    store.close()
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        await pilot.press("ctrl+g")
        await settle(app, pilot)
        assert screen.query_one(TabbedContent).active == "tab-history"
        diff = screen.query_one("#kb-diff", Static)
        assert "No differences" in text_of(diff)  # the newest is the current state
        await pilot.press("down")  # the import: what changed since then
        await settle(app, pilot)
        shown = text_of(diff)
        assert f"edaps@r{first}" in shown and "+ 0.001" in shown
        # Enter marks the older revision; going back up diffs from it to the newest.
        await pilot.press("enter", "up")
        await settle(app, pilot)
        assert f"edaps@r{first}" in text_of(diff) and "+ 0.001" in text_of(diff)


async def test_bindings_have_ids_tooltips_help_and_palette(tmp_path: Path) -> None:
    bindings = [b for b in EditorScreen.BINDINGS if isinstance(b, Binding)]
    assert len(bindings) == len(EditorScreen.BINDINGS)
    assert all(b.id and b.id.startswith("editor.") and b.tooltip for b in bindings)
    rows = binding_rows(lambda b: b.key, EditorScreen.BINDINGS)
    assert ("ctrl+s", f"Save: {bindings[0].tooltip}") in rows
    app = EditorApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        commands = {c.title: c for c in screen_commands(screen)}
        assert {"Editor: undo", "Editor: redo", "Editor: lint", "Editor: history"} <= set(commands)
        # Listed while dimmed, saying why (not hidden until an item is open).
        save = commands["Editor: save"]
        assert not save.available and "Open an item first" in save.help
        await open_paint(app, pilot)
        assert next(c for c in screen_commands(screen) if c.title == "Editor: save").available


# ---------------------------------------------------------------------- pure checks


@pytest.fixture(scope="module")
def edaps(tmp_path_factory: pytest.TempPathFactory) -> EditContext:
    store = open_store(tmp_path_factory.mktemp("kb") / "kb.db")
    try:
        owner = domain_owner("edaps")
        assert owner is not None
        return EditContext.build("edaps", store.load("edaps"), owner[1], store.primitives("edaps"))
    finally:
        store.close()


def test_every_bundled_item_reads_back_unchanged_and_checks_clean(tmp_path: Path) -> None:
    store = open_store(tmp_path / "kb.db")
    for domain in ("edaps", "finesse", "dinner"):
        spec = store.load(domain)
        owner = domain_owner(domain)
        ctx = EditContext.build(domain, spec, owner[1] if owner else None, store.primitives(domain))
        for kind, items in (
            ("constant", spec.constants),
            ("task", spec.tasks),
            ("method", spec.methods),
            ("operator", spec.operators),
            ("test", spec.tests),
        ):
            for it in items:
                name = f"{it.task}.{it.name}" if isinstance(it, MethodDef) else it.name
                ref = ItemRef(kind, name)  # type: ignore[arg-type]
                values = item_values(ref, it)
                assert check_form(ref, it, ctx, values) == {}, ref
                assert build_value(ref, it, values) == it.model_dump(mode="json"), ref
    store.close()


def test_checks_use_the_right_scope_and_columns(edaps: EditContext) -> None:
    method = find_item(edaps.spec, PAINT)
    values = item_values(PAINT, method)
    values["bindings"] = ["W in [1, 2]", "W in [3]", "V in [W, zz]"]
    values["precondition"] = "W > 1 and V and view"
    values["subtasks"] = ["GenericSetup(1)", "Nope()"]
    problems = check_form(PAINT, method, edaps, values)
    assert ("precondition", None) not in problems  # bound variables and view are in scope
    assert problems[("bindings", 1)].message == "'W' is already bound"
    assert problems[("bindings", 2)].column == 10 and "zz" in problems[("bindings", 2)].message
    assert "takes 0 argument(s)" in problems[("subtasks", 0)].message
    assert "neither a task nor an operator" in problems[("subtasks", 1)].message
    op = edaps.spec.operators[0]
    oref = ItemRef("operator", op.name)
    ovalues = item_values(oref, op)
    ovalues["costs"] = ["setup:  1 +", "run: nope_x"]
    oproblems = check_form(oref, op, edaps, ovalues)
    assert oproblems[("costs", 0)].column == 12  # the column within the whole entry
    assert "nope_x" in oproblems[("costs", 1)].message


def test_primitive_near_cursor() -> None:
    names = {"min_gap", "max", "diameter"}
    assert primitive_near("min_gap() > 1", 3, names) == "min_gap"
    assert primitive_near("max(diameter(H), ", 17, names) == "max"
    assert primitive_near("max(diameter(H", 14, names) == "diameter"
    assert primitive_near("x > 1", 5, names) is None


async def test_domain_picker_switches_domain(tmp_path: Path) -> None:
    app = EditorApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        picker = screen.query_one("#kb-domain", Select)
        picker.value = "dinner"
        await settle(app, pilot)
        assert screen.domain == "dinner" and screen.spec is not None
        assert screen.spec.name == "dinner"
        tree = screen.query_one(KnowledgeTree)
        assert str(tree.root.label).startswith("dinner")
        assert screen.query_one(ItemForm).ref is None


# ---------------------------------------------------------------------- create, rename, ...


async def test_create_rename_reorder_and_delete_a_method(tmp_path: Path) -> None:
    from workbench.screens.item_dialogs import ConfirmScreen, NewItemScreen, RenameScreen

    db = tmp_path / "kb.db"
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        tree = screen.query_one(KnowledgeTree)
        tree.focus()
        assert tree.select_item(ItemRef("task", "ApplyPhotoresist"))
        await settle(app, pilot)
        store = open_store(db)

        def order() -> list[str]:
            return [m.name for m in store.load("edaps").methods if m.task == "ApplyPhotoresist"]

        before = order()
        await pilot.press("ctrl+n")
        await settle(app, pilot)
        dialog = app.screen
        assert isinstance(dialog, NewItemScreen)
        assert (dialog.item_kind, dialog.task_name) == ("method", "ApplyPhotoresist")
        await pilot.press(*"Paint")  # taken: the reason shows, enter does nothing
        await pilot.pause()
        assert "already a method called 'Paint'" in str(dialog.query_one("#new-why").render())
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is dialog
        await pilot.press(*"Dip", "enter")
        await settle(app, pilot)
        assert app.screen is screen
        assert order() == [*before, "PaintDip"]
        new = ItemRef("method", "ApplyPhotoresist.PaintDip")
        assert screen.query_one(ItemForm).ref == new

        tree.focus()
        assert tree.select_item(new)
        await settle(app, pilot)
        await pilot.press("alt+up")
        await settle(app, pilot)
        assert order() == [*before[:-1], "PaintDip", before[-1]]

        await pilot.press("ctrl+e")
        await settle(app, pilot)
        assert isinstance(app.screen, RenameScreen)
        await pilot.press("ctrl+u", *"Dip", "enter")
        await settle(app, pilot)
        assert order() == [*before[:-1], "Dip", before[-1]]
        assert tree.cursor_node is not None and tree.cursor_node.data == ItemRef(
            "method", "ApplyPhotoresist.Dip"
        )

        await pilot.press("ctrl+d")
        await settle(app, pilot)
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await settle(app, pilot)
        assert order() == before
        history = [r.action for r in store.history("edaps")[-4:]]
        assert history == ["create", "reorder", "rename", "delete"]
        store.close()


async def test_deleting_a_constant_in_use_is_refused_with_the_reason(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    app = EditorApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(app, pilot)
        tree = screen.query_one(KnowledgeTree)
        tree.focus()
        assert tree.select_item(ItemRef("constant", "paint_min_gap"))
        await settle(app, pilot)
        digest = files_digest(db)
        await pilot.press("ctrl+d", "y")
        await settle(app, pilot)
        outcome = text_of(screen.query_one("#kb-outcome", Static))
        assert "refused deleting constant paint_min_gap" in outcome
        assert "paint_min_gap" in outcome.split("nothing was changed", 1)[1]
        assert files_digest(db) == digest
