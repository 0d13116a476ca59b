"""The ``hddl`` knowledge package: any total-order HDDL domain, planned with no Python of its
own.

``workbench plan hddl DOMAIN.hddl PROBLEM.hddl`` reads both files, compiles them
(:mod:`knowledge.hddl.planning`) and plans depth-first in first-plan mode -- methods in the
order written, loops on the path pruned -- within the given budgets.  Its answer is one of
three, said plainly: ``solved`` (with a plan that was completed), ``unsolvable`` (the whole
tree was searched) or ``gave up`` (a budget stopped it first).

``workbench plan hddl DOMAIN PROBLEM`` with names rather than files plans a domain and a
problem imported into the knowledge store (``workbench kb import DOMAIN.hddl PROBLEM.hddl``;
:mod:`knowledge.hddl.stored`): the domain is re-read from its stored HDDL text.  The store's
generic commands import, export, validate and lint HDDL through the package's
:data:`~knowledge.hddl.stored.FORMAT`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from knowledge import (
    EXIT_BAD_INPUT,
    InputStopped,
    KnowledgePackage,
    PlanReport,
    PlanRequest,
    exit_status,
    explain_run,
)

# Light: the engine loads only when a stored domain is read or checked.
from .stored import FORMAT, PROBLEM_KIND

if TYPE_CHECKING:
    from engine.tofs import Domain as EngineDomain
    from engine.tofs import DomainSpec, RunResult
    from engine.tofs import Problem as EngineProblem

    from .model import Domain, Problem

__all__ = [
    "HddlRun",
    "hddl_facts",
    "package",
    "plan_files",
    "read_request",
    "read_stored",
    "run_files",
    "run_request",
    "status_word",
    "store_key",
]

DESCRIPTION = "HTN domains in HDDL, the planning competition's language (plan DOMAIN PROBLEM)"


class HddlPackage(KnowledgePackage):
    """HDDL's domains are all imported: a problem is planned from the store, its domain
    re-read from its HDDL text and compiled together with it (the objects of a problem
    are what its variables range over)."""

    @property
    def reads_stored_problems(self) -> bool:
        return True

    def problem(
        self, name: str, spec: DomainSpec | None = None, text: str | None = None
    ) -> tuple[EngineDomain, EngineProblem]:
        from knowledge import PackageError

        from .planning import compile_problem

        if spec is None:
            raise PackageError(
                f"HDDL problem '{name}' is planned from the store (workbench kb import "
                "DOMAIN.hddl PROBLEM.hddl) or from files (workbench plan hddl DOMAIN.hddl "
                "PROBLEM.hddl)"
            )
        return compile_problem(*read_stored(spec, name, text))

    def domain_of(self, problem: str) -> str:
        from knowledge import PackageError

        raise PackageError(
            f"HDDL problem '{problem}': say which imported domain it belongs to "
            "(workbench plan hddl DOMAIN PROBLEM)"
        )


def package() -> KnowledgePackage:
    return HddlPackage(
        name="hddl",
        description=DESCRIPTION,
        sources={},
        registries={},
        problems={},
        problem_domain={},
        problem_kind=PROBLEM_KIND,
        planner=plan_files,
        store_key=store_key,
        facts=hddl_facts,
        formats=(FORMAT,),
        phrasing=hddl_phrasing,
    )


def hddl_phrasing(domain: Any) -> Any:
    """HDDL's alternatives are methods; the rest is the engine's plain wording."""
    from engine.tofs.explanation import Phrasing

    return Phrasing(alternatives=("method", "methods"))


def _names_a_file(arg: str) -> bool:
    return arg.lower().endswith(".hddl") or "/" in arg or "\\" in arg


def store_key(request: PlanRequest) -> tuple[str, str] | None:
    """``plan hddl DOMAIN PROBLEM``: the stored domain and problem of those names, or None
    when the two are files (both exist, or either looks like a path or ends in ``.hddl``)."""
    if len(request.files) != 1:
        return None  # plan_files says how to call it
    args = (request.problem, request.files[0])
    if all(Path(a).is_file() for a in args) or any(_names_a_file(a) for a in args):
        return None
    return args


def status_word(result: RunResult) -> str:
    """``solved``, ``unsolvable`` (the whole tree was searched) or ``gave up``."""
    from engine.tofs import Outcome

    if result.found:
        return "solved"
    return "unsolvable" if result.outcome is Outcome.NO_PLAN else "gave up"


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
    domain (``spec``), else the files ``problem`` (the domain) and ``files[0]``."""
    from .planning import HddlPlanError

    if request.spec is not None:
        # The CLI gives the names as DOMAIN PROBLEM; a knowledge test, the problem alone.
        name = request.files[0] if request.files else request.problem
        return read_stored(request.spec, name, request.problem_text)
    if len(request.files) != 1:
        raise HddlPlanError(
            "hddl plans a domain file and a problem file, or a domain and a problem from the "
            "store: workbench plan hddl DOMAIN.hddl PROBLEM.hddl, or "
            "workbench plan hddl DOMAIN PROBLEM"
        )
    return read_files(request.problem, request.files[0])


