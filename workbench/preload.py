"""Get the screens behind F1, F2 and the other keys ready while the user reads the first one.

The first screen starts fast because every other screen is imported when first used
(``benchmarks/startup.py``).  The price was paid on the first F1 and F2: importing the
editors, viewers and their widgets, Textual parsing their stylesheets (and parsing the
whole stylesheet again for the editor's own file), and a full garbage collection that the
imports' hundred thousand new objects brought due right then.  So, once the first screen is
up and the planning process spawned, the app imports those modules in a thread
(:func:`import_screens`), collects garbage once and freezes what survives (start-up
objects -- modules, classes, functions -- live as long as the app; frozen, later
collections do not walk them), then, back on the event loop, hands the stylesheet the
editor's file and the default CSS of the widgets F1 and F2 mount (:func:`warm_styles`).
Nothing is composed or mounted ahead of time: a screen still shows the store as it is when
it opens.  ``benchmarks/ui_latency.py`` measures the first F1 and F2.

Registering a widget class's default CSS before any instance exists does what Textual
does when the first instance mounts (``Widget._post_register``): the same sources, the
same tie-breakers and scopes, so the styles a widget ends up with are the same.  Only the
classes F1 and F2 need are registered, not every class imported: each rule in the
stylesheet costs a little on every restyle of every widget.
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from textual.app import App
from textual.dom import DOMNode

__all__ = ["MODULES", "freeze_survivors", "import_screens", "warm_styles", "widgets_to_warm"]

MODULES: tuple[str, ...] = (
    "rich.markdown",
    "textual.widgets._tabbed_content",
    "textual.widgets._data_table",
    "textual.widgets._text_area",
    "workbench.screens.help",
    "workbench.screens.editor",
    "workbench.screens.stepper",
    "workbench.screens.whynot",
)
"""What F1 and F2 import on first use; the packages' own screens come from their help
sections (:func:`import_screens`)."""


def import_screens() -> None:
    """Import :data:`MODULES` and every package UI's screens (thread-safe: imports take
    Python's import locks).  A module that fails to import is left for its screen to
    report when it is opened."""
    for name in MODULES:
        try:
            importlib.import_module(name)
        except Exception:
            continue
    try:
        from workbench.domains import domain_uis

        for ui in domain_uis():
            ui.help_sections()  # imports the package's screens, for their key bindings
    except Exception:
        return


def freeze_survivors() -> None:
    """Collect garbage now and freeze what survives (see the module docstring)."""
    gc.collect()
    gc.freeze()


def widgets_to_warm() -> list[type[DOMNode]]:
    """The classes whose default CSS the first F1 and F2 would add to the stylesheet (the
    knowledge editor's tabs, the help's modal screen): measured, not derived; one left out
    costs only the time it did before."""
    from textual.containers import Container
    from textual.screen import ModalScreen
    from textual.widgets import ContentSwitcher, TabbedContent, TabPane, Tabs
    from textual.widgets._tabbed_content import ContentTab
    from textual.widgets._tabs import Tab, Underline

    return [
        ModalScreen,
        TabbedContent,
        TabPane,
        Tabs,
        Tab,
        ContentTab,
        Underline,
        ContentSwitcher,
        Container,
    ]


def _default_css(cls: type[DOMNode]) -> Iterator[tuple[tuple[str, str], str, int, str]]:
    """(location, css, tie-breaker, scope) of ``cls`` and its bases, as Textual's
    ``DOMNode._get_default_css`` gives them for an instance of ``cls``."""
    import inspect

    for tie_breaker, base in enumerate(cls._css_bases(cls)):
        css: str = base.__dict__.get("DEFAULT_CSS", "")
        if not css:
            continue
        try:
            location = (inspect.getfile(base), f"{base.__name__}.DEFAULT_CSS")
        except (TypeError, OSError):
            location = ("", f"{base.__name__}.DEFAULT_CSS")
        scoped: bool = base.__dict__.get("SCOPED_CSS", True)
        yield location, css, -tie_breaker, base._css_type_name if scoped else ""


def warm_styles(
    app: App[Any], classes: Iterable[type[DOMNode]], stylesheets: Iterable[Path] = ()
) -> int:
    """Give ``app``'s stylesheet the default CSS of ``classes`` and the files
    ``stylesheets`` (a screen's ``CSS_PATH``), and parse it now; the number of sources
    added.  Runs on the event loop (the stylesheet is not thread-safe)."""
    sheet = app.stylesheet
    added = 0
    for cls in classes:
        for location, css, tie_breaker, scope in _default_css(cls):
            if sheet.has_source(*location):
                continue
            sheet.add_source(
                css, read_from=location, is_default_css=True, tie_breaker=tie_breaker, scope=scope
            )
            added += 1
    for path in stylesheets:
        if not sheet.has_source(str(path), ""):
            sheet.read(path)
            added += 1
    if added:
        sheet.parse()  # parses only the new sources (the rest are in its cache)
    return added
