"""Headless commands (also what tests and benchmarks drive) and the entry point.

``workbench`` with no command opens the Textual workbench; ``workbench plan PACKAGE
PROBLEM`` plans headless and prints the plan, with ``--explain`` every alternative at every
choice point and its reason, and with ``--json`` the same as JSON.  Exit statuses are
shared by every command (:data:`EXIT_STATUSES`); unreadable input is one clear message on
stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

__all__ = ["EXIT_STATUSES", "main"]

EXIT_STATUSES = """exit status (every command):
  0  a plan (proven best, or the best found before a budget stopped the search)
  1  bad input or usage: one message on stderr naming what and where
  2  no plan exists: the whole tree was searched
  3  gave up at a budget with no plan found (and none ruled out)
  4  a batch (match, kb test) ran, but some of its jobs raised: each is named on stderr
  130  a batch was interrupted (ctrl+c): its jobs were stopped, also on a --cluster"""


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors on exit status 1, like every other kind of bad input
    (argparse's own 2 would read as "no plan exists"), said in one line like them: what
    was wrong, and where the usage is (``--help``) rather than the usage itself."""

    more_help: Callable[[], str] | None = None
    """Help said after the epilog, worked out only when help is asked for (``plan``: what
    each package takes, which imports every package)."""

    def format_help(self) -> str:
        text = super().format_help()
        return text if self.more_help is None else f"{text}\n{self.more_help()}"

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("workbench").strip()
        where = f"{command}: " if command else ""
        self.exit(1, f"workbench: error: {where}{message} (see {self.prog} --help)\n")


def _force(pairs: Sequence[str]) -> dict[str, str]:
    """``--why-not`` values as ``{task: alternative}``: ``TASK=ALTERNATIVE`` split at its
    first ``=`` outside parentheses, so the alternative may carry bindings
    (``deliver=m_deliver(?v=truck_1)``); an alternative alone (``m_deliver(?v=truck_1)``)
    has the task "" (the first choice point on the plan that offers it).  The alternative
    is read against the plan's choice points (an exact label first, any label text may
    be one), so only text no alternative can be is refused here."""
    from engine.tofs.forcing import split_task

    out: dict[str, str] = {}
    for text in pairs:
        task, alt = split_task(text)
        if not alt or (not task and "=" in text and "(" not in text):
            raise SystemExit(
                _fail(
                    f"--why-not expects TASK=ALTERNATIVE or METHOD(?var=value, ...), got '{text}'"
                )
            )
        if text.count("(") != text.count(")"):
            raise SystemExit(_fail(f"--why-not '{text}': a parenthesis is left open"))
        if task in out:
            raise SystemExit(_fail(f"--why-not names {task or 'an alternative alone'} twice"))
        out[task] = alt
    return out


class _ExportFormats:
    """``kb export --format`` choices: ``kb`` and every package's own formats (HDDL).  Asked
    only when a ``--format`` is given (or for help), so building the parser imports no
    package."""

    def __iter__(self) -> Iterator[str]:
        from knowledge import domain_formats

        yield "kb"
        yield from (fmt.name for _, fmt in domain_formats())

    def __contains__(self, value: object) -> bool:
        return value in list(self)


def _fail(message: str, status: int = 1) -> int:
    print(f"workbench: error: {message}", file=sys.stderr)
    return status


