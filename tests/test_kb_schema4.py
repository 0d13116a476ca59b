"""Schema 4: a domain is kept once, as the canonical text of its head revision.

Schemas 1-3 also kept every domain as rows of six item tables.  Opening such a file backs
it up, checks the rows against the head snapshot and drops them; rows that differ from the
snapshot become a revision (nothing the store read before is lost).  ``kb list`` and
``domains()`` read their descriptions and counts from the head text."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.tofs.source import dump_domain_source, parse_domain_file_text
from knowledge import get_package
from workbench.cli import main
from workbench.kb import KnowledgeStore, NotAStore
from workbench.kb.catalog import open_store, validate
from workbench.kb.schema import SCHEMA_VERSION
from workbench.kb.store import summarize

ROOT = Path(__file__).resolve().parent.parent
SCHEMA3 = ROOT / "tests" / "data" / "kb-schema3.sql"
ITEM_TABLES = {"constants", "tasks", "methods", "method_subtasks", "operators", "knowledge_tests"}


def _schema3(path: Path, *fix: str) -> Path:
    """The schema-3 file of ``tests/data/kb-schema3.sql``, with the SQL ``fix`` applied."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.executescript(SCHEMA3.read_text(encoding="utf-8"))
    for sql in fix:
        conn.execute(sql)
    conn.close()
    return path


def _tables(path: Path) -> set[str]:
    conn = sqlite3.connect(path)
    try:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        conn.close()


def test_a_schema_3_store_keeps_every_domain_and_loses_its_item_tables(tmp_path) -> None:
    path = _schema3(tmp_path / "kb.db")
    old = sqlite3.connect(path)
    heads = dict(old.execute("SELECT name, revision FROM domains"))
    snapshots = dict(old.execute("SELECT id, snapshot FROM revisions"))
    old.close()
    store = KnowledgeStore(path, validator=validate)
    try:
        assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 4
        assert SCHEMA_VERSION == 4
        assert not _tables(path) & ITEM_TABLES
        columns = [r[1] for r in sqlite3.connect(path).execute("PRAGMA table_info(domains)")]
        assert columns == ["name", "package", "revision", "created", "updated"]
        for domain, head in heads.items():
            # The rows agreed with the head snapshot: no revision was made, and the domain
            # reads as it did.
            assert store.revision(domain) == head
            assert store.export(domain) == snapshots[head]
            assert store.load(domain) == parse_domain_file_text(snapshots[head])[0]
        dinner = store.load("dinner")
        assert dinner.constant_values()["dinner_minutes"] == 75
        assert [m.name for m in dinner.methods_of("GoToDinnerAndMovie")] == [
            "DinnerThenMovie",
            "MovieThenDinner",
        ]
        assert store.header("dinner").startswith('# "Dinner and a movie"')
        # History works on: undoing the reorder, then the edit, reaches the import.
        store.undo("dinner")
        store.undo("dinner")
        assert store.export("dinner") == snapshots[1]
        assert store.problem_text("dinner", "dinner") == ""
    finally:
        store.close()
    backup = tmp_path / "kb.db.v3.bak"
    assert _tables(backup) >= ITEM_TABLES


def test_rows_that_differ_from_the_head_snapshot_become_a_revision(tmp_path) -> None:
    """What the store read until now (the rows) stays what it reads; the snapshot that
    disagreed is kept in the history, one undo away."""
    path = _schema3(
        tmp_path / "kb.db",
        "UPDATE constants SET value = '95' WHERE domain = 'dinner' AND name = 'dinner_minutes'",
    )
    store = KnowledgeStore(path, validator=validate)
    try:
        assert store.load("dinner").constant_values()["dinner_minutes"] == 95
        head = store.history("dinner")[-1]
        assert (head.author, head.action, head.kind, head.parent) == (
            "schema migration",
            "import",
            "domain",
            4,
        )
        assert "revision 4's snapshot differed" in head.message
        assert "-value = 75\n+value = 95\n" in store.diff("dinner", 4, head.id)
        store.undo("dinner")
        assert store.load("dinner").constant_values()["dinner_minutes"] == 75
        assert store.revision("finesse") == 2  # the other domain agreed: untouched
    finally:
        store.close()


