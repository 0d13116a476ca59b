"""Reading the IPC 2020 total-order HDDL files: our lark reader against unified-planning's.

Run: ``.venv/bin/python benchmarks/hddl_parse.py DIR`` where DIR holds one folder per domain
(``ipc2020-total-order/`` of ``panda-planner-dev/ipc2020-domains``); unified-planning comes
with ``pip install -e '.[bench]'``.  Options: ``--limit N`` problems per domain, ``--earley``
to time the same grammar under lark's Earley parser too, ``--no-up`` to leave
unified-planning out, ``--up-lenient`` (below).

For every problem both readers read the pair (domain file, problem file), since
unified-planning reads a problem only with its domain; the pairs are timed interleaved, ours
then theirs, so that a busy moment on a shared machine falls on both.  "lark s" is
``read_domain`` + ``read_problem`` (parse, build, check); "UP s" is
``PDDLReader().parse_problem`` (``--up-lenient`` turns its ``error_used_name`` off, which
lets a type and a predicate share a name); "earley s" parses the pair into a tree only,
without building the model, so it flatters Earley.  "round trip" counts files (each domain
file once, then each problem) whose model, written by ``write_domain``/``write_problem`` and
read back, is equal.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from knowledge.hddl import (
    Domain,
    HddlError,
    parse_domain,
    parse_problem,
    read_domain,
    read_problem,
    write_domain,
    write_problem,
)
from knowledge.hddl.syntax import parser


@dataclass
class Row:
    domain: str
    problems: int = 0
    ours_ok: int = 0
    ours_s: float = 0.0
    up_ok: int = 0
    up_s: float = 0.0
    earley_ok: int = 0
    earley_s: float = 0.0
    trip_ok: int = 0
    trip_files: int = 0
    failures: list[str] = field(default_factory=list)


def pairs(folder: Path, limit: int | None) -> list[tuple[Path, Path]]:
    """(domain, problem) files: the domain is ``domain.hddl`` or ``<problem>-domain.hddl``."""
    out = []
    for problem in sorted(folder.glob("*.hddl")):
        if "domain" in problem.name:
            continue
        own = problem.with_name(problem.stem + "-domain.hddl")
        domain = own if own.exists() else folder / "domain.hddl"
        out.append((domain, problem))
    return out[:limit] if limit else out


def timed(
    reader: Callable[[Path, Path], None], domain: Path, problem: Path
) -> tuple[float, str | None]:
    start = time.perf_counter()
    try:
        reader(domain, problem)
    except Exception as error:  # any reader failure is a figure here, not a crash
        first = (str(error).splitlines() or [""])[0]
        return time.perf_counter() - start, f"{type(error).__name__}: {first[:150]}"
    return time.perf_counter() - start, None


def ours(domain: Path, problem: Path) -> None:
    read_problem(problem, read_domain(domain))


def theirs(domain: Path, problem: Path) -> None:
    from unified_planning.io import PDDLReader

    PDDLReader().parse_problem(str(domain), str(problem))


def earley(domain: Path, problem: Path) -> None:
    lark = parser("earley")
    lark.parse(domain.read_text(encoding="utf-8"), start="start_domain")
    lark.parse(problem.read_text(encoding="utf-8"), start="start_problem")


def round_trips(todo: list[tuple[Path, Path]], row: Row) -> None:
    domains: dict[Path, Domain | None] = {}
    for domain_path, problem_path in todo:
        if domain_path not in domains:
            row.trip_files += 1
            try:
                model = read_domain(domain_path)
                domains[domain_path] = model
                row.trip_ok += parse_domain(write_domain(model)) == model
            except HddlError:
                domains[domain_path] = None
        domain = domains[domain_path]
        row.trip_files += 1
        if domain is None:
            continue
        try:
            problem = read_problem(problem_path, domain)
        except HddlError:
            continue
        row.trip_ok += parse_problem(write_problem(problem), domain) == problem


def measure(folder: Path, args: argparse.Namespace) -> Row:
    row = Row(folder.name)
    todo = pairs(folder, args.limit)
    row.problems = len(todo)
    readers: list[tuple[str, Callable[[Path, Path], None]]] = [("ours", ours)]
    if not args.no_up:
        readers.append(("up", theirs))
    if args.earley:
        readers.append(("earley", earley))
    for domain, problem in todo:
        for name, reader in readers:
            seconds, failure = timed(reader, domain, problem)
            setattr(row, f"{name}_s", getattr(row, f"{name}_s") + seconds)
            if failure is None:
                setattr(row, f"{name}_ok", getattr(row, f"{name}_ok") + 1)
            elif not any(f.startswith(f"{name}:") for f in row.failures):
                row.failures.append(f"{name}: {problem.name}: {failure}")
    round_trips(todo, row)
    return row


def main(argv: list[str] | None = None) -> int:
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    cli = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    cli.add_argument("folder", type=ipc_folder, help=f"the folder of domain folders: {WHERE}")
    cli.add_argument("--limit", type=int, default=None, help="problems per domain")
    cli.add_argument("--earley", action="store_true", help="time lark's Earley parser too")
    cli.add_argument("--no-up", action="store_true", help="leave unified-planning out")
    cli.add_argument(
        "--up-lenient",
        action="store_true",
        help="let unified-planning give a type and a predicate one name (error_used_name off)",
    )
    args = cli.parse_args(argv)
    if not args.no_up:
        try:
            import unified_planning  # noqa: F401
        except ImportError:
            cli.error("unified-planning is not installed: pip install -e '.[bench]', or --no-up")
        if args.up_lenient:
            from unified_planning.environment import get_environment

            get_environment().error_used_name = False
    folders = sorted(p for p in args.folder.iterdir() if p.is_dir() and pairs(p, 1))
    if not folders:
        cli.error(f"no domain folders with .hddl problems in {args.folder}")
    parser()  # built once, outside the timings
    if args.earley:
        parser("earley")
    head = f"{'domain':30} {'problems':>8} {'lark ok':>8} {'lark s':>8}"
    if not args.no_up:
        head += f" {'UP ok':>8} {'UP s':>8} {'UP/lark':>8}"
    if args.earley:
        head += f" {'earley ok':>9} {'earley s':>9} {'E/lark':>7}"
    head += f" {'round trip':>11}"
    print(head)
    total = Row("total")
    rows = []
    for folder in folders:
        row = measure(folder, args)
        rows.append(row)
        print(line(row, args), flush=True)
        for name in ("problems", "ours_ok", "ours_s", "up_ok", "up_s", "earley_ok", "earley_s"):
            setattr(total, name, getattr(total, name) + getattr(row, name))
        total.trip_ok += row.trip_ok
        total.trip_files += row.trip_files
    print(line(total, args))
    for row in rows:
        for failure in row.failures:
            print(f"{row.domain}: first failure of {failure}")
    return 0


def line(row: Row, args: argparse.Namespace) -> str:
    out = f"{row.domain[:30]:30} {row.problems:8} {row.ours_ok:8} {row.ours_s:8.2f}"
    if not args.no_up:
        ratio = row.up_s / row.ours_s if row.ours_s else 0.0
        out += f" {row.up_ok:8} {row.up_s:8.2f} {ratio:7.1f}x"
    if args.earley:
        ratio = row.earley_s / row.ours_s if row.ours_s else 0.0
        out += f" {row.earley_ok:9} {row.earley_s:9.2f} {ratio:6.1f}x"
    out += f" {f'{row.trip_ok}/{row.trip_files}':>11}"
    return out


if __name__ == "__main__":
    sys.exit(main())
