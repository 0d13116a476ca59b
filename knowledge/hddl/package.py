"""The ``hddl`` knowledge package: any total-order HDDL domain, planned with no Python of its
own.

``workbench plan hddl DOMAIN.hddl PROBLEM.hddl`` reads both files, compiles them
(:mod:`knowledge.hddl.planning`) and plans depth-first in first-plan mode -- methods in the
order written, loops on the path pruned -- within the given budgets.  Its answer is one of
three, said plainly: ``solved`` (with a plan that was completed), ``unsolvable`` (the whole
tree was searched) or ``gave up`` (a budget stopped it first).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from knowledge import (
    EXIT_BAD_INPUT,
    EXIT_GAVE_UP,
    EXIT_NO_PLAN,
    EXIT_PLAN,
    KnowledgePackage,
    PlanReport,
    PlanRequest,
    explain_run,
)

if TYPE_CHECKING:
    from engine.tofs import Domain as EngineDomain
    from engine.tofs import Problem as EngineProblem
    from engine.tofs import RunResult

    from .model import Domain, Problem

__all__ = ["HddlRun", "package", "plan_files", "run_files", "status_word"]

DESCRIPTION = "HTN domains in HDDL, the planning competition's language (plan DOMAIN PROBLEM)"


def package() -> KnowledgePackage:
    return KnowledgePackage(
        name="hddl",
        description=DESCRIPTION,
        sources={},
        registries={},
        problems={},
        problem_domain={},
        problem_kind="files",
        planner=plan_files,
    )


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

    for path in (domain_path, problem_path):
        if not Path(path).is_file():
            from .errors import HddlError, Issue

            raise HddlError([Issue(path, 0, 0, "no such file")])
    domain = read_domain(domain_path)
    return domain, read_problem(problem_path, domain)


def run_files(
    domain_path: str,
    problem_path: str,
    *,
    time_budget: float | None = None,
    node_budget: int | None = None,
    force: dict[str, str] | None = None,
) -> HddlRun:
    """Read, compile and plan; raises ``HddlError``/``HddlPlanError`` for bad input."""
    from engine.tofs import SearchOptions, plan
    from engine.tofs.explain import plan_why_not

    from .planning import compile_problem

    domain, problem = read_files(domain_path, problem_path)
    engine_domain, engine_problem = compile_problem(domain, problem)
    options = SearchOptions(
        mode="first",
        prune_repeats=True,
        prune_recursion=True,
        record_failed_alternatives=True,
        time_budget=time_budget,
        node_budget=node_budget,
    )
    if force:
        result = plan_why_not(engine_domain, engine_problem, options, force)
    else:
        result = plan(engine_domain, engine_problem, options)
    return HddlRun(domain, problem, engine_domain, engine_problem, options, result)


def plan_files(pkg: KnowledgePackage, request: PlanRequest) -> PlanReport:
    """``workbench plan hddl DOMAIN PROBLEM``: the plan as text, JSON or the IPC format."""
    from engine.tofs.explain import render_text

    from .errors import HddlError
    from .planning import HddlPlanError

    if len(request.files) != 1:
        return PlanReport(
            "error: hddl plans a domain file and a problem file: "
            "workbench plan hddl DOMAIN.hddl PROBLEM.hddl",
            EXIT_BAD_INPUT,
        )
    try:
        run = run_files(
            request.problem,
            request.files[0],
            time_budget=request.time_budget,
            node_budget=request.node_budget,
            force=request.force,
        )
    except (HddlError, HddlPlanError) as exc:
        return PlanReport(f"error: {exc}", EXIT_BAD_INPUT)
    result = run.result
    word = status_word(result)
    status = {"solved": EXIT_PLAN, "unsolvable": EXIT_NO_PLAN}.get(word, EXIT_GAVE_UP)
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
        explanation = explain_run(result, run.engine_domain, run.engine_problem, run.options)
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
    text = render_text(result, explain=request.explain, explanation=explanation)
    loops = result.stats.get("repeats_pruned", 0)
    if loops:
        text += (
            f"\n{loops} step(s) pruned as loops: each reached the same state with the same "
            "tasks left as a step above it, which can do whatever it could."
        )
    return PlanReport(f"{word}: {run.problem.name} ({run.domain.name})\n{text}", status)
