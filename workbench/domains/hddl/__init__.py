"""HDDL in the workbench: its domains are edited as HDDL text.

Planning, stepping through and explaining an HDDL problem need nothing of their own: the
generic screens do it.  What HDDL adds is the editor of a domain, because an HDDL domain's
source is its text (``workbench.domains.hddl.editor``), and so the place a failure blames
(a line of that text) opens in it with the cursor on the line; and repairs of a domain
whose problem has no plan (``workbench.domains.hddl.repair_view``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.domains import DomainUI, HelpSection

if TYPE_CHECKING:
    from textual.screen import Screen

    from engine.tofs.results import Blame


def _editor(db: Path | None, domain: str) -> Screen[Any]:
    from workbench.domains.hddl.editor import HddlEditorScreen

    return HddlEditorScreen(db, domain)


def _place(db: Path | None, domain: str, problem: str, blame: Blame) -> Screen[Any] | str:
    """The HDDL editor of ``domain`` at the blamed line, when the blame is in its text (a
    stored domain's blame names :func:`~knowledge.hddl.stored.stored_path` as its file);
    otherwise why not, in one sentence."""
    from knowledge.hddl.stored import stored_path

    if blame.line is None:
        return "The knowledge does not say on which line this was written."
    if blame.file in ("", stored_path(domain)):
        from workbench.domains.hddl.editor import HddlEditorScreen

        return HddlEditorScreen(db, domain, blame.line, problem)
    inside = stored_path(f"{domain}/")
    suffix = stored_path("")
    if blame.file.startswith(inside[: -len(suffix)]) and blame.file.endswith(suffix):
        problem = blame.file[len(domain) + 1 : -len(suffix)]
        return (
            f"This is line {blame.line} of the problem '{problem}', not of the domain: the "
            "workbench edits HDDL problems by importing their files again "
            "(workbench kb import PROBLEM.hddl)."
        )
    return (
        f"This was written in {blame.file}, line {blame.line}, not in the stored domain '{domain}'."
    )


def _repairs(db: Path | None, domain: str, problem: str) -> Screen[Any]:
    from workbench.domains.hddl.repair_view import RepairScreen

    return RepairScreen(db, domain, problem)


def _help_sections() -> Sequence[HelpSection]:
    from workbench.domains.hddl.editor import HddlEditorScreen
    from workbench.domains.hddl.repair_view import RepairScreen

    return [
        ("HDDL editor", HddlEditorScreen.BINDINGS),
        ("HDDL repairs", RepairScreen.BINDINGS),
    ]


UI = DomainUI(
    "hddl",
    label="HDDL",
    knowledge_editor=_editor,
    place_editor=_place,
    repairs=_repairs,
    help_sections=_help_sections,
    palette_titles={
        "hddl.repair": "Repair the domain: one-place edits that make the problem plan",
        "repair.apply": "Apply the highlighted repair as the next revision",
        "repair.close": "Back from the repairs",
    },
    palette_unavailable={
        "repair.apply": "No repair to apply (yet): the search is still on, or found none."
    },
)
