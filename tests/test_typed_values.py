"""Constants declare their type, and every path that saves knowledge checks it: ``kb set``,
``kb import``, a file edited by hand, and the editor (through the store's validator).  A
value saved before types existed is reported by ``kb lint``.  Nothing is half-saved."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from engine.tofs import DomainError, Registry, compile_domain, parse_domain_source
from engine.tofs.value_types import type_problem
from knowledge import get_package
from workbench.cli import main
from workbench.kb.catalog import open_store
from workbench.kb.lint import lint_domain
from workbench.kb.schema import MIGRATIONS

DOMAIN = """
name = "shop"
roots = ["Work"]

[[constants]]
name = "rate"
value = {value}
type = "{type}"

[[tasks]]
name = "Work"

[[methods]]
task = "Work"
name = "Rest"
subtasks = []
"""


@pytest.mark.parametrize(
    ("type_", "good", "bad", "expected"),
    [
        ("number", [0.5, 3, -2], ["'fast'", "true"], "expected a number"),
        ("integer", [3, -1, 4.0], ["2.5", "'two'"], "expected a whole number"),
        ("text", ["'fast'"], ["3", "false"], "expected text"),
        ("flag", ["true", "false"], ["1", "'yes'"], "expected true or false"),
    ],
)
def test_a_constant_must_hold_a_value_of_its_declared_type(
    type_: str, good: list[object], bad: list[str], expected: str
) -> None:
    for value in good:
        compile_domain(parse_domain_source(DOMAIN.format(value=value, type=type_)), Registry("r"))
    for value in bad:
        spec = parse_domain_source(DOMAIN.format(value=value, type=type_))
        with pytest.raises(DomainError) as info:
            compile_domain(spec, Registry("r"))
        assert f"constant rate [value]: {expected}, got" in str(info.value)


def test_an_unknown_type_is_named_with_the_ones_there_are() -> None:
    spec = parse_domain_source(DOMAIN.format(value=1, type="money"))
    with pytest.raises(DomainError) as info:
        compile_domain(spec, Registry("r"))
    assert "constant rate [type]: unknown type 'money'; expected one of" in str(info.value)
    assert "flag, integer, number, text" in str(info.value)


def test_a_domain_adds_its_own_types() -> None:
    reg = Registry("cards")
    reg.value_type("card", lambda v: isinstance(v, str) and len(v) == 2, "a card such as SA")
    compile_domain(parse_domain_source(DOMAIN.format(value="'SA'", type="card")), reg)
    assert type_problem("card", "S10x", reg.value_types) == "expected a card such as SA, got 'S10x'"


def test_every_shipped_constant_declares_its_type() -> None:
    for name in ("examples", "edaps", "bridge"):
        pkg = get_package(name)
        for domain in pkg.sources:
            untyped = [c.name for c in pkg.spec(domain).constants if c.type is None]
            assert untyped == [], (domain, untyped)


def _revision(db: Path, domain: str) -> int:
    store = open_store(db)
    try:
        return store.revision(domain)
    finally:
        store.close()


def test_kb_set_refuses_a_value_of_the_wrong_type_and_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kb.db"
    before = _revision(db, "edaps")
    args = ["kb", "set", "edaps", "constant", "spray_minutes", "value=abc", "--db", str(db)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert "constant spray_minutes [value]: expected a number, got 'abc'" in err
    assert _revision(db, "edaps") == before
    # The same command with a number is saved: a new revision.
    assert main([*args[:5], "value=0.1", "--db", str(db)]) == 0
    assert _revision(db, "edaps") > before


def test_kb_import_refuses_a_file_with_a_wrongly_typed_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "kb.db"
    source = get_package("examples").sources["dinner"].read_text(encoding="utf-8")
    edited = source.replace("value = 1080\n", 'value = "six pm"\n', 1)
    assert edited != source
    path = tmp_path / "dinner.toml"
    path.write_text(edited, encoding="utf-8")
    before = _revision(db, "dinner")
    assert main(["kb", "import", str(path), "--db", str(db)]) == 1
    assert "constant start_time [value]: expected a whole number from 0 to 1439, got 'six pm'" in (
        capsys.readouterr().err
    )
    assert _revision(db, "dinner") == before


def test_a_value_saved_before_types_existed_is_reported_by_lint(tmp_path: Path) -> None:
    """A store from schema 2 (no types) holding 'abc' in a number constant: opening it
    gives the constant the type the shipped file declares, and lint reports the value."""
    from sqlite_utils import Database

    db = tmp_path / "old.db"
    conn = sqlite3.connect(db, isolation_level=None)
    for migration in MIGRATIONS[:2]:  # a file as schema 2 made it: constants as rows
        migration(Database(conn))
    conn.execute("PRAGMA user_version = 2")
    conn.execute(
        "INSERT INTO domains (name, package, description, header, roots, extra, revision, "
        "created, updated) VALUES ('edaps', 'edaps', '', '', '[]', '{}', 0, 't', 't')"
    )
    for pos, c in enumerate(get_package("edaps").spec("edaps").constants):
        conn.execute(
            "INSERT INTO constants (domain, name, pos, value, description, unit) "
            "VALUES ('edaps', ?, ?, ?, ?, ?)",
            [
                c.name,
                pos,
                json.dumps("abc" if c.name == "spray_minutes" else c.value),
                c.description,
                c.unit,
            ],
        )
    conn.close()
    store = open_store(db)
    try:
        spec = store.load("edaps")
        constant = next(c for c in spec.constants if c.name == "spray_minutes")
        assert (constant.type, constant.value) == ("number", "abc")
        registry = get_package("edaps").registries["edaps"]
        findings = [f for f in lint_domain(spec, registry) if f.rule == "constant-type"]
        assert [(f.name, f.severity, f.message) for f in findings] == [
            ("spray_minutes", "error", "expected a number, got 'abc'")
        ]
    finally:
        store.close()
    assert (tmp_path / "old.db.v2.bak").exists()


def test_lint_warns_about_a_constant_without_a_type() -> None:
    spec = parse_domain_source(
        DOMAIN.format(value=1, type="number").replace('type = "number"\n', "")
    )
    findings = [f for f in lint_domain(spec) if f.rule == "untyped-constant"]
    assert [(f.name, f.severity) for f in findings] == [("rate", "warning")]
    assert "its value makes it 'integer'" in findings[0].message
