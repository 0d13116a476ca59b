"""Screens of the workbench: the planning screen and the help modal.

Each screen is imported when it is first used (PEP 562), not with the package: the first
screen should not wait for the editors' and viewers' imports (``benchmarks/startup.py``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.screens.help import HelpScreen
    from workbench.screens.plan import PlanScreen

__all__ = ["HelpScreen", "PlanScreen"]

_HOME = {"HelpScreen": "workbench.screens.help", "PlanScreen": "workbench.screens.plan"}


def __getattr__(name: str) -> Any:
    if name in _HOME:
        return getattr(importlib.import_module(_HOME[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
