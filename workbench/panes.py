"""Which pane a key that maximizes "the focused pane" means.

Textual maximizes the focused *widget* (or its nearest maximizable ancestor), which on
the workbench's screens is often not what the user sees as a pane: a checkbox inside the
run options, one field of the knowledge form.  A screen names its panes (the bordered
boxes of its layout) in ``PANES``, a CSS selector; the pane of the focused widget is the
nearest of them around it.  A screen without ``PANES``, or focus outside every pane,
falls back to Textual's own rule.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen
from textual.widget import Widget

__all__ = ["focused_pane", "toggle_maximized"]


def focused_pane(screen: Screen[Any]) -> Widget | None:
    """The pane holding the focused widget (None when nothing has focus)."""
    focused = screen.focused
    if focused is None:
        return None
    selector: str | None = getattr(screen, "PANES", None)
    if selector:
        panes = set(screen.query(selector))
        for node in focused.ancestors_with_self:
            if node in panes and isinstance(node, Widget):
                return node
    for node in focused.ancestors_with_self:
        if node is screen or not isinstance(node, Widget):
            break
        if node.allow_maximize:
            return node
    return focused


def toggle_maximized(screen: Screen[Any]) -> Widget | None:
    """Maximize the focused pane, or restore the layout if a pane is maximized; the pane
    now maximized (None: restored, or nothing has focus)."""
    if screen.maximized is not None:
        screen.minimize()
        return None
    pane = focused_pane(screen)
    if pane is not None:
        # Set directly rather than with ``screen.maximize``: that refuses a container
        # (the run options, the knowledge form), which is exactly a pane here.
        screen.maximized = pane
    return pane
