"""Knowledge packages, one per domain.  Each registers itself here.

A package exposes a :class:`KnowledgePackage`: its domains (spec + registry), its named
problems, optionally a loader for problem files (EDAPS designs, PBN deals), and the
languages of its own its domains may be written in (:class:`DomainFormat`: HDDL), which
``workbench kb`` imports, exports, validates and lints without knowing any of them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

# The engine (and pydantic under it) loads when a package is used, not when this module is
# imported: ``workbench --version`` and the exit statuses need none of it.
if TYPE_CHECKING:
    from engine.tofs import Domain, DomainSpec, Problem, Registry

__all__ = [
    "DomainFormat",
    "ImportedProblem",
    "InputStopped",
    "KnowledgePackage",
    "PackageError",
    "PlanReport",
    "PlanRequest",
    "ProblemAnalysis",
    "budget_options",
    "default_memory_budget",
    "domain_formats",
    "exit_status",
    "format_of",
    "get_package",
    "package_names",
    "read_within_budgets",
]

# Name -> module; a package is imported only when asked for.
_PACKAGES = {
    "examples": "knowledge.examples",
    "edaps": "knowledge.edaps",
    "bridge": "knowledge.bridge",
    "hddl": "knowledge.hddl.package",
}

# Exit statuses of a planning command, shared by every package.
EXIT_PLAN = 0
EXIT_BAD_INPUT = 1
EXIT_NO_PLAN = 2  # the whole tree was searched: no plan exists
EXIT_GAVE_UP = 3  # a budget stopped the search before any plan: nothing is known
EXIT_INTERRUPTED = 130  # ctrl+c stopped the search (the shell's 128 + SIGINT)
# A batch command (a match, a knowledge-test run) some of whose jobs raised: the rest ran and
# were reported, but the figures are incomplete.
EXIT_JOBS_FAILED = 4


def exit_status(result: Any) -> int:
    """A run's exit status: 0 a plan (proven best or not), 2 none exists, 3 gave up, 130
    interrupted (ctrl+c), whatever it had found by then."""
    from engine.tofs import Outcome, Status

    if result.status is Status.INTERRUPTED:
        return EXIT_INTERRUPTED

    return {
        Outcome.PLAN: EXIT_PLAN,
        Outcome.PLAN_UNPROVEN: EXIT_PLAN,
        Outcome.NO_PLAN: EXIT_NO_PLAN,
        Outcome.GAVE_UP: EXIT_GAVE_UP,
    }[result.outcome]


class PackageError(LookupError):
    """An unknown package or problem name; the message lists what exists."""


@dataclass(frozen=True)
class PlanRequest:
    """What the user asked to plan, independent of how they asked (CLI or workbench)."""

    problem: str
    mode: str | None = None
    full_tree: bool = False
    prune: bool = True
    node_budget: int | None = None
    time_budget: float | None = None
    memory_budget: float | None = None
    """Stop when the process's resident memory passes this many MB."""
    started: float | None = None
    """When the time budget started counting (``time.perf_counter()``; default: when the
    search starts): the CLI counts reading the files too."""
    cancel: Any = None
    """An ``engine.tofs.CancelToken``: ctrl+c interrupts the search through it."""
    progress: Any = None
    """Called with ``engine.tofs.Progress`` as the search goes (the terminal's line)."""
    criterion: str = "weighted-average"
    alpha: float = 0.5
    force: dict[str, str] | None = None
    """``--why-not``: {task: alternative}, taken at the first such choice point on the plan."""
    explain: bool | str = False
    """``--explain``: False, True or "reader" (the reader's view), "full" (the audit)."""
    tree: bool = False
    """``--tree``: print a game's decision tree."""
    json: bool = False
    # Problems given as files beyond ``problem`` (HDDL: ``problem`` is the domain file and
    # this holds the problem file), and the IPC plan format instead of text.
    files: tuple[str, ...] = ()
    ipc: bool = False
    # First-plan mode: iterative deepening from this depth (``SearchOptions.deepening``).
    deepening: int | None = None
    # From the knowledge store: the domain as edited, and the problem's stored text.
    spec: DomainSpec | None = None
    problem_text: str | None = None


@dataclass(frozen=True)
class ProblemAnalysis:
    """A domain's own reading of a problem, beside the planner's (bridge: declarer's
    analysis after Lo 1987): shown first by ``plan --explain`` -- it is what a domain
    expert reads first -- and under ``analysis`` in ``plan --json``."""

    lines: tuple[str, ...]
    data: dict[str, Any]


