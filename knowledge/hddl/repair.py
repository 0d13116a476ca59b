"""Repairs of a broken HDDL domain: one-place edits that re-planning and an independent
validator confirm (issue 28, ``workbench plan hddl DOMAIN PROBLEM --repair``).

An explanation says where a run failed; an author wants to know what to change.  Research
has the pieces -- Göbelbecker et al.'s "excuses" (change, re-plan, confirm), Lin, Grastien
and Bercher's repairs of flawed models by literal edits suggested where the plan breaks --
and this module puts them in the author's hands:

1. plan the broken problem (or take the run the caller already has) and read its deepest
   failure: the literal that could not hold, where it was written, the path to it;
2. draw candidate edits from it, best first (:mod:`knowledge.hddl.repair_candidates`: add
   the literal to an action that ran earlier, flip or drop it where it was written, swap
   two steps of an enclosing method, pass another variable, add a missing method);
3. make each one in the domain's own text (:mod:`knowledge.hddl.edits`), read it back and
   plan the problem with it under a small node budget -- in process, the edited model
   compiled directly;
4. show a repair only once :mod:`knowledge.hddl.validation` (unified-planning's reader
   and simulator, no code of ours) has accepted the plan it gives.

The search stops at the caller's budgets (a deadline, memory, ctrl+c: :class:`Budget`), at
``seconds``, once ``limit`` repairs are found, or when the tier of candidates that gave
the first repair is done, and the strong tiers (:data:`STRONG_TIERS`) with it (a weaker
tier's repairs would only follow the better ones).
The same domain, problem and budgets give the same repairs in the same order, except where
the deadline cut the search short.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .edits import apply_edits, unified_diff
from .errors import HddlError
from .repair_candidates import Analysis, candidates
from .repair_writer import Candidate

if TYPE_CHECKING:
    from engine.tofs import Problem as EngineProblem
    from engine.tofs import RunResult
    from knowledge.pipeline import PlanOutcome

    from .model import Domain, Problem
    from .reachability import Reachability

__all__ = [
    "Budget",
    "Repair",
    "RepairReport",
    "propose_repairs",
    "repair_outcome",
    "repair_report",
]

# Nodes each candidate's search may take in the first pass (a repaired domain plans the
# shipped and IPC problems the benchmark breaks in far fewer), and in the second pass for
# the candidates the first stopped before they were decided.
FIRST_NODES = 1_500
SECOND_NODES = 60_000
# Seconds the broken run gets when the caller has none (propose_repairs on texts alone).
DIAGNOSIS_SECONDS = 2.0
# Seconds relaxed reachability may take to say which edits cannot help: worth it only
# where it is cheap, so it is skipped when the broken problem's own analysis took longer.
CHEAP_ANALYSIS = 0.05
# Tiers of candidates (repair_candidates) tried to the end even once one gave a repair.
# 0: the search stops with the tier that gave the first repair -- the next tier's edits
# would only follow it, and going on through tier 1 cost a second or two per break on
# the tune set (benchmarks/fault_finding.py --seed 1).
STRONG_TIERS = 0
# Repairs ``plan --repair`` shows at most: each costs a validation (unified-planning reads
# the edited domain again: 0.1 s on Transport, 2 s on Barman-BDI).
CLI_LIMIT = 3
# Actions of a repair's plan shown in the text.
PLAN_LINES = 12
# Seconds ``plan --repair`` gives the repairs when the command has no time budget.
REPAIR_SECONDS = 6.0


@dataclass(frozen=True)
class Repair:
    """A one-place edit of the domain that makes the problem plan, with the plan the
    independent validator accepted."""

    kind: str
    """``add-effect``, ``drop-precondition``, ``flip-precondition``, ``reorder``,
    ``add-method`` or ``change-argument``."""
    place: str
    """The action or method edited (the task, for an added method)."""
    summary: str
    """One line in the author's words: "add (in ?p ?v) to the effect of action pick_up"."""
    line: int | None
    """The line of the original domain text where the edit lands."""
    domain_text: str
    """The whole edited domain: the original text with the one edit."""
    diff: str
    """The edit as a unified diff against the original text."""
    plan: tuple[str, ...]
    """The plan it gives, one action per item: ``(drive truck_0 city_loc_2 city_loc_1)``."""
    valid: bool
    """The independent validator accepted the plan."""

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "place": self.place,
            "summary": self.summary,
            "line": self.line,
            "diff": self.diff,
            "plan": list(self.plan),
            "actions": len(self.plan),
            "valid": self.valid,
            "domain_text": self.domain_text,
        }


