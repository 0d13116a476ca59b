"""HDDL domains in the knowledge store: imported with their problems, exported as HDDL that
reads back to an equal model, planned by name, validated by re-reading the stored text, and
versioned like every other domain.

Only files of this project are read (``knowledge/hddl/examples/``) and files written to
``tmp_path``; the IPC domains are for ``benchmarks/hddl_store_roundtrip.py``.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from knowledge.hddl import HddlError, parse_domain, read_domain, read_problem, write_domain
from knowledge.hddl.model import Domain
from knowledge.hddl.stored import (
    PROBLEM_KIND,
    check_spec,
    domain_to_spec,
    hddl_text,
    looks_like_domain,
    spec_to_domain,
)
from workbench.cli import main
from workbench.kb import EditRejected
from workbench.kb.catalog import open_store, validate

EXAMPLES = Path(__file__).resolve().parents[1] / "knowledge/hddl/examples"
DELIVERY = EXAMPLES / "delivery-domain.hddl"
DELIVERY_PROBLEMS = [EXAMPLES / "delivery-p1.hddl", EXAMPLES / "delivery-unsolvable.hddl"]
LIGHTS = EXAMPLES / "lights-domain.hddl"
LIGHTS_PROBLEMS = [EXAMPLES / "lights-p1.hddl"]

CaptureFixture = pytest.CaptureFixture[str]


def cli(capsys: CaptureFixture, *argv: str | Path) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return status, out.out, out.err


def cli_json(capsys: CaptureFixture, *argv: str | Path) -> Any:
    status, out, err = cli(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "kb.db")


def import_examples(capsys: CaptureFixture, db: str) -> None:
    for domain, problems in ((DELIVERY, DELIVERY_PROBLEMS), (LIGHTS, LIGHTS_PROBLEMS)):
        status, _, err = cli(capsys, "kb", "import", domain, *problems, "--db", db)
        assert status == 0, err


def fingerprint(path: str) -> list[Any]:
    """Every row of every table: what 'nothing was written' means."""
    conn = sqlite3.connect(path)
    try:
        tables = [
            r[0]
            for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY 1")
        ]
        return [(t, sorted(map(repr, conn.execute(f"SELECT * FROM {t}")))) for t in tables]
    finally:
        conn.close()


# ----------------------------------------------------------------- round trip


@pytest.mark.parametrize(
    ("source", "problems"), [(DELIVERY, DELIVERY_PROBLEMS), (LIGHTS, LIGHTS_PROBLEMS)]
)
def test_import_then_export_as_hddl_reads_back_equal(
    capsys: CaptureFixture, db: str, tmp_path: Path, source: Path, problems: list[Path]
) -> None:
    import_examples(capsys, db)
    original = read_domain(source)
    out = tmp_path / "exported-domain.hddl"
    status, _, err = cli(
        capsys, "kb", "export", original.name, "--format", "hddl", "-o", out, "--db", db
    )
    assert status == 0, err
    exported = read_domain(out)
    # Part by part, for a message that says which part differs; then the whole.
    assert exported.name == original.name
    assert exported.requirements == original.requirements
    assert exported.types == original.types
    assert exported.constants == original.constants
    assert exported.predicates == original.predicates
    assert exported.tasks == original.tasks
    assert [m.name for m in exported.methods] == [m.name for m in original.methods]
    for mine, theirs in zip(exported.methods, original.methods, strict=True):
        assert mine.task == theirs.task
        assert mine.params == theirs.params
        assert mine.precondition == theirs.precondition
        assert mine.constraints == theirs.constraints
        assert mine.subtasks == theirs.subtasks
    assert exported.actions == original.actions
    assert exported == original
    for file in problems:
        problem = read_problem(file, original)
        target = tmp_path / f"exported-{problem.name}.hddl"
        status, _, err = cli(
            capsys,
            "kb",
            "export",
            original.name,
            "--format",
            "hddl",
            "--problem",
            problem.name,
            "-o",
            target,
            "--db",
            db,
        )
        assert status == 0, err
        assert read_problem(target, exported) == problem


def test_export_to_stdout_is_the_canonical_text_and_kb_stays_the_default(
    capsys: CaptureFixture, db: str
) -> None:
    import_examples(capsys, db)
    status, out, _ = cli(capsys, "kb", "export", "delivery", "--format", "hddl", "--db", db)
    assert status == 0
    assert out == write_domain(read_domain(DELIVERY))
    assert parse_domain(out) == read_domain(DELIVERY)
    status, toml, _ = cli(capsys, "kb", "export", "delivery", "--db", db)
    assert status == 0 and toml.startswith('name = "delivery"') and "[extra]" in toml


def test_the_store_shows_the_derived_view(capsys: CaptureFixture, db: str) -> None:
    import_examples(capsys, db)
    domains = {d["name"]: d for d in cli_json(capsys, "kb", "list", "--db", db)}
    assert domains["delivery"]["package"] == "hddl"
    assert domains["delivery"]["counts"]["problems"] == 2
    assert domains["delivery"]["counts"]["methods"] == 4
    shown = cli_json(capsys, "kb", "list", "delivery", "--db", db)
    spec = shown["domain"]
    assert [t["name"] for t in spec["tasks"]] == ["deliver", "get-to"]
    assert [(m["task"], m["name"]) for m in spec["methods"]] == [
        ("deliver", "deliver-here"),
        ("deliver", "deliver-by-vehicle"),
        ("get-to", "arrived"),
        ("get-to", "drive-on"),
    ]
    by_vehicle = spec["methods"][1]
    assert by_vehicle["subtasks"] == [
        "(get-to ?v ?from)",
        "(load ?v ?p ?from)",
        "(get-to ?v ?to)",
        "(unload ?v ?p ?to)",
    ]
    assert [o["name"] for o in spec["operators"]] == ["drive", "load", "unload"]
    assert {p["name"]: p["kind"] for p in shown["problems"]} == {
        "delivery-p1": PROBLEM_KIND,
        "delivery-unsolvable": PROBLEM_KIND,
    }
    status, out, _ = cli(capsys, "kb", "list", "delivery", "--db", db)
    assert status == 0 and "task get-to(v, to)" in out and "problem delivery-p1" in out


def test_content_not_the_extension_can_say_hddl(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    renamed = tmp_path / "delivery.txt"
    renamed.write_text(DELIVERY.read_text(encoding="utf-8"), encoding="utf-8")
    assert looks_like_domain(renamed.read_text(encoding="utf-8"))
    assert not looks_like_domain((EXAMPLES / "delivery-p1.hddl").read_text(encoding="utf-8"))
    rev = cli_json(capsys, "kb", "import", renamed, DELIVERY_PROBLEMS[0], "--db", db)
    assert rev["domain"] == "delivery" and rev["problems"] == ["delivery-p1"]


def test_problems_are_stored_under_their_file_names(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    """IPC domains reuse a problem's name in file after file (every Freecell problem is
    ``p``): the file's name is the key, so one never silently replaces another."""
    text = DELIVERY_PROBLEMS[0].read_text(encoding="utf-8")
    first, second = tmp_path / "first.hddl", tmp_path / "second.HDDL"
    first.write_text(text, encoding="utf-8")
    second.write_text(text.replace("(at glasses south)", "(at glasses hq)"), encoding="utf-8")
    rev = cli_json(capsys, "kb", "import", DELIVERY, first, second, "--db", db)
    assert rev["problems"] == ["first", "second"]
    shown = cli_json(capsys, "kb", "list", "delivery", "--db", db)["problems"]
    assert [(p["name"], p["description"]) for p in shown] == [
        ("first", "HDDL (problem delivery-p1), from first.hddl"),
        ("second", "HDDL (problem delivery-p1), from second.HDDL"),
    ]
    plans = [cli_json(capsys, "plan", "hddl", "delivery", n, "--db", db) for n in rev["problems"]]
    assert plans[0]["problem"] == plans[1]["problem"] == "delivery-p1"
    assert plans[0]["plan"] != plans[1]["plan"]
    before = fingerprint(db)
    other = tmp_path / "other"
    other.mkdir()
    (other / "First.hddl").write_text(text, encoding="utf-8")
    status, _, err = cli(capsys, "kb", "import", DELIVERY, first, other / "First.hddl", "--db", db)
    assert status == 1 and "a problem named 'First' comes from" in err
    assert fingerprint(db) == before


