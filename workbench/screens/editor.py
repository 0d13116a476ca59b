"""The knowledge browser and editor: the task network as a tree, a form per item checked as
the user types, saving as revisions, undo/redo, history with diffs, and lint that jumps.

Why it is built this way:

* **The store decides.**  The form's live checks are advice (they use the engine's own
  compiler, so they rarely disagree); a save always goes to ``store.edit`` with the
  revision the form was loaded from, and the store's validator and optimistic check are
  what accept or refuse it.  A refused edit writes nothing and the form keeps the text.
* **Nothing typed is lost by accident.**  Moving the tree cursor opens items only while
  the form is clean; undo, redo, creating, renaming and deleting refuse while it is dirty;
  whatever would drop the edits (leaving, quitting, another domain, another item, escape)
  asks Save / Discard / Stay first (:mod:`workbench.screens.unsaved`), and meanwhile the
  edits are kept as a draft on disk; reloading after a stale refusal keeps the edits in
  the form on top of the new state.
* **Threads.**  Store calls here are fast (tens of ms) and stay on the UI thread with the
  screen's own connection (SQLite objects cannot cross threads).  Lint is pure CPU over a
  ``DomainSpec``, so it runs in a thread worker with no store at all and posts
  :class:`LintFinished`; results from a superseded run are dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import var
from textual.widgets import (
    Header,
    OptionList,
    Select,
    Static,
    TabbedContent,
    TabPane,
    Tree,
)

from engine.tofs.model import DomainSpec
from engine.tofs.registry import Registry
from workbench.domains import default_knowledge
from workbench.kb.catalog import domain_owner, open_store
from workbench.kb.drafts import Draft, DraftBox, moved_on
from workbench.kb.lint import Finding, lint_domain
from workbench.kb.store import (
    KINDS,
    EditRejected,
    KnowledgeStore,
    Revision,
    StaleRevision,
    StoreError,
)
from workbench.screens.item_dialogs import (
    ConfirmScreen,
    NewItem,
    NewItemScreen,
    RenameScreen,
    taken_names,
)
from workbench.screens.unsaved import GuardedScreen
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.item_form import FieldInput, ItemForm
from workbench.widgets.kb_fields import (
    EditContext,
    FormError,
    FormValues,
    ItemRef,
    build_value,
    find_item,
    item_values,
)
from workbench.widgets.kb_history_view import HistoryPanel
from workbench.widgets.kb_lint_view import LintList
from workbench.widgets.kb_tree import CallRef, GroupRef, KnowledgeTree, NodeData, TreePlace
from workbench.widgets.status_line import StatusLine

__all__ = ["EditorScreen", "LintFinished"]

LINT_GROUP = "kb-lint"


@dataclass
class LintFinished(Message):
    """The lint worker is done with revision ``revision`` of ``domain``."""

    run_id: int
    domain: str
    revision: int
    findings: list[Finding]
    error: str | None = None


def _ref_of(data: NodeData) -> ItemRef | None:
    if isinstance(data, ItemRef):
        return data
    if isinstance(data, CallRef):
        return data.target
    return None


def _form_values(fields: dict[str, object], start: FormValues) -> FormValues:
    """``start`` with the draft's ``fields`` laid over it, keeping only values of the
    right shape for a field the form still has (a draft is data from disk)."""
    out = dict(start)
    for key, value in fields.items():
        if key not in out:
            continue
        if isinstance(value, bool | str) or (
            isinstance(value, list) and all(isinstance(e, str) for e in value)
        ):
            out[key] = value
    return out


_PLACES: dict[tuple[str, str], TreePlace] = {}
"""Where the user left each domain's tree, by (store, domain), for this session: the editor
opens where it was left, not at the top with everything closed."""


class EditorScreen(GuardedScreen[None]):
    """Domain picker and task network | item form, primitive help, save/lint/history."""

    EDITOR_NAME = "knowledge editor"

    CSS_PATH = str(Path(__file__).resolve().parent.parent / "editor.tcss")
    AUTO_FOCUS = "#kb-tree"
    PANES: ClassVar[str] = "#kb-side, #kb-form, #kb-panels"
    """The panes a maximize key means (see :mod:`workbench.panes`)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "ctrl+s",
            "save",
            "Save",
            id="editor.save",
            tooltip="Save the open item as a new revision (the store checks it first)",
        ),
        Binding(
            "escape",
            "revert",
            "Revert",
            id="editor.revert",
            tooltip="Go back to the stored item (asks first: save, discard or stay)",
        ),
        Binding(
            "ctrl+z",
            "undo",
            "Undo",
            id="editor.undo",
            tooltip="Undo the domain's latest change (recorded as a new revision)",
        ),
        Binding("ctrl+y", "redo", "Redo", id="editor.redo", tooltip="Redo the change undone last"),
        Binding(
            "ctrl+l",
            "lint",
            "Lint",
            id="editor.lint",
            tooltip="Lint the saved domain; enter on a finding opens its item",
        ),
        Binding(
            "ctrl+g",
            "history",
            "History",
            id="editor.history",
            tooltip="Revisions newest first; highlight one for its diff to now, "
            "enter marks the 'from' side",
        ),
        Binding(
            "ctrl+r",
            "reload",
            "Reload",
            id="editor.reload",
            tooltip="Reload the domain from the store (unsaved edits stay in the form)",
        ),
        Binding(
            "ctrl+n",
            "new_item",
            "New",
            id="editor.new",
            tooltip="Create a constant, task, method, operator or knowledge test "
            "(a method goes to the highlighted task)",
        ),
        Binding(
            "ctrl+e",
            "rename_item",
            "Rename",
            id="editor.rename",
            tooltip="Rename the highlighted item and every reference to it",
        ),
        Binding(
            "ctrl+d",
            "delete_item",
            "Delete",
            id="editor.delete",
            tooltip="Delete the highlighted item (refused while something uses it)",
        ),
        Binding(
            "alt+up",
            "move_method(-1)",
            "Method up",
            id="editor.method_up",
            tooltip="Try the highlighted method earlier (methods are tried in order)",
        ),
        Binding(
            "alt+down",
            "move_method(1)",
            "Method down",
            id="editor.method_down",
            tooltip="Try the highlighted method later",
        ),
        Binding(
            "f2",
            "close",
            "Close",
            id="editor.close",
            tooltip="Leave the editor (with unsaved edits it asks: save, discard or stay)",
        ),
    ]
    HELP = """\
**Knowledge editor.**  Left: the domain and its task network (tasks → methods in priority
order → calls; a call to a task opens onto its methods) and the constants, operators and
knowledge tests.  *Space* opens a node, *enter* opens the item's form and moves into it.

Right: the form.  Expression fields are checked as you type with the engine's compiler;
the problem and its column show under the field.  *Right arrow* accepts the greyed
completion (primitives, constants, parameters, tasks).  The line under the form explains
the primitive at the cursor.  Empty list entries are dropped on save.
"""

    dirty: var[bool] = var(False, bindings=True)
    """The open item has unsaved edits (enables revert)."""
    has_item: var[bool] = var(False, bindings=True)
    """An item is open in the form (enables save)."""

    def __init__(
        self,
        db: Path | None = None,
        domain: str | None = None,
        draft: Draft | None = None,
        item: ItemRef | None = None,
        at: tuple[ItemRef, str] | None = None,
    ) -> None:
        """``draft``: unsaved edits left over from an earlier session, to put back into
        the form (they stay unsaved: the user still saves them); ``item``: the item of
        ``domain`` to open (the palette's choice).  ``at``: an item of ``domain`` and one of
        its fields ("" for none) to open with the cursor there, as a blame that points into
        the domain asks (the planning screen's "Where to look")."""
        super().__init__()
        self.db = db
        self.domain: str | None = domain if draft is None else draft.domain
        self.restore = draft
        self.item = item
        self.at = at
        self.drafts = DraftBox.for_store(db)
        self.spec: DomainSpec | None = None
        self.base = 0
        """The revision the tree and the form were loaded from: the base of every edit."""
        self.ctx: EditContext | None = None
        self.registry: Registry | None = None
        self._store: KnowledgeStore | None = None
        self._lint_run = 0
        self._last_status = ("", "")

    @property
    def store(self) -> KnowledgeStore:
        """This screen's store connection (UI thread only)."""
        if self._store is None:
            self._store = open_store(self.db)
        return self._store

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        names = [d.name for d in self.store.domains()]
        if self.domain not in names:
            self.domain = default_knowledge(names)
        yield Header()
        with Horizontal(id="kb-panes"):
            with Vertical(id="kb-side") as side:
                side.border_title = "Knowledge"
                yield Select(
                    [(n, n) for n in names],
                    value=self.domain or Select.BLANK,
                    allow_blank=not names,
                    compact=True,
                    id="kb-domain",
                )
                yield KnowledgeTree(id="kb-tree")
            with Vertical(id="kb-main"):
                form = ItemForm(id="kb-form")
                form.border_title = "Item"
                yield form
                # A hint longer than its two rows scrolls, with its scroll bar showing.
                with VerticalScroll(id="kb-hint-box"):
                    yield Static("", id="kb-hint")
                with TabbedContent(id="kb-panels", initial="tab-outcome"):
                    with (
                        TabPane("Save", id="tab-outcome"),
                        VerticalScroll(id="kb-outcome-scroll"),
                    ):
                        yield Static(
                            Text("Edits are saved with ctrl+s.", style="dim"), id="kb-outcome"
                        )
                    with TabPane("Lint", id="tab-lint"):
                        yield LintList(id="kb-lint")
                    with TabPane("History", id="tab-history"):
                        yield HistoryPanel(id="kb-history")
        yield StatusLine("", id="kb-status")
        yield FittingFooter()

    async def on_mount(self) -> None:
        if self.domain is not None:
            await self.load_domain(self.domain, keep=self.item)
        if self.restore is not None:
            await self.restore_draft(self.restore)
        elif self.at is not None:
            await self.go_to(*self.at)

    def on_unmount(self) -> None:
        if self._store is not None:
            self._store.close()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "save":
            return True if self.has_item else None
        if action == "revert":
            return True if self.dirty else None
        if action in ("rename_item", "delete_item"):
            return True if self._target() is not None else None
        if action == "move_method":
            ref = self._target()
            return True if ref is not None and ref.kind == "method" else None
        return True

    # ------------------------------------------------------------------ loading

    async def load_domain(
        self, domain: str, keep: ItemRef | None = None, values: FormValues | None = None
    ) -> None:
        """(Re)load ``domain`` from the store; reopen ``keep`` (with ``values``) if it exists."""
        store = self.store
        changed = domain != (self.spec.name if self.spec else None)
        if changed:
            self.remember_place()
        self.domain = domain
        self.spec = store.load(domain)
        self.base = store.revision(domain)
        owner = domain_owner(domain)
        self.registry = owner[1] if owner else None
        self.ctx = EditContext.build(domain, self.spec, self.registry, store.primitives(domain))
        self.sub_title = f"editing {domain} at r{self.base}"
        tree = self.query_one(KnowledgeTree)
        tree.show_domain(self.spec, self.base)
        place = _PLACES.get(self._place_key(domain)) if changed else None
        if place is not None:
            tree.restore(place)
        self.query_one(HistoryPanel).show_history(store.history(domain), self.base)
        if changed:
            self._lint_run += 1  # a lint of the previous domain still running is stale
            self.query_one(LintList).show_message(
                f"Lint has not run on {domain} yet: press ctrl+l."
            )
        form = self.query_one(ItemForm)
        if keep is not None and find_item(self.spec, keep) is not None:
            await self.open_item(keep, values)
            tree.select_item(keep)
        elif keep is not None:
            await form.show_nothing(f"{keep.title} is not in {domain} r{self.base} any more.")
        else:
            await form.show_nothing(
                "Pick an item in the tree: moving the cursor shows it, enter moves into its form."
            )
        self._status(f"{domain} at r{self.base}.", "ok")

    def _place_key(self, domain: str) -> tuple[str, str]:
        return (str(self.db), domain)

    def remember_place(self) -> None:
        """Keep where the tree is (open nodes, cursor, scroll) for the next opening."""
        if self.spec is None or not self.is_mounted:
            return
        tree = self.query_one(KnowledgeTree)
        if tree.spec is not None:
            _PLACES[self._place_key(tree.spec.name)] = tree.place()

    _PANE_TITLES: ClassVar[dict[str, str]] = {"kb-side": "Knowledge", "kb-form": "Item"}

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Mark the pane with the keys in its title too ("▸ Item"), for terminals whose
        colours hardly tell the borders apart."""
        focused = event.widget
        for pane_id, title in self._PANE_TITLES.items():
            pane = self.query_one(f"#{pane_id}")
            inside = focused is pane or pane in focused.ancestors
            pane.border_title = f"▸ {title}" if inside else title

    @on(Tree.NodeExpanded, "#kb-tree")
    @on(Tree.NodeCollapsed, "#kb-tree")
    def _tree_moved(self) -> None:
        self.remember_place()

    async def show_ref(self, domain: str, ref: ItemRef) -> None:
        """Open ``ref`` of ``domain`` (loading the domain if another is open): what the
        palette's knowledge search does when the editor is already on screen."""
        if domain != self.domain or self.spec is None:
            await self.load_domain(domain, keep=ref)
            self.query_one("#kb-domain", Select).value = domain  # its Changed is ignored
        elif await self.open_item(ref):
            self.query_one(KnowledgeTree).select_item(ref)
        self.query_one(KnowledgeTree).focus()

    async def open_item(self, ref: ItemRef, values: FormValues | None = None) -> bool:
        """Show ``ref``'s form (with ``values`` instead of the stored texts, if given)."""
        if self.spec is None or self.ctx is None:
            return False
        item = find_item(self.spec, ref)
        form = self.query_one(ItemForm)
        if item is None:
            await form.show_nothing(f"{ref.title} is not in {self.domain} r{self.base}.")
            return False
        await form.show_item(ref, item, self.ctx, self.base, values)
        return True

    # ------------------------------------------------------------------ tree and form events

    @on(Select.Changed, "#kb-domain")
    async def _domain_chosen(self, event: Select.Changed) -> None:
        value = event.value
        if not isinstance(value, str) or value == self.domain:
            return
        picker = self.query_one("#kb-domain", Select)

        def stay() -> None:
            if self.domain is not None:
                picker.value = self.domain  # its Changed is then ignored above

        await self.guard(f"switching to {value}", partial(self.load_domain, value), stay)

    @on(Tree.NodeHighlighted, "#kb-tree")
    async def _node_highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        self.remember_place()
        ref = _ref_of(event.node.data)
        form = self.query_one(ItemForm)
        if ref is None or ref == form.ref:
            return
        if form.dirty and form.ref is not None:
            self._status(
                f"Unsaved edits to {form.ref.title}: ctrl+s saves them; escape, or enter "
                "on another item, asks whether to save or drop them.",
                "warning",
            )
            return
        await self.open_item(ref)

    @on(Tree.NodeSelected, "#kb-tree")
    async def _node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        ref = _ref_of(event.node.data)
        if ref is None:
            event.node.toggle()
            return
        if ref != self.query_one(ItemForm).ref:
            await self.guard(f"opening {ref.title}", partial(self._enter_item, ref))
        else:
            await self._enter_item(ref)

    async def _enter_item(self, ref: ItemRef) -> None:
        """Open ``ref`` (if it is not open) and move into its form."""
        form = self.query_one(ItemForm)
        if ref != form.ref:
            await self.open_item(ref)
            self.query_one(KnowledgeTree).select_item(ref)
        fields = form.query("FieldInput")
        if fields:
            fields.first().focus()

    @on(ItemForm.Edited)
    def _form_edited(self) -> None:
        self.edits_changed()

    @on(ItemForm.StateChanged)
    def _form_state(self, event: ItemForm.StateChanged) -> None:
        self.dirty = event.dirty
        self.has_item = event.ref is not None
        if not event.dirty:
            self.sync_draft()  # saved, reverted or another item: no draft to keep
        if event.ref is None:
            return
        if event.problems:
            self._status(
                f"{event.ref.title}: {event.problems} field(s) with problems "
                "(shown under each field).",
                "warning",
            )
        elif event.dirty:
            self._status(
                f"{event.ref.title}: unsaved edits. ctrl+s saves, escape drops them.", "running"
            )
        else:
            self._status(f"{event.ref.title} as of r{self.base}.", "ok")

    @on(ItemForm.HintChanged)
    def _hint(self, event: ItemForm.HintChanged) -> None:
        hint = self.query_one("#kb-hint", Static)
        if event.name is None:
            hint.update("")
            return
        hint.update(
            Text.assemble(
                (event.signature, "bold"),
                "  ",
                event.doc.strip().splitlines()[0] if event.doc.strip() else "(no description)",
            )
        )
        hint.tooltip = event.doc or None

    # ------------------------------------------------------------------ saving

    async def action_save(self) -> None:
        await self._save()

    async def _save(self) -> bool:
        """Save the open item's edits as one revision; whether the store took them (the
        Save tab says why not)."""
        form = self.query_one(ItemForm)
        ref = form.ref
        if ref is None or self.domain is None:
            self.notify("Open an item first.", severity="warning")
            return False
        if not form.dirty:
            self._status(f"{ref.title} has no unsaved edits.", "ok")
            return True
        focused = self._focused_field()
        try:
            value = build_value(ref, form.item, form.values())
            rev = self.store.edit(self.domain, ref.kind, ref.name, value, base=self.base)
        except FormError as exc:
            self._outcome(f"Not saved: {ref.title} could not be read.", exc.problems, "error")
            return False
        except StaleRevision as exc:
            self._outcome(
                "Not saved: someone else changed the domain.",
                [
                    str(exc),
                    "Press ctrl+r to reload it. Your edits stay in the form; save "
                    "again to apply them on top of the current state.",
                ],
                "error",
            )
            self.notify(
                "The domain changed since you loaded it: ctrl+r reloads, keeping your edits.",
                title="Not saved",
                severity="error",
                timeout=8,
            )
            return False
        except EditRejected as exc:
            self._outcome(
                f"Not saved: the store refused the edit of {ref.title}; nothing was changed.",
                exc.problems,
                "error",
            )
            return False
        except StoreError as exc:
            self._outcome(f"Not saved: {ref.title}.", [str(exc)], "error")
            return False
        await self.load_domain(self.domain, keep=ref)
        self._refocus(focused)
        self._outcome(f"Saved {ref.title} as r{rev.id}.", [], "ok")
        return True

    async def action_revert(self) -> None:
        await self.guard(
            "going back to the stored version",
            self._nothing,
            question="Discard them and go back to the stored version, save them, "
            "or stay and keep editing?",
        )

    async def _nothing(self) -> None:
        """Revert's work is done by the question: Save or Discard leaves nothing unsaved."""

    async def discard_edits(self) -> None:
        form = self.query_one(ItemForm)
        if form.ref is not None and form.dirty:
            focused = self._focused_field()
            await self.open_item(form.ref)
            self._refocus(focused)
            self._status(f"Dropped the edits to {form.ref.title}.", "ok")

    # ------------------------------------------------------------------ unsaved edits

    def has_unsaved_edits(self) -> bool:
        forms = self.query(ItemForm)
        return bool(forms) and forms.first().dirty and forms.first().ref is not None

    def unsaved_title(self) -> str:
        ref = self.query_one(ItemForm).ref
        return f"{ref.title} in {self.domain}" if ref is not None else "the open item"

    async def save_edits(self) -> bool:
        return await self._save()

    def current_draft(self) -> Draft | None:
        form = self.query_one(ItemForm)
        if form.ref is None or self.domain is None:
            return None
        return Draft(
            editor="knowledge",
            domain=self.domain,
            kind=form.ref.kind,
            name=form.ref.name,
            fields=dict(form.values()),
            base=self.base,
        )

    async def restore_draft(self, draft: Draft) -> bool:
        """Open the draft's item with the draft's values in the form (unsaved); whether
        that was possible.  A draft that cannot be put back is left on disk."""
        item = None
        ref = None
        if draft.kind in KINDS:
            ref = ItemRef(draft.kind, draft.name)  # type: ignore[arg-type]
        if ref is not None and self.spec is not None and self.domain == draft.domain:
            item = find_item(self.spec, ref)
        if ref is None or item is None or self.spec is None:
            self.notify(
                f"{draft.title} is not in {draft.domain} any more, so its unsaved edits "
                "cannot be put back. The draft is kept; the next start offers it again.",
                title="Draft not restored",
                severity="error",
                timeout=10,
            )
            return False
        values = _form_values(draft.fields, item_values(ref, item))
        await self.load_domain(draft.domain, keep=ref, values=values)
        self.adopt_draft(draft)
        note = moved_on(draft, self.store)
        self.notify(
            f"The edits to {draft.title} from {draft.when()} are back in the form, not saved "
            "yet: ctrl+s saves them." + (f" {note}" if note else ""),
            title="Restored",
            severity="warning" if note else "information",
            timeout=10,
        )
        fields = self.query_one(ItemForm).query("FieldInput")
        if fields:
            fields.first().focus()
        return True

    async def action_reload(self) -> None:
        if self.domain is None:
            return
        form = self.query_one(ItemForm)
        ref, values = form.ref, (form.values() if form.dirty else None)
        focused = self._focused_field()
        await self.load_domain(self.domain, keep=ref, values=values)
        self._refocus(focused)
        kept = " Your unsaved edits are kept in the form." if values is not None else ""
        self._status(f"Reloaded {self.domain} at r{self.base}.{kept}", "ok")

    async def _undo_redo(self, which: str) -> None:
        form = self.query_one(ItemForm)
        if self.domain is None:
            return
        if form.dirty and form.ref is not None:
            self._status(
                f"Save (ctrl+s) or drop (escape) the edits to {form.ref.title} before {which}.",
                "warning",
            )
            return
        try:
            fn = self.store.undo if which == "undo" else self.store.redo
            rev = fn(self.domain, base=self.base)
        except StaleRevision as exc:
            self._outcome(
                f"Not done: the domain changed since r{self.base}.",
                [str(exc), "Press ctrl+r to reload it."],
                "error",
            )
            return
        except StoreError as exc:  # nothing to undo/redo, or the result does not compile
            problems = exc.problems if isinstance(exc, EditRejected) else [str(exc)]
            title = (
                f"Nothing to {which}."
                if "nothing" in str(exc)
                else f"The {which} was refused; nothing was changed."
            )
            self._outcome(title, problems, "warning")
            return
        await self.load_domain(self.domain, keep=form.ref)
        verb = "Undid" if which == "undo" else "Redid"
        self._outcome(
            f"{verb} r{rev.reverts} ({rev.kind} {rev.target}); the domain is now at r{rev.id}.",
            [],
            "ok",
        )

    async def action_undo(self) -> None:
        await self._undo_redo("undo")

    async def action_redo(self) -> None:
        await self._undo_redo("redo")

    # ------------------------------------------------------------------ create, rename, ...

    def _target(self) -> ItemRef | None:
        """The item under the tree cursor (a call stands for the method it is in)."""
        tree = self.query_one(KnowledgeTree)
        node = tree.cursor_node
        data = node.data if node is not None else None
        if isinstance(data, ItemRef):
            return data
        if isinstance(data, CallRef) and node is not None and node.parent is not None:
            parent = node.parent.data
            return parent if isinstance(parent, ItemRef) else None
        return None

    def _busy_form(self, doing: str) -> bool:
        form = self.query_one(ItemForm)
        if form.dirty and form.ref is not None:
            self._status(
                f"Save (ctrl+s) or drop (escape) the edits to {form.ref.title} before {doing}.",
                "warning",
            )
            return True
        return False

    def _names(self) -> dict[str, list[str]]:
        spec = self.spec
        if spec is None:
            return {}
        return {
            "constant": [c.name for c in spec.constants],
            "task": [t.name for t in spec.tasks],
            "method": [f"{m.task}.{m.name}" for m in spec.methods],
            "operator": [o.name for o in spec.operators],
            "test": [t.name for t in spec.tests],
        }

    async def _store_change(
        self, what: str, change: Callable[[], Revision], keep: ItemRef | None
    ) -> bool:
        """Run one store change; say what became of it.  True if it was made."""
        if self.domain is None:
            return False
        try:
            rev = change()
        except StaleRevision as exc:
            self._outcome(
                f"Not done: the domain changed since r{self.base}.",
                [str(exc), "Press ctrl+r to reload it."],
                "error",
            )
            return False
        except StoreError as exc:
            problems = exc.problems if isinstance(exc, EditRejected) else [str(exc)]
            self._outcome(
                f"Not done: the store refused {what}; nothing was changed.", problems, "error"
            )
            return False
        await self.load_domain(self.domain, keep=keep)
        self._outcome(f"Done: {what} (r{rev.id}).", [], "ok")
        return True

    def action_new_item(self) -> None:
        if self.spec is None or self._busy_form("creating an item"):
            return
        tree = self.query_one(KnowledgeTree)
        node = tree.cursor_node
        data = node.data if node is not None else None
        kind, task = "method", None
        if isinstance(data, GroupRef):
            kind = data.kind
        elif isinstance(data, ItemRef):
            kind = data.kind
            if data.kind == "task":
                kind, task = "method", data.name
            elif data.kind == "method":
                task = data.name.partition(".")[0]
        tasks = [t.name for t in self.spec.tasks]
        self.app.push_screen(
            NewItemScreen(taken_names(self._names()), tasks, kind, task), self._create
        )

    async def _create(self, item: NewItem | None) -> None:
        if item is None or self.domain is None:
            return
        problems = [p["name"] for p in self.store.problems(self.domain)]
        value: dict[str, object] = {"name": item.name}
        key = item.name
        if item.kind == "constant":
            value["value"] = 0
        elif item.kind == "method":
            value |= {"task": item.task, "subtasks": []}
            key = f"{item.task}.{item.name}"
        elif item.kind == "test":
            value |= {"problem": problems[0] if problems else item.name, "expect": {"found": True}}
        ref = ItemRef(item.kind, key)  # type: ignore[arg-type]
        domain, base = self.domain, self.base
        if await self._store_change(
            f"creating {item.kind} {key}",
            lambda: self.store.edit(domain, item.kind, key, value, base=base),
            ref,
        ):
            self.query_one(KnowledgeTree).select_item(ref)
            fields = self.query_one(ItemForm).query("FieldInput")
            if fields:
                fields.first().focus()

    def action_rename_item(self) -> None:
        ref = self._target()
        if ref is None or self._busy_form("renaming"):
            return
        names = self._names()
        if ref.kind == "method":
            task, _, own = ref.name.partition(".")
            taken = taken_names(names)("method", task)
        else:
            own, taken = ref.name, taken_names(names)(ref.kind, None)
        self.app.push_screen(RenameScreen(ref.kind, own, taken - {own}), partial(self._rename, ref))

    async def _rename(self, ref: ItemRef, new: str | None) -> None:
        if new is None or self.domain is None:
            return
        domain, base = self.domain, self.base
        new_ref = ItemRef(
            ref.kind, f"{ref.name.partition('.')[0]}.{new}" if ref.kind == "method" else new
        )
        await self._store_change(
            f"renaming {ref.title} to {new}",
            lambda: self.store.rename(domain, ref.kind, ref.name, new, base=base),
            new_ref,
        )

    def action_delete_item(self) -> None:
        ref = self._target()
        if ref is None or self._busy_form("deleting"):
            return
        self.app.push_screen(
            ConfirmScreen(
                f"Delete {ref.title}?",
                f"Delete {ref.title} from {self.domain}?  The store refuses if "
                "anything still uses it; undo (ctrl+z) brings it back.",
            ),
            partial(self._delete, ref),
        )

    async def _delete(self, ref: ItemRef, yes: bool | None) -> None:
        if not yes or self.domain is None:
            return
        domain, base = self.domain, self.base
        await self._store_change(
            f"deleting {ref.title}",
            lambda: self.store.edit(domain, ref.kind, ref.name, None, base=base),
            None,
        )

    async def action_move_method(self, step: int) -> None:
        ref = self._target()
        if ref is None or ref.kind != "method" or self.spec is None or self.domain is None:
            return
        if self._busy_form("reordering"):
            return
        task, _, name = ref.name.partition(".")
        order = [m.name for m in self.spec.methods if m.task == task]
        i = order.index(name)
        j = i + step
        if not 0 <= j < len(order):
            self._status(
                f"{name} is already the {'first' if j < 0 else 'last'} method of {task}.", "warning"
            )
            return
        order[i], order[j] = order[j], order[i]
        domain, base = self.domain, self.base
        if await self._store_change(
            f"trying {name} {'earlier' if step < 0 else 'later'} for {task}",
            lambda: self.store.reorder_methods(domain, task, order, base=base),
            ref,
        ):
            self.query_one(KnowledgeTree).focus()

    async def action_close(self) -> None:
        await self.guard("leaving the editor", self._leave)

    def _leave(self) -> None:
        if not self.is_current:  # something is over it: nothing to leave
            return
        if len(self.app.screen_stack) > 1:
            self.dismiss()
        else:
            self.notify("This is the only screen; quit with ctrl+q.", severity="information")

    # ------------------------------------------------------------------ lint

    def action_lint(self) -> None:
        if self.spec is None or self.domain is None:
            return
        self._lint_run += 1
        self.query_one(LintList).show_message(f"Linting {self.domain} r{self.base}…")
        self.query_one(TabbedContent).active = "tab-lint"
        self._status(f"Linting {self.domain} r{self.base} (the saved state)…", "running")
        self._lint(self._lint_run, self.domain, self.base, self.spec, self.registry)

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group=LINT_GROUP,
        description="knowledge lint",
    )
    def _lint(
        self, run_id: int, domain: str, revision: int, spec: DomainSpec, registry: Registry | None
    ) -> None:
        """Thread body: lint a spec (no store, no widgets), post the findings."""
        try:
            findings = lint_domain(spec, registry)
        except Exception as exc:
            self.post_message(
                LintFinished(run_id, domain, revision, [], f"{type(exc).__name__}: {exc}")
            )
            return
        self.post_message(LintFinished(run_id, domain, revision, findings))

    @on(LintFinished)
    def _lint_finished(self, message: LintFinished) -> None:
        message.stop()
        if message.run_id != self._lint_run:
            return
        lint = self.query_one(LintList)
        if message.error is not None:
            lint.show_message(f"Lint failed: {message.error}")
            self._status(f"Lint failed: {message.error}", "error")
            return
        lint.show_findings(message.domain, message.revision, message.findings)
        errors = sum(f.severity == "error" for f in message.findings)
        warnings = len(message.findings) - errors
        self._status(
            f"Lint of {message.domain} r{message.revision}: {errors} error(s), "
            f"{warnings} warning(s).",
            "error" if errors else "warning" if warnings else "ok",
        )
        if message.findings:
            lint.focus()

    @on(LintList.FindingSelected)
    async def _finding_selected(self, event: LintList.FindingSelected) -> None:
        finding = event.finding
        ref = ItemRef(finding.kind, finding.name) if finding.kind != "domain" else None
        if ref is None or ref == self.query_one(ItemForm).ref:
            await self.jump_to(finding)
        else:
            await self.guard(f"opening {ref.title}", partial(self.jump_to, finding))

    async def jump_to(self, finding: Finding) -> bool:
        """Open the item a finding is about, put the tree cursor on it, focus its field."""
        tree = self.query_one(KnowledgeTree)
        if finding.kind == "domain":
            tree.move_cursor(tree.root)
            self._status(f"{finding}", "warning")
            return False
        if not await self.go_to(ItemRef(finding.kind, finding.name), finding.field):
            return False
        self._status(str(finding), "warning" if finding.severity == "warning" else "error")
        return True

    async def go_to(self, ref: ItemRef, field: str = "") -> bool:
        """Open ``ref``, put the tree cursor on it and focus its ``field`` (if any); False
        (and a warning) when the domain has no such item."""
        tree = self.query_one(KnowledgeTree)
        form = self.query_one(ItemForm)
        if self.spec is None or find_item(self.spec, ref) is None:
            self.notify(f"{ref.title} is not in {self.domain} r{self.base}.", severity="warning")
            return False
        if ref != form.ref:
            if form.dirty and form.ref is not None:
                self.notify(f"Unsaved edits to {form.ref.title} were dropped.", severity="warning")
            await self.open_item(ref)
        tree.select_item(ref)
        if field:
            form.focus_field(field)
        return True

    # ------------------------------------------------------------------ history

    def action_history(self) -> None:
        self.query_one(TabbedContent).active = "tab-history"
        self.query_one("#kb-revisions", OptionList).focus()

    @on(HistoryPanel.DiffRequested)
    def _diff(self, event: HistoryPanel.DiffRequested) -> None:
        event.stop()
        if self.domain is None:
            return
        try:
            text = self.store.diff(self.domain, event.a, event.b)
        except StoreError as exc:
            text = f"(no diff: {exc})"
        event.panel.show_diff(event.a, event.b, text)

    # ------------------------------------------------------------------ output

    def _focused_field(self) -> str | None:
        """The id of the focused form input, to focus it again after the form is rebuilt."""
        focused = self.focused
        return focused.id if isinstance(focused, FieldInput) else None

    def _refocus(self, dom_id: str | None) -> None:
        if dom_id is not None:
            for widget in self.query_one(ItemForm).query(f"#{dom_id}"):
                widget.focus()

    def _status(self, text: str, kind: str) -> None:
        if (text, kind) != self._last_status:  # each update costs a layout pass
            self._last_status = (text, kind)
            self.query_one(StatusLine).set_status(text, kind)

    def _outcome(self, title: str, lines: list[str], kind: str) -> None:
        """Say what became of a save/undo/redo in the Save tab and the status line."""
        style = {"ok": "bold green", "warning": "bold yellow", "error": "bold red"}[kind]
        text = Text(title, style=style)
        for line in lines:
            text.append("\n • " + line)
        self.query_one("#kb-outcome", Static).update(text)
        self.query_one(TabbedContent).active = "tab-outcome"
        self._status(title + (f" {lines[0]}" if lines else ""), kind)
