"""A store this process cannot write opens for reading, and a write says it is read-only.

Issue 26: on a read-only mount every command, ``kb list`` and ``plan`` included, said the
store "is damaged or not a database"; the file was intact.

The commands run in a child process that really cannot write the file.  The tests run as
root here, and root ignores file permissions, so for root the child drops the two
capabilities that let it (``CAP_DAC_OVERRIDE``, ``CAP_DAC_READ_SEARCH``) from its bounding
set before it starts Python: it is then held to the permission bits like any user, and
``os.access`` answers as it would on a read-only mount.  Nothing is mocked.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.kb.catalog import open_store

ROOT = Path(__file__).resolve().parent.parent
PR_CAPBSET_DROP = 24
CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH = 1, 2


def _drop_file_capabilities() -> None:
    """In the child, before exec: root loses the right to ignore permission bits."""
    if os.geteuid() != 0:
        return
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH):
        if libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _can_drop() -> bool:
    try:
        done = subprocess.run(
            [sys.executable, "-c", "pass"], preexec_fn=_drop_file_capabilities, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or not _can_drop(),
    reason="needs Linux, and as root the capability to drop CAP_DAC_OVERRIDE",
)


def workbench(db: Path, *argv: str) -> tuple[int, str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["HOME"] = str(db.parent.parent)  # nothing of the user's is touched
    done = subprocess.run(
        [sys.executable, "-m", "workbench", "--db", str(db), *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        preexec_fn=_drop_file_capabilities,
        timeout=120,
        check=False,
    )
    assert "Traceback" not in done.stderr
    return done.returncode, done.stdout, done.stderr


def digest(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.fixture(params=["file", "file-and-folder"])
def read_only_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    """A store with the bundled domains and an edit, then made read-only: the file alone
    (SQLite can still make its shared-memory file beside it), or the file and its folder
    (as on a read-only mount: nothing can be made there)."""
    folder = tmp_path / "store"
    folder.mkdir()
    db = folder / "kb.db"
    store = open_store(db)
    store.edit("dinner", "constant", "edited", {"name": "edited", "value": 7}, base=None)
    store.close()
    db.chmod(stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    if request.param == "file-and-folder":
        folder.chmod(0o555)
    yield db
    folder.chmod(0o755)
    db.chmod(0o644)


def test_a_read_only_store_is_read_and_refuses_writes(read_only_store: Path) -> None:
    db = read_only_store
    before = digest(db.parent)
    status, out, err = workbench(db, "kb", "list")
    assert status == 0, err
    assert "dinner" in out and "damaged" not in err
    status, out, err = workbench(db, "kb", "list", "dinner")
    assert status == 0 and "constant edited = 7" in out
    status, out, err = workbench(db, "list")
    assert status == 0, err
    status, out, err = workbench(db, "plan", "examples", "dinner")
    assert status == 0 and "plan found" in out, err
    status, out, err = workbench(db, "kb", "export", "dinner")
    assert status == 0 and "edited" in out
    for argv in (
        ("kb", "set", "dinner", "constant", "edited", "value=8"),
        ("kb", "delete", "dinner", "constant", "edited"),
        ("kb", "undo", "dinner"),
        ("kb", "import", "dinner", "--replace"),
    ):
        status, out, err = workbench(db, *argv)
        assert status == 1 and out == "", argv
        assert err == f"workbench: error: the store {db} is read-only; nothing was changed\n"
    # The database is byte for byte what it was (reading a WAL file where the folder can
    # be written, SQLite may make its empty -wal and -shm files beside it).
    after = digest(db.parent)
    assert after[db.name] == before[db.name]
    assert set(after) - set(before) <= {f"{db.name}-wal", f"{db.name}-shm"}


def test_a_store_cannot_be_made_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        status, _, err = workbench(folder / "kb.db", "kb", "list")
    finally:
        folder.chmod(0o755)
    assert status == 1
    assert err == (
        f"workbench: error: cannot make the store {folder / 'kb.db'}: the folder {folder} "
        "is read-only\n"
    )
    assert not (folder / "kb.db").exists()
