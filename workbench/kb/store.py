"""The knowledge store: domains, their knowledge, problems and history in one SQLite file.

Design choices, and why:

* **Every change is a revision** holding who, when, what (the item before and after) and a
  snapshot of the whole domain's canonical text.  Snapshots make undo, redo and the diff
  between *any* two revisions exact and simple, at a few tens of kilobytes per edit.
* **Optimistic concurrency.**  An edit names the revision it was based on; inside an
  ``IMMEDIATE`` transaction the store checks that this is still the latest and refuses the
  edit otherwise, so two workbench processes never overwrite each other silently.
* **Validation before writing.**  The new domain is built and checked (model rules, then
  the caller's validator -- normally a full compile with the domain's primitives) before a
  transaction starts, so a rejected edit writes nothing at all.
* **One connection per thread** (SQLite objects cannot cross threads), WAL so readers do
  not block the writer, a busy timeout, and foreign keys on.
* **A file that is not ours is never touched**: its header is read before anything else.
"""

from __future__ import annotations

import difflib
import getpass
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from engine.tofs import DomainSpec
from engine.tofs.model import ConstantDef, KnowledgeTest, MethodDef, OperatorDef, TaskDef
from engine.tofs.source import SourceError, dump_domain_source, parse_domain_file_text

from .schema import MIGRATIONS, SCHEMA_VERSION

if TYPE_CHECKING:
    from .sqlite import Database

__all__ = [
    "KINDS",
    "EditRejected",
    "KnowledgeStore",
    "NotAStore",
    "Revision",
    "StaleRevision",
    "StoreError",
    "UnknownItem",
    "find_item",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
KINDS = ("constant", "task", "method", "operator", "test")
Validator = Callable[[str, DomainSpec], list[str]]


class StoreError(Exception):
    """Something the user must be told; the message says what and where."""


class NotAStore(StoreError):
    """The file is not a workbench database (or is damaged, or from a newer program)."""


class StaleRevision(StoreError):
    """The domain changed since the revision an edit was based on."""


class EditRejected(StoreError):
    """An edit failed validation; nothing was written."""

    def __init__(self, domain: str, what: str, problems: list[str]) -> None:
        self.problems = problems
        body = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"{what} in domain '{domain}' was rejected; nothing was changed:\n{body}")


class UnknownItem(StoreError):
    """No such domain, item, revision or problem."""


@dataclass(frozen=True)
class Revision:
    id: int
    domain: str
    author: str
    created: str
    action: str  # import, create, update, delete, reorder, undo, redo
    kind: str  # domain, constant, task, method, operator, test
    target: str
    before: Any
    after: Any
    parent: int | None
    reverts: int | None
    message: str

    def summary(self) -> str:
        what = self.target if self.kind == "domain" else f"{self.kind} {self.target}"
        extra = f" (revision {self.reverts})" if self.reverts else ""
        note = f": {self.message}" if self.message else ""
        return f"r{self.id} {self.created} {self.author} {self.action} {what}{extra}{note}"


@dataclass(frozen=True)
class DomainInfo:
    name: str
    package: str
    description: str
    revision: int
    counts: dict[str, int]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _author() -> str:
    try:
        return os.environ.get("WORKBENCH_AUTHOR") or getpass.getuser()
    except Exception:
        return "unknown"


def _j(value: Any) -> str:
    # Key order is kept: it is part of the canonical text (costs list setup before run).
    return json.dumps(value, ensure_ascii=False)


# ----------------------------------------------------------------- items <-> spec


def item_key(kind: str, item: Any) -> str:
    """The name an item is edited by: methods are ``Task.Method``."""
    return f"{item.task}.{item.name}" if kind == "method" else item.name


def _items(spec: DomainSpec, kind: str) -> list[Any]:
    lists: dict[str, list[Any]] = {
        "constant": spec.constants,
        "task": spec.tasks,
        "method": spec.methods,
        "operator": spec.operators,
        "test": spec.tests,
    }
    return lists[kind]


