"""Repairs of a stored HDDL domain, previewed and applied (issue 28).

The repair search (:func:`knowledge.hddl.repair.propose_repairs`: one-place edits drawn
from the failure, each re-planned and its plan accepted by the independent validator)
takes seconds, so it runs in a thread worker that touches no widget: it posts
:class:`RepairsFound` and the handler fills the list.  Each repair is previewed as its
summary, its diff (syntax-coloured) and the plan it gives; ``a`` applies the highlighted
one as the domain's next revision, through the same write as the HDDL editor's save
(:func:`workbench.domains.hddl.editor.store_text`) with the revision the search read as
its base, so an edit saved meanwhile (in another editor or process) is refused, never
overwritten.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.syntax import Syntax
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

if TYPE_CHECKING:
    from knowledge.hddl.repair import Repair

__all__ = ["RepairScreen", "RepairsFound", "repair_lines"]

SECONDS = 4.0
"""How long the search may take (the repair module's own default)."""
LIMIT = 5
"""Repairs shown at most, best first."""


@dataclass
class RepairsFound(Message):
    """The repair worker is done: the repairs (best first), or why there are none."""

    run_id: int
    repairs: list[Repair]
    error: str | None = None
    seconds: float = 0.0


def repair_lines(repair: Repair) -> list[str]:
    """A repair's plan as the preview lists it: one numbered action a line."""
    return [f"{i:>3}. {step}" for i, step in enumerate(repair.plan, 1)]


class RepairScreen(Screen[int | None]):
    """Repairs of one stored HDDL domain for one of its problems; dismissed with the new
    revision when one is applied (None otherwise)."""

    DEFAULT_CSS = """
    RepairScreen #repair-list { width: 42%; height: 1fr; border: round $primary-darken-2; }
    RepairScreen #repair-list:focus { border: round $accent; }
    RepairScreen #repair-preview { width: 1fr; border: round $primary-darken-2; padding: 0 1; }
    RepairScreen #repair-status { height: auto; padding: 0 1; color: $text-muted; }
    RepairScreen #repair-status.-error { color: $error; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "a",
            "apply",
            "Apply",
            id="repair.apply",
            tooltip="Save the highlighted repair as the domain's next revision (refused "
            "if the domain changed since the search read it)",
        ),
        Binding(
            "ctrl+r",
            "search",
            "Search again",
            id="repair.search",
            tooltip="Search the repairs again, on the domain as it is stored now",
        ),
        Binding("escape", "close", "Back", id="repair.close", tooltip="Back, applying nothing"),
    ]

    def __init__(self, db: Path | None, domain: str, problem: str) -> None:
        super().__init__()
        self.db = db
        self.domain = domain
        self.problem = problem
        self.revision = 0
        """The revision whose text the search repairs: the base of an applied repair."""
        self.repairs: list[Repair] = []
        self.searching = False
        self.run_id = 0

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal():
            listing = OptionList(id="repair-list", markup=False)
            listing.border_title = "Repairs"
            yield listing
            with VerticalScroll(id="repair-preview") as preview:
                preview.border_title = "Preview"
                yield Static("", id="repair-summary")
                yield Static("", id="repair-diff")
                yield Static("", id="repair-plan")
        yield Static("", id="repair-status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Repairs · {self.domain} · {self.problem}"
        self.search()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return True if self.repairs and not self.searching else None
        if action == "search":
            return True if not self.searching else None
        return True

    def action_search(self) -> None:
        if not self.searching:
            self.search()

    # -- the search ------------------------------------------------------------------------

    def search(self) -> None:
        """Read the stored domain and problem, and start the search on them."""
        from knowledge.hddl.stored import hddl_text, stored_path
        from workbench.kb import StoreError
        from workbench.kb.catalog import open_store

        try:
            store = open_store(self.db)
            try:
                spec = store.load(self.domain)
                self.revision = store.revision(self.domain)
                problem_text = store.problem_text(self.domain, self.problem)
            finally:
                store.close()
            domain_text = hddl_text(spec)
        except (StoreError, ValueError) as exc:
            self._status(f"Could not read the domain: {exc}", error=True)
            return
        if problem_text is None:
            self._status(f"No problem '{self.problem}' is stored with '{self.domain}'.", True)
            return
        self.run_id += 1
        self.searching = True
        self.refresh_bindings()
        self.query_one("#repair-list", OptionList).clear_options()
        self._status(
            f"Searching one-place repairs of {self.domain} r{self.revision} for "
            f"{self.problem} (up to {SECONDS:g} s; each is re-planned and validated)…"
        )
        self._search(
            self.run_id,
            domain_text,
            problem_text,
            stored_path(self.domain),
            stored_path(f"{self.domain}/{self.problem}"),
        )

    @work(thread=True, exclusive=True, exit_on_error=False, group="hddl-repair")
    def _search(
        self, run_id: int, domain_text: str, problem_text: str, domain_file: str, problem_file: str
    ) -> None:
        """Thread body: search, then post what it found.  Touches no widget."""
        from knowledge.hddl import HddlError
        from knowledge.hddl.repair import propose_repairs

        t0 = time.perf_counter()
        try:
            repairs = propose_repairs(
                domain_text,
                problem_text,
                domain_file=domain_file,
                problem_file=problem_file,
                seconds=SECONDS,
                limit=LIMIT,
            )
        except HddlError as exc:
            self.post_message(RepairsFound(run_id, [], str(exc)))
            return
        except Exception as exc:  # a bug in the search: say it, keep the workbench
            self.post_message(RepairsFound(run_id, [], f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(RepairsFound(run_id, repairs, None, time.perf_counter() - t0))

    @on(RepairsFound)
    def _found(self, message: RepairsFound) -> None:
        message.stop()
        if message.run_id != self.run_id:
            return
        self.searching = False
        self.repairs = list(message.repairs)
        self.refresh_bindings()
        listing = self.query_one("#repair-list", OptionList)
        listing.clear_options()
        if message.error is not None:
            self._status(f"The repair search failed: {message.error}", error=True)
            return
        if not self.repairs:
            self._status(
                f"No one-place repair makes {self.problem} plan (searched "
                f"{message.seconds:.1f} s); the failure pane says where to look."
            )
            self._show(None)
            return
        listing.add_options(
            Option(Text.assemble((f"{i}. ", "bold"), r.summary), id=str(i - 1))
            for i, r in enumerate(self.repairs, 1)
        )
        listing.highlighted = 0
        listing.focus()
        n = len(self.repairs)
        self._status(
            f"{n} repair{'s' if n != 1 else ''} in {message.seconds:.1f} s, best first, each "
            "re-planned and its plan accepted by the independent validator; a applies the "
            "highlighted one."
        )

    # -- the preview -----------------------------------------------------------------------

    @on(OptionList.OptionHighlighted, "#repair-list")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id is not None:
            self._show(self.repairs[int(event.option.id)])

    def _show(self, repair: Repair | None) -> None:
        summary = self.query_one("#repair-summary", Static)
        diff = self.query_one("#repair-diff", Static)
        plan = self.query_one("#repair-plan", Static)
        if repair is None:
            for widget in (summary, diff, plan):
                widget.update("")
            return
        where = f" (line {repair.line})" if repair.line else ""
        checked = (
            "its plan is accepted by the independent validator"
            if repair.valid
            else "its plan was NOT accepted by the independent validator"
        )
        summary.update(
            Text.assemble(
                (repair.summary, "bold"), where, "\n", (f"{repair.kind} · {checked}", "dim"), "\n"
            )
        )
        diff.update(Syntax(repair.diff.rstrip("\n"), "diff", theme="ansi_dark", word_wrap=True))
        steps = repair_lines(repair)
        plan.update(
            Text.assemble(
                (f"\nThe plan it gives ({len(steps)} actions):\n", "bold"), "\n".join(steps)
            )
        )

    def _status(self, text: str, error: bool = False) -> None:
        status = self.query_one("#repair-status", Static)
        status.update(text)
        status.set_class(error, "-error")

    # -- applying --------------------------------------------------------------------------

    def current(self) -> Repair | None:
        """The highlighted repair."""
        index = self.query_one("#repair-list", OptionList).highlighted
        if index is None or not 0 <= index < len(self.repairs):
            return None
        return self.repairs[index]

    def action_apply(self) -> None:
        """Save the highlighted repair as the domain's next revision, based on the revision
        the search read: a domain saved meanwhile is refused, and nothing is written."""
        from workbench.domains.hddl.editor import store_text
        from workbench.kb import StoreError
        from workbench.kb.store import StaleRevision

        repair = self.current()
        if repair is None or self.searching:
            self.notify("No repair to apply yet.", severity="warning")
            return
        try:
            revision = store_text(
                self.db, self.domain, repair.domain_text, self.revision, f"repair: {repair.summary}"
            )
        except StaleRevision as exc:
            text = (
                f"Nothing was written: {exc.args[0].split(' Reload')[0]}. ctrl+r searches "
                "the repairs again on it."
            )
            self.notify(text, title="Not applied", severity="error", timeout=10)
            self._status(text, error=True)
            return
        except StoreError as exc:
            self.notify(str(exc), title="Not applied", severity="error", timeout=10)
            self._status(f"Not applied: {exc}", error=True)
            return
        except ValueError as exc:
            self.notify(str(exc), title="Not applied", severity="error")
            return
        self.notify(
            f"Applied '{repair.summary}': '{self.domain}' is now at revision {revision}.",
            title="Repaired",
        )
        self.dismiss(revision)

    def action_close(self) -> None:
        self.dismiss(None)
