"""What a knowledge value may hold: the declared types of constants (and form fields).

A type is a name a knowledge engineer writes (``type = "number"``) with a check and the
words for what it expects.  The engine knows the domain-free ones; a package adds its own
(bridge: ``card``) with :meth:`engine.tofs.registry.Registry.value_type`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["BUILTIN_TYPES", "ValueType", "type_of_value", "type_problem"]


@dataclass(frozen=True)
class ValueType:
    """A named kind of value: ``accepts(value)`` and, for messages, what it ``expects``."""

    name: str
    accepts: Callable[[object], bool]
    expects: str


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_whole(value: object) -> bool:
    return _is_number(value) and isinstance(value, (int, float)) and float(value).is_integer()


BUILTIN_TYPES: Mapping[str, ValueType] = {
    t.name: t
    for t in (
        ValueType("number", _is_number, "a number"),
        ValueType("integer", _is_whole, "a whole number"),
        ValueType("text", lambda v: isinstance(v, str), "text"),
        ValueType("flag", lambda v: isinstance(v, bool), "true or false"),
    )
}


def type_of_value(value: object) -> str:
    """The built-in type a value already has (for constants that declare none)."""
    if isinstance(value, bool):
        return "flag"
    if isinstance(value, int):
        return "integer"
    return "number" if isinstance(value, float) else "text"


def type_problem(
    declared: str, value: object, extra: Mapping[str, ValueType] | None = None
) -> str | None:
    """What is wrong with ``value`` for the type ``declared``, in words; None if nothing."""
    known = {**BUILTIN_TYPES, **(extra or {})}
    vt = known.get(declared)
    if vt is None:
        return f"unknown type {declared!r}; expected one of {', '.join(sorted(known))}"
    return None if vt.accepts(value) else f"expected {vt.expects}, got {value!r}"