@dataclass(frozen=True)
class PlanReport:
    """What to show and the exit status (0 plan, 1 unreadable input, 2 no plan)."""

    text: str
    status: int
    data: dict[str, Any] | None = None


class ImportedProblem(NamedTuple):
    """A problem read with a domain in a package's format, as the store takes it."""

    file: str
    """The file it was read from, as given."""
    name: str
    """What it is stored (and planned) under."""
    kind: str
    text: str
    """Its text as the store keeps it (in the format: ``kb export --format`` writes it)."""
    description: str


@dataclass(frozen=True)
class DomainFormat:
    """A language of a package's own that some of its domains are written in (HDDL).

    Such a domain is stored as an ordinary spec whose ``extra[extra_key]`` holds its text in
    this language -- the source of truth -- and whose tasks, methods and operators are a
    view derived from that text (for ``kb list``, the editor's tree and ``kb lint``).  The
    generic ``workbench kb`` commands find a format through :func:`domain_formats` and
    :func:`format_of` and know nothing of any one:

    * ``kb import FILE [PROBLEM ...]`` imports a file that some format ``reads`` with
      ``read``, into the format's package, in one revision with its problems;
    * ``kb export DOMAIN --format NAME [--problem P]`` writes a domain holding this format's
      text with ``write``, and a stored problem of ``problem_kind`` as its stored text;
    * the store's validator refuses an edit of a domain holding the text when ``check``
      finds anything (in place of compiling the view, which planning does not use);
    * ``kb lint`` reads the view's calls with ``call_name``, reports ``check``'s findings as
      its ``compile`` rule and skips the rules in ``lint_skips``.
    """

    name: str
    """The ``kb export --format`` name (``hddl``)."""
    title: str
    """The language as messages name it ("an HDDL domain", "no HDDL problem")."""
    extra_key: str
    """The key of ``spec.extra`` holding a domain's text: a spec with it is in this format."""
    problem_kind: str
    """The kind its problems are stored under, their stored text being in this format."""
    reads: Callable[[Path, str], bool]
    """Whether a file (its path and text) is a domain in this format, by name or content."""
    read: Callable[[Path, str, Sequence[str]], tuple[DomainSpec, list[ImportedProblem]]]
    """A domain file (path, text without a byte-order mark) and its problem files, as the
    store takes them: the spec has no knowledge tests (a re-import keeps the store's).
    Raises a ``ValueError`` whose message says file, line and column of every mistake, and
    ``OSError`` for a problem file it cannot read; nothing is imported then."""
    write: Callable[[DomainSpec], str]
    """The text of a spec holding this format's text (``ValueError`` if it is damaged)."""
    check: Callable[[DomainSpec], list[str]]
    """Every reason a spec holding the text is not what its text says (empty: none)."""
    call_name: Callable[[str], str | None]
    """The task or operator a call of the view (a subtask, an operator call) names, or None
    when it is no call; for ``kb lint``."""
    lint_skips: frozenset[str] = frozenset()
    """``kb lint`` rules that do not apply to domains in this format (by rule name)."""
    rename: (
        Callable[[DomainSpec, list[ImportedProblem], str], tuple[DomainSpec, list[ImportedProblem]]]
        | None
    ) = None
    """The domain and its problems as ``read`` gave them, under another domain name (the
    name is in the text, so the text changes too), for ``kb import --as NAME``; None when
    the format cannot rename.  Raises ``ValueError`` for a name it cannot take."""


