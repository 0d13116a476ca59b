"""EDAPS on RM1, the URM1-URM3 style designs and heavier pocket fields.

Run: ``.venv/bin/python benchmarks/edaps_designs.py`` (``--quick`` for the small ones).

For each design: nodes (counted as the dissertation did) and seconds with the full tree and
the dissertation's pruner, the full tree with no pruner, and all exact pruning (branch and
bound + transpositions + the pruner); and the lead time of each, which must agree.  Full-
tree runs stop at a node budget (shown as ">N") so the script always finishes.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from knowledge import get_package
from knowledge.edaps.generate import pocket_field, stuck_together
from knowledge.edaps.parser import load_design
from knowledge.edaps.report import EdapsRun, plan_design

DESIGNS = Path(__file__).resolve().parent.parent / "knowledge" / "edaps" / "designs"


def cell(run: EdapsRun) -> str:
    if not run.result.complete:
        return f"{'>' + str(run.nodes):>10s} {run.seconds:8.2f}s"
    return f"{run.nodes:10d} {run.seconds:8.3f}s"


def lead(run: EdapsRun) -> str:
    if not run.result.complete:
        return "   -   "
    return f"{run.setup_time + run.run_time:.2f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="RM1 and URM1-3 only")
    ap.add_argument("--budget", type=int, default=2_000_000, help="full-tree node budget")
    args = ap.parse_args()
    domain = get_package("edaps").domain("edaps")
    rm1 = load_design(DESIGNS / "RM1.txt")
    designs = [rm1] + [stuck_together(rm1, k, f"URM{k - 1}") for k in (2, 3, 4)]
    if not args.quick:
        designs += [pocket_field(rm1, n) for n in (4, 8, 16, 32, 64)]
    growth: list[tuple[int, int, EdapsRun]] = []
    print(
        f"{'design':16s} {'full tree + pruner':>20s} {'full tree, no pruner':>20s} "
        f"{'exact pruning':>20s}  lead time (min)"
    )
    for d in designs:
        a = plan_design(domain, d, full_tree=True, node_budget=args.budget)
        b = plan_design(domain, d, full_tree=True, prune=False, node_budget=args.budget)
        c = plan_design(domain, d)
        done = [r for r in (a, b, c) if r.result.complete]
        leads = {lead(r) for r in done}
        same = (
            "only exact finished" if len(done) < 2 else "same" if len(leads) == 1 else "DIFFERENT"
        )
        print(
            f"{d.name:16s} {cell(a)} {cell(b)} {cell(c)}  {lead(a)} / {lead(b)} / {lead(c)} "
            f"({same})",
            flush=True,
        )
        if "pockets" in d.name:
            growth.append((len(d.milling) - len(rm1.milling), c.nodes, a))
    if len(growth) >= 2:
        x = np.log([g[0] for g in growth])
        y = np.log([g[1] for g in growth])
        slope = float(np.polyfit(x, y, 1)[0])
        print(
            f"exact pruning on the pocket fields: nodes grow like pockets^{slope:.2f} "
            "(least-squares slope of log nodes on log pockets)"
        )
        full = [(n, r.nodes) for n, _, r in growth if r.result.complete]
        if full:
            n, nodes = full[-1]
            print(
                f"full tree + pruner: {nodes} nodes at {n} pockets, and over the node budget "
                "from the next size on (each 5-mil pocket multiplies the tree by 2 or 3)"
            )


if __name__ == "__main__":
    main()
