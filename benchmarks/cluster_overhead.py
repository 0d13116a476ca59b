"""What running a match's jobs on a Dask cluster costs beside the local process pool.

Run: ``.venv/bin/python benchmarks/cluster_overhead.py`` (needs the ``cluster`` extra).

A fixed match: ``--deals`` random deals (1,000; seeded, so every run plays the same
boards), 3NT by South, the heuristic declarer against the double-dummy defence, with the
double-dummy analysis of every play -- one job per deal, about 50 ms of CPU each.  It runs
with the local pool of ``--workers`` processes and on ``local:N`` (a LocalCluster of as
many single-threaded worker processes on this machine), in chunks as ``--cluster`` sends
them and, with ``--unchunked``, one job per Dask task.

Per configuration: wall seconds of the match (the cluster already started, as a standing
cluster would be; its start is shown apart; the pool starts with its match), jobs per
second, the jobs' own CPU milliseconds, and the overhead per job two ways:

* **CPU**: every CPU second our processes spent during the match (this one, with the
  scheduler and the client; the pool's or the cluster's worker processes, read with
  psutil) less the jobs' own (each job's thread time), per job: what sending, scheduling,
  pickling and collecting cost.  Other programs on the machine do not change it.
* **wall**: ``(wall x workers - the jobs' own wall seconds) / jobs``, the worker time each
  job cost beyond its own run: the same costs as seen on the clock, plus any waiting --
  on a shared machine, also for the other programs' processes.

Every configuration's results must equal the local pool's (the JSON apart from timings);
the script says so, and exits 1 if they do not.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import random
import resource
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from knowledge.bridge.generate import random_deal  # noqa: E402
from knowledge.bridge.match import MatchReport, Problem, run_match  # noqa: E402
from workbench.cluster import ClusterError, chunk_size, open_cluster  # noqa: E402


def problems(n: int, seed: int) -> list[Problem]:
    """``n`` random deals, 3NT by South: the same boards for a seed."""
    rng = random.Random(seed)
    return [
        Problem(board=f"R{i + 1}", deal=random_deal(rng).to_pbn(), contract="3NT", declarer="S")
        for i in range(n)
    ]


def cpu_seconds() -> float:
    """CPU time of this process and all its descendants, living or reaped."""
    psutil = importlib.import_module("psutil")  # a dependency of distributed

    me = psutil.Process()
    total = sum(me.cpu_times()[:2])
    for child in me.children(recursive=True):
        with contextlib.suppress(psutil.Error):
            total += sum(child.cpu_times()[:2])
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    return float(total + reaped.ru_utime + reaped.ru_stime)


def figures(
    label: str, report: MatchReport, wall: float, cpu: float, workers: int
) -> dict[str, Any]:
    jobs = len(report.results)
    own_wall = sum(r.wall_seconds for r in report.results)
    own_cpu = sum(r.cpu_seconds for r in report.results)
    return {
        "configuration": label,
        "jobs": jobs,
        "wall_s": round(wall, 2),
        "jobs_per_s": round(jobs / wall, 1),
        "job_cpu_ms": round(1000 * own_cpu / jobs, 2),
        "overhead_cpu_ms": round(1000 * (cpu - own_cpu) / jobs, 2),
        "overhead_wall_ms": round(1000 * (wall * workers - own_wall) / jobs, 2),
    }


def comparable(report: MatchReport) -> str:
    data = report.to_dict()
    for row in data["results"]:
        row.pop("seconds")
    for summary in data["declarers"].values():
        summary.pop("seconds_per_deal")
    return json.dumps(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2, help="pool processes and local:N workers")
    ap.add_argument("--chunk", type=int, default=None, help="jobs per Dask task (default: auto)")
    ap.add_argument("--unchunked", action="store_true", help="also one job per Dask task")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args(argv)

    boards = problems(args.deals, args.seed)
    match = partial(run_match, boards, ["heuristic"], "dd", timeout=120.0)
    rows: list[dict[str, Any]] = []

    def progress(label: str) -> Any:
        def show(done: int, total: int, _: object) -> None:
            if done % 100 == 0 or done == total:
                end = "\n" if done == total else ""
                print(f"\r  {label}: {done}/{total}", end=end, file=sys.stderr, flush=True)

        return show

    label = f"local pool, {args.workers} processes"
    # spawn, not the default forkserver: the workers are then this process's children,
    # and their CPU time is counted.
    t0, c0 = time.perf_counter(), cpu_seconds()
    pool = match(jobs=args.workers, progress=progress(label), mp_context="spawn")
    rows.append(figures(label, pool, time.perf_counter() - t0, cpu_seconds() - c0, args.workers))
    want = comparable(pool)

    chunks = [args.chunk or chunk_size(len(boards), args.workers)]
    if args.unchunked and chunks[0] != 1:
        chunks.append(1)
    try:
        for chunk in chunks:
            t0 = time.perf_counter()
            with open_cluster(f"local:{args.workers}", chunk=chunk) as executor:
                start = time.perf_counter() - t0
                label = f"local:{args.workers}, {chunk} jobs a task"
                t0, c0 = time.perf_counter(), cpu_seconds()
                report = match(executor=executor, progress=progress(label))
                wall, cpu = time.perf_counter() - t0, cpu_seconds() - c0
            row = figures(label, report, wall, cpu, args.workers)
            row["start_s"] = round(start, 2)
            row["same_results"] = comparable(report) == want
            rows.append(row)
    except ClusterError as exc:
        print(f"cluster_overhead: error: {exc}", file=sys.stderr)
        return 1

    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print(
        f"{args.deals} random deals, 3NT by South, heuristic declarer against double-dummy "
        f"defence, {args.workers} workers"
    )
    print(
        f"{'':29} {'wall':>6} {'jobs':>6} {'job CPU':>8} {'overhead ms/job':>16}\n"
        f"{'configuration':29} {'s':>6} {'/s':>6} {'ms':>8} {'CPU':>7} {'wall':>8}"
    )
    for r in rows:
        extra = ""
        if "start_s" in r:
            extra = f"  (start {r['start_s']:.1f} s; same results: {r['same_results']})"
        print(
            f"{r['configuration']:29} {r['wall_s']:6.1f} {r['jobs_per_s']:6.1f} "
            f"{r['job_cpu_ms']:8.1f} {r['overhead_cpu_ms']:7.2f} "
            f"{r['overhead_wall_ms']:8.2f}{extra}"
        )
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if all(r.get("same_results", True) for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
