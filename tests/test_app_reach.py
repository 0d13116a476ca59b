"""Every action in reach, on any terminal: the palette, the focus and maximize keys, the
tab order, the 80×24 layout, the checkbox glyphs and the design editor's field legend.

The app tests drive the real workbench headless on a private store (``tmp_path``); the
planner runs in the planning process, waited for with ``app.workers.wait_for_complete()``
and a pause.  Screens that need a run (step-through, why not?) are given one made the
way the planning screen makes it.
"""

from __future__ import annotations

import inspect
import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.notifications import Notify
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Checkbox, Static, TextArea
from textual.widgets._footer import FooterKey
from textual.widgets.tree import TreeNode

from engine.tofs import CancelToken, RunResult
from workbench import runner
from workbench.app import WorkbenchApp
from workbench.domains.bridge.deal_editor import DealEditorScreen
from workbench.domains.bridge.view import BridgeScreen, stored_board
from workbench.domains.edaps.design_editor import DesignScreen
from workbench.domains.edaps.design_legend import legend_parts, record_legend
from workbench.palette import screen_commands
from workbench.runner import ProblemRef
from workbench.screens import PlanScreen
from workbench.screens.editor import EditorScreen
from workbench.screens.stepper import StepperScreen
from workbench.screens.whynot import WhyNotScreen
from workbench.widgets import PlanTree, ProblemPicker
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.tick_box import TickBox

NORMAL = (120, 40)
SMALL = (80, 24)
DINNER = ProblemRef("examples", "dinner")
DEEP = ProblemRef("bridge", "353021-trick5")
"""A bridge board whose policy opens 27 levels deep along the planned play."""


def screen_text(app: WorkbenchApp) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def notes(messages: list[Message]) -> list[str]:
    seen: dict[int, Notify] = {}
    for m in messages:
        if isinstance(m, Notify):
            seen.setdefault(id(m), m)
    return [m.notification.message for m in seen.values()]


def plan_screen(app: WorkbenchApp) -> PlanScreen:
    screen = app.screen
    assert isinstance(screen, PlanScreen)
    return screen


async def run_problem(app: WorkbenchApp, pilot: Pilot[None], request: ProblemRef) -> None:
    await pilot.pause()
    picker = plan_screen(app).query_one(ProblemPicker)
    picker.focus()
    assert picker.select(request)
    await pilot.pause()
    await pilot.press("r")
    await app.workers.wait_for_complete()
    await pilot.pause()


def described(bindings: list[BindingType]) -> list[Binding]:
    """The bindings a user is told about (F1 and the footer list these)."""
    return [b for b in Binding.make_bindings(bindings) if b.description]


async def assert_every_binding_in_palette(app: WorkbenchApp, screen: Screen[Any]) -> None:
    """Each described binding of ``screen`` has a palette command, titled in words."""
    titles = {c.title for c in app.get_system_commands(screen)}
    commands = {c.action: c for c in screen_commands(screen)}
    for binding in described(type(screen).BINDINGS):
        command = commands.get(binding.action)
        assert command is not None, f"{type(screen).__name__}: no command for {binding.action}"
        assert command.title in titles
        assert not any(c in command.title for c in "_()")  # words, not "move_method(-1)"
        assert command.help and "_" not in command.help


# --------------------------------------------------------------------------- the palette


async def test_every_binding_of_every_screen_is_in_the_palette(tmp_path: Path) -> None:
    db = tmp_path / "kb.db"
    result = runner.execute(DINNER, CancelToken(), lambda p: None, db)
    app = WorkbenchApp(db)
    async with app.run_test(size=NORMAL) as pilot:
        await pilot.pause()
        await assert_every_binding_in_palette(app, app.screen)
        app_titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Help", "Knowledge editor", "Maximize or restore the focused pane"} <= app_titles
        cp = result.choice_points[0]
        alternative = next(a for a in cp.alternatives if not a.chosen)
        text = stored_board(db, "353021")
        assert text is not None

        def forced(*args: Any, **kwargs: Any) -> RunResult:
            return result  # the screen only needs a run to compare, not a real one

        screens: list[Screen[Any]] = [
            EditorScreen(db, "edaps"),
            StepperScreen(result.trace or [], result, DINNER.title),
            WhyNotScreen(DINNER, result, cp, alternative, db=db, runner=forced),
            DesignScreen(db, "RM1"),
            BridgeScreen.of_text("353021", text),
            DealEditorScreen(),
        ]
        for screen in screens:
            await app.push_screen(screen)
            await app.workers.wait_for_complete()
            await pilot.pause()
            await assert_every_binding_in_palette(app, screen)
            app.pop_screen()
            await pilot.pause()


