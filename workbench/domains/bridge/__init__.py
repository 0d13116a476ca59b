"""The bridge package's UI: the board at the table, the deal editor, ``play`` and ``match``.

Only the declaration lives here; the screens (:mod:`.view`, :mod:`.deal_editor`), their
widgets (:mod:`.table`, :mod:`.hand_diagram`, :mod:`.play_log`) and the headless commands
(:mod:`.commands`) are imported when first used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from workbench.domains import (
    DomainCommands,
    DomainUI,
    HelpSection,
    ProblemEditor,
    ProblemView,
)

if TYPE_CHECKING:
    import argparse
    from pathlib import Path

    from textual.app import App

    from workbench.kb.drafts import Draft

__all__ = ["UI"]


def _open_board(app: App[Any], db: Path | None, name: str) -> None:
    from workbench.domains.bridge.view import open_board

    open_board(app, db, name)


def _edit_board(app: App[Any], db: Path | None, name: str | None, draft: Draft | None) -> None:
    from workbench.domains.bridge.deal_editor import edit_board

    edit_board(app, db, name, draft)


def _help_sections() -> Sequence[HelpSection]:
    from workbench.domains.bridge.deal_editor import DealEditorScreen
    from workbench.domains.bridge.view import BridgeScreen

    return [
        ("Bridge table", BridgeScreen.BINDINGS),
        ("Bridge deal editor", DealEditorScreen.BINDINGS),
    ]


def _add_parsers(
    sub: Any, common: argparse.ArgumentParser, bundled: argparse.ArgumentParser
) -> None:
    from workbench.domains.bridge.commands import add_parsers

    add_parsers(sub, common, bundled)


def _run(args: argparse.Namespace) -> int:
    from workbench.domains.bridge.commands import run_match_command, run_play_command

    return run_play_command(args) if args.command == "play" else run_match_command(args)


UI = DomainUI(
    "bridge",
    label="bridge",
    problem_view=ProblemView(
        what="the board at the table, to play out",
        titles=("bridge table",),
        needs="highlight a bridge board",
        open=_open_board,
    ),
    editor=ProblemEditor(what="a bridge deal", noun="deal", draft_editor="deal", open=_edit_board),
    help_sections=_help_sections,
    palette_titles={
        "bridge.defence": "Switch the defence",
        "bridge.close": "Back to the plan",
        "deal.save_as": "Save as…",
        "deal.fill": "Fill the fourth hand",
    },
    palette_prefixes={"bridge": "Bridge", "table": "Bridge", "play_log": "Bridge", "deal": "Deal"},
    palette_unavailable={
        "deal.save": "The deal is not valid yet: fix the problems listed first.",
        "deal.save_as": "The deal is not valid yet: fix the problems listed first.",
        "deal.fill": "Filling needs three complete hands and one empty one.",
    },
    commands=DomainCommands(names=("play", "match"), add_parsers=_add_parsers, run=_run),
)
