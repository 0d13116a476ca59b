"""Headless commands never load the Textual app's libraries: a command's start-up is the
price a user pays on every call, and Textual alone costs about a quarter of a second.
Each command runs in a fresh interpreter, as a user's shell starts it, and reports what
its run left in ``sys.modules``."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from workbench.cli import main
try:
    status = main(sys.argv[1:])
except SystemExit as exc:
    status = exc.code
tops = sorted({name.split('.')[0] for name in sys.modules})
print(json.dumps({"status": status, "modules": tops}), file=sys.stderr)
"""

HDDL = ROOT / "knowledge" / "hddl" / "examples"
DEALS = ROOT / "knowledge" / "bridge" / "deals"
# Libraries no headless command needs unless it says so: Textual and its renderer always,
# numpy and networkx but for bridge's double-dummy solver, sqlite-utils but for writing the
# store (a store already seeded is only read), lark but for reading HDDL.
NEVER = {"textual", "rich"}
UNLESS_NEEDED = {"numpy", "networkx", "sqlite_utils", "lark"}
COMMANDS = {
    "version": (["--version"], set()),
    "list": (["list"], set()),
    "kb list": (["kb", "list"], set()),
    "plan examples": (["plan", "examples", "dinner"], set()),
    "plan edaps": (["plan", "edaps", "RM1"], set()),
    "plan edaps file": (
        ["plan", "edaps", str(ROOT / "knowledge" / "edaps" / "designs" / "RM1.txt")],
        set(),
    ),
    "plan bridge": (["plan", "bridge", "353021-trick5"], set()),
    "plan bridge file": (["plan", "bridge", str(DEALS / "353021-trick5.pbn")], set()),
    "plan hddl": (
        ["plan", "hddl", str(HDDL / "delivery-domain.hddl"), str(HDDL / "delivery-p1.hddl")],
        {"lark"},
    ),
    # Bridge's play needs the double-dummy solver, which brings numpy; still no Textual.
    "play bridge": (
        ["play", "bridge", str(DEALS / "353021.pbn"), "--defense", "scripted"],
        {"numpy"},
    ),
    "play bridge by name": (["play", "bridge", "353021", "--defense", "scripted"], {"numpy"}),
}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store seeded with the bundled knowledge, as a user's is after the first command."""
    folder = tmp_path_factory.mktemp("seeded")
    _run(["kb", "list"], folder / "store.db", folder)
    return folder / "store.db"


def _run(argv: list[str], db: Path, cwd: Path) -> dict[str, Any]:
    env = {"WORKBENCH_DB": str(db), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=300,
    )
    report: dict[str, Any] = json.loads(run.stderr.strip().splitlines()[-1])
    assert report["status"] in (0, None), run.stderr[-2000:]
    return report


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_headless_commands_load_no_textual(name: str, seeded: Path, tmp_path: Path) -> None:
    argv, allowed = COMMANDS[name]
    db = tmp_path / "store.db"
    shutil.copy(seeded, db)
    loaded = set(_run(argv, db, tmp_path)["modules"])
    assert not NEVER & loaded, f"{name} loaded {sorted(NEVER & loaded)}"
    needless = (UNLESS_NEEDED - allowed) & loaded
    assert not needless, f"{name} loaded {sorted(needless)}"


def test_a_first_run_writes_the_store_and_still_loads_no_textual(tmp_path: Path) -> None:
    """The very first command seeds a new store: it may load sqlite-utils to write it,
    never Textual."""
    loaded = set(_run(["plan", "edaps", "RM1"], tmp_path / "new.db", tmp_path)["modules"])
    assert not NEVER & loaded and not {"numpy", "networkx"} & loaded
    assert (tmp_path / "new.db").exists()
