"""What running a match's jobs on a Dask cluster costs beside the local process pool.

Run: ``.venv/bin/python benchmarks/cluster_overhead.py`` (needs the ``cluster`` extra).

A fixed match: ``--deals`` random deals (2,000; seeded, so every run plays the same
boards), 3NT by South, the heuristic declarer against the double-dummy defence, with the
double-dummy analysis of every play -- one job per deal, about 70 ms each here.  It runs
with the local pool of ``--workers`` processes and on ``local:N`` (a LocalCluster of as
many single-threaded worker processes on this machine), in chunks as ``--cluster`` sends
them and, with ``--unchunked``, one job per Dask task.

Per configuration: wall seconds of the match (the cluster already started, as a standing
cluster would be; its start is shown apart), jobs per second, and the overhead per job:
``(wall x workers - sum of the jobs' own seconds) / jobs``, the worker time each job cost
beyond its own work -- sending, scheduling, pickling, collecting, and on this 2-core
machine the scheduler's and the client's CPU taken from the workers.  Every configuration's
results must equal the local pool's (the JSON apart from timings); the script says so.
"""

from __future__ import annotations

import argparse
import json
import random
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


def figures(label: str, report: MatchReport, wall: float, workers: int) -> dict[str, Any]:
    jobs = len(report.results)
    own = sum(r.wall_seconds for r in report.results)
    return {
        "configuration": label,
        "jobs": jobs,
        "wall_s": round(wall, 2),
        "jobs_per_s": round(jobs / wall, 1),
        "job_ms": round(1000 * own / jobs, 2),
        "overhead_ms": round(1000 * (wall * workers - own) / jobs, 2),
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
    ap.add_argument("--deals", type=int, default=2000)
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
    t0 = time.perf_counter()
    pool = match(jobs=args.workers, progress=progress(label))
    rows.append(figures(label, pool, time.perf_counter() - t0, args.workers))
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
                t0 = time.perf_counter()
                report = match(executor=executor, progress=progress(label))
                wall = time.perf_counter() - t0
            row = figures(label, report, wall, args.workers)
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
    head = f"{'configuration':32} {'wall s':>7} {'jobs/s':>7} {'job ms':>7} {'overhead ms/job':>16}"
    print(head)
    for r in rows:
        extra = ""
        if "start_s" in r:
            extra = f"  (cluster start {r['start_s']:.1f} s; same results: {r['same_results']})"
        print(
            f"{r['configuration']:32} {r['wall_s']:7.1f} {r['jobs_per_s']:7.1f} "
            f"{r['job_ms']:7.1f} {r['overhead_ms']:16.2f}{extra}"
        )
    return 0 if all(r.get("same_results", True) for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