async def test_a_command_that_needs_a_run_says_so(tmp_path: Path) -> None:
    """Before anything was planned, why-not, step-through, filter and export are listed;
    choosing one says what to do first instead of doing nothing."""
    messages: list[Message] = []
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=NORMAL, message_hook=messages.append) as pilot:
        await pilot.pause()
        commands = {c.action: c for c in screen_commands(app.screen)}
        for action in ("why_not", "step_through", "cycle_filter", "export_markdown"):
            command = commands[action]
            assert not command.available
            assert "Plan a problem first (r)" in command.help
        commands["why_not"].callback()
        await pilot.pause()
        assert "Plan a problem first (r)." in notes(messages)
        # The same command runs once there is a run.
        await run_problem(app, pilot, DINNER)
        commands = {c.action: c for c in screen_commands(app.screen)}
        assert commands["cycle_filter"].available
        commands["cycle_filter"].callback()
        await pilot.pause()
        assert plan_screen(app).query_one(PlanTree).filter == "all"


async def test_the_palette_reaches_a_widget_key_from_anywhere(tmp_path: Path) -> None:
    """The play log's order key works only while the log has focus; its command works
    from wherever focus is."""
    db = tmp_path / "kb.db"
    app = WorkbenchApp(db)
    async with app.run_test(size=NORMAL) as pilot:
        await pilot.pause()
        text = stored_board(db, "353021")
        assert text is not None
        screen = BridgeScreen.of_text("353021", text)
        await app.push_screen(screen)
        await pilot.pause()
        command = next(c for c in screen_commands(screen) if c.action == "toggle_order")
        assert command.title == "Bridge: seat/play order"
        from workbench.domains.bridge.play_log import PlayLog

        log = screen.query_one(PlayLog)
        before = log.seat_order
        outcome = command.callback()
        if inspect.isawaitable(outcome):
            await outcome
        await pilot.pause()
        assert log.seat_order is not before


# --------------------------------------------------------------------------- keys


async def test_p_focuses_the_problem_list_and_is_shown(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SMALL) as pilot:
        await run_problem(app, pilot, DINNER)
        screen = plan_screen(app)
        assert app.focused is screen.query_one(PlanTree)
        await pilot.press("p")
        await pilot.pause()
        assert app.focused is screen.query_one(ProblemPicker)
        shown = {k.key for k in screen.query(FooterKey) if k.display}
        assert "p" in shown
        await pilot.press("f1")
        await pilot.pause()
        assert "**p**  Problems" in app.screen.markdown()  # type: ignore[attr-defined]


async def test_maximize_the_focused_pane_and_restore_it(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SMALL) as pilot:
        await run_problem(app, pilot, DINNER)
        screen = plan_screen(app)
        tree = screen.query_one(PlanTree)
        assert app.focused is tree and tree.size.width < SMALL[0] - 2
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert screen.maximized is tree and tree.outer_size.width == SMALL[0]
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert screen.maximized is None and tree.outer_size.width < SMALL[0]
        # A checkbox's pane is the run options box, not the checkbox alone.
        screen.query_one("#opt-prune", Checkbox).focus()
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert screen.maximized is screen.query_one("#run-options")
        await pilot.press("escape")  # escape restores too
        await pilot.pause()
        assert screen.maximized is None
        assert "ctrl+o" in {k.key for k in screen.query(FooterKey) if k.display}
        await pilot.press("f1")
        await pilot.pause()
        assert "**^o**  Maximize" in app.screen.markdown()


# --------------------------------------------------------------------------- tab order


