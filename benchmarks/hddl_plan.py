"""Plan the IPC 2020 total-order HDDL problems and report solved / unsolvable / gave up.

Usage::

    python benchmarks/hddl_plan.py ../shared/data/hddl/ipc2020-total-order \\
        [--limit 5] [--time-budget 60] [--jobs 1] [--plans DIR] [--domain NAME ...]

Each problem runs in its own ``workbench plan hddl DOMAIN PROBLEM --ipc`` process (a fresh
interpreter, as a user runs it; killed 30 s after its budget if it has not stopped), so the
seconds include start-up and reading.  Every returned plan is checked by the independent
validator of the tests (``tests/hddl_validation.py``, unified-planning underneath: nothing
of ``knowledge.hddl``), and the table counts the plans it rejects.  ``--plans DIR`` keeps
every plan in the IPC format.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hddl_parse import pairs

STATUS = {0: "solved", 2: "unsolvable", 3: "gave up"}


@dataclass
class Outcome:
    domain: str
    problem: str
    status: str
    seconds: float
    steps: int = 0
    invalid: list[str] = field(default_factory=list)
    message: str = ""


def run_one(domain: Path, problem: Path, budget: float, plans: Path | None, folder: str) -> Outcome:
    command = [
        sys.executable,
        "-m",
        "workbench",
        "plan",
        "hddl",
        str(domain),
        str(problem),
        "--ipc",
        "--time-budget",
        str(budget),
    ]
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=budget + 30)
    except subprocess.TimeoutExpired:
        return Outcome(folder, problem.name, "killed", time.perf_counter() - start)
    seconds = time.perf_counter() - start
    status = STATUS.get(done.returncode, "error")
    out = Outcome(folder, problem.name, status, seconds)
    if status == "error":
        out.message = (done.stderr.strip().splitlines() or ["?"])[-1][:200]
        return out
    if status == "solved":
        text = done.stdout
        out.steps = sum(1 for line in text.splitlines() if line[:1].isdigit() and "->" not in line)
        if plans is not None:
            target = plans / folder / (problem.stem + ".plan")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
        out.invalid = validate(domain, problem, text)
    return out


def validate(domain: Path, problem: Path, text: str) -> list[str]:
    try:
        from tests.hddl_validation import validate_plan
    except ImportError as exc:  # the test extra is not installed
        return [f"validator unavailable: {exc}"]
    return validate_plan(domain, problem, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="folder with one sub-folder per domain")
    parser.add_argument("--limit", type=int, default=5, help="problems per domain (default 5)")
    parser.add_argument("--time-budget", type=float, default=60.0, help="seconds per problem")
    parser.add_argument("--jobs", type=int, default=1, help="problems planned at once")
    parser.add_argument("--plans", type=Path, help="write each plan (IPC format) here")
    parser.add_argument("--domain", action="append", help="only these domain folders")
    args = parser.parse_args(argv)
    folders = sorted(p for p in args.root.iterdir() if p.is_dir())
    if args.domain:
        folders = [f for f in folders if f.name in args.domain]
    work = [(d, p, f.name) for f in folders for d, p in pairs(f, args.limit)]
    print(
        f"# {len(work)} problems, {args.time_budget:g} s each, {args.jobs} at once",
        flush=True,
    )
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = [
            pool.submit(run_one, d, p, args.time_budget, args.plans, name) for d, p, name in work
        ]
        results = []
        for future in futures:
            r = future.result()
            results.append(r)
            flag = f" INVALID: {r.invalid[0]}" if r.invalid else ""
            extra = f" {r.message}" if r.message else ""
            print(
                f"  {r.domain:28} {r.problem:44} {r.status:10} {r.seconds:7.2f} s "
                f"{r.steps:5} steps{flag}{extra}",
                flush=True,
            )
    print()
    print(
        "| domain | problems | solved | unsolvable | gave up | error | invalid plans "
        "| seconds (solved, median) |"
    )
    print("|---|---|---|---|---|---|---|---|")
    totals = {"n": 0, "solved": 0, "unsolvable": 0, "gave up": 0, "error": 0, "invalid": 0}
    for folder in folders:
        rows = [r for r in results if r.domain == folder.name]
        count = {k: sum(r.status == k for r in rows) for k in ("solved", "unsolvable", "gave up")}
        errors = sum(r.status in ("error", "killed") for r in rows)
        invalid = sum(bool(r.invalid) for r in rows)
        solved_s = sorted(r.seconds for r in rows if r.status == "solved")
        median = f"{solved_s[len(solved_s) // 2]:.2f}" if solved_s else "-"
        print(
            f"| {folder.name} | {len(rows)} | {count['solved']} | {count['unsolvable']} | "
            f"{count['gave up']} | {errors} | {invalid} | {median} |"
        )
        totals["n"] += len(rows)
        for k in ("solved", "unsolvable", "gave up"):
            totals[k] += count[k]
        totals["error"] += errors
        totals["invalid"] += invalid
    print(
        f"| **all** | {totals['n']} | {totals['solved']} | {totals['unsolvable']} | "
        f"{totals['gave up']} | {totals['error']} | {totals['invalid']} | |"
    )
    return 1 if totals["invalid"] or totals["error"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
