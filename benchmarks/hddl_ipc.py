"""IPC-style comparison on HDDL problems: tofs beside Aries, HyperTensioN and Lilotane,
with coverage and agile score.

Usage::

    python benchmarks/hddl_ipc.py IPC_FOLDER \\
        [--planners tofs,aries,hypertension,lilotane] [--hypertension DIR] [--lilotane EXE] \\
        [--time-budget 60] [--memory-gb 4] [--jobs 1] \\
        [--domains Rover-GTOHP,Towers] [--per-domain K] [--json] [--cluster ADDRESS] \\
        [--records FILE] [--split 10] [--start 11]

IPC_FOLDER is the ``total-order/`` folder of a clone of the competition's public
repository, https://github.com/panda-planner-dev/ipc2020-domains (not shipped here).

For every problem (the first K of each domain folder, in the order of
``hddl_parse.pairs``) every planner makes one attempt, the planners interleaved per
problem.  Each attempt is a fresh child process in its own session, under the same
wall-clock limit (killed, with its whole process group, 5 s after ``--time-budget``) and
the same address-space cap (``RLIMIT_AS``, ``--memory-gb``), which the child sets on
itself, since a ``preexec_fn`` is unsafe beside the thread pool:

* Aries: the child is this file with ``--child``, which sets the cap before it imports
  anything (the Aries binary inherits it);
* tofs, HyperTensioN and Lilotane: the child is ``/bin/sh``, which sets the cap (``ulimit
  -v``) and then execs the planner in its own place -- for tofs the command its users run,
  ``python -m workbench plan hddl DOMAIN PROBLEM --json`` -- so the planner inherits the
  cap, the wall time is the planner's own start-up and run (plus the shell's
  millisecond), and
  ``os.wait4`` reports the planner's peak memory even when it is killed (no child of ours
  stands between, to be killed before it reaps the planner).

Measured per attempt: status (solved / unsolvable / gave up / crashed / unsupported), wall
seconds of the child (start-up and reading included, as in the IPC), plan length (primitive
actions), search nodes (tofs, from ``workbench plan hddl --json``), peak memory (the max RSS
that ``os.wait4`` reports for that child, which covers the descendants it reaped: the Aries
child reaps its planner binary before it exits; a child killed at the limit leaves that
binary unreaped, so then only the Python process counts; Linux carries the high-water mark
of the process that spawned a child into it through ``exec``, so no figure is below this
parent's own peak, about 40 MB, whichever the planner), and whether the plan passes
``tests/hddl_validation.py: validate_plan`` (run in a separate child, uncapped).

tofs's plan is turned into the IPC 2020 text from the ``plan``, ``root`` and
``decomposition`` its ``--json`` prints.  Aries
runs through ``up-aries`` (``pip install -e '.[bench]'``) on the problem as the validator's
``read_up_problem`` reads it; its ``HierarchicalPlan`` is turned into the IPC text (actions
in the depth-first order of the decomposition, one line per method instance), so its plans
get the full check, decomposition included.

HyperTensioN (``--hypertension DIR``: a checkout of
https://github.com/Maumagnaguagno/HyperTensioN, run by the system's ``ruby``; the IPC 2020
total-order winner, a depth-first planner that compiles the domain to Ruby) runs with its
competition settings, ``ruby --disable=all -s DIR/Hype.rb -IPC DOMAIN PROBLEM typredicate
pullup dejavu run``: ``-IPC`` makes it print the IPC 2020 plan, decomposition included,
between ``==>`` and ``<==``.  It insists on file names ending in ``.hddl`` (others are
copied to a scratch folder first, before the clock starts).  It lower-cases every name and
writes ``-`` between letters as ``_``, so its plan is written back in the problem's own
names before the check (a name two of the problem's names could have become stays as it
is).  "Planning failed" -- its search ran out of alternatives -- counts as unsolvable.

Lilotane (``--lilotane EXE``: a build of https://github.com/domschrei/lilotane, SAT-based,
second in that track; docs/reference/performance.md says how to build it) runs as ``EXE
DOMAIN PROBLEM -co=0 -v=0`` and prints the IPC plan between ``==>`` and ``<==``.  It
adds layers until a plan turns up, so where there is none it runs until killed (gave up).
Both run in a scratch folder as their working directory; one that runs out of memory
under the cap has given up, as tofs then has.  Neither is vendored here; a planner asked
for without its flag, or whose checkout or build does not run, is refused up front.

A solved attempt counts only if its plan is not rejected and it ended within the limit.
With ``--cluster ADDRESS`` (a Dask scheduler, or ``local:N``; see docs/guide/batch.md) each attempt
is one task on the cluster, sent as a record holding the HDDL texts and the scripts its
child runs (this file, ``hddl_parse.py``, ``tests/hddl_validation.py``): a worker lays them
out in a temporary folder and makes the attempt there as above, so it needs only the
installed project with the ``bench`` extra (and for HyperTensioN or Lilotane, Ruby and the
checkout or the build at the same path as here).

Per domain and in total: coverage (solved / attempted) and the IPC agile score (per solved
problem 1 if t <= 1 s, 0 if t >= limit, else 1 - log t / log limit).  The output is a
Markdown table, or with ``--json`` the per-attempt records and the summary.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import math
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hddl_parse import pairs

if TYPE_CHECKING:
    from collections.abc import Callable

    from workbench.cluster import ClusterExecutor

PLANNERS = ("tofs", "aries", "hypertension", "lilotane", "baseline")
RIVALS = ("hypertension", "lilotane")  # programs of their own, run without a Python child
HYPE_SETTINGS = ("typredicate", "pullup", "dejavu", "run")  # its IPC 2020 settings
GRACE = 5.0  # seconds past the limit before a child is killed
TOFS_STATUS = {0: "solved", 2: "unsolvable", 3: "gave up", 1: "unsupported"}


@dataclass
class Attempt:
    domain: str
    problem: str
    planner: str
    status: str = "crashed"
    seconds: float = 0.0
    plan_length: int | None = None
    nodes: int | None = None
    peak_mb: float | None = None
    valid: bool | None = None  # None: no plan, or not checked
    validation: str = ""  # "full", or why the plan was not (fully) checked
    message: str = ""
    index: int = 0  # the problem's place in its domain folder, from 1 (0: not known)


# --- the children ----------------------------------------------------------------------------


def _cap_memory(gb: float) -> None:
    limit = int(gb * 1024**3)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


# tofs's own memory budget (``--memory-budget``), as a share of the address-space cap: it
# stops and gives up when its resident size passes it, rather than fail an allocation at
# the cap, which a Python process's address space (about twice its resident size) meets
# first.  At the default 4 GB cap: 1.8 GB, under the 2 GB no run may pass.
TOFS_MEMORY_SHARE = 0.45


def tofs_command(
    python: str, domain: Path, problem: Path, budget: float, memory_gb: float
) -> list[str]:
    """tofs as its users run it, ``workbench plan hddl DOMAIN PROBLEM --json``, in a fresh
    interpreter behind the same capping shell as the rivals: its start-up is the
    command's own, not this file's."""
    command = [python, "-m", "workbench", "plan", "hddl", str(domain), str(problem), "--json"]
    command += ["--time-budget", str(budget)]
    command += ["--memory-budget", f"{int(memory_gb * TOFS_MEMORY_SHARE * 1024)}M"]
    return capped(command, memory_gb)


def tofs_record(stdout: str, stderr: str, code: int) -> dict[str, Any]:
    """The attempt's record from what ``workbench plan hddl --json`` printed and its exit
    status; an allocation refused at the address-space cap has given up, as the rivals
    have when they run out of memory."""
    if "MemoryError" in stderr:
        return {"status": "gave up", "message": "out of memory"}
    status = TOFS_STATUS.get(code, "crashed")
    try:
        data = json.loads(stdout)
    except json.JSONDecodeError:
        said = (stderr.strip() or stdout.strip() or f"exit status {code}").splitlines()[-1]
        return {"status": status, "message": said[-300:]}
    record: dict[str, Any] = {"status": status, "nodes": data.get("nodes")}
    if data.get("solved"):
        record["plan_length"] = len(data["plan"])
        record["ipc"] = _tofs_ipc(data)
    return record


def _tofs_ipc(data: dict[str, Any]) -> str:
    lines = ["==>"]
    lines += [" ".join([str(a["id"]), a["action"], *a["args"]]) for a in data["plan"]]
    lines.append(" ".join(["root", *map(str, data["root"])]))
    for t in data["decomposition"]:
        ids = map(str, t["subtasks"])
        lines.append(" ".join([str(t["id"]), t["task"], *t["args"], "->", t["method"], *ids]))
    lines.append("<==")
    return "\n".join(lines)


def _child_aries(domain: str, problem_path: str, budget: float) -> dict[str, Any]:
    import gc

    from unified_planning.engines.results import PlanGenerationResultStatus as S
    from unified_planning.shortcuts import OneshotPlanner, get_environment

    from tests.hddl_validation import read_up_problem

    get_environment().credits_stream = None
    try:
        problem = read_up_problem(domain, problem_path)
    except Exception as error:  # unified-planning cannot read it: Aries cannot be asked
        return {"status": "unsupported", "message": f"reading: {_first_line(error)}"}
    with OneshotPlanner(name="aries") as planner:
        if not planner.supports(problem.kind):
            return {"status": "unsupported", "message": "aries: problem kind not supported"}
        result = planner.solve(problem, timeout=budget)
    gc.collect()  # up-aries kills its gRPC server when the handle goes: reap it (its RSS)
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, 0)[0]:
            pass
    statuses = {
        S.SOLVED_SATISFICING: "solved",
        S.SOLVED_OPTIMALLY: "solved",
        S.UNSOLVABLE_PROVEN: "unsolvable",
        S.UNSUPPORTED_PROBLEM: "unsupported",
        S.INTERNAL_ERROR: "crashed",
    }
    record: dict[str, Any] = {"status": statuses.get(result.status, "gave up")}
    if record["status"] != "solved":
        record["message"] = result.status.name.lower()
        return record
    plan = result.plan
    # the actions of the decomposition (its flat plan may be a SequentialPlan or, on Robot,
    # a TimeTriggeredPlan)
    record["plan_length"] = len(plan.actions())
    try:
        record["ipc"] = _aries_ipc(problem, plan)
    except Exception as error:  # a decomposition we cannot write: no check
        record["message"] = f"plan not converted to the IPC format: {_first_line(error)}"
    return record


def _aries_ipc(problem: Any, plan: Any) -> str:
    """The IPC 2020 text of a unified-planning ``HierarchicalPlan``."""
    from unified_planning.plans import ActionInstance

    actions: list[str] = []
    tasks: list[str] = []
    ids = iter(range(10**9))

    def word(value: Any) -> str:
        return str(value.object().name if value.is_object_exp() else value)

    def ordered(network: Any) -> list[Any]:
        subtasks = list(network.subtasks)
        order = network.total_order()
        if order is not None:
            subtasks.sort(key=lambda subtask: order.index(subtask.identifier))
        return subtasks

    def visit(node: Any) -> int:
        if isinstance(node, ActionInstance):
            number = next(ids)
            params = map(word, node.actual_parameters)
            actions.append(" ".join([str(number), node.action.name, *params]))
            return number
        method = node.method
        number = next(ids)
        binding = {p.name: word(v) for p, v in zip(method.parameters, node.parameters, strict=True)}
        args = [binding[p.name] for p in method.achieved_task.parameters]
        line = len(tasks)
        tasks.append("")
        children = [visit(node.decomposition.subtasks[s.identifier]) for s in ordered(method)]
        task = method.achieved_task.task.name
        tasks[line] = " ".join([str(number), task, *args, "->", method.name, *map(str, children)])
        return number

    roots = [
        visit(plan.decomposition.subtasks[s.identifier]) for s in ordered(problem.task_network)
    ]
    return "\n".join(["==>", *actions, " ".join(["root", *map(str, roots)]), *tasks, "<=="])


def _child_validate(domain: str, problem: str) -> dict[str, Any]:
    from tests.hddl_validation import validate_plan

    try:
        return {"errors": validate_plan(domain, problem, sys.stdin.read())}
    except Exception as error:  # the validator cannot read the problem
        return {"unchecked": _first_line(error)}


def _first_line(error: BaseException) -> str:
    return f"{type(error).__name__}: {(str(error).splitlines() or [''])[0][:200]}"


def child(argv: list[str]) -> int:
    """``--child aries DOMAIN PROBLEM BUDGET GB`` or ``--child validate DOMAIN PROBLEM``:
    one JSON line on stdout."""
    kind, domain, problem = argv[:3]
    if kind == "validate":
        # The validator recurses along the plan: Towers pfile_10's 1,023 actions took it
        # past Python's default limit.  A thread with a deep stack takes the limit up.
        done: list[dict[str, Any]] = []
        sys.setrecursionlimit(200_000)
        threading.stack_size(512 * 1024 * 1024)
        worker = threading.Thread(target=lambda: done.append(_child_validate(domain, problem)))
        worker.start()
        worker.join()
        record = done[0] if done else {"unchecked": "the validator stopped"}
    else:
        _cap_memory(float(argv[4]))
        try:
            record = _child_aries(domain, problem, float(argv[3]))
        except MemoryError:
            record = {"status": "gave up", "message": "out of memory"}
    print("\n" + json.dumps(record))
    return 0


# --- HyperTensioN and Lilotane ---------------------------------------------------------------


def rival_command(planner: str, tool: str, domain: Path, problem: Path) -> list[str]:
    """How ``planner`` is started on one problem; ``tool`` is the HyperTensioN checkout or
    the Lilotane executable."""
    if planner == "hypertension":
        hype = str(Path(tool) / "Hype.rb")
        return [
            "ruby",
            "--disable=all",
            "-s",
            hype,
            "-IPC",
            str(domain),
            str(problem),
            *HYPE_SETTINGS,
        ]
    return [tool, str(domain), str(problem), "-co=0", "-v=0"]


def capped(command: list[str], memory_gb: float) -> list[str]:
    """``command`` behind a shell that caps its own address space and then becomes the
    command (``exec``): the cap is set in the child, never by a ``preexec_fn`` in this
    threaded parent, and the planner's pid, clock and peak memory are the child's."""
    kib = int(memory_gb * 1024**2)
    return ["/bin/sh", "-c", f'ulimit -v {kib} && exec "$@"', "sh", *command]


def _ipc_block(text: str) -> list[str] | None:
    """The lines between the last ``==>`` and the ``<==`` after it; None if there is none."""
    lines = [line.strip() for line in text.splitlines()]
    starts = [i for i, line in enumerate(lines) if line == "==>"]
    if not starts:
        return None
    body = lines[starts[-1] + 1 :]
    if "<==" not in body:
        return None
    return [line for line in body[: body.index("<==")] if line]


def _plan_record(block: list[str]) -> dict[str, Any]:
    """A solved record from an IPC plan's lines: the length counts the primitive actions
    (the lines before ``root``)."""
    roots = [i for i, line in enumerate(block) if line.split()[:1] == ["root"]]
    length = roots[0] if roots else len(block)
    return {"status": "solved", "plan_length": length, "ipc": "\n".join(["==>", *block, "<=="])}


def _ran_out_of_memory(text: str) -> bool:
    lowered = text.lower()
    return any(s in lowered for s in ("nomemoryerror", "bad_alloc", "out of memory"))


def _failure(stdout: str, stderr: str, returncode: int) -> dict[str, Any]:
    """A run that printed no plan: out of memory is giving up, anything else a crash (its
    first line on stderr, else its last on stdout, and how it ended)."""
    if _ran_out_of_memory(stdout + stderr):
        return {"status": "gave up", "message": "out of memory"}
    complaints = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = [line.strip() for line in stdout.splitlines() if line.strip()]
    first = complaints[0] if complaints else said[-1] if said else ""
    why = f"killed by signal {-returncode}" if returncode < 0 else f"exit status {returncode}"
    return {"status": "crashed", "message": (f"{first} ({why})" if first else why)[:300]}


def hype_names(domain_text: str, problem_text: str) -> dict[str, str]:
    """From HyperTensioN's spelling of a name back to the problem's: it lower-cases every
    name and writes a ``-`` between word characters as ``_``.  A spelling that two of the
    problem's names share is left out (it stays as HyperTensioN wrote it)."""
    spellings: dict[str, set[str]] = {}
    for text in (domain_text, problem_text):
        for word in re.findall(r"[^\s()]+", re.sub(r";[^\n]*", " ", text)):
            if word[0] not in "?:":
                name = word.lower()
                spellings.setdefault(re.sub(r"\b-\b", "_", name, flags=re.ASCII), set()).add(name)
    return {key: next(iter(names)) for key, names in spellings.items() if len(names) == 1}


