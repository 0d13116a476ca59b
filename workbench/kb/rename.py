"""Renaming an item and every reference to it, as one change to a domain.

A rename that left references behind would turn one edit into a broken domain, so the
store renames through :func:`rename_item`: the item and each place that names it change
together, and the store's validator then checks the result like any other edit.

References are rewritten token by token with Python's tokenizer (the knowledge language
is a subset of Python expressions), so a constant ``gap`` renamed to ``min_gap`` changes
``gap * 2`` but not ``gap_width`` or the text of a string.  Calls (subtasks, operator
methods) are rewritten only in the callee position, because a task's name and a method's
parameter may legitimately be spelled alike.
"""

from __future__ import annotations

import io
import keyword
import re
import tokenize
from collections.abc import Callable
from typing import Any

from engine.tofs.model import DomainSpec

__all__ = ["RenameError", "rename_item", "rewrite_callee", "rewrite_names"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


class RenameError(ValueError):
    """The rename cannot be made; the message says why."""


def rewrite_names(text: str, old: str, new: str) -> str:
    """``text`` with every name token ``old`` (not an attribute, not in a string) -> ``new``."""
    if old not in text:
        return text
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text  # unreadable text is left for the validator to report
    lines = text.splitlines(keepends=True) or [text]
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    spans = []
    previous: tokenize.TokenInfo | None = None
    for tok in tokens:
        if (
            tok.type == tokenize.NAME
            and tok.string == old
            and not (previous is not None and previous.string == ".")
        ):
            (row, col), (erow, ecol) = tok.start, tok.end
            spans.append((offsets[row - 1] + col, offsets[erow - 1] + ecol))
        if tok.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
            previous = tok
    for start, end in reversed(spans):
        text = text[:start] + new + text[end:]
    return text


def rewrite_callee(call: str, old: str, new: str) -> str:
    """A call ``Old(args)`` (or bare ``Old``) with its callee renamed; arguments untouched."""
    stripped = call.lstrip()
    lead = call[: len(call) - len(stripped)]
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)", stripped)
    if m is None or m.group(1) != old:
        return call
    return lead + new + stripped[m.end() :]


def _rewrite_template(text: str, old: str, new: str) -> str:
    def field(m: re.Match[str]) -> str:
        if m.group(1) is None:
            return m.group(0)  # {{ or }}
        expr, colon, spec = m.group(1).partition(":")
        return "{" + rewrite_names(expr, old, new) + colon + spec + "}"

    return _FIELD.sub(field, text)


def _map_expressions(
    data: dict[str, Any], fix: Callable[[str], str], fix_template: Callable[[str], str]
) -> None:
    """Apply ``fix`` to every expression field of a dumped domain, in place."""
    for m in data["methods"]:
        m["bindings"] = [fix(b) for b in m["bindings"]]
        m["precondition"] = fix(m["precondition"])
        if m["weight"] is not None:
            m["weight"] = fix(m["weight"])
        if m["subtasks"] is not None:
            m["subtasks"] = [fix(c) for c in m["subtasks"]]
        if m["operator"] is not None:
            m["operator"] = fix(m["operator"])
        m["label"] = fix_template(m["label"])
        m["description"] = fix_template(m["description"])
    for o in data["operators"]:
        o["precondition"] = fix(o["precondition"])
        o["costs"] = {k: fix(v) for k, v in o["costs"].items()}
        o["description"] = fix_template(o["description"])
    for t in data["tasks"]:
        t["label"] = fix_template(t["label"])
        t["description"] = fix_template(t["description"])


def rename_item(spec: DomainSpec, kind: str, old: str, new: str) -> DomainSpec:
    """The domain with item ``old`` of ``kind`` called ``new`` and every reference updated.

    Methods are named ``Task.Method`` as the store names them; ``new`` is the method's own
    name (a method cannot move to another task by renaming).
    """
    if kind == "method":
        task, _, old_name = old.partition(".")
        new_name = new.rpartition(".")[2] if new.startswith(task + ".") else new
    else:
        task, old_name, new_name = "", old, new
    if kind == "test":
        if not new_name.strip():
            raise RenameError("a knowledge test needs a name")
    elif not _IDENTIFIER.match(new_name) or keyword.iskeyword(new_name):
        raise RenameError(
            f"'{new_name}' is not a name: use letters, digits and _ , not starting with a digit"
        )
    if new_name == old_name:
        raise RenameError(f"the {kind} is already called '{old_name}'")
    data = spec.model_dump(mode="json")
    if kind == "constant":
        items = data["constants"]
        _rename_in(items, kind, old_name, new_name)
        _map_expressions(
            data,
            lambda s: rewrite_names(s, old_name, new_name),
            lambda s: _rewrite_template(s, old_name, new_name),
        )
    elif kind in ("task", "operator"):
        items = data["tasks" if kind == "task" else "operators"]
        taken = {t["name"] for t in data["tasks"]} | {o["name"] for o in data["operators"]}
        if new_name in taken:
            raise RenameError(f"'{new_name}' already names a task or an operator")
        _rename_in(items, kind, old_name, new_name)
        for m in data["methods"]:
            if kind == "task" and m["task"] == old_name:
                m["task"] = new_name
            if m["subtasks"] is not None:
                m["subtasks"] = [rewrite_callee(c, old_name, new_name) for c in m["subtasks"]]
            if m["operator"] is not None:
                m["operator"] = rewrite_callee(m["operator"], old_name, new_name)
        if kind == "task":
            data["roots"] = [new_name if r == old_name else r for r in data["roots"]]
    elif kind == "method":
        mine = [m for m in data["methods"] if m["task"] == task]
        if not any(m["name"] == old_name for m in mine):
            raise RenameError(f"task '{task}' has no method '{old_name}'")
        if any(m["name"] == new_name for m in mine):
            raise RenameError(f"task '{task}' already has a method '{new_name}'")
        for m in mine:
            if m["name"] == old_name:
                m["name"] = new_name
        _rename_expected_choices(data, old_name, new_name)
    elif kind == "test":
        _rename_in(data["tests"], kind, old_name, new_name)
    else:
        raise RenameError(f"unknown kind '{kind}'")
    return DomainSpec.model_validate(data)


def _rename_in(items: list[dict[str, Any]], kind: str, old: str, new: str) -> None:
    if any(it["name"] == new for it in items):
        raise RenameError(f"there is already a {kind} '{new}'")
    for it in items:
        if it["name"] == old:
            it["name"] = new
            return
    raise RenameError(f"there is no {kind} '{old}'")


def _rename_expected_choices(data: dict[str, Any], old: str, new: str) -> None:
    """Knowledge tests name the method they expect to be chosen: keep them pointing at it."""
    for t in data["tests"]:
        chosen = t.get("expect", {}).get("chosen")
        if isinstance(chosen, dict):
            t["expect"]["chosen"] = {k: (new if v == old else v) for k, v in chosen.items()}