@dataclass
class RepairReport:
    """What the repair search found and how far it went, for the text and the JSON."""

    repairs: list[Repair] = field(default_factory=list)
    already_plans: bool = False
    candidates: int = 0
    """Candidate edits drawn from the failure."""
    tried: int = 0
    """Candidates planned (or ruled out by relaxed reachability) before the search stopped."""
    ruled_out: int = 0
    """Tried candidates that relaxed reachability proved cannot make the problem plan."""
    planned: int = 0
    """Tried candidates that gave a plan (valid or not)."""
    rejected: list[tuple[str, str]] = field(default_factory=list)
    """(summary, the validator's first finding) for edits whose plan it rejected."""
    unjudged: list[tuple[str, str]] = field(default_factory=list)
    """(summary, why) for edits whose plan the validator could not judge."""
    stopped: str | None = None
    """What stopped the search before every candidate was tried, in words (None: none)."""
    seconds: float = 0.0
    domain_file: str = "domain.hddl"

    def lines(self) -> list[str]:
        """The repairs as ``plan --repair`` prints them, best first."""
        domain_file = self.domain_file
        if self.already_plans:
            return ["Repairs: none to propose: the problem already plans with this domain."]
        head = (
            f"Repairs ({self.tried} of {self.candidates} one-place edits tried in "
            f"{self.seconds:.1f} s"
            + (f"; stopped at {self.stopped}" if self.stopped else "")
            + "):"
        )
        out = [head]
        if not self.repairs:
            out.append("  no one-place repair found within the budget.")
        for n, repair in enumerate(self.repairs, 1):
            where = f" ({domain_file}:{repair.line})" if repair.line else ""
            out.append(f"{n}. {repair.summary}{where}")
            out += ["   " + line for line in repair.diff.rstrip("\n").splitlines()]
            shown = repair.plan[:PLAN_LINES]
            out.append(
                f"   gives a plan of {len(repair.plan)} action(s), accepted by the "
                "independent validator:"
            )
            out += [f"     {step}" for step in shown]
            if len(repair.plan) > len(shown):
                out.append(f"     ... {len(repair.plan) - len(shown)} more")
        for summary, why in self.rejected[:3]:
            out.append(
                f"  not shown: {summary}: it plans, but the validator rejects the plan: {why}"
            )
        for summary, why in self.unjudged[:3]:
            out.append(
                f"  not shown: {summary}: it plans, but the validator could not judge: {why}"
            )
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "already_plans": self.already_plans,
            "candidates": self.candidates,
            "tried": self.tried,
            "ruled_out": self.ruled_out,
            "planned": self.planned,
            "rejected": [{"summary": s, "why": w} for s, w in self.rejected],
            "unjudged": [{"summary": s, "why": w} for s, w in self.unjudged],
            "stopped": self.stopped,
            "seconds": round(self.seconds, 3),
        }


