"""The knowledge store: domains, their knowledge, problems and history in one SQLite file.

Design choices, and why:

* **Every change is a revision** holding who, when, what (the item before and after) and a
  snapshot of the whole domain's canonical text.  Snapshots make undo, redo and the diff
  between *any* two revisions exact and simple, at a few tens of kilobytes per edit.
* **A domain is kept once**: as the snapshot of its head revision.  Loading reads that
  text; lists and counts are read from it (:func:`summarize`); nothing restates the model
  in tables of its own, so a field added to the model needs no change here (schema 4
  dropped the item tables schemas 1-3 kept beside the snapshots).
* **No lost update.**  Every write reads the domain, makes its change and writes it inside
  one ``IMMEDIATE`` transaction (SQLite's write lock is taken before the read), so a second
  writer waits for the first and applies its change to what the first wrote.  An edit that
  names the revision it was based on is refused when the domain has moved on since
  (:class:`StaleRevision`); one without a base (``kb set`` in a script) applies to the
  current head.  Holding the lock while validating costs milliseconds; losing an edit is
  not an option.
* **Validation before committing.**  The new domain is built and checked (model rules,
  then the caller's validator -- normally a full compile with the domain's primitives)
  inside the transaction, and a rejected edit rolls it back: nothing is written.
* **Imports never overwrite silently.**  Importing a domain (or a problem) whose name the
  store already holds with different content is refused, naming both sources, unless the
  caller says to replace it (``replace``, or a ``base`` revision, which says what it
  replaces); identical content changes nothing.
* **A read-only file opens for reading** (a read-only mount, a file without write
  permission): lists, exports and planning work, and a write says the store is read-only.
* **One connection per thread** (SQLite objects cannot cross threads), WAL so readers do
  not block the writer, a busy timeout, and foreign keys on.
* **A file that is not ours is never touched**: its header is read before anything else.
"""

from __future__ import annotations

import dataclasses
import difflib
import getpass
import json
import os
import sqlite3
import threading
import tomllib
import urllib.parse
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from pydantic import BaseModel, ValidationError

from engine.tofs import DomainSpec
from engine.tofs.model import ConstantDef, KnowledgeTest, MethodDef, OperatorDef, TaskDef
from engine.tofs.source import (
    SourceError,
    dump_domain_source,
    parse_domain_file_text,
    parse_domain_source,
    split_header,
)

from .schema import MIGRATIONS, SCHEMA_VERSION

if TYPE_CHECKING:
    from .sqlite import Database

__all__ = [
    "KINDS",
    "EditRejected",
    "KnowledgeStore",
    "NameTaken",
    "NotAStore",
    "ProblemRow",
    "ReadOnlyStore",
    "Revision",
    "StaleRevision",
    "StoreError",
    "UnknownItem",
    "find_item",
]

SQLITE_MAGIC = b"SQLite format 3\x00"
KINDS = ("constant", "task", "method", "operator", "test")
_ANY_TEXT = object()  # set_problem without a check of what it replaces
BUSY_SECONDS = 30
"""How long a writer waits for another one's transaction (each holds it for milliseconds;
a long wait means a stuck process, which the message then names)."""
Validator = Callable[[str, DomainSpec], list[str]]


class StoreError(Exception):
    """Something the user must be told; the message says what and where."""


class NotAStore(StoreError):
    """The file is not a workbench database (or is damaged, or from a newer program)."""


class StaleRevision(StoreError):
    """The domain changed since the revision an edit was based on."""


class ReadOnlyStore(StoreError):
    """A write to a store this process may only read (a read-only mount or file)."""


class NameTaken(StoreError):
    """An import names a domain or problem the store holds with different content."""


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
    unchanged: bool = False
    """An import of what the store already held: no revision was made (this is the head)."""

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


_COUNTED = ("constants", "tasks", "methods", "operators", "tests")
"""The item lists ``kb list`` counts (the DomainSpec fields, as the text names them)."""


def summarize(text: str) -> tuple[str, dict[str, int]]:
    """A domain's description and how many items of each kind it holds, read from its
    canonical text (:func:`~engine.tofs.source.dump_domain_source`) without building the
    model: what ``kb list`` shows for every domain, at a fraction of a full read.

    The canonical text is TOML with one-line strings, its top-level keys first: a line
    ``[[tasks]]`` opens a task and nothing else, and the first line opening a table ends
    the keys.  Text not in that form is read in full."""
    keys_end = text.find("\n[")
    try:
        top = tomllib.loads(text if keys_end < 0 else text[:keys_end])
        description = top.get("description", "")
        if not isinstance(description, str):
            raise ValueError("description is not text")
    except ValueError:
        spec = parse_domain_source(text)
        return spec.description, {kind: len(getattr(spec, kind)) for kind in _COUNTED}
    return description, {kind: text.count(f"\n[[{kind}]]\n") for kind in _COUNTED}


