"""The replayed search tree: a Textual ``Tree`` that grows and shrinks with the trace.

The model is :class:`workbench.replay.Replay`; this widget only mirrors a *small* part of
it, so stepping costs the same on a 50-event trace and a 10^6-event one:

* a line's children exist as Textual nodes only while the line is open ("built"); a
  closed line with children shows the ▶ icon and is filled in when opened;
* stepping applies one event's delta (at most one line added or removed, two relabelled)
  to the lines that exist -- nothing is rebuilt;
* the tree follows the search: the lines from the top to the current node are opened,
  and lines the search has left are closed again and their children dropped, so the
  widget holds about depth x branching nodes however long the run;
* deep searches (some plans run 70+ levels deep) show a window: when the current node is
  more than ``MAX_SHOWN_DEPTH`` levels below the top line, the tree is re-rooted at the
  ancestor ``KEEP_ABOVE`` levels up (the border says how deep that is).  A Textual tree
  line costs time proportional to its depth to draw, so this keeps every key press fast;
* a jump of more than ``RESYNC_AFTER`` events (home, end, next choice) rebuilds just that
  visible part from the model instead of replaying every event in between.

Labels are styled at render time from component classes, like the plan tree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from workbench.replay import Part, Replay

__all__ = ["LineData", "SearchTree"]

_TONES = ("plain", "chosen", "rejected", "leaf")
_ROLES = ("mark", "value", "reason", "muted", "task")


@dataclass(slots=True)
class LineData:
    """What a tree node shows: the replay line it stands for and its label at the time."""

    line: int
    parts: tuple[Part, ...]
    tone: str

    @property
    def plain(self) -> str:
        return "".join(text for text, _ in self.parts)


class SearchTree(Tree[LineData]):
    """The search tree at the replay's current position; ``go(k)`` moves it."""

    COMPONENT_CLASSES: ClassVar[set[str]] = (
        {f"search-tree--{t}" for t in _TONES}
        | {f"search-tree--{r}" for r in _ROLES}
        | {"search-tree--current"}
    )
    DEFAULT_CSS = """
    SearchTree {
        & > .search-tree--chosen { color: $text-success; }
        & > .search-tree--rejected { text-style: dim; }
        & > .search-tree--leaf { }
        & > .search-tree--plain { }
        & > .search-tree--mark { text-style: bold; }
        & > .search-tree--value { color: $text-primary; }
        & > .search-tree--reason { color: $text-error; text-style: italic; }
        & > .search-tree--muted { text-style: dim; }
        & > .search-tree--task { color: $text-secondary; }
        & > .search-tree--current { text-style: bold underline; }
    }
    """

    RESYNC_AFTER = 256
    """Jumps longer than this many events rebuild the visible part instead of stepping."""
    MAX_SHOWN_DEPTH = 20
    """Levels shown below the top line before the tree is re-rooted further down."""
    KEEP_ABOVE = 10
    """Levels kept above the current node when the tree is re-rooted."""

    def __init__(
        self, replay: Replay, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(Text("search"), id=id, classes=classes)
        self.show_root = False
        self.guide_depth = 3
        self.replay = replay
        self.position = 0
        self.current: int | None = None
        self.anchor_line: int | None = None
        """The line shown at the top (None: the whole tree from the search's root)."""
        self._tnodes: dict[int, TreeNode[LineData]] = {}
        self._built: set[int] = set()
        self._path: list[int] = []

    # ------------------------------------------------------------------ public
    @property
    def materialized(self) -> int:
        """Textual nodes held now (the point of the lazy design: stays small)."""
        return len(self._tnodes)

    def node_of(self, line: int) -> TreeNode[LineData] | None:
        return self._tnodes.get(line)

    def top_lines(self, k: int | None = None) -> list[int]:
        """The lines shown at the top level at position k (the anchor, or the roots)."""
        k = self.position if k is None else k
        if self.anchor_line is None:
            return self.replay.roots_at(k)
        return [self.anchor_line] if self.replay.visible(self.anchor_line, k) else []

    def labels(self) -> list[str]:
        """The labels of the nodes that exist, depth first (tests)."""
        out: list[str] = []
        stack = list(reversed(self.root.children))
        while stack:
            node = stack.pop()
            if node.data is not None:
                out.append(node.data.plain)
            stack.extend(reversed(node.children))
        return out

    def load(self, replay: Replay) -> None:
        """Show another replay (e.g. one indexed in a worker), from position 0."""
        self.replay = replay
        self.position = 0
        self.current = None
        self.anchor_line = None
        self.border_subtitle = ""
        self._resync(0)

    def go(self, k: int) -> None:
        """Show the tree as it stood after ``k`` events, and follow the current node."""
        k = self.replay.clamp(k)
        start = self.position
        if abs(k - start) > self.RESYNC_AFTER:
            self._resync(k)
        elif k > start:
            for i in range(start, k):
                self._apply(i, forward=True)
        elif k < start:
            for i in range(start - 1, k - 1, -1):
                self._apply(i, forward=False)
        self.position = k
        self._follow()

    # ------------------------------------------------------------------ deltas
    def _data(self, line: int, k: int) -> LineData:
        return LineData(line, self.replay.parts(line, k), self.replay.tone(line, k))

    def _add(self, parent: TreeNode[LineData], line: int, k: int) -> TreeNode[LineData]:
        data = self._data(line, k)
        node = parent.add(Text(data.plain), data, allow_expand=self.replay.has_children(line, k))
        self._tnodes[line] = node
        return node

    def _apply(self, i: int, forward: bool) -> None:
        """Apply event i forward (position i -> i + 1) or undo it (i + 1 -> i)."""
        r = self.replay
        k = i + 1 if forward else i
        for line in r.created[i]:
            parent = r.items[line].parent
            if parent is None:
                pnode = self.root if self.anchor_line is None else None
                built = pnode is not None
            else:
                pnode = self._tnodes.get(parent)
                built = parent in self._built
            if forward:
                if built:
                    assert pnode is not None
                    self._add(pnode, line, k)
                if pnode is not None and parent is not None and not pnode.allow_expand:
                    pnode.allow_expand = True
            else:
                self._drop(line)
                if pnode is not None and parent is not None and not r.has_children(parent, k):
                    pnode.allow_expand = False
        for line in r.touched[i]:
            node = self._tnodes.get(line)
            if node is not None:
                self._relabel(node, line, k)

    def _relabel(self, node: TreeNode[LineData], line: int, k: int) -> None:
        data = self._data(line, k)
        node.data = data
        node.set_label(Text(data.plain))

    def _drop(self, line: int) -> None:
        """Remove a line's Textual node (and any built children) from the widget."""
        node = self._tnodes.get(line)
        if node is None:
            return
        self._forget_below(node)
        del self._tnodes[line]
        self._built.discard(line)
        node.remove()

    def _forget_below(self, node: TreeNode[LineData]) -> None:
        stack = list(node.children)
        while stack:
            child = stack.pop()
            if child.data is not None:
                self._tnodes.pop(child.data.line, None)
                self._built.discard(child.data.line)
            stack.extend(child.children)

    def _fill(self, line: int) -> None:
        """Create the Textual nodes of a line's children visible now (once)."""
        node = self._tnodes.get(line)
        if node is None or line in self._built:
            return
        self._built.add(line)
        for child in self.replay.children_at(line, self.position):
            self._add(node, child, self.position)

    def _close(self, line: int) -> None:
        """Collapse a line the search has left and drop its children's nodes."""
        node = self._tnodes.get(line)
        if node is None:
            return
        if line in self._built:
            self._forget_below(node)
            node.remove_children()
            self._built.discard(line)
        if node.is_expanded:
            node.collapse()

    # ------------------------------------------------------------------ following
    def _resync(self, k: int) -> None:
        """Rebuild the top lines at position k (everything below is built on demand)."""
        self.clear()
        self.root.expand()
        self._tnodes.clear()
        self._built.clear()
        self._path = []
        self.position = k
        for line in self.top_lines(k):
            self._add(self.root, line, k)

    def _anchor_for(self, path: list[int]) -> int | None:
        """The top line for a current node with this path (hysteresis: keep the anchor
        while the node stays 1 .. MAX_SHOWN_DEPTH levels below it)."""
        depth = len(path) - 1
        if self.anchor_line is not None and self.anchor_line in path:
            below = depth - self.replay.items[self.anchor_line].depth
            if 0 < below <= self.MAX_SHOWN_DEPTH:
                return self.anchor_line
        elif self.anchor_line is None and depth <= self.MAX_SHOWN_DEPTH:
            return None
        top = depth - self.KEEP_ABOVE
        return path[top] if top > 0 else None

    def _follow(self) -> None:
        r, k = self.replay, self.position
        previous = self.current
        cur = r.current_line(k)
        path = r.path(cur) if cur is not None else []
        anchor = self._anchor_for(path) if path else None
        if anchor != self.anchor_line:
            self.anchor_line = anchor
            self._resync(k)
            depth = r.items[anchor].depth if anchor is not None else 0
            self.border_subtitle = f"from depth {depth}" if anchor is not None else ""
        if self.anchor_line is not None:
            path = path[r.items[self.anchor_line].depth :]
        keep = set(path)
        for line in reversed(self._path):
            if line not in keep:
                self._close(line)
        for line in path:
            node = self._tnodes.get(line)
            if node is None:  # cannot happen when parents are built top-down; be safe
                self._resync(k)
                self._follow()
                return
            self._fill(line)
            if node.allow_expand and not node.is_expanded:
                node.expand()
        self._path = path
        self.current = cur
        for shown in (previous, cur):
            node = self._tnodes.get(shown) if shown is not None else None
            if node is not None:
                node.refresh()
        if cur is not None:
            self._show(self._tnodes[cur], len(path) - 1)

    def _show(self, node: TreeNode[LineData], depth: int) -> None:
        """Put the cursor on the current node and scroll so its label is in view."""
        _ = self._tree_lines  # lay the lines out now so the node's line number is valid
        self.move_cursor(node)
        x = depth * self.guide_depth
        width = max(1, self.size.width)
        if x < self.scroll_x or x > self.scroll_x + width * 2 // 3:
            self.scroll_to(x=max(0, x - width // 3), animate=False)

    # ------------------------------------------------------------------ events, rendering
    @on(Tree.NodeExpanded)
    def _opened(self, event: Tree.NodeExpanded[LineData]) -> None:
        data = event.node.data
        # Programmatic expansions build first; a late message for a line closed since
        # then must not refill it.
        if (
            data is not None
            and event.node.is_expanded
            and self._tnodes.get(data.line) is event.node
        ):
            self._fill(data.line)

    def render_label(self, node: TreeNode[LineData], base_style: Style, style: Style) -> Text:
        data = node.data
        if data is None or not self.is_mounted:
            return super().render_label(node, base_style, style)
        label = Text.assemble(
            *(
                (text, self.get_component_rich_style(f"search-tree--{role}", partial=True))
                if role
                else text
                for text, role in data.parts
            )
        )
        label.stylize_before(
            self.get_component_rich_style(f"search-tree--{data.tone}", partial=True)
        )
        if data.line == self.current:
            label.stylize(self.get_component_rich_style("search-tree--current", partial=True))
        label.stylize(style)
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon, base_style + Style(bold=True)), label)
        return label