@dataclass(frozen=True)
class Budget:
    """The caller's budgets over the repair search: a deadline on the
    ``time.perf_counter()`` clock (the command's time budget), a node budget for each
    candidate's search, the memory budget and the cancel token ctrl+c sets."""

    deadline: float | None = None
    node_budget: int | None = None
    memory_budget: float | None = None
    cancel: Any = None

    @classmethod
    def of(cls, options: Any) -> Budget:
        """The budgets of a run's ``SearchOptions`` (time from its ``started``)."""
        deadline = None
        if options.time_budget:
            start = options.started if options.started is not None else time.perf_counter()
            deadline = start + options.time_budget
        return cls(deadline, options.node_budget, options.memory_budget, options.cancel)

    def stop(self, deadline: float) -> str | None:
        """Why the search must stop now, in words, or None."""
        from engine.tofs.search.budgets import resident_mb

        cancel = self.cancel
        if cancel is not None and cancel.cancelled:
            return "interrupting the run" if cancel.interrupted else "cancelling the run"
        if time.perf_counter() >= deadline:
            return "the time budget"
        if self.memory_budget is not None:
            used = resident_mb()
            if used is not None and used > self.memory_budget:
                return f"the memory budget of {self.memory_budget:,.0f} MB"
        return None


def propose_repairs(
    domain_text: str,
    problem_text: str,
    *,
    domain_file: str = "domain.hddl",
    problem_file: str = "problem.hddl",
    seconds: float = 4.0,
    limit: int = 5,
) -> list[Repair]:
    """One-place edits of ``domain_text`` that make the problem plan, best first, each with
    a plan the independent validator accepted (empty when the problem already plans, or no
    repair was found within ``seconds``).  Raises :class:`~knowledge.hddl.HddlError` (or
    ``HddlPlanError``, a ``ValueError``) for texts that are not a domain and a problem of
    it."""
    report = repair_report(
        domain_text,
        problem_text,
        domain_file=domain_file,
        problem_file=problem_file,
        seconds=seconds,
        limit=limit,
    )
    return report.repairs


def repair_report(
    domain_text: str,
    problem_text: str,
    *,
    domain_file: str = "domain.hddl",
    problem_file: str = "problem.hddl",
    seconds: float = 4.0,
    limit: int = 5,
    budget: Budget | None = None,
    result: RunResult | None = None,
    models: tuple[Domain, Problem] | None = None,
) -> RepairReport:
    """:func:`propose_repairs` with the search's account, under the caller's ``budget``;
    ``result`` is the broken problem's run when the caller has planned it already (the
    CLI), ``models`` the domain and problem as read from the texts."""
    from . import parse_domain, parse_problem

    start = time.perf_counter()
    budget = budget or Budget()
    deadline = start + seconds
    if budget.deadline is not None:
        deadline = min(deadline, budget.deadline)
    if models is None:
        domain = parse_domain(domain_text, domain_file)
        problem = parse_problem(problem_text, domain, problem_file)
    else:
        domain, problem = models
    if result is None:
        from .planning import compile_problem

        compile_problem(domain, problem)  # what cannot be planned is bad input, said here
        planned = _plan(domain, problem, budget, min(deadline, start + DIAGNOSIS_SECONDS), None)
        result = planned[0] if planned is not None else None
    report = RepairReport(domain_file=domain_file)
    if result is not None and result.found:
        report.already_plans = True
        report.seconds = time.perf_counter() - start
        return report
    report.stopped = budget.stop(deadline)
    if report.stopped is not None:  # ctrl+c during the run, or no time left for repairs
        report.seconds = time.perf_counter() - start
        return report
    _prefetch_validator()
    facts, cheap = _facts(domain, problem, deadline)
    found = candidates(
        Analysis(
            domain_text, domain, problem, domain_file, result.failure if result else None, facts
        )
    )
    report.candidates = len(found)
    search = _Search(
        domain_text, problem_text, domain, problem, domain_file, budget, deadline, report
    )
    search.proven = cheap and facts is not None and facts.unsolvable() is not None
    search.run(found, limit)
    report.seconds = time.perf_counter() - start
    return report


