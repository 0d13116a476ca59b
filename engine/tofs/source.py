"""KB source files: a domain as TOML text.

Reading reports bad input with the file, the line and column (TOML syntax) or the field
path (structure) and what was expected -- never a traceback.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import tomli_w
from pydantic import ValidationError

from .model import DomainSpec

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


def parse_domain_source(text: str, path: str = "<text>") -> DomainSpec:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(path, [f"TOML syntax: {exc}"]) from None
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
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise SourceError(str(p), [f"cannot open: {exc.strerror or exc}"]) from None
    except UnicodeDecodeError as exc:
        raise SourceError(str(p), [f"not UTF-8 text (byte {exc.start})"]) from None
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
