"""Writers racing on one store lose nothing, and a writer killed mid-stream leaves it whole.

Issue 26 found 13 of 60 constants missing after two shell loops of ``kb set`` on one
domain: the domain was read before the write lock was taken and written back whole.  Here
real processes race (the command line's own ``main`` in a loop, and separate
``python -m workbench`` processes), and a writer is killed with SIGKILL at seeded random
moments; afterwards every change each writer reported is in the store, SQLite finds the
file intact, and every revision's snapshot reads back as a domain.
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.tofs.source import parse_domain_file_text
from workbench.kb.catalog import open_store, validate

ROOT = Path(__file__).resolve().parent.parent

# A writer: ``kb set`` through the command line's main(), once per constant, printing each
# name only after the command reported success (so a printed name was committed).
WRITER = """
import sys
from workbench.cli import main
db, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(count):
    name = f"{prefix}{i}"
    status = main(["kb", "set", "dinner", "constant", name, f"value={i}", "--db", db])
    if status != 0:
        sys.exit(status)
    print("committed", name, flush=True)
"""


def _committed(out: str) -> set[str]:
    """The names a writer reported as committed, from whole lines only: a writer killed
    while printing leaves half a line (CI once saw a bare ``committed``), and half a report
    is no report."""
    lines = out.split("\n")[:-1]
    return {
        line.split()[1]
        for line in lines
        if len(line.split()) == 2 and line.startswith("committed ")
    }


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("WORKBENCH_DB", None)
    return env


def _writer(db: Path, prefix: str, count: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(db), prefix, str(count)],
        cwd=ROOT,
        env=_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _constants(db: Path) -> dict[str, object]:
    store = open_store(db, seed_bundled=False)
    try:
        return {c.name: c.value for c in store.load("dinner").constants}
    finally:
        store.close()


def _fresh_store(tmp_path: Path) -> Path:
    """A store holding the bundled domains (dinner among them), made before the race."""
    db = tmp_path / "kb.db"
    open_store(db).close()
    return db


def _assert_consistent(db: Path) -> None:
    """SQLite finds the file intact, every revision's snapshot reads back as a valid
    domain, and the head revision's snapshot is the domain as the store now holds it."""
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        rows = conn.execute("SELECT id, domain, snapshot FROM revisions ORDER BY id").fetchall()
        heads = dict(conn.execute("SELECT name, revision FROM domains").fetchall())
    finally:
        conn.close()
    assert rows
    for rid, domain, snapshot in rows:
        spec, _ = parse_domain_file_text(snapshot, f"{domain}@r{rid}")
        assert spec.name == domain
        assert validate(domain, spec) == [], f"revision {rid} of {domain} does not compile"
    snapshots = {rid: snapshot for rid, _, snapshot in rows}
    store = open_store(db, seed_bundled=False)
    try:
        for domain, head in heads.items():
            assert snapshots[head] == store.export(domain), f"{domain}: head is not r{head}"
    finally:
        store.close()


def test_two_processes_of_fifty_kb_sets_lose_nothing(tmp_path: Path) -> None:
    db = _fresh_store(tmp_path)
    before = _constants(db)
    writers = [_writer(db, prefix, 50) for prefix in ("a", "b")]
    outputs = [w.communicate(timeout=300) for w in writers]
    for w, (_, err) in zip(writers, outputs, strict=True):
        assert w.returncode == 0, err
        assert "Traceback" not in err
    reported = {name for out, _ in outputs for name in _committed(out)}
    assert len(reported) == 100
    after = _constants(db)
    assert {f"{p}{i}" for p in "ab" for i in range(50)} <= set(after)
    assert {n: after[n] for n in reported} == {f"{p}{i}": i for p in "ab" for i in range(50)}
    assert {n: v for n, v in after.items() if n in before} == before
    # One revision per change, each on top of the one before: a straight history.
    conn = sqlite3.connect(db)
    try:
        history = conn.execute(
            "SELECT id, parent, target FROM revisions WHERE domain = 'dinner' ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    raced = [row for row in history if row[2] in reported]
    assert len(raced) == 100
    assert all(parent == previous[0] for previous, (_, parent, _) in itertools.pairwise(history))
    _assert_consistent(db)


def test_separate_command_line_processes_lose_nothing(tmp_path: Path) -> None:
    """The reproduction as the issue ran it: one ``python -m workbench kb set`` process per
    change, two shell-like loops at once (fewer changes: each process starts Python)."""
    db = _fresh_store(tmp_path)
    script = (
        "import subprocess, sys\n"
        "for i in range(8):\n"
        "    subprocess.run([sys.executable, '-m', 'workbench', '--db', sys.argv[1], 'kb', "
        "'set', 'dinner', 'constant', sys.argv[2] + str(i), 'value=' + str(i)], check=True)\n"
    )
    loops = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(db), prefix],
            cwd=ROOT,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for prefix in ("x", "y")
    ]
    for loop in loops:
        out, err = loop.communicate(timeout=300)
        assert loop.returncode == 0, err
        assert out.count("create constant") == 8
    after = _constants(db)
    assert {n: after.get(n) for p in "xy" for n in (f"{p}{i}" for i in range(8))} == {
        f"{p}{i}": i for p in "xy" for i in range(8)
    }
    _assert_consistent(db)


