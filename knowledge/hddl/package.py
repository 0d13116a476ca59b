"""The ``hddl`` knowledge package: any total-order HDDL domain, planned with no Python of its
own.

``workbench plan hddl DOMAIN.hddl PROBLEM.hddl`` reads both files, compiles them
(:mod:`knowledge.hddl.planning`) and plans depth-first in first-plan mode -- methods in the
order written, loops on the path pruned -- within the given budgets.  Its answer is one of
three, said plainly: ``solved`` (with a plan that was completed), ``unsolvable`` (the whole
tree was searched) or ``gave up`` (a budget stopped it first).  ``--mode optimise`` looks
for the plan with the fewest actions (each costs 1) by branch and bound and says whether it
was proven shortest (the IPC's optimal track's measure); ``--ipc`` prints the plan in the
IPC's format.

``workbench plan hddl DOMAIN PROBLEM`` with names rather than files plans a domain and a
problem imported into the knowledge store (``workbench kb import DOMAIN.hddl PROBLEM.hddl``;
:mod:`knowledge.hddl.stored`): the domain is re-read from its stored HDDL text.  The store's
generic commands import, export, validate and lint HDDL through the package's
:data:`~knowledge.hddl.stored.FORMAT`.  Planning is :func:`knowledge.pipeline.run_plan`'s, as
for every package.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from knowledge import (
    KnowledgePackage,
    PackageError,
    PlanOutcome,
    PlanRequest,
    Read,
    run_plan,
)

from .errors import HddlError

# Light: the engine loads only when a stored domain is read or checked.
from .stored import FORMAT, PROBLEM_KIND

if TYPE_CHECKING:
    from engine.tofs import Domain as EngineDomain
    from engine.tofs import DomainSpec, RunResult
    from engine.tofs import Problem as EngineProblem
    from engine.tofs.explanation import Phrasing

    from .model import Domain, Problem

__all__ = [
    "HddlPackage",
    "HddlRun",
    "package",
    "read_request",
    "read_stored",
    "run_files",
    "run_models",
    "status_word",
]

DESCRIPTION = "HTN domains in HDDL, the planning competition's language (plan DOMAIN PROBLEM)"


class HddlPackage(KnowledgePackage):
    """HDDL's domains are all imported: a problem is planned from the store, its domain
    re-read from its HDDL text and compiled together with it (the objects of a problem
    are what its variables range over) -- or from a domain file and a problem file given
    to ``workbench plan``."""

    name = "hddl"
    description = DESCRIPTION
    problem_kind = PROBLEM_KIND
    formats = (FORMAT,)
    reads_stored_problems = True
    plans_imported_domains = True
    compares_actions = True
    refused_modes: ClassVar[Mapping[str, str]] = {
        "game": "HDDL problems have no opponents (plan them in first or optimise mode)"
    }
    input_errors = (HddlError,)
    proposes_repairs = True

    # -------------------------------------------------------------- reading

    def problem(
        self, name: str, spec: DomainSpec | None = None, text: str | None = None
    ) -> tuple[EngineDomain, EngineProblem]:
        from .planning import compile_problem

        if spec is None:
            raise PackageError(
                f"HDDL problem '{name}' is planned from the store (workbench kb import "
                "DOMAIN.hddl PROBLEM.hddl) or from files (workbench plan hddl DOMAIN.hddl "
                "PROBLEM.hddl)"
            )
        return compile_problem(*read_stored(spec, name, text))

    def domain_of(self, problem: str) -> str:
        raise PackageError(
            f"HDDL problem '{problem}': say which imported domain it belongs to "
            "(workbench plan hddl DOMAIN PROBLEM)"
        )

    def stored_problem(self, request: PlanRequest) -> tuple[str, str] | None:
        """``plan hddl DOMAIN PROBLEM``: the stored domain and problem of those names, or
        None when the two are files (both exist, or either looks like a path or ends in
        ``.hddl``)."""
        files = _files(request)
        if len(files) != 1:
            return None  # read_request says how to call it
        args = (request.problem, files[0])
        if all(Path(a).is_file() for a in args) or any(_names_a_file(a) for a in args):
            return None
        return args

    def read(self, request: PlanRequest) -> Read:
        """The domain and problem, compiled for the request's mode: optimising, each action
        costs 1, so the best plan is the one with the fewest actions."""
        from .planning import compile_problem

        domain, problem = read_request(request)
        unit = (request.mode or "first") == "optimise"
        engine_domain, engine_problem = compile_problem(domain, problem, unit_costs=unit)
        return Read(engine_domain, engine_problem, (domain, problem))

    def inputs(self) -> str:
        return (
            "DOMAIN PROBLEM: a domain file and a problem file (.hddl), or the names of a "
            "domain and its problem imported into the store (workbench kb import)"
        )

    def figure(self, outcome: PlanOutcome) -> str | None:
        """The plan's length in actions, HDDL's only measure (no action has a cost)."""
        result = outcome.result
        if not result.found:
            return None
        n = len(result.plan)
        return f"{n} action{'s' if n != 1 else ''}"

    def failure_read(self, read: Read) -> Read | None:
        """The problem compiled to check only static needs of compound steps, where the
        first compile checked every need a step's types let through
        (:func:`~.planning.start_needs`): a broken domain then fails at the action whose
        precondition was written with the literal, after the steps that ran before it --
        what :mod:`.diagnosis` reads to name the action that should have added it."""
        from .planning import compile_problem

        if not getattr(read.domain, "through", False):
            return None
        domain, problem = read.own
        unit = bool(getattr(read.domain, "unit_costs", False))
        plain = compile_problem(domain, problem, unit_costs=unit, through=False)
        return Read(*plain, read.own)

    def settle(self, read: Read, result: RunResult) -> RunResult:
        """A run with no plan gets the places to look first (``RunResult.suspects``:
        :mod:`knowledge.hddl.diagnosis` reads its deepest failure against the problem's
        relaxed reachability).  A search that ended without a plan because recursion or
        repeat cuts left it incomplete may still be on a problem with none: when relaxed
        reachability (:mod:`knowledge.hddl.reachability`) proves the initial task network
        can never be accomplished, the answer is "no plan exists" with that reason.  (A
        search without the recursion cut, bounded, was tried as a second proof and settled
        none of the tune set's 11 such runs: a cut recursion comes back to the same state
        with more tasks left, and without the cut it never ends.)  The analysis
        runs for at most :data:`SETTLE_SECONDS` (a larger grounding proves nothing and
        leaves the result as it was), and nothing runs after a budget stopped the run."""
        import time

        from engine.tofs import Status

        from .diagnosis import diagnose
        from .reachability import Reachability, Unfinished, analyse

        if result.found:
            return result
        domain, problem = read.own
        facts: Reachability | None = None
        if result.complete or result.status in _SETTLED:
            try:
                facts = analyse(domain, problem, deadline=time.perf_counter() + SETTLE_SECONDS)
            except Unfinished:
                facts = None
        if facts is not None and not result.complete:
            reason = facts.unsolvable()
            if reason is not None:
                result.status = Status.NO_PLAN
                result.proof = f"proven by relaxed reachability: {reason}"
        looped = result.status == Status.INCOMPLETE
        result.suspects = diagnose(
            domain, problem, result.failure, result.suspects, facts, looped=looped
        )
        return result

    def prove_forced(self, read: Read, choice: Any, allowed: list[Any]) -> str | None:
        """No plan below a forced method when relaxed reachability over its own steps,
        from the choice point's state, shows a step that none of the allowed bindings can
        get done (:mod:`.forced_proof`); an alternative whose precondition already failed
        in that state needs no proof.  At most :data:`SETTLE_SECONDS`."""
        from engine.tofs import Reason

        from .forced_proof import forced_impossible

        if choice.state is None or not allowed or len({a.method for a in allowed}) != 1:
            return None
        failed = (Reason.PRECONDITION_FAILED, Reason.NO_BINDING)
        live = [a for a in allowed if a.reason not in failed]
        if not live:  # the search shows that itself, completely
            return None
        domain, problem = read.own
        proof: str | None = forced_impossible(
            domain,
            problem,
            choice.state,
            [str(v) for v in _task_args(choice)],
            allowed[0].method,
            [{k: str(v) for k, v in a.bindings} for a in live],
            seconds=SETTLE_SECONDS,
        )
        return proof

    # -------------------------------------------------------------- plan flags

    def add_plan_arguments(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(
            "files",
            nargs="*",
            metavar="PROBLEM_FILE",
            help="the problem file (workbench plan hddl DOMAIN.hddl PROBLEM.hddl), or the "
            "name of a problem stored with the domain (workbench plan hddl DOMAIN PROBLEM)",
        )
        parser.add_argument(
            "--ipc",
            action="store_true",
            help="print the plan in the IPC 2020 hierarchical track's format",
        )

    def plan_options(self, args: argparse.Namespace) -> dict[str, Any]:
        return {"files": tuple(args.files), "ipc": bool(args.ipc)}

    def output_name(self, options: Mapping[str, Any]) -> str | None:
        return "ipc" if options.get("ipc") else None

    def repairs(self, outcome: PlanOutcome) -> Any:
        """``--repair``: :func:`knowledge.hddl.repair.repair_outcome`."""
        from .repair import repair_outcome

        return repair_outcome(outcome)

    # -------------------------------------------------------------- words and facts

    def phrasing(self, domain: EngineDomain) -> Phrasing:
        return hddl_phrasing(domain)

    def facts(self, outcome: PlanOutcome) -> dict[str, Any]:
        """What a knowledge test on a stored HDDL domain can check: every run's facts,
        ``outcome`` in the words every package uses (``plan``, ``plan, not proven best``,
        ``no plan exists``, ``gave up``), the ``plan`` as HDDL calls and its number of
        ``steps``."""
        from .decomposition import call_text

        tree = _tree(outcome)
        plan = [call_text(a.name, a.args) for a in tree.actions] if tree is not None else []
        return {"outcome": str(outcome.result.outcome), "plan": plan, "steps": len(plan)}

    # -------------------------------------------------------------- outputs

    def text(self, outcome: PlanOutcome) -> str:
        from engine.tofs.render import render_text

        request, result = outcome.request, outcome.result
        text = render_text(
            result, explain=request.explain, explanation=outcome.explanation, tree=request.tree
        )
        loops = result.stats.get("repeats_pruned", 0)
        if loops:
            text += (
                f"\n{loops} step(s) pruned as loops: each reached the same state with the same "
                "tasks left as a step above it, which can do whatever it could."
            )
        shortest = shortest_text(outcome)
        if shortest:
            text += "\n" + shortest
        if outcome.why_not:
            text += "\n\n" + "\n".join(outcome.why_not)
        if outcome.repair is not None:
            text += "\n\n" + "\n".join(outcome.repair.lines())
        # The first line (the engine's) names the domain, the problem and the outcome in
        # the words every package uses; nothing is said before it.
        return text

    def json_data(self, outcome: PlanOutcome) -> dict[str, Any]:
        result = outcome.result
        domain, problem = outcome.read.own
        tree = _tree(outcome)
        data: dict[str, Any] = {
            "domain": domain.name,
            "problem": problem.name,
            "solved": result.found,
            "status": status_word(result),
            "outcome": str(result.outcome),
            "mode": outcome.options.mode,
            "plan": [
                {"id": a.id, "action": a.name, "args": list(a.args)}
                for a in (tree.actions if tree is not None else ())
            ],
            **(tree.as_json() if tree is not None else {"root": [], "decomposition": []}),
            "nodes": result.nodes,
            "seconds": round(result.seconds, 6),
            "stats": result.stats,
            "options": outcome.settings(),
        }
        data |= result.failure_dict()
        if result.proof is not None:  # no plan, proven by the domain's analysis (settle)
            data["proof"] = result.proof
        if outcome.options.mode == "optimise":
            data["actions"] = len(data["plan"]) if result.found else None
            data["proven_shortest"] = proven_shortest(result)
        if outcome.explanation is not None:
            from engine.tofs.render import explanation_dict

            data["explanation"] = explanation_dict(outcome.explanation)
        if "why_not" in outcome.notes:  # --why-not: each answer side by side, as data
            data["why_not"] = outcome.notes["why_not"]
        if outcome.repair is not None:
            data["repairs"] = [r.as_json() for r in outcome.repair.repairs]
            data["repair"] = outcome.repair.as_json()
        return data

    def output_formats(self) -> Mapping[str, Callable[[PlanOutcome], str]]:
        return {"ipc": ipc_output}


# How long settling a search that gave up may analyse the problem (seconds): the IPC
# problems the planner solves are analysed in well under this (benchmarks/reachability.py).
SETTLE_SECONDS = 2.0
# The stops after which a proof is worth looking for (not a cancel or an interrupt: the
# user asked for it to stop; not the memory budget: the analysis needs memory too).
# Only a search that ended on its own, cut by recursion or repeat pruning: a budget stop is
# the user's "no further", and a proof after it would run past the budget.
_SETTLED = frozenset(("incomplete",))


def _task_args(choice: Any) -> tuple[Any, ...]:
    """The arguments of the task at a choice point: the first of its task list."""
    args: tuple[Any, ...] = choice.tasks[0][1] if choice.tasks else ()
    return args


def package() -> KnowledgePackage:
    return HddlPackage()


def hddl_phrasing(domain: Any) -> Phrasing:
    """HDDL's alternatives are methods; the rest is the engine's plain wording."""
    from engine.tofs.explanation import Phrasing

    return Phrasing(alternatives=("method", "methods"))


def _files(request: PlanRequest) -> tuple[str, ...]:
    files: tuple[str, ...] = tuple(request.options.get("files", ()))
    return files


def _names_a_file(arg: str) -> bool:
    return arg.lower().endswith(".hddl") or "/" in arg or "\\" in arg


def status_word(result: RunResult) -> str:
    """``solved``, ``unsolvable`` (the whole tree was searched) or ``gave up``: the JSON's
    ``status``, kept for the scripts that read it; ``outcome`` is what every package says."""
    from engine.tofs import Outcome

    if result.found:
        return "solved"
    return "unsolvable" if result.outcome is Outcome.NO_PLAN else "gave up"


def proven_shortest(result: RunResult) -> bool:
    """An optimising run's plan is proven shortest only when the whole tree was searched
    (branch and bound prunes only what cannot be shorter; a budget or pruned recursion
    leaves the rest unknown)."""
    from engine.tofs import Outcome

    return result.outcome is Outcome.PLAN


def shortest_text(outcome: PlanOutcome) -> str:
    """Optimising: the plan's length, and whether it was proven shortest."""
    result = outcome.result
    if outcome.options.mode != "optimise" or not result.found:
        return ""
    actions = len(result.plan)
    if proven_shortest(result):
        return f"{actions} action(s): proven shortest (the whole tree was searched)."
    return (
        f"{actions} action(s): the shortest found, not proven shortest (the {result.outcome_text})."
    )


