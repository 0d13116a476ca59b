"""Declarer matches on the dev deals and on generated game contracts.

Run: ``.venv/bin/python benchmarks/bridge_match.py`` (full: the 100 dev deals and 200
generated games, declarers tofs, dd, mcdd and heuristic, against the heuristic and the
double-dummy defence, 2 worker processes).  A quick run::

    .venv/bin/python benchmarks/bridge_match.py --boards 20 --generated 20 --samples 10

Options: ``--boards N`` (dev deals, 0 to skip), ``--generated N`` (0 to skip), ``--seed``
(generation and Monte-Carlo seed), ``--declarers dd,mcdd,heuristic``, ``--defenses
heuristic,dd``, ``--samples`` (Monte-Carlo layouts per decision), ``--jobs``,
``--cluster ADDRESS`` (a Dask cluster instead of the local pool: see the README),
``--timeout`` (seconds per board), ``--decision-timeout`` (seconds per Monte-Carlo
decision), ``--games-file`` (reuse/save the generated deals as PBN), ``--json FILE`` (all
reports, keyed "dev/heuristic" etc.).

The dev deals (``dds-list100.pbn``) carry no contract: each record's ``[DDSTrump]`` and
``[DDSLeader]`` give strain and declarer, and the level is the one double dummy makes
exactly (see :func:`knowledge.bridge.match.problem_from_record`).
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
from knowledge.bridge.generate import generate_games, write_pbn  # noqa: E402
from knowledge.bridge.match import run_match  # noqa: E402
from knowledge.bridge.pbn import read_pbn  # noqa: E402
from workbench.batch import interrupted, report_failures  # noqa: E402
from workbench.cluster import ClusterError, add_cluster_option, batch_executor  # noqa: E402


def _progress(label: str):
    def show(done: int, total: int, res) -> None:
        end = "\n" if done == total else ""
        print(f"\r  {label}: {done}/{total} jobs", end=end, file=sys.stderr, flush=True)

    return show


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=100, help="dev deals to play (0: none)")
    ap.add_argument("--generated", type=int, default=200, help="generated games (0: none)")
    ap.add_argument("--seed", type=int, default=0)
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
    ap.add_argument(
        "--games-file",
        type=Path,
        default=None,
        help="PBN file of generated games: read if it exists, else written",
    )
    ap.add_argument("--json", type=Path, default=None, help="write all reports here")
    args = ap.parse_args(argv)

    declarers = [d.strip() for d in args.declarers.split(",") if d.strip()]
    defenses = [d.strip() for d in args.defenses.split(",") if d.strip()]
    sets: list[tuple[str, list]] = []
    if args.boards > 0:
        sets.append(("dev", read_pbn(args.data / "dds-list100.pbn")[: args.boards]))
    if args.generated > 0:
        t0 = time.perf_counter()
        if args.games_file is not None and args.games_file.exists():
            games = read_pbn(args.games_file)[: args.generated]
        else:
            games = generate_games(args.generated, seed=args.seed)
            if args.games_file is not None:
                write_pbn(games, args.games_file)
        print(
            f"{len(games)} generated games ready in {time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
        )
        sets.append(("generated", games))

    options = {"samples": args.samples, "seed": args.seed, "timeout": args.decision_timeout}
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
            failed += [
                (f"{label} board {r.board} ({r.declarer})", r.error, r.traceback)
                for r in report.failures
            ]
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1), encoding="utf-8")
    return report_failures(failed, "board")


if __name__ == "__main__":
    raise SystemExit(main())