def parse_hypertension(
    stdout: str, stderr: str, returncode: int, names: dict[str, str] | None = None
) -> dict[str, Any]:
    """The record of one HyperTensioN run with ``-IPC``: the plan between ``==>`` and
    ``<==`` (in the problem's own names, with ``names`` from :func:`hype_names`);
    "Planning failed" is its search exhausted (unsolvable) unless it adds "try with more
    stack" (Ruby's stack ran out: a crash)."""
    block = _ipc_block(stdout)
    if block is not None:
        names = names or {}
        keep = {"root", "->"}
        block = [
            " ".join(w if w in keep else names.get(w, w) for w in line.split()) for line in block
        ]
        return _plan_record(block)
    said = stdout + stderr
    if "Planning failed" in said:
        if "more stack" in said:
            return {"status": "crashed", "message": "Ruby's stack ran out (planning failed)"}
        return {"status": "unsolvable", "message": "planning failed: no plan"}
    return _failure(stdout, stderr, returncode)


def parse_lilotane(stdout: str, stderr: str, returncode: int) -> dict[str, Any]:
    """The record of one Lilotane run with ``-v=0``: the plan between ``==>`` and ``<==``;
    with a higher verbosity and ``-cs=1`` it may also say a layer is unsolvable "even
    without assumptions", which is a proof that there is no plan."""
    block = _ipc_block(stdout)
    if block is not None:
        return _plan_record(block)
    if "even without assumptions" in stdout + stderr:
        return {"status": "unsolvable", "message": "unsolvable even without assumptions"}
    if returncode == 0 and not _ran_out_of_memory(stdout + stderr):
        return {"status": "gave up", "message": "ended without a plan"}
    return _failure(stdout, stderr, returncode)


