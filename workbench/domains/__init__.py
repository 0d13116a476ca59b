"""The boundary between the generic workbench and each knowledge package's own UI.

The generic screens (planning, knowledge editor, step-through, why-not, help, palette,
drafts, CLI) know no package by name.  Whatever a package adds -- a view of a problem or of
a finished run, an editor for its problems, screens whose keys F1 lists, palette words,
headless commands -- it declares in one :class:`DomainUI`, in its subpackage's
``__init__`` (``workbench/domains/<name>/__init__.py``, exposed as ``UI``), and the generic
code asks :func:`domain_ui` (one package) or :func:`domain_uis` (all of them).

A package without an entry in :data:`_DOMAINS` (``examples``, a new one) gets
:class:`DomainUI` with every hook empty: it is listed, planned, explained, stepped through
and edited as knowledge like any other, and simply has no extra view or problem editor.

Imports stay lazy: this module imports nothing of Textual, the engine or a package, a
domain's ``__init__`` holds only its declaration (strings and small functions that
import its screens when called), and nothing is imported before it is asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from textual.app import App
    from textual.binding import BindingType
    from textual.screen import Screen

    from engine.tofs import RunResult
    from engine.tofs.results import Blame
    from workbench.kb.drafts import Draft

__all__ = [
    "DomainCommands",
    "DomainUI",
    "HelpSection",
    "ProblemEditor",
    "ProblemView",
    "ResultView",
    "default_knowledge",
    "domain_ui",
    "domain_uis",
    "join_or",
    "problem_editor",
]

_DOMAINS: dict[str, str] = {
    "edaps": "workbench.domains.edaps",
    "bridge": "workbench.domains.bridge",
    "hddl": "workbench.domains.hddl",
}
"""Package name -> the module whose ``UI`` is its :class:`DomainUI`.  The only place the
generic workbench names a package; the order is the order texts list the domains in."""

HelpSection = tuple[str, "Sequence[BindingType]"]
"""A heading of the help screen (F1) and the key bindings listed under it."""


@dataclass(frozen=True)
class ProblemView:
    """A view of a problem *highlighted* in the problem list, before any run (bridge: the
    board at the table).  ``v`` on the planning screen opens it."""

    what: str
    """What it shows, for the ``v`` key's tooltip ("the board at the table, to play out")."""
    titles: tuple[str, ...]
    """What the view is called, for the palette's title of ``v`` ("bridge table")."""
    needs: str
    """What makes it available, as a clause ("highlight a bridge board")."""
    open: Callable[[App[Any], Path | None, str], None]
    """Open it: ``(app, store path, problem name)``; reports its own errors (notify)."""


@dataclass(frozen=True)
class ResultView:
    """A view of the *finished run* on the planning screen (EDAPS: the process plan or the
    design critique).  ``v`` opens it when no :class:`ProblemView` of the highlighted
    problem comes first."""

    what: str
    """What it shows, for the ``v`` key's tooltip."""
    titles: tuple[str, ...]
    """What the view is called, for the palette's title of ``v`` ("process plan", ...)."""
    needs: str
    """What makes it available, as a clause ("plan an EDAPS design first (r)")."""
    open: Callable[[App[Any], Path | None, str, RunResult], None]
    """Open it: ``(app, store path, problem name, the run's result)``."""


@dataclass(frozen=True)
class ProblemEditor:
    """An editor for the package's problems (an EDAPS design, a bridge deal): ``d`` on a
    highlighted problem opens it, and a draft it left behind is restored into it."""

    what: str
    """One of its problems, with the article: "an EDAPS design", "a bridge deal".  Without
    the article it names the editor ("EDAPS design editor") in texts."""
    noun: str
    """The short word for one problem ("design"), as in "Edit the design or deal"."""
    draft_editor: str
    """The ``editor`` its :class:`~workbench.kb.drafts.Draft` records carry ("design")."""
    open: Callable[[App[Any], Path | None, str | None, Draft | None], None]
    """Open it: ``(app, store path, problem name or None for a new one, a draft to
    restore or None)``; reports its own errors (notify)."""

    @property
    def described(self) -> str:
        """:attr:`what` without its article ("EDAPS design")."""
        return self.what.partition(" ")[2]

    @property
    def title(self) -> str:
        """What texts call the editor ("EDAPS design editor")."""
        return f"{self.described} editor"


