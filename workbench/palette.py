"""Command-palette entries made from key bindings: every key's action is also a command.

Keys are quick but have to be known, and on a small terminal the footer cannot show them
all; the palette (ctrl+p) is where a user looks for "what can I do here".  So the palette
lists every action of the current screen, and it is *derived* from the bindings -- the
same declarations the footer and F1 read -- so adding a key adds its command and the two
can never disagree.  Only what the bindings cannot say lives here: a longer title where
the footer's word is too terse for a list of commands, the prefix that says which screen
a command belongs to, and why an action cannot run yet.

An action its screen refuses right now (``check_action`` is not true: nothing planned
yet, no item open, ...) is still listed, not hidden: its help says why, and choosing it
says so in a notification instead of silently doing nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache, partial
from typing import Any, Protocol, runtime_checkable

from textual.actions import parse
from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import Hit, Hits, Provider
from textual.screen import Screen
from textual.widget import Widget

__all__ = [
    "TITLES",
    "UNAVAILABLE",
    "ExtraCommands",
    "KnowledgeEntry",
    "KnowledgeItems",
    "PaletteCommand",
    "binding_commands",
    "knowledge_entries",
    "screen_commands",
    "unavailable",
]

Node = Widget | App[Any]
"""Where an action runs: a screen, a widget on it, or the app (its global keys)."""

TITLES: dict[str, str] = {
    "app.editor": "Knowledge editor",
    "app.maximize": "Maximize or restore the focused pane",
    "plan.problems": "Go to the problem list",
    "plan.cancel": "Cancel the run",
    "plan.test": "Test the knowledge",
    "plan.filter": "Filter the plan tree",
    "plan.audit": "Explanation: the reader's view or the full audit",
    "plan.export": "Export the plan to Markdown",
    "plan.where_to_look": "Where to look: the blame and suspects of a run with no plan",
    "plan.repair": "Repair: one-place edits of the domain that make the problem plan",
    "plan.svg": "Export the screen as an SVG picture",
    "editor.new": "New item",
    "editor.rename": "Rename the item",
    "editor.delete": "Delete the item",
    "editor.close": "Close the editor",
    "stepper.next": "Step forward",
    "stepper.back": "Step back",
    "stepper.previous_choice": "Previous choice",
    "stepper.start": "Go to the start",
    "stepper.end": "Go to the end",
    "whynot.close": "Back to the plan",
}
"""Palette titles by binding id, where the binding's description (the footer's word) is
too terse to stand alone in a list of commands.  A package's own screens add theirs
(:attr:`workbench.domains.DomainUI.palette_titles`; see :func:`_domain_texts`)."""

PREFIXES: dict[str, str] = {
    "editor": "Editor",
    "stepper": "Step-through",
    "whynot": "Why not",
}
"""Title prefix by the first part of a binding id: which screen a command belongs to.  The
planning screen's and the app's commands have none (they are the ones most looked for).
A package's own screens add theirs (:attr:`workbench.domains.DomainUI.palette_prefixes`)."""

_PLAN_FIRST = "Plan a problem first (r)."

UNAVAILABLE: dict[str, str] = {
    "plan.cancel": "Nothing is running: r plans the highlighted problem.",
    "plan.expand_all": _PLAN_FIRST,
    "plan.filter": _PLAN_FIRST,
    "plan.audit": _PLAN_FIRST,
    "plan.step_through": _PLAN_FIRST,
    "plan.why_not": _PLAN_FIRST,
    "plan.export": _PLAN_FIRST,
    "plan.where_to_look": "Only a run that ended with no plan has places to look at.",
    "plan.repair": "Only a run that ended with no plan, of a package that repairs its "
    "domains (HDDL), has repairs to search.",
    "editor.save": "Open an item first: enter on an item in the tree.",
    "editor.revert": "The open item has no unsaved edits.",
    "editor.rename": "Highlight an item in the tree first.",
    "editor.delete": "Highlight an item in the tree first.",
    "editor.method_up": "Highlight a method in the tree first.",
    "editor.method_down": "Highlight a method in the tree first.",
}
"""Why an action cannot run, by binding id, for when its screen's ``check_action`` says so.
A package's own screens add theirs (:attr:`workbench.domains.DomainUI.palette_unavailable`)."""

