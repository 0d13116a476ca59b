"""Plan a design and report it: the shop-floor plan, the error, JSON, explanations.

Nodes are reported as the dissertation counted them: the nodes of the final tree plus one
(convention 13), so that ``--full-tree`` reproduces Figure 7.2.  Every mode stops at the
first task no method can do (the design is unmanufacturable), as the dissertation did; the
critique then names every such feature.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.tofs import Domain, Outcome, Problem, RunResult, SearchOptions, plan
from engine.tofs.explanation import Explanation
from engine.tofs.render import explain_level, explanation_dict, explanation_text, reader_text
from knowledge import (
    EXIT_BAD_INPUT,
    InputStopped,
    KnowledgePackage,
    PlanReport,
    PlanRequest,
    budget_options,
    exit_status,
    explain_run,
    read_within_budgets,
    result_facts,
    why_not,
)

from .critique import Diagnostic, critique, error_text
from .design import Design
from .echo import echo_text
from .output import render_plan, steps_of
from .parser import DesignError, InputProblem, load_design, parse_design
from .phrasing import phrasing
from .shop import edaps_problem

__all__ = ["EdapsRun", "plan_design", "plan_request", "problem_from_name", "resolve_design"]

DESIGNS = Path(__file__).parent / "designs"


def resolve_design(name_or_path: str) -> Design:
    """A design by name (``RM1``, case-insensitive) from ``designs/``, or from a path."""
    path = Path(name_or_path)
    if not path.exists():
        by_name = {p.stem.lower(): p for p in DESIGNS.glob("*.txt")}
        key = path.stem.lower() if path.suffix == ".txt" else name_or_path.lower()
        if key in by_name and path.parent == Path("."):
            path = by_name[key]
        else:
            names = ", ".join(sorted(p.stem for p in by_name.values()))
            raise DesignError(
                [
                    InputProblem(
                        name_or_path,
                        0,
                        0,
                        f"no such design file, and package 'edaps' has no design of that "
                        f"name; problems: {names}",
                    )
                ]
            )
    return load_design(path)


def problem_from_text(domain: Domain, name: str, text: str) -> Problem:
    """A problem from a design's stored text (the knowledge store keeps design files)."""
    return edaps_problem(domain, parse_design(text, path=name, name=name))


def problem_from_name(name: str) -> Callable[[Domain], Problem]:
    def build(domain: Domain) -> Problem:
        return edaps_problem(domain, resolve_design(name))

    return build


@dataclass
class EdapsRun:
    """A planned design: the engine's result, the critique, and the published counts."""

    design: Design
    result: RunResult
    diagnostics: list[Diagnostic]
    seconds: float
    explanation: Explanation | None = None
    why_not: list[str] | None = None  # --why-not: the contrast with the chosen plan

    @property
    def manufacturable(self) -> bool:
        return self.result.found

    @property
    def verdict(self) -> bool | None:
        """Can the design be made: True, False (the whole tree was searched), or None when
        a budget stopped the search before any plan -- then nobody knows yet."""
        if self.result.found:
            return True
        return False if self.result.outcome is Outcome.NO_PLAN else None

    @property
    def nodes(self) -> int:
        """Nodes as the dissertation counted them (convention 13)."""
        return self.result.tree_nodes + 1

    @property
    def setup_time(self) -> float:
        return sum(s.costs.get("setup", 0.0) for s in self.result.plan)

    @property
    def run_time(self) -> float:
        return sum(s.costs.get("run", 0.0) for s in self.result.plan)

    def text(self, explain: bool | str = False) -> str:
        """The echo, the shop-floor plan (or the error), and with ``explain`` the reader's
        view of the explanation ("full": the audit of every choice point)."""
        level = explain_level(explain)
        parts = []
        if self.design.echo:
            parts.append(echo_text(self.design))
        if self.manufacturable:
            parts.append(render_plan(self.result, self.nodes, self.seconds))
            if self.result.outcome is Outcome.PLAN_UNPROVEN:
                parts.append(f"Note: this is the {self.result.outcome_text}.")
        else:
            if self.verdict is None:
                parts.append(
                    f"The search {self.result.outcome_text}: whether {self.design.name} can "
                    "be made is not known. Raise the budget, or plan without one."
                )
            else:
                parts.append(error_text(self.diagnostics))
            parts.append(f"Total planning time: {self.seconds:.3f} seconds.")
            parts.append(f"Total nodes: {self.nodes}.")
        if level and self.explanation is not None:
            said = reader_text if level == "reader" else explanation_text
            parts += ["", *said(self.explanation)]
        if self.why_not:
            parts += ["", *self.why_not]
        return "\n".join(parts)

    def to_dict(self, explain: bool | str = False) -> dict[str, Any]:
        lead = self.setup_time + self.run_time if self.manufacturable else None
        data: dict[str, Any] = {
            "design": self.design.name,
            "manufacturable": self.verdict,
            "lead_time": round(lead, 6) if lead is not None else None,
            "setup_time": round(self.setup_time, 6) if self.manufacturable else None,
            "run_time": round(self.run_time, 6) if self.manufacturable else None,
            "operations": [
                {
                    "operator": s.operator,
                    "args": list(s.args),
                    "setup": s.setup,
                    "run": s.run,
                    "work_center": s.work_center,
                    "description": s.description,
                }
                for s in steps_of(self.result)
            ],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "nodes": self.nodes,
            "seconds": self.seconds,
            "status": str(self.result.status),
            "outcome": str(self.result.outcome),
            "outcome_text": self.result.outcome_text,
        }
        if explain and self.explanation is not None:
            data["explanation"] = explanation_dict(self.explanation)
        full = self.result.to_dict()["choice_points"]
        data["choice_points"] = (
            full
            if explain
            else [
                {
                    "task": c["task"],
                    "alternatives": [
                        {k: a[k] for k in ("label", "value", "reason", "chosen")}
                        for a in c["alternatives"]
                    ],
                }
                for c in full
            ]
        )
        return data