class ProblemRow(NamedTuple):
    """A problem as an import stores it; ``source`` (its file) is for messages."""

    name: str
    kind: str
    content: str
    description: str
    source: str = ""


@dataclass(frozen=True)
class _Change:
    """What one write makes of the domain it read: the new domain and its revision's
    record (``header`` None keeps the stored header)."""

    spec: DomainSpec
    what: str
    action: str
    kind: str
    target: str
    before: Any
    after: Any
    header: str | None = None
    reverts: int | None = None


def _item_change(
    spec: DomainSpec, kind: str, name: str, value: Mapping[str, Any] | None
) -> _Change:
    """:func:`apply_change` as a change, a malformed item as :class:`EditRejected`."""
    what = f"{'deleting' if value is None else 'the edit of'} {kind} '{name}'"
    try:
        new, before, after = apply_change(spec, kind, name, value)
    except ValidationError as exc:
        raise EditRejected(
            spec.name,
            what,
            [
                f"field {'.'.join(str(x) for x in e['loc']) or '(item)'}: {e['msg']}"
                for e in exc.errors()
            ],
        ) from None
    except ValueError as exc:
        raise EditRejected(spec.name, what, [str(exc)]) from None
    action = "delete" if value is None else ("update" if before is not None else "create")
    return _Change(new, what, action, kind, name, before, after)


# ----------------------------------------------------------------- the store


