"""What a compiled domain keeps of the definitions it was compiled from.

A compiled task, method or operator keeps its definition for the texts a run reports (an
expression's source where it failed, a method's assumption and critic, an operator's
group).  A knowledge base's definitions are the pydantic models of :mod:`.model`; a
planner that reads its domains some other way (HDDL) hands over plain records with the
same fields, so that planning never imports the models' validation machinery, which is a
quarter of a command's start-up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

__all__ = ["DomainDefinition", "MethodDefinition", "OperatorDefinition", "TaskDefinition"]


class TaskDefinition(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def params(self) -> Sequence[str]: ...
    @property
    def partial_plan_prune(self) -> bool: ...


class MethodDefinition(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def task(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def precondition(self) -> str: ...
    @property
    def subtasks(self) -> Sequence[str] | None: ...
    @property
    def weight(self) -> str | None: ...
    @property
    def assumption(self) -> str | None: ...
    @property
    def critic(self) -> str | None: ...
    @property
    def belief_view(self) -> str | None: ...


class OperatorDefinition(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def precondition(self) -> str: ...
    @property
    def effect(self) -> str | None: ...
    @property
    def costs(self) -> Mapping[str, str]: ...
    @property
    def group(self) -> str: ...


class DomainDefinition(Protocol):
    @property
    def name(self) -> str: ...