async def tab_order(app: WorkbenchApp, pilot: Pilot[None], first: Widget) -> list[Widget]:
    """The widgets tab visits from ``first`` until it comes back round."""
    first.focus()
    await pilot.pause()
    seen = [first]
    for _ in range(40):
        await pilot.press("tab")
        await pilot.pause()
        focused = app.focused
        assert focused is not None
        if focused is first:
            return seen
        seen.append(focused)
    raise AssertionError("tab never came back to the first widget")


PLAN_ORDER = [
    "problems",
    "opt-full-tree",
    "opt-prune",
    "opt-trace",
    "opt-nodes",
    "opt-seconds",
    "opt-memory",
    "opt-criterion",
    "plan-tree",
    "explanation",
]
"""Left column top to bottom, then the plan, then its explanation (right of it, or under
it on a narrow terminal)."""


@pytest.mark.parametrize("size", [NORMAL, SMALL])
async def test_tab_order_on_the_planning_screen(tmp_path: Path, size: tuple[int, int]) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = plan_screen(app)
        order = await tab_order(app, pilot, screen.query_one(ProblemPicker))
        assert [w.id for w in order] == PLAN_ORDER
        problems = screen.query_one("#problems")
        tree = screen.query_one("#plan-tree")
        pane = screen.query_one("#explanation")
        assert problems.region.x < tree.region.x
        if size == NORMAL:  # explanation right of the plan
            assert tree.region.right <= pane.region.x
        else:  # explanation under the plan
            assert tree.region.bottom <= pane.region.y


