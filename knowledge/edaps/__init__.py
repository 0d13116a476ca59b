"""EDAPS: process planning for microwave modules (Smith 1997, Chapters 6-7).

``workbench plan edaps DESIGN`` reads a design in the planner input language (a name from
``designs/`` or a path), plans it with the knowledge in ``edaps.toml`` and prints the plan
in the shop floor's format -- or, for an unmanufacturable design, every feature that
cannot be made and why.
"""

from __future__ import annotations

from pathlib import Path

from knowledge import KnowledgePackage

from .report import EdapsPackage

HERE = Path(__file__).parent
DESIGNS = HERE / "designs"

__all__ = ["DESIGNS", "EdapsPackage", "package"]


def package() -> KnowledgePackage:
    return EdapsPackage()