def repair_outcome(outcome: PlanOutcome) -> RepairReport:
    """``plan hddl DOMAIN PROBLEM --repair``: the repairs of the run's domain (from its
    files or the store), under what is left of the command's budgets -- its time budget
    counts from the command's start, the node budget holds for each candidate's search,
    ctrl+c stops it -- or :data:`REPAIR_SECONDS` with no time budget."""
    from engine.tofs.textfile import read_text

    from .stored import hddl_text

    request = outcome.request
    domain, problem = outcome.read.own
    if request.spec is not None:  # from the store: its texts, named as the store names them
        domain_text, problem_text = hddl_text(request.spec), request.problem_text or ""
        domain_file, problem_file = domain.path, problem.path
    else:
        domain_text, problem_text = read_text(domain.path), read_text(problem.path)
        domain_file = domain.path.replace("\\", "/").rsplit("/", 1)[-1]
        problem_file = problem.path.replace("\\", "/").rsplit("/", 1)[-1]
    deadline = None
    if request.time_budget:
        started = request.started if request.started is not None else time.perf_counter()
        deadline = started + request.time_budget
    budget = Budget(deadline, request.node_budget, request.memory_budget, request.cancel)
    seconds = REPAIR_SECONDS if deadline is None else max(deadline - time.perf_counter(), 0.0)
    return repair_report(
        domain_text,
        problem_text,
        domain_file=domain_file,
        problem_file=problem_file,
        seconds=seconds,
        limit=CLI_LIMIT,
        budget=budget,
        result=outcome.result,
        models=(domain, problem),
    )


def _prefetch_validator() -> None:
    """Start importing the validator (unified-planning: about a second, much of it reading
    files) in the background while the first candidates are planned; the first
    validation waits for it if it is not done."""
    import contextlib
    import sys
    import threading

    if "knowledge.hddl.validation" in sys.modules:
        return

    def load() -> None:
        with contextlib.suppress(ImportError):  # said when a repair needs it (_validate)
            import knowledge.hddl.validation  # noqa: F401

    threading.Thread(target=load, name="import-validator", daemon=True).start()


def _facts(domain: Domain, problem: Problem, deadline: float) -> tuple[Reachability | None, bool]:
    """Relaxed reachability of the broken problem (None past a second or the deadline),
    and whether it was cheap enough to ask again for every candidate."""
    from .reachability import Unfinished, analyse

    t0 = time.perf_counter()
    try:
        facts = analyse(domain, problem, deadline=min(deadline, t0 + 1.0))
    except Unfinished:
        return None, False
    return facts, time.perf_counter() - t0 < CHEAP_ANALYSIS


def _plan(
    domain: Domain, problem: Problem, budget: Budget, deadline: float, nodes: int | None
) -> tuple[RunResult, EngineProblem] | None:
    """The problem planned with ``domain`` in first-plan mode, as ``plan hddl`` plans it,
    within ``nodes`` and the deadline (with the compiled problem); None when it cannot be
    compiled.  Only the broken run (``nodes`` None) records failed alternatives, and it
    checks only static needs of compound steps, so that it fails where the literal was
    written (``HddlPackage.failure_read``): the candidates are drawn from that failure."""
    from engine.tofs import SearchOptions, plan

    from .planning import compile_problem

    try:
        engine_domain, engine_problem = compile_problem(domain, problem, through=nodes is not None)
    except Exception:  # an edit the compiler refuses is no repair (never the user's input)
        return None
    if budget.node_budget is not None:
        nodes = min(nodes, budget.node_budget) if nodes is not None else budget.node_budget
    now = time.perf_counter()
    options = SearchOptions(
        **{**engine_problem.options, "record_failed_alternatives": nodes is None},
        mode="first",
        node_budget=nodes,
        time_budget=max(deadline - now, 1e-3),
        started=now,
        memory_budget=budget.memory_budget,
        cancel=budget.cancel,
    )
    try:
        result: RunResult = plan(engine_domain, engine_problem, options)
    except Exception:  # as above: the engine refuses the edited domain
        return None
    return result, engine_problem


