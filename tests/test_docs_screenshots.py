"""The user guide's pictures (``docs/images/*.svg``) are the workbench as it is today.

Each test drives the real app under Pilot, as a user would (pick a problem, press ``r``,
``v``, ``w``, ``f2``...), and takes the screen with Textual's ``save_screenshot``.  A
picture in ``docs/`` that no longer shows what the app shows fails the test, naming it;
``WORKBENCH_DOCS_SCREENSHOTS=update`` rewrites the pictures instead (look at them before
committing them):

    WORKBENCH_DOCS_SCREENSHOTS=update .venv/bin/pytest tests/test_docs_screenshots.py

"Shows" is compared on the screen's text, row by row, with timings ("0.056 s") masked:
the only thing on these screens that changes from run to run.  Colours and styles are not
compared, so a restyling alone leaves the pictures as they are until the next update.
"""

from __future__ import annotations

import difflib
import html
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import textual.constants
from textual.pilot import Pilot
from textual.widgets.tree import TreeNode

from tests.test_app import run_problem, screen_of
from workbench.app import WorkbenchApp
from workbench.cli import main
from workbench.runner import ProblemRef
from workbench.widgets import PlanTree, ProblemPicker

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
# The size the guide's pictures are taken at: a common terminal, wide enough for three panes.
SIZE = (120, 36)
UPDATE = os.environ.get("WORKBENCH_DOCS_SCREENSHOTS") == "update"
HDDL_EXAMPLES = ROOT / "knowledge" / "hddl" / "examples"

_TEXT = re.compile(r'<text [^>]*?x="([\d.]+)" y="([\d.]+)"[^>]*>(.*?)</text>', re.S)
# A duration as the status line and views print it ("0.056 s", "1.2s").
_SECONDS = re.compile(r"\d+(?:\.\d+)?\s?s\b")


def screen_text(svg: str) -> str:
    """The characters a Textual SVG screenshot shows, row by row, timings masked.

    Rich writes every run of equally styled cells as one ``<text>`` at its x and y; joined
    in x order per y they give back the screen's rows."""
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in _TEXT.finditer(svg):
        text = html.unescape(re.sub(r"<[^>]+>", "", m[3]))
        rows.setdefault(float(m[2]), []).append((float(m[1]), text))
    lines = ("".join(t for _, t in sorted(r)).rstrip() for _, r in sorted(rows.items()))
    return _SECONDS.sub("N s", "\n".join(lines))


def check_picture(app: WorkbenchApp, name: str) -> None:
    """Take the screen as ``docs/images/NAME.svg``: compare it with the one there, or write
    it when updating.  Every picture is checked before the test fails, so one update run
    finds them all."""
    svg = app.export_screenshot(title=f"TOFS Workbench: {name}")
    path = IMAGES / f"{name}.svg"
    if UPDATE:
        if not path.exists() or screen_text(path.read_text(encoding="utf-8")) != screen_text(svg):
            IMAGES.mkdir(parents=True, exist_ok=True)
            path.write_text(svg, encoding="utf-8")
        return
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: {HOW_TO_UPDATE}"
    old, new = screen_text(path.read_text(encoding="utf-8")), screen_text(svg)
    if old != new:
        rows = difflib.unified_diff(old.splitlines(), new.splitlines(), "picture", "now", n=0)
        stale.append(f"{name} (" + "\n".join(list(rows)[2:12]) + ")")


HOW_TO_UPDATE = (
    "the workbench no longer looks like the guide's picture; regenerate the pictures with "
    "WORKBENCH_DOCS_SCREENSHOTS=update .venv/bin/pytest tests/test_docs_screenshots.py "
    "and look at them before committing"
)
stale: list[str] = []


@pytest.fixture(autouse=True)
def _no_stale_pictures(monkeypatch: pytest.MonkeyPatch) -> Any:
    # No animations: a tab's underline still sliding on a slow machine is not the picture.
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
    stale.clear()
    yield
    assert not stale, f"{', '.join(stale)}: {HOW_TO_UPDATE}"


async def settle(pilot: Pilot[None], app: WorkbenchApp) -> None:
    """Let workers finish and every message they posted be handled before a picture."""
    await app.workers.wait_for_complete()
    for _ in range(3):
        await pilot.pause(0.05)


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 20.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("the screen did not get there in time")