NOT_NOW = "Not available right now."


@cache
def _domain_texts() -> tuple[dict[str, str], dict[str, str], dict[str, str]]:
    """(titles, prefixes, unavailable) the packages add: their screens' own, and the
    planning screen's ``v`` and ``d``, which say what each package's views and problem
    editors are.  Read when the palette is first used, not at start-up."""
    from workbench.domains import domain_uis, join_or

    uis = domain_uis()
    titles: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    unavailable: dict[str, str] = {}
    for ui in uis:
        titles.update(ui.palette_titles)
        prefixes.update(ui.palette_prefixes)
        unavailable.update(ui.palette_unavailable)
    views = [v for ui in uis for v in ui.views()]
    editors = [ui.editor for ui in uis if ui.editor is not None]
    if views:
        titles["plan.domain_view"] = f"Domain view: {join_or([t for v in views for t in v.titles])}"
        needs = ", or ".join(v.needs for v in views)
        unavailable["plan.domain_view"] = f"{needs[:1].upper()}{needs[1:]}."
    else:
        unavailable["plan.domain_view"] = "No package here has a view of its own."
    if editors:
        titles["plan.edit_problem"] = f"Edit the {join_or([e.noun for e in editors])}"
        what = join_or([e.what for e in editors])
        unavailable["plan.edit_problem"] = f"Highlight {what} in the problem list."
    else:
        unavailable["plan.edit_problem"] = "No package here has a problem editor."
    return titles, prefixes, unavailable


def _title(ident: str, description: str) -> str:
    return TITLES.get(ident) or _domain_texts()[0].get(ident, description)


def _prefix(ident: str) -> str:
    first = ident.partition(".")[0]
    return PREFIXES.get(first) or _domain_texts()[1].get(first, "")


def unavailable(ident: str) -> str:
    """Why the action of binding ``ident`` cannot run now (in words for a notification)."""
    return UNAVAILABLE.get(ident) or _domain_texts()[2].get(ident, NOT_NOW)


@dataclass(frozen=True)
class PaletteCommand:
    """One palette entry: what it is called, what it does, and what choosing it runs."""

    title: str
    help: str
    callback: Callable[[], object]
    available: bool = True
    action: str = ""
    """The binding's action (``"step(1)"``); empty for a command with no key."""


@runtime_checkable
class ExtraCommands(Protocol):
    """A screen with actions that have no key of their own (the design editor's tabs:
    printable keys belong to its text editor); they are listed after its keys."""

    def extra_commands(self) -> list[tuple[str, str, Callable[[], object]]]: ...


def _titled(prefix: str, title: str) -> str:
    """``Prefix: title``, the title's first letter lowered unless it starts an acronym."""
    if not prefix:
        return title
    if len(title) > 1 and not title[:2].isupper():
        title = title[0].lower() + title[1:]
    return f"{prefix}: {title}"


def binding_commands(node: Node, bindings: Iterable[BindingType]) -> Iterator[PaletteCommand]:
    """A command for each described action in ``bindings`` of ``node`` (its keys merged:
    ``escape,c`` is one command), run on ``node`` as the key would run it."""
    seen: set[str] = set()
    for binding in Binding.make_bindings(bindings):
        if not binding.description or binding.action in seen:
            continue  # an undescribed binding is internal (e.g. ctrl+c's quit hint)
        seen.add(binding.action)
        ident = binding.id or ""
        title = _titled(_prefix(ident), _title(ident, binding.description))
        text = binding.tooltip or binding.description
        _, name, parameters = parse(binding.action)
        if node.check_action(name, parameters):
            yield PaletteCommand(title, text, _runner(node, binding.action), action=binding.action)
        else:
            why = unavailable(ident)
            yield PaletteCommand(
                title,
                f"{text}. Not available now: {why}",
                _refuser(node, title, why),
                available=False,
                action=binding.action,
            )


def _runner(node: Node, action: str) -> Callable[[], object]:
    """Run the action as its key would.  A plain action runs at once (so a caller sees its
    effect, and its workers, as soon as the callback returns); an async one returns its
    coroutine, which the palette awaits."""
    _, name, parameters = parse(action)
    method = getattr(node, f"action_{name}", None)

    def run() -> object:
        if callable(method):
            return method(*parameters)
        return node.run_action(action)

    return run


