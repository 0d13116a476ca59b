"""The problem picker: every knowledge package and its named problems.

Packages are loaded when the picker mounts; a package that fails to load is listed with
its error rather than hidden, because the knowledge engineer needs to see that it broke.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from knowledge import get_package, package_names
from workbench.runner import ProblemRef

__all__ = ["PackageEntry", "ProblemEntry", "ProblemPicker"]


@dataclass(frozen=True)
class PackageEntry:
    name: str
    description: str
    problems: tuple[tuple[str, str], ...]  # (problem, description), sorted by name
    error: str | None = None


@dataclass(frozen=True)
class ProblemEntry:
    request: ProblemRef
    description: str


class ProblemPicker(Tree[PackageEntry | ProblemEntry]):
    """Packages as branches, problems as leaves; ``current`` is the problem to run."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(Text("knowledge"), id=id, classes=classes)
        self.show_root = False
        self.current: ProblemEntry | None = None

    def on_mount(self) -> None:
        first = None
        for name in package_names():
            entry = _load(name)
            label = Text(name) if entry.error is None else Text(f"✗ {name}", style="red")
            branch = self.root.add(label, data=entry, expand=True)
            for problem, description in entry.problems:
                data = ProblemEntry(ProblemRef(name, problem), description)
                leaf = branch.add_leaf(Text(problem), data=data)
                first = first or leaf
            if entry.error is not None:
                self.notify(entry.error, title=f"Package {name} failed to load",
                            severity="error")
        self.root.expand()
        if first is not None:
            self.call_after_refresh(self._initial_cursor, first)

    def _initial_cursor(self, first: TreeNode[PackageEntry | ProblemEntry]) -> None:
        # Start on the first problem unless something already moved the cursor.
        if self.cursor_node is None:
            self.move_cursor(first)

    def entries(self) -> list[ProblemEntry]:
        """Every problem listed, in display order."""
        return [leaf.data for branch in self.root.children for leaf in branch.children
                if isinstance(leaf.data, ProblemEntry)]

    def select(self, request: ProblemRef) -> bool:
        """Put the cursor on this problem; False if it is not listed."""
        for branch in self.root.children:
            for leaf in branch.children:
                if isinstance(leaf.data, ProblemEntry) and leaf.data.request == request:
                    self.current = leaf.data
                    # After a refresh, when the node's line is known even if it was just added.
                    self.call_after_refresh(self.move_cursor, leaf)
                    return True
        return False

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[PackageEntry | ProblemEntry]
                                 ) -> None:
        # Remember the last problem under the cursor, so "run" still knows what to plan
        # when the cursor moves onto a package line.
        if isinstance(event.node.data, ProblemEntry):
            self.current = event.node.data


def _load(name: str) -> PackageEntry:
    try:
        pkg = get_package(name)
    except Exception as exc:  # noqa: BLE001 - any broken package is shown, not fatal
        return PackageEntry(name, "", (), f"{type(exc).__name__}: {exc}")
    problems = tuple((p, pkg.problem_descriptions.get(p, "")) for p in sorted(pkg.problems))
    return PackageEntry(name, pkg.description, problems)