@dataclass(frozen=True)
class DomainCommands:
    """Headless subcommands a package adds to ``workbench`` (bridge: ``play``, ``match``)."""

    names: tuple[str, ...]
    """The subcommands, so the CLI knows whose they are."""
    add_parsers: Callable[[Any, argparse.ArgumentParser, argparse.ArgumentParser], None]
    """Add them: ``(the subparsers, the --db parent, the --bundled parent)``."""
    run: Callable[[argparse.Namespace], int]
    """Run the parsed command; its exit status."""


def _no_sections() -> Sequence[HelpSection]:
    return ()


@dataclass(frozen=True)
class DomainUI:
    """What one knowledge package adds to the generic workbench.  Every hook is optional:
    ``DomainUI(name)`` is a package with no UI of its own."""

    package: str
    """The knowledge package's name (:func:`knowledge.package_names`)."""
    label: str = ""
    """How texts name the package ("EDAPS", "bridge"); defaults to :attr:`package`."""
    problem_view: ProblemView | None = None
    result_view: ResultView | None = None
    editor: ProblemEditor | None = None
    help_sections: Callable[[], Sequence[HelpSection]] = _no_sections
    """The package's screens and their keys, for the help screen (imports them when called)."""
    palette_titles: Mapping[str, str] = field(default_factory=dict)
    """Palette titles by binding id, where the footer's word is too terse (see
    :data:`workbench.palette.TITLES`)."""
    palette_prefixes: Mapping[str, str] = field(default_factory=dict)
    """Palette title prefixes by the first part of a binding id: which of the package's
    screens a command belongs to (see :data:`workbench.palette.PREFIXES`)."""
    palette_unavailable: Mapping[str, str] = field(default_factory=dict)
    """Why an action cannot run, by binding id (see :data:`workbench.palette.UNAVAILABLE`)."""
    knowledge_editor: Callable[[Path | None, str], Screen[Any]] | None = None
    """The editor for a domain of this package, in place of the generic knowledge editor:
    ``(store path, domain) -> screen`` (HDDL: the domain's text, which is its source)."""
    place_editor: Callable[[Path | None, str, str, Blame], Screen[Any] | str] | None = None
    """The editor of a domain of this package opened at the place a blame points at (a
    line of the planning screen's "Where to look"): ``(store path, domain, problem of the
    run, blame) ->`` the screen, with its cursor there, or a sentence saying why no editor
    opens there (the blame is in a problem, not the domain).  None: the generic knowledge
    editor, at the item of the domain's TOML that the line falls in."""
    repairs: Callable[[Path | None, str, str], Screen[Any]] | None = None
    """A screen that searches, previews and applies repairs of a domain for one of its
    problems: ``(store path, domain, problem) -> screen`` (HDDL: one-place edits that make
    the problem plan, applied as a revision).  ``R`` on the planning screen opens it for a
    run that ended with no plan."""
    default_knowledge: str | None = None
    """A knowledge domain the knowledge editor opens on when nothing says which (the first
    package naming one the store holds wins; otherwise the store's first domain)."""
    commands: DomainCommands | None = None

    @property
    def name(self) -> str:
        """:attr:`label`, or the package name."""
        return self.label or self.package

    def views(self) -> list[ProblemView | ResultView]:
        """Its views, the result view first."""
        return [v for v in (self.result_view, self.problem_view) if v is not None]


@cache
def domain_ui(package: str) -> DomainUI:
    """The UI declaration of ``package``: its own, or one with no hooks.  Imports the
    package's ``workbench.domains.<name>`` module (its declaration only) on first use."""
    module = _DOMAINS.get(package)
    if module is None:
        return DomainUI(package)
    ui = importlib.import_module(module).UI
    assert isinstance(ui, DomainUI) and ui.package == package, module
    return ui


def domain_uis() -> list[DomainUI]:
    """Every package's own UI declaration, in :data:`_DOMAINS` order."""
    return [domain_ui(name) for name in _DOMAINS]


def join_or(words: Sequence[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``: how texts list what each domain offers."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} or {words[-1]}"


def problem_editor(draft_editor: str) -> ProblemEditor | None:
    """The problem editor whose drafts carry ``editor == draft_editor`` (None: no package's)."""
    return next(
        (
            ui.editor
            for ui in domain_uis()
            if ui.editor is not None and ui.editor.draft_editor == draft_editor
        ),
        None,
    )


def default_knowledge(names: Sequence[str]) -> str | None:
    """The knowledge domain, of the store's ``names``, an editor opens on when nothing says
    which: the first a package prefers (:attr:`DomainUI.default_knowledge`), else the first."""
    preferred = (ui.default_knowledge for ui in domain_uis() if ui.default_knowledge)
    return next((d for d in preferred if d in names), names[0] if names else None)
