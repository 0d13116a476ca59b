"""The store's schema, as numbered migrations.

The schema version lives in SQLite's ``user_version``.  Opening an older file backs it up
(``<file>.v<N>.bak``, through SQLite's online backup, so the copy is consistent) and then
applies each missing migration in its own transaction; a file from a newer program is
refused rather than guessed at.  Every table is STRICT, so a wrong type is an error, not a
silent conversion.

Since schema 4 a domain is kept once: as the canonical KB source text of its head revision
(``revisions.snapshot`` of ``domains.revision``).  Schemas 1-3 also kept it as rows of six
item tables, a second copy of the model written out by hand that had to change with every
field; :func:`_v4` checks the two agree and drops the rows.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from engine.tofs.model import DomainSpec
from engine.tofs.source import dump_domain_source
from engine.tofs.value_types import type_of_value

if TYPE_CHECKING:
    from .sqlite import Database

__all__ = ["MIGRATIONS", "SCHEMA_VERSION"]


def _v1(db: Database) -> None:
    """Domains and their knowledge, problems, primitives, and revisions."""
    db.table("domains").create(
        {
            "name": str,
            "package": str,
            "description": str,
            "header": str,
            "roots": str,
            "extra": str,
            "revision": int,
            "created": str,
            "updated": str,
        },
        pk="name",
        not_null={"package", "revision"},
        strict=True,
    )
    db.table("constants").create(
        {"domain": str, "name": str, "pos": int, "value": str, "description": str, "unit": str},
        pk=("domain", "name"),
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("tasks").create(
        {
            "domain": str,
            "name": str,
            "pos": int,
            "params": str,
            "agent": str,
            "label": str,
            "description": str,
            "partial_plan_prune": int,
        },
        pk=("domain", "name"),
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("methods").create(
        {
            "domain": str,
            "task": str,
            "name": str,
            "pos": int,
            "label": str,
            "description": str,
            "bindings": str,
            "precondition": str,
            "operator": str,
            "weight": str,
            "assumption": str,
            "critic": str,
            "belief_view": str,
            "decomposes": int,
        },
        pk=("domain", "task", "name"),
        strict=True,
        foreign_keys=[("domain", "domains", "name")],
    )
    db.execute("""CREATE TABLE method_subtasks (
        domain TEXT NOT NULL, task TEXT NOT NULL, method TEXT NOT NULL, pos INTEGER NOT NULL,
        call TEXT NOT NULL,
        PRIMARY KEY (domain, task, method, pos),
        FOREIGN KEY (domain, task, method) REFERENCES methods (domain, task, name)
            ON DELETE CASCADE
    ) STRICT""")
    db.table("operators").create(
        {
            "domain": str,
            "name": str,
            "pos": int,
            "params": str,
            "precondition": str,
            "effect": str,
            "costs": str,
            "grp": str,
            "description": str,
        },
        pk=("domain", "name"),
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("primitives").create(
        {"domain": str, "name": str, "signature": str, "doc": str, "uses_state": int},
        pk=("domain", "name"),
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("problems").create(
        {"domain": str, "name": str, "kind": str, "content": str, "description": str},
        pk=("domain", "name"),
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("revisions").create(
        {
            "id": int,
            "domain": str,
            "author": str,
            "created": str,
            "action": str,
            "kind": str,
            "target": str,
            "before": str,
            "after": str,
            "snapshot": str,
            "parent": int,
            "reverts": int,
            "message": str,
        },
        pk="id",
        not_null={"domain", "action", "snapshot"},
        strict=True,
        foreign_keys=[("domain", "domains", "name")],
    )
    db.table("revisions").create_index(["domain", "id"])


def _v2(db: Database) -> None:
    """Knowledge tests live in the store, and runs are recorded."""
    db.table("knowledge_tests").create(
        {
            "domain": str,
            "name": str,
            "pos": int,
            "problem": str,
            "description": str,
            "options": str,
            "expect": str,
            "tolerance": float,
        },
        pk=("domain", "name"),
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("runs").create(
        {
            "id": int,
            "domain": str,
            "problem": str,
            "started": str,
            "revision": int,
            "parameters": str,
            "summary": str,
            "trace": str,
        },
        pk="id",
        foreign_keys=[("domain", "domains", "name")],
        strict=True,
    )
    db.table("runs").create_index(["domain", "id"])


def _v3(db: Database) -> None:
    """Constants declare their type.  A store made before gets the type the shipped
    knowledge declares for a constant of that name, else the kind of its value -- so a
    value that was saved wrong before types existed shows up in ``kb lint``."""
    from .bundled import declared_constant_types

    db.execute("ALTER TABLE constants ADD COLUMN type TEXT")
    declared = declared_constant_types()
    rows = db.execute("SELECT domain, name, value FROM constants").fetchall()
    for domain, name, value in rows:
        kind = declared.get((domain, name)) or type_of_value(json.loads(value))
        db.execute(
            "UPDATE constants SET type = ? WHERE domain = ? AND name = ?", [kind, domain, name]
        )


_ITEM_TABLES = ("method_subtasks", "methods", "constants", "tasks", "operators", "knowledge_tests")
"""The tables schemas 1-3 kept a domain's items in (children first, for dropping)."""


