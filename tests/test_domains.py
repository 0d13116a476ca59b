"""The boundary between the generic workbench and the packages' own UI (workbench.domains).

A package with no UI of its own gets one with no hooks; the generic modules import no
package's UI or knowledge module; and the packages' screens load when first used, not at
start-up.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from knowledge import package_names
from workbench.domains import _DOMAINS, DomainUI, domain_ui, domain_uis, join_or

WORKBENCH = Path(__file__).resolve().parents[1] / "workbench"


@pytest.mark.parametrize("name", ["examples", "no-such-package"])
def test_a_package_without_ui_code_gets_no_hooks(name: str) -> None:
    ui = domain_ui(name)
    assert ui == DomainUI(name)
    assert ui.views() == [] and ui.editor is None and ui.commands is None
    assert list(ui.help_sections()) == []


def test_every_registered_ui_belongs_to_a_package() -> None:
    for ui in domain_uis():
        assert ui.package in package_names()
        sections = list(ui.help_sections())  # imports its screens
        assert all(title and bindings for title, bindings in sections)


def test_join_or() -> None:
    assert [join_or(w) for w in ([], ["a"], ["a", "b"], ["a", "b", "c"])] == [
        "",
        "a",
        "a or b",
        "a, b or c",
    ]


def _imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_generic_modules_import_no_package_ui_or_knowledge() -> None:
    """Only workbench/domains/<name>/ may import workbench.domains.<name> or
    knowledge.<name>; the rest asks workbench.domains.domain_ui."""
    domains = WORKBENCH / "domains"
    offenders = []
    for path in WORKBENCH.rglob("*.py"):
        if path.is_relative_to(domains) and path.parent != domains:
            continue
        for module in _imports(path):
            for name in _DOMAINS:
                if module.startswith((f"workbench.domains.{name}", f"knowledge.{name}")):
                    offenders.append(f"{path.relative_to(WORKBENCH)}: {module}")
    assert offenders == []


def test_the_first_screen_imports_no_package_screen() -> None:
    code = (
        "import sys\n"
        "import workbench.app, workbench.cli\n"
        "workbench.cli.build_parser()\n"
        "print(' '.join(m for m in sys.modules if m.startswith('workbench.domains.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    # Only the declarations (workbench.domains.<name>) and the headless commands, whose
    # parsers every command line builds.
    assert [m for m in out if m.count(".") > 2 and not m.endswith(".commands")] == []
