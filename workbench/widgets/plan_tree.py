"""The plan tree: a run's plan and choice points, or a game's policy, as a Textual Tree.

A thin shell over :mod:`workbench.widgets.plan_items`: each tree node carries one item,
children are added the first time a node is opened (so a large decision tree costs only
what the user looks at), and labels are styled at render time from component classes,
so themes and ``app.tcss`` decide the colours of chosen, planned and rejected lines.
"""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from engine.tofs import Reason
from workbench.widgets.plan_items import (
    AlternativeItem,
    PlanItem,
    PolicyItem,
    RunView,
    Tone,
    root_item,
)

__all__ = ["PlanTree"]

_ROLES = ("mark", "value", "prob", "reason", "muted")


class PlanTree(Tree[PlanItem]):
    """Tree of one run's result; ``show_result`` replaces what it shows."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"plan-tree--{tone}" for tone in Tone} | {
        f"plan-tree--{role}" for role in _ROLES
    }

    # Opening the chosen path stops after this many nodes; "expand all" after EXPAND_LIMIT.
    AUTO_OPEN_LIMIT = 400
    EXPAND_LIMIT = 5000

    FILTERS = ("reader", "all", "chosen", "rejected")
    FILTER_TITLES: ClassVar[dict[str, str]] = {
        "reader": "reader's view",
        "all": "all considered",
        "chosen": "chosen path only",
        "rejected": "rejected alternatives only",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(Text("No run yet: pick a problem and press r"), id=id, classes=classes)
        self.root.allow_expand = False
        self._built: set[int] = set()
        self.view: RunView | None = None
        self.filter = "reader"
        """Which alternatives to list, and how: the reader's view (the knowledge's labels,
        alternatives that never applied folded into one counted node), all of them as the
        audit names them, the chosen path only, or rejected ones only."""

    def set_filter(self, mode: str) -> None:
        """Show only some alternatives; the tree is rebuilt (lazily) from the same run."""
        if mode not in self.FILTERS:
            raise ValueError(f"unknown filter '{mode}'")
        self.filter = mode
        if self.view is not None:
            self.show_result(self.view)

    def keeps(self, item: PlanItem) -> bool:
        """Whether ``item`` is listed under the current filter (containers always are)."""
        if self.filter in ("all", "reader"):
            return True
        if isinstance(item, AlternativeItem):
            weighted = item.alternative.reason is Reason.WEIGHTED
            if self.filter == "chosen":
                return item.alternative.chosen or weighted
            return not item.alternative.chosen and not weighted
        if (
            isinstance(item, PolicyItem)
            and item.parent is not None
            and item.parent.kind == "decision"
            and self.filter == "chosen"
        ):
            return item.planned
        return True

    def show_result(self, view: RunView) -> None:
        """Replace the tree with this run, open along the chosen path, cursor on the root."""
        self.view = view
        view.reader = self.filter == "reader"
        item = root_item(view)
        self._built.clear()
        self.reset(Text(item.plain), item)
        self.root.allow_expand = item.expandable
        budget = self.AUTO_OPEN_LIMIT
        stack: list[TreeNode[PlanItem]] = [self.root]
        while stack and budget > 0:
            node = stack.pop()
            budget -= self._ensure_children(node)
            node.expand()
            stack.extend(reversed([c for c in node.children if c.data and c.data.auto_open]))
        self.call_after_refresh(self.move_cursor, self.root)

    def show_message(self, text: str) -> None:
        """Show a one-line message instead of a result (e.g. after a failed run)."""
        self.view = None
        self._built.clear()
        self.reset(Text(text))
        self.root.allow_expand = False

    def expand_everything(self) -> bool:
        """Open every node, building children as needed; False if the limit stopped it."""
        budget = self.EXPAND_LIMIT
        stack: list[TreeNode[PlanItem]] = [self.root]
        while stack:
            if budget <= 0:
                return False
            node = stack.pop()
            budget -= self._ensure_children(node)
            if node.allow_expand:
                node.expand()
            stack.extend(node.children)
        return True

    def _ensure_children(self, node: TreeNode[PlanItem]) -> int:
        """Add the node's children once; return how many were added."""
        if node.id in self._built or node.data is None:
            return 0
        self._built.add(node.id)
        children = [c for c in node.data.children() if self.keeps(c)]
        for child in children:
            node.add(Text(child.plain), data=child, allow_expand=child.expandable)
        return len(children)

    @on(Tree.NodeHighlighted)
    def _follow_cursor(self, event: Tree.NodeHighlighted[PlanItem]) -> None:
        """Scroll sideways so the highlighted label is in view.

        Textual's tree follows the cursor only up and down, so on a narrow pane a line
        deep in a game tree (a card-play policy goes 27 levels down) would sit right of the
        visible part: its label unread, with nothing to say it is there."""
        node = event.node
        depth = 0
        parent = node.parent
        while parent is not None:
            depth += 1
            parent = parent.parent
        x = depth * self.guide_depth if self.show_root else max(0, depth - 1) * self.guide_depth
        width = self.scrollable_content_region.width
        wanted = min(self.get_label_width(node), max(1, width * 2 // 3))
        if x < self.scroll_x or x + wanted > self.scroll_x + width:
            self.scroll_to(x=max(0, x - min(2 * self.guide_depth, width // 4)), animate=False)

    @on(Tree.NodeExpanded)
    def _build_on_expand(self, event: Tree.NodeExpanded[PlanItem]) -> None:
        self._ensure_children(event.node)

    def render_label(self, node: TreeNode[PlanItem], base_style: Style, style: Style) -> Text:
        item = node.data
        if item is None or not self.is_mounted:
            return super().render_label(node, base_style, style)
        label = Text.assemble(
            *(
                (text, self.get_component_rich_style(f"plan-tree--{role}", partial=True))
                if role
                else text
                for text, role in item.parts()
            )
        )
        label.stylize_before(self.get_component_rich_style(f"plan-tree--{item.tone}", partial=True))
        label.stylize(style)
        if node.allow_expand:
            icon = self.ICON_NODE_EXPANDED if node.is_expanded else self.ICON_NODE
            return Text.assemble((icon, base_style + Style(bold=True)), label)
        return label
