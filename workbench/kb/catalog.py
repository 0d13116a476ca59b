"""Where the store meets the knowledge packages.

The store holds data; the packages hold the Python primitives that make the data runnable.
This module knows both: which package owns a domain, how to validate an edit (compile the
domain with its own registry, or check it with its package's format when it is written in
one, so an edit that would break a run never reaches the file),
where the default database lives, and how to seed it from the bundled knowledge.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import platformdirs

from engine.tofs import DomainError, DomainSpec, Registry, compile_domain
from knowledge import KnowledgePackage, format_of, get_package, package_names

from .store import KnowledgeStore, NameTaken

__all__ = [
    "default_db_path",
    "domain_owner",
    "open_store",
    "seed",
    "stored_knowledge",
    "validate",
]


@cache
def _owners() -> dict[str, tuple[str, Registry]]:
    out: dict[str, tuple[str, Registry]] = {}
    for name in package_names():
        pkg = get_package(name)
        for domain, registry in pkg.registries.items():
            out[domain] = (name, registry)
    return out


def domain_owner(domain: str) -> tuple[str, Registry] | None:
    """(package name, registry) of a bundled domain, or None for a domain we cannot run."""
    return _owners().get(domain)


def validate(domain: str, spec: DomainSpec) -> list[str]:
    """Every reason ``spec`` could not run: a full compile with the domain's primitives; for
    a domain written in a package's own language (HDDL), that package's check of the text
    it holds (:attr:`knowledge.DomainFormat.check`: the text re-read, and the view derived
    from it unchanged).

    The format is found by the spec, not by the package the store files the domain under:
    the text is what planning reads, whatever package a KB source file was imported to."""
    owner = domain_owner(domain)
    if spec.name != domain:
        return [f"the domain is called '{spec.name}', not '{domain}'"]
    found = format_of(spec)
    if found is not None:
        return found[1].check(spec)
    if owner is None:
        return []
    try:
        compile_domain(spec, owner[1])
    except DomainError as exc:
        return [str(p) for p in exc.problems]
    return []


def default_db_path() -> Path:
    """``$WORKBENCH_DB``, or ``workbench.db`` in the user's data directory."""
    env = os.environ.get("WORKBENCH_DB")
    if env:
        return Path(env)
    return platformdirs.user_data_path("tofs-workbench", appauthor=False) / "workbench.db"


def seed(store: KnowledgeStore, packages: list[str] | None = None) -> list[str]:
    """Import every bundled domain the store lacks, with its problems and primitives.

    Without ``packages``, a package that already owns a domain in the store is not even
    imported: opening the store must cost milliseconds, not the half second that loading
    every package takes (a domain added to an existing package later is imported with
    ``seed(store, [package])`` or ``kb import``)."""
    added = []
    have = store.packages() if packages is None else set()
    for name in packages or package_names():
        if name in have:
            continue
        pkg = get_package(name)
        for domain, source in pkg.sources.items():
            if store.has_domain(domain):
                continue
            try:
                rev = store.import_text(
                    source.read_text(encoding="utf-8"),
                    package=name,
                    path=str(source.name),
                    author="seed",
                    message="bundled knowledge",
                )
            except NameTaken:  # another process seeded it, and it was edited since
                continue
            if rev.unchanged:  # another process seeded it a moment ago
                continue
            _seed_problems(store, pkg, domain)
            added.append(domain)
    return added


def _seed_problems(store: KnowledgeStore, pkg: KnowledgePackage, domain: str) -> None:
    registry = pkg.registries[domain]
    store.set_primitives(
        domain, [(p.name, p.signature, p.doc, p.uses_state) for p in registry.primitive_docs()]
    )
    for problem, owner in sorted(pkg.problem_domain.items()):
        if owner != domain:
            continue
        files = pkg.problem_files.get(problem)
        if files is not None:
            store.set_problem(
                domain,
                problem,
                pkg.problem_kind,
                files.read_text("utf-8"),
                pkg.problem_descriptions.get(problem, ""),
            )
        else:
            store.set_problem(
                domain, problem, "builtin", "", pkg.problem_descriptions.get(problem, "")
            )


def stored_knowledge(
    path: str | Path | None, domain: str, problem: str | None = None
) -> tuple[DomainSpec, str | None]:
    """A domain as the store holds it now, and a problem's stored text (None when the store
    has no such problem, e.g. a design given as a file): what every command plans with."""
    store = open_store(path)
    try:
        text = store.problem_text(domain, problem) if problem is not None else None
        return store.load(domain), text
    finally:
        store.close()


def open_store(path: str | Path | None = None, *, seed_bundled: bool = True) -> KnowledgeStore:
    """Open the store at ``path`` or the default, adding any bundled domain it lacks: on
    first use all of them, and after an upgrade the ones shipped since (a store made
    before a package existed gets that package's domain the next time it opens)."""
    target = Path(path) if path is not None else default_db_path()
    if path is None:
        target.parent.mkdir(parents=True, exist_ok=True)
    store = KnowledgeStore(target, validator=validate)
    if seed_bundled and not store.read_only:  # a read-only store is read as it is
        seed(store)
    return store
