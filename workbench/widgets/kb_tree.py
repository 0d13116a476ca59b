"""The task network of one domain as a tree: tasks, their methods in priority order, and
each method's subtask or operator calls; plus constants, operators and knowledge tests.

A call to a task can be opened to show that task's methods, and so on down the network.
Those nodes are built when opened (a recursive domain has no bottom), while the fixed
part -- every item once, under its group -- is built at once so that any item can be
found and put under the cursor (a lint finding, a reload) without the user opening it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from engine.tofs.expressions import ExpressionError, parse_call
from engine.tofs.model import DomainSpec, MethodDef
from workbench.widgets.kb_fields import ItemRef

__all__ = ["CallRef", "GroupRef", "KnowledgeTree", "NodeData", "TreePlace"]

_MAX_PRE = 48  # characters of a precondition shown beside a method


@dataclass(frozen=True)
class GroupRef:
    """A heading node (Tasks, Constants, ...): ``kind`` is what it lists."""

    kind: str


@dataclass(frozen=True)
class CallRef:
    """A call inside a method; ``target`` is the task or operator it calls (if it exists)."""

    source: str
    target: ItemRef | None


NodeData = ItemRef | GroupRef | CallRef | None


@dataclass(frozen=True)
class TreePlace:
    """Where a user was in a domain's tree: the nodes open, the one under the cursor and
    how far it was scrolled, so that opening the editor again finds it as it was left."""

    opened: frozenset[ItemRef | GroupRef]
    cursor: ItemRef | GroupRef | None
    scroll_y: float


def _callee(spec: DomainSpec, source: str) -> ItemRef | None:
    try:
        name, _ = parse_call(source)
    except ExpressionError:
        return None
    if spec.task(name) is not None:
        return ItemRef("task", name)
    if spec.operator(name) is not None:
        return ItemRef("operator", name)
    return None


def _method_label(index: int, m: MethodDef) -> Text:
    label = Text.assemble((f"{index}. ", "dim"), (m.name, "bold"))
    if m.precondition.strip() != "True":
        pre = (
            m.precondition
            if len(m.precondition) <= _MAX_PRE
            else m.precondition[: _MAX_PRE - 1] + "…"
        )
        label.append(f"  if {pre}", style="dim italic")
    return label


class KnowledgeTree(Tree[NodeData]):
    """One domain's knowledge; ``show_domain`` fills it, ``select_item`` finds an item.

    → opens the node under the cursor (or moves into it when it is open), ← closes it (or
    moves to its parent), as in a file browser: the tree is narrow, and scrolling it
    sideways, what the arrows did before, hid the names they were meant to reach."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right", "open_node", show=False),
        Binding("left", "close_node", show=False),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(Text("knowledge"), id=id, classes=classes)
        self.auto_expand = False  # enter opens the item's form; space opens the node
        self.spec: DomainSpec | None = None
        self._by_ref: dict[ItemRef | GroupRef, TreeNode[NodeData]] = {}

    # ------------------------------------------------------------------ building

    def show_domain(self, spec: DomainSpec, revision: int) -> None:
        """Rebuild for ``spec``, keeping open the groups, tasks and methods that were open."""
        was_open = {key for key, node in self._by_ref.items() if node.is_expanded}
        first = self.spec is None or self.spec.name != spec.name
        self.spec = spec
        self._by_ref = {}
        self.clear()
        self.root.set_label(Text.assemble((spec.name, "bold"), (f"  r{revision}", "dim")))
        self.root.data = None
        self._add_tasks(spec)
        for kind, title, items in (
            ("constant", "Constants", spec.constants),
            ("operator", "Operators", spec.operators),
            ("test", "Knowledge tests", spec.tests),
        ):
            group = self._group(kind, f"{title} ({len(items)})")
            for item in items:
                ref = ItemRef(kind, item.name)  # type: ignore[arg-type]
                self._leaf(group, ref, self._item_label(kind, item))
        self.root.expand()
        if first:
            self._by_ref[GroupRef("task")].expand()
        for key in was_open:
            node = self._by_ref.get(key)
            if node is not None:
                node.expand()

    def _group(self, kind: str, title: str) -> TreeNode[NodeData]:
        node = self.root.add(Text(title, style="bold"), data=GroupRef(kind))
        self._by_ref[GroupRef(kind)] = node
        return node

    def _leaf(self, parent: TreeNode[NodeData], ref: ItemRef, label: Text) -> None:
        self._by_ref[ref] = parent.add_leaf(label, data=ref)

    def _add_tasks(self, spec: DomainSpec) -> None:
        roots = set(spec.roots)
        group = self._group("task", f"Tasks ({len(spec.tasks)})")
        for t in spec.tasks:
            label = Text(f"{t.name}({', '.join(t.params)})")
            if t.name in roots:
                label.append("  root", style="dim italic")
            ref = ItemRef("task", t.name)
            node = group.add(label, data=ref)
            self._by_ref[ref] = node
            self._add_methods(node, spec, t.name, canonical=True)

    def _add_methods(
        self, node: TreeNode[NodeData], spec: DomainSpec, task: str, *, canonical: bool
    ) -> None:
        methods = spec.methods_of(task)
        if not methods:
            node.add_leaf(Text("no methods", style="dim italic"), data=None)
        for i, m in enumerate(methods, 1):
            ref = ItemRef("method", f"{m.task}.{m.name}")
            mnode = node.add(_method_label(i, m), data=ref)
            if canonical:
                self._by_ref[ref] = mnode
            calls = m.subtasks if m.subtasks is not None else [m.operator or ""]
            for source in calls:
                target = _callee(spec, source)
                style = "red" if target is None else ("cyan" if target.kind == "operator" else "")
                mark = "⚙ " if target is not None and target.kind == "operator" else "→ "
                label = Text.assemble((mark, "dim"), (source, style))
                if target is not None and target.kind == "task":
                    mnode.add(label, data=CallRef(source, target), allow_expand=True)
                else:
                    mnode.add_leaf(label, data=CallRef(source, target))

    @staticmethod
    def _item_label(kind: str, item: object) -> Text:
        name = getattr(item, "name", "?")
        if kind == "constant":
            unit = getattr(item, "unit", "")
            return Text.assemble(
                name, (f" = {getattr(item, 'value', '')!r}{' ' + unit if unit else ''}", "dim")
            )
        if kind == "operator":
            group = getattr(item, "group", "")
            return Text.assemble(
                f"{name}({', '.join(getattr(item, 'params', []))})",
                (f"  {group}" if group else "", "dim"),
            )
        return Text(str(name))

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        # A call to a task opens onto that task's methods, built the first time.
        node = event.node
        data = node.data
        if (
            isinstance(data, CallRef)
            and data.target is not None
            and data.target.kind == "task"
            and not node.children
            and self.spec is not None
        ):
            self._add_methods(node, self.spec, data.target.name, canonical=False)

    # ------------------------------------------------------------------ arrows

    def action_open_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.is_expanded and node.children:
            self.move_cursor(node.children[0])

    def action_close_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded and node is not self.root:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)

    # ------------------------------------------------------------------ place

    def place(self) -> TreePlace:
        """The nodes open, the cursor and the scroll now."""
        opened = frozenset(key for key, node in self._by_ref.items() if node.is_expanded)
        data = self.current
        cursor = data if isinstance(data, (ItemRef, GroupRef)) else None
        return TreePlace(opened, cursor, self.scroll_y)

    def restore(self, place: TreePlace) -> None:
        """Open what was open and put the cursor back where it was (a node no longer
        there is skipped); call after :meth:`show_domain`."""
        for key in place.opened:
            node = self._by_ref.get(key)
            if node is not None:
                node.expand()
        target = self._by_ref.get(place.cursor) if place.cursor is not None else None

        def back() -> None:
            if target is not None:
                self.move_cursor(target)
            self.scroll_to(y=place.scroll_y, animate=False)

        self.call_after_refresh(back)

    # ------------------------------------------------------------------ finding

    def node_for(self, ref: ItemRef) -> TreeNode[NodeData] | None:
        return self._by_ref.get(ref)

    def node_for_group(self, kind: str) -> TreeNode[NodeData] | None:
        """The heading node that lists items of ``kind`` ("constant", ...)."""
        return self._by_ref.get(GroupRef(kind))

    def select_item(self, ref: ItemRef) -> bool:
        """Open the way to ``ref`` and put the cursor on it; False if it is not listed."""
        node = self._by_ref.get(ref)
        if node is None:
            return False
        parent = node.parent
        while parent is not None:
            parent.expand()
            parent = parent.parent
        # After a refresh, when the node's line is known even if it was just expanded.
        self.call_after_refresh(self._move_to, node)
        return True

    def _move_to(self, node: TreeNode[NodeData]) -> None:
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)

    @property
    def current(self) -> NodeData:
        node = self.cursor_node
        return None if node is None else node.data
