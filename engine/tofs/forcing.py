"""A forced alternative named by its method and some of its bindings.

``--why-not`` asks "why not this method here?", and the author seldom means one ground
instance: ``m_deliver_ordering_0(?v=truck_1)`` means "deliver with truck_1, whatever the
other variables are".  A :class:`Forced` names the method and the bindings that must hold;
every alternative of the node that agrees with them stays open to the search, so the
re-plan chooses the rest of the binding as any run would.  An exact label
(``m(?l1=a, ?v=t)``) is the case with every variable bound; a bare method name leaves all
of them free (and no longer means "the first instance").

The text form is the engine's own label syntax (``name(var=value, ...)``,
:func:`~engine.tofs.domain.call_text`), so a label copied from ``--json`` or the
explanation is a valid :class:`Forced`; :func:`parse_forced` reads it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

__all__ = ["Forced", "bare_name", "parse_forced", "split_task"]

_NAME = re.compile(r"[^\s(),=]+")


def bare_name(name: str) -> str:
    """A variable's name compared without HDDL's ``?`` (``?v`` and ``v`` are one)."""
    return name.strip().lstrip("?")


@dataclass(frozen=True)
class Forced:
    """An alternative to force: ``method`` with ``bindings`` (variable, value text) fixed
    and every other variable free."""

    method: str
    bindings: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        if not self.bindings:
            return self.method
        return f"{self.method}({', '.join(f'{k}={v}' for k, v in self.bindings)})"

    def matches(
        self,
        name: str,
        bindings: Iterable[tuple[str, Any]],
        fmt: Callable[[Any], str] = str,
    ) -> bool:
        """Whether an alternative (its method ``name`` and ``bindings``) agrees: the same
        method, and each variable fixed here has that value.  A variable the alternative
        does not bind contradicts nothing (a method recorded as failing, with no binding,
        is still that method)."""
        if name != self.method:
            return False
        have = {bare_name(k): fmt(v) for k, v in bindings}
        return all(have.get(bare_name(k), v) == v for k, v in self.bindings)

    def variables(self) -> list[str]:
        """The variables fixed, as written."""
        return [k for k, _ in self.bindings]


def parse_forced(text: str) -> Forced:
    """``name``, ``name()`` or ``name(?v=x, ?l=y)`` as a :class:`Forced`.

    Raises ``ValueError`` saying what is wrong with the text (an empty name, a binding
    without ``=``, a variable given twice, a parenthesis left open), never anything else."""
    text = text.strip()
    name, paren, rest = text.partition("(")
    name = name.strip()
    if not name or not _NAME.fullmatch(name):
        raise ValueError(f"'{text}' does not start with a method name")
    if not paren:
        return Forced(name)
    if not rest.endswith(")") or ")" in rest[:-1] or "(" in rest:
        raise ValueError(f"'{text}': the bindings must be one (var=value, ...) after the name")
    inner = rest[:-1].strip()
    pairs: list[tuple[str, str]] = []
    seen: set[str] = set()
    for part in inner.split(",") if inner else ():
        var, eq, value = part.partition("=")
        var, value = var.strip(), value.strip()
        if not eq or not _NAME.fullmatch(var) or not _NAME.fullmatch(value):
            raise ValueError(
                f"'{text}': '{part.strip()}' is not a binding (write ?var=value, "
                "separated by commas)"
            )
        if bare_name(var) in seen:
            raise ValueError(f"'{text}' binds {var} twice")
        seen.add(bare_name(var))
        pairs.append((var, value))
    return Forced(name, tuple(pairs))


def split_task(text: str) -> tuple[str, str]:
    """``TASK=ALTERNATIVE`` split at its first ``=`` outside parentheses: ``("", text)``
    when there is none (the alternative alone, ``m(?v=t)``).  A task may be a label with
    parentheses of its own (``(deliver p l)=m``); the ``=`` of a binding is inside them."""
    depth = 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "=" and depth == 0:
            return text[:i].strip(), text[i + 1 :].strip()
    return "", text.strip()