def find_item(spec: DomainSpec, kind: str, name: str) -> Any | None:
    """The item of ``kind`` called ``name`` (methods: ``Task.Method``), or None."""
    return next((it for it in _items(spec, kind) if item_key(kind, it) == name), None)


_MODELS: dict[str, type[BaseModel]] = {
    "constant": ConstantDef,
    "task": TaskDef,
    "method": MethodDef,
    "operator": OperatorDef,
    "test": KnowledgeTest,
}
_FIELDS = {
    "constant": "constants",
    "task": "tasks",
    "method": "methods",
    "operator": "operators",
    "test": "tests",
}


def apply_change(
    spec: DomainSpec, kind: str, name: str, value: Mapping[str, Any] | None
) -> tuple[DomainSpec, Any, Any]:
    """The domain with one item created, replaced (same position) or deleted (``None``).

    Returns the new domain, the item before and the item after (as dicts, or None).
    Raises ValueError/ValidationError for a malformed item.
    """
    if kind not in _MODELS:
        raise ValueError(f"unknown kind '{kind}'; kinds are {', '.join(KINDS)}")
    items = list(_items(spec, kind))
    index = next((i for i, it in enumerate(items) if item_key(kind, it) == name), None)
    before = items[index].model_dump(mode="json") if index is not None else None
    after = None
    if value is None:
        if index is None:
            raise UnknownItem(f"domain '{spec.name}' has no {kind} '{name}'")
        del items[index]
    else:
        item = _MODELS[kind].model_validate(dict(value))
        if item_key(kind, item) != name:
            raise ValueError(
                f"the {kind} is called '{item_key(kind, item)}', not '{name}' "
                "(to rename, delete and create)"
            )
        after = item.model_dump(mode="json")
        if index is None:
            if kind == "method":  # a new method goes after its task's last method
                assert isinstance(item, MethodDef)
                last = max(
                    (i for i, m in enumerate(items) if m.task == item.task), default=len(items) - 1
                )
                items.insert(last + 1, item)
            else:
                items.append(item)
        else:
            items[index] = item
    new = DomainSpec.model_validate(spec.model_dump() | {_FIELDS[kind]: items})
    return new, before, after


# ----------------------------------------------------------------- the store


