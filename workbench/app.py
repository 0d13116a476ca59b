"""The Textual application: what ``workbench`` (and ``./run``) opens with no command.

The app is deliberately thin: global keys (help, quit, maximize), the stylesheet and
its width breakpoints, command-palette entries (derived from every screen's bindings by
:mod:`workbench.palette`), and the default screen.  The planning screen owns the run and
its state, so later screens (knowledge editor, step-through) can be added beside it
without growing this class.
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
from workbench.palette import binding_commands, screen_commands
from workbench.panes import toggle_maximized
from workbench.planning_process import planning_process
from workbench.screens import HelpScreen, PlanScreen
from workbench.screens.bridge_view import BridgeScreen
from workbench.screens.deal_editor import DealEditorScreen
from workbench.screens.design_editor import DesignScreen
from workbench.screens.editor import EditorScreen
from workbench.screens.help import binding_rows
from workbench.screens.stepper import StepperScreen
from workbench.screens.whynot import WhyNotScreen
from workbench.widgets import ProblemPicker

__all__ = ["BREAKPOINTS", "WorkbenchApp", "run_app"]

BREAKPOINTS: list[tuple[int, str]] = [(0, "-narrow"), (110, "-normal")]
"""Below 110 columns (an 80-column terminal) every screen gets the class ``-narrow``, and
the stylesheets fold its side panes so the main pane keeps the width."""


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
        Binding(
            "ctrl+o",
            "toggle_maximize",
            "Maximize",
            id="app.maximize",
            tooltip="Give the focused pane the whole screen; again (or escape) restores it",
        ),
        Binding("q", "quit", "Quit", id="app.quit"),
    ]
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    ALLOW_IN_MAXIMIZED_VIEW: ClassVar[str] = "Footer, StatusLine"
    """A maximized pane keeps the footer and the status line (a run's progress)."""

    def __init__(self, db: Path | None = None) -> None:
        super().__init__()
        self.db = db
        """The knowledge store to plan from (None: the default store)."""

    def on_mount(self) -> None:
        # Spawning the planning process takes about half a second: do it while the user
        # is still reading the first screen, not when they press Run.
        planning_process.start()

    def get_default_screen(self) -> Screen[Any]:
        return PlanScreen(self.db)

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

    def action_toggle_maximize(self) -> None:
        """Maximize the focused pane, or restore the layout (escape restores it too)."""
        screen = self.screen
        if screen.maximized is None and screen.focused is None:
            self.notify("Move to a pane first (tab).", severity="warning")
            return
        toggle_maximized(screen)

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
                    ("Bridge table", binding_rows(show, BridgeScreen.BINDINGS)),
                    ("Bridge deal editor", binding_rows(show, DealEditorScreen.BINDINGS)),
                    ("Trees (problems and plan)", binding_rows(show, Tree.BINDINGS)),
                ]
            )
        )

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands (theme, quit, keys, screenshot), then every action of the
        app and of ``screen``, from their bindings, then "Run <problem>" for each problem
        the planning screen lists.  Textual's maximize/minimize give way to this app's
        own (which maximizes the pane, not a lone checkbox)."""
        titles: set[str] = set()
        for system in super().get_system_commands(screen):
            if system.title not in ("Maximize", "Minimize"):
                titles.add(system.title)
                yield system
        for command in [*binding_commands(self, self.BINDINGS), *screen_commands(screen)]:
            if command.title not in titles:  # Textual's "Quit" says more than ours
                titles.add(command.title)
                yield SystemCommand(command.title, command.help, command.callback)
        if isinstance(screen, PlanScreen):
            for entry in screen.query_one(ProblemPicker).entries():
                yield SystemCommand(
                    f"Run {entry.request.title}",
                    entry.description or "Plan this problem",
                    partial(screen.start_run, entry.request),
                    discover=False,
                )


def run_app(db: str | Path | None = None) -> int:
    """Run the workbench on the store ``db`` until the user quits; the exit status."""
    from workbench.kb import StoreError
    from workbench.kb.catalog import open_store

    path = Path(db) if db is not None else None
    try:
        open_store(path).close()  # create and seed it now, and refuse a foreign file early
    except StoreError as exc:
        print(f"workbench: error: {exc}", file=sys.stderr)
        return 1
    app = WorkbenchApp(path)
    app.run()
    return app.return_code or 0