@dataclass
class KnowledgePackage:
    name: str
    description: str
    sources: dict[str, Path]
    registries: dict[str, Registry]
    problems: dict[str, Callable[[Domain], Problem]]
    problem_domain: dict[str, str]
    problem_descriptions: dict[str, str] = field(default_factory=dict)
    # Problems that are files (EDAPS designs): the store keeps their text, and
    # ``problem_loader(domain, name, text)`` turns stored text back into a problem.
    problem_files: dict[str, Path] = field(default_factory=dict)
    problem_kind: str = "builtin"
    problem_loader: Callable[[Domain, str, str], Problem] | None = None
    # A package with its own input files and output format plans through this instead of
    # the generic report below.
    planner: Callable[[KnowledgePackage, PlanRequest], PlanReport] | None = None
    # Which stored domain and problem a request names, or None when it plans files given
    # on the command line (default: the problem's domain and the problem; see
    # ``stored_problem``).
    store_key: Callable[[PlanRequest], tuple[str, str] | None] | None = None
    # What a knowledge test can check about a run (see ``generic_facts``).
    facts: Callable[[KnowledgePackage, PlanRequest], dict[str, Any]] | None = None
    # How explanations say this domain's numbers and moves (engine.tofs.explanation).
    phrasing: Callable[[Domain], Any] | None = None
    # What the domain finds beyond a run's choice points, in its own words, for the
    # explanation's reader's view (EDAPS: each feature that cannot be made and what to
    # change): (domain, problem, run) -> sentences.
    findings: Callable[[Domain, Problem, Any], list[str]] | None = None
    # Languages of its own its domains may be written in, besides KB source files.
    formats: tuple[DomainFormat, ...] = ()
    # The domain's own analysis of a problem and the run on it (domain, problem, result),
    # shown before the explanation and under "analysis" in --json.
    analysis: Callable[[Domain, Problem, Any], ProblemAnalysis | None] | None = None
    _compiled: dict[str, Domain] = field(default_factory=dict)

    def spec(self, domain: str) -> DomainSpec:
        from engine.tofs import load_domain_file

        return load_domain_file(self.sources[domain])

    def domain(self, domain: str, spec: DomainSpec | None = None) -> Domain:
        from engine.tofs import compile_domain

        """The compiled domain (from its KB source file unless ``spec`` is given)."""
        if spec is not None:
            return compile_domain(spec, self.registries[domain])
        if domain not in self._compiled:
            self._compiled[domain] = compile_domain(self.spec(domain), self.registries[domain])
        return self._compiled[domain]

    @property
    def reads_stored_problems(self) -> bool:
        """Problems saved in the store (their text) can be planned, not only the package's."""
        return self.problem_loader is not None

    def problem(
        self, name: str, spec: DomainSpec | None = None, text: str | None = None
    ) -> tuple[Domain, Problem]:
        """A problem by name: from its stored ``text`` when given, else from the package."""
        if text is not None and self.problem_loader is not None:
            domain = self.domain(self.domain_of(name), spec)
            return domain, self.problem_loader(domain, name, text)
        if name not in self.problems:
            raise PackageError(
                f"package '{self.name}' has no problem '{name}'; "
                f"problems: {', '.join(sorted(self.problems))}"
            )
        domain = self.domain(self.problem_domain[name], spec)
        return domain, self.problems[name](domain)

    def domain_of(self, problem: str) -> str:
        """The domain a problem belongs to (a package with one domain owns every file)."""
        if problem in self.problem_domain:
            return self.problem_domain[problem]
        if len(self.sources) == 1:
            return next(iter(self.sources))
        raise PackageError(
            f"package '{self.name}' has no problem '{problem}'; "
            f"problems: {', '.join(sorted(self.problems))}"
        )

    def stored_problem(self, request: PlanRequest) -> tuple[str, str] | None:
        """(domain, problem) to read from the knowledge store for ``request``, or None when
        it plans files instead; raises :class:`PackageError` for an unknown problem."""
        if self.store_key is not None:
            return self.store_key(request)
        return self.domain_of(request.problem), request.problem

    def explain(
        self, result: Any, domain: Domain, problem: Problem, options: Any, max_replans: int = 32
    ) -> Any:
        """The run explained in this domain's words, with its tuned thresholds; optimise
        runs re-plan lower-valued alternatives to find their relevant issues."""
        return explain_run(
            result,
            domain,
            problem,
            options,
            self.phrasing(domain) if self.phrasing else None,
            max_replans,
            self.findings(domain, problem, result) if self.findings else (),
        )

    def run_facts(self, request: PlanRequest) -> dict[str, Any]:
        """The facts a knowledge test checks, for one problem."""
        if self.facts is not None:
            return self.facts(self, request)
        return generic_facts(self, request)

    def plan(self, request: PlanRequest) -> PlanReport:
        """Plan ``request`` and render it; bad input is a report, never a traceback."""
        if self.planner is not None:
            return self.planner(self, request)
        return generic_plan(self, request)


def default_memory_budget() -> float | None:
    """Half of the machine's physical memory, in MB (None where it cannot be read): the
    memory budget of a run that sets none (``plan --memory-budget``, the workbench's run
    options).  A run that wants more stops with what it found while the machine -- and
    whatever else runs on it -- still answers."""
    import os

    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    return total / 2 / 1e6 if total > 0 else None


