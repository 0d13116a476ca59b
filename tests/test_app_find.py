"""Finding your way in the knowledge editor (issue 29, item 3), driven as a user would.

* The palette (ctrl+p) searches every knowledge item by name and label: "spray" finds the
  EDAPS constant ``spray_minutes`` (0.5 min, "Spraying photoresist.") and choosing it
  opens it in the knowledge editor.
* A field is checked as it is typed: ``abc`` in ``spray_minutes``'s value, a number by
  its declared type, shows the error beside the field before anything is saved.
* The tree keeps its place between openings, and → / ← open and close its nodes.
"""

from __future__ import annotations

from pathlib import Path

from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import Input, Static

from workbench.app import WorkbenchApp
from workbench.kb.catalog import open_store
from workbench.screens.editor import EditorScreen
from workbench.widgets.item_form import ItemForm
from workbench.widgets.kb_fields import ItemRef
from workbench.widgets.kb_tree import KnowledgeTree

SIZE = (120, 40)
SPRAY = ItemRef("constant", "spray_minutes")


async def settle(app: WorkbenchApp, pilot: Pilot[None]) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def until(pilot: Pilot[None], ready: object, tries: int = 100) -> None:
    """Pause until ``ready()`` is true (the palette searches in the background)."""
    for _ in range(tries):
        if ready():  # type: ignore[operator]
            return
        await pilot.pause(0.05)
    raise AssertionError("timed out")


async def choose_in_the_palette(
    app: WorkbenchApp, pilot: Pilot[None], typed: str, wanted: str
) -> None:
    """Open the palette, type ``typed`` and choose the hit that shows ``wanted``."""
    await settle(app, pilot)
    await pilot.press("ctrl+p")
    await until(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*typed)
    commands = app.screen.query_one(CommandList)

    def prompts() -> list[str]:
        return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]

    await until(pilot, lambda: any(wanted in p for p in prompts()))
    found = prompts()
    assert "No matches found" not in found
    commands.highlighted = next(i for i, p in enumerate(found) if wanted in p)
    await pilot.press("enter")
    await until(pilot, lambda: not isinstance(app.screen, CommandPalette))
    await settle(app, pilot)


async def open_spray_from_the_palette(app: WorkbenchApp, pilot: Pilot[None]) -> EditorScreen:
    await choose_in_the_palette(app, pilot, "spray", "spray_minutes")
    screen = app.screen
    assert isinstance(screen, EditorScreen)
    return screen


async def test_the_palette_finds_spray_minutes_and_opens_it_in_the_editor(
    tmp_path: Path,
) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_spray_from_the_palette(app, pilot)
        assert screen.domain == "edaps"
        form = screen.query_one(ItemForm)
        assert form.ref == SPRAY
        assert screen.query_one("#f-value", Input).value == "0.5"
        tree = screen.query_one(KnowledgeTree)
        await settle(app, pilot)
        assert tree.cursor_node is not None and tree.cursor_node.data == SPRAY


async def test_a_typed_abc_shows_its_error_beside_the_field_before_saving(
    tmp_path: Path,
) -> None:
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_spray_from_the_palette(app, pilot)
        field = screen.query_one("#f-value", Input)
        field.focus()
        await pilot.pause()
        await pilot.press("end", "ctrl+u", "a", "b", "c")
        await pilot.pause()
        error = screen.query_one("#e-value", Static)
        assert error.has_class("-shown")
        assert "expected a number, got 'abc'" in str(error.render())
        assert field.has_class("-bad")
        # Nothing was saved: the store still holds 0.5.
        store = open_store(db)
        try:
            constant = next(c for c in store.load("edaps").constants if c.name == SPRAY.name)
        finally:
            store.close()
        assert constant.value == 0.5
        # A number clears it at once.
        await pilot.press("ctrl+u", "0", ".", "6")
        await pilot.pause()
        assert not screen.query_one("#e-value", Static).has_class("-shown")