def _spec_from_rows(db: Database, domain: str, row: dict[str, Any]) -> DomainSpec:
    """The domain as schemas 1-3 read it from its item rows (kept only for :func:`_v4`)."""

    def rows(sql: str) -> list[dict[str, Any]]:
        cursor = db.execute(sql, [domain])
        keys = [d[0] for d in cursor.description]
        return [dict(zip(keys, r, strict=True)) for r in cursor.fetchall()]

    def by_pos(table: str) -> list[dict[str, Any]]:
        return rows(f"SELECT * FROM {table} WHERE domain = ? ORDER BY pos")

    subtasks: dict[tuple[str, str], list[str]] = {}
    for r in rows("SELECT * FROM method_subtasks WHERE domain = ? ORDER BY task, method, pos"):
        subtasks.setdefault((r["task"], r["method"]), []).append(r["call"])
    methods = []
    for r in by_pos("methods"):
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
            {"name": r["name"], "task": r["task"], "bindings": json.loads(r["bindings"])} | body
        )
    return DomainSpec.model_validate(
        {
            "name": domain,
            "description": row["description"],
            "roots": json.loads(row["roots"]),
            "constants": [
                {
                    "name": r["name"],
                    "value": json.loads(r["value"]),
                    "type": r["type"],
                    "description": r["description"],
                    "unit": r["unit"],
                }
                for r in by_pos("constants")
            ],
            "tasks": [
                {
                    "name": r["name"],
                    "params": json.loads(r["params"]),
                    "agent": r["agent"],
                    "label": r["label"],
                    "description": r["description"],
                    "partial_plan_prune": bool(r["partial_plan_prune"]),
                }
                for r in by_pos("tasks")
            ],
            "methods": methods,
            "operators": [
                {
                    "name": r["name"],
                    "params": json.loads(r["params"]),
                    "precondition": r["precondition"],
                    "effect": r["effect"],
                    "costs": json.loads(r["costs"]),
                    "group": r["grp"],
                    "description": r["description"],
                }
                for r in by_pos("operators")
            ],
            "tests": [
                {
                    "name": r["name"],
                    "problem": r["problem"],
                    "description": r["description"],
                    "options": json.loads(r["options"]),
                    "expect": json.loads(r["expect"]),
                    "tolerance": r["tolerance"],
                }
                for r in by_pos("knowledge_tests")
            ],
            "extra": json.loads(row["extra"]),
        }
    )


def _v4(db: Database) -> None:
    """One record of a domain: the canonical text of its head revision.  The item tables
    and the domain columns that restated the model go.

    For each domain the text its rows make is compared with its head snapshot.  They agree
    in every store this program wrote (both were written from the same domain in one
    transaction); where they do not (a head without a snapshot, a file edited by hand), the
    rows -- what the store read until now -- become a new revision, so nothing read before
    is lost and the old head stays in the history.  Rows that no longer make a valid
    domain leave the head snapshot, the last domain validated, as the domain."""
    domains = db.execute("SELECT name, description, header, roots, extra, revision FROM domains")
    keys = [d[0] for d in domains.description]
    for values in domains.fetchall():
        row = dict(zip(keys, values, strict=True))
        name, header, head = row["name"], row["header"] or "", row["revision"]
        found = db.execute(
            "SELECT snapshot FROM revisions WHERE id = ? AND domain = ?", [head, name]
        ).fetchone()
        try:
            text = dump_domain_source(_spec_from_rows(db, name, row), header)
        except ValueError as exc:  # pydantic's ValidationError, a JSON column, a clash
            if found is None:
                raise ValueError(
                    f"domain '{name}' has no snapshot and its rows are not a valid domain ({exc})"
                ) from None
            continue
        if found is not None and found[0] == text:
            continue
        cursor = db.execute(
            "INSERT INTO revisions (domain, author, created, action, kind, target, before, "
            "after, snapshot, parent, reverts, message) "
            "VALUES (?, 'schema migration', ?, 'import', 'domain', ?, 'null', 'null', ?, ?, "
            "NULL, ?)",
            [
                name,
                datetime.now(UTC).isoformat(timespec="seconds"),
                "schema 4",
                text,
                head if found is not None else None,
                "the domain as its item rows held it"
                + (f" (revision {head}'s snapshot differed)" if found is not None else ""),
            ],
        )
        db.execute("UPDATE domains SET revision = ? WHERE name = ?", [cursor.lastrowid, name])
    for table in _ITEM_TABLES:
        db.execute(f"DROP TABLE {table}")
    for column in ("description", "header", "roots", "extra"):
        db.execute(f"ALTER TABLE domains DROP COLUMN {column}")


MIGRATIONS: list[Callable[[Database], None]] = [_v1, _v2, _v3, _v4]
SCHEMA_VERSION = len(MIGRATIONS)
