"""Screens of the workbench: the planning screen and the help modal."""

from workbench.screens.help import HelpScreen
from workbench.screens.plan import PlanScreen

__all__ = ["HelpScreen", "PlanScreen"]
