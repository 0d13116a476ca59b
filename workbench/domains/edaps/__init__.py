"""The EDAPS package's UI: the design editor, with the run's process plan and critique.

Only the declaration lives here; the design editor (:mod:`.design_editor`, its logic in
:mod:`.design_form` and :mod:`.design_legend`) and its views (:mod:`.process_plan`,
:mod:`.critique`, rows from :mod:`.tables`) are imported when first used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workbench.domains import DomainUI, HelpSection, ProblemEditor, ResultView

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App

    from engine.tofs import RunResult
    from workbench.kb.drafts import Draft

__all__ = ["UI"]


def _show_run(app: App[Any], db: Path | None, name: str, result: RunResult) -> None:
    from workbench.domains.edaps.design_editor import DesignScreen

    app.push_screen(DesignScreen(db, name, result=result))


def _edit_design(app: App[Any], db: Path | None, name: str | None, draft: Draft | None) -> None:
    from workbench.domains.edaps.design_editor import DesignScreen

    app.push_screen(DesignScreen(db, name, draft=draft))


def _help_sections() -> Sequence[HelpSection]:
    from workbench.domains.edaps.design_editor import DesignScreen

    return [("EDAPS design editor", DesignScreen.BINDINGS)]


UI = DomainUI(
    "edaps",
    label="EDAPS",
    result_view=ResultView(
        what="the finished run as a process plan or design critique",
        titles=("process plan", "critique"),
        needs="plan an EDAPS design first (r)",
        open=_show_run,
    ),
    editor=ProblemEditor(
        what="an EDAPS design", noun="design", draft_editor="design", open=_edit_design
    ),
    help_sections=_help_sections,
    palette_titles={"design.save_as": "Save as…"},
    palette_prefixes={"design": "Design"},
    palette_unavailable={"design.save": "Nothing to save: the design is as the store holds it."},
    default_knowledge="edaps",
)
