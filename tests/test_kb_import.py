"""``kb import`` never overwrites silently, and names the file for every reader error.

Issue 26: IPC's Blocksworld-HPDDL and Multiarm-Blocksworld are both ``(domain blocks)``;
importing one after the other replaced the first without a word, and its stored problems
then failed to plan.  The two domains here are tiny stand-ins made by the test (one with
arms, one without), so that nothing outside the repository is read.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from workbench.cli import main
from workbench.kb.catalog import open_store
from workbench.kb.store import NameTaken

CaptureFixture = pytest.CaptureFixture[str]

# Two different domains of one name, as in IPC 2020.
PLAIN = """(define (domain blocks)
  (:requirements :typing :hierarchy)
  (:types block)
  (:predicates (on-table ?b - block) (held ?b - block))
  (:task lift :parameters (?b - block))
  (:method lift-it :parameters (?b - block) :task (lift ?b)
    :ordered-subtasks (and (pick ?b)))
  (:action pick :parameters (?b - block)
    :precondition (on-table ?b) :effect (and (not (on-table ?b)) (held ?b))))
"""
MULTIARM = """(define (domain blocks)
  (:requirements :typing :hierarchy)
  (:types block arm)
  (:predicates (on-table ?b - block) (held ?b - block) (free ?a - arm))
  (:task lift :parameters (?b - block))
  (:method lift-with-an-arm :parameters (?b - block ?a - arm) :task (lift ?b)
    :ordered-subtasks (and (pick ?a ?b)))
  (:action pick :parameters (?a - arm ?b - block)
    :precondition (and (free ?a) (on-table ?b))
    :effect (and (not (on-table ?b)) (not (free ?a)) (held ?b))))
"""
PLAIN_PROBLEM = """(define (problem p) (:domain blocks)
  (:objects b1 - block)
  (:htn :ordered-subtasks (and (lift b1)))
  (:init (on-table b1)))
"""
MULTIARM_PROBLEM = """(define (problem p) (:domain blocks)
  (:objects b1 - block arm1 - arm)
  (:htn :ordered-subtasks (and (lift b1)))
  (:init (on-table b1) (free arm1)))