def test_a_domain_without_a_snapshot_gets_one_from_its_rows(tmp_path) -> None:
    path = _schema3(
        tmp_path / "kb.db",
        "UPDATE domains SET revision = 0 WHERE name = 'finesse'",
        "DELETE FROM revisions WHERE domain = 'finesse'",
    )
    expected = get_package("examples").spec("finesse")
    store = KnowledgeStore(path, validator=validate)
    try:
        assert store.load("finesse") == expected
        (only,) = store.history("finesse")
        assert (only.action, only.parent) == ("import", None)
    finally:
        store.close()


def test_a_store_the_migration_cannot_carry_over_is_left_as_it_was(tmp_path, capsys) -> None:
    """Rows that make no domain and no snapshot to fall back on: refused in one line, the
    file left at schema 3 (and backed up), nothing dropped."""
    path = _schema3(
        tmp_path / "kb.db",
        "UPDATE domains SET revision = 0, roots = 'not json' WHERE name = 'finesse'",
        "DELETE FROM revisions WHERE domain = 'finesse'",
    )
    with pytest.raises(NotAStore, match="cannot be brought to schema 4: domain 'finesse'"):
        KnowledgeStore(path)
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 3
    assert _tables(path) >= ITEM_TABLES
    assert main(["kb", "list", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("workbench: error:") and err.count("\n") == 1
    assert "Traceback" not in err


def test_rows_that_make_no_domain_leave_the_head_snapshot(tmp_path) -> None:
    path = _schema3(
        tmp_path / "kb.db", "UPDATE domains SET roots = 'not json' WHERE name = 'dinner'"
    )
    store = KnowledgeStore(path)
    try:
        assert store.revision("dinner") == 4
        assert store.load("dinner").roots == ["GoToDinnerAndMovie"]
    finally:
        store.close()


# ----------------------------------------------------------------- reading the head text


def _hddl_store(tmp_path: Path) -> Path:
    db = tmp_path / "kb.db"
    examples = ROOT / "knowledge" / "hddl" / "examples"
    domain, problem = examples / "delivery-domain.hddl", examples / "delivery-p1.hddl"
    assert main(["kb", "import", str(domain), str(problem), "--db", str(db)]) == 0
    return db


def test_summaries_are_what_a_full_read_gives(tmp_path, capsys) -> None:
    store = open_store(_hddl_store(tmp_path))
    capsys.readouterr()
    try:
        odd = store.load("dinner").model_copy(
            update={"description": 'says "hi"\n[[tasks]]\n[x] = 1 # not a comment'}
        )
        texts = [store.head_text(d.name) for d in store.domains()]
        texts += [dump_domain_source(odd, "# [[tasks]]"), 'name = "bare"\n']
        assert len(texts) >= 7
        for text in texts:
            spec = parse_domain_file_text(text)[0]
            counts = {k: len(getattr(spec, k)) for k in ("constants", "tasks", "methods")}
            counts |= {k: len(getattr(spec, k)) for k in ("operators", "tests")}
            assert summarize(text) == (spec.description, counts)
    finally:
        store.close()


def test_kb_list_counts_follow_edits(tmp_path, capsys) -> None:
    db = str(_hddl_store(tmp_path))

    def listed() -> dict[str, dict[str, object]]:
        capsys.readouterr()
        assert main(["kb", "list", "--json", "--db", db]) == 0
        return {d["name"]: d for d in json.loads(capsys.readouterr().out)}

    before = listed()
    assert before["delivery"]["counts"] == {
        "constants": 0,
        "tasks": 2,
        "methods": 4,
        "operators": 3,
        "tests": 0,
        "problems": 1,
    }
    assert before["delivery"]["description"] == "HDDL, from delivery-domain.hddl"
    edaps = get_package("edaps").spec("edaps")
    assert before["edaps"]["counts"] == {
        "constants": len(edaps.constants),
        "tasks": len(edaps.tasks),
        "methods": len(edaps.methods),
        "operators": len(edaps.operators),
        "tests": len(edaps.tests),
        "problems": 3,
    }
    assert main(["kb", "set", "dinner", "constant", "tip", "value=3", "--db", db]) == 0
    store = open_store(db)
    try:
        store.edit("dinner", "method", "GoToDinnerAndMovie.MovieThenDinner", None, base=None)
    finally:
        store.close()
    after = listed()["dinner"]["counts"]
    assert isinstance(after, dict)
    assert (after["constants"], after["methods"]) == (3, 3)
