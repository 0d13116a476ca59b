"""Knowledge packages, one per domain, and the one planning pipeline they share.

The parts live in modules named for what they hold; this module re-exports them so that
``from knowledge import ...`` keeps working:

* :mod:`knowledge.contract` -- :class:`KnowledgePackage`, the typed base class every
  package subclasses (its hooks default to "no effect"), and the types it speaks in;
* :mod:`knowledge.registry` -- finding packages by name, shipped or through the
  ``tofs_workbench.packages`` entry-point group, and their domain formats;
* :mod:`knowledge.request` -- :class:`PlanRequest`, budgets, and the errors that refuse a
  request (:class:`BadInput`, :class:`Refused`, :class:`InputStopped`);
* :mod:`knowledge.pipeline` -- :func:`run_plan`, the one planning function, and rendering;
* :mod:`knowledge.statuses` -- exit statuses shared by every command.
"""

from __future__ import annotations

from .contract import (
    DomainFormat,
    ImportedProblem,
    KnowledgePackage,
    PackageError,
    ProblemAnalysis,
    Read,
)
from .pipeline import (
    PlanOutcome,
    PlanReport,
    explain_run,
    outcome_facts,
    plan_report,
    result_facts,
    run_plan,
    search_options,
    why_not,
)
from .registry import domain_formats, format_of, get_package, package_names
from .request import (
    BadInput,
    InputStopped,
    PlanRequest,
    Refused,
    budget_options,
    default_memory_budget,
    read_within_budgets,
)
from .statuses import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_INTERRUPTED,
    EXIT_JOBS_FAILED,
    EXIT_NO_PLAN,
    EXIT_PLAN,
    exit_status,
)

__all__ = [
    "EXIT_BAD_INPUT",
    "EXIT_GAVE_UP",
    "EXIT_INTERRUPTED",
    "EXIT_JOBS_FAILED",
    "EXIT_NO_PLAN",
    "EXIT_PLAN",
    "BadInput",
    "DomainFormat",
    "ImportedProblem",
    "InputStopped",
    "KnowledgePackage",
    "PackageError",
    "PlanOutcome",
    "PlanReport",
    "PlanRequest",
    "ProblemAnalysis",
    "Read",
    "Refused",
    "budget_options",
    "default_memory_budget",
    "domain_formats",
    "exit_status",
    "explain_run",
    "format_of",
    "get_package",
    "outcome_facts",
    "package_names",
    "plan_report",
    "read_within_budgets",
    "result_facts",
    "run_plan",
    "search_options",
    "why_not",
]