def walk(node: TreeNode[Any]) -> list[TreeNode[Any]]:
    return [node, *(n for c in node.children for n in walk(c))]


async def test_the_planning_screen_help_palette_and_knowledge_editor(tmp_path: Path) -> None:
    """Start-up (the problem picker, options, empty plan), F1, ctrl+p and F2."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        picker = screen_of(app).query_one(ProblemPicker)
        picker.focus()
        assert picker.select(ProblemRef("examples", "dinner"))
        await settle(pilot, app)
        check_picture(app, "planning-screen")
        await pilot.press("f1")
        await settle(pilot, app)
        check_picture(app, "help")
        await pilot.press("escape")
        await settle(pilot, app)
        await pilot.press("ctrl+p")
        await settle(pilot, app)
        check_picture(app, "palette")
        await pilot.press("escape")
        await settle(pilot, app)
        await pilot.press("f2")
        await settle(pilot, app)
        check_picture(app, "knowledge-editor")


async def test_an_edaps_run_why_not_step_through_and_process_plan(tmp_path: Path) -> None:
    """RM1 planned (the reader's view), "why not?" on a lost alternative, the
    step-through, and the process plan (``v``)."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, ProblemRef("edaps", "RM1"))
        await settle(pilot, app)
        plan = screen_of(app)
        tree = plan.query_one(PlanTree)
        tree.focus()
        # The choice at "Apply the photoresist": its first lost alternative.
        node = next(n for n in walk(tree.root) if "✗ Spread photoresist" in str(n.label))
        tree.move_cursor(node)
        await settle(pilot, app)
        check_picture(app, "plan-edaps-rm1")
        await pilot.press("w")
        await until(pilot, lambda: app.screen is not plan)
        await settle(pilot, app)
        check_picture(app, "why-not")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is plan)
        await pilot.press("s")
        await until(pilot, lambda: app.screen is not plan)
        await settle(pilot, app)
        await pilot.press("]", "]", "]", "right")
        await settle(pilot, app)
        check_picture(app, "step-through")
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is plan)
        await pilot.press("v")
        await until(pilot, lambda: app.screen is not plan)
        await settle(pilot, app)
        check_picture(app, "edaps-process-plan")


async def test_an_edaps_critique(tmp_path: Path) -> None:
    """RUM1 cannot be made: the critique says what, where and why (``v``)."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, ProblemRef("edaps", "RUM1"))
        await settle(pilot, app)
        check_picture(app, "plan-edaps-rum1")
        plan = screen_of(app)
        plan.query_one(PlanTree).focus()
        await pilot.press("v")
        await until(pilot, lambda: app.screen is not plan)
        await settle(pilot, app)
        check_picture(app, "edaps-critique")


async def test_a_bridge_board_at_the_table(tmp_path: Path) -> None:
    """Deal 353021 at trick 5 planned, then the board at the table (``v``)."""
    app = WorkbenchApp(tmp_path / "kb.db")
    async with app.run_test(size=SIZE) as pilot:
        await run_problem(app, pilot, ProblemRef("bridge", "353021-trick5"))
        await settle(pilot, app)
        check_picture(app, "plan-bridge")
        plan = screen_of(app)
        plan.query_one(PlanTree).focus()
        await pilot.press("v")
        await until(pilot, lambda: app.screen is not plan)
        await settle(pilot, app)
        check_picture(app, "bridge-table")


async def test_an_imported_hddl_domain_planned_and_edited(tmp_path: Path) -> None:
    """The delivery example imported into the store, planned, and its HDDL editor."""
    db = tmp_path / "kb.db"
    files = [HDDL_EXAMPLES / f for f in ("delivery-domain.hddl", "delivery-p1.hddl")]
    assert main(["kb", "import", *map(str, files), "--db", str(db)]) == 0
    app = WorkbenchApp(db)
    async with app.run_test(size=SIZE) as pilot:
        request = ProblemRef("hddl", "delivery-p1", "delivery")
        await run_problem(app, pilot, request)
        await settle(pilot, app)
        check_picture(app, "plan-hddl")
        plan = screen_of(app)
        picker = plan.query_one(ProblemPicker)
        picker.focus()
        assert picker.select(request)
        await pilot.press("f2")
        await until(pilot, lambda: app.screen is not plan)
        await settle(pilot, app)
        check_picture(app, "hddl-editor")
