"""The planning screen: pick a problem, run the planner, browse the plan and read why.

This screen owns the run's state.  A thread worker waits on the planning process
(:mod:`workbench.planning_process`: the search itself runs in a child process, so it never
competes with the event loop for the GIL) and never touches a widget: it posts
:mod:`workbench.messages` and the handlers here update the picker, tree,
explanation pane and status line.  Each run gets an id, so messages from a run that was
superseded (or cancelled and replaced) are ignored rather than shown over the new one.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widgets import Header, Tree
from textual.worker import Worker, WorkerState

from engine.tofs import CancelToken, Outcome, Progress, RunResult, Status
from engine.tofs.results import Blame
from knowledge import PackageError
from workbench import runner
from workbench.domains import domain_ui, domain_uis, join_or
from workbench.export import default_export_folder, export_path, plan_markdown
from workbench.messages import PlanFailed, PlanFinished, PlanProgress, TestsFinished
from workbench.places import Place
from workbench.planning_process import PlanningError, planning_process
from workbench.runner import ProblemRef, RunSettings
from workbench.widgets import (
    ExplanationPane,
    PackageEntry,
    PlanTree,
    ProblemEntry,
    ProblemPicker,
    StatusLine,
)
from workbench.widgets.explain_md import (
    explain,
    explain_error,
    explain_package,
    explain_problem,
    test_report,
)
from workbench.widgets.failure_list import FailureList
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.plan_items import PlanItem, RunView
from workbench.widgets.run_options import RunOptions
from workbench.widgets.status_line import progress_text

__all__ = ["PlanScreen"]

PLANNER_GROUP = "planner"


def _view_tooltip() -> str:
    """What ``v`` shows, for each package with a view of its own."""
    views = [f"{ui.name}: {v.what}" for ui in domain_uis() for v in ui.views()]
    return "; ".join(views) or "The package's own view of the problem or of its run"


def _editor_tooltip() -> str:
    """What ``d`` edits, for each package with a problem editor."""
    kinds = [ui.editor.described for ui in domain_uis() if ui.editor is not None]
    return f"Open the highlighted {join_or(kinds) or 'problem'} in its editor"


class PlanScreen(Screen[None]):
    """Problem picker | plan tree | explanation (and, under it after a run with no plan,
    where to look), with a status line and the footer."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "run", "Run", id="plan.run", tooltip="Plan the highlighted problem"),
        Binding(
            "p",
            "focus_problems",
            "Problems",
            id="plan.problems",
            tooltip="Move to the problem list, from anywhere on the screen",
        ),
        Binding(
            "escape,c", "cancel", "Cancel", id="plan.cancel", tooltip="Stop the running planner"
        ),
        Binding(
            "e",
            "expand_all",
            "Expand all",
            id="plan.expand_all",
            tooltip="Open every node of the plan tree",
        ),
        Binding(
            "t",
            "test_knowledge",
            "Test knowledge",
            id="plan.test",
            tooltip="Run the knowledge tests of the highlighted problem's domain",
        ),
        Binding(
            "f",
            "cycle_filter",
            "Filter",
            id="plan.filter",
            tooltip="The reader's view of the tree, all alternatives as the audit names "
            "them, the chosen path only, or rejected ones only",
        ),
        Binding(
            "a",
            "toggle_audit",
            "Audit",
            id="plan.audit",
            tooltip="Explain at the reader's level or show the full audit (every "
            "alternative's reason, the method and the values it saw)",
        ),
        Binding(
            "s",
            "step_through",
            "Step through",
            id="plan.step_through",
            tooltip="Replay how the search built this run",
        ),
        Binding(
            "w",
            "why_not",
            "Why not?",
            id="plan.why_not",
            tooltip="Re-plan with the highlighted alternative forced and compare",
        ),
        Binding(
            "b",
            "where_to_look",
            "Where to look",
            id="plan.where_to_look",
            show=False,  # the pane's own border says it, when there is a pane
            tooltip="A run with no plan: the deepest failure's blame and the suspects; "
            "enter on one opens its editor at the line",
        ),
        Binding(
            "R",
            "repair",
            "Repair",
            id="plan.repair",
            show=False,  # said on the Where to look pane's border, when there is a run to repair
            tooltip="A run with no plan, of a package that repairs (HDDL): search one-place "
            "edits of the domain that make it plan, preview them and apply one",
        ),
        Binding(
            "v",
            "domain_view",
            "Domain view",
            id="plan.domain_view",
            tooltip=_view_tooltip(),
        ),
        Binding(
            "d",
            "edit_problem",
            "Edit problem",
            id="plan.edit_problem",
            tooltip=_editor_tooltip(),
        ),
        Binding(
            "x",
            "export_markdown",
            "Export",
            id="plan.export",
            tooltip="Write the plan and every explanation to a Markdown file",
        ),
        Binding(
            "X",
            "export_svg",
            "Screenshot",
            id="plan.svg",
            show=False,
            tooltip="Save the screen as an SVG picture",
        ),
    ]

    PANES: ClassVar[str] = "#problems, #run-options, #plan-tree, #explanation, #failure"
    """The panes a maximize key means (see :mod:`workbench.panes`)."""

    NARROW_GUIDE_DEPTH = 2
    """Cells per level of the plan tree on a narrow terminal (Textual's default is 4): a
    game-tree policy 27 levels deep then starts its labels at column 54, not 108."""

    running: var[bool] = var(False, bindings=True)
    """A planner run is in progress (enables the cancel binding)."""

    def __init__(self, db: Path | None = None, export_folder: Path | None = None) -> None:
        super().__init__()
        self.db = db
        self.export_folder = export_folder or default_export_folder()
        self.run_id = 0
        self.view: RunView | None = None
        self.shown: ProblemRef | None = None
        """The problem whose result is on screen (``_request`` may already be newer)."""
        self._token: CancelToken | None = None
        self._request: ProblemRef | None = None
        self._shown_before = False
        self.audit = False
        """The explanation pane (and the export) shows the full audit, not the reader's
        view."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="panes"):
            with Vertical(id="left"):
                picker = ProblemPicker(self.db, id="problems")
                picker.border_title = "Problems"
                yield picker
                options = RunOptions(id="run-options")
                options.border_title = "Run options"
                yield options
            tree = PlanTree(id="plan-tree")
            tree.border_title = "Plan"
            yield tree
            with Vertical(id="right"):
                pane = ExplanationPane(id="explanation")
                pane.border_title = self._pane_title()
                yield pane
                places = FailureList(id="failure")
                places.border_title = "Where to look"
                places.display = False  # until a run ends with no plan
                yield places
        yield StatusLine("Ready.", id="status")
        yield FittingFooter()

    # ------------------------------------------------------------------ actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "cancel":
            return True if self.running else None  # shown, but dimmed when idle
        if action in (
            "expand_all",
            "step_through",
            "why_not",
            "cycle_filter",
            "export_markdown",
            "toggle_audit",
        ):
            return True if self.view is not None else None
        if action == "where_to_look":
            return True if self.query_one(FailureList).places else None
        if action == "repair":
            return True if self._repairs() is not None else None
        if action == "domain_view":
            entry = self.query_one(ProblemPicker).current
            of_run = (
                self.view is not None
                and self.shown is not None
                and domain_ui(self.shown.package).result_view is not None
                and not self.running
            )
            of_problem = (
                entry is not None and domain_ui(entry.request.package).problem_view is not None
            )
            return True if of_run or of_problem else None
        if action == "edit_problem":
            entry = self.query_one(ProblemPicker).current
            editor = None if entry is None else domain_ui(entry.request.package).editor
            return True if editor is not None else None
        return True

    def action_run(self) -> None:
        entry = self.query_one(ProblemPicker).current
        if entry is None:
            self.notify("Highlight a problem on the left first.", severity="warning")
            return
        self.start_run(entry.request)

    def action_focus_problems(self) -> None:
        """Back to the list from anywhere (tab would walk through every run option)."""
        picker = self.query_one(ProblemPicker)
        if self.maximized is not None and self.maximized is not picker:
            self.minimize()  # the list is out of sight (and out of the focus chain)
        picker.focus()

    def on_resize(self, event: events.Resize) -> None:
        # The breakpoint class is set before this handler runs (Screen._on_resize).
        tree = self.query_one(PlanTree)
        tree.guide_depth = self.NARROW_GUIDE_DEPTH if self.has_class("-narrow") else 4

    def action_cancel(self) -> None:
        if self._token is not None and self.running:
            self._token.cancel()
            self.query_one(StatusLine).set_status("Cancelling…", "running")

    def action_expand_all(self) -> None:
        if not self.query_one(PlanTree).expand_everything():
            self.notify(
                f"Stopped after {PlanTree.EXPAND_LIMIT} nodes; open the rest by hand.",
                severity="warning",
            )

    def start_run(self, request: ProblemRef) -> Worker[None] | None:
        """Start planning ``request``, superseding (and cancelling) any run in progress."""
        settings = self.query_one(RunOptions).settings()
        if isinstance(settings, str):
            self.notify(settings, title="Run options", severity="error")
            self.query_one(StatusLine).set_status(settings, "error")
            return None
        if self._token is not None:
            self._token.cancel()
        self.run_id += 1
        self._token = CancelToken()
        self._request = request
        self.running = True
        self.remove_class("-run-ended")
        self.app.sub_title = request.title
        self.query_one(StatusLine).set_status(
            f"Planning {request.title} ({settings.describe()})…", "running"
        )
        return self._plan(request, self._token, self.run_id, settings)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group=PLANNER_GROUP,
        description="TOFS planner",
    )
    def _plan(
        self, request: ProblemRef, token: CancelToken, run_id: int, settings: RunSettings
    ) -> None:
        """Thread body: plan, then post the outcome.  Touches no widget."""

        def progress(p: Progress) -> None:
            self.post_message(PlanProgress(run_id, request, p))

        try:
            result = planning_process.execute(request, token, progress, self.db, settings)
        except Exception as exc:
            self.post_message(
                PlanFailed(
                    run_id,
                    request,
                    runner.error_message(exc),
                    exc.kind if isinstance(exc, PlanningError) else type(exc).__name__,
                )
            )
            return
        self.post_message(PlanFinished(run_id, request, result))

    def cancel_run(self) -> None:
        """Stop the search thread (used when the screen goes away)."""
        if self._token is not None:
            self._token.cancel()

    def on_screen_resume(self) -> None:
        # Back from another screen (a problem editor may have saved a problem under a new
        # name): list the problems again.  The first resume is the screen's first showing.
        if self._shown_before:
            self.query_one(ProblemPicker).reload()
        self._shown_before = True

    def on_unmount(self) -> None:
        self.cancel_run()

    def action_cycle_filter(self) -> None:
        tree = self.query_one(PlanTree)
        modes = PlanTree.FILTERS
        tree.set_filter(modes[(modes.index(tree.filter) + 1) % len(modes)])
        tree.border_title = f"Plan · {PlanTree.FILTER_TITLES[tree.filter]}"
        self.notify(f"Plan tree: {PlanTree.FILTER_TITLES[tree.filter]}", timeout=2)

    def _pane_title(self) -> str:
        return "Explanation · full audit" if self.audit else "Explanation · reader's view"

    def action_toggle_audit(self) -> None:
        """Between the reader's view and the full audit, for the highlighted node."""
        self.audit = not self.audit
        pane = self.query_one(ExplanationPane)
        pane.border_title = self._pane_title()
        node = self.query_one(PlanTree).cursor_node
        data = node.data if node is not None else None
        if isinstance(data, PlanItem):
            pane.show(explain(data, self.audit))
        level = "the full audit" if self.audit else "the reader's view"
        self.notify(f"Explanation: {level}", timeout=2)

    def action_step_through(self) -> None:
        if self.view is None or self.shown is None:
            self.notify("Run a problem first.", severity="warning")
            return
        result = self.view.result
        if result.trace is None:
            self.notify(
                "This run kept no trace: switch Record trace on and run again.", severity="warning"
            )
            return
        from workbench.screens.stepper import StepperScreen

        self.app.push_screen(StepperScreen(result.trace, result, self.shown.title))

    def action_why_not(self) -> None:
        if self.view is None or self.shown is None:
            self.notify("Run a problem first.", severity="warning")
            return
        node = self.query_one(PlanTree).cursor_node
        from workbench.screens.whynot import WhyNotScreen, why_not_target

        target = why_not_target(node.data if node is not None else None)
        if isinstance(target, str):
            self.notify(target, severity="warning")
            return
        choice, alternative = target
        self.app.push_screen(
            WhyNotScreen(self.shown, self.view.result, choice, alternative, db=self.db)
        )

    def _show_places(self, result: RunResult | None) -> None:
        """Show the "Where to look" pane for ``result`` if it has places, else hide it
        (the class lets a narrow layout give the pane's column more rows)."""
        places = self.query_one(FailureList)
        places.display = places.show_result(result)
        self.set_class(places.display, "-places")
        repairs = self._repairs() is not None
        places.border_subtitle = "b here · enter opens the line" + (
            " · R repairs" if repairs else ""
        )
        self.refresh_bindings()

    def _repairs(self) -> Callable[[Path | None, str, str], Screen[Any]] | None:
        """The repair screen of the run on screen, when it ended with no plan and its
        package repairs."""
        if self.view is None or self.shown is None or self.running:
            return None
        if self.view.result.found:
            return None
        return domain_ui(self.shown.package).repairs

    def action_repair(self) -> None:
        """Search repairs of the shown run's domain for its problem (their own screen)."""
        repairs = self._repairs()
        request = self.shown
        if repairs is None or request is None:
            from workbench.palette import unavailable

            self.notify(unavailable("plan.repair"), severity="warning")
            return
        try:
            domain = request.domain_name()
        except PackageError as exc:
            self.notify(str(exc), severity="error")
            return

        def applied(revision: int | None) -> None:
            if revision is not None:
                self.query_one(StatusLine).set_status(
                    f"{domain} is now at revision {revision}: r plans {request.title} again.",
                    "ok",
                )

        self.app.push_screen(repairs(self.db, domain, request.problem), applied)

    def action_where_to_look(self) -> None:
        """Move to the "Where to look" pane (a run with no plan lists its places there)."""
        places = self.query_one(FailureList)
        if not places.places:
            from workbench.palette import unavailable

            self.notify(unavailable("plan.where_to_look"), severity="warning")
            return
        if self.maximized is not None and self.maximized is not places:
            self.minimize()
        places.focus()

    @on(FailureList.PlaceChosen)
    def _place_chosen(self, message: FailureList.PlaceChosen) -> None:
        message.stop()
        self.open_place(message.place)

    def open_place(self, place: Place) -> Screen[Any] | None:
        """Open the editor of the shown run's domain where ``place`` was written: the
        package's own (HDDL: its text, the cursor on the line), else the knowledge editor
        at the TOML item the line falls in.  A place with no line, or one no editor
        opens, is said in a notification and nothing else happens.  The screen opened,
        if any."""
        blame = place.blame
        request = self.shown
        if blame.line is None or request is None:
            self.notify(
                f"{place.role}: the knowledge does not say where this was written, so there "
                "is no line to open.",
                severity="warning",
            )
            return None
        try:
            domain = request.domain_name()
        except PackageError as exc:
            self.notify(str(exc), severity="error")
            return None
        own = domain_ui(request.package).place_editor
        target = (
            own(self.db, domain, request.problem, blame)
            if own is not None
            else self._toml_place(domain, blame)
        )
        if isinstance(target, str):
            self.notify(target, title=place.role, severity="warning")
            return None
        self.app.push_screen(target)
        return target

    def _toml_place(self, domain: str, blame: Blame) -> Screen[Any] | str:
        """The knowledge editor of ``domain`` at the item (and field) of its TOML text
        that the blamed line falls in, or why not."""
        from workbench.kb import StoreError
        from workbench.kb.catalog import open_store
        from workbench.places import toml_item_at
        from workbench.screens.editor import EditorScreen
        from workbench.widgets.kb_fields import ItemRef

        try:
            store = open_store(self.db)
            try:
                text = store.export(domain)
            finally:
                store.close()
        except StoreError as exc:
            return f"The knowledge could not be read: {exc}"
        item = toml_item_at(text, blame.line or 0)
        if item is None:
            return (
                f"Line {blame.line} of {domain}'s knowledge is in no task, method, operator, "
                "constant or test; the knowledge editor opens on the domain (F2)."
            )
        return EditorScreen(self.db, domain, at=(ItemRef(item.kind, item.name), item.field))

    def action_domain_view(self) -> None:
        """The highlighted problem's own view if its package has one (a
        :class:`~workbench.domains.ProblemView`), else the view of the run on screen its
        package has (a :class:`~workbench.domains.ResultView`)."""
        entry = self.query_one(ProblemPicker).current
        if entry is not None:
            view = domain_ui(entry.request.package).problem_view
            if view is not None:
                view.open(self.app, self.db, entry.request.problem)
                return
        request = self.shown
        shows = None if request is None else domain_ui(request.package).result_view
        if self.view is None or request is None or shows is None:
            from workbench.palette import unavailable

            self.notify(unavailable("plan.domain_view"), severity="warning")
            return
        shows.open(self.app, self.db, request.problem, self.view.result)

    def action_edit_problem(self) -> None:
        """Open the highlighted problem in its package's problem editor."""
        entry = self.query_one(ProblemPicker).current
        editor = None if entry is None else domain_ui(entry.request.package).editor
        if entry is None or editor is None:
            from workbench.palette import unavailable

            self.notify(unavailable("plan.edit_problem"), severity="warning")
            return
        editor.open(self.app, self.db, entry.request.problem, None)

    def action_export_markdown(self) -> None:
        if self.view is None or self.shown is None:
            self.notify("Run a problem first; then export its plan.", severity="warning")
            return
        request = self.shown
        try:
            path = export_path(self.export_folder, request.package, request.problem, ".md")
            path.write_text(
                plan_markdown(request.title, self.view.result, audit=self.audit),
                encoding="utf-8",
            )
        except OSError as exc:
            self.notify(f"Could not write to {self.export_folder}: {exc}", severity="error")
            return
        self.notify(f"Wrote {path}", title="Exported")

    def action_export_svg(self) -> None:
        name = (
            "workbench"
            if self._request is None
            else f"{self._request.package}-{self._request.problem}"
        )
        try:
            path = export_path(self.export_folder, name, "screen", ".svg")
            self.app.save_screenshot(filename=path.name, path=str(path.parent))
        except OSError as exc:
            self.notify(f"Could not write to {self.export_folder}: {exc}", severity="error")
            return
        self.notify(f"Wrote {path}", title="Screenshot")

    def action_test_knowledge(self) -> None:
        entry = self.query_one(ProblemPicker).current
        scope = None
        if entry is not None:
            try:
                scope = entry.request.domain_name()
            except PackageError:
                scope = None
        self.query_one(StatusLine).set_status(
            f"Running the knowledge tests of {scope or 'every domain'}…", "running"
        )
        self._run_tests(scope)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="knowledge-tests",
        description="knowledge tests",
    )
    def _run_tests(self, domain: str | None) -> None:
        """Thread body: run the tests on the store's knowledge, post the report."""
        from workbench.kb.catalog import open_store
        from workbench.kb.testing import run_tests

        store = open_store(self.db)
        try:
            names = [domain] if domain else [d.name for d in store.domains()]
            outcomes = {d: run_tests(d, store.load(d), store) for d in names}
        except Exception as exc:
            self.post_message(
                TestsFinished(
                    domain or "every domain", f"# Knowledge tests\n\nCould not run: {exc}", 0, 1
                )
            )
            return
        finally:
            store.close()
        passed = sum(o.passed for rs in outcomes.values() for o in rs)
        failed = sum(not o.passed for rs in outcomes.values() for o in rs)
        self.post_message(
            TestsFinished(
                domain or "every domain",
                test_report(domain or "every domain", outcomes),
                passed,
                failed,
            )
        )

    @on(TestsFinished)
    def _tests_finished(self, message: TestsFinished) -> None:
        message.stop()
        self.query_one(ExplanationPane).show(message.report)
        text = (
            f"Knowledge tests ({message.scope}): {message.passed} passed, {message.failed} failed"
        )
        self.query_one(StatusLine).set_status(text, "error" if message.failed else "ok")
        self.notify(text, severity="error" if message.failed else "information")

    # ------------------------------------------------------------------ worker messages

    @on(PlanProgress)
    def _progress(self, message: PlanProgress) -> None:
        if message.run_id == self.run_id and self.running:
            self.query_one(StatusLine).set_status(
                progress_text(message.request, message.progress), "running"
            )

    @on(PlanFinished)
    def _finished(self, message: PlanFinished) -> None:
        if message.run_id != self.run_id:
            return
        self.running = False
        result = message.result
        self.view = RunView.of(result)
        self.shown = message.request
        self.refresh_bindings()
        tree = self.query_one(PlanTree)
        tree.show_result(self.view)
        self.query_one(ExplanationPane).show(explain(tree.root.data, self.audit))
        self._show_places(result)
        self.query_one(StatusLine).show_result(message.request, result)
        self.add_class("-run-ended")  # on a narrow screen the explanation gets half
        if result.status is Status.CANCELLED:
            self.notify(
                f"{message.request.title}: cancelled after {result.nodes:,} nodes.",
                severity="warning",
            )
        elif result.outcome is not Outcome.PLAN:
            self.notify(f"{message.request.title}: {result.outcome_text}.", severity="warning")
        tree.focus()

    @on(PlanFailed)
    def _failed(self, message: PlanFailed) -> None:
        if message.run_id != self.run_id:
            return
        self._show_failure(message.request, message.message)

    @on(Worker.StateChanged)
    def _worker_changed(self, event: Worker.StateChanged) -> None:
        # The worker reports its own errors as PlanFailed; this catches a bug in that path.
        worker = event.worker
        if worker.group == PLANNER_GROUP and event.state is WorkerState.ERROR:
            request = self._request or ProblemRef("?", "?")
            self._show_failure(request, runner.error_message(worker.error or RuntimeError()))

    def _show_failure(self, request: ProblemRef, text: str) -> None:
        self.running = False
        self.view = None
        self.shown = None
        self.query_one(PlanTree).show_message(f"✗ {request.title}: run failed")
        self._show_places(None)
        self.query_one(ExplanationPane).show(explain_error(request, text))
        self.query_one(StatusLine).set_status(f"{request.title} failed: {text}", "error")
        self.add_class("-run-ended")
        self.notify(text, title=f"{request.title} failed", severity="error", timeout=8)

    # ------------------------------------------------------------------ tree events

    @on(Tree.NodeHighlighted, "#plan-tree")
    def _plan_node_highlighted(self, event: Tree.NodeHighlighted[object]) -> None:
        data = event.node.data
        if isinstance(data, PlanItem):
            self.query_one(ExplanationPane).show(explain(data, self.audit))

    @on(Tree.NodeHighlighted, "#problems")
    def _problem_highlighted(self, event: Tree.NodeHighlighted[object]) -> None:
        data = event.node.data
        pane = self.query_one(ExplanationPane)
        if isinstance(data, ProblemEntry):
            pane.show(explain_problem(data.request, data.description))
        elif isinstance(data, PackageEntry):
            text = data.error or data.description
            pane.show(explain_package(data.name, text, [p for p, _ in data.problems]))
        self.refresh_bindings()  # "Edit problem" applies to packages with a problem editor

    @on(Tree.NodeSelected, "#problems")
    def _problem_selected(self, event: Tree.NodeSelected[object]) -> None:
        if isinstance(event.node.data, ProblemEntry):
            self.start_run(event.node.data.request)
