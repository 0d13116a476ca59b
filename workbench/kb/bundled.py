"""What the shipped knowledge files declare, read as plain TOML (no package is compiled)."""

from __future__ import annotations

import tomllib

from knowledge import get_package, package_names

__all__ = ["declared_constant_types"]


def declared_constant_types() -> dict[tuple[str, str], str]:
    """(domain, constant) -> the type its shipped file declares."""
    out: dict[tuple[str, str], str] = {}
    for name in package_names():
        for domain, path in get_package(name).sources.items():
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            for c in data.get("constants", []):
                if "type" in c:
                    out[(domain, c["name"])] = c["type"]
    return out