def _refuser(node: Node, title: str, why: str) -> Callable[[], object]:
    def refuse() -> None:
        node.notify(why, title=title, severity="warning")

    return refuse


def _own_bindings(widget: Widget) -> list[BindingType]:
    """Bindings a workbench widget declares itself (not those inherited from Textual's
    widgets, whose cursor keys are not commands)."""
    if not type(widget).__module__.startswith("workbench."):
        return []
    return list(vars(type(widget)).get("BINDINGS", []))


def screen_commands(screen: Screen[Any]) -> list[PaletteCommand]:
    """Every action of ``screen``: its bindings, the bindings of the workbench widgets on it
    (a play log's order key works only while it has focus; the palette reaches it
    anywhere), then any commands without a key.  A widget's command with the same words
    as one of the screen's (the deal editor's "Declarer's view") is left out."""
    commands = list(binding_commands(screen, type(screen).BINDINGS))
    words = {c.title.partition(": ")[2].lower() or c.title.lower() for c in commands}
    for widget in screen.query("*"):
        for command in binding_commands(widget, _own_bindings(widget)):
            said = command.title.partition(": ")[2].lower() or command.title.lower()
            if said not in words:
                words.add(said)
                commands.append(command)
    if isinstance(screen, ExtraCommands):
        commands += [PaletteCommand(t, h, c) for t, h, c in screen.extra_commands()]
    return commands


# ------------------------------------------------------------------ knowledge items


@dataclass(frozen=True)
class KnowledgeEntry:
    """One item of one stored domain, as the palette finds it: by its name or its label
    (what the reader's view calls it; a constant's or an operator's description)."""

    domain: str
    package: str
    kind: str
    name: str
    label: str

    @property
    def text(self) -> str:
        """What the palette matches and shows: "spray_minutes · Spraying photoresist."."""
        return f"{self.name} · {self.label}" if self.label else self.name

    @property
    def help(self) -> str:
        return f"{self.kind} in {self.domain}: open it in the knowledge editor"


_KINDS = (
    ("constant", "constants"),
    ("task", "tasks"),
    ("method", "methods"),
    ("operator", "operators"),
    ("test", "tests"),
)


def knowledge_entries(db: Any) -> list[KnowledgeEntry]:
    """Every item of every domain in the store ``db``, in the store's order.  Opens its own
    connection (it runs in a thread while the palette is open)."""
    from workbench.kb.catalog import open_store

    out: list[KnowledgeEntry] = []
    store = open_store(db)
    try:
        for info in store.domains():
            spec = store.load(info.name)
            for kind, attr in _KINDS:
                for item in getattr(spec, attr):
                    name = f"{item.task}.{item.name}" if kind == "method" else item.name
                    label = getattr(item, "label", "") or getattr(item, "description", "")
                    label = " ".join(str(label).split())
                    out.append(KnowledgeEntry(info.name, info.package, kind, name, label))
    finally:
        store.close()
    return out


@runtime_checkable
class OpensKnowledge(Protocol):
    """The app: opens a knowledge item in its editor."""

    db: Any

    def open_knowledge_item(self, entry: KnowledgeEntry) -> object: ...


class KnowledgeItems(Provider):
    """The palette's search over every knowledge item by name and label ("spray" finds
    ``spray_minutes``); choosing one opens it in the editor.  The items are read once each
    time the palette opens, in a thread, from the store the app is on."""

    _entries: list[KnowledgeEntry]

    async def startup(self) -> None:
        import asyncio

        app = self.app
        self._entries = []
        if isinstance(app, OpensKnowledge):
            try:
                self._entries = await asyncio.to_thread(knowledge_entries, app.db)
            except Exception:  # a store it cannot read: the other commands still work
                self._entries = []

    async def search(self, query: str) -> Hits:
        app = self.app
        if not isinstance(app, OpensKnowledge) or len(query.strip()) < 2:
            return
        matcher = self.matcher(query)
        for entry in getattr(self, "_entries", []):
            text = entry.text
            score = matcher.match(text)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(text),
                    partial(app.open_knowledge_item, entry),
                    text=text,
                    help=entry.help,
                )
