"""Finding knowledge packages by name: the shipped ones, and any installed distribution's.

A package is a :class:`~knowledge.contract.KnowledgePackage` subclass.  The shipped four are
named here; another distribution adds one through the entry-point group
:data:`ENTRY_POINT_GROUP` (in its ``pyproject.toml``::

    [project.entry-points."tofs_workbench.packages"]
    mine = "my_distribution.package:MyPackage"

naming the class, or a function returning an instance), after Harlequin's adapters.  Nothing
is imported until a package is asked for (each time anew).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING

from .contract import DomainFormat, KnowledgePackage, PackageError

if TYPE_CHECKING:
    from importlib import metadata

    from engine.tofs import DomainSpec

__all__ = [
    "ENTRY_POINT_GROUP",
    "domain_formats",
    "format_of",
    "get_package",
    "package_names",
]

ENTRY_POINT_GROUP = "tofs_workbench.packages"

# Name -> "module:attribute" of the shipped packages, which need no installed metadata (a
# source checkout run without installing still has them).
SHIPPED = {
    "examples": "knowledge.examples:ExamplesPackage",
    "edaps": "knowledge.edaps:EdapsPackage",
    "bridge": "knowledge.bridge:BridgePackage",
    "hddl": "knowledge.hddl.package:HddlPackage",
}

Factory = Callable[[], KnowledgePackage]


def _load(target: str) -> Factory:
    module, _, attribute = target.partition(":")
    factory: Factory = getattr(importlib.import_module(module), attribute)
    return factory


@cache
def _entry_points() -> dict[str, metadata.EntryPoint]:
    """Packages other distributions declare (the shipped names win a clash).  Read only
    when a name is not a shipped one, or every name is asked for: importing
    ``importlib.metadata`` and scanning the installed distributions is a tenth of a
    second of a command's start-up."""
    from importlib import metadata

    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def _targets() -> dict[str, str | metadata.EntryPoint]:
    found: dict[str, str | metadata.EntryPoint] = dict(_entry_points())
    found.update(SHIPPED)
    return found


def package_names() -> list[str]:
    return sorted(_targets())


def get_package(name: str) -> KnowledgePackage:
    """The package of that name (a new instance: its compiled domains are its own), or
    :class:`PackageError` listing those there are.  What an entry point names must make a
    :class:`KnowledgePackage`."""
    targets: dict[str, str | metadata.EntryPoint] = (
        {name: SHIPPED[name]} if name in SHIPPED else _targets()
    )
    if name not in targets:
        raise PackageError(f"no knowledge package '{name}'; packages: {', '.join(package_names())}")
    target = targets[name]
    factory: Factory = _load(target) if isinstance(target, str) else target.load()
    pkg = factory()
    if not isinstance(pkg, KnowledgePackage):
        raise PackageError(f"knowledge package '{name}' is not a KnowledgePackage ({pkg!r})")
    return pkg


def reset() -> None:
    """Forget the entry points seen and the formats found (tests that install one)."""
    _entry_points.cache_clear()
    domain_formats.cache_clear()


@cache
def domain_formats() -> tuple[tuple[str, DomainFormat], ...]:
    """(package name, format) of every package's :class:`DomainFormat`, by package name.

    Imports every package (once): ask only when a format is needed."""
    return tuple((name, fmt) for name in package_names() for fmt in get_package(name).formats)


def format_of(spec: DomainSpec) -> tuple[str, DomainFormat] | None:
    """(package name, format) of the format whose text ``spec`` holds, or None for a domain
    written in the expression language (a KB source file)."""
    return next(((p, f) for p, f in domain_formats() if f.extra_key in spec.extra), None)
