"""The knowledge store: migrations, round trips, revisions, concurrency, rejected edits,
files that are not ours, and the engine running on what was edited."""

from __future__ import annotations

import hashlib
import sqlite3
import threading
from pathlib import Path

import pytest

from engine.tofs import Reason
from knowledge import PlanRequest, get_package
from workbench.cli import main
from workbench.kb import EditRejected, KnowledgeStore, NotAStore, StaleRevision, UnknownItem
from workbench.kb.catalog import open_store, validate
from workbench.kb.schema import MIGRATIONS, SCHEMA_VERSION

ROOT = Path(__file__).resolve().parent.parent
SOURCES = {
    "dinner": ROOT / "knowledge" / "examples" / "dinner.toml",
    "finesse": ROOT / "knowledge" / "examples" / "finesse.toml",
    "edaps": ROOT / "knowledge" / "edaps" / "edaps.toml",
}


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "kb.db")
    yield s
    s.close()


def _fingerprint(path: Path) -> dict[str, str]:
    """Hashes of the database and its WAL: what "byte-identical" means for a WAL store."""
    out = {}
    for p in (path, path.with_name(path.name + "-wal")):
        if p.exists():
            out[p.name] = hashlib.sha256(p.read_bytes()).hexdigest()
    return out


# ----------------------------------------------------------------- schema and migrations