# ----------------------------------------------------------------- planning


def test_plan_by_name_from_the_store_is_the_plan_from_the_files(
    capsys: CaptureFixture, db: str
) -> None:
    import_examples(capsys, db)
    for domain, problem, name in (
        ("delivery", DELIVERY_PROBLEMS[0], "delivery-p1"),
        ("lights", LIGHTS_PROBLEMS[0], "lights-p1"),
    ):
        source = DELIVERY if domain == "delivery" else LIGHTS
        stored = cli_json(capsys, "plan", "hddl", domain, name, "--db", db)
        files = cli_json(capsys, "plan", "hddl", source, problem, "--db", db)
        assert stored["status"] == "solved"
        for key in ("domain", "problem", "plan", "root", "decomposition", "nodes"):
            assert stored[key] == files[key], key
        status, ipc_stored, _ = cli(capsys, "plan", "hddl", domain, name, "--ipc", "--db", db)
        assert status == 0
        assert ipc_stored == cli(capsys, "plan", "hddl", source, problem, "--ipc")[1]
    status, out, _ = cli(capsys, "plan", "hddl", "delivery", "delivery-unsolvable", "--db", db)
    assert status == 2 and out.startswith("delivery/delivery-unsolvable (first): no plan exists")


def test_plan_by_name_says_what_is_missing(capsys: CaptureFixture, db: str) -> None:
    import_examples(capsys, db)
    status, _, err = cli(capsys, "plan", "hddl", "delivery", "p9", "--db", db)
    assert status == 1 and "no problem 'p9' is stored with HDDL domain 'delivery'" in err
    status, _, err = cli(capsys, "plan", "hddl", "nowhere", "p1", "--db", db)
    assert status == 1 and "no domain 'nowhere'" in err
    status, _, err = cli(capsys, "plan", "hddl", "edaps", "RM1", "--db", db)
    assert status == 1 and "domain 'edaps' is not an HDDL domain" in err
    # A path that does not exist is a file that does not exist, not a name.
    status, _, err = cli(capsys, "plan", "hddl", DELIVERY, "missing.hddl", "--db", db)
    assert status == 1 and "missing.hddl: no such file" in err