@pytest.mark.parametrize("size", [NORMAL, SMALL])
async def test_tab_order_in_the_knowledge_editor(tmp_path: Path, size: tuple[int, int]) -> None:
    """Domain, task network, the form's fields top to bottom, then the panels under it."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("f2")
        await pilot.pause()
        await pilot.press("down", "down", "down", "enter")  # open an item: its fields
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EditorScreen)
        order = await tab_order(app, pilot, screen.query_one("#kb-domain"))
        ids = [w.id for w in order]
        assert ids[:3] == ["kb-domain", "kb-tree", "kb-form"]
        fields = [w for w in order if (w.id or "").startswith("f-")]
        assert fields and ids[3 : 3 + len(fields)] == [f.id for f in fields]
        assert [f.region.y for f in fields] == sorted(f.region.y for f in fields)
        rest = order[3 + len(fields) :]
        assert rest and all(w.region.y > fields[-1].region.y for w in rest)
        assert order[0].region.x < order[2].region.x  # the side column, then the form


# --------------------------------------------------------------------------- 80×24


def footer_keys(screen: Screen[Any]) -> list[FooterKey]:
    return [k for k in screen.query_one(FittingFooter).query(FooterKey) if k.display]


async def test_80x24_gives_the_plan_half_and_a_whole_footer(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = plan_screen(app)
        assert screen.has_class("-narrow")
        assert screen.query_one(PlanTree).outer_size.width >= SMALL[0] // 2

        def spans() -> list[tuple[int, int]]:
            return sorted((k.region.x, k.region.right) for k in footer_keys(screen))

        def apart() -> bool:  # no key drawn over another
            return all(end <= start for (_, end), (start, _) in itertools.pairwise(spans()))

        def footer_row() -> str:
            return str(screen_text(app).splitlines()[-1])

        def settled() -> bool:  # the keys shown now, each whole on the painted row
            keys = footer_keys(screen)
            return bool(keys) and apart() and all(k.description in footer_row() for k in keys)

        # The footer fits its keys after a refresh, and rebuilds them (new widgets) when the
        # bindings change; on a loaded machine a pause can come between a rebuild and its
        # fitting, or before the footer has any keys at all.  So the keys are asked for anew
        # each time, never kept from a moment that may have passed.
        deadline = time.monotonic() + 5.0
        while not settled() and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert apart(), spans()
        keys = footer_keys(screen)
        assert all(x >= 0 and right <= SMALL[0] for x, right in spans())  # none cut
        assert {"r", "p", "ctrl+o", "f1", "ctrl+p"} <= {k.key for k in keys}
        row = footer_row()
        for key in keys:  # each key's words are on the row in full
            assert key.description in row, (key.description, row)


async def test_the_normal_size_keeps_the_layout(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=NORMAL) as pilot:
        await pilot.pause()
        screen = plan_screen(app)
        assert not screen.has_class("-narrow")
        left = screen.query_one("#left")
        tree = screen.query_one(PlanTree)
        pane = screen.query_one("#explanation")
        assert left.outer_size.width == 30 and pane.outer_size.width == 45  # 38 % of 120
        assert left.region.y == tree.region.y == pane.region.y  # side by side
        assert tree.guide_depth == 4


async def test_a_27_deep_bridge_line_is_readable_at_80x24(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SMALL) as pilot:
        await run_problem(app, pilot, DEEP)
        tree = plan_screen(app).query_one(PlanTree)
        assert tree.guide_depth == PlanScreen.NARROW_GUIDE_DEPTH
        tree.focus()
        await pilot.press("f")  # every node, the decompositions the reader's view skips too
        await pilot.pause()

        def walk(node: TreeNode[Any], depth: int = 0) -> Iterator[tuple[TreeNode[Any], int]]:
            yield node, depth
            for child in node.children:
                yield from walk(child, depth + 1)

        deepest, depth = max(walk(tree.root), key=lambda pair: pair[1])
        assert depth == 27
        tree.move_cursor(deepest)
        await pilot.pause()
        await pilot.pause()
        label = str(deepest.label)
        assert label[:30] in screen_text(app)


# --------------------------------------------------------------------------- checkbox


async def test_an_unchecked_box_is_empty_in_plain_text(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = plan_screen(app)
        off = screen.query_one("#opt-full-tree", TickBox)
        on = screen.query_one("#opt-prune", TickBox)
        assert not off.value and on.value
        assert off.render().plain.startswith("▐ ▌") and on.render().plain.startswith("▐X▌")
        text = screen_text(app)
        assert "▐ ▌ Full tree" in text and "▐X▌ Partial plan pruner" in text
        off.toggle()
        await pilot.pause()
        assert "▐X▌ Full tree" in screen_text(app)


# --------------------------------------------------------------------------- legend


def test_the_legend_names_every_field() -> None:
    assert legend_parts("H 0.5 0.25 1 0.4 10") == [
        "H: hole (in inches)",
        "x 0.5",
        "y 0.25",
        "depth 1",
        "diameter 0.4",
        "tolerance 10 mils",
    ]
    z = legend_parts("Z 3.6 5 90 0.35 0.3 0.2 2 1 C1 1 0 0 1")
    assert z[:4] == ["Z: component (in inches)", "x 3.6", "y 5", "rotation 90°"]
    assert "type 2 (capacitor)" in z and "part C1" in z
    assert z[-4:] == ["preformed yes", "auto-insert no", "adhesion no", "hand-solder yes"]
    assert legend_parts("C Y 0.1 0.2") == [
        "C: counterbore (in inches)",
        "kind cylindrical",
        "depth 0.1",
        "diameter 0.2",
    ]
    assert legend_parts("P 1 2")[-1] == "tolerance missing"
    assert legend_parts("G 0.015 7")[-1] == "extra: 7"
    assert "not a command letter" in legend_parts("q 1")[0]
    assert legend_parts("I Teflon") == ["I: dielectric material", "material Teflon"]
    # Lines break between fields only, each within the width.
    rows = record_legend("Z 3.6 5 0 0.35 0.3 0.2 2 1 C1 1 1 0 0", 40).splitlines()
    assert all(len(r) <= 40 for r in rows) and "hardware 1 (none)" in "\n".join(rows)


async def test_the_design_editor_names_the_fields_of_the_line(tmp_path: Path) -> None:
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=NORMAL) as pilot:
        await pilot.pause()
        await app.push_screen(DesignScreen(tmp_path / "kb.db", "RM1"))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, DesignScreen)
        editor = screen.query_one("#design-text", TextArea)
        row = next(i for i, line in enumerate(editor.text.splitlines()) if line.startswith("H "))
        editor.move_cursor((row, 0))
        await pilot.pause()
        legend = str(screen.query_one("#design-legend", Static).content)
        assert legend.startswith("H: hole (in inches)") and "tolerance 10 mils" in legend
        assert "diameter 0.4" in legend
