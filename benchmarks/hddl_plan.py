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

``--cluster ADDRESS`` runs the problems on a Dask cluster (see the README): each job
carries the domain's and the problem's HDDL text and the validator's source, so a worker
needs only the installed project (with unified-planning, for the validator).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

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
    plan: str = ""  # the plan in the IPC format, when solved


Validator = Callable[[Path, Path, str], list[str]]
VALIDATOR = Path(__file__).resolve().parents[1] / "knowledge" / "hddl" / "validation.py"


def run_one(
    domain: Path, problem: Path, budget: float, folder: str, validator: Validator | None = None
) -> Outcome:
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
        out.plan = text
        out.invalid = validate(domain, problem, text, validator)
    return out


def validate(
    domain: Path, problem: Path, text: str, validator: Validator | None = None
) -> list[str]:
    if validator is None:
        try:
            from tests.hddl_validation import validate_plan
        except ImportError as exc:  # the test extra is not installed
            return [f"validator unavailable: {exc}"]
        validator = validate_plan
    return validator(domain, problem, text)


def keep_plan(plans: Path, out: Outcome) -> None:
    if out.plan:
        target = plans / out.domain / (Path(out.problem).stem + ".plan")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(out.plan)


# --- on a cluster ----------------------------------------------------------------------------


def _shipped_validator(source: str, folder: Path) -> Validator:
    """The validator sent with a job, loaded once per worker process from its source (the
    worker has no checkout, so ``tests`` is not importable there)."""
    name = "_shipped_hddl_validation_" + hashlib.sha256(source.encode()).hexdigest()[:16]
    module = sys.modules.get(name)
    if module is None:
        path = folder / "hddl_validation.py"
        path.write_text(source, encoding="utf-8")
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # its dataclasses look themselves up there
        try:
            spec.loader.exec_module(module)
        except ImportError as exc:  # no unified-planning on this worker
            del sys.modules[name]
            error = f"validator unavailable: {exc}"
            return lambda *_: [error]
    validate_plan: Validator = module.validate_plan
    return validate_plan


def plan_on_worker(job: dict[str, Any]) -> dict[str, Any]:
    """On a Dask worker: the job's HDDL files in a fresh folder, planned and validated
    there exactly as :func:`run_one` does here; the outcome as a plain dict."""
    with tempfile.TemporaryDirectory(prefix="hddl-plan-") as tmp:
        root = Path(tmp)
        domain, problem = root / job["domain_name"], root / job["problem_name"]
        domain.write_text(job["domain_text"], encoding="utf-8")
        problem.write_text(job["problem_text"], encoding="utf-8")
        validator = _shipped_validator(job["validator"], root)
        return asdict(run_one(domain, problem, job["budget"], job["folder"], validator))


def _not_run(job: dict[str, Any], error: str, traceback_text: str | None) -> dict[str, Any]:
    """A problem whose task failed on the cluster (its worker kept dying)."""
    return asdict(Outcome(job["folder"], job["problem_name"], "error", 0.0, message=error[:200]))


def _show(r: Outcome) -> None:
    flag = f" INVALID: {r.invalid[0]}" if r.invalid else ""
    extra = f" {r.message}" if r.message else ""
    print(
        f"  {r.domain:28} {r.problem:44} {r.status:10} {r.seconds:7.2f} s "
        f"{r.steps:5} steps{flag}{extra}",
        flush=True,
    )


def run_on_cluster(
    executor: Any, work: list[tuple[Path, Path, str]], budget: float
) -> list[Outcome]:
    if __name__ != "__main__":  # imported: the workers cannot import this file
        importlib.import_module("cloudpickle").register_pickle_by_value(sys.modules[__name__])
    source = VALIDATOR.read_text(encoding="utf-8")
    jobs = [
        {
            "domain_name": d.name,
            "problem_name": p.name,
            "domain_text": d.read_text(encoding="utf-8"),
            "problem_text": p.read_text(encoding="utf-8"),
            "folder": name,
            "budget": budget,
            "validator": source,
        }
        for d, p, name in work
    ]
    records = executor(
        plan_on_worker, jobs, failed=_not_run, progress=lambda _, __, r: _show(Outcome(**r))
    )
    return [Outcome(**r) for r in records]


def main(argv: list[str] | None = None) -> int:
    from workbench.cluster import ClusterError, add_cluster_option, batch_executor

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", type=Path, help="folder with one sub-folder per domain")
    parser.add_argument("--limit", type=int, default=5, help="problems per domain (default 5)")
    parser.add_argument("--time-budget", type=float, default=60.0, help="seconds per problem")
    parser.add_argument("--jobs", type=int, default=1, help="problems planned at once")
    parser.add_argument("--plans", type=Path, help="write each plan (IPC format) here")
    parser.add_argument("--domain", action="append", help="only these domain folders")
    add_cluster_option(parser)
    args = parser.parse_args(argv)
    folders = sorted(p for p in args.root.iterdir() if p.is_dir())
    if args.domain:
        folders = [f for f in folders if f.name in args.domain]
    work = [(d, p, f.name) for f in folders for d, p in pairs(f, args.limit)]
    try:
        with batch_executor(args.cluster, chunk=1) as executor:
            where = f"{args.jobs} at once" if executor is None else f"on {executor.address}"
            print(f"# {len(work)} problems, {args.time_budget:g} s each, {where}", flush=True)
            if executor is not None:
                results = run_on_cluster(executor, work, args.time_budget)
            else:
                with ThreadPoolExecutor(args.jobs) as pool:
                    futures = [
                        pool.submit(run_one, d, p, args.time_budget, name) for d, p, name in work
                    ]
                    results = []
                    for future in futures:
                        results.append(future.result())
                        _show(results[-1])
    except ClusterError as exc:
        print(f"hddl_plan: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("\nhddl_plan: interrupted; the remaining problems were cancelled", file=sys.stderr)
        return 130
    if args.plans is not None:
        for r in results:
            keep_plan(args.plans, r)
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
