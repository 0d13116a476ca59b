"""The TOFS engine: model a domain, compile it, plan, and read why.

>>> from engine.tofs import compile_domain, plan, SearchOptions
"""

from .criteria import ExternalCriterion, Hurwicz, Maximin, MinimaxRegret, WeightedAverage, criterion
from .domain import Domain, DomainError, KnowledgeProblem, Problem, compile_domain, make_task
from .expressions import CompiledExpression, ExpressionError, Primitive, compile_expression
from .model import ConstantDef, DomainSpec, KnowledgeTest, MethodDef, OperatorDef, TaskDef
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
from .source import SourceError, load_domain_file, parse_domain_source
from .trace import EventKind, Trace, TraceEvent

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
