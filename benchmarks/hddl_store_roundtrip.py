"""HDDL through the knowledge store and back: every domain file of a folder of IPC domains
imported with its problems, exported as HDDL, read back and compared.

Run: ``.venv/bin/python benchmarks/hddl_store_roundtrip.py DIR`` where DIR holds one folder
per domain (``ipc2020-total-order/`` of ``panda-planner-dev/ipc2020-domains``).  Options:
``--limit N`` problems per domain folder.

Each domain folder gets a fresh store in a temporary directory.  For each domain file (a
folder's ``domain.hddl``, or ``<problem>-domain.hddl`` per problem as in Monroe) the
commands a user would type are run in this process: ``workbench kb import DOMAIN.hddl
PROBLEM.hddl...``, then ``workbench kb export NAME --format hddl`` for the domain and
``--problem P`` for each problem.  A file round-trips when what was exported reads back to a
model *equal* to the original file's (the model's equality ignores source positions and
spellings; the domain's problems are read against the exported domain).  A folder is OK when
every file of it does.  Prints one line per folder and a total; exits 1 if any failed.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from knowledge.hddl import read_domain, read_problem
from workbench.cli import main as workbench


@dataclass
class Row:
    folder: str
    domains: int = 0
    domains_ok: int = 0
    problems: int = 0
    problems_ok: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and self.domains_ok == self.domains > 0


def groups(folder: Path, limit: int | None) -> dict[Path, list[Path]]:
    """{domain file: its problem files}: the domain is ``domain.hddl`` or
    ``<problem>-domain.hddl`` (as ``benchmarks/hddl_parse.py`` pairs them)."""
    problems = [p for p in sorted(folder.glob("*.hddl")) if "domain" not in p.name]
    out: dict[Path, list[Path]] = {}
    for problem in problems[:limit] if limit else problems:
        own = problem.with_name(problem.stem + "-domain.hddl")
        out.setdefault(own if own.exists() else folder / "domain.hddl", []).append(problem)
    return out


def run(*argv: str | Path) -> tuple[int, str, str]:
    """``workbench ARGV`` in this process: exit status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = workbench([str(a) for a in argv])
    return status, out.getvalue(), err.getvalue()


def first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0][:200]


def measure(folder: Path, work: Path, limit: int | None) -> Row:
    row = Row(folder.name)
    start = time.perf_counter()
    db = work / f"{folder.name}.db"
    for domain_file, problem_files in groups(folder, limit).items():
        row.domains += 1
        row.problems += len(problem_files)
        where = domain_file.name
        status, out, err = run("kb", "import", domain_file, *problem_files, "--db", db, "--json")
        if status != 0:
            row.failures.append(f"{where}: import exited {status}: {first_line(err)}")
            continue
        imported = json.loads(out)
        name, stored = imported["domain"], imported["problems"]
        exported_domain = work / "exported-domain.hddl"
        status, _, err = run(
            "kb", "export", name, "--format", "hddl", "-o", exported_domain, "--db", db
        )
        if status != 0:
            row.failures.append(f"{where}: export exited {status}: {first_line(err)}")
            continue
        original = read_domain(domain_file)
        exported = read_domain(exported_domain)
        if exported != original:
            row.failures.append(f"{where}: the exported domain differs from the file")
            continue
        row.domains_ok += 1
        for problem_file, problem_name in zip(problem_files, stored, strict=True):
            target = work / "exported-problem.hddl"
            status, _, err = run(
                "kb",
                "export",
                name,
                "--format",
                "hddl",
                "--problem",
                problem_name,
                "-o",
                target,
                "--db",
                db,
            )
            if status != 0:
                row.failures.append(
                    f"{problem_file.name}: export exited {status}: {first_line(err)}"
                )
            elif read_problem(target, exported) != read_problem(problem_file, original):
                row.failures.append(f"{problem_file.name}: the exported problem differs")
            else:
                row.problems_ok += 1
    row.seconds = time.perf_counter() - start
    return row


def line(row: Row) -> str:
    return (
        f"{row.folder:28s} {'OK' if row.ok else 'FAIL':4s} {row.domains_ok:>4d}/{row.domains:<4d}"
        f" {row.problems_ok:>5d}/{row.problems:<5d} {row.seconds:8.1f}"
    )


def main(argv: list[str] | None = None) -> int:
    # The IPC domains are not in the repository: say where to get them.
    from ipc_folder import WHERE, ipc_folder

    cli = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    cli.add_argument("folder", type=ipc_folder, help=f"the folder of domain folders: {WHERE}")
    cli.add_argument("--limit", type=int, default=None, help="problems per domain folder")
    args = cli.parse_args(argv)
    folders = sorted(p for p in args.folder.iterdir() if p.is_dir())
    if not folders:
        print(f"{args.folder}: no domain folders", file=sys.stderr)
        return 1
    print(f"{'folder':28s} {'':4s} {'domains':>9s} {'problems':>11s} {'s':>8s}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="hddl-store-") as tmp:
        for folder in folders:
            row = measure(folder, Path(tmp), args.limit)
            rows.append(row)
            print(line(row), flush=True)
            for failure in row.failures[:5]:
                print(f"    {failure}")
    total = Row(
        "total",
        sum(r.domains for r in rows),
        sum(r.domains_ok for r in rows),
        sum(r.problems for r in rows),
        sum(r.problems_ok for r in rows),
        sum(r.seconds for r in rows),
        [f for r in rows for f in r.failures],
    )
    print(line(total))
    ok = sum(r.ok for r in rows)
    print(f"{ok}/{len(rows)} domain folders round-trip through the store")
    return 0 if ok == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