def build_parser() -> argparse.ArgumentParser:
    from knowledge import default_memory_budget

    parser = _Parser(
        prog="workbench",
        description="TOFS Workbench: author, run and explain HTN knowledge (Smith 1997).",
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command")
    # --db works before or after the command: "workbench --db F kb list" and
    # "workbench kb list --db F" mean the same.
    common = _Parser(add_help=False)
    common.add_argument(
        "--db",
        metavar="PATH",
        default=argparse.SUPPRESS,
        help="knowledge store to use (default: $WORKBENCH_DB, or the user data directory)",
    )
    parser.add_argument("--db", metavar="PATH", default=None, help=common._actions[0].help)
    # Planning from the files shipped with the packages, bypassing the store: for comparing
    # an edited store with the original knowledge, or when no store may be written.
    bundled = _Parser(add_help=False)
    bundled.add_argument(
        "--bundled",
        action="store_true",
        help="use the knowledge files shipped with the package, not the store",
    )

    p = sub.add_parser(
        "plan",
        parents=[common, bundled],
        help="plan a problem headless and print the plan",
        epilog=EXIT_STATUSES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.more_help = _what_packages_take
    p.add_argument("package", help="knowledge package, e.g. examples")
    p.add_argument(
        "problem",
        help="a problem name within the package (e.g. dinner, RM1, 353021) or a problem "
        "file (an EDAPS design, a PBN board file); hddl: the domain file, or the name of "
        "an HDDL domain in the store.  A package's own arguments may follow (bridge: "
        "--board; hddl: PROBLEM_FILE, the problem file or stored problem; --ipc, the IPC "
        "plan format).  Each package's inputs are listed below",
    )
    p.add_argument(
        "--mode",
        choices=["optimise", "game", "first"],
        help="search mode (default: the problem's own); a mode a package cannot plan in is "
        "refused with the reason (hddl: no game mode; optimise finds the fewest actions)",
    )
    p.add_argument(
        "--full-tree",
        action="store_true",
        help="no branch and bound, no transpositions (the dissertation's search)",
    )
    p.add_argument("--no-prune", action="store_true", help="switch the partial plan pruner off")
    p.add_argument(
        "--node-budget", type=positive_count, metavar="N", help="stop after N nodes (N ≥ 1)"
    )
    p.add_argument(
        "--time-budget",
        type=positive_seconds,
        metavar="S",
        help="stop S seconds (more than 0) after the command started, reading the files included",
    )
    p.add_argument(
        "--memory-budget",
        type=memory_size,
        metavar="SIZE",
        default=default_memory_budget(),
        help="stop when the process's resident memory passes SIZE: megabytes, or with a "
        "unit (512M, 2G); default: half of this machine's physical memory"
        + (f" ({default_memory_budget():,.0f} MB here)" if default_memory_budget() else ""),
    )
    p.add_argument(
        "--deepening",
        type=_at_least_one,
        metavar="N",
        help="first-plan mode: search to depth N, then 2N, 4N, ... until a plan is found "
        "(for domains where depth-first search dives and never comes back)",
    )
    p.add_argument(
        "--criterion",
        default="weighted-average",
        choices=["weighted-average", "maximin", "hurwicz", "minimax-regret"],
        help="external-agent criterion in game mode",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=None,
        help="Hurwicz optimism index (with --criterion hurwicz; default 0.5)",
    )
    p.add_argument(
        "--why-not",
        action="append",
        default=[],
        metavar="TASK=ALTERNATIVE",
        help="re-plan with ALTERNATIVE forced at the first choice point on the plan for TASK "
        "(a task name or label) and compare: ALTERNATIVE is a label as --json shows it, or "
        "a method with some of its variables bound, e.g. deliver=m_deliver(?v=truck_1) (the "
        "others left to the search); the method alone, m_deliver(?v=truck_1), takes the "
        "first choice point on the plan that offers it",
    )
    p.add_argument(
        "--explain",
        nargs="?",
        const="reader",
        default="",
        choices=["reader", "full"],
        metavar="full",
        help="explain the plan: the reader's view (the decision, the alternatives in "
        "contention, what they rest on); --explain=full lists every alternative at every "
        "choice point with its reason",
    )
    p.add_argument("--tree", action="store_true", help="print a game's decision tree (the policy)")
    p.add_argument(
        "--repair",
        action="store_true",
        help="when there is no plan, propose one-place edits of the domain that make it "
        "plan, best first, each with the plan it gives, accepted by an independent "
        "validator (hddl; the run itself gets at most half the time budget, 5 s at most)",
    )
    p.add_argument("--json", action="store_true", help="print JSON instead of text")

    ls = sub.add_parser("list", parents=[common], help="list knowledge packages and their problems")
    ls.add_argument("--json", action="store_true", help="print JSON instead of text")

    from workbench.domains import domain_uis

    for ui in domain_uis():  # a package's own commands (DomainUI.commands)
        if ui.commands is not None:
            ui.commands.add_parsers(sub, common, bundled)

    kb = sub.add_parser(
        "kb",
        help="the knowledge store: list, import, export, lint, test, "
        "history, undo, redo, set, delete",
    )
    ks = kb.add_subparsers(dest="kb_command", required=True)
    as_json = _Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print JSON instead of text")
    k = ks.add_parser(
        "list", parents=[common, as_json], help="domains in the store, or one domain's items"
    )
    k.add_argument("domain", nargs="?")
    k = ks.add_parser(
        "import",
        parents=[common, as_json],
        help="load a KB source file (or a bundled domain by name), or an HDDL domain and "
        "its problems, into the store",
    )
    k.add_argument(
        "source", help="a KB source file, an HDDL domain file, or the name of a bundled domain"
    )
    k.add_argument(
        "problems",
        nargs="*",
        metavar="PROBLEM.hddl",
        help="HDDL problem files of the domain, stored under their names",
    )
    k.add_argument(
        "--package",
        help="package whose primitives the domain uses (default: the "
        "package that bundles a domain of that name)",
    )
    k.add_argument("--base", type=int, help="refuse if the domain is no longer at this revision")
    how = k.add_mutually_exclusive_group()
    how.add_argument(
        "--replace",
        action="store_true",
        help="replace a domain (and problems) of the same name with different content: a "
        "new revision, its history kept (without it, or --base naming the revision "
        "replaced, such an import is refused)",
    )
    how.add_argument(
        "--as",
        dest="store_as",
        metavar="NAME",
        help="store the domain (and its problems) under this name instead of the file's",
    )
    k = ks.add_parser(
        "export",
        parents=[common],
        help="write a domain's KB source file (or its text in its package's language: HDDL)",
    )
    k.add_argument("domain")
    k.add_argument("-o", "--output", metavar="FILE", help="file to write (default: stdout)")
    k.add_argument(
        "--format",
        choices=_ExportFormats(),
        default="kb",
        metavar="FORMAT",
        help="kb: the KB source file (TOML; the default); or a package's own language, for a "
        "domain written in it (%(choices)s)",
    )
    k.add_argument(
        "--problem",
        metavar="NAME",
        help="with a package's --format: write this problem, stored in that language, "
        "instead of the domain",
    )
    k = ks.add_parser("lint", parents=[common, as_json], help="check a domain for likely mistakes")
    k.add_argument("domain")
    k = ks.add_parser("test", parents=[common, as_json], help="run knowledge tests")
    k.add_argument("domain", nargs="?", help="one domain (default: every domain)")
    k.add_argument("--name", action="append", help="only the test with this name")
    from workbench.cluster import add_cluster_option

    add_cluster_option(k)
    k = ks.add_parser("history", parents=[common, as_json], help="a domain's revisions, or a diff")
    k.add_argument("domain")
    k.add_argument(
        "--diff",
        nargs=2,
        type=int,
        metavar=("A", "B"),
        help="what changed from revision A to revision B",
    )
    for verb in ("undo", "redo"):
        k = ks.add_parser(
            verb, parents=[common, as_json], help=f"{verb} the latest change to a domain"
        )
        k.add_argument("domain")
        k.add_argument(
            "--base", type=int, help="refuse if the domain is no longer at this revision"
        )
    k = ks.add_parser(
        "set",
        parents=[common, as_json],
        help="create or change one item: FIELD=VALUE (VALUE as JSON, else text)",
    )
    k.add_argument("domain")
    k.add_argument("kind", choices=["constant", "task", "method", "operator", "test"])
    k.add_argument("name", help="item name (methods: Task.Method)")
    k.add_argument("fields", nargs="+", metavar="FIELD=VALUE")
    k.add_argument("--base", type=int, help="refuse if the domain is no longer at this revision")
    k.add_argument("-m", "--message", default="", help="why (kept in the history)")
    k = ks.add_parser("delete", parents=[common, as_json], help="delete one item")
    k.add_argument("domain")
    k.add_argument("kind", choices=["constant", "task", "method", "operator", "test"])
    k.add_argument("name")
    k.add_argument("--base", type=int, help="refuse if the domain is no longer at this revision")

    parser.add_argument("--version", action="store_true", help="print the version and exit")
    parser.add_argument(
        "--serve", action="store_true", help="serve the workbench to a web browser (textual-serve)"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to serve on (default 127.0.0.1; any other warns: the printed URL's "
        "token is then all that keeps others out)",
    )
    parser.add_argument("--port", type=int, default=8000, help="port to serve on")
    parser.add_argument(
        "--max-sessions",
        type=_at_least_one,
        default=None,
        metavar="N",
        help="browser sessions served at once, one workbench process each (default 4)",
    )
    parser.add_argument(
        "--exports",
        metavar="DIR",
        default=None,
        help="where the workbench writes Markdown and SVG exports (default: "
        "$WORKBENCH_EXPORTS, or 'exports' in the user data directory)",
    )
    return parser


def _what_packages_take() -> str:
    """``plan --help``'s last section: what each package takes, in its own words
    (:meth:`knowledge.KnowledgePackage.inputs`) -- the same as ``play`` takes for bridge."""
    import textwrap

    from knowledge import PackageError, get_package, package_names

    lines = ["what each package takes as PROBLEM:"]
    for name in package_names():
        try:
            said = get_package(name).inputs()
        except PackageError as exc:  # an installed package that does not load
            said = f"(cannot be loaded: {exc})"
        lines += textwrap.wrap(said, 88, initial_indent=f"  {name:9s} ", subsequent_indent=" " * 12)
    return "\n".join(lines) + "\n"


def positive_count(text: str) -> int:
    """A budget that counts (nodes): a whole number, 1 or more; 0 or less is refused, as
    a budget that stops before the first node is a mistake, not a request."""
    return _at_least_one(text)


def positive_seconds(text: str) -> float:
    """A budget in seconds: a finite number above 0."""
    import math

    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0, got '{text}'")
    return value


_UNITS = {"": 1.0, "k": 1e-3, "kb": 1e-3, "m": 1.0, "mb": 1.0, "g": 1e3, "gb": 1e3, "t": 1e6}


def memory_size(text: str) -> float:
    """A memory budget in MB: ``1500`` (megabytes), ``512M``, ``2G``, ``1.5GB``; above 0."""
    import math
    import re

    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:e[0-9]+)?)\s*([a-z]*)\s*", text.lower())
    value = math.nan
    if match and match.group(2) in _UNITS:
        value = float(match.group(1)) * _UNITS[match.group(2)]
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(
            f"expected a memory size above 0 in MB or with a unit (512M, 2G), got '{text}'"
        )
    return value


def _at_least_one(text: str) -> int:
    """An argument that counts steps: a whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got '{text}'")
    return value


class _ProgressLine:
    """The search's progress on one terminal line (nodes, depth, elapsed), redrawn at most
    four times a second and erased when the run ends; for a person watching, so only when
    stderr is a terminal."""

    def __init__(self) -> None:
        self.shown = False
        self.next = 0.0

    def __call__(self, p: Any) -> None:
        import time

        now = time.monotonic()
        if now < self.next:
            return
        self.next = now + 0.25
        line = f"searching: {p.nodes:,} nodes, depth {p.depth}, {p.elapsed:.1f} s"
        print(f"\r{line}\033[K", end="", file=sys.stderr, flush=True)
        self.shown = True

    def erase(self) -> None:
        if self.shown:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
            self.shown = False


def _process_started() -> float:
    """When this process started, on the ``time.perf_counter()`` clock: a time budget is
    the user's wall clock, so the interpreter's start-up counts too.  Linux reads it from
    ``/proc``; elsewhere (or if that fails) it is now, the command's own start."""
    import os
    import time

    now = time.perf_counter()
    try:
        with open("/proc/self/stat", "rb") as f:
            stat = f.read()
        ticks = int(stat[stat.rindex(b")") + 2 :].split()[19])  # field 22: starttime
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return now
    return now - age if 0 <= age < 60 else now


def _cmd_plan(args: argparse.Namespace, extra: Sequence[str] = ()) -> int:
    """``workbench plan PACKAGE PROBLEM [the package's own arguments]``: one request,
    planned by :func:`knowledge.pipeline.run_plan` as the workbench and ``kb test`` plan
    it.  A setting the package cannot honour is refused in one line (exit 1)."""
    import signal

    from engine.tofs import CancelToken
    from knowledge import (
        EXIT_BAD_INPUT,
        EXIT_INTERRUPTED,
        BadInput,
        PackageError,
        PlanRequest,
        get_package,
    )
    from knowledge.pipeline import plan_report

    started = _process_started()
    try:
        pkg = get_package(args.package)
    except PackageError as exc:
        return _fail(str(exc), EXIT_BAD_INPUT)
    own = _Parser(prog="workbench plan", add_help=False)
    pkg.add_plan_arguments(own)
    own_args, unknown = own.parse_known_args(list(extra))
    if unknown:  # a usage error, like argparse's own: exit 1, one line
        takes = ", ".join(
            a.option_strings[0] if a.option_strings else str(a.metavar or a.dest)
            for a in own._actions
        )
        own.error(
            f"package '{pkg.name}' takes no argument {unknown[0]!r}"
            + (f" (its own: {takes})" if takes else " (it plans named problems, not files)")
        )
    options = pkg.plan_options(own_args)
    cancel = CancelToken()
    line = _ProgressLine() if sys.stderr.isatty() else None
    request = PlanRequest(
        problem=args.problem,
        mode=args.mode,
        full_tree=args.full_tree,
        prune=not args.no_prune,
        node_budget=args.node_budget,
        time_budget=args.time_budget,
        memory_budget=args.memory_budget,
        started=started,
        cancel=cancel,
        progress=line,
        criterion=args.criterion,
        alpha=args.alpha,
        force=_force(args.why_not) or None,
        explain=args.explain,
        tree=args.tree,
        repair=args.repair,
        json=args.json,
        output=pkg.output_name(options),
        deepening=args.deepening,
        options=options,
    )
    if not args.bundled:
        try:
            key = pkg.stored_problem(request)
        except PackageError as exc:
            return _fail(str(exc), EXIT_BAD_INPUT)
        if key is not None:  # only then the store (files need none of it)
            from dataclasses import replace

            from workbench.kb import StoreError
            from workbench.kb.catalog import stored_knowledge

            try:
                spec, text = stored_knowledge(args.db, *key)
            except (StoreError, PackageError) as exc:
                return _fail(str(exc), EXIT_BAD_INPUT)
            request = replace(request, spec=spec, problem_text=text)

    def interrupt(signum: int, frame: Any) -> None:
        # The first ctrl+c stops the search like a budget, keeping what it found (while
        # the files are read, the search stops at its first node); a second stops at once.
        if cancel.cancelled:
            raise KeyboardInterrupt
        cancel.interrupt()

    try:
        previous: Any = signal.signal(signal.SIGINT, interrupt)
    except ValueError:  # not the main thread (an embedding): ctrl+c is not ours to take
        previous = None
    try:
        report = plan_report(pkg, request)
    except BadInput as exc:
        if line is not None:
            line.erase()
        return _fail(str(exc), EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        if line is not None:
            line.erase()
        print("workbench: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    if line is not None:
        line.erase()
    print(report.text)
    if report.status == EXIT_INTERRUPTED:
        print("workbench: interrupted", file=sys.stderr)
    return report.status


def _cmd_list(args: argparse.Namespace) -> int:
    """Packages and their problems: the shipped ones and those saved in the store."""
    import json

    from knowledge import get_package, package_names
    from workbench.kb import StoreError
    from workbench.kb.catalog import open_store

    try:
        store = open_store(args.db)
    except StoreError as exc:
        return _fail(str(exc))
    listing: list[dict[str, Any]] = []
    try:
        for name in package_names():
            pkg = get_package(name)
            problems = {p: pkg.problem_descriptions.get(p, "") for p in pkg.problems}
            for domain in pkg.sources:
                if store.has_domain(domain):
                    problems.update(
                        {r["name"]: r["description"] or "" for r in store.problems(domain)}
                    )
            entries: list[dict[str, str]] = [
                {"name": p, "description": problems[p]} for p in sorted(problems)
            ]
            if pkg.plans_imported_domains:
                # Domains imported into the store (hddl): a problem is planned by its
                # domain's name and its own, ``workbench plan hddl DOMAIN PROBLEM``.
                entries += [
                    {"domain": d.name, "name": r["name"], "description": r["description"] or ""}
                    for d in store.domains()
                    if d.package == name
                    for r in store.problems(d.name)
                ]
            listing.append({"package": name, "description": pkg.description, "problems": entries})
    finally:
        store.close()
    if args.json:
        print(json.dumps(listing, indent=2, ensure_ascii=False))
        return 0
    for entry in listing:
        print(f"{entry['package']}: {entry['description']}")
        for prob in entry["problems"]:
            shown = " ".join(filter(None, (prob.get("domain"), prob["name"])))
            print(f"  {shown:12s} {prob['description']}")
    return 0


def run() -> NoReturn:
    """The ``workbench`` command (``python -m workbench``): :func:`main`, then exit.

    After ``plan`` the process ends without tearing its objects down one by one: a search
    leaves millions of them, and freeing them took longer than some plans took to find
    (0.4 s of 3.9 s on Monroe-PO pfile01).  Everything it had to say is printed and
    flushed by then, and it holds no file or store open.  Other commands (the app, the
    store, batches with their workers) exit as usual."""
    status = main()
    if _PLANNED:
        sys.stdout.flush()
        sys.stderr.flush()
        import os

        os._exit(status)
    raise SystemExit(status)


_PLANNED: list[bool] = []
"""Set once ``plan`` has finished, for :func:`run`."""


def main(argv: Sequence[str] | None = None) -> int:
    try:
        status = _main(argv)
        sys.stdout.flush()  # here, not at exit, where a broken pipe could not be caught
        return status
    except BrokenPipeError:
        # The reader went away (`workbench kb list dinner | head -8`): not an error of
        # ours, so quiet and exit 0 as other Unix tools.  Point stdout at nothing so that
        # the interpreter's final flush cannot fail again.
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _main(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    # ``plan``'s unknown arguments are the package's own (HDDL's problem file, --ipc): its
    # parser reads them; any other command has none.
    args, extra = parser.parse_known_args(argv)
    if extra and args.command != "plan":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.version:
        from importlib.metadata import version

        print(f"workbench {version('tofs-workbench')}")
        return 0
    if args.command == "plan":
        status = _cmd_plan(args, extra)
        _PLANNED.append(True)
        return status
    if args.command == "list":
        return _cmd_list(args)
    from workbench.domains import domain_uis

    for ui in domain_uis():
        if ui.commands is not None and args.command in ui.commands.names:
            return ui.commands.run(args)
    if args.command == "kb":
        from workbench.kb.commands import run_kb

        return run_kb(args)
    if args.serve:
        from workbench.serve import DEFAULT_MAX_SESSIONS, serve

        sessions = args.max_sessions or DEFAULT_MAX_SESSIONS
        return serve(args.host, args.port, args.db, args.exports, max_sessions=sessions)
    from workbench.app import run_app

    return run_app(args.db, args.exports)
