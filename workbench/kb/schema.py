"""The store's schema, as numbered migrations.

The schema version lives in SQLite's ``user_version``.  Opening an older file backs it up
(``<file>.v<N>.bak``, through SQLite's online backup, so the copy is consistent) and then
applies each missing migration in its own transaction; a file from a newer program is
refused rather than guessed at.  Every table is STRICT, so a wrong type is an error, not a
silent conversion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

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
    import json

    from .bundled import declared_constant_types

    db.execute("ALTER TABLE constants ADD COLUMN type TEXT")
    declared = declared_constant_types()
    rows = db.execute("SELECT domain, name, value FROM constants").fetchall()
    for domain, name, value in rows:
        kind = declared.get((domain, name)) or type_of_value(json.loads(value))
        db.execute(
            "UPDATE constants SET type = ? WHERE domain = ? AND name = ?", [kind, domain, name]
        )


MIGRATIONS: list[Callable[[Database], None]] = [_v1, _v2, _v3]
SCHEMA_VERSION = len(MIGRATIONS)
