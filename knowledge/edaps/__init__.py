"""EDAPS: process planning for microwave modules (Smith 1997, Chapters 6-7).

``workbench plan edaps DESIGN`` reads a design in the planner input language (a name from
``designs/`` or a path), plans it with the knowledge in ``edaps.toml`` and prints the plan
in the shop floor's format -- or, for an unmanufacturable design, every feature that
cannot be made and why.
"""

from __future__ import annotations

from pathlib import Path

from knowledge import KnowledgePackage

from .critique import findings
from .phrasing import phrasing
from .report import design_facts, plan_request, problem_from_name, problem_from_text
from .shop import registry

HERE = Path(__file__).parent
DESIGNS = HERE / "designs"


def package() -> KnowledgePackage:
    names = sorted(p.stem for p in DESIGNS.glob("*.txt"))
    pkg = KnowledgePackage(
        name="edaps",
        description="Process plans for microwave modules: EDAPS (Smith 1997, Ch. 6-7).",
        sources={"edaps": HERE / "edaps.toml"},
        registries={"edaps": registry},
        problems={n: problem_from_name(n) for n in names},
        problem_domain=dict.fromkeys(names, "edaps"),
        problem_descriptions={n: f"design file designs/{n}.txt" for n in names},
        problem_files={n: DESIGNS / f"{n}.txt" for n in names},
        problem_kind="edaps-design",
        problem_loader=problem_from_text,
        planner=plan_request,
        facts=design_facts,
        phrasing=phrasing,
        findings=findings,
    )
    return pkg