def _tree(outcome: PlanOutcome) -> Any:
    """The plan's decomposition tree (None without a plan), worked out once."""
    if "tree" not in outcome.notes:
        from .decomposition import decomposition_tree

        result = outcome.result
        outcome.notes["tree"] = (
            decomposition_tree(result, outcome.problem.tasks) if result.found else None
        )
    return outcome.notes["tree"]


def ipc_output(outcome: PlanOutcome) -> str:
    """The plan in the IPC 2020 hierarchical track's format (a comment line without one)."""
    from .decomposition import ipc_text

    tree = _tree(outcome)
    if tree is None:
        result = outcome.result
        return f"; {result.outcome_text}"
    text: str = ipc_text(tree)
    return text


@dataclass
class HddlRun:
    """One problem planned: the files as read, as compiled, and the result."""

    domain: Domain
    problem: Problem
    engine_domain: EngineDomain
    engine_problem: EngineProblem
    options: Any
    result: RunResult


def read_files(domain_path: str, problem_path: str) -> tuple[Domain, Problem]:
    """Both files, or :class:`~knowledge.hddl.HddlError` saying where they are wrong."""
    from . import read_domain, read_problem

    domain = read_domain(domain_path)
    return domain, read_problem(problem_path, domain)


def read_stored(spec: DomainSpec, name: str, text: str | None) -> tuple[Domain, Problem]:
    """A stored domain (re-read from its HDDL text) and its stored problem ``name``."""
    from . import parse_problem
    from .planning import HddlPlanError
    from .stored import spec_to_domain, stored_path

    domain = spec_to_domain(spec)
    if text is None:
        raise HddlPlanError(
            f"no problem '{name}' is stored with HDDL domain '{spec.name}'; import it with: "
            "workbench kb import DOMAIN.hddl PROBLEM.hddl"
        )
    return domain, parse_problem(text, domain, stored_path(f"{spec.name}/{name}"))