def rival_problem(planner: str, tool: str | None) -> str | None:
    """Why ``planner`` cannot run from ``tool`` (its ``--hypertension`` checkout or its
    ``--lilotane`` executable), in one line; None if it starts."""
    if planner == "hypertension":
        if tool is None:
            return (
                "hypertension needs --hypertension DIR, a checkout of "
                "https://github.com/Maumagnaguagno/HyperTensioN"
            )
        if not (Path(tool) / "Hype.rb").is_file():
            return f"hypertension: no Hype.rb in {tool} (give the HyperTensioN checkout folder)"
        if shutil.which("ruby") is None:
            return "hypertension needs Ruby, and ruby is not on the PATH (apt-get install ruby)"
        probe = ["ruby", "--disable=all", str(Path(tool) / "Hype.rb"), "-h"]
    else:
        if tool is None:
            return (
                "lilotane needs --lilotane EXE, a Lilotane build "
                "(docs/reference/performance.md says how)"
            )
        if not Path(tool).is_file():
            return f"lilotane: no such file: {tool}"
        if not os.access(tool, os.X_OK):
            return f"lilotane: {tool} is not executable"
        probe = [str(Path(tool).resolve())]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{planner} does not run: {_first_line(error)}"
    if (planner == "hypertension" and done.returncode != 0) or done.returncode in (126, 127):
        said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[0]
        return f"{planner} does not run: {said[:200]}"
    return None


