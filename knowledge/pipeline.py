"""One planning pipeline for every package and every front end.

:func:`run_plan` is the only place a request becomes a search: it reads the problem (under
the request's budgets), refuses a setting the package cannot honour, builds the search
options once (:func:`search_options`), plans -- or answers why-not -- and explains.  The
command line (``workbench plan``), the workbench's runner and ``kb test`` all call it, so
the same problem with the same settings gives the same :class:`PlanOutcome` in all three;
:func:`plan_report` renders one in the package's text, JSON or own output format.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .contract import KnowledgePackage, PackageError, ProblemAnalysis, Read
from .request import (
    BadInput,
    InputStopped,
    PlanRequest,
    Refused,
    budget_options,
    read_within_budgets,
)
from .statuses import exit_status

if TYPE_CHECKING:
    from engine.tofs import Domain, Problem, RunResult, SearchOptions
    from engine.tofs.explanation import Explanation, Phrasing

__all__ = [
    "PlanOutcome",
    "PlanReport",
    "explain_run",
    "generic_json",
    "generic_text",
    "outcome_facts",
    "plan_report",
    "result_facts",
    "run_plan",
    "search_options",
    "why_not",
]

DEFAULT_CRITERION = "weighted-average"


@dataclass(frozen=True)
class PlanReport:
    """What to show and the exit status (0 plan, 2 no plan, 3 gave up, 130 interrupted)."""

    text: str
    status: int
    data: dict[str, Any] | None = None


@dataclass
class PlanOutcome:
    """One request planned: what was read, the options searched with, the result, and what
    the run says about itself (explanation, why-not contrast, the domain's analysis)."""

    package: KnowledgePackage
    request: PlanRequest
    read: Read
    options: SearchOptions
    result: RunResult
    seconds: float
    """Wall time of the search (a why-not's base run included), reading excluded."""
    explanation: Explanation | None = None
    why_not: list[str] = field(default_factory=list)
    analysis: ProblemAnalysis | None = None
    repair: Any = None
    """``--repair``: the package's repairs (:meth:`~knowledge.contract.KnowledgePackage.
    repairs`), shown after the run."""
    notes: dict[str, Any] = field(default_factory=dict)
    """What a package worked out from the run for its outputs, kept so it is worked out
    once (EDAPS: the critique of an unmanufacturable design)."""

    @property
    def domain(self) -> Domain:
        return self.read.domain

    @property
    def problem(self) -> Problem:
        return self.read.problem

    @property
    def status(self) -> int:
        return exit_status(self.result)

    def settings(self) -> dict[str, Any]:
        """The search options as run (``SearchOptions.summary``), with the alternatives
        ``--why-not`` forced and the Hurwicz index when that criterion weighed the
        opponents: what ``--json`` echoes as ``options``."""
        summary = self.options.summary()
        if self.request.force:  # --why-not: what was forced, as the user named it
            summary["force"] = dict(self.request.force)
        if summary["criterion"] == "hurwicz":
            summary["alpha"] = self.request.hurwicz_alpha
        return summary

    def record(self) -> dict[str, Any]:
        """The run's result as every front end must agree on it (no timings)."""
        r = self.result
        return {
            "package": self.package.name,
            "problem": self.problem.name,
            "settings": self.settings(),
            "status": str(r.status),
            "outcome": str(r.outcome),
            "value": r.value,
            "nodes": r.nodes,
            "plan": [(s.operator, [str(a) for a in s.args]) for s in r.plan],
            "chosen": {cp.task: cp.chosen.label for cp in r.choice_points if cp.chosen},
        }

    def explain(self) -> Explanation:
        """The run explained in the package's words (what ``--explain`` shows)."""
        explanation: Explanation = self.package.explain(
            self.result, self.domain, self.problem, self.options
        )
        return explanation


def search_options(request: PlanRequest, problem: Problem) -> SearchOptions:
    """The search options of a request: the problem's own, overridden by what the user set.
    The one place a request's settings become ``SearchOptions``."""
    from engine.tofs import SearchOptions, Trace, criterion

    try:
        weigh = criterion(request.criterion, request.hurwicz_alpha)
    except ValueError as exc:
        raise BadInput(f"--criterion: {exc}") from exc
    return SearchOptions(
        **{
            **problem.options,
            "mode": request.mode or problem.mode,
            "full_tree": request.full_tree,
            "partial_plan_prune": request.prune and problem.options.get("partial_plan_prune", True),
            **budget_options(request),
            "criterion": weigh,
            **({"deepening": request.deepening} if request.deepening is not None else {}),
            **({"trace": Trace(limit=request.trace)} if request.trace else {}),
            **({"force": dict(request.pinned)} if request.pinned else {}),
        }
    )


def refusal(request: PlanRequest, problem: Problem, mode: str) -> str | None:
    """Why a generic setting means nothing for this problem in this mode (None: each is
    honoured).  A setting that would be dropped without a word is refused instead."""
    named = f"{problem.name} is planned in {mode} mode"
    if request.criterion != DEFAULT_CRITERION and mode != "game":
        return (
            f"--criterion {request.criterion} weighs an opponent's replies, and only game "
            f"mode has opponents: {named}"
        )
    if request.alpha is not None and request.criterion != "hurwicz":
        return "--alpha is the Hurwicz criterion's optimism index: give it with --criterion hurwicz"
    if request.deepening is not None and mode != "first":
        return f"--deepening is for first-plan search (--mode first): {named}"
    if request.tree and mode != "game":
        return f"--tree prints a game's decision tree (its policy): {named}, which has none"
    if request.output is not None and (request.json or request.explain or request.repair):
        flag = "--json" if request.json else "--explain" if request.explain else "--repair"
        return f"the {request.output} format prints the plan alone: {flag} cannot go with it"
    if request.repair and (request.force or request.replan_from is not None):
        return (
            "--repair proposes edits of a domain whose problem does not plan; --why-not "
            "forces an alternative of a plan: ask one at a time"
        )
    return None


# With --repair, the search of the problem as it is gets at most this share of the time
# budget, and at most REPAIR_DIAGNOSIS_SECONDS when there is none: its deepest failure is
# what the repairs start from, and the rest of the budget is theirs.
REPAIR_DIAGNOSIS_SHARE = 0.5
REPAIR_DIAGNOSIS_SECONDS = 5.0


def _diagnosis(options: SearchOptions) -> SearchOptions:
    """The options of a ``--repair`` run's own search: from now, at most
    :data:`REPAIR_DIAGNOSIS_SECONDS` and at most its share of what is left of the time
    budget (which counts from the command's start), leaving the repairs the rest."""
    now = time.perf_counter()
    seconds = REPAIR_DIAGNOSIS_SECONDS
    if options.time_budget is not None:
        start = options.started if options.started is not None else now
        left = max(start + options.time_budget - now, 1e-3)
        seconds = min(seconds, left * REPAIR_DIAGNOSIS_SHARE)
    return replace(options, time_budget=seconds, started=now)


def _bad_input(pkg: KnowledgePackage) -> tuple[type[Exception], ...]:
    from engine.tofs import DomainError, EvaluationError, SourceError

    return (PackageError, SourceError, DomainError, EvaluationError, ValueError, *pkg.input_errors)


def run_plan(pkg: KnowledgePackage, request: PlanRequest, read: Read | None = None) -> PlanOutcome:
    """Plan ``request`` with ``pkg``: read (unless ``read`` is given), refuse what cannot be
    honoured, search, answer why-not, explain.

    Raises :class:`~knowledge.request.BadInput` (:class:`~knowledge.request.Refused` for a
    setting) with the one line to say, and :class:`~knowledge.request.InputStopped` when a
    budget or ctrl+c stopped the reading."""
    from engine.tofs import plan
    from engine.tofs.why_not import replan_at

    if request.mode is not None and request.mode in pkg.refused_modes:
        raise Refused(f"--mode {request.mode}: {pkg.refused_modes[request.mode]}")
    if request.output is not None and request.output not in pkg.output_formats():
        raise Refused(f"package '{pkg.name}' has no output format '{request.output}'")
    if request.repair and not pkg.proposes_repairs:
        raise Refused(
            f"--repair proposes one-place edits of a domain's HDDL text, and package "
            f"'{pkg.name}' has none (workbench plan hddl DOMAIN PROBLEM --repair)"
        )
    errors = _bad_input(pkg)
    if read is None:
        try:
            read = read_within_budgets(request, lambda: pkg.read(request))
        except InputStopped:
            raise
        except errors as exc:
            raise _as_bad_input(exc) from exc
    domain, problem = read.domain, read.problem
    options = search_options(request, problem)
    reason = refusal(request, problem, options.mode) or pkg.refusal(request, read)
    if reason is not None:
        raise Refused(reason)
    if request.repair:
        options = _diagnosis(options)
    said: list[str] = []
    t0 = time.perf_counter()
    try:
        if request.replan_from is not None:
            result = replan_at(domain, problem, options, *request.replan_from)
        elif request.force:
            result, said = why_not(domain, problem, options, request.force, pkg.phrasing(domain))
        else:
            result = pkg.settle(read, plan(domain, problem, options))
    except errors as exc:
        raise _as_bad_input(exc) from exc
    seconds = time.perf_counter() - t0
    outcome = PlanOutcome(pkg, request, read, options, result, seconds, why_not=said)
    if request.explain and not request.force and request.replan_from is None:
        outcome.explanation = outcome.explain()
    outcome.analysis = pkg.analysis(domain, problem, result)
    if request.repair:
        try:
            outcome.repair = pkg.repairs(outcome)
        except errors as exc:
            raise _as_bad_input(exc) from exc
    return outcome


def _as_bad_input(exc: Exception) -> BadInput:
    if isinstance(exc, BadInput):
        return exc
    return BadInput(str(exc) or type(exc).__name__, type(exc).__name__)


def plan_report(pkg: KnowledgePackage, request: PlanRequest) -> PlanReport:
    """Plan ``request`` and render it: the package's own output format if one is asked
    for, else its JSON or its text.  A stop while reading is reported, not raised."""
    try:
        outcome = run_plan(pkg, request)
    except InputStopped as stopped:
        report: PlanReport = stopped.report(request)
        return report
    if request.output is not None:
        return PlanReport(pkg.output_formats()[request.output](outcome), outcome.status)
    if request.json:
        data = pkg.json_data(outcome)
        return PlanReport(json.dumps(data, indent=2, ensure_ascii=False), outcome.status, data)
    return PlanReport(pkg.text(outcome), outcome.status)


def generic_text(outcome: PlanOutcome) -> str:
    """The engine's plain text: the plan, with ``--explain`` the explanation (after the
    domain's analysis), with ``--tree`` a game's policy, with ``--why-not`` the contrast."""
    from engine.tofs.render import render_text

    request = outcome.request
    text = render_text(
        outcome.result, explain=request.explain, explanation=outcome.explanation, tree=request.tree
    )
    if request.explain and outcome.analysis is not None:
        text = "\n".join(outcome.analysis.lines) + "\n\n" + text
    if outcome.why_not:
        text += "\n\n" + "\n".join(outcome.why_not)
    return text


def choice_points_brief(full: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Choice points as JSON without ``--explain``: each alternative's label, value, reason
    and whether it was chosen."""
    return [
        {
            "task": c["task"],
            "alternatives": [
                {k: a[k] for k in ("label", "value", "reason", "chosen")} for a in c["alternatives"]
            ],
        }
        for c in full
    ]


def generic_json(outcome: PlanOutcome) -> dict[str, Any]:
    """The engine's record of the run, with the options as run, the domain's analysis and,
    with ``--explain``, the explanation."""
    from engine.tofs.render import explanation_dict

    data: dict[str, Any] = outcome.result.to_dict()
    data["options"] = outcome.settings()
    if outcome.analysis is not None:
        data["analysis"] = outcome.analysis.data
    if outcome.explanation is not None:
        data["explanation"] = explanation_dict(outcome.explanation)
    if not outcome.request.explain:
        data["choice_points"] = choice_points_brief(data["choice_points"])
    return data


def explain_run(
    result: RunResult,
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    phrasing: Phrasing | None = None,
    max_replans: int = 32,
    findings: Sequence[str] = (),
) -> Explanation:
    """:func:`engine.tofs.explanation.explain` for a run of ``problem``, with the domain's
    thresholds and a re-planner bound to the run (quietly: no progress, no trace), and the
    domain's ``findings`` for its reader's view."""
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

    explanation: Explanation = explain(
        result,
        phrasing=phrasing,
        thresholds=Thresholds.from_constants(domain.constants),
        replan=replan,
        max_replans=max_replans,
        findings=findings,
    )
    return explanation


def why_not(
    domain: Domain,
    problem: Problem,
    options: SearchOptions,
    force: dict[str, str],
    phrasing: Phrasing | None = None,
) -> tuple[RunResult, list[str]]:
    """``--why-not``: the forced run (:func:`engine.tofs.why_not.plan_why_not`) and, for
    each forced alternative, the chosen plan against the plan through it -- where they
    part and the difference by its relevant issues.  The chosen plan is searched once,
    and a single forced alternative's re-plan serves both.  An alternative no choice point
    offers is bad input, said with the choice points there are."""
    from engine.tofs import plan
    from engine.tofs.contrast import compare
    from engine.tofs.magnitude import Thresholds
    from engine.tofs.render import contrast_text
    from engine.tofs.why_not import Anchor, find_choice, plan_why_not, replan_at

    base = plan(domain, problem, options)
    try:
        result = plan_why_not(domain, problem, options, force, base=base)
    except ValueError as exc:  # no such choice point: it says which there are
        raise BadInput(f"--why-not: {exc}") from exc
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


def result_facts(result: RunResult) -> dict[str, Any]:
    """Facts every run has: found, value, status, nodes, and the chosen alternatives."""
    return {
        "found": result.found,
        "value": result.value,
        "status": str(result.status),
        "nodes": result.nodes,
        "chosen": {cp.task: cp.chosen.label for cp in result.choice_points if cp.chosen},
    }


def outcome_facts(outcome: PlanOutcome) -> dict[str, Any]:
    """What a knowledge test can check about a run: every run's facts, and the package's."""
    return result_facts(outcome.result) | outcome.package.facts(outcome)
