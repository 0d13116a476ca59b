"""Reusable widgets of the workbench: problem picker, plan tree, explanation pane, status line.

Each widget only displays; screens own state and decide what to show.
"""

from workbench.widgets.explanation import ExplanationPane
from workbench.widgets.plan_tree import PlanTree
from workbench.widgets.problem_picker import PackageEntry, ProblemEntry, ProblemPicker
from workbench.widgets.status_line import StatusLine

__all__ = [
    "ExplanationPane",
    "PackageEntry",
    "PlanTree",
    "ProblemEntry",
    "ProblemPicker",
    "StatusLine",
]
