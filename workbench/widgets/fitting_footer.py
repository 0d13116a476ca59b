"""A footer that never shows a key cut in half.

Textual's footer puts every key in one row that scrolls sideways, so on a narrow terminal
the row ends mid-word ("Edit proble") and the keys after it -- help among them -- are out
of sight with nothing saying so.  This footer goes compact below ``COMPACT_BELOW``
columns and, if the keys still do not fit, leaves out whole keys: it keeps help, the
palette and the keys in ``KEEP`` first, then the other keys in the order they are
declared (their order is their priority), each if it still fits.  Every key left out is still
listed by F1 and reachable from the palette (ctrl+p).

Textual's footer rebuilds all its keys whenever the screen's bindings may have changed --
every focus move, every reactive declared with ``bindings=True`` -- and opening the
knowledge editor sent eleven such signals, each remounting and restyling seventeen keys:
about 40 % of the time F2 took.  This one rebuilds at most once per refresh, and only when
the keys it would show differ from those it shows.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # not exported; Textual is pinned (8.2.8)

__all__ = ["FittingFooter"]


class FittingFooter(Footer):
    """Compact on a narrow terminal; keys that do not fit are left out whole."""

    COMPACT_BELOW = 110
    """Below this many columns the keys go compact (one space less each)."""

    KEEP: ClassVar[frozenset[str]] = frozenset(
        {"help", "toggle_maximize", "focus_problems", "run", "close"}
    )
    """Actions shown before any other: the ways to everything else (help, the palette is
    always shown), the new keys, and each screen's main action."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending = False
        self._shown: tuple[object, ...] | None = None

    def keys_wanted(self) -> tuple[object, ...]:
        """What :meth:`compose` would show now: each shown binding, enabled or not."""
        return tuple(
            (binding.key, binding.action, binding.description, enabled, tooltip)
            for _, binding, enabled, tooltip in self.screen.active_bindings.values()
            if binding.show
        )

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus or self._pending:
            return
        if self.is_attached and screen is self.screen:
            self._pending = True
            self.call_after_refresh(self._recompose_if_changed)

    async def _recompose_if_changed(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        wanted = self.keys_wanted()
        if wanted != self._shown:
            self._shown = wanted
            await self.recompose()

    def on_resize(self, event: events.Resize) -> None:
        self.compact = event.size.width < self.COMPACT_BELOW
        self.call_after_refresh(self.fit)

    async def recompose(self) -> None:
        # The bindings changed (focus moved, a run finished): new keys, fitted anew.
        await super().recompose()
        self.call_after_refresh(self.fit)

    @staticmethod
    def key_width(key: FooterKey) -> int:
        """Cells the key takes in the row, its margins included (it may be hidden)."""
        rendered = key.render()
        width = rendered.cell_len if isinstance(rendered, Text) else len(str(rendered))
        margin = key.styles.margin
        return width + margin.left + margin.right

    def fit(self) -> None:
        """Show the keys that fit whole, most needed first; hide the rest."""
        if not self.is_attached:
            return
        keys = list(self.query(FooterKey))
        room = self.size.width
        listed: list[FooterKey] = []
        for key in keys:
            if key.has_class("-command-palette"):
                room -= key.outer_size.width or self.key_width(key) + 2
            else:
                listed.append(key)
        ordered = [k for k in listed if k.action in self.KEEP]
        ordered += [k for k in listed if k.action not in self.KEEP]
        shown: set[FooterKey] = set()
        for key in ordered:
            width = self.key_width(key)
            if width > room:
                continue  # a smaller one further on may still fit
            shown.add(key)
            room -= width
        for key in listed:
            key.display = key in shown

    @property
    def hidden_keys(self) -> list[str]:
        """The keys left out for want of room (for tests and the curious)."""
        return [k.key for k in self.query(FooterKey) if not k.display]