# --- the parent ------------------------------------------------------------------------------


def attempt(
    planner: str,
    domain: Path,
    problem: Path,
    folder: str,
    limit: float,
    memory_gb: float,
    script: str = __file__,
    tools: dict[str, str] | None = None,
) -> Attempt:
    """One planner on one problem, in its own capped child; ``tools`` holds the
    HyperTensioN checkout and the Lilotane executable by planner name."""
    out = Attempt(folder, problem.name, planner)
    with tempfile.TemporaryDirectory(prefix="hddl-ipc-run-") as scratch:
        if planner in RIVALS:
            tool = (tools or {}).get(planner)
            if tool is None:
                out.message = f"no --{planner} given"
                return out
            domain_run, problem_run = domain.resolve(), problem.resolve()
            if planner == "hypertension" and not (
                domain.name.endswith(".hddl") and problem.name.endswith(".hddl")
            ):  # Hype.rb reads a file by its extension
                domain_run = Path(shutil.copy(domain, Path(scratch) / "domain.hddl"))
                problem_run = Path(shutil.copy(problem, Path(scratch) / "problem.hddl"))
            command = capped(rival_command(planner, tool, domain_run, problem_run), memory_gb)
        elif planner in ("tofs", "baseline"):  # baseline: tofs as another checkout has it
            python = sys.executable
            if planner == "baseline":
                python = str(Path((tools or {})["baseline"]) / ".venv" / "bin" / "python")
            command = tofs_command(python, domain, problem, limit, memory_gb)
        else:
            command = [sys.executable, script, "--child", planner, str(domain), str(problem)]
            command += [str(limit), str(memory_gb)]
        # Every planner works in the scratch folder: whatever the rivals write stays
        # there, and ``python -m workbench`` finds its checkout through its own venv, not
        # this folder's (run from here, a baseline's command would import this tree).
        run = _run(command, limit, scratch)
    out.seconds, out.peak_mb = run.seconds, run.peak_mb
    if run.killed:
        out.status, out.message = "gave up", f"killed {GRACE:g} s after the limit"
        return out
    if planner == "hypertension":
        names = hype_names(
            domain.read_text(encoding="utf-8", errors="replace"),
            problem.read_text(encoding="utf-8", errors="replace"),
        )
        record: dict[str, Any] | None = parse_hypertension(
            run.stdout, run.stderr, run.returncode, names
        )
    elif planner == "lilotane":
        record = parse_lilotane(run.stdout, run.stderr, run.returncode)
    elif planner in ("tofs", "baseline"):
        record = tofs_record(run.stdout, run.stderr, run.returncode)
    else:
        record = _last_json(run.stdout)
    if record is None:
        out.status = "crashed"
        lines = run.stderr.strip().splitlines() or [f"exit status {run.returncode}"]
        out.message = lines[-1][:300]
        return out
    out.status = record["status"]
    out.message = record.get("message", "")
    out.nodes = record.get("nodes")
    out.plan_length = record.get("plan_length")
    if out.status == "solved":
        if "ipc" in record:
            _validate(out, domain, problem, record["ipc"], script)
        else:
            out.validation = "not checked"
        if out.seconds > limit:
            out.status, out.message = "gave up", f"solved after the limit ({out.seconds:.1f} s)"
    return out


