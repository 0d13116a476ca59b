"""How long the relaxed reachability analysis takes per problem, per IPC domain.

Usage::

    python benchmarks/reachability.py IPC_FOLDER \\
        [--per-domain K] [--limit SECONDS]

IPC_FOLDER is the ``total-order/`` folder of a clone of the competition's public
repository, https://github.com/panda-planner-dev/ipc2020-domains (not shipped here).

For the first K problems of each domain folder (``hddl_parse.pairs``' order) it reads the
files (not timed), runs :func:`knowledge.hddl.reachability.analyse` once (timed) and asks
whether the analysis proves the problem unsolvable.  The IPC problems all have plans, so
any "proven unsolvable" is a soundness bug and is printed in full.  A problem whose analysis
runs past ``--limit`` seconds (an alarm) counts as "over".  Printed per domain: problems,
median and maximum seconds, over the limit, proven unsolvable; then the same in total.
"""

from __future__ import annotations

import argparse
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from hddl_parse import pairs

from knowledge.hddl import read_domain, read_problem
from knowledge.hddl.reachability import analyse


class _Over(Exception):
    """The analysis ran past the limit."""


def _alarm(signum: int, frame: object) -> None:
    raise _Over


def main(argv: list[str] | None = None) -> int:
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=ipc_folder, help=WHERE)
    parser.add_argument("--per-domain", type=int, default=5)
    parser.add_argument("--limit", type=float, default=10.0)
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"not a folder: {args.folder}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGALRM, _alarm)
    print(f"{'domain':32} {'problems':>8} {'median s':>9} {'max s':>8} {'over':>5} {'unsolv.':>8}")
    every: list[float] = []
    totals = [0, 0, 0]
    for folder in sorted(p for p in args.folder.iterdir() if p.is_dir()):
        times: list[float] = []
        over = unsolvable = 0
        for domain_path, problem_path in pairs(folder, args.per_domain):
            domain = read_domain(domain_path)
            problem = read_problem(problem_path, domain)
            signal.setitimer(signal.ITIMER_REAL, args.limit)
            start = time.perf_counter()
            try:
                reason = analyse(domain, problem).unsolvable()
            except _Over:
                over += 1
                continue
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            times.append(time.perf_counter() - start)
            if reason is not None:
                unsolvable += 1
                print(f"  UNSOUND {problem_path.name}: {reason}")
        every.extend(times)
        n = len(times) + over
        totals = [totals[0] + n, totals[1] + over, totals[2] + unsolvable]
        med = f"{statistics.median(times):9.4f}" if times else f"{'-':>9}"
        top = f"{max(times):8.4f}" if times else f"{'-':>8}"
        print(f"{folder.name:32} {n:8} {med} {top} {over:5} {unsolvable:8}")
    med = f"{statistics.median(every):9.4f}" if every else f"{'-':>9}"
    top = f"{max(every):8.4f}" if every else f"{'-':>8}"
    print(f"{'total':32} {totals[0]:8} {med} {top} {totals[1]:5} {totals[2]:8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
