"""The TOFS engine: model a domain, compile it, plan, and read why.

>>> from engine.tofs import compile_domain, plan, SearchOptions

The knowledge base's models (:mod:`.model`) and its source files (:mod:`.source`) are
imported on first use: they bring pydantic, whose import is a quarter of a command's
start-up, and a planner that reads its domains otherwise (HDDL) never needs them.
"""

import importlib
from typing import TYPE_CHECKING, Any

from .criteria import ExternalCriterion, Hurwicz, Maximin, MinimaxRegret, WeightedAverage, criterion
from .domain import Domain, DomainError, KnowledgeProblem, Problem, compile_domain, make_task
from .expressions import CompiledExpression, ExpressionError, Primitive, compile_expression
from .registry import Registry, RegistryError
from .results import (
    AlternativeRecord,
    ChoicePoint,
    Expansion,
    Failure,
    Outcome,
    PlanStep,
    PolicyEdge,
    PolicyNode,
    Reason,
    RunResult,
    Status,
)
from .search import (
    CancelToken,
    EvaluationError,
    Mode,
    Progress,
    SearchOptions,
    SearchStopped,
    Watch,
    checkpoint,
    plan,
    resident_mb,
    watching,
)
from .trace import EventKind, Trace, TraceEvent

if TYPE_CHECKING:
    from .model import ConstantDef, DomainSpec, KnowledgeTest, MethodDef, OperatorDef, TaskDef
    from .source import SourceError, load_domain_file, parse_domain_source

_LATER = {
    **dict.fromkeys(
        ("ConstantDef", "DomainSpec", "KnowledgeTest", "MethodDef", "OperatorDef", "TaskDef"),
        ".model",
    ),
    **dict.fromkeys(("SourceError", "load_domain_file", "parse_domain_source"), ".source"),
}


def __getattr__(name: str) -> Any:
    module = _LATER.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "AlternativeRecord",
    "CancelToken",
    "ChoicePoint",
    "CompiledExpression",
    "ConstantDef",
    "Domain",
    "DomainError",
    "DomainSpec",
    "EvaluationError",
    "EventKind",
    "Expansion",
    "ExpressionError",
    "ExternalCriterion",
    "Failure",
    "Hurwicz",
    "KnowledgeProblem",
    "KnowledgeTest",
    "Maximin",
    "MethodDef",
    "MinimaxRegret",
    "Mode",
    "OperatorDef",
    "Outcome",
    "PlanStep",
    "PolicyEdge",
    "PolicyNode",
    "Primitive",
    "Problem",
    "Progress",
    "Reason",
    "Registry",
    "RegistryError",
    "RunResult",
    "SearchOptions",
    "SearchStopped",
    "SourceError",
    "Status",
    "TaskDef",
    "Trace",
    "TraceEvent",
    "Watch",
    "WeightedAverage",
    "checkpoint",
    "compile_domain",
    "compile_expression",
    "criterion",
    "load_domain_file",
    "make_task",
    "parse_domain_source",
    "plan",
    "resident_mb",
    "watching",
]
