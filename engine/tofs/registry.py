"""The Python side of a domain: primitives, effect functions and hooks.

A knowledge package creates one :class:`Registry` and decorates its functions into it.
Everything a KB file may call by name must be registered here, which is what makes the
expression language safe: there is nothing else to call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .expressions import STANDARD_PRIMITIVES, Primitive
from .value_types import BUILTIN_TYPES, ValueType

__all__ = ["ENGINE_CONSTANTS", "ConstantRule", "Registry", "RegistryError"]

F = TypeVar("F", bound=Callable[..., Any])

# Hooks a domain may supply; the engine has a sensible default for each.
HOOKS: dict[str, str] = {
    "evaluate": "evaluate(state) -> float: value of a leaf in game mode (e*(I)); default 0",
    "state_key": "state_key(state) -> Hashable: the cost-relevant state for transpositions",
    "controlled": "controlled(state, agent) -> bool: may the planner choose this agent's move",
    "stop_planning": "stop_planning(state, tasks, depth) -> bool: planning horizon in game mode",
    "lower_bound": "lower_bound(state, tasks) -> float: admissible cost-to-go for branch and bound",
    "format_value": "format_value(value) -> str: how a value is shown in explanations",
}


class RegistryError(ValueError):
    """A name was registered twice, or a hook does not exist."""


@dataclass(frozen=True)
class ConstantRule:
    """What a constant read by Python code must hold.

    A knowledge engineer may type anything into a constant; an expression that uses it
    fails to compile if it makes no sense, but a constant the Python side reads with
    ``float(...)`` would fail only when a run reaches it.  A rule makes the domain refuse
    the value when it is compiled -- that is, when it is saved -- with the field named.
    """

    kind: type
    """``int``, ``float`` or ``str``."""
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] = ()

    def problem(self, value: object) -> str | None:
        """What is wrong with ``value``, or None."""
        if self.kind is str:
            if isinstance(value, str) and (not self.choices or value in self.choices):
                return None
            want = f"one of {', '.join(self.choices)}" if self.choices else "a word"
            return f"expected {want}, got {value!r}"
        whole = self.kind is int
        if (
            isinstance(value, (int, float))
            and not isinstance(value, bool)
            and (not whole or float(value).is_integer())
            and (self.minimum is None or value >= self.minimum)
            and (self.maximum is None or value <= self.maximum)
        ):
            return None
        return f"expected {self.expected()}, got {value!r}"

    def expected(self) -> str:
        what = "a whole number" if self.kind is int else "a number"
        lo, hi = (None if b is None else f"{b:g}" for b in (self.minimum, self.maximum))
        if lo is not None and hi is not None:
            return f"{what} from {lo} to {hi}"
        if lo is not None:
            return f"{what} of at least {lo}"
        return f"{what} of at most {hi}" if hi is not None else what


# Constants the engine itself reads (the search's likelihood pruner, the explanation's
# magnitude words); every domain's registry starts with these rules.
ENGINE_CONSTANTS: dict[str, ConstantRule] = {
    "likelihood_cutoff": ConstantRule(float, 0.0, 1.0),
    "explain_clearly": ConstantRule(float, 0.0),
    "explain_far": ConstantRule(float, 0.0),
    "explain_floor": ConstantRule(float, 0.0),
    "explain_share": ConstantRule(float, 0.0, 1.0),
    "explain_cancel": ConstantRule(float, 0.0),
}


class Registry:
    """Named Python functions supplied by one knowledge package."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.primitives: dict[str, Primitive] = dict(STANDARD_PRIMITIVES)
        self.effects: dict[str, Callable[..., Any]] = {}
        self.hooks: dict[str, Callable[..., Any]] = {}
        self.constant_rules: dict[str, ConstantRule] = dict(ENGINE_CONSTANTS)
        self.value_types: dict[str, ValueType] = {}

    def __repr__(self) -> str:
        return (
            f"Registry({self.name!r}, primitives={len(self.primitives)}, "
            f"effects={len(self.effects)}, hooks={sorted(self.hooks)})"
        )

    def primitive(
        self, fn: F | None = None, *, name: str | None = None, uses_state: bool = True
    ) -> Any:
        """Register a function callable from expressions (``@reg.primitive``).

        With ``uses_state`` (the default) the planner's state is passed as the first
        argument; the author writes only the rest.
        """

        def register(f: F) -> F:
            pname = name or f.__name__
            if pname in self.primitives and self.primitives[pname].fn is not f:
                raise RegistryError(f"primitive '{pname}' is already registered in {self.name}")
            params = _param_names(f)[1 if uses_state else 0 :]
            self.primitives[pname] = Primitive(
                pname, f, uses_state=uses_state, doc=inspect.getdoc(f) or "", params=params
            )
            return f

        return register(fn) if fn is not None else register

    def effect(self, fn: F | None = None, *, name: str | None = None) -> Any:
        """Register an operator effect: ``effect(state, *args) -> new state``.

        Effects must not change the state they are given: the planner keeps it for
        backtracking and for explanations.
        """

        def register(f: F) -> F:
            ename = name or f.__name__
            if ename in self.effects and self.effects[ename] is not f:
                raise RegistryError(f"effect '{ename}' is already registered in {self.name}")
            self.effects[ename] = f
            return f

        return register(fn) if fn is not None else register

    def hook(self, kind: str) -> Callable[[F], F]:
        """Register one of the engine's hooks (see ``HOOKS``) for this domain."""
        if kind not in HOOKS:
            raise RegistryError(f"unknown hook '{kind}'; hooks are {sorted(HOOKS)}")

        def register(f: F) -> F:
            self.hooks[kind] = f
            return f

        return register

    def constant(
        self,
        name: str,
        kind: type,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
        choices: Sequence[str] = (),
    ) -> None:
        """Declare a constant the package's Python code reads, so that compiling the
        domain checks its value (see :class:`ConstantRule`).  A domain may leave it out:
        the code then uses its default."""
        if kind not in (int, float, str):
            raise RegistryError(f"constant '{name}': kind must be int, float or str")
        self.constant_rules[name] = ConstantRule(kind, minimum, maximum, tuple(choices))

    def value_type(self, name: str, accepts: Callable[[object], bool], expects: str) -> None:
        """Add a type that this domain's constants may declare (``type = "card"``), with
        its check and the words for what it expects ("a card such as SA or H10")."""
        if name in BUILTIN_TYPES or name in self.value_types:
            raise RegistryError(f"value type '{name}' is already defined")
        self.value_types[name] = ValueType(name, accepts, expects)

    def primitive_docs(self) -> Sequence[Primitive]:
        """Every primitive, sorted by name, for editors and the store's read-only table."""
        return [self.primitives[k] for k in sorted(self.primitives)]


def _param_names(fn: Callable[..., Any]) -> tuple[str, ...]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # builtins without a signature
        return ()
    out = []
    for p in sig.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            out.append("...")
        elif p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            out.append(p.name)
    return tuple(out)


def default_state_key(state: Hashable) -> Hashable:
    """Without a domain key, the whole state is cost-relevant (always safe)."""
    return state