@dataclass
class _Run:
    seconds: float
    peak_mb: float
    returncode: int
    stdout: str
    stderr: str
    killed: bool


def _run(command: list[str], limit: float, cwd: str | None) -> _Run:
    """``command`` in its own session, killed with its process group ``GRACE`` s after
    ``limit``; its wall time (from just before the start to its exit) and peak memory."""
    killed = threading.Event()
    with tempfile.TemporaryFile() as stdout, tempfile.TemporaryFile() as stderr:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=stdout, stderr=stderr, start_new_session=True, cwd=cwd
        )

        def kill() -> None:
            killed.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

        timer = threading.Timer(limit + GRACE, kill)
        timer.start()
        _, wait_status, usage = os.wait4(process.pid, 0)
        timer.cancel()
        seconds = round(time.perf_counter() - start, 3)
        process.returncode = os.waitstatus_to_exitcode(wait_status)
        stdout.seek(0)
        stderr.seek(0)
        return _Run(
            seconds=seconds,
            peak_mb=round(usage.ru_maxrss / 1024, 1),  # KiB on Linux
            returncode=process.returncode,
            stdout=stdout.read().decode(errors="replace"),
            stderr=stderr.read().decode(errors="replace"),
            killed=killed.is_set(),
        )


def _last_json(text: str) -> dict[str, Any] | None:
    for line in reversed(text.strip().splitlines()):
        if line.startswith("{"):
            try:
                record: dict[str, Any] = json.loads(line)
            except json.JSONDecodeError:
                return None
            return record
    return None