def run_request(request: PlanRequest) -> HddlRun:
    """Read, compile and plan a request; raises ``HddlError``/``HddlPlanError`` for bad
    input."""
    from knowledge import budget_options, read_within_budgets

    domain, problem = read_within_budgets(request, lambda: read_request(request))
    return run_models(
        domain,
        problem,
        force=request.force,
        deepening=request.deepening,
        **budget_options(request),
    )


def run_files(
    domain_path: str,
    problem_path: str,
    *,
    time_budget: float | None = None,
    node_budget: int | None = None,
    force: dict[str, str] | None = None,
) -> HddlRun:
    """Read, compile and plan; raises ``HddlError``/``HddlPlanError`` for bad input."""
    domain, problem = read_files(domain_path, problem_path)
    return run_models(
        domain, problem, time_budget=time_budget, node_budget=node_budget, force=force
    )


def run_models(
    domain: Domain,
    problem: Problem,
    *,
    time_budget: float | None = None,
    node_budget: int | None = None,
    force: dict[str, str] | None = None,
    deepening: int | None = None,
    **budgets: Any,
) -> HddlRun:
    """Compile and plan a domain and problem as read (``deepening``: see
    ``SearchOptions.deepening``; ``budgets``: more ``SearchOptions`` fields, as
    :func:`knowledge.budget_options` gives them -- memory budget, start, cancel, progress).
    """
    from engine.tofs import SearchOptions, plan
    from engine.tofs.why_not import plan_why_not

    from .planning import HddlPlanError, compile_problem

    engine_domain, engine_problem = compile_problem(domain, problem)
    options = SearchOptions(
        **{
            **engine_problem.options,
            "mode": engine_problem.mode,
            "deepening": deepening,
            **budgets,
            "time_budget": time_budget,
            "node_budget": node_budget,
        }
    )
    if force:
        try:
            result = plan_why_not(engine_domain, engine_problem, options, force)
        except ValueError as exc:  # no such choice point: it says which there are
            raise HddlPlanError(f"--why-not: {exc}") from exc
    else:
        result = plan(engine_domain, engine_problem, options)
    return HddlRun(domain, problem, engine_domain, engine_problem, options, result)


def plan_files(pkg: KnowledgePackage, request: PlanRequest) -> PlanReport:
    """``workbench plan hddl DOMAIN PROBLEM``: the plan as text, JSON or the IPC format."""
    from engine.tofs.render import render_text

    from .errors import HddlError
    from .planning import HddlPlanError

    try:
        run = run_request(request)
    except (HddlError, HddlPlanError) as exc:
        return PlanReport(f"error: {exc}", EXIT_BAD_INPUT)
    except InputStopped as stopped:
        return stopped.report(request)
    result = run.result
    word = status_word(result)
    status = exit_status(result)
    tree = None
    if result.found:
        from .decomposition import decomposition_tree

        tree = decomposition_tree(result, run.engine_problem.tasks)
    if request.ipc:
        from .decomposition import ipc_text

        if tree is None:
            return PlanReport(f"; {word}: no plan ({result.outcome_text})", status)
        return PlanReport(ipc_text(tree), status)
    explanation = None
    if request.explain and not request.force:
        explanation = explain_run(
            result,
            run.engine_domain,
            run.engine_problem,
            run.options,
            hddl_phrasing(run.engine_domain),
        )
    if request.json:
        data: dict[str, Any] = {
            "domain": run.domain.name,
            "problem": run.problem.name,
            "solved": result.found,
            "status": word,
            "outcome": str(result.outcome),
            "plan": [
                {"id": a.id, "action": a.name, "args": list(a.args)}
                for a in (tree.actions if tree is not None else ())
            ],
            **(tree.as_json() if tree is not None else {"root": [], "decomposition": []}),
            "nodes": result.nodes,
            "seconds": round(result.seconds, 6),
            "stats": result.stats,
            "failure": result.to_dict()["failure"],
        }
        if explanation is not None:
            from engine.tofs.render import explanation_dict

            data["explanation"] = explanation_dict(explanation)
        return PlanReport(json.dumps(data, indent=2, ensure_ascii=False), status, data)
    text = render_text(result, explain=request.explain, explanation=explanation, tree=request.tree)
    loops = result.stats.get("repeats_pruned", 0)
    if loops:
        text += (
            f"\n{loops} step(s) pruned as loops: each reached the same state with the same "
            "tasks left as a step above it, which can do whatever it could."
        )
    return PlanReport(f"{word}: {run.problem.name} ({run.domain.name})\n{text}", status)


def hddl_facts(pkg: KnowledgePackage, request: PlanRequest) -> dict[str, Any]:
    """What a knowledge test on a stored HDDL domain can check: every run's facts (found,
    status, nodes, ...), ``outcome`` (solved, unsolvable, gave up), the ``plan`` as HDDL
    calls and its number of ``steps``."""
    from knowledge import result_facts

    from .decomposition import call_text, decomposition_tree

    run = run_request(request)
    facts = result_facts(run.result)
    plan: list[str] = []
    if run.result.found:
        tree = decomposition_tree(run.result, run.engine_problem.tasks)
        plan = [call_text(a.name, a.args) for a in tree.actions]
    return facts | {"outcome": status_word(run.result), "plan": plan, "steps": len(plan)}