async def test_the_tree_keeps_its_place_and_arrows_open_and_close(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.push_screen(EditorScreen(app.db, "edaps"))
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        tree = screen.query_one(KnowledgeTree)
        tree.focus()
        constants = tree.node_for_group("constant")
        assert constants is not None and not constants.is_expanded
        tree.move_cursor(constants)
        await pilot.press("right")  # opens the group, does not scroll sideways
        await pilot.pause()
        assert constants.is_expanded and tree.scroll_x == 0
        await pilot.press("right")  # into its first item
        await settle(app, pilot)
        first = tree.cursor_node
        assert first is not None and first.parent is constants
        await pilot.press("down", "down")
        await settle(app, pilot)
        third = tree.cursor_node
        assert third is not None and isinstance(third.data, ItemRef)
        await pilot.press("left")  # a leaf: back to its group
        await pilot.pause()
        assert tree.cursor_node is constants
        await pilot.press("right", "down", "down")
        await settle(app, pilot)
        assert tree.cursor_node is third
        await pilot.press("f2")  # leave the editor (the key that opened it)...
        await settle(app, pilot)
        assert not isinstance(app.screen, EditorScreen)
        app.push_screen(EditorScreen(app.db, "edaps"))  # ... and come back
        await settle(app, pilot)
        again = app.screen
        assert isinstance(again, EditorScreen)
        tree = again.query_one(KnowledgeTree)
        await settle(app, pilot)
        node = tree.node_for_group("constant")
        assert node is not None and node.is_expanded
        assert tree.cursor_node is not None and tree.cursor_node.data == third.data
        assert again.query_one(ItemForm).ref == third.data


async def test_the_focused_pane_is_marked_in_its_title(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_spray_from_the_palette(app, pilot)
        side, form = screen.query_one("#kb-side"), screen.query_one("#kb-form")
        screen.query_one(KnowledgeTree).focus()
        await pilot.pause()
        assert side.border_title == "▸ Knowledge" and form.border_title == "Item"
        screen.query_one("#f-value", Input).focus()
        await pilot.pause()
        assert side.border_title == "Knowledge" and form.border_title == "▸ Item"


async def test_the_hddl_editor_header_names_its_own_domain(tmp_path: Path) -> None:
    """The header belongs to the item on screen: after bridge/353306 was planned (the app's
    subtitle), the HDDL editor on delivery says "HDDL · delivery" and "editing delivery at
    r…", never the board."""
    from tests.test_app_hddl import P1, imported
    from workbench.domains.hddl.editor import HddlEditorScreen
    from workbench.widgets import ProblemPicker

    app = WorkbenchApp(imported(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.sub_title = "bridge/353306"
        picker = app.screen.query_one(ProblemPicker)
        assert picker.select(P1)
        await pilot.pause()
        await pilot.press("f2")
        await settle(app, pilot)
        screen = app.screen
        assert isinstance(screen, HddlEditorScreen)
        assert screen.title == "HDDL · delivery"
        assert screen.sub_title is not None and screen.sub_title.startswith("editing delivery at r")
        assert "353306" not in screen.sub_title


async def test_the_palette_opens_an_hddl_method_at_its_line(tmp_path: Path) -> None:
    """An HDDL domain's items are found too, and open in the HDDL editor (its text is the
    knowledge) with the cursor on the method's declaration."""
    from textual.widgets import TextArea

    from tests.test_app_hddl import imported
    from workbench.domains.hddl.editor import HddlEditorScreen

    app = WorkbenchApp(imported(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await choose_in_the_palette(app, pilot, "deliver-here", "deliver.deliver-here")
        screen = app.screen
        assert isinstance(screen, HddlEditorScreen)
        area = screen.query_one("#hddl-text", TextArea)
        line = area.document.get_line(area.cursor_location[0])
        assert "(:method deliver-here" in line, line