"""


def cli(capsys: CaptureFixture, *argv: str | Path) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return status, out.out, out.err


def cli_json(capsys: CaptureFixture, *argv: str | Path) -> Any:
    status, out, err = cli(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out)


def fingerprint(path: str | Path) -> list[Any]:
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


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for folder, domain, problem in (
        ("hpddl", PLAIN, PLAIN_PROBLEM),
        ("multiarm", MULTIARM, MULTIARM_PROBLEM),
    ):
        (tmp_path / folder).mkdir()
        out[folder] = tmp_path / folder / "domain.hddl"
        out[folder].write_text(domain, encoding="utf-8")
        out[f"{folder}-p01"] = tmp_path / folder / "p01.hddl"
        out[f"{folder}-p01"].write_text(problem, encoding="utf-8")
    return out


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "kb.db")


def history(capsys: CaptureFixture, db: str, domain: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = cli_json(capsys, "kb", "history", domain, "--db", db)
    return result


def plans(capsys: CaptureFixture, db: str, domain: str, problem: str) -> str:
    status, out, err = cli(capsys, "plan", "hddl", domain, problem, "--db", db)
    assert status == 0, err
    return out


# ----------------------------------------------------------------- domains


def test_a_domain_name_taken_by_other_content_is_refused_naming_both(
    capsys: CaptureFixture, db: str, files: dict[str, Path]
) -> None:
    rev = cli_json(capsys, "kb", "import", files["multiarm"], files["multiarm-p01"], "--db", db)
    assert rev["domain"] == "blocks" and rev["problems"] == ["p01"]
    assert "(pick arm1 b1)" in plans(capsys, db, "blocks", "p01")
    before = fingerprint(db)
    status, out, err = cli(capsys, "kb", "import", files["hpddl"], "--db", db)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("workbench: error: ")
    assert f"{files['hpddl']} defines domain 'blocks'" in err
    assert f"imported from {files['multiarm']} as revision {rev['revision']}" in err
    assert "--replace" in err and "--as NAME" in err
    assert fingerprint(db) == before
    # The first domain's problems still plan (on main they failed: "undeclared type 'arm'").
    assert "(pick arm1 b1)" in plans(capsys, db, "blocks", "p01")


def test_replace_makes_a_new_revision_and_keeps_the_history(
    capsys: CaptureFixture, db: str, files: dict[str, Path]
) -> None:
    first = cli_json(capsys, "kb", "import", files["multiarm"], "--db", db)
    rev = cli_json(capsys, "kb", "import", files["hpddl"], "--replace", "--db", db)
    assert rev["revision"] > first["revision"] and not rev["unchanged"]
    revisions = [(r["revision"], r["action"]) for r in history(capsys, db, "blocks")]
    assert revisions == [(first["revision"], "import"), (rev["revision"], "import")]
    status, out, _ = cli(capsys, "kb", "export", "blocks", "--format", "hddl", "--db", db)
    assert status == 0 and "arm" not in out
    # The replaced content is one undo away.
    assert cli(capsys, "kb", "undo", "blocks", "--db", db)[0] == 0
    status, out, _ = cli(capsys, "kb", "export", "blocks", "--format", "hddl", "--db", db)
    assert status == 0 and "(free ?a - arm)" in out


def test_as_stores_the_domain_and_its_problems_under_another_name(
    capsys: CaptureFixture, db: str, files: dict[str, Path]
) -> None:
    cli_json(capsys, "kb", "import", files["multiarm"], files["multiarm-p01"], "--db", db)
    rev = cli_json(
        capsys, "kb", "import", files["hpddl"], files["hpddl-p01"], "--as", "blocks-hpddl",
        "--db", db,
    )  # fmt: skip
    assert rev["domain"] == "blocks-hpddl" and rev["problems"] == ["p01"]
    assert "(pick b1)" in plans(capsys, db, "blocks-hpddl", "p01")
    assert "(pick arm1 b1)" in plans(capsys, db, "blocks", "p01")
    status, out, _ = cli(capsys, "kb", "export", "blocks-hpddl", "--format", "hddl", "--db", db)
    assert status == 0 and "(domain blocks-hpddl)" in out
    # A name HDDL would read back otherwise is refused, saying which to use.
    status, _, err = cli(capsys, "kb", "import", files["hpddl"], "--as", "Blocks2", "--db", db)
    assert status == 1 and "use --as blocks2" in err


def test_reimporting_identical_content_changes_nothing(
    capsys: CaptureFixture, db: str, files: dict[str, Path], tmp_path: Path
) -> None:
    rev = cli_json(capsys, "kb", "import", files["hpddl"], "--db", db)
    before = fingerprint(db)
    again = cli_json(capsys, "kb", "import", files["hpddl"], "--db", db)
    assert again["unchanged"] and again["revision"] == rev["revision"]
    assert fingerprint(db) == before
    status, out, _ = cli(capsys, "kb", "import", files["hpddl"], "--db", db)
    assert status == 0 and "the domain is unchanged" in out
    # The same text with other spacing and comments is the same domain.
    spaced = tmp_path / "spaced.hddl"
    spaced.write_text("; a comment\n" + PLAIN.replace(" ", "  "), encoding="utf-8")
    assert cli_json(capsys, "kb", "import", spaced, "--db", db)["unchanged"]
    # A new problem with an unchanged domain is added, without a revision.
    again = cli_json(capsys, "kb", "import", files["hpddl"], files["hpddl-p01"], "--db", db)
    assert again["unchanged"] and again["revision"] == rev["revision"]
    assert "(pick b1)" in plans(capsys, db, "blocks", "p01")


# ----------------------------------------------------------------- problems


def test_a_problem_name_taken_by_other_content_is_refused(
    capsys: CaptureFixture, db: str, files: dict[str, Path], tmp_path: Path
) -> None:
    cli_json(capsys, "kb", "import", files["hpddl"], files["hpddl-p01"], "--db", db)
    other = tmp_path / "other"
    other.mkdir()
    changed = other / "P01.hddl"  # problems are looked up in any case
    changed.write_text(PLAIN_PROBLEM.replace("b1", "b7"), encoding="utf-8")
    before = fingerprint(db)
    status, _, err = cli(capsys, "kb", "import", files["hpddl"], changed, "--db", db)
    assert status == 1 and err.count("\n") == 1
    assert f"{changed} is problem 'P01' of 'blocks'" in err
    assert "a different problem 'p01' (HDDL (problem p), from p01.hddl)" in err
    assert "defines domain" not in err  # the domain itself is unchanged
    assert fingerprint(db) == before
    assert "(pick b1)" in plans(capsys, db, "blocks", "p01")
    # The same content under the same name is no clash.
    assert cli(capsys, "kb", "import", files["hpddl"], files["hpddl-p01"], "--db", db)[0] == 0
    same = other / "p01.hddl"
    same.write_text(PLAIN_PROBLEM.replace("b1", "b7"), encoding="utf-8")
    assert cli(capsys, "kb", "import", files["hpddl"], same, "--replace", "--db", db)[0] == 0
    assert "(pick b7)" in plans(capsys, db, "blocks", "p01")


# ----------------------------------------------------------------- KB source files


def test_kb_source_files_follow_the_same_rules(
    capsys: CaptureFixture, db: str, tmp_path: Path
) -> None:
    exported = tmp_path / "dinner.toml"
    assert cli(capsys, "kb", "export", "dinner", "-o", exported, "--db", db)[0] == 0
    head = history(capsys, db, "dinner")[-1]["revision"]
    same = cli_json(capsys, "kb", "import", exported, "--db", db)
    assert same["unchanged"] and same["revision"] == head
    exported.write_text(
        exported.read_text(encoding="utf-8").replace("value = 90\n", "value = 75\n"),
        encoding="utf-8",
    )
    before = fingerprint(db)
    status, _, err = cli(capsys, "kb", "import", exported, "--db", db)
    assert status == 1 and f"{exported} defines domain 'dinner'" in err
    assert "imported from dinner.toml" in err
    # A package's domain is planned by its name: no --as offered, and none taken.
    assert "--replace" in err and "--as" not in err
    assert fingerprint(db) == before
    status, _, err = cli(capsys, "kb", "import", exported, "--as", "dinner2", "--db", db)
    assert status == 1 and "package 'examples' plans domain 'dinner' by its name" in err
    assert fingerprint(db) == before
    store = open_store(db)
    try:
        assert store.revision("dinner") == head and not store.has_domain("dinner2")
        # The store's API refuses the same way (the editor and scripts use it).
        with pytest.raises(NameTaken, match="defines domain 'dinner'"):
            store.import_text(exported.read_text(encoding="utf-8"), package="examples")
        # ... and a base revision says what is replaced: allowed.
        replaced = store.import_text(
            exported.read_text(encoding="utf-8"), package="examples", base=head
        )
        assert replaced.parent == head and not replaced.unchanged
    finally:
        store.close()
    # A domain no package plans can be stored under another name (a name it can take).
    mine = tmp_path / "mine.toml"
    mine.write_text(
        exported.read_text(encoding="utf-8").replace('name = "dinner"', 'name = "mine"', 1),
        encoding="utf-8",
    )
    status, _, err = cli(capsys, "kb", "import", mine, "--as", "no good", "--db", db)
    assert status == 1 and "the name 'no good'" in err
    rev = cli_json(capsys, "kb", "import", mine, "--as", "mine2", "--db", db)
    assert rev["domain"] == "mine2"


# ----------------------------------------------------------------- reader errors


def test_every_reader_error_names_the_file(
    capsys: CaptureFixture, db: str, files: dict[str, Path], tmp_path: Path
) -> None:
    bad = tmp_path / "latin1.hddl"
    latin1 = PLAIN.replace("(:types block)", "(:types block) ; caf\xe9", 1)
    bad.write_bytes(latin1.encode("latin-1"))
    status, _, err = cli(capsys, "kb", "import", bad, "--db", db)
    assert status == 1 and err.count("\n") == 1
    assert f"{bad}:3:23: byte 0xe9 is not UTF-8" in err
    bad_toml = tmp_path / "bad.toml"
    bad_toml.write_bytes(b'name = "x"\n\xff\n')
    status, _, err = cli(capsys, "kb", "import", bad_toml, "--db", db)
    assert status == 1 and f"{bad_toml}:2:1: byte 0xff is not UTF-8" in err
    bad_problem = tmp_path / "p02.hddl"
    bad_problem.write_bytes(PLAIN_PROBLEM.encode("utf-16"))
    status, _, err = cli(capsys, "kb", "import", files["hpddl"], bad_problem, "--db", db)
    assert status == 1 and f"{bad_problem}:1:1: byte 0xff is not UTF-8" in err
    assert "Traceback" not in err and "UnicodeDecodeError" not in err
    status, _, err = cli(capsys, "kb", "import", tmp_path, "--db", db)
    assert status == 1 and f"{tmp_path}: is a directory, not a file" in err
    status, _, err = cli(capsys, "kb", "import", files["hpddl"], tmp_path / "hpddl", "--db", db)
    assert status == 1 and f"{tmp_path / 'hpddl'}: is a directory, not a file" in err
    status, _, err = cli(capsys, "kb", "import", "/dev/null", "--db", db)
    assert status == 1 and "/dev/null: is a device, not a regular file" in err
    fifo = tmp_path / "fifo.hddl"
    os.mkfifo(fifo)  # never opened: reading it would block
    status, _, err = cli(capsys, "kb", "import", fifo, "--db", db)
    assert status == 1 and f"{fifo}: is a FIFO (named pipe), not a regular file" in err
    status, _, err = cli(capsys, "kb", "import", files["hpddl"], fifo, "--db", db)
    assert status == 1 and f"{fifo}: is a FIFO (named pipe), not a regular file" in err
    dangling = tmp_path / "gone.hddl"
    dangling.symlink_to(tmp_path / "nowhere.hddl")
    status, _, err = cli(capsys, "kb", "import", dangling, "--db", db)
    assert status == 1 and f"{dangling} is a link to nothing" in err
    store = open_store(db)
    try:
        assert not store.has_domain("blocks")
    finally:
        store.close()
