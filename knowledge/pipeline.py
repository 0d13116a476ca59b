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
from collections.abc import Callable, Sequence
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
    from engine.tofs import (
        AlternativeRecord,
        ChoicePoint,
        Domain,
        Problem,
        RunResult,
        SearchOptions,
    )
    from engine.tofs.explanation import Explanation, Phrasing

__all__ = [
    "PlanOutcome",
    "PlanReport",
    "closing_line",
    "explain_run",
    "generic_figure",
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
    """What reading a request raises for bad input (a KB source file's ``SourceError`` is
    a ``ValueError``)."""
    from engine.tofs import DomainError, EvaluationError

    return (PackageError, DomainError, EvaluationError, ValueError, *pkg.input_errors)


def run_plan(pkg: KnowledgePackage, request: PlanRequest, read: Read | None = None) -> PlanOutcome:
    """Plan ``request`` with ``pkg``: read (unless ``read`` is given), refuse what cannot be
    honoured, search, answer why-not, explain.

    Raises :class:`~knowledge.request.BadInput` (:class:`~knowledge.request.Refused` for a
    setting) with the one line to say, and :class:`~knowledge.request.InputStopped` when a
    budget or ctrl+c stopped the reading."""
    from engine.tofs.why_not import replan_proving

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
    searched = read
    answers: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    try:
        if request.replan_from is not None:  # the workbench's why-not screen
            anchor, alternative = request.replan_from
            result = replan_proving(
                domain,
                problem,
                options,
                anchor,
                alternative,
                lambda choice, open_: pkg.prove_forced(read, choice, open_),
            )
        elif request.force:
            searched, result, said = _why_not(pkg, read, options, request.force, answers)
            domain, problem = searched.domain, searched.problem
        else:
            searched, result = _search(pkg, read, options)
            domain, problem = searched.domain, searched.problem
            result = pkg.settle(searched, result)
    except errors as exc:
        raise _as_bad_input(exc) from exc
    seconds = time.perf_counter() - t0
    outcome = PlanOutcome(pkg, request, searched, options, result, seconds, why_not=said)
    if answers:
        outcome.notes["why_not"] = answers
    if request.explain and not request.force and request.replan_from is None:
        outcome.explanation = outcome.explain()
    outcome.analysis = pkg.analysis(domain, problem, result)
    if request.repair:
        try:
            outcome.repair = pkg.repairs(outcome)
        except errors as exc:
            raise _as_bad_input(exc) from exc
    return outcome


def _why_not(
    pkg: KnowledgePackage,
    read: Read,
    options: SearchOptions,
    force: dict[str, str],
    answers: list[dict[str, Any]],
) -> tuple[Read, RunResult, list[str]]:
    """:func:`why_not` on ``read``; where no choice point offers a forced alternative, on
    the package's failure read, whose methods offer every binding their own conditions
    allow (an HDDL compile that checks a compound step's needs early drops bindings that
    the author may well ask about)."""

    def ask(on: Read) -> tuple[RunResult, list[str]]:
        return why_not(
            on.domain,
            on.problem,
            options,
            force,
            pkg.phrasing(on.domain),
            side_by_side=pkg.compares_actions,
            answers=answers,
            prove=lambda choice, open_: pkg.prove_forced(on, choice, open_),
        )

    try:
        return (read, *ask(read))
    except BadInput:
        plain = pkg.failure_read(read)
        if plain is None:
            raise
        return (plain, *ask(plain))


def _search(pkg: KnowledgePackage, read: Read, options: SearchOptions) -> tuple[Read, RunResult]:
    """Plan ``read``; where no plan was found and no budget stopped the search, search the
    package's failure read (:meth:`KnowledgePackage.failure_read`) in what is left of the
    budgets, and keep it unless a budget stopped that one (the first search's own
    failure is shown then)."""
    from engine.tofs import plan

    started = options.started if options.started is not None else time.perf_counter()
    options = replace(options, started=started)
    result = plan(read.domain, read.problem, options)
    if result.found or result.stopped_by is not None:
        return read, result
    again = pkg.failure_read(read)
    if again is None:
        return read, result
    nodes = options.node_budget
    if nodes is not None:
        nodes -= result.nodes
        if nodes <= 0:
            return read, result
    second = plan(again.domain, again.problem, replace(options, node_budget=nodes))
    if second.stopped_by is not None:
        return read, result
    return again, second


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
    text = pkg.text(outcome)
    if not request.explain and not request.force:
        # The plain text: the answer last, where a reader looks for it (a why-not's answer
        # is its contrast, which stays last).
        text += f"\n{closing_line(outcome)}"
    return PlanReport(text, outcome.status)


def closing_line(outcome: PlanOutcome) -> str:
    """The plain text's last line: what the run established, in the four outcomes' words,
    and the figure the user came for -- said last, where a reader of a long plan (EDAPS's
    shop-floor listing, a hand of bridge) looks for the answer."""
    figure = outcome.package.figure(outcome)
    said = outcome.result.outcome_text
    return f"Outcome: {said}" + (f"; {figure}." if figure else ".")


def generic_figure(outcome: PlanOutcome) -> str | None:
    """The value in the package's words, or the number of steps where nothing is valued
    (first-plan mode); None without a plan."""
    result = outcome.result
    if not result.found:
        return None
    if outcome.options.mode == "first" or result.value is None:
        steps = len(result.plan)
        return f"{steps} step{'s' if steps != 1 else ''}"
    phrasing = outcome.package.phrasing(outcome.domain)
    said = phrasing.value(result.value) if phrasing is not None else f"{result.value:g}"
    return f"value {said}"


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
    side_by_side: bool = False,
    answers: list[dict[str, Any]] | None = None,
    prove: Callable[[ChoicePoint, list[AlternativeRecord]], str | None] | None = None,
) -> tuple[RunResult, list[str]]:
    """``--why-not``: the forced run (:func:`engine.tofs.why_not.plan_why_not`) and, for
    each forced alternative, the chosen plan against the plan through it.  The chosen plan
    is searched once, and a single forced alternative's re-plan serves both.  An
    alternative no choice point offers is bad input, said in one line with the choice
    points there are.

    Plans whose steps have costs are compared by their issues (:mod:`engine.tofs.contrast`:
    where they part, what the difference costs); with ``side_by_side`` (the package's
    :attr:`~knowledge.contract.KnowledgePackage.compares_actions`), or for plans with no
    costs at all, side by side (:func:`engine.tofs.plan_diff.side_by_side`: the two
    choices, the steps added and removed, or where the forced choice fails and whether
    that is proven); each of those answers is also appended to ``answers`` as data
    (:func:`engine.tofs.plan_diff.side_by_side_data`, what ``--json`` shows).  ``prove``
    (the package's :meth:`~knowledge.contract.KnowledgePackage.prove_forced`) may prove a
    forced choice to have no plan before it is searched."""
    from engine.tofs import plan
    from engine.tofs.contrast import compare
    from engine.tofs.magnitude import Thresholds
    from engine.tofs.plan_diff import side_by_side as answer_by_actions
    from engine.tofs.plan_diff import side_by_side_data
    from engine.tofs.render import contrast_text
    from engine.tofs.why_not import Anchor, find_choice, plan_why_not, replan_proving

    base = plan(domain, problem, options)
    try:
        result = plan_why_not(domain, problem, options, force, base=base, prove=prove)
    except ValueError as exc:  # no such choice point: it says which there are
        raise BadInput(f"--why-not: {exc}") from exc
    thresholds = Thresholds.from_constants(domain.constants)
    by_actions = side_by_side or not any(s.costs for s in base.plan)
    lines: list[str] = []
    for task, alternative in force.items():
        found = find_choice(base, task, alternative)
        if found is None:
            continue
        choice, label = found
        forced = (
            result
            if len(force) == 1
            else replan_proving(
                domain, problem, options, Anchor.of(base, choice), label, prove, base
            )
        )
        if by_actions:
            lines += answer_by_actions(base, forced, choice, str(label))
            if answers is not None:
                answers.append(side_by_side_data(base, forced, choice, str(label)))
            continue
        record = next(
            (a for a in choice.alternatives if a.label == label),
            None,
        ) or _taken_record(forced, choice)
        if record is None:  # the forced choice failed everywhere: no record to weigh
            lines += answer_by_actions(base, forced, choice, str(label))
            continue
        lines += contrast_text(
            compare(base, forced, choice, record, thresholds, phrasing), phrasing
        )
    return result, lines


def _taken_record(run: RunResult, choice: Any) -> Any:
    """The alternative ``run`` took at ``choice``'s node (a forced partial binding names
    several; the run says which it took), or None."""
    for cp in run.choice_points:
        if cp.node == choice.node and cp.chosen is not None:
            return next((a for a in choice.alternatives if a.label == cp.chosen.label), None)
    return None


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
