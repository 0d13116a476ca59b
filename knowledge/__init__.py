"""Knowledge packages, one per domain.  Each registers itself here.

A package exposes a :class:`KnowledgePackage`: its domains (spec + registry), its named
problems, and optionally a loader for problem files (EDAPS designs, PBN deals).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.tofs import Domain, DomainSpec, Problem, Registry, compile_domain, load_domain_file

__all__ = ["KnowledgePackage", "PackageError", "get_package", "package_names"]

# Name -> module; a package is imported only when asked for.
_PACKAGES = {"examples": "knowledge.examples"}


class PackageError(LookupError):
    """An unknown package or problem name; the message lists what exists."""


@dataclass
class KnowledgePackage:
    name: str
    description: str
    sources: dict[str, Path]
    registries: dict[str, Registry]
    problems: dict[str, Callable[[Domain], Problem]]
    problem_domain: dict[str, str]
    problem_descriptions: dict[str, str] = field(default_factory=dict)
    _compiled: dict[str, Domain] = field(default_factory=dict)

    def spec(self, domain: str) -> DomainSpec:
        return load_domain_file(self.sources[domain])

    def domain(self, domain: str, spec: DomainSpec | None = None) -> Domain:
        """The compiled domain (from its KB source file unless ``spec`` is given)."""
        if spec is not None:
            return compile_domain(spec, self.registries[domain])
        if domain not in self._compiled:
            self._compiled[domain] = compile_domain(self.spec(domain), self.registries[domain])
        return self._compiled[domain]

    def problem(self, name: str, spec: DomainSpec | None = None) -> tuple[Domain, Problem]:
        if name not in self.problems:
            raise PackageError(f"package '{self.name}' has no problem '{name}'; "
                               f"problems: {', '.join(sorted(self.problems))}")
        domain = self.domain(self.problem_domain[name], spec)
        return domain, self.problems[name](domain)


def package_names() -> list[str]:
    return sorted(_PACKAGES)


def get_package(name: str) -> KnowledgePackage:
    if name not in _PACKAGES:
        raise PackageError(f"no knowledge package '{name}'; packages: {', '.join(package_names())}")
    module = importlib.import_module(_PACKAGES[name])
    pkg: Any = module.package()
    return pkg
