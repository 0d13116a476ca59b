"""KB source files: a domain as TOML text.

Reading reports bad input with the file, the line and column (TOML syntax) or the field
path (structure) and what was expected -- never a traceback.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .model import DomainSpec

__all__ = ["SourceError", "load_domain_file", "parse_domain_source"]


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
            parts[-1] = f"{parts[-1]}[{item}]" + (f" ({name})" if name else "") if parts else f"[{item}]"
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
            loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-")))
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