def read_request(request: PlanRequest) -> tuple[Domain, Problem]:
    """The domain and problem a request names: from the store when it carries the stored
    domain (``spec``), else the files ``problem`` (the domain) and the one problem file."""
    from .planning import HddlPlanError

    files = _files(request)
    if request.spec is not None:
        # The CLI gives the names as DOMAIN PROBLEM; a knowledge test, the problem alone.
        name = files[0] if files else request.problem
        return read_stored(request.spec, name, request.problem_text)
    if len(files) != 1:
        raise HddlPlanError(
            "hddl plans a domain file and a problem file, or a domain and a problem from the "
            "store: workbench plan hddl DOMAIN.hddl PROBLEM.hddl, or "
            "workbench plan hddl DOMAIN PROBLEM"
        )
    return read_files(request.problem, files[0])


def run_files(
    domain_path: str,
    problem_path: str,
    *,
    time_budget: float | None = None,
    node_budget: int | None = None,
    force: dict[str, str] | None = None,
) -> HddlRun:
    """Read, compile and plan; raises ``HddlError``/``BadInput`` for bad input."""
    domain, problem = read_files(domain_path, problem_path)
    return run_models(
        domain, problem, time_budget=time_budget, node_budget=node_budget, force=force
    )


def run_models(
    domain: Domain,
    problem: Problem,
    *,
    mode: str | None = None,
    through: bool = True,
    **settings: Any,
) -> HddlRun:
    """Compile and plan a domain and problem as read, through
    :func:`knowledge.pipeline.run_plan` (``settings``: :class:`~knowledge.PlanRequest`
    fields -- budgets, ``force``, ``deepening``, ``full_tree``, ...); ``through``: as
    :func:`~.planning.compile_problem` has it."""
    from .planning import compile_problem

    engine_domain, engine_problem = compile_problem(
        domain, problem, unit_costs=mode == "optimise", through=through
    )
    request = PlanRequest(problem=problem.name, mode=mode, **settings)
    read = Read(engine_domain, engine_problem, (domain, problem))
    outcome = run_plan(HddlPackage(), request, read)
    return HddlRun(domain, problem, engine_domain, engine_problem, outcome.options, outcome.result)
