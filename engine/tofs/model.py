"""The data of a domain: constants, tasks, methods and operators.

One set of pydantic models describes a domain wherever it comes from -- a KB source file,
the SQLite store or a test -- so that round trips are lossless and every edit path checks
the same rules.  Expressions are kept as text here; :mod:`engine.tofs.domain` compiles them.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

__all__ = ["ConstantDef", "DomainSpec", "KnowledgeTest", "MethodDef", "OperatorDef", "TaskDef"]

# Hyphens are allowed for HDDL's (and PDDL's) names -- ``get-to``, ``m-deliver`` -- which a
# domain written in the expression language cannot call, so the compiler refuses them there.
_IDENT = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")

Identifier = Annotated[
    str,
    Field(
        pattern=r"^[A-Za-z][A-Za-z0-9_-]*$",
        description="a name: a letter, then letters, digits, underscores or hyphens",
    ),
]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ConstantDef(_Model):
    """A named number (or flag, or word) a knowledge engineer tunes without touching code.

    ``type`` is what the value must be -- ``number``, ``integer``, ``text``, ``flag``, or a
    type the domain's registry adds (bridge: ``card``) -- checked when the domain compiles,
    so a wrong value is refused when it is saved, not when a run reaches it.  A constant
    without one takes the kind of its value (and ``kb lint`` says so).
    """

    name: Identifier
    value: bool | int | float | str
    type: str | None = None
    description: str = ""
    unit: str = ""


class TaskDef(_Model):
    """A task and how it is shown.

    ``agent`` names the parameter that holds the agent to move -- the dissertation's
    ``Task(P; Z)`` convention -- so the engine can tell decision nodes from external-agent
    nodes.  ``partial_plan_prune`` marks a task whose alternatives cannot affect any later
    choice (EDAPS ``ApplyPhotoresist``), so that only the cheapest way of doing it is kept.
    """

    name: Identifier
    params: list[Identifier] = []
    agent: Identifier | None = None
    label: str = ""
    description: str = ""
    partial_plan_prune: bool = False

    @model_validator(mode="after")
    def _agent_is_a_parameter(self) -> TaskDef:
        if self.agent is not None and self.agent not in self.params:
            raise ValueError(f"agent '{self.agent}' is not one of the parameters {self.params}")
        if len(set(self.params)) != len(self.params):
            raise ValueError(f"parameters repeat a name: {self.params}")
        return self


class MethodDef(_Model):
    """One way of accomplishing a task; methods of a task are tried in the order listed.

    A method either decomposes its task into an ordered list of subtask calls (possibly
    empty) or performs exactly one operator call.  Methods for an uncontrolled agent carry
    the probability of that move (``weight``), the assumption it rests on, the critic that
    judges whether an actual move matches the planned one, and the belief view to use.
    """

    name: Identifier
    task: Identifier
    label: str = ""
    description: str = ""
    bindings: list[str] = []
    precondition: str = "True"
    subtasks: list[str] | None = None
    operator: str | None = None
    weight: str | None = None
    assumption: str | None = None
    critic: str | None = None
    belief_view: str | None = None

    @model_validator(mode="after")
    def _one_body(self) -> MethodDef:
        if (self.subtasks is None) == (self.operator is None):
            raise ValueError(
                "a method needs exactly one of 'subtasks' (a list, possibly empty) or "
                "'operator' (one operator call)"
            )
        return self

    @property
    def is_operator_method(self) -> bool:
        return self.operator is not None


class OperatorDef(_Model):
    """A primitive action: precondition, registered effect function, and cost expressions.

    ``costs`` maps a cost component (EDAPS: ``setup`` and ``run`` minutes) to an
    expression; a plan's value in optimise mode is the sum of all components.
    """

    name: Identifier
    params: list[Identifier] = []
    precondition: str = "True"
    effect: Identifier | None = None
    costs: dict[Identifier, str] = {}
    group: str = ""
    description: str = ""

    @field_validator("params")
    @classmethod
    def _distinct(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"parameters repeat a name: {v}")
        return v


class KnowledgeTest(_Model):
    """A problem and what a correct knowledge base must conclude about it.

    ``expect`` maps a fact of the run to its expected value.  Every domain reports
    ``found``, ``value``, ``status`` and ``chosen`` (``{choice point task: alternative}``);
    a package adds its own facts (EDAPS: ``manufacturable``, ``lead_time``,
    ``unmanufacturable_at``).  Numbers match within ``tolerance``.
    """

    name: str = Field(min_length=1)
    problem: str = Field(min_length=1)
    description: str = ""
    options: dict[str, Any] = {}
    expect: dict[str, Any]
    tolerance: float = 0.005

    @field_validator("expect")
    @classmethod
    def _something_expected(cls, v: dict[str, Any]) -> dict[str, Any]:
        if not v:
            raise ValueError("a test must expect something")
        return v


class DomainSpec(_Model):
    """A whole domain as data.  Names are unique per kind; method order is priority order.

    ``roots`` are the tasks problems start from; the linter reports tasks no root reaches.
    """

    name: Identifier
    description: str = ""
    roots: list[Identifier] = []
    constants: list[ConstantDef] = []
    tasks: list[TaskDef] = []
    methods: list[MethodDef] = []
    operators: list[OperatorDef] = []
    tests: list[KnowledgeTest] = []
    extra: dict[str, Any] = {}

    @model_validator(mode="after")
    def _unique_names(self) -> DomainSpec:
        for kind, items in (
            ("constant", self.constants),
            ("task", self.tasks),
            ("operator", self.operators),
        ):
            seen: set[str] = set()
            for item in items:
                if item.name in seen:
                    raise ValueError(f"{kind} '{item.name}' is defined twice")
                seen.add(item.name)
        clash = {t.name for t in self.tasks} & {o.name for o in self.operators}
        if clash:
            raise ValueError(f"names used for both a task and an operator: {sorted(clash)}")
        names = [t.name for t in self.tests]
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise ValueError(f"knowledge test '{dup}' is defined twice")
        seen_m: set[tuple[str, str]] = set()
        for m in self.methods:
            if (m.task, m.name) in seen_m:
                raise ValueError(f"method '{m.name}' of task '{m.task}' is defined twice")
            seen_m.add((m.task, m.name))
        return self

    def task(self, name: str) -> TaskDef | None:
        return next((t for t in self.tasks if t.name == name), None)

    def operator(self, name: str) -> OperatorDef | None:
        return next((o for o in self.operators if o.name == name), None)

    def methods_of(self, task: str) -> list[MethodDef]:
        return [m for m in self.methods if m.task == task]

    def constant_values(self) -> dict[str, Any]:
        return {c.name: c.value for c in self.constants}


def is_identifier(text: str) -> bool:
    return bool(_IDENT.match(text))
