"""The Textual application: what ``workbench`` (and ``./run``) opens with no command.

The app is deliberately thin: global keys (help, quit, maximize), the stylesheet and
its width breakpoints, command-palette entries (derived from every screen's bindings by
:mod:`workbench.palette`), and the default screen.  The planning screen owns the run and
its state, so later screens (knowledge editor, step-through) can be added beside it
without growing this class.

Two things belong here because they span screens: quitting, which first asks every open
editor with unsaved edits what to do with them (:mod:`workbench.screens.unsaved`), and
offering at start-up the drafts a killed session left behind
(:mod:`workbench.screens.draft_offer`).
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Tree

from workbench.kb.drafts import Draft, DraftBox, Rejected
from workbench.palette import KnowledgeEntry, KnowledgeItems, binding_commands, screen_commands
from workbench.panes import toggle_maximized
from workbench.planning_process import planning_process
from workbench.screens.draft_offer import DraftChoice, DraftOfferScreen
from workbench.screens.plan import PlanScreen
from workbench.screens.unsaved import UnsavedEditsScreen, guarded_screens, resolve_unsaved
from workbench.widgets import ProblemPicker

__all__ = ["BREAKPOINTS", "WorkbenchApp", "run_app"]

STARTUP_GRACE = 0.5
"""Seconds after mounting before the planning process is spawned (see ``on_mount``)."""

PRELOAD_AFTER = 1.0
"""Seconds after mounting before the other screens are preloaded (:mod:`workbench.preload`),
after the planning process has been spawned."""

BREAKPOINTS: list[tuple[int, str]] = [(0, "-narrow"), (110, "-normal")]
"""Below 110 columns (an 80-column terminal) every screen gets the class ``-narrow``, and
the stylesheets fold its side panes so the main pane keeps the width."""


def rejected_line(box: DraftBox, rejected: list[Rejected]) -> str:
    """One line for the files :meth:`DraftBox.sweep` moved aside: how many, where they went,
    and why the first was refused (the rest are in the folder for whoever looks)."""
    first = rejected[0]
    n = len(rejected)
    moved = [r for r in rejected if r.moved_to is not None]
    where = (
        f"moved to {box.folder / 'rejected'}"
        if len(moved) == n
        else f"skipped ({n - len(moved)} could not be moved)"
    )
    more = f" and {n - 1} more" if n > 1 else ""
    return (
        f"{n} file{'s' if n != 1 else ''} in the drafts folder "
        f"{'were' if n != 1 else 'was'} not a readable draft and {'were' if n != 1 else 'was'} "
        f"{where}: {first.path.name} {first.reason}{more}."
    )


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
        Binding(
            "q",
            "quit",
            "Quit",
            id="app.quit",
            tooltip="Leave the workbench (unsaved edits are asked about first)",
        ),
    ]
    COMMANDS = App.COMMANDS | {KnowledgeItems}
    """Textual's commands and the app's (from bindings), plus every knowledge item by name
    and label (:class:`workbench.palette.KnowledgeItems`)."""
    HORIZONTAL_BREAKPOINTS = BREAKPOINTS
    ALLOW_IN_MAXIMIZED_VIEW: ClassVar[str] = "Footer, StatusLine"
    """A maximized pane keeps the footer and the status line (a run's progress)."""

    def __init__(self, db: Path | None = None, exports: Path | None = None) -> None:
        super().__init__()
        self.db = db
        """The knowledge store to plan from (None: the default store)."""
        self.exports = exports
        """Where exports are written (None: :func:`workbench.export.default_export_folder`)."""

    def on_mount(self) -> None:
        # Spawning the planning process takes about half a second, and the new interpreter
        # competes with this one for the CPU: start it once the first screen is up, while
        # the user reads it, not when they press Run (a Run before then starts it at once).
        self.set_timer(STARTUP_GRACE, planning_process.start)
        self.set_timer(PRELOAD_AFTER, self._preload)
        self.call_after_refresh(self.offer_drafts)

    @work(thread=True, exit_on_error=False, group="preload", description="preload screens")
    def _preload(self) -> None:
        """Thread body: import the screens F1, F2 and the other keys open, then have their
        styles parsed on the event loop (see :mod:`workbench.preload`)."""
        from workbench.preload import freeze_survivors, import_screens

        import_screens()
        freeze_survivors()
        self.call_from_thread(self._warm_styles)

    def on_unmount(self) -> None:
        # What the preload froze lives as long as this app; a process that runs another
        # (a test session) gets it back for collection.
        gc.unfreeze()

    def _warm_styles(self) -> None:
        from workbench.preload import warm_styles, widgets_to_warm
        from workbench.screens.editor import EditorScreen

        warm_styles(self, widgets_to_warm(), [Path(EditorScreen.CSS_PATH)])

    async def action_quit(self) -> None:
        """Every way of quitting (q, ctrl+q, the palette's Quit) comes here: each editor
        with unsaved edits is asked about first, and a failed save or "stay" stops it."""
        await resolve_unsaved(self, guarded_screens(self), "quitting", self.exit)

    # ------------------------------------------------------------------ drafts

    def offer_drafts(self) -> None:
        """Offer, one at a time, the unsaved edits an earlier session left on disk --
        after moving aside (and saying so, in one line) every file there that is not a
        readable draft, so none of them can crash, freeze or block the start."""
        box = DraftBox.for_store(self.db)
        try:
            rejected = box.sweep()
            drafts = box.left_over()
        except OSError:
            return
        if rejected:
            self.notify(rejected_line(box, rejected), title="Drafts", severity="warning")
        self._offer(box, drafts[::-1])  # newest first

    def _offer(self, box: DraftBox, drafts: list[Draft]) -> None:
        if not drafts:
            return
        draft, rest = drafts[0], drafts[1:]

        def answered(choice: DraftChoice | None) -> None:
            if choice == "restore":
                self.restore_draft(draft)
                if rest:
                    n = len(rest)
                    self.notify(
                        f"{n} more set{'s' if n != 1 else ''} of unsaved edits "
                        f"{'are' if n != 1 else 'is'} kept; the next start offers "
                        f"{'them' if n != 1 else 'it'} again.",
                        title="Drafts",
                    )
                return
            if choice == "discard":
                box.drop(draft.key)
            self._offer(box, rest)

        self.push_screen(DraftOfferScreen(draft, self._moved_on(draft)), answered)

    def _moved_on(self, draft: Draft) -> str | None:
        """How the store moved on since ``draft`` was written, in words (None: it did not)."""
        from workbench.kb import StoreError
        from workbench.kb.catalog import open_store
        from workbench.kb.drafts import moved_on

        try:
            store = open_store(self.db)
        except StoreError as exc:
            return f"The store could not be read: {exc}"
        try:
            return moved_on(draft, store)
        finally:
            store.close()

    def restore_draft(self, draft: Draft) -> None:
        """Open the editor ``draft`` came from, with its edits filled in (unsaved)."""
        from workbench.domains import problem_editor

        if draft.editor == "knowledge":
            from workbench.screens.editor import EditorScreen

            self.push_screen(EditorScreen(self.db, draft.domain, draft))
        elif (editor := problem_editor(draft.editor)) is not None:  # a package's own
            editor.open(self, self.db, draft.name or None, draft)
        else:
            self.notify(
                f"These edits come from an editor this workbench does not have "
                f"({draft.editor}); the draft is kept.",
                severity="error",
            )

    def get_default_screen(self) -> Screen[Any]:
        return PlanScreen(self.db, self.exports)

    def action_editor(self) -> None:
        """Open the knowledge editor on the domain of the problem in the picker, if any:
        the knowledge the user is about to run is the knowledge they came to edit."""
        from workbench.screens.editor import EditorScreen

        if isinstance(self.screen, EditorScreen):
            return
        from workbench.domains import domain_ui

        domain = None
        if isinstance(self.screen, PlanScreen):
            entry = self.screen.query_one(ProblemPicker).current
            if entry is not None:
                try:
                    domain = entry.request.domain_name()
                except Exception:
                    domain = None
                own = domain_ui(entry.request.package).knowledge_editor
                if domain is not None and own is not None:
                    self.push_screen(own(self.db, domain))
                    return
        self.push_screen(EditorScreen(self.db, domain))

    async def open_knowledge_item(self, entry: KnowledgeEntry) -> None:
        """Open a knowledge item the palette found in its editor: the knowledge editor (the
        one on screen, asking about unsaved edits first, or a new one), or the package's own
        editor for knowledge it keeps in its own form (an HDDL domain's text)."""
        from workbench.domains import domain_ui
        from workbench.screens.editor import EditorScreen
        from workbench.widgets.kb_fields import ItemRef

        own = domain_ui(entry.package).knowledge_editor
        if own is not None:
            editor = own(self.db, entry.domain)
            if hasattr(editor, "start_at"):  # it can open at an item (HDDL: its line)
                editor.start_at = (entry.kind, entry.name)
            self.push_screen(editor)
            return
        ref = ItemRef(entry.kind, entry.name)  # type: ignore[arg-type]
        screen = self.screen
        if isinstance(screen, EditorScreen):
            await screen.guard(f"opening {ref.title}", partial(screen.show_ref, entry.domain, ref))
            return
        self.push_screen(EditorScreen(self.db, entry.domain, item=ref))

    def action_toggle_maximize(self) -> None:
        """Maximize the focused pane, or restore the layout (escape restores it too)."""
        screen = self.screen
        if screen.maximized is None and screen.focused is None:
            self.notify("Move to a pane first (tab).", severity="warning")
            return
        toggle_maximized(screen)

    def action_help(self) -> None:
        # The other screens load when first used, or here, for their keys.
        from workbench.domains import domain_uis
        from workbench.screens.editor import EditorScreen
        from workbench.screens.help import HelpScreen, binding_rows
        from workbench.screens.stepper import StepperScreen
        from workbench.screens.whynot import WhyNotScreen

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
                    *(
                        (title, binding_rows(show, bindings))
                        for ui in domain_uis()
                        for title, bindings in ui.help_sections()
                    ),
                    (
                        "Unsaved edits (asked before anything would drop them)",
                        binding_rows(show, UnsavedEditsScreen.BINDINGS),
                    ),
                    (
                        "Unsaved edits from last time (offered at start-up)",
                        binding_rows(show, DraftOfferScreen.BINDINGS),
                    ),
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
            if system.title in ("Maximize", "Minimize"):
                continue
            if system.title == "Quit":  # same action, which no longer quits "at once"
                help_text = "Leave the workbench (unsaved edits are asked about first)"
                system = SystemCommand("Quit", help_text, *system[2:])
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