def test_new_file_gets_the_whole_schema(tmp_path) -> None:
    path = tmp_path / "new.db"
    KnowledgeStore(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"domains", "primitives", "problems", "revisions", "runs"} <= tables
    # Schema 4: a domain is its head revision's text; no item table restates the model.
    assert not tables & {
        "constants",
        "tasks",
        "methods",
        "method_subtasks",
        "operators",
        "knowledge_tests",
    }
    strict = {r[0] for r in conn.execute("SELECT name FROM pragma_table_list WHERE strict")}
    assert tables - {"sqlite_sequence"} <= strict
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_migrating_from_the_previous_version_keeps_data_and_backs_up(tmp_path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    from sqlite_utils import Database

    MIGRATIONS[0](Database(conn))
    conn.execute("PRAGMA user_version = 1")
    conn.execute(
        "INSERT INTO domains (name, package, description, header, roots, extra, "
        "revision, created, updated) VALUES ('d', 'p', 'old', '', '[]', '{}', 0, "
        "'t', 't')"
    )
    conn.close()
    store = KnowledgeStore(path)
    assert [d.name for d in store.domains()] == ["d"]
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    backup = tmp_path / "old.db.v1.bak"
    assert backup.exists()
    b = sqlite3.connect(backup)
    assert b.execute("PRAGMA user_version").fetchone()[0] == 1
    assert b.execute("SELECT description FROM domains").fetchone()[0] == "old"
    assert "knowledge_tests" not in {
        r[0] for r in b.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }


def test_a_newer_schema_is_refused_untouched(tmp_path) -> None:
    path = tmp_path / "future.db"
    KnowledgeStore(path).close()
    sqlite3.connect(path).execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    before = _fingerprint(path)
    with pytest.raises(NotAStore, match="newer workbench"):
        KnowledgeStore(path)
    assert _fingerprint(path) == before


@pytest.mark.parametrize(
    "content", [b"this is not a database\n" * 50, b"SQLite format 3\x00" + b"\xff" * 4000]
)
def test_a_corrupt_or_foreign_file_is_refused_untouched(tmp_path, content, capsys) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(content)
    with pytest.raises(NotAStore, match="left untouched"):
        KnowledgeStore(path)
    assert main(["kb", "list", "--db", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("workbench: error:") and "Traceback" not in err
    assert path.read_bytes() == content
    assert not (tmp_path / "notes.db-wal").exists()


def test_another_programs_sqlite_file_is_refused_untouched(tmp_path) -> None:
    path = tmp_path / "other.db"
    sqlite3.connect(path).execute("CREATE TABLE accounts (id INTEGER)")
    before = path.read_bytes()
    with pytest.raises(NotAStore, match="not a workbench database"):
        KnowledgeStore(path)
    assert path.read_bytes() == before


# ----------------------------------------------------------------- import and export


@pytest.mark.parametrize("domain", sorted(SOURCES))
def test_file_to_store_to_file_is_byte_stable(store, domain) -> None:
    assert store.export(domain) == SOURCES[domain].read_text(encoding="utf-8")
    spec = store.load(domain)
    assert spec == get_package(store.package_of(domain)).spec(domain)


def test_seeding_stores_problems_primitives_and_tests(store) -> None:
    assert {p["name"] for p in store.problems("edaps")} == {"MULTI", "RM1", "RUM1"}
    assert (
        store.problem_text("edaps", "RM1")
        == (ROOT / "knowledge" / "edaps" / "designs" / "RM1.txt").read_text()
    )
    prims = {p["name"]: p for p in store.primitives("edaps")}
    assert prims["on_side"]["doc"].startswith("Whether the milling feature touches")
    assert len(store.load("edaps").tests) == 5


def test_a_store_from_before_a_package_existed_gets_it_on_opening(tmp_path) -> None:
    from workbench.kb.catalog import seed

    path = tmp_path / "old.db"
    old = open_store(path, seed_bundled=False)
    seed(old, ["examples"])  # as a store made before EDAPS and bridge shipped
    assert {d.name for d in old.domains()} == {"dinner", "finesse"}
    old.close()
    reopened = open_store(path)
    try:
        names = {d.name for d in reopened.domains()}
        assert {"dinner", "finesse", "edaps", "bridge"} <= names
        assert reopened.problem_text("bridge", "353021") is not None
    finally:
        reopened.close()


def test_import_of_a_broken_file_is_rejected_untouched(store, tmp_path) -> None:
    bad = (
        SOURCES["dinner"]
        .read_text()
        .replace('precondition = "now() <= showtime(M)"', 'precondition = "now( <= showtime(M)"')
    )
    before = _fingerprint(store.path)
    with pytest.raises(EditRejected, match="syntax error"):
        store.import_text(bad, package="examples", path="dinner.toml")
    assert _fingerprint(store.path) == before


# ----------------------------------------------------------------- edits and history


def test_edit_undo_redo_and_history(store) -> None:
    base = store.revision("edaps")
    r1 = store.edit(
        "edaps",
        "constant",
        "spray_minutes",
        {"name": "spray_minutes", "value": 0.1, "description": "faster"},
        base=base,
    )
    assert r1.before["value"] == 0.5 and r1.after["value"] == 0.1
    assert store.load("edaps").constant_values()["spray_minutes"] == 0.1
    u = store.undo("edaps")
    assert u.reverts == r1.id
    assert store.load("edaps").constant_values()["spray_minutes"] == 0.5
    assert store.export("edaps") == SOURCES["edaps"].read_text()
    r = store.redo("edaps")
    assert r.reverts == r1.id and store.load("edaps").constant_values()["spray_minutes"] == 0.1
    store.undo("edaps")
    with pytest.raises(UnknownItem, match="nothing to undo"):
        store.undo("edaps")  # the bundled import is the domain's creation
    store.edit(
        "edaps",
        "constant",
        "dry_board_minutes",
        {"name": "dry_board_minutes", "value": 25.0},
        base=None,
    )
    with pytest.raises(UnknownItem, match="nothing to redo"):
        store.redo("edaps")  # a new edit clears the redo stack
    actions = [(h.action, h.target) for h in store.history("edaps")]
    assert actions[1:] == [
        ("update", "spray_minutes"),
        ("undo", "spray_minutes"),
        ("redo", "spray_minutes"),
        ("undo", "spray_minutes"),
        ("update", "dry_board_minutes"),
    ]
    diff = store.diff("edaps", r1.id, store.revision("edaps"))
    # An edit replaces the whole item: r1's spray_minutes had description "faster" and no
    # unit or type; the dry_board_minutes edit gave no description, unit or type either.
    changed = sorted(line for line in diff.splitlines()[2:] if line[:1] in "+-")
    assert changed == sorted(
        [
            "-value = 30.0",
            '-description = "Drying the board."',
            '-unit = "min"',
            '-type = "number"',
            "+value = 25.0",
            "-value = 0.1",
            '-description = "faster"',
            "+value = 0.5",
            '+description = "Spraying photoresist."',
            '+unit = "min"',
            '+type = "number"',
        ]
    )


def test_create_and_delete_methods_and_reorder(store) -> None:
    new = {"name": "Brush2", "task": "FluxCleaning", "subtasks": ["BrushFluxCleaning()"]}
    store.edit("dinner" if False else "edaps", "method", "FluxCleaning.Brush2", new, base=None)
    names = [m.name for m in store.load("edaps").methods_of("FluxCleaning")]
    assert names == ["Brush", "Vapor", "Immerse", "Alcohol", "Ultrasonic", "Brush2"]
    store.reorder_methods(
        "edaps",
        "FluxCleaning",
        ["Vapor", "Brush", "Brush2", "Immerse", "Alcohol", "Ultrasonic"],
        base=None,
    )
    assert [m.name for m in store.load("edaps").methods_of("FluxCleaning")][:3] == [
        "Vapor",
        "Brush",
        "Brush2",
    ]
    store.edit("edaps", "method", "FluxCleaning.Brush2", None, base=None)
    assert "Brush2" not in [m.name for m in store.load("edaps").methods_of("FluxCleaning")]
    store.undo("edaps")
    assert "Brush2" in [m.name for m in store.load("edaps").methods_of("FluxCleaning")]


def test_a_stale_edit_from_another_connection_is_refused(tmp_path) -> None:
    path = tmp_path / "shared.db"
    first = open_store(path)
    second = KnowledgeStore(path, validator=validate)
    seen = first.revision("edaps")
    second.edit(
        "edaps",
        "constant",
        "spray_minutes",
        {"name": "spray_minutes", "value": 0.2},
        base=seen,
        author="bob",
    )
    before = _fingerprint(path)
    with pytest.raises(StaleRevision, match=r"changed after revision \d+.*by bob"):
        first.edit(
            "edaps",
            "constant",
            "spray_minutes",
            {"name": "spray_minutes", "value": 0.3},
            base=seen,
            author="alice",
        )
    assert _fingerprint(path) == before
    assert first.load("edaps").constant_values()["spray_minutes"] == 0.2


REJECTED = [
    (
        "expression syntax",
        "method",
        "ApplyPhotoresist.Paint",
        {
            "name": "Paint",
            "task": "ApplyPhotoresist",
            "precondition": "min_gap() >",
            "subtasks": ["GenericSetup()", "PaintPhotoresist()"],
        },
        "syntax error",
    ),
    (
        "not in the language",
        "operator",
        "SprayPhotoresist",
        {"name": "SprayPhotoresist", "costs": {"run": "spray_minutes.real"}, "group": "EC1"},
        "attribute access is not allowed",
    ),
    (
        "unknown primitive",
        "method",
        "ApplyPhotoresist.Paint",
        {
            "name": "Paint",
            "task": "ApplyPhotoresist",
            "precondition": "coupler_gap() > 0.02",
            "subtasks": ["GenericSetup()", "PaintPhotoresist()"],
        },
        "cannot call 'coupler_gap'",
    ),
    (
        "unknown constant",
        "operator",
        "DryBoard",
        {"name": "DryBoard", "costs": {"run": "dry_minutes"}, "group": "EC1"},
        "unknown name 'dry_minutes'",
    ),
    (
        "unknown task",
        "method",
        "MakeBoard.MakeBoard",
        {"name": "MakeBoard", "task": "MakeBoard", "subtasks": ["MakePTHs()"]},
        "'MakePTHs' is neither a task nor an operator",
    ),
    (
        "arity",
        "method",
        "MakeFeature.Mill",
        {
            "name": "Mill",
            "task": "MakeFeature",
            "precondition": "is_milling(F)",
            "subtasks": ["MakeSlotOrPocket(F, F)"],
        },
        "takes 1 argument(s), 2 given",
    ),
    (
        "constant type",
        "constant",
        "spray_minutes",
        {"name": "spray_minutes", "value": [0.5]},
        "field value",
    ),
    (
        "method shape",
        "method",
        "FluxCleaning.Brush",
        {
            "name": "Brush",
            "task": "FluxCleaning",
            "operator": "BrushFluxCleaning()",
            "subtasks": [],
        },
        "exactly one of 'subtasks'",
    ),
    ("deleting a used task", "task", "Drill", None, "'Drill' is neither a task nor an operator"),
    (
        "renaming by edit",
        "constant",
        "spray_minutes",
        {"name": "spray_mins", "value": 0.5},
        "delete and create",
    ),
    (
        "constant the code reads",
        "constant",
        "end_mill_min_tol",
        {"name": "end_mill_min_tol", "value": "fine"},
        "constant end_mill_min_tol [value]: expected a number of at least 0, got 'fine'",
    ),
    (
        "unknown effect",
        "operator",
        "DryBoard",
        {"name": "DryBoard", "effect": "dry_it", "costs": {"run": "30"}, "group": "EC1"},
        "no effect function 'dry_it'",
    ),
]


@pytest.mark.parametrize(
    ("what", "kind", "name", "value", "message"), REJECTED, ids=[r[0] for r in REJECTED]
)
def test_rejected_edits_leave_the_store_byte_identical(
    store, what, kind, name, value, message
) -> None:
    store.revision("edaps")  # make sure the connection is open and the WAL settled
    before = _fingerprint(store.path)
    rev = store.revision("edaps")
    with pytest.raises(EditRejected) as info:
        store.edit("edaps", kind, name, value, base=rev)
    assert message in str(info.value)
    assert "nothing was changed" in str(info.value)
    assert _fingerprint(store.path) == before
    assert store.export("edaps") == SOURCES["edaps"].read_text()


def test_rejected_edit_from_the_cli_says_where(tmp_path, capsys) -> None:
    db = str(tmp_path / "kb.db")
    assert (
        main(["kb", "set", "edaps", "operator", "DryBoard", 'costs={"run": "30 +"}', "--db", db])
        == 1
    )
    err = capsys.readouterr().err
    assert "operator DryBoard [costs.run, column" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        (
            "value=twelve",
            "constant tie_samples [value]: expected a whole number of at least 0, got 'twelve'",
        ),
        ("value=-3", "expected a whole number of at least 0, got -3"),
    ],
)
def test_a_bad_bridge_tie_constant_is_refused_when_saved(
    tmp_path, capsys, setting, message
) -> None:
    """The declarer reads tie_samples with int(): a word there used to fail at play time."""
    db = str(tmp_path / "kb.db")
    assert main(["kb", "set", "bridge", "constant", "tie_samples", setting, "--db", db]) == 1
    err = capsys.readouterr().err
    assert message in err and "nothing was changed" in err and "Traceback" not in err
    assert main(["kb", "set", "bridge", "constant", "tie_samples", "value=4", "--db", db]) == 0


def test_one_connection_per_thread(store) -> None:
    results = []

    def work() -> None:
        results.append(store.load("dinner").name)
        store.close()

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert results == ["dinner"]
    assert store.load("dinner").name == "dinner"  # the main thread's connection still works


# ----------------------------------------------------------------- the engine runs from the store


def _photoresist(store):
    pkg = get_package("edaps")
    report = pkg.plan(
        PlanRequest(
            problem="RM1",
            spec=store.load("edaps"),
            problem_text=store.problem_text("edaps", "RM1"),
            json=True,
            explain=True,
        )
    )
    assert report.data is not None
    cp = next(c for c in report.data["choice_points"] if c["task"] == "Apply the photoresist")
    return report.data, {a["label"]: a for a in cp["alternatives"]}


def test_edit_replan_undo_end_to_end(store) -> None:
    data, alts = _photoresist(store)
    assert alts["Spindle"]["chosen"] and round(data["lead_time"], 2) == 642.33
    # Spraying gets cheaper than spindling (0.40 min): the planner must switch.
    store.edit(
        "edaps",
        "constant",
        "spray_minutes",
        {"name": "spray_minutes", "value": 0.1, "description": "new nozzle"},
        base=store.revision("edaps"),
    )
    data, alts = _photoresist(store)
    assert alts["Spray"]["chosen"] and alts["Spray"]["reason"] == str(Reason.CHOSEN)
    assert alts["Spindle"]["reason"] == str(Reason.PARTIAL_PLAN_PRUNED)
    assert alts["Spindle"]["compared_with"] == pytest.approx(30.1)
    assert round(data["lead_time"], 2) == 642.03
    store.undo("edaps")
    data, alts = _photoresist(store)
    assert alts["Spindle"]["chosen"] and round(data["lead_time"], 2) == 642.33


def test_cli_plans_from_the_store(tmp_path, capsys) -> None:
    db = str(tmp_path / "kb.db")
    assert main(["kb", "set", "edaps", "constant", "spray_minutes", "value=0.1", "--db", db]) == 0
    capsys.readouterr()
    assert main(["plan", "edaps", "RM1", "--db", db]) == 0
    assert "Spray photoresist on board" in capsys.readouterr().out
    assert main(["plan", "edaps", "RM1"]) == 0  # the bundled file is unchanged
    assert "Spindle photoresist from heated mylar" in capsys.readouterr().out
    assert main(["kb", "undo", "edaps", "--db", db]) == 0
    capsys.readouterr()
    assert main(["plan", "edaps", "RM1", "--db", db]) == 0
    assert "Spindle photoresist" in capsys.readouterr().out


# ----------------------------------------------------------------- CLI


def test_kb_commands(tmp_path, capsys) -> None:
    db = str(tmp_path / "kb.db")
    assert main(["kb", "list", "--db", db]) == 0
    out = capsys.readouterr().out
    assert "edaps" in out and "dinner" in out and "finesse" in out
    assert main(["--db", db, "kb", "list", "dinner"]) == 0
    assert "task GoToDinnerAndMovie()" in capsys.readouterr().out
    out_file = tmp_path / "dinner.toml"
    assert main(["kb", "export", "dinner", "-o", str(out_file), "--db", db]) == 0
    assert out_file.read_text() == SOURCES["dinner"].read_text()
    edited = out_file.read_text().replace("value = 90\n", "value = 75\n")
    out_file.write_text(edited)
    # Different content under a taken name is refused, naming both sources ...
    assert main(["kb", "import", str(out_file), "--db", db]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(out_file) in err and "from dinner.toml" in err
    assert "--replace" in err and "--as" not in err  # a package plans it by its name
    # ... and replaces it as a new revision with --replace.
    assert main(["kb", "import", str(out_file), "--replace", "--db", db]) == 0
    capsys.readouterr()
    assert main(["kb", "history", "dinner", "--db", db]) == 0
    hist = capsys.readouterr().out.splitlines()
    assert len(hist) == 2 and hist[1].startswith("* r") and "import" in hist[1]
    assert main(["kb", "undo", "dinner", "--db", db]) == 0
    assert main(["kb", "redo", "dinner", "--db", db]) == 0
    assert main(["kb", "delete", "dinner", "constant", "nothing", "--db", db]) == 1
    assert "has no constant 'nothing'" in capsys.readouterr().err


def test_kb_test_passes_on_a_fresh_database(tmp_path, capsys) -> None:
    assert main(["kb", "test", "edaps", "--db", str(tmp_path / "fresh.db")]) == 0
    out = capsys.readouterr().out
    assert out.count("PASS") == 5 and "edaps: 5 passed, 0 failed" in out


def test_kb_test_reports_a_failure(tmp_path, capsys) -> None:
    db = str(tmp_path / "kb.db")
    assert main(["kb", "set", "edaps", "constant", "spray_minutes", "value=0.1", "--db", db]) == 0
    capsys.readouterr()
    assert main(["kb", "test", "edaps", "--db", db]) == 2
    out = capsys.readouterr().out
    assert "FAIL  edaps: RM1 spindles the photoresist" in out
    assert "at 'Apply the photoresist' expected Spindle, the plan chose Spray" in out
    assert "lead_time: expected 642.33, got 642.0271" in out
    assert "edaps: 3 passed, 2 failed" in out


def test_kb_test_reports_a_test_that_raises_and_runs_the_rest(
    tmp_path, capsys, monkeypatch
) -> None:
    """A fault in a package is not a failed expectation: the test is named with the first
    traceback on stderr, the other tests still run, and the status says jobs failed."""
    from knowledge import EXIT_JOBS_FAILED, get_package

    # The package's facts, which every knowledge test's run ends with (a test keeps its
    # run to say where the knowledge failed, so it calls them itself, not run_facts).
    package = type(get_package("edaps"))
    real = package.facts

    def flaky(self, outcome):
        if outcome.request.problem == "RUM1":
            raise KeyError("deliberate fault for the test")
        return real(self, outcome)

    monkeypatch.setattr(package, "facts", flaky)
    assert main(["kb", "test", "edaps", "--db", str(tmp_path / "kb.db")]) == EXIT_JOBS_FAILED
    out, err = capsys.readouterr()
    assert out.count("PASS") == 4 and "edaps: 4 passed, 1 failed" in out
    assert "error: KeyError: 'deliberate fault for the test'" in out
    assert "failed: KeyError: 'deliberate fault for the test'" in err
    assert "Traceback (most recent call last)" in err and "in flaky" in err
    assert err.rstrip().splitlines()[-1] == "1 test failed"
