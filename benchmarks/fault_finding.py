"""How well the workbench leads an author to a one-place fault in an HDDL domain (issue 28).

Usage::

    python benchmarks/fault_finding.py IPC_FOLDER \\
        [--seed 7] [--per-domain 3] [--time-budget 20] [--jobs 2] [--json] \\
        [--domains Transport,Towers] [--problems 1] [--scan 4] [--solve-budget 5] [--tries N]

IPC_FOLDER is the ``total-order/`` folder of a clone of the competition's public
repository, https://github.com/panda-planner-dev/ipc2020-domains (not shipped here).

For every domain folder of DIR (sorted), the first ``--problems`` problems (of the first
``--scan``, in ``hddl_parse.pairs`` order) that ``workbench plan hddl`` solves within
``--solve-budget`` seconds are taken.  Their domain is broken in one place by
:func:`knowledge.hddl.faults.seeded_faults` (five kinds: an action loses an add effect, a
precondition literal is negated, a method is deleted, two subtasks swap, a subtask call gets
another variable of a fitting type), written with ``write_domain``, and planned with
``--explain`` under ``--time-budget`` in a fresh child process.  A break is *kept* when it
leaves the problem with no plan: "no plan exists" (exit 2), "gave up" (exit 3) or killed at
the budget (all three count only because the unbroken problem solved fast; which one is
recorded).  Breaks that still plan, or that the planner refuses (exit 1), are dropped and
counted.  At most ``--tries`` breaks (default 10 x ``--per-domain``) are tried per domain.

Each kept break is scored on its explanation (stdout and stderr of the ``--explain`` run):

named
    the changed action or method, the task that lost its method, or the predicate of the
    changed literal appears in the first 40 lines (names as whole words; a predicate only
    as a literal, after ``(`` or a quote, so that Transport's ``in`` is not the English word);
pinned
    one of those 40 lines names the changed action or method (the task, for a deleted
    method) together with the literal's predicate -- for a deleted method with "no method"
    or the method's name, for a swap with a swapped subtask, for a wrong variable with the
    subtask called;
repaired
    ``plan ... --repair --json`` (under the same ``--time-budget``) gives ``"repairs"`` with
    at least one whose ``"valid"`` is true (a one-place edit of the domain that plans and
    whose plan the independent validator accepts: :mod:`knowledge.hddl.repair`).  If the
    flag is refused (a build without it), repaired is 0 and the report says so;
seconds
    wall time of the ``--explain`` child (start-up included), plus the ``--repair`` child's
    when there is one: the time to the answer.

Seeds: 1 to 6 are the sets tuned on ("tune": 1 from the start, 2 to 6 each once it had been
reported and its misses read), 7 and 8 the held-out sets to report ("report"), drawn after
the last change; the report names which it is and prints the exact command.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hddl_parse import pairs

from knowledge.hddl import HddlError, parse_domain, read_domain, write_domain
from knowledge.hddl.faults import KINDS, Fault, seeded_faults

SEED_SETS = {**dict.fromkeys(range(1, 7), "tune"), 7: "report", 8: "report"}
GRACE = 5.0  # seconds past the budget before a child is killed
HEAD = 40  # lines of the explanation that count
WORKBENCH = "import sys; from workbench.cli import main; sys.exit(main(sys.argv[1:]))"
STATUS = {0: "solved", 1: "refused", 2: "no plan exists", 3: "gave up"}
EXAMPLE = Path(__file__).resolve().parent.parent / "knowledge" / "hddl" / "examples"


@dataclass
class Child:
    code: int | None  # None: killed at the budget
    out: str
    seconds: float
    cpu: float = 0.0  # the child's user + system seconds (exact with --jobs 1)


@dataclass
class Record:
    domain: str
    problem: str
    kind: str
    fault: str
    status: str = ""  # of the broken problem: no plan exists / gave up / killed
    named: bool = False
    pinned: bool = False
    repaired: bool = False
    seconds: float = 0.0
    cpu: float = 0.0  # CPU seconds of the same children: the answer's cost on a quiet machine
    head: list[str] = field(default_factory=list)


@dataclass
class DomainRun:
    domain: str
    problems: list[str] = field(default_factory=list)
    tried: int = 0
    tried_by_kind: dict[str, int] = field(default_factory=dict)
    still_solved: int = 0
    refused: int = 0
    kept: list[Record] = field(default_factory=list)
    note: str = ""


def workbench(argv: list[str], budget: float) -> Child:
    """``workbench ARGV`` in a fresh interpreter, killed ``GRACE`` s after ``budget``: a
    broken domain can make the search run away, and one run must not hold up the rest."""
    start = time.perf_counter()
    used = _children_cpu()
    try:
        done = subprocess.run(
            [sys.executable, "-c", WORKBENCH, *argv],
            capture_output=True,
            text=True,
            timeout=budget + GRACE,
        )
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout if isinstance(exc.stdout, str) else (exc.stdout or b"").decode()
        return Child(None, out, time.perf_counter() - start, _children_cpu() - used)
    seconds = time.perf_counter() - start
    return Child(done.returncode, done.stdout + done.stderr, seconds, _children_cpu() - used)


def _children_cpu() -> float:
    """User + system seconds of this process's finished children: a child's own cost,
    apart from the load of whatever else the machine runs (exact when one child runs at a
    time, --jobs 1; 0 where the platform does not say)."""
    try:
        import resource

        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    except (ImportError, OSError):
        return 0.0
    return usage.ru_utime + usage.ru_stime


# -- scoring ----------------------------------------------------------------------------------


def _word(name: str) -> re.Pattern[str]:
    """``name`` as a whole HDDL name: not part of a longer name (``-``, ``_`` and ``?`` are
    name characters), in any case."""
    return re.compile(rf"(?<![\w?-]){re.escape(name)}(?![\w-])", re.IGNORECASE)


def _literal(predicate: str) -> re.Pattern[str]:
    """``predicate`` written as a literal: ``(in ...``, `` `in` `` or ``'in'`` -- so that a
    predicate that is an English word is not found in the prose around it."""
    return re.compile(rf"[(`'\"]\s*{re.escape(predicate)}(?![\w-])", re.IGNORECASE)


def _partner(fault: Fault) -> list[re.Pattern[str]]:
    """What must stand on the same line as the changed place for a break to be pinned."""
    if fault.kind == "delete-method":
        return [re.compile(r"no method", re.IGNORECASE), _word(fault.place)]
    if fault.kind in ("swap", "wrong-variable"):
        return [_word(name) for name in fault.subtasks]
    return [_literal(fault.predicate)]


def score(text: str, fault: Fault) -> tuple[bool, bool]:
    """(named, pinned) for an explanation of ``fault``'s failure; see the module docstring."""
    head = text.splitlines()[:HEAD]
    place = _word(fault.task if fault.kind == "delete-method" else fault.place)
    targets = [place]
    if fault.predicate:
        targets.append(_literal(fault.predicate))
    named = any(t.search(line) for t in targets for line in head)
    partners = _partner(fault)
    pinned = any(place.search(line) and any(p.search(line) for p in partners) for line in head)
    return named, pinned


# -- the run ----------------------------------------------------------------------------------


def repair_supported() -> tuple[bool, str]:
    """Whether ``plan hddl ... --repair`` is accepted, tried once on the shipped example
    (an unknown flag is refused at once with exit 1)."""
    child = workbench(
        [
            "plan",
            "hddl",
            str(EXAMPLE / "delivery-domain.hddl"),
            str(EXAMPLE / "delivery-p1.hddl"),
            "--repair",
            "--json",
            "--time-budget",
            "5",
        ],
        5,
    )
    if child.code == 1:
        first = (child.out.strip().splitlines() or ["exit 1"])[-1]
        return False, f"--repair refused: {first[:160]}"
    return True, ""


def _repaired(child: Child) -> bool:
    """Whether the ``--repair --json`` answer holds a repair the validator accepted (the
    JSON object first, then any stderr the child wrote)."""
    start = child.out.find("{")
    if start < 0:
        return False
    try:
        data, _ = json.JSONDecoder().raw_decode(child.out[start:])
    except json.JSONDecodeError:
        return False
    repairs = data.get("repairs") if isinstance(data, dict) else None
    if not isinstance(repairs, list):
        return False
    return any(isinstance(r, dict) and r.get("valid") is True for r in repairs)


def solvable(folder: Path, scan: int, wanted: int, budget: float) -> list[tuple[Path, Path]]:
    """The first ``wanted`` of the first ``scan`` problems that plan within ``budget`` s."""
    found = []
    for domain, problem in pairs(folder, scan):
        child = workbench(["plan", "hddl", str(domain), str(problem)], budget)
        if child.code == 0 and child.seconds <= budget + 1.0:
            found.append((domain, problem))
            if len(found) == wanted:
                break
    return found


def run_domain(folder: Path, options: argparse.Namespace, repair: bool) -> DomainRun:
    """Break the domain of each solvable problem, keep what leaves no plan, and score."""
    run = DomainRun(folder.name)
    problems = solvable(folder, options.scan, options.problems, options.solve_budget)
    run.problems = [p.name for _, p in problems]
    if not problems:
        run.note = f"no problem of the first {options.scan} solved within {options.solve_budget} s"
        return run
    tries = options.tries or 10 * options.per_domain
    with tempfile.TemporaryDirectory(prefix="faults-") as tmp:
        for number, (domain_path, problem_path) in enumerate(problems):
            domain = read_domain(domain_path)
            share = -(-tries // len(problems))
            for index, fault in enumerate(seeded_faults(domain, options.seed + number)[:share]):
                if len(run.kept) >= options.per_domain:
                    return run
                run.tried += 1
                run.tried_by_kind[fault.kind] = run.tried_by_kind.get(fault.kind, 0) + 1
                text = write_domain(fault.domain)
                try:
                    parse_domain(text)
                except HddlError:  # the generator's promise broken: count it, go on
                    run.refused += 1
                    continue
                broken = Path(tmp) / f"{number}-{index}-domain.hddl"
                broken.write_text(text, encoding="utf-8")
                record = score_break(run.domain, fault, broken, problem_path, options, repair)
                if record is None:
                    run.still_solved += 1
                elif record.status == "refused":
                    run.refused += 1
                else:
                    run.kept.append(record)
    return run


def score_break(
    name: str,
    fault: Fault,
    broken: Path,
    problem: Path,
    options: argparse.Namespace,
    repair: bool,
) -> Record | None:
    """The record of one break, None if it still plans, status "refused" if not planned."""
    budget = options.time_budget
    argv = ["plan", "hddl", str(broken), str(problem), "--time-budget", str(budget)]
    child = workbench([*argv, "--explain"], budget)
    if child.code == 0:
        return None
    record = Record(name, problem.name, fault.kind, fault.line(name))
    record.status = "killed" if child.code is None else STATUS.get(child.code, "crashed")
    record.named, record.pinned = score(child.out, fault)
    record.seconds = child.seconds
    record.cpu = child.cpu
    record.head = child.out.splitlines()[:HEAD]
    if repair and record.status != "refused":
        fixed = workbench([*argv, "--repair", "--json"], budget)
        record.repaired = _repaired(fixed)
        record.seconds += fixed.seconds
        record.cpu += fixed.cpu
    return record


# -- the report -------------------------------------------------------------------------------


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}" if whole else "-"


def table(runs: list[DomainRun]) -> str:
    rows = [
        f"{'domain':<28} {'tried':>5} {'kept':>4} {'exists/gave/killed':>18} "
        f"{'named%':>6} {'pinned%':>7} {'repaired%':>9} {'median s':>8}"
    ]
    everything: list[Record] = []
    for run in runs:
        everything += run.kept
        rows.append(_row(run.domain, run.tried, run.kept, run.note))
    rows.append(_row("total", sum(r.tried for r in runs), everything, ""))
    for kind in KINDS:  # which kinds of fault the explanation handles, across domains
        tried = sum(r.tried_by_kind.get(kind, 0) for r in runs)
        rows.append(_row(f"  {kind}", tried, [e for e in everything if e.kind == kind], ""))
    return "\n".join(rows)


def _row(name: str, tried: int, kept: list[Record], note: str) -> str:
    n = len(kept)
    statuses = "/".join(
        str(sum(r.status == s for r in kept)) for s in ("no plan exists", "gave up", "killed")
    )
    median = f"{statistics.median(r.seconds for r in kept):.2f}" if kept else "-"
    row = (
        f"{name:<28} {tried:>5} {n:>4} {statuses:>18} "
        f"{_percent(sum(r.named for r in kept), n):>6} "
        f"{_percent(sum(r.pinned for r in kept), n):>7} "
        f"{_percent(sum(r.repaired for r in kept), n):>9} {median:>8}"
    )
    return f"{row}  ({note})" if note else row


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", type=ipc_folder, help=WHERE)
    parser.add_argument("--seed", type=int, default=7, help="1-6: tune sets; 7, 8: report sets")
    parser.add_argument("--per-domain", type=int, default=3, help="breaks kept per domain")
    parser.add_argument("--tries", type=int, default=0, help="breaks tried (10 x per-domain)")
    parser.add_argument("--problems", type=int, default=1, help="solvable problems per domain")
    parser.add_argument("--scan", type=int, default=4, help="problems looked at per domain")
    parser.add_argument("--solve-budget", type=float, default=5.0)
    parser.add_argument("--time-budget", type=float, default=20.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--domains", default="", help="comma-separated folder names")
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    options = parse_args(argv)
    if not options.folder.is_dir():
        print(f"fault_finding: {options.folder} is not a folder", file=sys.stderr)
        return 1
    wanted = {d for d in options.domains.split(",") if d}
    folders = [
        f
        for f in sorted(options.folder.iterdir())
        if f.is_dir() and (not wanted or f.name in wanted)
    ]
    repair, repair_note = repair_supported()
    start = time.perf_counter()
    with ThreadPoolExecutor(max(1, options.jobs)) as pool:
        runs = list(pool.map(lambda f: run_domain(f, options, repair), folders))
    wall = time.perf_counter() - start
    seed_set = SEED_SETS.get(options.seed, "other")
    command = " ".join(["python", "benchmarks/fault_finding.py", *(argv or sys.argv[1:])])
    if options.json:
        print(
            json.dumps(
                {
                    "command": command,
                    "seed": options.seed,
                    "seed_set": seed_set,
                    "repair": repair_note or "supported",
                    "wall_seconds": wall,
                    "domains": [asdict(r) for r in runs],
                },
                indent=1,
            )
        )
        return 0
    print(f"command: {command}")
    print(f"seed {options.seed} ({seed_set} set); {wall:.0f} s wall")
    if repair_note:
        print(f"repaired counts 0: {repair_note}")
    print(table(runs))
    kept = [r for run in runs for r in run.kept]
    if kept:
        print(
            f"median CPU seconds per answer: {statistics.median(r.cpu for r in kept):.2f} "
            "(the children's user + system time, apart from the machine's load; "
            "exact with --jobs 1)"
        )
    print("\nkept breaks (status; N = named, P = pinned, R = repaired):")
    for run in runs:
        for r in run.kept:
            marks = "".join(
                m if ok else "."
                for m, ok in zip("NPR", (r.named, r.pinned, r.repaired), strict=True)
            )
            print(
                f"  {marks} {r.seconds:6.2f}s ({r.cpu:5.2f} cpu) {r.status:<15} "
                f"{r.problem}: {r.fault}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
