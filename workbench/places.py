"""Where to look when a run ends with no plan: the deepest failure's blame and the suspects.

A run without a plan carries two accounts of where the knowledge went wrong (issue 28):
the deepest failure, whose failing literal the knowledge blames on the place it was
written (:class:`~engine.tofs.results.Blame`: text, file, line), and at most five ranked
suspects, each a blame too.  The workbench shows them in three places -- the planning
screen's "Where to look" pane, ``kb test``'s failure lines and the test report in the
app -- so they are gathered here once, without Textual, in the order a reader should
try them.

A place in a TOML domain is opened in the form editor at the item its line falls in:
:func:`toml_item_at` reads that from the domain's canonical TOML text (the text
``kb export`` writes, and the line numbers a TOML domain's blame would use).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Literal

from engine.tofs import Failure, RunResult
from engine.tofs.results import Blame

__all__ = ["Place", "TomlItem", "blame_lines", "failure_blames", "places", "toml_item_at", "where"]


@dataclass(frozen=True)
class Place:
    """One entry of "where to look": what it is to the reader, and the blame."""

    role: str
    """"deepest failure" or "suspect N" (N from 1, best first)."""
    blame: Blame


def failure_blames(failure: Failure) -> list[Blame]:
    """The blames a failure carries, its own first: a task that no method accomplishes
    blames nothing itself, its methods' failures (``causes``) do, so the places are theirs.
    Each blame once, in the order the failure's message names them."""
    found: list[Blame] = []

    def visit(f: Failure) -> None:
        if f.blame is not None and f.blame not in found:
            found.append(f.blame)
        for cause in f.causes:
            visit(cause)

    visit(failure)
    return found


def places(result: RunResult) -> list[Place]:
    """Where to look in a run that ended with no plan (none when it has one): the deepest
    failure's blames, then the suspects in their rank.  A deepest failure whose knowledge
    blames no place is still listed, by its message and with no file, so that the reader
    sees what failed even where the knowledge cannot say where it was written."""
    if result.found:
        return []
    out: list[Place] = []
    if result.failure is not None:
        blames = failure_blames(result.failure) or [Blame(result.failure.message)]
        out += [Place("deepest failure", b) for b in blames]
    out += [Place(f"suspect {i}", b) for i, b in enumerate(result.suspects, 1)]
    return out


def where(blame: Blame) -> str:
    """``file:line`` (the file's name only), the file alone, or "" when the knowledge does
    not say where the blamed text was written."""
    name = os.path.basename(blame.file) or blame.file
    if blame.line is None:
        return name
    return f"{name or 'line'}:{blame.line}" if name else f"line {blame.line}"


def _with_where(blame: Blame) -> str:
    """The blame's text, with its place added when the text does not already say it."""
    at = where(blame)
    if blame.line is None or f":{blame.line}" in blame.text:
        return blame.text
    return f"{blame.text} ({at})"


def blame_lines(result: RunResult) -> list[str]:
    """The lines a failed knowledge test adds when its run found no plan: what failed
    deepest, with the place it was written, and each suspect with its place."""
    if result.found:
        return []
    lines = []
    if result.failure is not None:
        lines.append(f"deepest failure: {result.failure.message}")
        blames = failure_blames(result.failure)
        for b in blames:
            if b.line is not None and f":{b.line}" not in result.failure.message:
                lines.append(f"  written at {where(b)}: {b.text}")
    lines += [f"suspect {i}: {_with_where(b)}" for i, b in enumerate(result.suspects, 1)]
    return lines


# ---------------------------------------------------------------------------- TOML items

# The array-of-tables headers of a domain's TOML (`kb export`), by the store's item kind.
ItemKind = Literal["constant", "task", "method", "operator", "test"]
"""The store's item kinds (``workbench.widgets.kb_fields.Kind``)."""

_ARRAYS: dict[str, ItemKind] = {
    "constants": "constant",
    "tasks": "task",
    "methods": "method",
    "operators": "operator",
    "tests": "test",
}
_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z_]+)\s*\]\]\s*(?:#.*)?$")
_SUBTABLE = re.compile(r"^\s*\[\s*([A-Za-z_]+)\.([A-Za-z_.]+)\s*\]\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z_]+)\s*=\s*(.*)$")
_STRING = re.compile(r'^"((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class TomlItem:
    """The item of a TOML domain a line falls in, as the store names it (a method is
    ``Task.Method``), and the form field the line sets ("" for its header or a line of
    no field)."""

    kind: ItemKind
    name: str
    field: str = ""


def toml_item_at(text: str, line: int) -> TomlItem | None:
    """The item of the TOML domain ``text`` whose table holds line ``line`` (1-based), and
    the field that line belongs to; None when it falls outside every item (the domain's
    own keys, a comment before the first item) or past the end."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    start, kind = None, None
    for i in range(line - 1, -1, -1):
        m = _HEADER.match(lines[i])
        if m:
            start, kind = i, _ARRAYS.get(m.group(1))
            break
    if start is None or kind is None:
        return None
    keys: dict[str, str] = {}  # the item's own string keys (name, task)
    field = ""
    section = ""  # the sub-table a line is in ("costs" under [operators.costs])
    for i in range(start + 1, len(lines)):
        if _HEADER.match(lines[i]):
            break
        before = i <= line - 1  # at or above the line asked about
        sub = _SUBTABLE.match(lines[i])
        if sub:
            section = sub.group(2).split(".")[0]
            field = section if before else field
            continue
        key = _KEY.match(lines[i])
        if key is None:
            continue
        if not section:
            value = _STRING.match(key.group(2).strip())
            keys[key.group(1)] = value.group(1) if value else ""
        if before:
            field = f"{section}.{key.group(1)}" if section else key.group(1)
    name = keys.get("name", "")
    if not name:
        return None
    if kind == "method" and keys.get("task"):
        name = f"{keys['task']}.{name}"
    return TomlItem(kind, name, field if line - 1 > start else "")
