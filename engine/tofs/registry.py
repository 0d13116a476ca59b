"""The Python side of a domain: primitives, effect functions and hooks.

A knowledge package creates one :class:`Registry` and decorates its functions into it.
Everything a KB file may call by name must be registered here, which is what makes the
expression language safe: there is nothing else to call.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from .expressions import STANDARD_PRIMITIVES, Primitive

__all__ = ["Registry", "RegistryError"]

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


class Registry:
    """Named Python functions supplied by one knowledge package."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.primitives: dict[str, Primitive] = dict(STANDARD_PRIMITIVES)
        self.effects: dict[str, Callable[..., Any]] = {}
        self.hooks: dict[str, Callable[..., Any]] = {}

    def __repr__(self) -> str:
        return (f"Registry({self.name!r}, primitives={len(self.primitives)}, "
                f"effects={len(self.effects)}, hooks={sorted(self.hooks)})")

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
            params = _param_names(f)[1 if uses_state else 0:]
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


def default_state_key(state: Any) -> Hashable:
    """Without a domain key, the whole state is cost-relevant (always safe)."""
    return state
