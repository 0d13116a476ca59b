"""``workbench kb ...``: the knowledge store from the command line.

Every command reports problems as one clear message on stderr with exit status 1 (2 when
knowledge tests or lint find errors), never a traceback, and never leaves the store
half-written.

Nothing here knows a package's own language (HDDL): ``import`` and ``export --format``
go through the packages' formats (:class:`~knowledge.DomainFormat`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.tofs.source import SourceError
from engine.tofs.textfile import TextFileError, read_text

from ..batch import report_failures
from .catalog import domain_owner, open_store
from .store import KnowledgeStore, ProblemRow, Revision, StoreError

if TYPE_CHECKING:
    from knowledge import DomainFormat

__all__ = ["run_kb"]


def _err(message: str, status: int = 1) -> int:
    print(f"workbench: error: {message}", file=sys.stderr)
    return status


def _value(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):  # not JSON, or JSON Python will not hold: text
        return text


def _json(data: Any) -> int:
    print(json.dumps(data, indent=2, ensure_ascii=False))
    return 0


def _revision_dict(rev: Any, current: int | None = None) -> dict[str, Any]:
    out = {
        "revision": rev.id,
        "domain": rev.domain,
        "action": rev.action,
        "kind": rev.kind,
        "target": rev.target,
        "author": rev.author,
        "time": rev.created,
        "message": rev.message,
        "reverts": rev.reverts,
    }
    if current is not None:
        out["current"] = rev.id == current
    return out


def cmd_list(store: KnowledgeStore, args: argparse.Namespace) -> int:
    if args.json:
        if args.domain is None:
            return _json(
                [
                    {
                        "name": d.name,
                        "package": d.package,
                        "revision": d.revision,
                        "description": d.description,
                        "counts": d.counts,
                    }
                    for d in store.domains()
                ]
            )
        spec = store.load(args.domain)
        return _json(
            {
                "revision": store.revision(spec.name),
                "domain": spec.model_dump(mode="json"),
                "problems": store.problems(spec.name),
            }
        )
    if args.domain is None:
        for d in store.domains():
            counts = ", ".join(f"{v} {k}" for k, v in d.counts.items())
            print(f"{d.name:10s} r{d.revision:<5d} {d.package:10s} {counts}")
        return 0
    spec = store.load(args.domain)
    print(f"{spec.name} (revision {store.revision(spec.name)}): {spec.description}")
    print(f"roots: {', '.join(spec.roots) or '(none)'}")
    for t in spec.tasks:
        agent = f"; agent {t.agent}" if t.agent else ""
        print(f"task {t.name}({', '.join(t.params)}{agent})")
        for m in spec.methods:
            if m.task == t.name:
                body = m.operator if m.operator else ", ".join(m.subtasks or []) or "—"
                pre = "" if m.precondition == "True" else f" [{m.precondition}]"
                print(f"    {m.name}{pre}: {body}")
    for o in spec.operators:
        costs = ", ".join(f"{k} = {v}" for k, v in o.costs.items())
        print(f"operator {o.name}({', '.join(o.params)})" + (f": {costs}" if costs else ""))
    for c in spec.constants:
        print(f"constant {c.name} = {c.value!r}" + (f" {c.unit}" if c.unit else ""))
    for p in store.problems(spec.name):
        print(f"problem {p['name']} ({p['kind']})")
    for kt in spec.tests:
        print(f"test {kt.name!r} on {kt.problem}")
    return 0


def _an(title: str) -> str:
    """``title`` with its article: "an HDDL", "a PDDL", "an Ontology"."""
    vowel = title[:1] in "AEFHILMNORSX" if title.isupper() else title[:1].lower() in "aeiou"
    return f"{'an' if vowel else 'a'} {title}"


def _read_source(path: Path) -> str:
    """The text of a file given to ``kb import``, or a :class:`StoreError` naming it: the
    shared reader's message (a directory, a device or pipe -- never waited on -- or the
    line and column of a byte that is not UTF-8), and a link that leads nowhere."""
    if path.is_symlink() and not path.exists():
        raise StoreError(f"{path} is a link to nothing ({path.readlink()}); nothing was imported")
    try:
        return read_text(path, bom=False)
    except TextFileError as exc:
        raise StoreError(f"{exc}; nothing was imported") from None


def _imported(args: argparse.Namespace, path: Path, rev: Revision) -> None:
    """The line ``kb import`` prints for the domain."""
    if rev.unchanged:
        print(
            f"{path} is what the store holds as domain '{rev.domain}' (revision {rev.id}); "
            "the domain is unchanged"
        )
    else:
        print(f"imported {path} as domain '{rev.domain}', revision {rev.id}")


def cmd_import(store: KnowledgeStore, args: argparse.Namespace) -> int:
    from knowledge import domain_formats, format_of

    path = Path(args.source)
    if path.exists() or path.is_symlink():
        text = _read_source(path)
        name = path.stem
        for owner_name, fmt in domain_formats():
            if fmt.reads(path, text):
                return _import_format(
                    store, args, path, text.removeprefix("\ufeff"), owner_name, fmt
                )
    else:
        owner = domain_owner(args.source)
        if owner is None:
            return _err(f"{args.source}: no such file, and no bundled domain of that name")
        from knowledge import get_package

        path = get_package(owner[0]).sources[args.source]
        text, name = path.read_text(encoding="utf-8"), args.source
    if args.problems:
        domains = " or ".join(f"{_an(f.title)} domain" for _, f in domain_formats())
        return _err(
            f"problem files are imported with {domains or 'a domain in a package format'}, "
            f"and {path} is not one (workbench kb import DOMAIN PROBLEM ...); "
            "nothing was imported"
        )
    package = args.package or (domain_owner(name) or (None,))[0]
    if package is None:
        try:
            from engine.tofs.source import parse_domain_source

            spec = parse_domain_source(text, str(path))
        except SourceError as exc:
            return _err(str(exc))
        # A domain in a package's format exported as a KB source file (it carries its
        # text) comes back to that package.
        package = (domain_owner(spec.name) or format_of(spec) or ("",))[0]
    rev = store.import_text(
        text,
        package=package or "",
        path=str(path),
        base=args.base,
        replace=args.replace,
        name=args.store_as,
    )
    if args.json:
        return _json(_revision_dict(rev) | {"unchanged": rev.unchanged})
    _imported(args, path, rev)
    return 0


def _import_format(
    store: KnowledgeStore,
    args: argparse.Namespace,
    path: Path,
    text: str,
    package: str,
    fmt: DomainFormat,
) -> int:
    """A domain file in a package's format and its problem files, read and checked in full
    (:attr:`DomainFormat.read`) before the store is touched, then written as one revision
    (the problems in the same transaction; the store's knowledge tests of the domain are
    kept, the file has none)."""
    if args.package not in (None, package):
        return _err(
            f"{path} is {_an(fmt.title)} domain: its package is '{package}', not '{args.package}'"
        )
    try:
        spec, problems = fmt.read(path, text, args.problems)
        if args.store_as is not None:
            if fmt.rename is None:
                return _err(f"{path}: {_an(fmt.title)} domain cannot be imported under --as")
            spec, problems = fmt.rename(spec, problems, args.store_as)
    except ValueError as exc:
        return _err(f"{exc}\nnothing was imported")
    if store.has_domain(spec.name):
        owner = store.package_of(spec.name)
        if owner != package:
            return _err(
                f"{path}: the store's domain '{spec.name}' belongs to package "
                f"'{owner}'; {_an(fmt.title)} domain of that name cannot replace "
                "it; nothing was imported"
            )
    rev = store.import_spec(
        spec,
        package=package,
        path=str(path),
        problems=[ProblemRow(p.name, p.kind, p.text, p.description, p.file) for p in problems],
        base=args.base,
        replace=args.replace,
        keep_tests=True,
        renamable=fmt.rename is not None,
    )
    if args.json:
        return _json(
            _revision_dict(rev)
            | {"unchanged": rev.unchanged, "problems": [p.name for p in problems]}
        )
    _imported(args, path, rev)
    for p in problems:
        print(f"imported {p.file} as problem '{p.name}' of '{rev.domain}'")
    return 0


def cmd_export(store: KnowledgeStore, args: argparse.Namespace) -> int:
    if args.format != "kb":
        text = _format_export(store, args)
        if text is None:
            return 1
    elif args.problem:
        from knowledge import domain_formats

        formats = [f for _, f in domain_formats()]
        return _err(
            f"--problem exports a stored {' or '.join(f.title for f in formats)} problem: "
            f"add {' or '.join(f'--format {f.name}' for f in formats)}"
        )
    else:
        text = store.export(args.domain)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    else:
        sys.stdout.write(text)
    return 0


def _format_export(store: KnowledgeStore, args: argparse.Namespace) -> str | None:
    """The text of a stored domain in the package format ``--format`` (or of its problem
    ``--problem``); None when there is none, having said why."""
    from knowledge import domain_formats

    fmt = next(f for _, f in domain_formats() if f.name == args.format)
    spec = store.load(args.domain)
    if fmt.extra_key not in spec.extra:
        _err(
            f"domain '{args.domain}' (package '{store.package_of(args.domain)}') is not "
            f"{_an(fmt.title)} domain; export it as a KB source file (without --format "
            f"{fmt.name})"
        )
        return None
    if args.problem is None:
        try:
            return fmt.write(spec)
        except ValueError as exc:
            _err(str(exc))
            return None
    stored = {p["name"].lower(): p for p in store.problems(args.domain)}
    row = stored.get(args.problem.lower())
    if row is None or row["kind"] != fmt.problem_kind:
        names = ", ".join(p["name"] for p in stored.values() if p["kind"] == fmt.problem_kind)
        _err(
            f"domain '{args.domain}' has no {fmt.title} problem '{args.problem}' "
            f"(problems: {names or 'none'})"
        )
        return None
    return store.problem_text(args.domain, row["name"])


def cmd_lint(store: KnowledgeStore, args: argparse.Namespace) -> int:
    from .lint import lint_domain

    owner = domain_owner(args.domain)
    # A format's own findings (HDDL) read the stored problems' initial states too.
    texts = [store.problem_text(args.domain, p["name"]) for p in store.problems(args.domain)]
    problems = [t for t in texts if t is not None]
    findings = lint_domain(store.load(args.domain), owner[1] if owner else None, problems=problems)
    errors = sum(f.severity == "error" for f in findings)
    if args.json:
        _json(
            {
                "domain": args.domain,
                "errors": errors,
                "warnings": len(findings) - errors,
                "findings": [dataclasses.asdict(f) for f in findings],
            }
        )
        return 2 if errors else 0
    for f in findings:
        print(f)
    print(f"{args.domain}: {errors} error(s), {len(findings) - errors} warning(s)")
    return 2 if errors else 0


def cmd_test(store: KnowledgeStore, args: argparse.Namespace) -> int:
    """Run knowledge tests: domain by domain here, or all at once on a cluster."""
    from ..batch import interrupted, progress_bar
    from ..cluster import ClusterError, cluster_address, open_cluster
    from .testing import TestOutcome, jobs_for_tests, render_report, run_test_jobs

    domains = [args.domain] if args.domain else [d.name for d in store.domains()]
    failed = 0
    raised: list[tuple[str, str | None, str | None]] = []
    report: dict[str, list[dict[str, Any]]] = {}

    def show(domain: str, outcomes: list[TestOutcome]) -> None:
        nonlocal failed, raised
        if args.json:
            report[domain] = [
                {
                    "name": o.test.name,
                    "problem": o.test.problem,
                    "passed": o.passed,
                    "failures": o.failures,
                    "places": [
                        {
                            "role": p.role,
                            "text": p.blame.text,
                            "file": p.blame.file,
                            "line": p.blame.line,
                        }
                        for p in o.places
                    ],
                    "error": o.error,
                    "seconds": round(o.seconds, 4),
                }
                for o in outcomes
            ]
        else:
            print(render_report(domain, outcomes))
        failed += sum(not o.passed for o in outcomes)
        raised += [
            (f"{domain}: test {o.test.name}", o.error, o.traceback) for o in outcomes if o.traceback
        ]

    try:
        where = cluster_address(args.cluster)
        if where is None:  # here: each domain's report as soon as it has run
            for domain in domains:
                show(
                    domain,
                    run_test_jobs(jobs_for_tests(domain, store.load(domain), store, args.name)),
                )
        else:  # every domain's tests at once, so that the whole cluster has work
            jobs = [
                job
                for domain in domains
                for job in jobs_for_tests(domain, store.load(domain), store, args.name)
            ]
            with open_cluster(where) as executor:
                outcomes = run_test_jobs(jobs, executor, progress_bar(lambda o: o.test.name))
            for domain in domains:
                show(domain, [o for j, o in zip(jobs, outcomes, strict=True) if j.domain == domain])
    except ClusterError as exc:
        return _err(str(exc))
    except KeyboardInterrupt:
        return interrupted()
    if args.json:
        _json(report)
    if raised:
        return report_failures(raised, "test")
    return 2 if failed else 0


def cmd_history(store: KnowledgeStore, args: argparse.Namespace) -> int:
    if args.diff:
        diff = store.diff(args.domain, *args.diff)
        if args.json:
            return _json(
                {"domain": args.domain, "from": args.diff[0], "to": args.diff[1], "diff": diff}
            )
        sys.stdout.write(diff or "(no difference)\n")
        return 0
    current = store.revision(args.domain)
    if args.json:
        return _json([_revision_dict(r, current) for r in store.history(args.domain)])
    for rev in store.history(args.domain):
        mark = "*" if rev.id == current else " "
        print(f"{mark} {rev.summary()}")
    return 0


def cmd_undo_redo(store: KnowledgeStore, args: argparse.Namespace) -> int:
    step = store.undo if args.kb_command == "undo" else store.redo
    rev = step(args.domain, base=args.base)
    if args.json:
        return _json(_revision_dict(rev))
    print(
        f"{args.kb_command}: {rev.kind} {rev.target} (revision {rev.reverts}); domain "
        f"'{rev.domain}' is now at revision {rev.id}"
    )
    return 0


def cmd_set(store: KnowledgeStore, args: argparse.Namespace) -> int:
    """Set fields of one item; the item is read and written in one transaction
    (:meth:`KnowledgeStore.set_fields`), so concurrent ``kb set`` lose nothing."""
    fields: dict[str, Any] = {}
    for field in args.fields:
        key, sep, raw = field.partition("=")
        if not sep or not key:
            return _err(f"expected FIELD=VALUE, got '{field}'")
        fields[key] = _value(raw)
    rev = store.set_fields(
        args.domain, args.kind, args.name, fields, base=args.base, message=args.message
    )
    if args.json:
        return _json(_revision_dict(rev))
    print(
        f"{rev.action} {args.kind} {args.name}: domain '{args.domain}' is now at revision {rev.id}"
    )
    return 0


def cmd_delete(store: KnowledgeStore, args: argparse.Namespace) -> int:
    rev = store.edit(args.domain, args.kind, args.name, None, base=args.base)
    if args.json:
        return _json(_revision_dict(rev))
    print(f"deleted {args.kind} {args.name}: domain '{args.domain}' is now at revision {rev.id}")
    return 0


COMMANDS = {
    "list": cmd_list,
    "import": cmd_import,
    "export": cmd_export,
    "lint": cmd_lint,
    "test": cmd_test,
    "history": cmd_history,
    "undo": cmd_undo_redo,
    "redo": cmd_undo_redo,
    "set": cmd_set,
    "delete": cmd_delete,
}


def run_kb(args: argparse.Namespace) -> int:
    try:
        store = open_store(args.db)
    except StoreError as exc:
        return _err(str(exc))
    try:
        return COMMANDS[args.kb_command](store, args)
    except StoreError as exc:
        return _err(str(exc))
    except BrokenPipeError:
        raise  # the reader went away: cli.main ends quietly, as other Unix tools do
    except OSError as exc:
        return _err(f"{exc.filename or ''}: {exc.strerror or exc}")
    except Exception as exc:
        if os.environ.get("WORKBENCH_DEBUG"):
            raise
        return _err(f"unexpected {type(exc).__name__}: {exc} (set WORKBENCH_DEBUG=1 for details)")
    finally:
        store.close()