def _validate(out: Attempt, domain: Path, problem: Path, ipc: str, script: str) -> None:
    command = [sys.executable, script, "--child", "validate", str(domain), str(problem)]
    try:
        done = subprocess.run(command, input=ipc, capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        out.validation = "not checked: the validator took over 600 s"
        return
    record = _last_json(done.stdout)
    if record is None:
        out.validation = "not checked: the validator crashed"
    elif "unchecked" in record:
        out.validation = f"not checked: {record['unchecked']}"
    else:
        errors = record["errors"]
        out.valid = not errors
        out.validation = "full"
        if errors:
            out.message = f"INVALID: {errors[0][:300]}"


# --- on a cluster ----------------------------------------------------------------------------

# What an attempt runs besides the installed project: this script (its children), the
# folder reader it imports, and the independent validator -- sent with every job, so that
# a worker needs only the installed project (with the bench extra, for Aries and the
# validator's unified-planning), never this checkout.
HERE = Path(__file__).resolve().parent
SUPPORT = {
    "benchmarks/hddl_ipc.py": HERE / "hddl_ipc.py",
    "benchmarks/hddl_parse.py": HERE / "hddl_parse.py",
    "tests/__init__.py": HERE.parent / "tests" / "__init__.py",
    "tests/hddl_validation.py": HERE.parent / "tests" / "hddl_validation.py",
}


def cluster_job(
    planner: str,
    domain: Path,
    problem: Path,
    folder: str,
    limit: float,
    memory_gb: float,
    support: dict[str, str],
    tools: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One attempt as a plain record: the HDDL texts themselves, not their paths (the
    HyperTensioN checkout and the Lilotane build are paths: the same on every worker)."""
    return {
        "planner": planner,
        "folder": folder,
        "domain_name": domain.name,
        "problem_name": problem.name,
        "domain_text": domain.read_text(encoding="utf-8"),
        "problem_text": problem.read_text(encoding="utf-8"),
        "limit": limit,
        "memory_gb": memory_gb,
        "support": support,  # one dict shared by all jobs: pickled once per task
        "tools": tools or {},
    }


def attempt_on_worker(job: dict[str, Any]) -> dict[str, Any]:
    """On a Dask worker: lay the job's files out in a fresh folder and make the attempt
    there, exactly as :func:`attempt` does here (its own child process, time limit, memory
    cap, validator); the record comes back as a plain dict."""
    with tempfile.TemporaryDirectory(prefix="hddl-ipc-") as tmp:
        root = Path(tmp)
        for relative, text in job["support"].items():
            (root / relative).parent.mkdir(parents=True, exist_ok=True)
            (root / relative).write_text(text, encoding="utf-8")
        folder = root / "problems" / job["folder"]
        folder.mkdir(parents=True)
        domain, problem = folder / job["domain_name"], folder / job["problem_name"]
        domain.write_text(job["domain_text"], encoding="utf-8")
        problem.write_text(job["problem_text"], encoding="utf-8")
        script = str(root / "benchmarks" / "hddl_ipc.py")
        record = attempt(
            job["planner"],
            domain,
            problem,
            job["folder"],
            job["limit"],
            job["memory_gb"],
            script,
            job.get("tools"),
        )
    return asdict(record)


def _not_run(job: dict[str, Any], error: str, traceback_text: str | None) -> dict[str, Any]:
    """An attempt whose task failed on the cluster (its worker kept dying): a crash."""
    record = Attempt(job["folder"], job["problem_name"], job["planner"], message=error[:300])
    return asdict(record)


def counts(attempt: Attempt) -> bool:
    return attempt.status == "solved" and attempt.valid is not False


def agile(attempt: Attempt, limit: float) -> float:
    if not counts(attempt):
        return 0.0
    t = attempt.seconds
    if t <= 1:
        return 1.0
    if t >= limit:
        return 0.0
    return 1 - math.log(t) / math.log(limit)


def summary(
    results: list[Attempt], domains: list[str], planners: list[str], limit: float
) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    for name in [*domains, "total"]:
        out[name] = {}
        for planner in planners:
            rows = [r for r in results if r.planner == planner and name in ("total", r.domain)]
            out[name][planner] = {
                "attempted": len(rows),
                "solved": sum(counts(r) for r in rows),
                "invalid": sum(r.valid is False for r in rows),
                "score": round(sum(agile(r, limit) for r in rows), 3),
                "peak_mb": max((r.peak_mb or 0.0 for r in rows), default=0.0),
            }
    return out


def split_summaries(
    results: list[Attempt], domains: list[str], planners: list[str], limit: float, first: int
) -> dict[str, dict[str, dict[str, dict[str, float]]]]:
    """The whole set, and with ``first`` the problems up to it and those after it apart:
    the first ones are what tuning looked at, the rest are the figure that counts."""
    parts = {"all": summary(results, domains, planners, limit)}
    if first and any(r.index > first for r in results):
        early = [r for r in results if r.index <= first]
        late = [r for r in results if r.index > first]
        parts[f"1-{first}"] = summary(early, domains, planners, limit)
        parts[f"{first + 1}-"] = summary(late, domains, planners, limit)
    return parts


def read_records(path: Path, limit: float, memory_gb: float) -> list[Attempt]:
    """The attempts a run already wrote to ``path`` (one JSON object a line), so that a run
    cut short goes on where it stopped; made under another limit or cap, they are refused."""
    if not path.exists():
        return []
    kept: list[Attempt] = []
    names = set(Attempt.__dataclass_fields__)
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            made = (record.pop("limit"), record.pop("memory_gb"))
            if made != (limit, memory_gb):
                raise ValueError(
                    f"made at {made[0]:g} s / {made[1]:g} GB, not {limit:g} s / {memory_gb:g} GB"
                )
            kept.append(Attempt(**{k: v for k, v in record.items() if k in names}))
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as error:
            raise ValueError(f"{path}:{number}: not a record of this run: {error}") from None
    return kept


def append_record(path: Path, record: Attempt, limit: float, memory_gb: float) -> None:
    with path.open("a", encoding="utf-8") as out:
        out.write(json.dumps({**asdict(record), "limit": limit, "memory_gb": memory_gb}) + "\n")


def table(table_data: dict[str, dict[str, dict[str, float]]], planners: list[str]) -> str:
    head = ["domain", *(f"{p} {what}" for p in planners for what in ("solved", "score"))]
    lines = ["| " + " | ".join(head) + " |", "|---" * len(head) + "|"]
    for name, row in table_data.items():
        cells = [f"**{name}**" if name == "total" else name]
        for planner in planners:
            s = row[planner]
            invalid = f" ({s['invalid']:g} invalid)" if s["invalid"] else ""
            cells += [f"{s['solved']:g}/{s['attempted']:g}{invalid}", f"{s['score']:.2f}"]
        lines.append("| " + " | ".join(cells) + " |")
    peaks = ", ".join(f"{p} {table_data['total'][p]['peak_mb']:.0f} MB" for p in planners)
    lines.append(f"\nlargest peak memory of one attempt: {peaks}")
    return "\n".join(lines)


def compile_checkout(python: str, checkout: Path) -> None:
    """Compile a checkout's modules to bytecode once, as installing a package does: where
    ``PYTHONDONTWRITEBYTECODE`` is set, every attempt would otherwise compile them again
    (about 0.3 s of each tofs attempt's wall time, which no user pays twice)."""
    folders = [str(checkout / name) for name in ("engine", "knowledge", "workbench")]
    subprocess.run(
        [python, "-m", "compileall", "-q", *folders],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return child(argv[1:])
    # Imported here, not at the top: an attempt's child is this file, and its start-up is
    # part of the time it is measured by.
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    from workbench.cluster import ClusterError, add_cluster_option, batch_executor

    cli = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    cli.add_argument(
        "root", type=ipc_folder, help=f"folder with one sub-folder per domain: {WHERE}"
    )
    cli.add_argument(
        "--planners",
        default="tofs,aries",
        help="comma-separated: tofs, aries, hypertension, lilotane",
    )
    cli.add_argument(
        "--hypertension", metavar="DIR", help="a checkout of Maumagnaguagno/HyperTensioN"
    )
    cli.add_argument("--lilotane", metavar="EXE", help="a Lilotane executable (its build)")
    cli.add_argument(
        "--baseline",
        metavar="DIR",
        help="planner 'baseline': tofs as another checkout of this repository has it (a git "
        "worktree of an earlier commit, with its .venv), to measure a change side by side",
    )
    cli.add_argument("--time-budget", type=float, default=60.0, help="seconds per attempt")
    cli.add_argument("--memory-gb", type=float, default=4.0, help="address-space cap (GB)")
    cli.add_argument("--jobs", type=int, default=1, help="attempts run at once")
    add_cluster_option(cli)
    cli.add_argument("--domains", help="comma-separated domain folder names")
    cli.add_argument("--per-domain", type=int, metavar="K", help="first K problems per domain")
    cli.add_argument(
        "--start",
        type=int,
        default=1,
        metavar="N",
        help="leave out the problems before the Nth of each domain (--start 11: the ones "
        "after the first 10, which tuning looks at)",
    )
    cli.add_argument(
        "--records",
        type=Path,
        metavar="FILE",
        help="write each attempt to FILE (a JSON line) as it ends, and leave out the attempts "
        "FILE already holds: a run cut short goes on where it stopped",
    )
    cli.add_argument(
        "--split",
        type=int,
        default=10,
        metavar="K",
        help="also tabulate problems 1..K and K+1 onward apart (0: the whole set only)",
    )
    cli.add_argument("--json", action="store_true", help="print the records as JSON")
    args = cli.parse_args(argv)
    planners = [p.strip() for p in args.planners.split(",") if p.strip()]
    unknown = sorted(set(planners) - set(PLANNERS))
    if unknown or not planners:
        cli.error(f"unknown planners: {', '.join(unknown)} (known: {', '.join(PLANNERS)})")
    if "aries" in planners:
        missing = [
            m for m in ("unified_planning", "up_aries") if importlib.util.find_spec(m) is None
        ]
        if missing:
            print(
                f"aries is not available: {', '.join(missing)} not installed "
                "(pip install -e '.[bench]')",
                file=sys.stderr,
            )
            return 1
    tools: dict[str, str] = {}
    for rival in (p for p in RIVALS if p in planners):
        tool = getattr(args, rival)
        if why := rival_problem(rival, tool):
            print(why, file=sys.stderr)
            return 1
        tools[rival] = str(Path(tool).resolve())
    if "baseline" in planners:
        base = Path(args.baseline or "")
        if not args.baseline or not (base / ".venv" / "bin" / "python").is_file():
            print(
                "baseline needs --baseline DIR, a checkout of this repository with its .venv "
                "(git worktree add DIR COMMIT, then in DIR: "
                "bash -c '. scripts/bootstrap.sh; bootstrap test')",
                file=sys.stderr,
            )
            return 1
        tools["baseline"] = str(base.resolve())
    if importlib.util.find_spec("unified_planning") is None:
        print("note: unified-planning is not installed, plans are not validated", file=sys.stderr)
    folders = sorted(p for p in args.root.iterdir() if p.is_dir() and pairs(p, 1))
    if args.domains:
        wanted = {name.strip() for name in args.domains.split(",")}
        folders = [f for f in folders if f.name in wanted]
        if missing_domains := wanted - {f.name for f in folders}:
            cli.error(f"no such domain folders: {', '.join(sorted(missing_domains))}")
    if args.start < 1:
        cli.error("--start counts from 1")
    chosen = {
        folder: list(enumerate(pairs(folder, args.per_domain), 1))[args.start - 1 :]
        for folder in folders
    }
    work = [
        (planner, domain, problem, folder.name)
        for folder in folders
        for _, (domain, problem) in chosen[folder]
        for planner in planners
    ]
    index = {
        (folder.name, problem.name): number
        for folder in folders
        for number, (_, problem) in chosen[folder]
    }
    if "tofs" in planners:
        compile_checkout(sys.executable, Path(__file__).resolve().parents[1])
    if "baseline" in planners:
        compile_checkout(
            str(Path(tools["baseline"]) / ".venv" / "bin" / "python"), Path(tools["baseline"])
        )
    done: list[Attempt] = []
    if args.records:
        try:
            done = read_records(args.records, args.time_budget, args.memory_gb)
        except (OSError, ValueError) as error:
            print(f"hddl_ipc: error: {error}", file=sys.stderr)
            return 1
    wanted_keys = {(w[3], w[2].name, w[0]) for w in work}
    done = [r for r in done if (r.domain, r.problem, r.planner) in wanted_keys]
    finished = {(r.domain, r.problem, r.planner) for r in done}
    remaining = [w for w in work if (w[3], w[2].name, w[0]) not in finished]

    def keep(record: Attempt) -> None:
        record.index = index.get((record.domain, record.problem), 0)
        if args.records:
            append_record(args.records, record, args.time_budget, args.memory_gb)

    try:
        with batch_executor(args.cluster, chunk=1) as executor:
            results = done + run_all(
                remaining, args.time_budget, args.memory_gb, args.jobs, executor, tools, keep
            )
    except ClusterError as error:
        print(f"hddl_ipc: error: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nhddl_ipc: interrupted; the remaining attempts were cancelled", file=sys.stderr)
        return 130
    order = {(w[3], w[2].name, w[0]): i for i, w in enumerate(work)}
    results.sort(key=lambda r: order[(r.domain, r.problem, r.planner)])
    for record in results:
        record.index = index.get((record.domain, record.problem), 0)
    parts = split_summaries(
        results, [f.name for f in folders], planners, args.time_budget, args.split
    )
    if args.json:
        report = {
            "time_budget": args.time_budget,
            "memory_gb": args.memory_gb,
            "records": [asdict(r) for r in results],
            "summary": parts["all"],
            "parts": parts,
        }
        print(json.dumps(report, indent=2))
    else:
        print(f"{len(work)} attempts, {args.time_budget:g} s and {args.memory_gb:g} GB each")
        for name, data in parts.items():
            first, _, last = name.partition("-")
            title = "all problems" if name == "all" else f"problems {first} to {last or 'the last'}"
            print(f"\n{title}:\n")
            print(table(data, planners))
        notes = [r for r in results if r.status == "crashed" or r.valid is False]
        for r in notes:
            print(f"- {r.planner} {r.domain}/{r.problem}: {r.status}: {r.message}")
    return 0


def run_all(
    work: list[tuple[str, Path, Path, str]],
    limit: float,
    memory_gb: float,
    jobs: int,
    executor: ClusterExecutor | None = None,
    tools: dict[str, str] | None = None,
    keep: Callable[[Attempt], None] | None = None,
) -> list[Attempt]:
    """Every attempt: ``jobs`` at once here, or on ``executor``'s cluster (one attempt per
    Dask task: attempts take seconds, so a task's few milliseconds do not count); ``keep``
    sees each as it ends (a long run writes them down as it goes)."""
    results: list[Attempt] = []
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        progress: Progress | None = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        )
    except ImportError:
        progress = None

    def advance(r: Attempt) -> None:
        if keep is not None:
            keep(r)
        if progress is not None and bar is not None:
            progress.update(
                bar, advance=1, description=f"{r.planner} {r.domain}/{r.problem}: {r.status}"
            )
        else:
            print(f"{len(results)}/{len(work)} {r.planner} {r.problem}", file=sys.stderr)

    if executor is not None:
        if __name__ != "__main__":  # imported: the workers cannot import this file
            cloudpickle = importlib.import_module("cloudpickle")
            cloudpickle.register_pickle_by_value(sys.modules[__name__])
        support = {name: path.read_text(encoding="utf-8") for name, path in SUPPORT.items()}
        cluster_jobs = [
            cluster_job(planner, domain, problem, folder, limit, memory_gb, support, tools)
            for planner, domain, problem, folder in work
        ]

        def done(_: int, __: int, record: dict[str, Any]) -> None:
            results.append(Attempt(**record))
            advance(results[-1])

        with progress or contextlib.nullcontext():
            bar = progress.add_task("attempts", total=len(work)) if progress else None
            executor(attempt_on_worker, cluster_jobs, failed=_not_run, progress=done)
        return results
    with ThreadPoolExecutor(max(1, jobs)) as pool, progress or contextlib.nullcontext():
        bar = progress.add_task("attempts", total=len(work)) if progress else None
        futures: list[Future[Attempt]] = [
            pool.submit(
                attempt, planner, domain, problem, folder, limit, memory_gb, __file__, tools
            )
            for planner, domain, problem, folder in work
        ]
        for future in as_completed(futures):
            results.append(future.result())
            advance(results[-1])
    return results


if __name__ == "__main__":
    raise SystemExit(main())
