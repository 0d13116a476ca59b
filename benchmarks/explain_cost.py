"""What explaining a run costs next to planning it.

Run: ``.venv/bin/python benchmarks/explain_cost.py`` (``--rounds N``).

For each problem, side by side in one run: the planning time, the time to build the
structured explanation (relevant issues, magnitudes; in optimise mode this includes the
forced re-plans that finish lower-valued and bound-pruned alternatives), the number of
re-plans and the nodes they searched.  Best of ``--rounds`` (this machine is shared).
"""

from __future__ import annotations

import argparse
import time

from engine.tofs import SearchOptions, plan
from knowledge import explain_run, get_package


def measure(package: str, problem_name: str, rounds: int) -> tuple[float, float, int, int, int]:
    pkg = get_package(package)
    domain, problem = pkg.problem(problem_name)
    options = SearchOptions(**{**problem.options, "mode": problem.mode})
    best_plan = best_explain = float("inf")
    replans = nodes = 0
    run = None
    for _ in range(rounds):
        t0 = time.perf_counter()
        run = plan(domain, problem, options)
        t1 = time.perf_counter()
        e = explain_run(
            run, domain, problem, options, pkg.phrasing(domain) if pkg.phrasing else None
        )
        t2 = time.perf_counter()
        best_plan, best_explain = min(best_plan, t1 - t0), min(best_explain, t2 - t1)
        done = [a for c in e.choices for a in c.alternatives if a.replanned is not None]
        replans = len(done)
    assert run is not None
    nodes = run.nodes
    return best_plan, best_explain, replans, nodes, len(run.choice_points)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    problems = [
        ("examples", "dinner"),
        ("examples", "finesse"),
        ("edaps", "RM1"),
        ("edaps", "MULTI"),
        ("bridge", "353021-trick5"),
        ("bridge", "353306-trick3"),
    ]
    print(
        f"{'problem':28s} {'plan s':>8s} {'explain s':>10s} {'ratio':>6s} "
        f"{'re-plans':>8s} {'run nodes':>10s} {'choices':>8s}"
    )
    for package, name in problems:
        p, e, replans, nodes, choices = measure(package, name, args.rounds)
        print(
            f"{package + '/' + name:28s} {p:8.3f} {e:10.3f} {e / p:6.2f} {replans:8d} "
            f"{nodes:10d} {choices:8d}"
        )


if __name__ == "__main__":
    main()
