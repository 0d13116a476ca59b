"""Headless commands never load the Textual app's libraries: a command's start-up is the
price a user pays on every call, and Textual alone costs about a quarter of a second.
Each command runs in a fresh interpreter, as a user's shell starts it, and reports what
its run left in ``sys.modules``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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
COMMANDS = {
    "version": (["--version"], set()),
    "list": (["list"], set()),
    "kb list": (["kb", "list"], set()),
    "plan examples": (["plan", "examples", "dinner"], set()),
    "plan edaps": (["plan", "edaps", "RM1"], set()),
    "plan hddl": (
        ["plan", "hddl", str(HDDL / "delivery-domain.hddl"), str(HDDL / "delivery-p1.hddl")],
        set(),
    ),
    # Bridge needs the double-dummy solver, which brings numpy; still no Textual.
    "play bridge": (
        [
            "play",
            "bridge",
            str(ROOT / "knowledge" / "bridge" / "deals" / "353021.pbn"),
            "--defense",
            "scripted",
        ],
        {"numpy"},
    ),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_headless_commands_load_no_textual(name: str, tmp_path: Path) -> None:
    argv, allowed = COMMANDS[name]
    env = {"WORKBENCH_DB": str(tmp_path / "store.db"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    report = json.loads(run.stderr.strip().splitlines()[-1])
    assert report["status"] in (0, None), run.stderr[-2000:]
    loaded = set(report["modules"])
    assert "textual" not in loaded, f"{name} loaded Textual"
    assert "rich" not in loaded, f"{name} loaded rich (Textual's renderer)"
    assert not ({"numpy", "networkx"} - allowed) & loaded, sorted(loaded & {"numpy", "networkx"})