@pytest.mark.parametrize("seed", [26])
def test_a_writer_killed_at_random_points_leaves_the_store_consistent(
    tmp_path: Path, seed: int
) -> None:
    """Writer ``k`` is killed (SIGKILL: no cleanup, no rollback) after a seeded random
    delay, restarted, killed again, while writer ``s`` writes steadily beside it.  Every
    change either writer reported is in the store afterwards, and the file is whole."""
    rng = random.Random(seed)
    db = _fresh_store(tmp_path)
    steady = _writer(db, "s", 40)
    reported: set[str] = set()
    kills = 0
    for round_ in range(6):
        victim = _writer(db, f"k{round_}_", 1000)
        # Into the stream of writes, however slow start-up is on a loaded machine: wait
        # for its first reported commit, then a seeded random moment more.
        assert victim.stdout is not None
        seen = ""
        while not _committed(seen):
            line = victim.stdout.readline()
            assert line, f"writer k{round_} ended before writing: {victim.stderr}"
            seen += line
        time.sleep(rng.uniform(0.0, 0.8))
        victim.send_signal(signal.SIGKILL)
        out, _ = victim.communicate(timeout=60)
        assert victim.returncode == -signal.SIGKILL
        kills += 1
        reported |= _committed(seen + out)
    out, err = steady.communicate(timeout=300)
    assert steady.returncode == 0, err
    reported |= _committed(out)
    assert kills == 6 and any(name.startswith("k") for name in reported)
    after = _constants(db)
    missing = sorted(reported - set(after))
    assert not missing, f"reported but not stored: {missing}"
    assert {f"s{i}" for i in range(40)} <= set(after)
    _assert_consistent(db)
    # The store still takes writes after the kills (no lock left behind).
    store = open_store(db, seed_bundled=False)
    try:
        rev = store.edit("dinner", "constant", "after", {"name": "after", "value": 1}, base=None)
        assert store.revision("dinner") == rev.id
    finally:
        store.close()


def test_a_problem_save_based_on_old_text_is_refused(tmp_path: Path) -> None:
    """An editor that says what text its edit started from cannot overwrite a problem
    another process saved in the meantime (the item edits' base revision, for problems)."""
    from workbench.kb.store import StaleRevision

    db = _fresh_store(tmp_path)
    store, other = open_store(db, seed_bundled=False), open_store(db, seed_bundled=False)
    try:
        store.set_problem("edaps", "mine", "edaps-design", "first", replacing=None)
        loaded = store.problem_text("edaps", "mine")
        other.set_problem("edaps", "mine", "edaps-design", "theirs", replacing=loaded)
        with pytest.raises(StaleRevision, match="'mine' of domain 'edaps' was saved by someone"):
            store.set_problem("edaps", "mine", "edaps-design", "mine", replacing=loaded)
        assert store.problem_text("edaps", "mine") == "theirs"
        with pytest.raises(StaleRevision, match="was made by someone else"):
            store.set_problem("edaps", "mine", "edaps-design", "new", replacing=None)
        store.set_problem("edaps", "mine", "edaps-design", "mine", replacing="theirs")
        assert other.problem_text("edaps", "mine") == "mine"
    finally:
        store.close()
        other.close()


def test_concurrent_undos_undo_two_changes(tmp_path: Path) -> None:
    """Two processes undoing at once each undo a different change: the history is read
    inside the write transaction, so one change is never undone twice."""
    db = _fresh_store(tmp_path)
    store = open_store(db, seed_bundled=False)
    try:
        for i in range(2):
            store.edit("dinner", "constant", f"u{i}", {"name": f"u{i}", "value": i}, base=None)
    finally:
        store.close()
    script = (
        "import sys\nfrom workbench.cli import main\n"
        "sys.exit(main(['kb', 'undo', 'dinner', '--db', sys.argv[1]]))\n"
    )
    undos = [
        subprocess.Popen([sys.executable, "-c", script, str(db)], cwd=ROOT, env=_env())
        for _ in range(2)
    ]
    assert [u.wait(timeout=120) for u in undos] == [0, 0]
    names = set(_constants(db))
    assert not {"u0", "u1"} & names
    _assert_consistent(db)


def test_processes_opening_a_new_store_at_once_all_succeed(tmp_path: Path) -> None:
    """Each process that finds the file new migrates and seeds it; the schema version is
    re-read under the write lock and a domain seeded meanwhile is left as it is."""
    db = tmp_path / "new.db"
    script = (
        "import sys\nfrom workbench.cli import main\n"
        "sys.exit(main(['kb', 'list', '--db', sys.argv[1]]))\n"
    )
    openers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(db)],
            cwd=ROOT,
            env=_env(),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    results = [o.communicate(timeout=120) for o in openers]
    assert [o.returncode for o in openers] == [0, 0, 0], [err for _, err in results]
    assert all("dinner" in out for out, _ in results)
    conn = sqlite3.connect(db)
    try:
        seeded = conn.execute(
            "SELECT domain, count(*) FROM revisions GROUP BY domain HAVING count(*) > 1"
        ).fetchall()
    finally:
        conn.close()
    assert seeded == []  # each bundled domain imported once
    _assert_consistent(db)
