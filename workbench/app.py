"""The Textual application: what ``workbench`` (and ``./run``) opens with no command.

The app is deliberately thin: global keys (help, quit), the stylesheet, command-palette
entries, and the default screen.  The planning screen owns the run and its state, so
later screens (knowledge editor, step-through) can be added beside it without growing
this class.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Tree

from knowledge import get_package
from workbench.planning_process import planning_process
from workbench.screens import HelpScreen, PlanScreen
from workbench.screens.design_editor import DesignScreen
from workbench.screens.editor import EditorScreen
from workbench.screens.help import binding_rows
from workbench.screens.stepper import StepperScreen
from workbench.screens.whynot import WhyNotScreen
from workbench.widgets import ProblemPicker

__all__ = ["WorkbenchApp", "run_app"]


class WorkbenchApp(App[None]):
    """TOFS Workbench: run the planner on a problem and read why it chose what it did."""

    TITLE = "TOFS Workbench"
    SUB_TITLE = "pick a problem"
    CSS_PATH = "app.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "help", "Help", id="app.help", tooltip="List every key binding"),
        Binding(
            "f2",
            "editor",
            "Knowledge",
            id="app.editor",
            tooltip="Browse and edit the knowledge: task network, forms, history, lint",
        ),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]

    def __init__(self, db: Path | None = None, exports: Path | None = None) -> None:
        super().__init__()
        self.db = db
        """The knowledge store to plan from (None: the default store)."""
        self.exports = exports
        """Where exports are written (None: :func:`workbench.export.default_export_folder`)."""

    def on_mount(self) -> None:
        # Spawning the planning process takes about half a second: do it while the user
        # is still reading the first screen, not when they press Run.
        planning_process.start()

    def get_default_screen(self) -> Screen[Any]:
        return PlanScreen(self.db, self.exports)

    def action_editor(self) -> None:
        """Open the knowledge editor on the domain of the problem in the picker, if any:
        the knowledge the user is about to run is the knowledge they came to edit."""
        if isinstance(self.screen, EditorScreen):
            return
        domain = None
        if isinstance(self.screen, PlanScreen):
            entry = self.screen.query_one(ProblemPicker).current
            if entry is not None:
                try:
                    domain = get_package(entry.request.package).domain_of(entry.request.problem)
                except Exception:
                    domain = None
        self.push_screen(EditorScreen(self.db, domain))

    def action_help(self) -> None:
        if isinstance(self.screen, HelpScreen):
            return
        show = self.get_key_display
        self.push_screen(
            HelpScreen(
                [
                    ("Everywhere", binding_rows(show, [*self.BINDINGS, *App.BINDINGS])),
                    ("Planning", binding_rows(show, PlanScreen.BINDINGS)),
                    ("Knowledge editor", binding_rows(show, EditorScreen.BINDINGS)),
                    ("Step-through", binding_rows(show, StepperScreen.BINDINGS)),
                    ("Why not?", binding_rows(show, WhyNotScreen.BINDINGS)),
                    ("EDAPS design editor", binding_rows(show, DesignScreen.BINDINGS)),
                    ("Trees (problems and plan)", binding_rows(show, Tree.BINDINGS)),
                ]
            )
        )

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Help", "List every key binding", self.action_help)
        yield SystemCommand("Knowledge editor", "Browse and edit the knowledge", self.action_editor)
        if isinstance(screen, DesignScreen):
            for title, help_text, callback in screen.commands():
                yield SystemCommand(title, help_text, callback)
            return
        if not isinstance(screen, PlanScreen):
            return
        yield SystemCommand("Run", "Plan the highlighted problem", screen.action_run)
        if screen.running:
            yield SystemCommand("Cancel", "Stop the running planner", screen.action_cancel)
        if screen.view is not None:
            yield SystemCommand(
                "Expand all", "Open every node of the plan tree", screen.action_expand_all
            )
            yield SystemCommand(
                "Step through", "Replay how the search built this run", screen.action_step_through
            )
            yield SystemCommand(
                "Why not?", "Re-plan with the highlighted alternative forced", screen.action_why_not
            )
        for entry in screen.query_one(ProblemPicker).entries():
            yield SystemCommand(
                f"Run {entry.request.title}",
                entry.description or "Plan this problem",
                partial(screen.start_run, entry.request),
                discover=False,
            )


def run_app(db: str | Path | None = None, exports: str | Path | None = None) -> int:
    """Run the workbench on the store ``db`` until the user quits; the exit status."""
    from workbench.kb import StoreError
    from workbench.kb.catalog import open_store

    path = Path(db) if db is not None else None
    try:
        open_store(path).close()  # create and seed it now, and refuse a foreign file early
    except StoreError as exc:
        print(f"workbench: error: {exc}", file=sys.stderr)
        return 1
    app = WorkbenchApp(path, Path(exports) if exports is not None else None)
    app.run()
    return app.return_code or 0