class _Search:
    """Tries candidates in order: edit, read back, plan, validate."""

    def __init__(
        self,
        text: str,
        problem_text: str,
        domain: Domain,
        problem: Problem,
        domain_file: str,
        budget: Budget,
        deadline: float,
        report: RepairReport,
    ) -> None:
        self.text = text
        self.problem_text = problem_text
        self.domain = domain
        self.problem = problem
        self.domain_file = domain_file
        self.budget = budget
        self.deadline = deadline
        self.report = report
        self.proven = False  # reachability proves the broken problem unsolvable, cheaply

    def run(self, found: list[Candidate], limit: int) -> None:
        report = self.report
        undecided: list[Candidate] = []
        last_tier: int | None = None
        for candidate in found:
            if last_tier is not None and candidate.rank[0] > last_tier:
                return  # the best tiers' repairs are in; weaker ones would only follow
            if self._stopped():
                return
            outcome = self.check(candidate, FIRST_NODES)
            if outcome == "undecided":
                undecided.append(candidate)
            elif outcome == "repair":
                if last_tier is None:
                    last_tier = max(candidate.rank[0], STRONG_TIERS)
                if len(report.repairs) >= limit:
                    return
        if report.repairs:
            return
        for candidate in undecided:
            if self._stopped():
                return
            report.tried -= 1  # counted once
            if self.check(candidate, SECOND_NODES) == "repair" and len(report.repairs) >= limit:
                return

    def _stopped(self) -> bool:
        why = self.budget.stop(self.deadline)
        if why is not None:
            self.report.stopped = why
        return why is not None

    def check(self, candidate: Candidate, nodes: int) -> str:
        """ "repair", "undecided" (the search stopped before it found a plan or ran out
        of tree), or "no" for one candidate."""
        from . import parse_domain
        from .decomposition import call_text, decomposition_tree, ipc_text

        report = self.report
        report.tried += 1
        try:
            domain = candidate.model(self.domain)
        except ValueError:
            return "no"
        if self.proven and self._ruled_out(domain):
            report.ruled_out += 1
            return "no"
        planned = _plan(domain, self.problem, self.budget, self.deadline, nodes)
        if planned is None:
            return "no"
        result, engine_problem = planned
        if not result.found:
            return "undecided" if _budget_stop(result) else "no"
        edited = apply_edits(self.text, candidate.edits)
        try:  # what the diff shows must be what was planned
            same = parse_domain(edited, self.domain_file) == domain
        except HddlError:
            same = False
        if not same:
            return "no"
        report.planned += 1
        tree = decomposition_tree(result, engine_problem.tasks)
        steps = tuple(call_text(a.name, a.args) for a in tree.actions)
        problems = self._validate(edited, ipc_text(tree))
        if problems is None:
            return "no"
        if problems:
            report.rejected.append((candidate.summary, problems[0]))
            return "no"
        report.repairs.append(
            Repair(
                candidate.kind,
                candidate.place,
                candidate.summary,
                candidate.line,
                edited,
                unified_diff(self.text, edited, self.domain_file),
                steps,
                True,
            )
        )
        return "repair"

    def _ruled_out(self, domain: Domain) -> bool:
        from .reachability import Unfinished, analyse

        try:
            facts = analyse(domain, self.problem, deadline=time.perf_counter() + 0.5)
        except Unfinished:
            return False
        return facts.unsolvable() is not None

    def _validate(self, domain_text: str, plan_text: str) -> list[str] | None:
        """The validator's findings (empty: valid); None when it could not judge (said in
        the report's ``unjudged``)."""
        summary = self.report  # for the unjudged note
        try:
            from .validation import validate_plan_text
        except ImportError as exc:
            summary.unjudged.append(("every repair", f"unified-planning is not installed ({exc})"))
            return None
        try:
            return validate_plan_text(domain_text, self.problem_text, plan_text)
        except Exception as exc:  # unified-planning's reader refuses the text: its word
            summary.unjudged.append(("a repair", f"{type(exc).__name__}: {str(exc)[:200]}"))
            return None


def _budget_stop(result: RunResult) -> bool:
    """Whether a search ended undecided at a budget (not at the end of its tree, nor at a
    recursion or repeat cut, which a bigger budget would not lift)."""
    from engine.tofs import Status

    return result.status in (Status.NODE_BUDGET, Status.TIME_BUDGET)
