"""The HDDL domain and problem as typed, immutable values.

Names are lower case (HDDL is case-insensitive); declarations keep the spelling of the file
in ``spelling`` so that messages and later views can show what the author wrote.  Source
positions ride along in ``pos`` and take no part in equality or hashing: a model read back
from what the writer produced equals the one it was written from.

Subtasks are always held in their total order, whichever form the file used
(``:ordered-subtasks``, or ``:subtasks`` with an ``:ordering`` that is total).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeAlias

__all__ = [
    "OBJECT",
    "Action",
    "And",
    "Atom",
    "Const",
    "Delete",
    "Domain",
    "Effect",
    "EffectAnd",
    "EffectForall",
    "Equals",
    "Exists",
    "Forall",
    "Formula",
    "Imply",
    "Method",
    "Not",
    "Or",
    "Pos",
    "Predicate",
    "Problem",
    "Subtask",
    "Task",
    "TaskCall",
    "TaskNetwork",
    "Term",
    "TypeDef",
    "Typed",
    "Var",
    "When",
]

# The root of every type hierarchy; implicit, never declared in the model.
OBJECT = "object"


@dataclass(frozen=True, slots=True)
class Pos:
    """Where a construct starts in its file (1-based), for messages that point at it.

    Every ``pos`` and ``spelling`` field below is keyword-only and left out of equality, hash
    and repr: two models of the same HDDL are equal wherever and however it was written.
    """

    line: int
    column: int

    def __str__(self) -> str:
        return f"{self.line}:{self.column}"


# -- terms ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Var:
    """A variable; ``name`` keeps its leading ``?`` so that it prints as written."""

    name: str
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class Const:
    """A constant of the domain or an object of the problem."""

    name: str
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)

    def __str__(self) -> str:
        return self.name


Term: TypeAlias = Var | Const


# -- declarations ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Typed:
    """A typed name: a parameter (``?x``), a constant or an object.

    ``types`` holds one type, or several for ``(either a b)``; untyped names get ``object``.
    """

    name: str
    types: tuple[str, ...] = (OBJECT,)
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class TypeDef:
    """A declared type and its parents (several only for ``- (either a b)``)."""

    name: str
    parents: tuple[str, ...] = (OBJECT,)
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Predicate:
    name: str
    params: tuple[Typed, ...] = ()
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Task:
    """A compound (abstract) task: what methods decompose."""

    name: str
    params: tuple[Typed, ...] = ()
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


# -- formulas (preconditions, goals, method constraints) ------------------------------------


@dataclass(frozen=True, slots=True)
class Atom:
    """A predicate applied to terms; in an effect, a fact the action adds."""

    predicate: str
    args: tuple[Term, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Equals:
    left: Term
    right: Term
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Not:
    body: Formula
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Formula, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Formula, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Imply:
    condition: Formula
    consequence: Formula
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Exists:
    params: tuple[Typed, ...]
    body: Formula
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Forall:
    params: tuple[Typed, ...]
    body: Formula
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


Formula: TypeAlias = Atom | Equals | Not | And | Or | Imply | Exists | Forall


# -- effects --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Delete:
    """``(not (p ...))`` in an effect: the fact no longer holds."""

    atom: Atom
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class EffectAnd:
    parts: tuple[Effect, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class EffectForall:
    params: tuple[Typed, ...]
    effect: Effect
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class When:
    """A conditional effect: ``effect`` happens where ``condition`` held before the action."""

    condition: Formula
    effect: Effect
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


Effect: TypeAlias = Atom | Delete | EffectAnd | EffectForall | When


# -- the hierarchy --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TaskCall:
    """The task a method decomposes, with its arguments."""

    name: str
    args: tuple[Term, ...] = ()
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Subtask:
    """One step of a task network: a compound task or an action; ``id`` if it was named."""

    name: str
    args: tuple[Term, ...] = ()
    id: str | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Method:
    name: str
    params: tuple[Typed, ...]
    task: TaskCall
    precondition: Formula | None = None
    subtasks: tuple[Subtask, ...] = ()
    # HDDL's task-network constraints: (in)equalities of the parameters.
    constraints: Formula | None = None
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Action:
    """A primitive task."""

    name: str
    params: tuple[Typed, ...] = ()
    precondition: Formula | None = None
    effect: Effect | None = None
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Domain:
    name: str
    requirements: tuple[str, ...] = ()
    types: tuple[TypeDef, ...] = ()
    constants: tuple[Typed, ...] = ()
    predicates: tuple[Predicate, ...] = ()
    tasks: tuple[Task, ...] = ()
    methods: tuple[Method, ...] = ()
    actions: tuple[Action, ...] = ()
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    # The file it was read from, for messages about it; "" for text.
    path: str = field(default="", compare=False, repr=False, kw_only=True)

    def type_parents(self) -> dict[str, tuple[str, ...]]:
        return {t.name: t.parents for t in self.types}

    def ancestors(self, type_name: str) -> tuple[str, ...]:
        """``type_name`` and every type above it, nearest first, ending with ``object``."""
        parents = self.type_parents()
        seen: list[str] = []
        todo = [type_name]
        while todo:
            name = todo.pop(0)
            if name not in seen:
                seen.append(name)
                todo.extend(parents.get(name, ()))
        if OBJECT not in seen:
            seen.append(OBJECT)
        return tuple(seen)


@dataclass(frozen=True, slots=True)
class TaskNetwork:
    """A problem's initial task network (``:htn``), in its total order."""

    params: tuple[Typed, ...] = ()
    subtasks: tuple[Subtask, ...] = ()
    constraints: Formula | None = None
    pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)


@dataclass(frozen=True, slots=True)
class Problem:
    name: str
    domain: str
    requirements: tuple[str, ...] = ()
    objects: tuple[Typed, ...] = ()
    htn: TaskNetwork | None = None
    init: tuple[Atom, ...] = ()
    goal: Formula | None = None
    spelling: str = field(default="", compare=False, repr=False, kw_only=True)
    path: str = field(default="", compare=False, repr=False, kw_only=True)
    # Where (:domain ...) names the domain, for a message when it names another.
    domain_pos: Pos | None = field(default=None, compare=False, repr=False, kw_only=True)
