"""What explaining a run costs next to planning it.

Run: ``.venv/bin/python benchmarks/explain_cost.py`` (``--rounds N``), or on HDDL
problems ``--hddl IPC_FOLDER [--per-domain K]
[--time-budget S]``.

IPC_FOLDER is the ``total-order/`` folder of a clone of the competition's public
repository, https://github.com/panda-planner-dev/ipc2020-domains (not shipped here).

For each problem, side by side in one run: the planning time, the time to build the
structured explanation (relevant issues, magnitudes; in optimise mode this includes the
forced re-plans that finish lower-valued and bound-pruned alternatives), the number of
re-plans and the nodes they searched.  Best of ``--rounds`` (this machine is shared).

With ``--hddl`` it takes the first K problems of each domain folder and, for each one
solved within the budget, times reading, compiling and planning it (what ``plan hddl``
does) against the same plus ``--explain`` (the explanation built and rendered as text):
the promise is that explaining a plan found quickly costs at most 3 times the plan.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

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
        e = explain_run(run, domain, problem, options, pkg.phrasing(domain))
        t2 = time.perf_counter()
        best_plan, best_explain = min(best_plan, t1 - t0), min(best_explain, t2 - t1)
        done = [a for c in e.choices for a in c.alternatives if a.replanned is not None]
        replans = len(done)
    assert run is not None
    nodes = run.nodes
    return best_plan, best_explain, replans, nodes, len(run.choice_points)


def hddl(root: Path, per_domain: int, budget: float, rounds: int) -> None:
    """Plan, then plan and explain, every solved problem; the worst ratio last."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from hddl_parse import pairs

    from engine.tofs.render import render_text
    from knowledge.hddl.package import read_files, run_models

    print(f"{'problem':48s} {'plan s':>8s} {'+explain s':>10s} {'ratio':>6s} {'lines':>6s}")
    worst = 0.0
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for domain_file, problem_file in pairs(folder, per_domain):
            best_plan = best_both = float("inf")
            lines = 0
            for _ in range(rounds):
                t0 = time.perf_counter()
                domain, problem = read_files(str(domain_file), str(problem_file))
                run = run_models(domain, problem, time_budget=budget)
                render_text(run.result)
                t1 = time.perf_counter()
                if not run.result.found:
                    break
                domain, problem = read_files(str(domain_file), str(problem_file))
                run = run_models(domain, problem, time_budget=budget)
                e = explain_run(run.result, run.engine_domain, run.engine_problem, run.options)
                lines = render_text(run.result, explain=True, explanation=e).count("\n")
                t2 = time.perf_counter()
                best_plan, best_both = min(best_plan, t1 - t0), min(best_both, t2 - t1)
            if best_both == float("inf"):
                continue
            ratio = best_both / best_plan
            worst = max(worst, ratio)
            print(
                f"{folder.name + '/' + problem_file.name:48.48s} {best_plan:8.3f} "
                f"{best_both:10.3f} {ratio:6.2f} {lines:6d}",
                flush=True,
            )
    print(f"worst ratio: {worst:.2f}")


def main() -> None:
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument(
        "--hddl", type=ipc_folder, help=f"folder with one sub-folder per HDDL domain: {WHERE}"
    )
    ap.add_argument("--per-domain", type=int, default=3)
    ap.add_argument("--time-budget", type=float, default=10.0)
    args = ap.parse_args()
    if args.hddl is not None:
        hddl(args.hddl, args.per_domain, args.time_budget, args.rounds)
        return
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
