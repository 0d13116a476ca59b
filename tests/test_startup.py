"""What ``workbench plan hddl`` imports: a command's start-up is part of its time (the IPC
scores planners by wall time, start-up included), and the knowledge base's machinery --
pydantic's models, the SQLite store, Textual -- is a third of it that planning an HDDL file
never uses.  Each check runs in a fresh interpreter, where nothing is imported yet."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "knowledge" / "hddl" / "examples"

# The top-level packages a plan of HDDL files must not import.
HEAVY = ("pydantic", "pydantic_core", "sqlite3", "sqlite_utils", "textual", "endplay", "numpy")

PROBE = """
import json, sys, io, contextlib
from workbench.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(sys.argv[1:])
plan = json.loads(out.getvalue())
print(json.dumps({"code": code, "solved": plan["solved"],
                  "modules": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def probe(*argv: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_planning_hddl_files_imports_none_of_the_knowledge_base_machinery() -> None:
    domain, problem = EXAMPLES / "delivery-domain.hddl", EXAMPLES / "delivery-p1.hddl"
    result = probe("plan", "hddl", str(domain), str(problem), "--json")
    assert result["code"] == 0 and result["solved"] is True
    modules = result["modules"]
    assert isinstance(modules, list)
    assert [m for m in HEAVY if m in modules] == []


def test_the_knowledge_base_models_are_still_there_when_asked_for() -> None:
    """The engine's package imports its models on first use: asking for one works, and
    is the pydantic model the store validates with."""
    code = (
        "import engine.tofs as t, sys; assert 'pydantic' not in sys.modules; "
        "spec = t.DomainSpec(name='d'); import pydantic; "
        "assert isinstance(spec, pydantic.BaseModel); print(t.load_domain_file.__module__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "engine.tofs.source"


def test_the_command_ends_at_once_after_a_plan_with_all_it_said_and_its_status() -> None:
    """``python -m workbench plan`` leaves without freeing its objects one by one: what it
    printed arrives whole and its exit status is the plan's (0 solved, 2 no plan)."""
    for problem, code, solved in (("delivery-p1", 0, True), ("delivery-unsolvable", 2, False)):
        command = [sys.executable, "-m", "workbench", "plan", "hddl"]
        command += [str(EXAMPLES / "delivery-domain.hddl"), str(EXAMPLES / f"{problem}.hddl")]
        done = subprocess.run(
            [*command, "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120
        )
        assert done.returncode == code, done.stderr
        assert json.loads(done.stdout)["solved"] is solved
        text = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
        assert text.returncode == code and text.stdout.endswith("\n")
