"""The engine's modules import one way: no circle, and each imports on its own.

A circle between modules works only while something imports them in the right order (or
an import hides inside a function), and it forces ``Any`` where a type would need the
other module: the explanation modules had two (``explanation`` <-> ``reader`` and
``render`` -> ``contrast`` -> ``explain`` -> ``render``).  These tests keep them out: one
reads every engine module's imports -- at the top, inside functions and under
``TYPE_CHECKING`` alike -- and asserts the graph has no cycle; the other imports each
module first, in a fresh interpreter, where a circle shows as an ImportError.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "engine"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


ENGINE_MODULES = sorted(module_name(p) for p in ENGINE.rglob("*.py"))


def imported(path: Path, modules: set[str]) -> set[str]:
    """The modules of ``modules`` that ``path`` imports anywhere in its text: a relative
    import resolved against the module's package, ``from pkg import name`` counted as the
    submodule when ``name`` is one and as ``pkg`` otherwise."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = node.module or ""
            if node.level:
                target = f"{base}.{target}" if target else base
            for alias in node.names:
                # ``from package import module`` needs the module (the package's own
                # __init__ runs first whatever is imported, so it is no edge of its own).
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in modules else target)
    return {m for m in found if m in modules and m != own}


def engine_graph() -> nx.DiGraph[str]:
    modules = set(ENGINE_MODULES)
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(modules)
    for path in ENGINE.rglob("*.py"):
        source = module_name(path)
        graph.add_edges_from((source, target) for target in imported(path, modules))
    return graph


def test_the_graph_reader_sees_the_imports_it_must() -> None:
    """The reader of imports is itself checked, or a broken one would find no cycle:
    relative imports, imports inside functions and ``from package import module``."""
    graph = engine_graph()
    assert graph.has_edge("engine.tofs.render", "engine.tofs.contrast")
    assert graph.has_edge("engine.tofs.contrast", "engine.tofs.why_not")
    assert graph.has_edge("engine.tofs.why_not", "engine.tofs.search")
    assert graph.has_edge("engine.tofs.reader", "engine.tofs.explanation")
    assert graph.has_edge("engine.explain", "engine.tofs.render")
    assert graph.has_edge("engine.tofs", "engine.tofs.search")  # the package's __init__
    # A circle written the way the old ones were is found.
    graph.add_edge("engine.tofs.explanation", "engine.tofs.reader")
    assert not nx.is_directed_acyclic_graph(graph)


def test_the_engine_import_graph_has_no_cycle() -> None:
    graph = engine_graph()
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, "import circles: " + "; ".join(" -> ".join([*c, c[0]]) for c in cycles)


def test_the_engine_imports_nothing_above_it() -> None:
    """engine/ stays pure planning: no knowledge, workbench, Textual or SQLite."""
    banned = ("knowledge", "workbench", "textual", "rich", "sqlite3")
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names = [node.module]
            for name in names:
                assert name.split(".")[0] not in banned, f"{module_name(path)} imports {name}"


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_each_engine_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """Imported before anything else, each module loads what it needs on its own."""
    run = subprocess.run(
        [sys.executable, "-c", f"import {module}"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr[-2000:]
