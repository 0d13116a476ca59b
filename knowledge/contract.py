"""The package contract: what a knowledge package is, as one typed base class.

A package subclasses :class:`KnowledgePackage` (after python-chess's ``chess.variant``: a
base class whose hooks default to "no effect") and overrides only what its domain needs:

* **reading** a problem -- by name (``problems``), from the store's text
  (:meth:`~KnowledgePackage.problem_from_text`), or from its own input files
  (:meth:`~KnowledgePackage.read`);
* **words** -- :meth:`~KnowledgePackage.phrasing`, :meth:`~KnowledgePackage.findings`,
  :meth:`~KnowledgePackage.analysis` -- and **facts** a knowledge test checks;
* **flags** it adds to ``workbench plan`` (:meth:`~KnowledgePackage.add_plan_arguments`, like
  a Harlequin adapter's options), the **generic settings it refuses** and why
  (:attr:`~KnowledgePackage.refused_modes`, :meth:`~KnowledgePackage.refusal`);
* **outputs**: its text and JSON, and formats of its own
  (:meth:`~KnowledgePackage.output_formats`: HDDL's IPC plan text).

Planning itself is not a hook: :func:`knowledge.pipeline.run_plan` plans every package's
requests the same way, so a setting means the same everywhere.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .request import PlanRequest

if TYPE_CHECKING:
    from engine.tofs import (
        AlternativeRecord,
        ChoicePoint,
        Domain,
        DomainSpec,
        Problem,
        Registry,
        RunResult,
    )
    from engine.tofs.explanation import Phrasing

    from .pipeline import PlanOutcome, PlanReport

__all__ = [
    "DomainFormat",
    "ImportedProblem",
    "KnowledgePackage",
    "PackageError",
    "ProblemAnalysis",
    "Read",
]


class PackageError(LookupError):
    """An unknown package or problem name; the message lists what exists."""


@dataclass(frozen=True)
class ProblemAnalysis:
    """A domain's own reading of a problem, beside the planner's (bridge: declarer's
    analysis after Lo 1987): shown first by ``plan --explain`` -- it is what a domain
    expert reads first -- and under ``analysis`` in ``plan --json``."""

    lines: tuple[str, ...]
    data: dict[str, Any]


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
    generic ``workbench kb`` commands find a format through
    :func:`knowledge.registry.domain_formats` and :func:`knowledge.registry.format_of` and
    know nothing of any one:

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
    lint: Callable[[DomainSpec, Sequence[str]], list[tuple[str, str, str, str]]] | None = None
    """The format's own static findings for ``kb lint`` (HDDL: what relaxed reachability
    says can never hold or never apply), given the texts of the domain's stored problems:
    (kind -- ``domain`` for a predicate, ``task``, ``method`` --, name, field -- the file
    line --, message).  None: it has none."""
    rename: (
        Callable[[DomainSpec, list[ImportedProblem], str], tuple[DomainSpec, list[ImportedProblem]]]
        | None
    ) = None
    """The domain and its problems as ``read`` gave them, under another domain name (the
    name is in the text, so the text changes too), for ``kb import --as NAME``; None when
    the format cannot rename.  Raises ``ValueError`` for a name it cannot take."""


class Read(NamedTuple):
    """A request's input, read and compiled: what the engine plans, and the package's own
    reading of it (an EDAPS design, HDDL's models) for its outputs."""

    domain: Domain
    problem: Problem
    own: Any = None


class KnowledgePackage:
    """A knowledge package: its domains (KB source file + registry of primitives), its
    named problems, and the hooks a domain needs -- each defaulting to "no effect".

    A subclass sets the data in ``__init__`` (after ``super().__init__()``) and overrides
    the hooks it needs; the registry (:mod:`knowledge.registry`) finds it by ``name``.
    """

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    problem_kind: ClassVar[str] = "builtin"
    """The kind the store keeps its problems under (``builtin``: only their names)."""
    formats: ClassVar[tuple[DomainFormat, ...]] = ()
    """Languages of its own its domains may be written in, besides KB source files."""
    reads_stored_problems: ClassVar[bool] = False
    """Problems saved in the store (their text) can be planned, not only the package's:
    set by a package that overrides :meth:`problem_from_text`."""
    plans_imported_domains: ClassVar[bool] = False
    """Its domains are imported into the store, any number of them (HDDL): a problem is
    named by its domain and its own name, and ``workbench list`` lists them so."""
    refused_modes: ClassVar[Mapping[str, str]] = {}
    """Search modes its problems cannot be planned in, each with the reason said when
    ``--mode`` asks for it (HDDL: ``{"game": "HDDL problems have no opponents"}``)."""
    compares_actions: ClassVar[bool] = False
    """``--why-not`` answers side by side by the actions (the two choices, the steps added
    and removed, or where the forced choice fails) rather than by weighing the plans'
    issues: set by a package whose plans are lists of actions (HDDL), whose costs, if
    any, are only their number."""
    proposes_repairs: ClassVar[bool] = False
    """``plan --repair`` is honoured: :meth:`repairs` proposes edits of the domain (HDDL);
    elsewhere the flag is refused with the reason."""
    input_errors: ClassVar[tuple[type[Exception], ...]] = ()
    """Exceptions its readers raise for bad input (beyond ``ValueError`` and the engine's):
    the pipeline reports them in one line, exit status 1."""

    def __init__(self) -> None:
        self.sources: dict[str, Path] = {}
        """Domain name -> its KB source file."""
        self.registries: dict[str, Registry] = {}
        """Domain name -> the primitives its source file names."""
        self.problems: dict[str, Callable[[Domain], Problem]] = {}
        """Named problems: name -> builder from the compiled domain."""
        self.problem_domain: dict[str, str] = {}
        self.problem_descriptions: dict[str, str] = {}
        self.problem_files: dict[str, Path] = {}
        """Problems that are files (EDAPS designs): the store keeps their text."""
        self._compiled: dict[str, Domain] = {}

    # ------------------------------------------------------------------ domains and problems

    def spec(self, domain: str) -> DomainSpec:
        from engine.tofs import load_domain_file

        return load_domain_file(self.sources[domain])

    def domain(self, domain: str, spec: DomainSpec | None = None) -> Domain:
        """The compiled domain (from its KB source file unless ``spec`` is given)."""
        from engine.tofs import compile_domain

        if spec is not None:
            return compile_domain(spec, self.registries[domain])
        if domain not in self._compiled:
            self._compiled[domain] = compile_domain(self.spec(domain), self.registries[domain])
        return self._compiled[domain]

    def problem_from_text(self, domain: Domain, name: str, text: str) -> Problem:
        """A problem from its text as the store keeps it (a package that can read one sets
        :attr:`reads_stored_problems`)."""
        raise PackageError(f"package '{self.name}' cannot read a stored problem ('{name}')")

    def problem(
        self, name: str, spec: DomainSpec | None = None, text: str | None = None
    ) -> tuple[Domain, Problem]:
        """A problem by name: from its stored ``text`` when given, else from the package."""
        if text is not None and self.reads_stored_problems:
            domain = self.domain(self.domain_of(name), spec)
            return domain, self.problem_from_text(domain, name, text)
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
        return self.domain_of(request.problem), request.problem

    def read(self, request: PlanRequest) -> Read:
        """The request's problem, read and compiled (called under the request's budgets).
        Raise :class:`~knowledge.request.BadInput` (or a ``ValueError``, or one of
        :attr:`input_errors`) for input that cannot be planned."""
        domain, problem = self.problem(request.problem, request.spec, request.problem_text)
        return Read(domain, problem)

    # ------------------------------------------------------------------ plan flags

    def add_plan_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the package's own flags and positionals to ``workbench plan PACKAGE``
        (parsed after the generic ones; :meth:`plan_options` reads them back)."""

    def plan_options(self, args: argparse.Namespace) -> dict[str, Any]:
        """The request's ``options`` from the flags :meth:`add_plan_arguments` added."""
        return {}

    def output_name(self, options: Mapping[str, Any]) -> str | None:
        """Which of :meth:`output_formats` the package's own flags ask for (None: text or
        JSON)."""
        return None

    def refusal(self, request: PlanRequest, read: Read) -> str | None:
        """Why the package cannot honour a setting of ``request`` for this problem, in one
        line -- or None.  (The generic refusals -- a game criterion outside game mode,
        deepening outside first-plan mode, :attr:`refused_modes` -- are the pipeline's.)"""
        return None

    # ------------------------------------------------------------------ words and facts

    def phrasing(self, domain: Domain) -> Phrasing | None:
        """How explanations say this domain's numbers and moves (None: the engine's)."""
        return None

    def findings(self, domain: Domain, problem: Problem, result: RunResult) -> list[str]:
        """What the domain finds beyond a run's choice points, in its own words, for the
        explanation's reader's view (EDAPS: each feature that cannot be made)."""
        return []

    def analysis(
        self, domain: Domain, problem: Problem, result: RunResult
    ) -> ProblemAnalysis | None:
        """The domain's own analysis of a problem and the run on it, shown before the
        explanation and under ``analysis`` in ``--json``."""
        return None

    def failure_read(self, read: Read) -> Read | None:
        """For a search that ended with no plan, another compile of the same input to
        search again, whose failures fall where the knowledge was written, or None (the
        default: the search's own failure is the one to show).  HDDL checks what a compound
        step needs when the method that calls it is chosen, which finds plans sooner but
        fails a broken domain above the step at fault; its failure read checks that only
        where the step's own action does."""
        return None

    def settle(self, read: Read, result: RunResult) -> RunResult:
        """The package's last word on a search's result, before it is explained: a package
        that can prove no plan exists where the search could not (it gave up) returns the
        result with status ``NO_PLAN`` and ``proof`` saying why (HDDL: relaxed
        reachability).  It must never turn a result into one that claims more than it
        proves.  Default: the result as it is."""
        return result

    def prove_forced(
        self, read: Read, choice: ChoicePoint, allowed: list[AlternativeRecord]
    ) -> str | None:
        """Why forcing the ``allowed`` alternatives at ``choice`` (a why-not) can lead to no
        plan, if the package can prove it before searching (HDDL: relaxed reachability
        over the forced method's own steps) -- the search below it then only looks for
        the deepest failure to show.  None: not proven (the default), search as usual.
        It must never claim what it does not prove."""
        return None

    def repairs(self, outcome: PlanOutcome) -> Any:
        """``plan --repair``: one-place edits of the domain that make the problem plan, for
        the package's text and JSON (HDDL: :class:`knowledge.hddl.repair.RepairReport`);
        called by the pipeline after the run when :attr:`proposes_repairs` is set."""
        return None

    def facts(self, outcome: PlanOutcome) -> dict[str, Any]:
        """Facts a knowledge test can check beyond every run's (found, value, status,
        nodes, chosen; :func:`knowledge.pipeline.result_facts`), which these override."""
        return {}

    def figure(self, outcome: PlanOutcome) -> str | None:
        """The figure a user came for, in the domain's words, for the last line of the
        plain text after the outcome (EDAPS: "lead time 642.33 min"); None when the run
        has none to give (no plan).  Default: the value as the package's phrasing says it,
        or in first-plan mode (which values nothing) the number of steps."""
        from .pipeline import generic_figure

        return generic_figure(outcome)

    def inputs(self) -> str:
        """What ``workbench plan`` takes for this package, for ``plan --help``: its problem
        names by default; a package that reads files says which."""
        names = ", ".join(sorted(self.problems)) or "none shipped"
        return f"a problem name ({names})"

    # ------------------------------------------------------------------ outputs

    def text(self, outcome: PlanOutcome) -> str:
        """The run as ``workbench plan`` prints it (default: the engine's plain text)."""
        from .pipeline import generic_text

        return generic_text(outcome)

    def json_data(self, outcome: PlanOutcome) -> dict[str, Any]:
        """The run as ``workbench plan --json`` prints it (default: the engine's record)."""
        from .pipeline import generic_json

        return generic_json(outcome)

    def output_formats(self) -> Mapping[str, Callable[[PlanOutcome], str]]:
        """Output formats of its own, by name (HDDL: ``ipc``, the IPC plan text)."""
        return {}

    # ------------------------------------------------------------------ the pipeline

    def explain(
        self,
        result: RunResult,
        domain: Domain,
        problem: Problem,
        options: Any,
        max_replans: int = 32,
    ) -> Any:
        """The run explained in this domain's words, with its tuned thresholds; optimise
        runs re-plan lower-valued alternatives to find their relevant issues."""
        from .pipeline import explain_run

        return explain_run(
            result,
            domain,
            problem,
            options,
            self.phrasing(domain),
            max_replans,
            self.findings(domain, problem, result),
        )

    def run_facts(self, request: PlanRequest) -> dict[str, Any]:
        """The facts a knowledge test checks, for one problem (planned by
        :func:`knowledge.pipeline.run_plan`)."""
        from .pipeline import outcome_facts, run_plan

        return outcome_facts(run_plan(self, request))

    def plan(self, request: PlanRequest) -> PlanReport:
        """Plan ``request`` and render it (:func:`knowledge.pipeline.plan_report`); bad
        input raises :class:`~knowledge.request.BadInput`."""
        from .pipeline import plan_report

        return plan_report(self, request)
