"""SVG snapshots of the main screens at a fixed size (regression guards for the layout).

Only screens with no timings on them are snapshotted, so the pictures are deterministic.
Update after an intended change with ``./test tests/test_snapshots.py --snapshot-update``
and look at the pictures before committing them.
"""

from __future__ import annotations

from pathlib import Path

from workbench.app import WorkbenchApp

SIZE = (130, 40)


def test_planning_screen_before_a_run(snap_compare, tmp_path: Path) -> None:
    """The problem picker with every shipped domain, run options, empty plan and pane."""
    assert snap_compare(WorkbenchApp(tmp_path / "kb.db"), terminal_size=SIZE)


def test_help_screen(snap_compare, tmp_path: Path) -> None:
    """F1 lists every binding, by screen."""
    assert snap_compare(WorkbenchApp(tmp_path / "kb.db"), terminal_size=SIZE, press=["f1"])


def test_knowledge_editor(snap_compare, tmp_path: Path) -> None:
    """F2 opens the knowledge editor on the EDAPS task network."""
    assert snap_compare(WorkbenchApp(tmp_path / "kb.db"), terminal_size=SIZE, press=["f2"])