class KnowledgeStore:
    """One SQLite file of knowledge.  Safe to share between threads."""

    def __init__(self, path: str | Path, validator: Validator | None = None) -> None:
        self.path = Path(path)
        self.validator = validator
        self._local = threading.local()
        self._check_file()
        self._migrate()

    # .................................................................. connections
    def _check_file(self) -> None:
        p = self.path
        if p.is_dir():
            raise NotAStore(f"{p} is a directory, not a workbench database")
        if p.exists() and p.stat().st_size > 0:
            try:
                with p.open("rb") as fh:
                    head = fh.read(16)
            except OSError as exc:
                raise NotAStore(f"{p}: cannot read: {exc.strerror}") from None
            if head != SQLITE_MAGIC:
                raise NotAStore(
                    f"{p} is not a workbench database (it is not an SQLite file); "
                    "it was left untouched"
                )
        elif not p.parent.exists():
            raise NotAStore(f"{p}: the folder {p.parent} does not exist")

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        conn.execute("PRAGMA busy_timeout = 10000")
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def _conn(self) -> sqlite3.Connection:
        """This thread's connection: reads go straight to it."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._local.conn = self._connect()
        return conn

    @property
    def db(self) -> Database:
        """sqlite-utils on this thread's connection, for writing: loaded only when a command
        writes, since reading a domain to plan it needs none of it."""
        db = getattr(self._local, "db", None)
        if db is None:
            from .sqlite import Database

            db = self._local.db = Database(self._conn())
        return db

    def _query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        """Rows as dicts, as ``Database.query`` gives them."""
        cursor = self._conn().execute(sql, params)
        keys = [d[0] for d in cursor.description]
        for row in cursor:
            yield dict(zip(keys, row, strict=True))

    def close(self) -> None:
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = self._local.db = None

    @contextmanager
    def _write(self) -> Iterator[Database]:
        """A write transaction that takes the lock at once (so checks inside it hold)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _migrate(self) -> None:
        conn = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        try:
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                tables = [
                    r[0]
                    for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                ]
            except sqlite3.DatabaseError as exc:
                raise NotAStore(
                    f"{self.path} is damaged or not a database (SQLite says: "
                    f"{exc}); it was left untouched"
                ) from None
            if version == 0 and tables:
                raise NotAStore(
                    f"{self.path} is an SQLite file but not a workbench database "
                    f"(it has tables {', '.join(sorted(tables)[:5])}); it was left "
                    "untouched"
                )
            if version > SCHEMA_VERSION:
                raise NotAStore(
                    f"{self.path} was written by a newer workbench (schema "
                    f"{version}; this one knows {SCHEMA_VERSION}); it was left "
                    "untouched"
                )
            if version == SCHEMA_VERSION:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            if version > 0:
                backup = self.path.with_name(f"{self.path.name}.v{version}.bak")
                dest = sqlite3.connect(backup)
                with dest:
                    conn.backup(dest)
                dest.close()
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA foreign_keys = ON")
            from .sqlite import Database

            db = Database(conn)
            for number in range(version + 1, SCHEMA_VERSION + 1):
                conn.execute("BEGIN IMMEDIATE")
                try:
                    MIGRATIONS[number - 1](db)
                    conn.execute(f"PRAGMA user_version = {number}")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        finally:
            conn.close()

    # .................................................................. reading
    def domains(self) -> list[DomainInfo]:
        out = []
        for row in self._conn().execute(
            "SELECT name, package, description, revision FROM domains ORDER BY name"
        ):
            counts = {
                kind: self._conn()
                .execute(f"SELECT count(*) FROM {table} WHERE domain = ?", [row[0]])
                .fetchone()[0]
                for kind, table in (
                    ("constants", "constants"),
                    ("tasks", "tasks"),
                    ("methods", "methods"),
                    ("operators", "operators"),
                    ("tests", "knowledge_tests"),
                    ("problems", "problems"),
                )
            }
            out.append(DomainInfo(row[0], row[1], row[2] or "", row[3], counts))
        return out

    def packages(self) -> set[str]:
        """The packages that own at least one domain here."""
        return {str(r[0]) for r in self._conn().execute("SELECT DISTINCT package FROM domains")}

    def has_domain(self, domain: str) -> bool:
        return (
            self._conn().execute("SELECT 1 FROM domains WHERE name = ?", [domain]).fetchone()
            is not None
        )

    def _domain_row(self, domain: str) -> dict[str, Any]:
        rows = list(self._query("SELECT * FROM domains WHERE name = ?", [domain]))
        if not rows:
            known = ", ".join(d.name for d in self.domains()) or "none"
            raise UnknownItem(f"no domain '{domain}' in {self.path} (domains: {known})")
        return rows[0]

    def revision(self, domain: str) -> int:
        return int(self._domain_row(domain)["revision"])

    def package_of(self, domain: str) -> str:
        return str(self._domain_row(domain)["package"])

    def load(self, domain: str) -> DomainSpec:
        """The domain as it is now, built from its item rows."""
        row = self._domain_row(domain)
        q = self._query
        constants = [
            ConstantDef(
                name=r["name"],
                value=json.loads(r["value"]),
                type=r["type"],
                description=r["description"],
                unit=r["unit"],
            )
            for r in q("SELECT * FROM constants WHERE domain = ? ORDER BY pos", [domain])
        ]
        tasks = [
            TaskDef(
                name=r["name"],
                params=json.loads(r["params"]),
                agent=r["agent"],
                label=r["label"],
                description=r["description"],
                partial_plan_prune=bool(r["partial_plan_prune"]),
            )
            for r in q("SELECT * FROM tasks WHERE domain = ? ORDER BY pos", [domain])
        ]
        subtasks: dict[tuple[str, str], list[str]] = {}
        for r in q(
            "SELECT * FROM method_subtasks WHERE domain = ? ORDER BY task, method, pos", [domain]
        ):
            subtasks.setdefault((r["task"], r["method"]), []).append(r["call"])
        methods = []
        for r in q("SELECT * FROM methods WHERE domain = ? ORDER BY pos", [domain]):
            body = {
                k: r[k]
                for k in (
                    "label",
                    "description",
                    "precondition",
                    "weight",
                    "assumption",
                    "critic",
                    "belief_view",
                )
                if r[k] is not None
            }
            if r["decomposes"]:
                body["subtasks"] = subtasks.get((r["task"], r["name"]), [])
            else:
                body["operator"] = r["operator"]
            methods.append(
                MethodDef(
                    name=r["name"], task=r["task"], bindings=json.loads(r["bindings"]), **body
                )
            )
        operators = [
            OperatorDef(
                name=r["name"],
                params=json.loads(r["params"]),
                precondition=r["precondition"],
                effect=r["effect"],
                costs=json.loads(r["costs"]),
                group=r["grp"],
                description=r["description"],
            )
            for r in q("SELECT * FROM operators WHERE domain = ? ORDER BY pos", [domain])
        ]
        tests = [
            KnowledgeTest(
                name=r["name"],
                problem=r["problem"],
                description=r["description"],
                options=json.loads(r["options"]),
                expect=json.loads(r["expect"]),
                tolerance=r["tolerance"],
            )
            for r in q("SELECT * FROM knowledge_tests WHERE domain = ? ORDER BY pos", [domain])
        ]
        return DomainSpec(
            name=domain,
            description=row["description"],
            roots=json.loads(row["roots"]),
            constants=constants,
            tasks=tasks,
            methods=methods,
            operators=operators,
            tests=tests,
            extra=json.loads(row["extra"]),
        )

    def header(self, domain: str) -> str:
        return str(self._domain_row(domain)["header"] or "")

    def export(self, domain: str) -> str:
        """The domain's KB source file, canonical and byte-stable."""
        return dump_domain_source(self.load(domain), self.header(domain))

    # .................................................................. writing
    def _validate(self, domain: str, spec: DomainSpec, what: str) -> None:
        if self.validator is not None:
            problems = self.validator(domain, spec)
            if problems:
                raise EditRejected(domain, what, problems)

    def _write_rows(self, db: Database, spec: DomainSpec) -> None:
        d = spec.name
        for table in (
            "method_subtasks",
            "methods",
            "constants",
            "tasks",
            "operators",
            "knowledge_tests",
        ):
            db.execute(f"DELETE FROM {table} WHERE domain = ?", [d])
        db.table("constants").insert_all(
            {
                "domain": d,
                "name": c.name,
                "pos": i,
                "value": _j(c.value),
                "type": c.type,
                "description": c.description,
                "unit": c.unit,
            }
            for i, c in enumerate(spec.constants)
        )
        db.table("tasks").insert_all(
            {
                "domain": d,
                "name": t.name,
                "pos": i,
                "params": _j(t.params),
                "agent": t.agent,
                "label": t.label,
                "description": t.description,
                "partial_plan_prune": int(t.partial_plan_prune),
            }
            for i, t in enumerate(spec.tasks)
        )
        db.table("methods").insert_all(
            {
                "domain": d,
                "task": m.task,
                "name": m.name,
                "pos": i,
                "label": m.label,
                "description": m.description,
                "bindings": _j(m.bindings),
                "precondition": m.precondition,
                "operator": m.operator,
                "weight": m.weight,
                "assumption": m.assumption,
                "critic": m.critic,
                "belief_view": m.belief_view,
                "decomposes": int(m.subtasks is not None),
            }
            for i, m in enumerate(spec.methods)
        )
        db.table("method_subtasks").insert_all(
            {"domain": d, "task": m.task, "method": m.name, "pos": k, "call": call}
            for m in spec.methods
            for k, call in enumerate(m.subtasks or [])
        )
        db.table("operators").insert_all(
            {
                "domain": d,
                "name": o.name,
                "pos": i,
                "params": _j(o.params),
                "precondition": o.precondition,
                "effect": o.effect,
                "costs": _j(o.costs),
                "grp": o.group,
                "description": o.description,
            }
            for i, o in enumerate(spec.operators)
        )
        db.table("knowledge_tests").insert_all(
            {
                "domain": d,
                "name": t.name,
                "pos": i,
                "problem": t.problem,
                "description": t.description,
                "options": _j(t.options),
                "expect": _j(t.expect),
                "tolerance": t.tolerance,
            }
            for i, t in enumerate(spec.tests)
        )
        db.execute(
            "UPDATE domains SET description = ?, roots = ?, extra = ?, updated = ? WHERE name = ?",
            [spec.description, _j(spec.roots), _j(spec.extra), _now(), d],
        )

    def _commit_revision(
        self,
        db: Database,
        spec: DomainSpec,
        header: str,
        *,
        action: str,
        kind: str,
        target: str,
        before: Any,
        after: Any,
        parent: int | None,
        reverts: int | None,
        author: str | None,
        message: str,
    ) -> Revision:
        snapshot = dump_domain_source(spec, header)
        who = author or _author()
        created = _now()
        row = {
            "domain": spec.name,
            "author": who,
            "created": created,
            "action": action,
            "kind": kind,
            "target": target,
            "before": _j(before),
            "after": _j(after),
            "snapshot": snapshot,
            "parent": parent,
            "reverts": reverts,
            "message": message,
        }
        rid = db.table("revisions").insert(row).last_pk
        db.execute("UPDATE domains SET revision = ? WHERE name = ?", [rid, spec.name])
        assert rid is not None  # an insert sets the new row's id
        return Revision(
            int(rid),
            spec.name,
            who,
            created,
            action,
            kind,
            target,
            before,
            after,
            parent,
            reverts,
            message,
        )

    def _check_base(self, db: Database, domain: str, base: int | None) -> int:
        row = db.execute("SELECT revision FROM domains WHERE name = ?", [domain]).fetchone()
        if row is None:
            raise UnknownItem(f"no domain '{domain}' in {self.path}")
        current = int(row[0])
        if base is not None and base != current:
            last = self.get_revision(current)
            raise StaleRevision(
                f"domain '{domain}' changed after revision {base}: it is now at revision "
                f"{current} ({last.action} {last.kind} {last.target} by {last.author} at "
                f"{last.created}). Reload it and make the edit again."
            )
        return current

    def import_text(
        self,
        text: str,
        *,
        package: str,
        path: str = "<text>",
        author: str | None = None,
        base: int | None = None,
        message: str = "",
    ) -> Revision:
        """Load a KB source file as the new state of its domain (creating the domain)."""
        try:
            spec, header = parse_domain_file_text(text, path)
        except SourceError as exc:
            raise EditRejected("?", f"import of {path}", exc.messages) from None
        return self.import_spec(
            spec,
            package=package,
            path=path,
            header=header,
            author=author,
            base=base,
            message=message,
        )

    def import_spec(
        self,
        spec: DomainSpec,
        *,
        package: str,
        path: str = "<text>",
        header: str = "",
        problems: Sequence[tuple[str, str, str, str]] = (),
        author: str | None = None,
        base: int | None = None,
        message: str = "",
    ) -> Revision:
        """``spec`` as the new state of its domain (creating the domain), and ``problems``
        -- (name, kind, content, description) each, replacing any of the same name -- in one
        transaction: validated first, then all written or nothing."""
        self._validate(spec.name, spec, f"import of {path}")
        with self._write() as db:
            exists = db.execute(
                "SELECT revision FROM domains WHERE name = ?", [spec.name]
            ).fetchone()
            parent = None
            if exists:
                parent = self._check_base(db, spec.name, base)
                db.execute(
                    "UPDATE domains SET package = ?, header = ? WHERE name = ?",
                    [package, header, spec.name],
                )
            else:
                db.table("domains").insert(
                    {
                        "name": spec.name,
                        "package": package,
                        "description": spec.description,
                        "header": header,
                        "roots": "[]",
                        "extra": "{}",
                        "revision": 0,
                        "created": _now(),
                        "updated": _now(),
                    }
                )
            self._write_rows(db, spec)
            for name, kind, content, description in problems:
                self._upsert_problem(db, spec.name, name, kind, content, description)
            return self._commit_revision(
                db,
                spec,
                header,
                action="import",
                kind="domain",
                target=path,
                before=None,
                after=None,
                parent=parent,
                reverts=None,
                author=author,
                message=message,
            )

    def edit(
        self,
        domain: str,
        kind: str,
        name: str,
        value: Mapping[str, Any] | None,
        *,
        base: int | None,
        author: str | None = None,
        message: str = "",
    ) -> Revision:
        """Create, replace or (``value=None``) delete one item, as one revision.

        ``base`` is the revision the edit was made against; ``None`` skips the check (for
        scripts that own the file).
        """
        spec = self.load(domain)
        what = f"{'deleting' if value is None else 'the edit of'} {kind} '{name}'"
        try:
            new, before, after = apply_change(spec, kind, name, value)
        except ValidationError as exc:
            raise EditRejected(
                domain,
                what,
                [
                    f"field {'.'.join(str(x) for x in e['loc']) or '(item)'}: {e['msg']}"
                    for e in exc.errors()
                ],
            ) from None
        except ValueError as exc:
            raise EditRejected(domain, what, [str(exc)]) from None
        self._validate(domain, new, what)
        action = "delete" if value is None else ("update" if before is not None else "create")
        with self._write() as db:
            parent = self._check_base(db, domain, base)
            self._write_rows(db, new)
            return self._commit_revision(
                db,
                new,
                self.header(domain),
                action=action,
                kind=kind,
                target=name,
                before=before,
                after=after,
                parent=parent,
                reverts=None,
                author=author,
                message=message,
            )

    def reorder_methods(
        self,
        domain: str,
        task: str,
        order: list[str],
        *,
        base: int | None,
        author: str | None = None,
    ) -> Revision:
        """Change the priority order of a task's methods."""
        spec = self.load(domain)
        mine = [m for m in spec.methods if m.task == task]
        if sorted(order) != sorted(m.name for m in mine):
            raise EditRejected(
                domain,
                f"reordering the methods of '{task}'",
                [
                    f"the new order must name each method of '{task}' once: "
                    f"{', '.join(m.name for m in mine)}"
                ],
            )
        by_name = {m.name: m for m in mine}
        ordered = iter([by_name[n] for n in order])
        methods = [next(ordered) if m.task == task else m for m in spec.methods]
        new = spec.model_copy(update={"methods": methods})
        self._validate(domain, new, f"reordering the methods of '{task}'")
        with self._write() as db:
            parent = self._check_base(db, domain, base)
            self._write_rows(db, new)
            return self._commit_revision(
                db,
                new,
                self.header(domain),
                action="reorder",
                kind="task",
                target=task,
                before=[m.name for m in mine],
                after=order,
                parent=parent,
                reverts=None,
                author=author,
                message="",
            )

    def rename(
        self,
        domain: str,
        kind: str,
        name: str,
        new_name: str,
        *,
        base: int | None,
        author: str | None = None,
    ) -> Revision:
        """Rename an item and every reference to it, as one revision
        (:func:`workbench.kb.rename.rename_item`)."""
        from workbench.kb.rename import RenameError, rename_item

        spec = self.load(domain)
        what = f"renaming {kind} '{name}' to '{new_name}'"
        try:
            new = rename_item(spec, kind, name, new_name)
        except RenameError as exc:
            raise EditRejected(domain, what, [str(exc)]) from None
        except ValidationError as exc:
            raise EditRejected(domain, what, [e["msg"] for e in exc.errors()]) from None
        self._validate(domain, new, what)
        target = (
            f"{name.partition('.')[0]}.{new_name}"
            if kind == "method" and "." not in new_name
            else new_name
        )
        with self._write() as db:
            parent = self._check_base(db, domain, base)
            self._write_rows(db, new)
            return self._commit_revision(
                db,
                new,
                self.header(domain),
                action="rename",
                kind=kind,
                target=target,
                before=name,
                after=target,
                parent=parent,
                reverts=None,
                author=author,
                message="",
            )

    # .................................................................. history
    def _row_to_revision(self, r: Mapping[str, Any]) -> Revision:
        return Revision(
            r["id"],
            r["domain"],
            r["author"],
            r["created"],
            r["action"],
            r["kind"],
            r["target"],
            json.loads(r["before"]),
            json.loads(r["after"]),
            r["parent"],
            r["reverts"],
            r["message"] or "",
        )

    def get_revision(self, rid: int) -> Revision:
        rows = list(self._query("SELECT * FROM revisions WHERE id = ?", [rid]))
        if not rows:
            raise UnknownItem(f"no revision {rid}")
        return self._row_to_revision(rows[0])

    def history(self, domain: str) -> list[Revision]:
        self._domain_row(domain)
        return [
            self._row_to_revision(r)
            for r in self._query("SELECT * FROM revisions WHERE domain = ? ORDER BY id", [domain])
        ]

    def snapshot(self, rid: int) -> str:
        row = self._conn().execute("SELECT snapshot FROM revisions WHERE id = ?", [rid]).fetchone()
        if row is None:
            raise UnknownItem(f"no revision {rid}")
        return str(row[0])

    def diff(self, domain: str, a: int, b: int) -> str:
        """What changed from revision ``a`` to revision ``b`` (unified diff of the files)."""
        for rid in (a, b):
            if self.get_revision(rid).domain != domain:
                raise UnknownItem(f"revision {rid} is not a revision of '{domain}'")
        old, new = self.snapshot(a), self.snapshot(b)
        return "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                new.splitlines(keepends=True),
                fromfile=f"{domain}@r{a}",
                tofile=f"{domain}@r{b}",
            )
        )

    def _stacks(self, domain: str) -> tuple[list[Revision], list[Revision]]:
        """(undoable, redoable) revisions, most recent last, from the history."""
        undo: list[Revision] = []
        redo: list[Revision] = []
        by_id: dict[int, Revision] = {}
        for rev in self.history(domain):
            by_id[rev.id] = rev
            if rev.action == "undo" and rev.reverts is not None:
                target = by_id[rev.reverts]
                if undo and undo[-1].id == target.id:
                    undo.pop()
                redo.append(target)
            elif rev.action == "redo" and rev.reverts is not None:
                if redo and redo[-1].id == rev.reverts:
                    redo.pop()
                undo.append(by_id[rev.reverts])
            elif rev.action == "import" and rev.parent is None:
                undo, redo = [], []  # the domain's creation cannot be undone
            else:
                undo.append(rev)
                redo = []
        return undo, redo

    def _restore(
        self,
        domain: str,
        target: Revision,
        state_rev: int,
        action: str,
        base: int | None,
        author: str | None,
    ) -> Revision:
        text = self.snapshot(state_rev)
        spec, header = parse_domain_file_text(text, f"{domain}@r{state_rev}")
        self._validate(domain, spec, f"{action} of revision {target.id}")
        with self._write() as db:
            parent = self._check_base(db, domain, base)
            db.execute("UPDATE domains SET header = ? WHERE name = ?", [header, domain])
            self._write_rows(db, spec)
            before, after = (
                (target.after, target.before) if action == "undo" else (target.before, target.after)
            )
            return self._commit_revision(
                db,
                spec,
                header,
                action=action,
                kind=target.kind,
                target=target.target,
                before=before,
                after=after,
                parent=parent,
                reverts=target.id,
                author=author,
                message="",
            )

    def undo(self, domain: str, *, base: int | None = None, author: str | None = None) -> Revision:
        """Undo the latest change not yet undone (the domain's creation cannot be undone)."""
        undo, _ = self._stacks(domain)
        if not undo:
            raise UnknownItem(f"nothing to undo in domain '{domain}'")
        target = undo[-1]
        assert target.parent is not None
        return self._restore(domain, target, target.parent, "undo", base, author)

    def redo(self, domain: str, *, base: int | None = None, author: str | None = None) -> Revision:
        """Redo the change undone last, if nothing was changed since."""
        _, redo = self._stacks(domain)
        if not redo:
            raise UnknownItem(f"nothing to redo in domain '{domain}'")
        target = redo[-1]
        return self._restore(domain, target, target.id, "redo", base, author)

    # .................................................................. problems etc.
    def set_problem(
        self, domain: str, name: str, kind: str, content: str, description: str = ""
    ) -> None:
        with self._write() as db:
            self._check_base(db, domain, None)
            self._upsert_problem(db, domain, name, kind, content, description)

    def _upsert_problem(
        self, db: Database, domain: str, name: str, kind: str, content: str, description: str
    ) -> None:
        db.table("problems").upsert(
            {
                "domain": domain,
                "name": name,
                "kind": kind,
                "content": content,
                "description": description,
            },
            pk=("domain", "name"),
        )

    def problems(self, domain: str) -> list[dict[str, Any]]:
        return list(
            self._query(
                "SELECT name, kind, description FROM problems WHERE domain = ? ORDER BY name",
                [domain],
            )
        )

    def problem_text(self, domain: str, name: str) -> str | None:
        row = (
            self._conn()
            .execute(
                "SELECT content FROM problems WHERE domain = ? AND name = ? COLLATE NOCASE",
                [domain, name],
            )
            .fetchone()
        )
        return None if row is None else str(row[0])

    def set_primitives(self, domain: str, primitives: list[tuple[str, str, str, bool]]) -> None:
        """The registry's primitives (name, signature, doc, uses_state): read-only here."""
        with self._write() as db:
            db.execute("DELETE FROM primitives WHERE domain = ?", [domain])
            db.table("primitives").insert_all(
                {"domain": domain, "name": n, "signature": sig, "doc": doc, "uses_state": int(st)}
                for n, sig, doc, st in primitives
            )

    def primitives(self, domain: str) -> list[dict[str, Any]]:
        return list(
            self._query(
                "SELECT name, signature, doc, uses_state FROM primitives WHERE domain = ? "
                "ORDER BY name",
                [domain],
            )
        )

    def record_run(
        self,
        domain: str,
        problem: str,
        parameters: Mapping[str, Any],
        summary: Mapping[str, Any],
        trace: Any = None,
    ) -> int:
        with self._write() as db:
            rev = self._check_base(db, domain, None)
            run_id = (
                db.table("runs")
                .insert(
                    {
                        "domain": domain,
                        "problem": problem,
                        "started": _now(),
                        "revision": rev,
                        "parameters": _j(dict(parameters)),
                        "summary": _j(dict(summary)),
                        "trace": None if trace is None else _j(trace),
                    }
                )
                .last_pk
            )
            assert run_id is not None  # an insert sets the new row's id
            return int(run_id)

    def runs(self, domain: str) -> list[dict[str, Any]]:
        return list(
            self._query(
                "SELECT id, problem, started, revision, parameters, summary "
                "FROM runs WHERE domain = ? ORDER BY id",
                [domain],
            )
        )
