"""Headless commands (also what tests and benchmarks drive) and the entry point.

``workbench`` with no command opens the Textual workbench; ``workbench plan PACKAGE
PROBLEM`` plans headless and prints the plan, with ``--explain`` every alternative at every
choice point and its reason, and with ``--json`` the same as JSON.  Exit status: 0 for a
plan, 2 when there is none (an unmanufacturable design), 1 for unreadable input -- which
is one clear message on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["main"]


def _force(pairs: Sequence[str]) -> dict[str, str]:
    out = {}
    for text in pairs:
        task, sep, alt = text.partition("=")
        if not sep or not task.strip() or not alt.strip():
            raise SystemExit(_fail(f"--why-not expects TASK=ALTERNATIVE, got '{text}'"))
        out[task.strip()] = alt.strip()
    return out


def _fail(message: str, status: int = 1) -> int:
    print(f"workbench: error: {message}", file=sys.stderr)
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="workbench",
        description="TOFS Workbench: author, run and explain HTN knowledge (Smith 1997).",
    )
    sub = parser.add_subparsers(dest="command")

    p = sub.add_parser("plan", help="plan a problem headless and print the plan")
    p.add_argument("package", help="knowledge package, e.g. examples")
    p.add_argument("problem", help="problem name within the package (e.g. dinner, RM1) or "
                   "a problem file (e.g. an EDAPS design)")
    p.add_argument("--mode", choices=["optimise", "game", "first"],
                   help="search mode (default: the problem's own)")
    p.add_argument("--full-tree", action="store_true",
                   help="no branch and bound, no transpositions (the dissertation's search)")
    p.add_argument("--no-prune", action="store_true", help="switch the partial plan pruner off")
    p.add_argument("--node-budget", type=int, metavar="N", help="stop after N nodes")
    p.add_argument("--time-budget", type=float, metavar="S", help="stop after S seconds")
    p.add_argument("--criterion", default="weighted-average",
                   choices=["weighted-average", "maximin", "hurwicz", "minimax-regret"],
                   help="external-agent criterion in game mode")
    p.add_argument("--alpha", type=float, default=0.5, help="Hurwicz optimism index")
    p.add_argument("--why-not", action="append", default=[], metavar="TASK=ALTERNATIVE",
                   help="force ALTERNATIVE at the first choice point for TASK")
    p.add_argument("--explain", action="store_true",
                   help="list every alternative at every choice point with its reason")
    p.add_argument("--json", action="store_true", help="print JSON instead of text")

    sub.add_parser("list", help="list knowledge packages and their problems")

    parser.add_argument("--version", action="store_true", help="print the version and exit")
    return parser


def _cmd_plan(args: argparse.Namespace) -> int:
    from knowledge import EXIT_BAD_INPUT, PackageError, PlanRequest, get_package

    try:
        pkg = get_package(args.package)
    except PackageError as exc:
        return _fail(str(exc), EXIT_BAD_INPUT)
    request = PlanRequest(
        problem=args.problem, mode=args.mode, full_tree=args.full_tree,
        prune=not args.no_prune, node_budget=args.node_budget, time_budget=args.time_budget,
        criterion=args.criterion, alpha=args.alpha, force=_force(args.why_not) or None,
        explain=args.explain, json=args.json,
    )
    report = pkg.plan(request)
    if report.status == EXIT_BAD_INPUT:
        message = report.text.removeprefix("error: ")
        return _fail(message, EXIT_BAD_INPUT)
    print(report.text)
    return report.status


def _cmd_list() -> int:
    from knowledge import get_package, package_names

    for name in package_names():
        pkg = get_package(name)
        print(f"{name}: {pkg.description}")
        for prob in sorted(pkg.problems):
            print(f"  {prob:12s} {pkg.problem_descriptions.get(prob, '')}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.version:
        from importlib.metadata import version

        print(f"workbench {version('tofs-workbench')}")
        return 0
    if args.command == "plan":
        return _cmd_plan(args)
    if args.command == "list":
        return _cmd_list()
    from workbench.app import run_app

    return run_app()
