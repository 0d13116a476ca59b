"""KB source files: a domain as TOML text.

Reading reports bad input with the file, the line and column (TOML syntax) or the field
path (structure) and what was expected -- never a traceback.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

from .model import DomainSpec
from .textfile import TextFileError, read_text

__all__ = [
    "SourceError",
    "dump_domain_source",
    "load_domain_file",
    "parse_domain_file_text",
    "parse_domain_source",
    "split_header",
]


class SourceError(ValueError):
    """A KB source file could not be read; the message says where and what was expected."""

    def __init__(self, path: str, messages: list[str]) -> None:
        self.path = path
        self.messages = messages
        if len(messages) == 1:  # one finding: one line, as every bad input is told
            super().__init__(f"{path}: cannot read the domain: {messages[0]}")
            return
        body = "\n".join(f"  {m}" for m in messages)
        super().__init__(f"{path}: cannot read the domain:\n{body}")


def _field_path(loc: tuple[Any, ...], data: dict[str, Any]) -> str:
    parts: list[str] = []
    node: Any = data
    for item in loc:
        if isinstance(item, int):
            name = ""
            if isinstance(node, list) and 0 <= item < len(node) and isinstance(node[item], dict):
                name = node[item].get("name", "")
            parts[-1] = (
                f"{parts[-1]}[{item}]" + (f" ({name})" if name else "") if parts else f"[{item}]"
            )
            node = node[item] if isinstance(node, list) and 0 <= item < len(node) else None
        else:
            parts.append(str(item))
            node = node.get(item) if isinstance(node, dict) else None
    return ".".join(parts) or "(top level)"


# How deep arrays and inline tables may nest in a KB file.  Python's TOML reader recurses
# once per level (about 300 levels exhaust its stack); no domain needs more than a handful.
MAX_TOML_DEPTH = 100

_TOML_TOKEN = re.compile(r'"""|\'\'\'|["\'#\[\]{}\n]')


def _too_deep(text: str, limit: int = MAX_TOML_DEPTH) -> tuple[int, int] | None:
    """Line and column of the first ``[`` or ``{`` nested deeper than ``limit``, or None.

    A linear scan that skips strings and comments, so that a bracket inside text does not
    count; whatever it gets wrong about malformed text, the TOML reader reports.
    """
    depth, line, line_start, i = 0, 1, 0, 0
    while (match := _TOML_TOKEN.search(text, i)) is not None:
        token, i = match.group(), match.end()
        if token == "\n":
            line, line_start = line + 1, i
        elif token == "#":
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif token in ('"""', "'''", "'"):
            end = text.find(token, i)
            stop = len(text) if end < 0 else end + len(token)
            line += text.count("\n", i, stop)
            if "\n" in text[i:stop]:
                line_start = text.rfind("\n", i, stop) + 1
            i = stop
        elif token == '"':
            while i < len(text) and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
            i = min(i + 1, len(text)) if i < len(text) and text[i] == '"' else i
        elif token in "[{":
            depth += 1
            if depth > limit:
                return line, match.start() - line_start + 1
        else:
            depth = max(depth - 1, 0)
    return None


def _long_number(text: str) -> str:
    """Where the number too long to read is, for the message."""
    longest = sys.get_int_max_str_digits() or 4300
    match = re.search(rf"[0-9][0-9_]{{{longest},}}", text)
    if match is None:
        return "a number too long to read"
    line = text.count("\n", 0, match.start()) + 1
    column = match.start() - text.rfind("\n", 0, match.start())
    digits = sum(c.isdigit() for c in match.group())
    return f"line {line}, column {column}: a number of {digits} digits, too long to read"


def parse_domain_source(text: str, path: str = "<text>") -> DomainSpec:
    deep = _too_deep(text)
    if deep is not None:
        raise SourceError(
            path,
            [
                f"line {deep[0]}, column {deep[1]}: arrays and tables nested deeper than "
                f"{MAX_TOML_DEPTH} levels"
            ],
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(path, [f"TOML syntax: {exc}"]) from None
    except RecursionError:  # deeper than the scan above saw, in text it misread
        raise SourceError(path, ["TOML nested too deeply to read"]) from None
    except ValueError:  # int() refuses a literal of over 4,300 digits
        raise SourceError(path, [_long_number(text)]) from None
    try:
        return DomainSpec.model_validate(data)
    except ValidationError as exc:
        msgs = []
        for err in exc.errors():
            loc = tuple(
                x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-"))
            )
            msgs.append(f"field {_field_path(loc, data)}: {err['msg']}")
        raise SourceError(path, msgs) from None


def load_domain_file(path: str | Path) -> DomainSpec:
    """The domain in the KB source file at ``path``; :class:`SourceError` says what is wrong
    (no such file, a directory or device, the line and column of a byte that is not UTF-8,
    TOML syntax, a field)."""
    p = Path(path)
    try:
        text = read_text(p, bom=False)
    except TextFileError as exc:
        where = f"line {exc.line}, column {exc.column}: " if exc.line else ""
        raise SourceError(str(p), [where + exc.message]) from None
    return parse_domain_source(text, str(p))


def split_header(text: str) -> tuple[str, str]:
    """The leading comment block of a KB file (kept verbatim) and the rest."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and (lines[n].startswith("#") or not lines[n].strip()):
        n += 1
    # Trailing blank lines belong to neither: the writer puts exactly one back.
    header = "".join(lines[:n]).rstrip("\n")
    return header, "".join(lines[n:])


def dump_domain_source(spec: DomainSpec, header: str = "") -> str:
    """The canonical text of a domain: its header comment, then TOML in a fixed order.

    Reading this text back gives the same domain, and writing that domain gives the same
    text, byte for byte -- which is what lets the store and the files trade places.
    Defaults are left out so that files stay short and diffs stay small.
    """
    data = spec.model_dump(mode="json", exclude_defaults=True)
    body = tomli_w.dumps(data, multiline_strings=False)
    return (header + "\n\n" if header else "") + body


def parse_domain_file_text(text: str, path: str = "<text>") -> tuple[DomainSpec, str]:
    """A domain and its header comment."""
    header, _ = split_header(text)
    return parse_domain_source(text, path), header
