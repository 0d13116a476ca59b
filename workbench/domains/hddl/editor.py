"""The knowledge editor of an HDDL domain: its text, as the author writes HDDL.

An HDDL domain's source of truth is its HDDL text (the store keeps it in the domain's
``extra``; tasks, methods and actions are a view derived from it), so that is what is
edited: one text area, an outline of the domain (types, predicates, tasks, methods,
actions) whose entries jump to where each is written, and live validation by the HDDL
reader -- every finding with its line and column, as the command line reports them.
``ctrl+s`` saves the text as a new revision of the domain (history and undo as for any
edit; the store re-reads and refuses text that does not read); ``escape`` leaves, asking
first if there are unsaved edits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Header, Static, TextArea, Tree

from workbench.screens.choice_dialog import ChoiceDialog

__all__ = ["HddlEditorScreen", "outline"]

# Validation waits until typing pauses this long: reading a large domain takes a while.
DEBOUNCE = 0.3

Leave = Literal["save", "discard", "stay"]


class LeaveDialog(ChoiceDialog[Leave]):
    PREFIX = "hddl-leave"
    HEADING = "Unsaved HDDL"
    CHOICES = (
        ("save", "Save and leave", "primary"),
        ("discard", "Leave without saving", "error"),
        ("stay", "Keep editing", "default"),
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", "Save"),
        Binding("d", "choose('discard')", "Discard"),
        Binding("escape", "choose('stay')", "Keep editing"),
    ]

    def __init__(self, domain: str) -> None:
        super().__init__()
        self.domain = domain

    def text(self) -> str:
        return f"The HDDL of '{self.domain}' has edits that are not saved."


def outline(domain: Any) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """(section, [(entry, line, column)]) for the tree: where each declaration is written."""

    def at(item: Any) -> tuple[int, int]:
        pos = getattr(item, "pos", None)
        return (pos.line, pos.column) if pos is not None else (1, 1)

    def entries(items: Any, show: Any) -> list[tuple[str, int, int]]:
        return [(show(i), *at(i)) for i in items]

    return [
        ("types", entries(domain.types, lambda t: f"{t.name} - {' '.join(t.parents)}")),
        ("constants", entries(domain.constants, lambda c: f"{c.name} - {' '.join(c.types)}")),
        ("predicates", entries(domain.predicates, lambda p: p.name)),
        ("tasks", entries(domain.tasks, lambda t: t.name)),
        ("methods", entries(domain.methods, lambda m: f"{m.task.name} · {m.name}")),
        ("actions", entries(domain.actions, lambda a: a.name)),
    ]


def store_text(
    db: Path | None, domain: str, text: str, base: int, message: str = "edited in the workbench"
) -> int:
    """Store ``text`` as the next revision of the HDDL domain ``domain``, its knowledge
    tests kept, if the domain is still at revision ``base``; the new revision's id.

    One write for the editor's save and an applied repair: the store re-reads the text in
    its transaction and refuses, writing nothing, text that does not read, and a domain
    saved by someone else since ``base`` (:class:`~workbench.kb.store.StaleRevision`).
    Raises :class:`~workbench.kb.StoreError`, or ``ValueError`` (an
    :class:`~knowledge.hddl.HddlError`) for text that does not read or names another
    domain."""
    from knowledge.hddl import parse_domain
    from knowledge.hddl.stored import PACKAGE, domain_to_spec
    from workbench.kb.catalog import open_store

    model = parse_domain(text, f"{domain}.hddl")
    if model.name != domain:
        raise ValueError(
            f"the text defines domain '{model.name}'; its name in the store is '{domain}'"
        )
    store = open_store(db)
    try:
        tests = store.load(domain).tests
        spec = domain_to_spec(model).model_copy(update={"tests": tests})
        rev = store.import_spec(
            spec, package=PACKAGE, path=f"{domain}.hddl", base=base, message=message
        )
    finally:
        store.close()
    return rev.id


class HddlEditorScreen(Screen[None]):
    """Edit one stored HDDL domain's text, validated as it is typed."""

    DEFAULT_CSS = """
    HddlEditorScreen #hddl-outline { width: 32; border: round $primary-darken-2; }
    HddlEditorScreen #hddl-main { width: 1fr; }
    HddlEditorScreen #hddl-text { height: 1fr; }
    HddlEditorScreen #hddl-issues-box {
        height: auto; max-height: 8; border: round $success;
    }
    HddlEditorScreen #hddl-issues-box.invalid { border: round $error; }
    HddlEditorScreen #hddl-issues { height: auto; padding: 0 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s",
            "save",
            "Save",
            id="hddl.save",
            tooltip="Save the text as the domain's next revision (the store re-reads it first)",
        ),
        Binding(
            "ctrl+r",
            "repair",
            "Repair",
            id="hddl.repair",
            tooltip="Search one-place edits that make the problem plan; preview each (diff, "
            "plan) and apply one as the next revision",
        ),
        Binding(
            "escape",
            "leave",
            "Back",
            id="hddl.leave",
            tooltip="Leave the editor (with unsaved edits it asks: save, discard or stay)",
        ),
    ]

    def __init__(
        self,
        db: Path | None,
        domain: str,
        line: int | None = None,
        problem: str | None = None,
    ) -> None:
        """``line``: open with the cursor on that line of the text (1-based), as a blame
        that points there asks (the planning screen's "Where to look").  ``problem``: the
        stored problem repairs are searched for (None: the domain's first)."""
        super().__init__()
        self.db = db
        self.domain = domain
        self.line = line
        self.problem = problem
        self.revision = 0
        self.saved_text = ""
        self.model: Any = None  # the last text that read, as a model
        self.problems: list[str] = []
        self._timer: Timer | None = None
        self.start_at: tuple[str, str] | None = None
        """(kind, name) of a store item to put the cursor on once the text is read (the
        palette's knowledge search: "deliver.deliver-here" is method deliver-here)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            yield Tree(Text(self.domain), id="hddl-outline")
            with Vertical(id="hddl-main"):
                yield TextArea("", id="hddl-text", show_line_numbers=True, tab_behavior="indent")
                with VerticalScroll(id="hddl-issues-box"):  # scrolls, never cuts
                    yield Static("", id="hddl-issues")
        yield Footer()

    def on_mount(self) -> None:
        from knowledge.hddl.stored import hddl_text
        from workbench.kb.catalog import open_store

        store = open_store(self.db)
        try:
            spec = store.load(self.domain)
            self.revision = store.revision(self.domain)
        finally:
            store.close()
        self.saved_text = hddl_text(spec)
        self._update_titles()
        area = self.query_one("#hddl-text", TextArea)
        area.load_text(self.saved_text)
        self.validate()
        area.focus()
        if self.start_at is not None:
            self.go_to(*self.start_at)
        if self.line is not None:
            self.go_to_line(self.line)

    def go_to(self, kind: str, name: str) -> bool:
        """Put the text cursor on the declaration of store item ``name`` of ``kind``
        (task, method ``task.method``, operator: an action); False if it is not written."""
        if self.model is None:
            return False
        section = {"task": "tasks", "method": "methods", "operator": "actions"}.get(kind)
        label = name.replace(".", " · ", 1) if kind == "method" else name
        for title, entries in outline(self.model):
            if title != section:
                continue
            for entry, line, column in entries:
                if entry == label:
                    area = self.query_one("#hddl-text", TextArea)
                    area.move_cursor((line - 1, max(column - 1, 0)), center=True)
                    return True
        return False

    def go_to_line(self, line: int) -> None:
        """Put the cursor at the start of the text on ``line`` (1-based; clamped to the
        text) and scroll it to the middle of the view."""
        area = self.query_one("#hddl-text", TextArea)
        row = min(max(line, 1), area.document.line_count) - 1
        text = area.document.get_line(row)
        area.move_cursor((row, len(text) - len(text.lstrip())), center=True)
        # Before the first layout the area has no height to centre in: again once it has.
        self.call_after_refresh(area.scroll_cursor_visible, center=True)

    # -- validation ------------------------------------------------------------------------

    def _update_titles(self) -> None:
        """The header names this domain and its revision, never the app's (the problem last
        planned, which is another item); ● marks unsaved edits."""
        self.title = f"HDDL · {self.domain}"
        where = f"editing {self.domain} at r{self.revision}"
        self.sub_title = f"{where} ●" if self.dirty else where

    @on(TextArea.Changed, "#hddl-text")
    def _changed(self) -> None:
        self._update_titles()
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(DEBOUNCE, self.validate)

    @property
    def dirty(self) -> bool:
        return self.query_one("#hddl-text", TextArea).text != self.saved_text

    def validate(self) -> None:
        """Read the text as HDDL; show every finding, or what the domain holds."""
        from knowledge.hddl import HddlError, parse_domain

        text = self.query_one("#hddl-text", TextArea).text
        issues = self.query_one("#hddl-issues", Static)
        try:
            model = parse_domain(text, f"{self.domain}.hddl")
            problems = []
            if model.name != self.domain:
                problems = [
                    f"the domain is called '{model.name}' here; its name in the store is "
                    f"'{self.domain}' (import the text as a new domain to rename it)"
                ]
        except HddlError as exc:
            model = None
            problems = [
                f"line {i.line}, column {i.column}: {i.message}" if i.line else i.message
                for i in exc.issues
            ]
        self.problems = problems
        if problems or model is None:
            issues.update("\n".join(problems))
            issues.add_class("invalid")
            self.query_one("#hddl-issues-box").add_class("invalid")
            return
        self.model = model
        issues.remove_class("invalid")
        self.query_one("#hddl-issues-box").remove_class("invalid")
        issues.update(
            f"reads as HDDL: {len(model.tasks)} tasks, {len(model.methods)} methods, "
            f"{len(model.actions)} actions" + (" · unsaved" if self.dirty else "")
        )
        self._fill_outline(model)

    def _fill_outline(self, model: Any) -> None:
        tree: Tree[tuple[int, int]] = self.query_one("#hddl-outline", Tree)
        tree.clear()
        tree.root.expand()
        for section, entries in outline(model):
            branch = tree.root.add(f"{section} ({len(entries)})", expand=section != "methods")
            for label, line, column in entries:
                branch.add_leaf(label, data=(line, column))

    @on(Tree.NodeSelected, "#hddl-outline")
    def _jump(self, event: Tree.NodeSelected[tuple[int, int]]) -> None:
        if event.node.data is None:
            return
        line, column = event.node.data
        area = self.query_one("#hddl-text", TextArea)
        area.move_cursor((line - 1, max(column - 1, 0)), center=True)
        area.focus()

    # -- saving and leaving ----------------------------------------------------------------

    def action_save(self) -> bool:
        """Store the text as the domain's next revision; False (and why) if it cannot be."""
        from workbench.kb import StoreError

        self.validate()
        if self.problems or self.model is None:
            self.notify("The text does not read as HDDL; nothing was saved.", severity="error")
            return False
        if not self.dirty:
            self.notify("Nothing to save.")
            return True
        text = self.query_one("#hddl-text", TextArea).text
        try:
            revision = store_text(self.db, self.domain, text, self.revision)
        except (StoreError, ValueError) as exc:
            self.notify(str(exc), title="Not saved", severity="error")
            return False
        self.revision = revision
        self.saved_text = text
        self._update_titles()
        self.validate()
        self.notify(f"Saved '{self.domain}' as revision {revision}.")
        return True

    def reload(self) -> None:
        """Load the stored text again (after a repair was applied as a new revision)."""
        from knowledge.hddl.stored import hddl_text
        from workbench.kb.catalog import open_store

        store = open_store(self.db)
        try:
            spec = store.load(self.domain)
            self.revision = store.revision(self.domain)
        finally:
            store.close()
        self.saved_text = hddl_text(spec)
        area = self.query_one("#hddl-text", TextArea)
        row = area.cursor_location[0]
        area.load_text(self.saved_text)
        self._update_titles()
        self.validate()
        self.go_to_line(row + 1)

    def action_repair(self) -> None:
        """Search one-place repairs of the stored domain for the problem (the run's, or the
        domain's first stored one), previewed in their own screen; one applied there
        becomes the next revision and is loaded here."""
        from workbench.domains.hddl.repair_view import RepairScreen

        if self.dirty:
            self.notify(
                "Save (ctrl+s) or undo your edits first: repairs are searched on the stored "
                "text and applied as its next revision.",
                severity="warning",
            )
            return
        problem = self.problem or self._first_problem()
        if problem is None:
            self.notify(
                f"No problem is stored with '{self.domain}': a repair makes a problem plan "
                "(workbench kb import DOMAIN.hddl PROBLEM.hddl).",
                severity="warning",
            )
            return

        def applied(revision: int | None) -> None:
            if revision is not None:
                self.reload()

        self.app.push_screen(RepairScreen(self.db, self.domain, problem), applied)

    def _first_problem(self) -> str | None:
        from workbench.kb.catalog import open_store

        store = open_store(self.db)
        try:
            names = [str(p["name"]) for p in store.problems(self.domain)]
        finally:
            store.close()
        return names[0] if names else None

    def action_leave(self) -> None:
        if not self.dirty:
            self.dismiss(None)
            return

        def answered(choice: Leave | None) -> None:
            if choice == "discard" or (choice == "save" and self.action_save()):
                self.dismiss(None)

        self.app.push_screen(LeaveDialog(self.domain), answered)
