"""HDDL domains and problems in the knowledge store.

A stored HDDL domain is an ordinary :class:`~engine.tofs.DomainSpec` with two faces:

* ``extra["hddl"]``, the domain's canonical HDDL text (:func:`~knowledge.hddl.write_domain`),
  is the one source of truth: planning, export and validation re-read it.  It is kept as a
  list of lines, so that the store's history diffs (``kb history --diff``) show the lines of
  HDDL that changed rather than one long string.
* tasks, methods and operators are the derived view :func:`~knowledge.hddl.planning.hddl_spec`
  gives (HDDL names, preconditions and subtasks as HDDL text), so that ``kb list``, the
  knowledge tree and ``kb lint`` see the domain like any other.  The view is checked
  against the text whenever the store validates the domain (:func:`check_spec`): it cannot
  drift from what planning uses.

Problems are stored in the problems table with kind :data:`PROBLEM_KIND` and their
canonical HDDL text (:func:`~knowledge.hddl.write_problem`), under their file's name
(:func:`problem_store_name`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import HddlError, Issue

if TYPE_CHECKING:
    from engine.tofs import DomainSpec

    from .model import Domain, Problem

__all__ = [
    "EXTRA_KEY",
    "PACKAGE",
    "PROBLEM_KIND",
    "check_spec",
    "domain_to_spec",
    "hddl_text",
    "is_hddl_spec",
    "looks_like_domain",
    "problem_store_name",
    "problem_text",
    "spec_to_domain",
    "stored_path",
]

PACKAGE = "hddl"
EXTRA_KEY = "hddl"
PROBLEM_KIND = "hddl-problem"

# The store's names (engine.tofs.model's Identifier).
_STORE_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# A domain file: comments and space, then "(define (domain".
_DOMAIN_START = re.compile(r"\A(?:\s|;[^\n]*(?:\n|\Z))*\(\s*define\s*\(\s*domain\b", re.I)
# The parts of a domain the HDDL text determines (the rest -- description, roots, tests --
# is the store's own).
_DERIVED = ("constants", "tasks", "methods", "operators")


def looks_like_domain(text: str) -> bool:
    """Whether ``text`` starts (after comments) like an HDDL domain: ``(define (domain``."""
    return _DOMAIN_START.match(text.lstrip("\ufeff")) is not None


def stored_path(name: str) -> str:
    """What messages call the HDDL text of a stored domain, in place of a file name."""
    return f"{name} (stored HDDL)"


def is_hddl_spec(spec: DomainSpec) -> bool:
    """Whether ``spec`` is an HDDL domain as the store holds it."""
    return EXTRA_KEY in spec.extra


def _error(path: str, message: str) -> HddlError:
    return HddlError([Issue(path, 0, 0, message)])


def domain_to_spec(domain: Domain, description: str | None = None) -> DomainSpec:
    """``domain`` as the store holds it: the derived view, with the canonical HDDL text in
    ``extra["hddl"]``.  Raises :class:`HddlError` for a name the store cannot take."""
    from pydantic import ValidationError

    from .planning import hddl_spec
    from .writer import write_domain

    path = domain.path or "<domain>"
    if not _STORE_NAME.match(domain.name):
        raise _error(
            path,
            f"the domain name '{domain.name}' cannot name a domain in the store (a letter, "
            "then letters, digits, '_' or '-')",
        )
    try:
        text = write_domain(domain)
        view = hddl_spec(domain)
    except ValueError as exc:  # a name HDDL cannot spell, or the store cannot take
        if isinstance(exc, ValidationError):
            detail = "; ".join(
                f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()
            )
            raise _error(path, f"the domain cannot be stored: {detail}") from None
        raise _error(path, f"the domain cannot be stored: {exc}") from None
    if description is None:
        description = f"HDDL, from {Path(domain.path).name}" if domain.path else "HDDL"
    return view.model_copy(
        update={"description": description, "extra": {EXTRA_KEY: text.splitlines()}}
    )


def hddl_text(spec: DomainSpec) -> str:
    """The stored domain's HDDL text; :class:`HddlError` if ``spec`` holds none."""
    value: Any = spec.extra.get(EXTRA_KEY)
    path = stored_path(spec.name)
    if value is None:
        raise _error(
            path,
            f"domain '{spec.name}' is not an HDDL domain (it has no HDDL text); "
            "import one with: workbench kb import DOMAIN.hddl",
        )
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "\n".join(value) + "\n"
    raise _error(
        path,
        f"domain '{spec.name}' has damaged HDDL text (extra.{EXTRA_KEY} is a "
        f"{type(value).__name__}, not text); import the HDDL file again",
    )


def spec_to_domain(spec: DomainSpec) -> Domain:
    """The HDDL domain a stored ``spec`` holds, re-read from its text.

    Raises :class:`HddlError` when it holds none, or the text does not read (with the
    reader's line and column in the stored text), or it names another domain."""
    from . import parse_domain

    path = stored_path(spec.name)
    domain = parse_domain(hddl_text(spec), path)
    if domain.name != spec.name:
        raise _error(
            path,
            f"the HDDL text defines domain '{domain.name}', but it is stored as '{spec.name}'",
        )
    return domain


def check_spec(spec: DomainSpec) -> list[str]:
    """Every reason a stored HDDL domain is not what its text says (the store's validator).

    The text must read; the tasks, methods, operators (and constants: none) must be the
    view derived from it, since planning uses the text and would ignore an edit of the
    view."""
    try:
        domain = spec_to_domain(spec)
        derived = domain_to_spec(domain)
    except HddlError as exc:
        return [str(issue) for issue in exc.issues]
    changed = [
        kind
        for kind in _DERIVED
        if [item.model_dump() for item in getattr(spec, kind)]
        != [item.model_dump() for item in getattr(derived, kind)]
    ]
    if changed:
        return [
            f"the {', '.join(changed)} of HDDL domain '{spec.name}' are derived from its "
            "HDDL text and cannot be edited one by one: change the HDDL and import it "
            "again (workbench kb import DOMAIN.hddl)"
        ]
    return []


def problem_store_name(path: str | Path) -> str:
    """The name a problem file is stored (and planned) under: its file name without
    ``.hddl``.  Not the name inside the file, which IPC domains reuse (every Freecell
    problem is ``p``, every Factories one ``generated``)."""
    name = Path(path).name
    return name[: -len(".hddl")] if name.lower().endswith(".hddl") else name


def problem_text(problem: Problem) -> str:
    """A problem's canonical HDDL text, as the store keeps it."""
    from .writer import write_problem

    try:
        return write_problem(problem)
    except ValueError as exc:
        raise _error(problem.path or "<problem>", f"the problem cannot be stored: {exc}") from None