def budget_options(request: PlanRequest) -> dict[str, Any]:
    """The ``SearchOptions`` fields a request's budgets, cancel token and progress set:
    every package passes these on, so a budget flag means the same everywhere."""
    return {
        "node_budget": request.node_budget,
        "time_budget": request.time_budget,
        "memory_budget": request.memory_budget,
        "started": request.started,
        "cancel": request.cancel,
        "progress": request.progress,
    }


_T = TypeVar("_T")


class InputStopped(Exception):
    """A budget ran out, or ctrl+c came, while a run's input was still being read: nothing
    was planned.  Each package turns it into its report with :meth:`report`."""

    def __init__(self, status: Any, request: PlanRequest) -> None:
        from engine.tofs import Status

        self.status = status
        if status is Status.TIME_BUDGET:
            limit = f"the time budget of {request.time_budget:g} s"
        elif status is Status.MEMORY_BUDGET:
            limit = f"the memory budget of {request.memory_budget:,.0f} MB"
        else:
            limit = "interrupting the run" if status is Status.INTERRUPTED else "cancelling"
        self.text = f"gave up at {limit} while reading the input (nothing was planned)"
        super().__init__(self.text)

    @property
    def exit_status(self) -> int:
        from engine.tofs import Status

        return EXIT_INTERRUPTED if self.status is Status.INTERRUPTED else EXIT_GAVE_UP

    def report(self, request: PlanRequest) -> PlanReport:
        import json

        if request.json:
            data = {"outcome": "gave up", "status": str(self.status), "said": self.text}
            return PlanReport(json.dumps(data, indent=2), self.exit_status, data)
        return PlanReport(self.text, self.exit_status)


def read_within_budgets(request: PlanRequest, read: Callable[[], _T]) -> _T:
    """``read()`` -- a package reading and compiling a run's input -- under the request's
    budgets: a reader's :func:`engine.tofs.search.checkpoint` stops it at the time or
    memory budget, or at ctrl+c, as :class:`InputStopped`."""
    from engine.tofs import SearchOptions
    from engine.tofs.search import SearchStopped, watching

    with watching(SearchOptions(**budget_options(request))) as watch:
        try:
            return read()
        except SearchStopped:
            raise InputStopped(watch.stop, request) from None


def search_options(request: PlanRequest, problem: Problem) -> Any:
    from engine.tofs import SearchOptions, criterion

    return SearchOptions(
        **{
            **problem.options,
            "mode": request.mode or problem.mode,
            "full_tree": request.full_tree,
            "partial_plan_prune": request.prune and problem.options.get("partial_plan_prune", True),
            **budget_options(request),
            "criterion": criterion(request.criterion, request.alpha),
            **({"deepening": request.deepening} if request.deepening is not None else {}),
        }
    )


def explain_run(
    result: Any,
    domain: Domain,
    problem: Problem,
    options: Any,
    phrasing: Any = None,
    max_replans: int = 32,
    findings: Sequence[str] = (),
) -> Any:
    """:func:`engine.tofs.explanation.explain` for a run of ``problem``, with the domain's
    thresholds and a re-planner bound to the run (quietly: no progress, no trace), and the
    domain's ``findings`` for its reader's view."""
    from dataclasses import replace

    from engine.tofs.explanation import explain
    from engine.tofs.magnitude import Thresholds
    from engine.tofs.why_not import Anchor, replan_at

    # Explaining may cost about as much search as the run did, never more: the re-plans
    # share one node budget (a re-plan that runs out gets numbers but no issues).
    left = [max(result.nodes, 20_000)]

    def replan(cp: Any, alt: Any) -> Any:
        quiet = replace(options, progress=None, trace=None, node_budget=max(left[0], 1))
        forced = replan_at(domain, problem, quiet, Anchor.of(result, cp), alt.label)
        left[0] -= forced.nodes
        return forced

    return explain(
        result,
        phrasing=phrasing,
        thresholds=Thresholds.from_constants(domain.constants),
        replan=replan,
        max_replans=max_replans,
        findings=findings,
    )


def result_facts(result: Any) -> dict[str, Any]:
    """Facts every run has: found, value, status, nodes, and the chosen alternatives."""
    return {
        "found": result.found,
        "value": result.value,
        "status": str(result.status),
        "nodes": result.nodes,
        "chosen": {cp.task: cp.chosen.label for cp in result.choice_points if cp.chosen},
    }


def generic_facts(pkg: KnowledgePackage, request: PlanRequest) -> dict[str, Any]:
    from engine.tofs import plan
    from engine.tofs.why_not import plan_why_not

    domain, problem = pkg.problem(request.problem, request.spec, request.problem_text)
    options = search_options(request, problem)
    return result_facts(
        plan_why_not(domain, problem, options, request.force)
        if request.force
        else plan(domain, problem, options)
    )