def test_workbench_list_lists_stored_hddl_problems(capsys: CaptureFixture, db: str) -> None:
    import_examples(capsys, db)
    listing = cli_json(capsys, "list", "--db", db)
    hddl = next(p for p in listing if p["package"] == "hddl")
    assert [(p["domain"], p["name"]) for p in hddl["problems"]] == [
        ("delivery", "delivery-p1"),
        ("delivery", "delivery-unsolvable"),
        ("lights", "lights-p1"),
    ]
    status, out, _ = cli(capsys, "list", "--db", db)
    assert status == 0 and "  delivery delivery-p1" in out


# ----------------------------------------------------------------- bad input


def test_a_bad_domain_file_is_refused_with_its_place_and_nothing_is_written(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    cli(capsys, "kb", "list", "--db", db)  # the store, seeded
    before = fingerprint(db)
    broken = tmp_path / "broken-domain.hddl"
    broken.write_text(
        DELIVERY.read_text(encoding="utf-8").replace("(road ?from ?next)", "(road ?from ?nxt)"),
        encoding="utf-8",
    )
    status, out, err = cli(capsys, "kb", "import", broken, *DELIVERY_PROBLEMS, "--db", db)
    assert status == 1 and out == ""
    assert f"{broken}:58:50: undeclared variable '?nxt'" in err
    assert "nothing was imported" in err
    # A good domain with a problem of another domain: nothing, not half.
    status, _, err = cli(capsys, "kb", "import", DELIVERY, LIGHTS_PROBLEMS[0], "--db", db)
    assert status == 1
    assert "lights-p1.hddl:3:4: the problem is for domain 'lights', not 'delivery'" in err
    syntax = tmp_path / "syntax.hddl"
    syntax.write_text("(define (domain d)\n  (:types a - )\n)\n", encoding="utf-8")
    status, _, err = cli(capsys, "kb", "import", syntax, "--db", db)
    assert status == 1 and f"{syntax}:2:" in err
    status, _, err = cli(capsys, "kb", "import", DELIVERY, tmp_path / "none.hddl", "--db", db)
    assert status == 1 and "none.hddl" in err
    assert fingerprint(db) == before


def test_an_hddl_domain_cannot_replace_another_packages_domain(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    cli(capsys, "kb", "list", "--db", db)
    before = fingerprint(db)
    impostor = tmp_path / "edaps.hddl"
    impostor.write_text(
        DELIVERY.read_text(encoding="utf-8").replace("(domain delivery)", "(domain edaps)"),
        encoding="utf-8",
    )
    status, _, err = cli(capsys, "kb", "import", impostor, "--db", db)
    assert status == 1 and "belongs to package 'edaps'" in err
    assert fingerprint(db) == before


def test_store_names(tmp_path: Path) -> None:
    with pytest.raises(HddlError, match="cannot name a domain in the store"):
        domain_to_spec(Domain(name="2nd"))
    spec = domain_to_spec(read_domain(DELIVERY))
    assert spec.name == "delivery" and spec.description == "HDDL, from delivery-domain.hddl"
    assert hddl_text(spec).startswith("(define (domain delivery)")
    plain = spec.model_copy(update={"extra": {}})
    with pytest.raises(HddlError, match="'delivery' is not an HDDL domain"):
        spec_to_domain(plain)
    damaged = spec.model_copy(update={"extra": {"hddl": 42}})
    with pytest.raises(HddlError, match="damaged HDDL text"):
        spec_to_domain(damaged)
    renamed = spec.model_copy(update={"name": "other"})
    with pytest.raises(HddlError, match="defines domain 'delivery', but it is stored as 'other'"):
        spec_to_domain(renamed)


# ----------------------------------------------------------------- validation and history


def test_the_validator_rereads_the_stored_hddl(tmp_path: Path) -> None:
    store = open_store(tmp_path / "kb.db")
    try:
        spec = domain_to_spec(read_domain(DELIVERY))
        store.import_spec(spec, package="hddl", path=str(DELIVERY))
        revision = store.revision("delivery")
        lines = list(spec.extra["hddl"])
        at = next(i for i, line in enumerate(lines) if "(road ?from ?next)" in line)
        lines[at] = lines[at].replace("?next)", "?nxt)")
        broken = spec.model_copy(update={"extra": {"hddl": lines}})
        problems = validate("delivery", broken)
        assert len(problems) == 1
        assert problems[0].startswith(f"delivery (stored HDDL):{at + 1}:")
        assert "undeclared variable '?nxt'" in problems[0]
        with pytest.raises(EditRejected, match="undeclared variable"):
            store.import_spec(broken, package="hddl")
        assert store.revision("delivery") == revision
        assert spec_to_domain(store.load("delivery")) == read_domain(DELIVERY)
        assert check_spec(store.load("delivery")) == []
    finally:
        store.close()


def test_the_derived_view_cannot_be_edited_but_tests_can_be_added(
    capsys: CaptureFixture, db: str
) -> None:
    import_examples(capsys, db)
    status, _, err = cli(
        capsys,
        "kb",
        "set",
        "delivery",
        "method",
        "deliver.deliver-here",
        "precondition=(at ?p ?p)",
        "--db",
        db,
    )
    assert status == 1
    assert "derived from its HDDL text and cannot be edited one by one" in err
    expect = json.dumps({"outcome": "plan", "steps": 7, "found": True})
    status, _, err = cli(
        capsys,
        "kb",
        "set",
        "delivery",
        "test",
        "delivers",
        "problem=delivery-p1",
        f"expect={expect}",
        "--db",
        db,
    )
    assert status == 0, err
    status, out, _ = cli(capsys, "kb", "test", "delivery", "--db", db)
    assert status == 0 and "PASS  delivery: delivers" in out
    # A re-import replaces what the HDDL says and keeps the store's own tests.
    cli(capsys, "kb", "import", DELIVERY, "--db", db)
    status, out, _ = cli(capsys, "kb", "test", "delivery", "--db", db)
    assert status == 0 and "1 passed, 0 failed" in out


def test_lint_and_tests_of_hddl_domains_run(capsys: CaptureFixture, db: str) -> None:
    import_examples(capsys, db)
    for domain in ("delivery", "lights"):
        report = cli_json(capsys, "kb", "lint", domain, "--db", db)
        assert report == {"domain": domain, "errors": 0, "warnings": 0, "findings": []}
    status, out, _ = cli(capsys, "kb", "test", "--db", db)
    assert status == 0 and "delivery: 0 passed, 0 failed" in out


def test_lint_of_an_hddl_domain_reads_its_calls(capsys: CaptureFixture, tmp_path: Path) -> None:
    from workbench.kb.lint import lint_domain

    spec = domain_to_spec(read_domain(DELIVERY))
    # Drop the method that drives: 'drive' is then unused, and found so from HDDL calls.
    methods = [m for m in spec.methods if m.name != "drive-on"]
    findings = lint_domain(spec.model_copy(update={"methods": methods}))
    rules = {(f.rule, f.name) for f in findings}
    assert ("unused-operator", "drive") in rules
    assert ("compile", "delivery") in rules  # the view no longer matches the HDDL
    assert not {r for r, _ in rules} & {"no-roots", "missing-label", "never-applicable"}


def test_reimport_is_a_new_revision_and_undo_restores(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    import_examples(capsys, db)
    first = cli_json(capsys, "kb", "history", "delivery", "--db", db)
    changed = tmp_path / "delivery-changed.hddl"
    changed.write_text(
        DELIVERY.read_text(encoding="utf-8").replace("(road ?from ?next)", "(road ?next ?from)"),
        encoding="utf-8",
    )
    rev = cli_json(capsys, "kb", "import", changed, "--replace", "--db", db)
    history = cli_json(capsys, "kb", "history", "delivery", "--db", db)
    assert len(history) == len(first) + 1 and history[-1]["action"] == "import"
    assert rev["revision"] == history[-1]["revision"] > first[-1]["revision"]
    status, diff, _ = cli(
        capsys,
        "kb",
        "history",
        "delivery",
        "--diff",
        str(first[-1]["revision"]),
        str(rev["revision"]),
        "--db",
        db,
    )
    # The stored HDDL is kept line by line: the diff shows the line of HDDL that changed.
    assert status == 0 and '+    "    :precondition (and (at ?v ?from) (road ?next ?from)' in diff

    def exported() -> Domain:
        out = tmp_path / "out.hddl"
        assert main(["kb", "export", "delivery", "--format", "hddl", "-o", str(out)]) == 0
        capsys.readouterr()
        return read_domain(out)

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("WORKBENCH_DB", db)
        assert exported() == read_domain(changed)
        undo = cli_json(capsys, "kb", "undo", "delivery")
        assert undo["action"] == "undo" and undo["reverts"] == rev["revision"]
        assert exported() == read_domain(DELIVERY)
        status, out, _ = cli(capsys, "plan", "hddl", "delivery", "delivery-p1")
        assert status == 0 and out.startswith("delivery/delivery-p1 (first): plan found")
        cli_json(capsys, "kb", "redo", "delivery")
        assert exported() == read_domain(changed)


def test_a_kb_export_of_an_hddl_domain_imports_back_to_the_hddl_package(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    import_examples(capsys, db)
    toml = tmp_path / "delivery.toml"
    assert cli(capsys, "kb", "export", "delivery", "-o", toml, "--db", db)[0] == 0
    other = str(tmp_path / "other.db")
    assert cli(capsys, "kb", "import", toml, "--db", other)[0] == 0
    domains = {d["name"]: d for d in cli_json(capsys, "kb", "list", "--db", other)}
    assert domains["delivery"]["package"] == "hddl"
    spec = open_store(other)
    try:
        assert spec_to_domain(spec.load("delivery")) == read_domain(DELIVERY)
    finally:
        spec.close()


def test_export_refusals(capsys: CaptureFixture, db: str) -> None:
    import_examples(capsys, db)
    status, _, err = cli(capsys, "kb", "export", "edaps", "--format", "hddl", "--db", db)
    assert status == 1 and "'edaps' (package 'edaps') is not an HDDL domain" in err
    status, _, err = cli(
        capsys, "kb", "export", "delivery", "--format", "hddl", "--problem", "p9", "--db", db
    )
    assert (
        status == 1 and "no HDDL problem 'p9' (problems: delivery-p1, delivery-unsolvable)" in err
    )
    status, _, err = cli(capsys, "kb", "export", "delivery", "--problem", "delivery-p1", "--db", db)
    assert status == 1 and "add --format hddl" in err