def plan_design(
    domain: Domain,
    design: Design,
    *,
    full_tree: bool = False,
    prune: bool = True,
    transpositions: bool = True,
    node_budget: int | None = None,
    time_budget: float | None = None,
    force: dict[str, str] | None = None,
    explain: bool | str = False,
    **budgets: Any,
) -> EdapsRun:
    """Plan one design.  ``prune`` and the design's own ``N`` command must both allow the
    partial plan pruner.  ``force`` ({task: alternative}) re-plans with the alternative
    taken at the first such choice point of the plan (why not?) and says how the forced
    plan compares; ``explain`` explains every choice point (re-planning lower-valued
    alternatives to find where their cost goes).  ``budgets``: more ``SearchOptions``
    fields, as :func:`knowledge.budget_options` gives them (memory budget, start, cancel,
    progress)."""
    problem = edaps_problem(domain, design)
    options = SearchOptions(
        **{
            **problem.options,
            "mode": "optimise",
            "full_tree": full_tree,
            "partial_plan_prune": prune and problem.options["partial_plan_prune"],
            "transpositions": transpositions,
            **budgets,
            "node_budget": node_budget,
            "time_budget": time_budget,
        }
    )
    t0 = time.perf_counter()
    said = None
    if force:
        result, said = why_not(domain, problem, options, force, phrasing(domain))
    else:
        result = plan(domain, problem, options)
    seconds = time.perf_counter() - t0
    # The critique says what cannot be made: only once the search has proved it.
    diagnostics = critique(domain, problem) if result.outcome is Outcome.NO_PLAN else []
    explanation = None
    if explain and not force:
        explanation = explain_run(
            result,
            domain,
            problem,
            options,
            phrasing(domain),
            findings=[d.advice() for d in diagnostics],
        )
    return EdapsRun(design, result, diagnostics, seconds, explanation, said)


def _run_request(pkg: KnowledgePackage, request: PlanRequest) -> EdapsRun:
    if request.deepening is not None:
        raise ValueError(
            "--deepening is for first-plan search; EDAPS looks for the best process plan"
        )
    text = request.problem_text
    design = read_within_budgets(
        request,
        lambda: (
            resolve_design(request.problem)
            if text is None
            else parse_design(text, path=request.problem, name=Path(request.problem).stem)
        ),
    )
    domain = pkg.domain("edaps", request.spec)
    return plan_design(
        domain,
        design,
        full_tree=request.full_tree,
        prune=request.prune,
        force=request.force,
        explain=request.explain,
        **budget_options(request),
    )


def design_facts(pkg: KnowledgePackage, request: PlanRequest) -> dict[str, Any]:
    """What a knowledge test can check about a design's plan."""
    run = _run_request(pkg, request)
    facts = result_facts(run.result)
    facts.update(
        {
            "manufacturable": run.verdict,
            "lead_time": run.setup_time + run.run_time if run.manufacturable else None,
            "setup_time": run.setup_time if run.manufacturable else None,
            "run_time": run.run_time if run.manufacturable else None,
            "nodes": run.nodes,
            "unmanufacturable_at": [f"({d.x:.2f}, {d.y:.2f})" for d in run.diagnostics],
            "unmanufacturable_count": len(run.diagnostics),
        }
    )
    return facts


def plan_request(pkg: KnowledgePackage, request: PlanRequest) -> PlanReport:
    from engine.tofs import DomainError, EvaluationError, SourceError

    try:
        run = _run_request(pkg, request)
    except (DesignError, SourceError, DomainError, EvaluationError, ValueError) as exc:
        return PlanReport(f"error: {exc}", EXIT_BAD_INPUT)
    except InputStopped as stopped:
        return stopped.report(request)
    status = exit_status(run.result)
    if request.json:
        data = run.to_dict(explain=request.explain)
        return PlanReport(json.dumps(data, indent=2), status, data)
    return PlanReport(run.text(explain=request.explain), status)
