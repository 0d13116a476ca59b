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
from typing import Any, Protocol, runtime_checkable

from textual.actions import parse
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget

__all__ = [
    "TITLES",
    "UNAVAILABLE",
    "ExtraCommands",
    "PaletteCommand",
    "binding_commands",
    "screen_commands",
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
    "plan.domain_view": "Domain view: process plan, critique or bridge table",
    "plan.edit_problem": "Edit the design or deal",
    "plan.export": "Export the plan to Markdown",
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
    "bridge.defence": "Switch the defence",
    "bridge.close": "Back to the plan",
    "design.save_as": "Save as…",
    "deal.save_as": "Save as…",
    "deal.fill": "Fill the fourth hand",
}
"""Palette titles by binding id, where the binding's description (the footer's word) is
too terse to stand alone in a list of commands."""

PREFIXES: dict[str, str] = {
    "editor": "Editor",
    "stepper": "Step-through",
    "whynot": "Why not",
    "design": "Design",
    "bridge": "Bridge",
    "table": "Bridge",
    "play_log": "Bridge",
    "deal": "Deal",
}
"""Title prefix by the first part of a binding id: which screen a command belongs to.  The
planning screen's and the app's commands have none (they are the ones most looked for)."""

_PLAN_FIRST = "Plan a problem first (r)."

UNAVAILABLE: dict[str, str] = {
    "plan.cancel": "Nothing is running: r plans the highlighted problem.",
    "plan.expand_all": _PLAN_FIRST,
    "plan.filter": _PLAN_FIRST,
    "plan.step_through": _PLAN_FIRST,
    "plan.why_not": _PLAN_FIRST,
    "plan.export": _PLAN_FIRST,
    "plan.domain_view": "Plan an EDAPS design first (r), or highlight a bridge board.",
    "plan.edit_problem": "Highlight an EDAPS design or a bridge deal in the problem list.",
    "editor.save": "Open an item first: enter on an item in the tree.",
    "editor.revert": "The open item has no unsaved edits.",
    "editor.rename": "Highlight an item in the tree first.",
    "editor.delete": "Highlight an item in the tree first.",
    "editor.method_up": "Highlight a method in the tree first.",
    "editor.method_down": "Highlight a method in the tree first.",
    "design.save": "Nothing to save: the design is as the store holds it.",
    "deal.save": "The deal is not valid yet: fix the problems listed first.",
    "deal.save_as": "The deal is not valid yet: fix the problems listed first.",
    "deal.fill": "Filling needs three complete hands and one empty one.",
}
"""Why an action cannot run, by binding id, for when its screen's ``check_action`` says so."""

NOT_NOW = "Not available right now."


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
        prefix = PREFIXES.get(ident.partition(".")[0], "")
        title = _titled(prefix, TITLES.get(ident, binding.description))
        text = binding.tooltip or binding.description
        _, name, parameters = parse(binding.action)
        if node.check_action(name, parameters):
            yield PaletteCommand(title, text, _runner(node, binding.action), action=binding.action)
        else:
            why = UNAVAILABLE.get(ident, NOT_NOW)
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
