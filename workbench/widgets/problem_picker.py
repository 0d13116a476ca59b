"""The problem picker: every knowledge package and its named problems.

Packages are loaded when the picker mounts; a package that fails to load is listed with
its error rather than hidden, because the knowledge engineer needs to see that it broke.
Problems come from the package and from the knowledge store, so a design saved under a
new name in the design editor is listed beside the shipped ones (:meth:`reload`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

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
    # Problems of domains the package does not ship, imported into the store (HDDL):
    # (domain, problem, description), by domain then name; listed as "domain/problem".
    imported: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class ProblemEntry:
    request: ProblemRef
    description: str


class ProblemPicker(Tree[PackageEntry | ProblemEntry]):
    """Packages as branches, problems as leaves; ``current`` is the problem to run."""

    def __init__(
        self, db: Path | None = None, *, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(Text("knowledge"), id=id, classes=classes)
        self.show_root = False
        self.db = db
        self.current: ProblemEntry | None = None

    def on_mount(self) -> None:
        self._fill()

    def reload(self) -> None:
        """List the problems again (the store may hold new ones), keeping the selection."""
        current = self.current
        self.clear()
        self.current = None
        self._fill(select=current.request if current is not None else None)

    def _fill(self, select: ProblemRef | None = None) -> None:
        first = None
        stored = _stored_problems(self.db)
        for name in package_names():
            entry = _load(name, stored)
            if not (entry.problems or entry.imported) and entry.error is None:
                continue  # nothing to plan yet (hddl before any domain is imported)
            label = Text(name) if entry.error is None else Text(f"✗ {name}", style="red")
            branch = self.root.add(label, data=entry, expand=True)
            leaves = [
                (ProblemEntry(ProblemRef(name, problem), description), problem)
                for problem, description in entry.problems
            ] + [
                (
                    ProblemEntry(ProblemRef(name, problem, domain), description),
                    f"{domain}/{problem}",
                )
                for domain, problem, description in entry.imported
            ]
            for data, text in leaves:
                leaf = branch.add_leaf(Text(text), data=data)
                first = first or leaf
            if entry.error is not None:
                self.notify(entry.error, title=f"Package {name} failed to load", severity="error")
        self.root.expand()
        if select is not None and self.select(select):
            return
        if first is not None:
            self.call_after_refresh(self._initial_cursor, first)

    def _initial_cursor(self, first: TreeNode[PackageEntry | ProblemEntry]) -> None:
        # Start on the first problem unless something already moved the cursor.
        if self.cursor_node is None:
            self.move_cursor(first)

    def entries(self) -> list[ProblemEntry]:
        """Every problem listed, in display order."""
        return [
            leaf.data
            for branch in self.root.children
            for leaf in branch.children
            if isinstance(leaf.data, ProblemEntry)
        ]

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

    def on_tree_node_highlighted(
        self, event: Tree.NodeHighlighted[PackageEntry | ProblemEntry]
    ) -> None:
        # Remember the last problem under the cursor, so "run" still knows what to plan
        # when the cursor moves onto a package line.
        if isinstance(event.node.data, ProblemEntry):
            self.current = event.node.data


def _stored_problems(db: Path | None) -> dict[str, tuple[str, dict[str, str]]]:
    """{domain: (package, {problem: description})} from the store; empty if it cannot be
    read (the package's own problems are still listed, and running one reports the
    store's error)."""
    from workbench.kb.catalog import open_store

    try:
        store = open_store(db)
    except Exception:
        return {}
    try:
        return {
            d.name: (
                d.package,
                {p["name"]: p["description"] or "" for p in store.problems(d.name)},
            )
            for d in store.domains()
        }
    finally:
        store.close()


def _load(name: str, stored: dict[str, tuple[str, dict[str, str]]]) -> PackageEntry:
    try:
        pkg = get_package(name)
    except Exception as exc:
        return PackageEntry(name, "", (), f"{type(exc).__name__}: {exc}")
    problems = {p: pkg.problem_descriptions.get(p, "") for p in pkg.problems}
    if pkg.reads_stored_problems:  # only packages that read problem text can run these
        for domain in pkg.sources:
            for problem, description in stored.get(domain, ("", {}))[1].items():
                problems.setdefault(problem, description)
    imported = tuple(
        (domain, problem, description)
        for domain, (owner, found) in sorted(stored.items())
        if owner == name and domain not in pkg.sources and pkg.reads_stored_problems
        for problem, description in sorted(found.items())
    )
    return PackageEntry(name, pkg.description, tuple(sorted(problems.items())), None, imported)
