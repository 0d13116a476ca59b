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

:data:`FORMAT` is how the generic ``workbench kb`` commands see all of this (a
:class:`~knowledge.DomainFormat` of the ``hddl`` package): ``kb import`` reads domain files
with :func:`import_files`, ``kb export --format hddl`` writes :func:`hddl_text`, the store's
validator and ``kb lint`` call :func:`check_spec`, and ``kb lint`` reads the view's subtasks
with :func:`call_name`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from knowledge import DomainFormat, ImportedProblem

from .errors import HddlError, Issue

if TYPE_CHECKING:
    from engine.tofs import DomainSpec

    from .model import Domain, Pos, Problem

__all__ = [
    "EXTRA_KEY",
    "FORMAT",
    "LINT_SKIPS",
    "PACKAGE",
    "PROBLEM_KIND",
    "call_name",
    "check_spec",
    "domain_to_spec",
    "hddl_text",
    "import_files",
    "is_hddl_spec",
    "lint_findings",
    "looks_like_domain",
    "problem_store_name",
    "problem_text",
    "reads_file",
    "rename_import",
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
# A subtask as the derived view writes it: ``(drive ?v ?from ?to)``.
_CALL = re.compile(r"\s*\(\s*([^\s()]+)")

# ``kb lint`` reads an HDDL domain through its derived view, with subtasks read as HDDL calls
# (:func:`call_name`), and its ``compile`` rule re-reads the HDDL text (:func:`check_spec`)
# instead of compiling expressions.  Four rules do not apply: ``never-applicable`` and
# ``missing-label`` read the expression language (and HDDL tasks show as written,
# ``(deliver p1 north)``), an HDDL domain has no roots (a problem's task network says where
# planning starts), and ``cycle-without-operator`` is what HDDL search handles by pruning
# repeats on the path (9 of the 19 IPC 2020 total-order domains recurse on the left, e.g.
# ``get_to`` in Transport).
LINT_SKIPS = frozenset(("no-roots", "never-applicable", "cycle-without-operator", "missing-label"))


def looks_like_domain(text: str) -> bool:
    """Whether ``text`` starts (after comments) like an HDDL domain: ``(define (domain``."""
    return _DOMAIN_START.match(text.lstrip("\ufeff")) is not None


def reads_file(path: Path, text: str) -> bool:
    """Whether ``kb import`` takes a file as an HDDL domain: by its ``.hddl`` extension or
    its content (:func:`looks_like_domain`)."""
    return path.suffix.lower() == ".hddl" or looks_like_domain(text)


def call_name(text: str) -> str | None:
    """The task or action a subtask of the derived view calls (``drive`` for
    ``(drive ?v ?from ?to)``), or None when it is no call."""
    match = _CALL.match(text)
    return match.group(1) if match else None


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

    from engine.tofs.model import DomainSpec, MethodDef, OperatorDef, TaskDef

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
        spec = DomainSpec(
            name=view.name,
            tasks=[TaskDef(name=t.name, params=list(t.params)) for t in view.tasks],
            methods=[
                MethodDef(
                    name=m.name, task=m.task, precondition=m.precondition, subtasks=list(m.subtasks)
                )
                for m in view.methods
            ],
            operators=[
                OperatorDef(name=o.name, params=list(o.params), precondition=o.precondition)
                for o in view.operators
            ],
        )
    except ValueError as exc:  # a name HDDL cannot spell, or the store cannot take
        if isinstance(exc, ValidationError):
            detail = "; ".join(
                f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()
            )
            raise _error(path, f"the domain cannot be stored: {detail}") from None
        raise _error(path, f"the domain cannot be stored: {exc}") from None
    if description is None:
        description = f"HDDL, from {Path(domain.path).name}" if domain.path else "HDDL"
    return spec.model_copy(
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


def import_files(
    path: Path, text: str, problem_files: Sequence[str]
) -> tuple[DomainSpec, list[ImportedProblem]]:
    """An HDDL domain file (``text``, read from ``path``) and its problem files, read and
    checked in full, as the store takes them: the domain as :func:`domain_to_spec` gives it
    and each problem's canonical text (``kb import``, before the store is touched).

    A problem is stored under its file's name without ``.hddl`` (``pfile01``): the name in
    the file is no key, since IPC domains give many problems one name (every Freecell problem
    is ``p``), and importing one would silently replace another; two files of one name are
    refused.  Raises :class:`HddlError` (file, line, column) or ``OSError``."""
    from . import _read, parse_domain, parse_problem

    domain = parse_domain(text, str(path))
    spec = domain_to_spec(domain)
    problems: list[ImportedProblem] = []
    for file in problem_files:
        problem = parse_problem(_read(file), domain, file)
        name = problem_store_name(file)
        clash = next((p.file for p in problems if p.name.lower() == name.lower()), None)
        if clash is not None:
            raise _error(
                file,
                f"a problem named '{name}' comes from {clash} too (problems are stored "
                "under their file names)",
            )
        own = "" if problem.name == name else f" (problem {problem.name})"
        problems.append(
            ImportedProblem(
                file,
                name,
                PROBLEM_KIND,
                problem_text(problem),
                f"HDDL{own}, from {Path(file).name}",
            )
        )
    return spec, problems


def rename_import(
    spec: DomainSpec, problems: list[ImportedProblem], name: str
) -> tuple[DomainSpec, list[ImportedProblem]]:
    """An imported domain and its problems under the domain name ``name`` (``kb import
    --as``): the name is part of the HDDL text -- ``(domain NAME)``, and each problem's
    ``(:domain NAME)`` -- so both are re-read, renamed and written again, and the problems
    still plan with the domain."""
    from dataclasses import replace

    from . import parse_problem

    domain = spec_to_domain(spec)
    renamed = replace(domain, name=name.lower())
    if renamed.name != name:
        raise _error(
            domain.path or "<domain>",
            f"--as {name}: an HDDL domain's name is lower case (HDDL ignores case); "
            f"use --as {name.lower()}",
        )
    new = domain_to_spec(renamed, spec.description).model_copy(update={"tests": spec.tests})
    out = []
    for p in problems:
        problem = parse_problem(p.text, domain, p.file)
        out.append(p._replace(text=problem_text(replace(problem, domain=renamed.name))))
    return new, out


def lint_findings(spec: DomainSpec, problems: Sequence[str]) -> list[tuple[str, str, str, str]]:
    """``kb lint``'s HDDL findings (:func:`knowledge.hddl.reachability.domain_findings`):
    a predicate a precondition needs that no action adds and no stored problem's initial
    state holds, and a method that can never apply -- each with the line of the HDDL text
    it is declared on; and the slips the text shows by itself (:func:`slips`), their kind
    marked ``slip:`` for the ``slip`` rule.  A task no method decomposes is the generic
    ``task-without-methods`` rule's; a text or problem that does not read is the
    ``compile`` rule's (none here)."""
    from . import parse_problem
    from .reachability import domain_findings

    try:
        domain = spec_to_domain(spec)
        parsed = [parse_problem(text, domain) for text in problems]
    except HddlError:
        return []
    inits = [p.init for p in parsed]
    out: list[tuple[str, str, str, str]] = []
    for f in domain_findings(domain, inits):
        line = f"line {f.line}" if f.line is not None else ""
        if f.kind == "predicate":
            out.append(("domain", f.name, line, f.message))
        elif f.kind == "method":
            task = next(m.task.name for m in domain.methods if m.name == f.name)
            out.append(("method", f"{task}.{f.name}", line, f.message))
    first = parsed[0] if parsed else None
    out += [(f"slip:{kind}", name, line, msg) for kind, name, line, msg in slips(domain, first)]
    return out


def slips(domain: Domain, problem: Problem | None) -> list[tuple[str, str, str, str]]:
    """``kb lint``'s ``slip`` findings (:mod:`knowledge.hddl.slips`): what the text shows
    by itself of a slip, each as (kind, name, line, message) -- the same findings that lead
    "Where to look first" when a problem has no plan."""
    from .slips import Slips, call_text

    found = Slips(domain, problem)
    out: list[tuple[str, str, str, str]] = []

    def at(pos: Pos | None) -> str:
        return f"line {pos.line}" if pos is not None else ""

    for action, atom in found.deletes_what_is_false():
        text = call_text(atom.predicate, atom.args)
        out.append(
            (
                "operator",
                action.name,
                at(action.pos),
                f"needs (not {text}) and deletes {text}, which can never do anything",
            )
        )
    for action, came, left, lacking in found.half_moves():
        out.append(
            (
                "operator",
                action.name,
                at(action.pos),
                f"adds {call_text(came.predicate, came.args)} but, deleting "
                f"{call_text(left.predicate, left.args)}, adds no {lacking}",
            )
        )
    idle = found.idle_parameter()
    if idle is not None:
        action, param, literal = idle
        out.append(
            (
                "operator",
                action.name,
                at(action.pos),
                f"takes {param.name} but no literal of it uses it (should its effect add "
                f"{literal}?)",
            )
        )
    for method, step, var in found.twice():
        call = method.subtasks[step]
        out.append(
            (
                "method",
                f"{method.task.name}.{method.name}",
                at(call.pos or method.pos),
                f"step {step + 1}, {call_text(call.name, call.args)}, passes {var} twice",
            )
        )
    for need in found.needs():
        if need.strong and need.others:
            types = " and ".join("/".join(t) for t in need.slots)
            out.append(
                (
                    "domain",
                    need.pred,
                    at(need.pos),
                    f"`{need.pred}` for a {types} is needed by {', '.join(need.users)}, but "
                    f"no action adds it for these types (only {', '.join(need.others)}, for "
                    "others)",
                )
            )
    return out


FORMAT = DomainFormat(
    name="hddl",
    title="HDDL",
    extra_key=EXTRA_KEY,
    problem_kind=PROBLEM_KIND,
    reads=reads_file,
    read=import_files,
    write=hddl_text,
    check=check_spec,
    call_name=call_name,
    lint_skips=LINT_SKIPS,
    lint=lint_findings,
    rename=rename_import,
)
