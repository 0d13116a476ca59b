"""Declarer matches on three sets of deals, each named for what it may be used for.

* ``dev`` -- the 100 deals of ``dds-list100.pbn`` (``--boards``), played at the level
  double dummy makes; the knowledge was written and tuned on them.
* ``tune`` -- generated deals from seed 1 (``--tune``, default 200): tune on these too.
* ``report`` -- generated deals from seed 2 (``--report``, default 300): held out.  Made
  once, saved as ``benchmarks/data/report-seed2.pbn``, and only ever played as a whole:
  a change goes in if it helps here, never because of one deal.

Generated deals look like a scored event's (:func:`knowledge.bridge.generate.generate_deals`):
the side with more points declares at the level double dummy makes, in the strain an
auction settles in (suit or no-trump), and the heuristic defender chooses the opening lead,
which is then fixed.  Sets are cached as PBN in ``--sets-dir`` (default
``benchmarks/data``) and read back, so every run plays the same boards.

Run (the figures in docs/reference/performance.md; about 15 minutes on 2 cores)::

    .venv/bin/python benchmarks/bridge_match.py --declarers tofs,mcdd,heuristic \\
        --defenses dd --where

A quick run: ``--boards 20 --tune 20 --report 0 --samples 10``.

Other options: ``--declarers`` (registry names or ``module:factory``), ``--defenses
heuristic,dd``, ``--samples`` (Monte-Carlo layouts per decision), ``--seed`` (the
Monte-Carlo seed), ``--jobs``, ``--cluster ADDRESS`` (a Dask cluster instead of the local
pool: see docs/guide/batch.md), ``--timeout`` (seconds per board), ``--decision-timeout`` (seconds
per Monte-Carlo decision), ``--where`` (where each declarer's double-dummy tricks went: by
phase, kind of card and scheme), ``--json FILE`` (all reports, keyed "dev/dd" etc.).

The dev deals carry no contract: each record's ``[DDSTrump]`` and ``[DDSLeader]`` give
strain and declarer, and the level is the one double dummy makes exactly (see
:func:`knowledge.bridge.match.problem_from_record`); the defence chooses their lead.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from knowledge.bridge import DATA_DIR as DATA  # noqa: E402
from knowledge.bridge.generate import generate_deals, write_pbn  # noqa: E402
from knowledge.bridge.losses import where_lost  # noqa: E402
from knowledge.bridge.match import run_match  # noqa: E402
from knowledge.bridge.pbn import PbnError, read_pbn  # noqa: E402
from workbench.batch import interrupted, report_failures  # noqa: E402
from workbench.cluster import ClusterError, add_cluster_option, batch_executor  # noqa: E402

SETS = ROOT / "benchmarks" / "data"
TUNE_SEED, REPORT_SEED = 1, 2
PREFIX = {"tune": "T", "report": "R"}


def generated_set(folder: Path, name: str, seed: int, n: int) -> list:
    """The first ``n`` deals of a generated set, read from its file (made on first use;
    a longer set is made anew and replaces the file: its first deals are the same)."""
    path = folder / f"{name}-seed{seed}.pbn"
    records = read_pbn(path) if path.exists() else []
    if len(records) < n:
        t0 = time.perf_counter()
        records = generate_deals(n, seed, prefix=PREFIX[name])
        folder.mkdir(parents=True, exist_ok=True)
        write_pbn(records, path)
        print(
            f"{name}: {n} deals generated in {time.perf_counter() - t0:.0f} s -> {path}",
            file=sys.stderr,
        )
    return records[:n]


def _progress(label: str):
    def show(done: int, total: int, res) -> None:
        end = "\n" if done == total else ""
        print(f"\r  {label}: {done}/{total} jobs", end=end, file=sys.stderr, flush=True)

    return show


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=100, help="dev deals to play (0: none)")
    ap.add_argument("--tune", type=int, default=200, help="tuning deals, seed 1 (0: none)")
    ap.add_argument("--report", type=int, default=300, help="held-out deals, seed 2 (0: none)")
    ap.add_argument("--seed", type=int, default=0, help="the Monte-Carlo seed")
    ap.add_argument("--declarers", default="tofs,dd,mcdd,heuristic")
    ap.add_argument("--defenses", default="heuristic,dd")
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--jobs", type=int, default=2)
    add_cluster_option(ap)
    ap.add_argument("--timeout", type=float, default=300.0, help="seconds per board")
    ap.add_argument(
        "--decision-timeout", type=float, default=20.0, help="seconds per Monte-Carlo decision"
    )
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--sets-dir", type=Path, default=SETS, help="where generated sets are kept")
    ap.add_argument("--where", action="store_true", help="where the tricks went, per declarer")
    ap.add_argument("--json", type=Path, default=None, help="write all reports here")
    args = ap.parse_args(argv)

    declarers = [d.strip() for d in args.declarers.split(",") if d.strip()]
    defenses = [d.strip() for d in args.defenses.split(",") if d.strip()]
    sets: list[tuple[str, list]] = []
    try:
        if args.boards > 0:
            sets.append(("dev", read_pbn(args.data / "dds-list100.pbn")[: args.boards]))
        for name, n, seed in (
            ("tune", args.tune, TUNE_SEED),
            ("report", args.report, REPORT_SEED),
        ):
            if n > 0:
                sets.append((name, generated_set(args.sets_dir, name, seed, n)))
    except (PbnError, OSError) as exc:  # a damaged set file, an unreadable folder
        print(f"bridge_match: error: {exc}", file=sys.stderr)
        return 1

    options = {"samples": args.samples, "seed": args.seed, "timeout": args.decision_timeout}
    if args.where:
        options["plan_notes"] = True  # the losses by scheme name the plans' own notes
    try:
        with batch_executor(args.cluster) as executor:
            return _run(args, sets, declarers, defenses, options, executor)
    except ClusterError as exc:
        print(f"bridge_match: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return interrupted()


def _run(
    args: argparse.Namespace,
    sets: list[tuple[str, list]],
    declarers: list[str],
    defenses: list[str],
    options: dict,
    executor: Any,
) -> int:
    out: dict[str, dict] = {}
    failed: list[tuple[str, str | None, str | None]] = []
    for name, records in sets:
        for defense in defenses:
            label = f"{name}/{defense}"
            t0 = time.perf_counter()
            report = run_match(
                records,
                declarers,
                defense,
                jobs=args.jobs,
                timeout=args.timeout,
                options=options,
                progress=_progress(label),
                executor=executor,
            )
            took = time.perf_counter() - t0
            print()
            print(
                report.to_text(
                    title=f"{label}: {report.boards} boards, "
                    f"{args.samples} samples, {took:.0f} s wall"
                )
            )
            out[label] = report.to_dict()
            if args.where:
                for declarer in declarers:
                    lost = where_lost(report.for_declarer(declarer))
                    print(f"where {declarer} lost on {label}: " + lost.to_text())
            failed += [
                (f"{label} board {r.board} ({r.declarer})", r.error, r.traceback)
                for r in report.failures
            ]
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return report_failures(failed, "board")


if __name__ == "__main__":
    raise SystemExit(main())
