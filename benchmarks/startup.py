"""How long the workbench takes to start: the median of ``--runs`` fresh processes each.

Run: ``.venv/bin/python benchmarks/startup.py [--runs 10]``.  Each command is a new
interpreter, as a user's shell starts it, timed from spawn to exit; the rows are measured
interleaved (one run of each per round) so that a busy moment on this shared machine
spreads over all of them.  ``python -c pass`` is the floor no command can beat.

* ``workbench --version``: the entry point alone.
* ``workbench plan edaps RM1``: the whole headless path -- parse, open the store, compile
  the domain, plan, print.
* ``workbench plan hddl (files)``: the same for an HDDL domain and problem given as files
  (the delivery example shipped with the package), as the IPC runs a planner: read them
  with lark, compile, plan, print; no store.
* ``workbench (first screen)``: the Textual app, headless, from spawning the process to
  its first screen mounted and painted and the app idle (the app prints the wall-clock
  moment; tearing the app down afterwards is not counted).

The store is a private one made for the run (``$WORKBENCH_DB``), seeded before timing.
The project's modules are compiled to bytecode first, as any installation or first run
leaves them (with ``PYTHONDONTWRITEBYTECODE`` set, as in some sandboxes, nothing would write
them and every run would compile the whole project from source again: about twice the
time).  Besides the wall clock, each row gives the CPU time the process used (user and
system): on a shared machine the wall clock waits for other people's work, the CPU time
much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

FIRST_SCREEN = """
from workbench.app import WorkbenchApp

app = WorkbenchApp(None)

async def pilot(p):
    await p.pause()
    import time
    print(f"FIRST_SCREEN_AT {time.time()!r}", flush=True)
    app.exit()

app.run(headless=True, auto_pilot=pilot)
"""


HDDL_FILES = [
    str(ROOT / "knowledge" / "hddl" / "examples" / name)
    for name in ("delivery-domain.hddl", "delivery-p1.hddl")
]


def commands() -> dict[str, list[str]]:
    workbench = str(BIN / "workbench")
    return {
        "python -c pass": [sys.executable, "-c", "pass"],
        "workbench --version": [workbench, "--version"],
        "workbench plan edaps RM1": [workbench, "plan", "edaps", "RM1"],
        "workbench plan hddl (files)": [workbench, "plan", "hddl", *HDDL_FILES],
        "workbench (first screen)": [sys.executable, "-c", FIRST_SCREEN],
    }


def compile_project() -> None:
    """Bytecode for the project's own packages (the installed libraries have theirs)."""
    import compileall

    for package in ("engine", "knowledge", "workbench"):
        compileall.compile_dir(str(ROOT / package), quiet=1)


def time_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawning ``argv`` to its exit, or to the moment it says its first screen
    was up (a ``FIRST_SCREEN_AT <time.time()>`` line); and the CPU seconds it used to its
    exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall0, t0 = time.time(), time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=ROOT, capture_output=True, check=False)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(
            f"{' '.join(argv[:3])} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}"
        )
    for line in done.stdout.decode(errors="replace").splitlines():
        if line.startswith("FIRST_SCREEN_AT "):
            return float(line.split()[1]) - wall0, cpu
    return took, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    compile_project()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, WORKBENCH_DB=str(Path(tmp) / "workbench.db"))
        cmds = commands()
        for argv in cmds.values():  # seed the store, warm the file cache
            time_once(argv, env)
        times: dict[str, list[float]] = {name: [] for name in cmds}
        cpus: dict[str, list[float]] = {name: [] for name in cmds}
        for _ in range(args.runs):
            for name, argv in cmds.items():
                took, cpu = time_once(argv, env)
                times[name].append(took)
                cpus[name].append(cpu)
    print(f"median of {args.runs} fresh processes each, interleaved; load {os.getloadavg()[0]:.1f}")
    print(f"{'command':28s} {'median s':>9s} {'min s':>7s} {'max s':>7s} {'CPU s':>7s}")
    for name, ts in times.items():
        cpu = statistics.median(cpus[name])
        print(f"{name:28s} {statistics.median(ts):9.3f} {min(ts):7.3f} {max(ts):7.3f} {cpu:7.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