def generic_plan(pkg: KnowledgePackage, request: PlanRequest) -> PlanReport:
    """Plan a named problem and render the plan with the engine's plain-text explainer."""
    import json

    from engine.tofs import DomainError, EvaluationError, SourceError, plan
    from engine.tofs.render import render_text

    try:
        domain, problem = pkg.problem(request.problem, request.spec, request.problem_text)
        options = search_options(request, problem)
        why_not_said: list[str] = []
        if request.force:
            result, why_not_said = why_not(
                domain,
                problem,
                options,
                request.force,
                pkg.phrasing(domain) if pkg.phrasing else None,
            )
        else:
            result = plan(domain, problem, options)
    except (PackageError, SourceError, DomainError, EvaluationError, ValueError) as exc:
        return PlanReport(f"error: {exc}", EXIT_BAD_INPUT)
    status = exit_status(result)
    explanation = (
        pkg.explain(result, domain, problem, options)
        if request.explain and not request.force
        else None
    )
    analysis = pkg.analysis(domain, problem, result) if pkg.analysis is not None else None
    if request.json:
        from engine.tofs.render import explanation_dict

        data: dict[str, Any] = result.to_dict()
        if analysis is not None:
            data["analysis"] = analysis.data
        if explanation is not None:
            data["explanation"] = explanation_dict(explanation)
        if not request.explain:
            data["choice_points"] = [
                {
                    "task": c["task"],
                    "alternatives": [
                        {k: a[k] for k in ("label", "value", "reason", "chosen")}
                        for a in c["alternatives"]
                    ],
                }
                for c in data["choice_points"]
            ]
        return PlanReport(json.dumps(data, indent=2, ensure_ascii=False), status, data)
    text = render_text(result, explain=request.explain, explanation=explanation, tree=request.tree)
    if request.explain and analysis is not None:
        text = "\n".join(analysis.lines) + "\n\n" + text
    if why_not_said:
        text += "\n\n" + "\n".join(why_not_said)
    return PlanReport(text, status)


def why_not(
    domain: Domain, problem: Problem, options: Any, force: dict[str, str], phrasing: Any = None
) -> tuple[Any, list[str]]:
    """``--why-not``: the forced run (:func:`engine.tofs.explain.plan_why_not`) and, for
    each forced alternative, the chosen plan against the plan through it -- where they
    part and the difference by its relevant issues.  The chosen plan is searched once,
    and a single forced alternative's re-plan serves both."""
    from engine.tofs import plan
    from engine.tofs.contrast import compare
    from engine.tofs.magnitude import Thresholds
    from engine.tofs.render import contrast_text
    from engine.tofs.why_not import Anchor, find_choice, plan_why_not, replan_at

    base = plan(domain, problem, options)
    result = plan_why_not(domain, problem, options, force, base=base)
    thresholds = Thresholds.from_constants(domain.constants)
    lines: list[str] = []
    for task, alternative in force.items():
        found = find_choice(base, task, alternative)
        if found is None:
            continue
        choice, label = found
        forced = (
            result
            if len(force) == 1
            else replan_at(domain, problem, options, Anchor.of(base, choice), label)
        )
        record = next(a for a in choice.alternatives if a.label == label)
        lines += contrast_text(
            compare(base, forced, choice, record, thresholds, phrasing), phrasing
        )
    return result, lines


def package_names() -> list[str]:
    return sorted(_PACKAGES)


def get_package(name: str) -> KnowledgePackage:
    if name not in _PACKAGES:
        raise PackageError(f"no knowledge package '{name}'; packages: {', '.join(package_names())}")
    module = importlib.import_module(_PACKAGES[name])
    pkg: Any = module.package()
    return pkg


@cache
def domain_formats() -> tuple[tuple[str, DomainFormat], ...]:
    """(package name, format) of every package's :class:`DomainFormat`, by package name.

    Imports every package (once): ask only when a format is needed."""
    return tuple((name, fmt) for name in package_names() for fmt in get_package(name).formats)


def format_of(spec: DomainSpec) -> tuple[str, DomainFormat] | None:
    """(package name, format) of the format whose text ``spec`` holds, or None for a domain
    written in the expression language (a KB source file)."""
    return next(((p, f) for p, f in domain_formats() if f.extra_key in spec.extra), None)