class KnowledgeStore:
    """One SQLite file of knowledge.  Safe to share between threads."""

    def __init__(self, path: str | Path, validator: Validator | None = None) -> None:
        self.path = Path(path)
        self.validator = validator
        self._local = threading.local()
        self._check_file()
        self.read_only = self._read_only()
        """Whether this process may only read the file (a read-only mount or file, or a
        folder where SQLite cannot make its write-ahead log): reads work, writes raise
        :class:`ReadOnlyStore`."""
        self._immutable = False
        self._migrate()

    # .................................................................. connections
    def _check_file(self) -> None:
        p = self.path
        if p.is_dir():
            raise NotAStore(f"{p} is a directory, not a workbench database")
        if p.exists() and not p.is_file():
            raise NotAStore(
                f"{p} is not a regular file (a device or pipe), not a workbench database"
            )
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
        elif not p.exists() and not os.access(p.parent, os.W_OK | os.X_OK):
            raise ReadOnlyStore(f"cannot make the store {p}: the folder {p.parent} is read-only")

    def _read_only(self) -> bool:
        """Whether the file cannot be written here.  ``os.access`` answers for this process
        (root included: it reports a read-only mount).  A writable file in a folder this
        process cannot write is read-only too unless its write-ahead log already exists
        and is writable, since SQLite makes the log (``-wal``, ``-shm``) beside the file."""
        p = self.path
        if not p.exists():
            return False
        if not os.access(p, os.W_OK):
            return True
        if os.access(p.parent, os.W_OK | os.X_OK):
            return False
        logs = [p.with_name(p.name + suffix) for suffix in ("-wal", "-shm")]
        return not all(log.exists() and os.access(log, os.W_OK) for log in logs)

    def _open(self) -> sqlite3.Connection:
        """A new connection: read-write, or read-only (``mode=ro``; ``immutable`` when
        SQLite cannot even make the shared-memory file it reads a WAL file with)."""
        if not self.read_only:
            return sqlite3.connect(self.path, timeout=BUSY_SECONDS, isolation_level=None)
        uri = "file:" + urllib.parse.quote(str(self.path.resolve()))
        if not self._immutable:
            conn = sqlite3.connect(
                uri + "?mode=ro", uri=True, timeout=BUSY_SECONDS, isolation_level=None
            )
            try:
                conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
                return conn
            except sqlite3.OperationalError:
                conn.close()
                self._immutable = True
        return sqlite3.connect(
            uri + "?mode=ro&immutable=1", uri=True, timeout=BUSY_SECONDS, isolation_level=None
        )

    def _connect(self) -> sqlite3.Connection:
        conn = self._open()
        conn.execute(f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}")
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

    def _refuse_write(self) -> ReadOnlyStore:
        return ReadOnlyStore(f"the store {self.path} is read-only; nothing was changed")

    @contextmanager
    def _write(self) -> Iterator[Database]:
        """A write transaction that takes the lock at once, before anything is read, so
        that what is read inside it is what the change is applied to (no lost update).

        A writer waits up to :data:`BUSY_SECONDS` for another one to finish."""
        if self.read_only:
            raise self._refuse_write()
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise self._write_error(exc) from None
        try:
            yield db
        except sqlite3.OperationalError as exc:
            db.execute("ROLLBACK")
            raise self._write_error(exc) from None
        except BaseException:
            db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except sqlite3.OperationalError as exc:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            raise self._write_error(exc) from None

    def _write_error(self, exc: sqlite3.OperationalError) -> StoreError | sqlite3.OperationalError:
        """What a failed write tells the user: read-only, or busy for too long."""
        text = str(exc).lower()
        if "readonly" in text or "read-only" in text:
            self.read_only = True
            return self._refuse_write()
        if "locked" in text or "busy" in text:
            return StoreError(
                f"the store {self.path} is busy: another workbench held it for more than "
                f"{BUSY_SECONDS} s; nothing was changed, try again"
            )
        return exc

    def _migrate(self) -> None:
        conn = self._open()
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
            if self.read_only and version < SCHEMA_VERSION:
                what = "is empty" if version == 0 else f"has the older schema {version}"
                raise ReadOnlyStore(
                    f"the store {self.path} is read-only and {what}; this workbench "
                    f"reads schema {SCHEMA_VERSION}, so it must be opened once where it "
                    "can be written"
                )
            if version == SCHEMA_VERSION:
                if not self.read_only:
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
                    # Another process opening the same new file may have migrated it
                    # while this one waited for the lock.
                    if conn.execute("PRAGMA user_version").fetchone()[0] < number:
                        MIGRATIONS[number - 1](db)
                        conn.execute(f"PRAGMA user_version = {number}")
                except ValueError as exc:  # what a migration cannot carry over
                    conn.execute("ROLLBACK")
                    raise NotAStore(
                        f"{self.path} cannot be brought to schema {number}: {exc}; it was "
                        f"left at schema {number - 1} (a copy of the file as it was is "
                        f"{self.path.name}.v{version}.bak)"
                    ) from None
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
                conn.execute("COMMIT")
        finally:
            conn.close()

    # .................................................................. reading
    def domains(self) -> list[DomainInfo]:
        """Every domain with its description and item counts, read from the head text
        without building the model (:func:`summarize`): ``kb list`` reads every domain."""
        problems = dict(
            self._conn().execute("SELECT domain, count(*) FROM problems GROUP BY domain")
        )
        out = []
        for name, package, revision, text in self._conn().execute(
            "SELECT d.name, d.package, d.revision, r.snapshot FROM domains d "
            "JOIN revisions r ON r.id = d.revision ORDER BY d.name"
        ):
            description, counts = summarize(text)
            counts["problems"] = problems.get(name, 0)
            out.append(DomainInfo(name, package, description, revision, counts))
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

    def head_text(self, domain: str) -> str:
        """The domain's canonical KB source text at its head revision: the one record of
        the domain the store keeps (everything else about it is read from this)."""
        row = (
            self._conn()
            .execute(
                "SELECT r.snapshot FROM domains d JOIN revisions r ON r.id = d.revision "
                "WHERE d.name = ?",
                [domain],
            )
            .fetchone()
        )
        if row is None:
            self._domain_row(domain)  # says there is no such domain
            raise StoreError(f"domain '{domain}' in {self.path} has no revision to read")
        return str(row[0])

    def load(self, domain: str) -> DomainSpec:
        """The domain as it is now: its head revision's text, read."""
        return self._read(domain, self.head_text(domain))

    def _read(self, domain: str, text: str) -> DomainSpec:
        """A stored text as a domain.  The text was written from a validated domain, so it
        is read straight (TOML, then the model) without the nesting scan a file from
        outside gets; should that fail after all, the full reader says where."""
        try:
            return DomainSpec.model_validate(tomllib.loads(text))
        except (ValueError, RecursionError):
            try:
                return parse_domain_source(text, f"{domain}@r{self.revision(domain)}")
            except SourceError as exc:
                raise StoreError(f"{self.path}: {exc}") from None

    def header(self, domain: str) -> str:
        """The comment block the domain's text begins with (kept verbatim)."""
        return split_header(self.head_text(domain))[0]

    def export(self, domain: str) -> str:
        """The domain's KB source file, canonical and byte-stable."""
        text = self.head_text(domain)
        return dump_domain_source(self._read(domain, text), split_header(text)[0])

    # .................................................................. writing
    def _validate(self, domain: str, spec: DomainSpec, what: str) -> None:
        if self.validator is not None:
            problems = self.validator(domain, spec)
            if problems:
                raise EditRejected(domain, what, problems)

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
        db.execute(
            "UPDATE domains SET revision = ?, updated = ? WHERE name = ?", [rid, created, spec.name]
        )
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

    def _apply(
        self,
        domain: str,
        base: int | None,
        make: Callable[[DomainSpec], _Change],
        author: str | None,
        message: str,
    ) -> Revision:
        """One change to ``domain`` as one revision: inside one write transaction the base
        is checked, the domain read, ``make`` turns it into the change, the change is
        validated and written.  A second writer waits for the lock and then makes its
        change to what this one wrote, so neither is lost; anything raised rolls back."""
        with self._write() as db:
            parent = self._check_base(db, domain, base)
            text = self.head_text(domain)
            change = make(self._read(domain, text))
            self._validate(domain, change.spec, change.what)
            header = split_header(text)[0] if change.header is None else change.header
            return self._commit_revision(
                db,
                change.spec,
                header,
                action=change.action,
                kind=change.kind,
                target=change.target,
                before=change.before,
                after=change.after,
                parent=parent,
                reverts=change.reverts,
                author=author,
                message=message,
            )

    def import_text(
        self,
        text: str,
        *,
        package: str,
        path: str = "<text>",
        author: str | None = None,
        base: int | None = None,
        message: str = "",
        replace: bool = False,
        name: str | None = None,
    ) -> Revision:
        """Load a KB source file as the new state of its domain (creating the domain), or
        of the domain ``name`` when given (:meth:`import_spec` says when it replaces).

        A package plans its domains by their names (its primitives and problems are bound
        to them), so a domain of a package cannot be stored under another name: that
        would be a copy nothing can plan or check."""
        try:
            spec, header = parse_domain_file_text(text, path)
        except SourceError as exc:
            raise EditRejected("?", f"import of {path}", exc.messages) from None
        if name is not None and name != spec.name:
            if package:
                raise EditRejected(
                    spec.name,
                    f"import of {path}",
                    [
                        f"--as: package '{package}' plans domain '{spec.name}' by its name "
                        "(its primitives and problems are bound to it), so a copy under "
                        f"another name could not be planned; use --replace (history keeps "
                        "the stored one: kb undo brings it back)"
                    ],
                )
            try:
                spec = DomainSpec.model_validate(spec.model_dump() | {"name": name})
            except ValidationError as exc:
                problems = [f"the name '{name}': {e['msg']}" for e in exc.errors()]
                raise EditRejected(name, f"import of {path}", problems) from None
        return self.import_spec(
            spec,
            package=package,
            path=path,
            header=header,
            author=author,
            base=base,
            message=message,
            replace=replace,
            renamable=not package,
        )

    def import_spec(
        self,
        spec: DomainSpec,
        *,
        package: str,
        path: str = "<text>",
        header: str = "",
        problems: Sequence[tuple[str, str, str, str] | ProblemRow] = (),
        author: str | None = None,
        base: int | None = None,
        message: str = "",
        replace: bool = False,
        keep_tests: bool = False,
        renamable: bool = False,
    ) -> Revision:
        """``spec`` as the new state of its domain (creating the domain), and ``problems``
        -- (name, kind, content, description[, source]) each -- in one transaction:
        validated, then all written or nothing.

        A domain or problem the store already holds under that name with *different*
        content is replaced only with ``replace`` or a ``base`` revision (which names what
        is replaced); otherwise :class:`NameTaken` names both sources.  An import of what
        the store already holds makes no revision: the head comes back with
        ``unchanged`` set (new problems are still added).  ``keep_tests`` is for a file in a
        package format: it has no knowledge tests of its own (the stored ones are kept) and
        its description only names the file (not compared).  ``renamable``: the import can
        be stored under another name (``kb import --as``), which a refusal then offers."""
        rows = [ProblemRow(*p) for p in problems]
        what = f"import of {path}"
        with self._write() as db:
            exists = db.execute(
                "SELECT revision, package FROM domains WHERE name = ?", [spec.name]
            ).fetchone()
            parent = None
            if exists:
                parent = self._check_base(db, spec.name, base)
                stored = self.load(spec.name)
                if keep_tests:
                    spec = spec.model_copy(update={"tests": stored.tests})
                # A file in a package format has no description of its own (the reader
                # names the file there): the same text from another file is the same.
                compared = (
                    spec.model_copy(update={"description": stored.description})
                    if keep_tests
                    else spec
                )
                same = exists[1] == package and dump_domain_source(
                    compared, header
                ) == dump_domain_source(stored, self.header(spec.name))
                if not same:  # what is wrong with the file is said first
                    self._validate(spec.name, spec, what)
                clashes = self._problem_clashes(db, spec.name, rows)
                if (not same or clashes) and not replace and base is None:
                    raise NameTaken(
                        self._name_taken(spec.name, path, parent, same, clashes, renamable)
                    )
                if same:
                    for p in rows:
                        self._upsert_problem(
                            db, spec.name, p.name, p.kind, p.content, p.description
                        )
                    return dataclasses.replace(self.get_revision(parent), unchanged=True)
                db.execute("UPDATE domains SET package = ? WHERE name = ?", [package, spec.name])
            else:
                self._validate(spec.name, spec, what)
                db.table("domains").insert(
                    {
                        "name": spec.name,
                        "package": package,
                        "revision": 0,
                        "created": _now(),
                        "updated": _now(),
                    }
                )
            for p in rows:
                self._upsert_problem(db, spec.name, p.name, p.kind, p.content, p.description)
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

    def _problem_clashes(
        self, db: Database, domain: str, rows: Sequence[ProblemRow]
    ) -> list[tuple[ProblemRow, str, str]]:
        """The imported problems the store holds under that name (in any case, as problems
        are looked up) with other content: (new, stored name, stored description) each."""
        out = []
        for p in rows:
            for name, kind, content, description in db.execute(
                "SELECT name, kind, content, description FROM problems "
                "WHERE domain = ? AND name = ? COLLATE NOCASE",
                [domain, p.name],
            ).fetchall():
                if (kind, content) != (p.kind, p.content):
                    out.append((p, str(name), str(description or kind)))
        return out

    def _name_taken(
        self,
        domain: str,
        path: str,
        head: int,
        same: bool,
        clashes: Sequence[tuple[ProblemRow, str, str]],
        renamable: bool,
    ) -> str:
        """Why an import is refused: each name taken, where the stored content came from,
        and the ways on (another name only where the import can take one)."""
        parts = []
        if not same:
            last = (
                self._conn()
                .execute(
                    "SELECT id, target FROM revisions WHERE domain = ? AND action = 'import' "
                    "ORDER BY id DESC LIMIT 1",
                    [domain],
                )
                .fetchone()
            )
            origin = (
                f"imported from {last[1]} as revision {last[0]}"
                + (f", now at revision {head}" if head != last[0] else "")
                if last
                else f"at revision {head}"
            )
            parts.append(
                f"{path} defines domain '{domain}', but the store holds a different domain "
                f"'{domain}' ({origin})"
            )
        for p, name, description in clashes:
            parts.append(
                f"{p.source or path} is problem '{p.name}' of '{domain}', but the store "
                f"holds a different problem '{name}' ({description})"
            )
        return (
            "; ".join(parts) + "; nothing was imported: add --replace to replace it "
            "(a new revision, history kept)"
            + (", or --as NAME to store the import under another name" if renamable else "")
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

        ``base`` is the revision the edit was made against; ``None`` applies it to the
        domain as it is when the write lock is taken (for scripts: nothing is lost)."""
        return self._apply(
            domain, base, lambda spec: _item_change(spec, kind, name, value), author, message
        )

    def set_fields(
        self,
        domain: str,
        kind: str,
        name: str,
        fields: Mapping[str, Any],
        *,
        base: int | None,
        author: str | None = None,
        message: str = "",
    ) -> Revision:
        """Set some fields of one item (creating it when there is none), as one revision:
        the item is read inside the write transaction, so fields another writer set in the
        meantime are kept (``kb set``)."""

        def make(spec: DomainSpec) -> _Change:
            current = find_item(spec, kind, name)
            data: dict[str, Any] = current.model_dump(mode="json") if current else {}
            if current is None:
                if kind == "method":
                    task, _, method = name.partition(".")
                    data.update({"task": task, "name": method})
                else:
                    data["name"] = name
            return _item_change(spec, kind, name, data | dict(fields))

        return self._apply(domain, base, make, author, message)

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
        what = f"reordering the methods of '{task}'"

        def make(spec: DomainSpec) -> _Change:
            mine = [m for m in spec.methods if m.task == task]
            if sorted(order) != sorted(m.name for m in mine):
                raise EditRejected(
                    domain,
                    what,
                    [
                        f"the new order must name each method of '{task}' once: "
                        f"{', '.join(m.name for m in mine)}"
                    ],
                )
            by_name = {m.name: m for m in mine}
            ordered = iter([by_name[n] for n in order])
            methods = [next(ordered) if m.task == task else m for m in spec.methods]
            new = spec.model_copy(update={"methods": methods})
            return _Change(new, what, "reorder", "task", task, [m.name for m in mine], order)

        return self._apply(domain, base, make, author, "")

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

        what = f"renaming {kind} '{name}' to '{new_name}'"
        target = (
            f"{name.partition('.')[0]}.{new_name}"
            if kind == "method" and "." not in new_name
            else new_name
        )

        def make(spec: DomainSpec) -> _Change:
            try:
                new = rename_item(spec, kind, name, new_name)
            except RenameError as exc:
                raise EditRejected(domain, what, [str(exc)]) from None
            except ValidationError as exc:
                raise EditRejected(domain, what, [e["msg"] for e in exc.errors()]) from None
            return _Change(new, what, "rename", kind, target, name, target)

        return self._apply(domain, base, make, author, "")

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

    def _step(self, domain: str, action: str, base: int | None, author: str | None) -> Revision:
        """Undo or redo, decided from the history read inside the write transaction (so
        two processes undoing at once undo two changes, never one twice)."""

        def make(_: DomainSpec) -> _Change:
            undo, redo = self._stacks(domain)
            stack = undo if action == "undo" else redo
            if not stack:
                raise UnknownItem(f"nothing to {action} in domain '{domain}'")
            target = stack[-1]
            state = target.parent if action == "undo" else target.id
            assert state is not None  # an undoable change has a parent
            spec, header = parse_domain_file_text(self.snapshot(state), f"{domain}@r{state}")
            before, after = (
                (target.after, target.before) if action == "undo" else (target.before, target.after)
            )
            return _Change(
                spec,
                f"{action} of revision {target.id}",
                action,
                target.kind,
                target.target,
                before,
                after,
                header=header,
                reverts=target.id,
            )

        return self._apply(domain, base, make, author, "")

    def undo(self, domain: str, *, base: int | None = None, author: str | None = None) -> Revision:
        """Undo the latest change not yet undone (the domain's creation cannot be undone)."""
        return self._step(domain, "undo", base, author)

    def redo(self, domain: str, *, base: int | None = None, author: str | None = None) -> Revision:
        """Redo the change undone last, if nothing was changed since."""
        return self._step(domain, "redo", base, author)

    # .................................................................. problems etc.
    def set_problem(
        self,
        domain: str,
        name: str,
        kind: str,
        content: str,
        description: str = "",
        *,
        replacing: object = _ANY_TEXT,
    ) -> None:
        """Store a problem's text under ``name`` (one atomic write).

        ``replacing`` is the text the caller's edit started from (None: it wrote a new
        problem); when given, a store that holds anything else under that name by now
        raises :class:`StaleRevision` and nothing is written, as an item edit with a base
        revision does.  Left out, the problem is written whatever is stored (seeding)."""
        with self._write() as db:
            self._check_base(db, domain, None)
            if replacing is not _ANY_TEXT:
                row = db.execute(
                    "SELECT content FROM problems WHERE domain = ? AND name = ?",
                    [domain, name],
                ).fetchone()
                now = None if row is None else str(row[0])
                if now != replacing:
                    what = "was deleted" if now is None else "was saved by someone else"
                    if replacing is None and now is not None:
                        what = "was made by someone else"
                    raise StaleRevision(
                        f"problem '{name}' of domain '{domain}' {what} since this edit "
                        "started; nothing was saved. Reload it and make the edit again."
                    )
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
    ) -> int | None:
        """Keep a run's parameters and outcome; None, keeping nothing, on a read-only store
        (planning from a read-only store works, and a run is no change the user asked
        for)."""
        if self.read_only:
            return None
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
