"""Plan a design and report it: the shop-floor plan, the error, JSON, explanations.

Nodes are reported as the dissertation counted them: the nodes of the final tree plus one
(convention 13), so that ``--full-tree`` reproduces Figure 7.2.  Every mode stops at the
first task no method can do (the design is unmanufacturable), as the dissertation did; the
critique then names every such feature.  Planning is :func:`knowledge.pipeline.run_plan`'s,
as for every package; :class:`EdapsPackage` reads designs and says the run in the shop's
words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from engine.tofs import Domain, Outcome, Problem, RunResult
from knowledge import KnowledgePackage, PackageError, PlanOutcome, PlanRequest, Read, run_plan

from .critique import Diagnostic, critique, error_text
from .critique import findings as critique_findings
from .design import Design
from .echo import echo_text
from .output import render_plan, steps_of
from .parser import DesignError, InputProblem, load_design, parse_design
from .phrasing import minutes, phrasing
from .shop import edaps_problem, registry

if TYPE_CHECKING:  # the explanation's modules load only when a run is explained
    from engine.tofs.explanation import Explanation, Phrasing

__all__ = [
    "EdapsPackage",
    "EdapsRun",
    "edaps_run",
    "plan_design",
    "problem_from_name",
    "resolve_design",
]

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
        level = ""
        if explain:  # the explanation's modules load only when a run is explained
            from engine.tofs.render import explain_level

            level = explain_level(explain)
        parts = []
        if self.design.echo:
            parts.append(echo_text(self.design))
        if self.manufacturable:
            parts.append(render_plan(self.result, self.nodes, self.seconds))
            if self.result.outcome is Outcome.PLAN_UNPROVEN or self.result.mode == "first":
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
            from engine.tofs.render import explanation_text, reader_text

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
            from engine.tofs.render import explanation_dict

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
    node_budget: int | None = None,
    time_budget: float | None = None,
    force: dict[str, str] | None = None,
    explain: bool | str = False,
    mode: str | None = None,
    **budgets: Any,
) -> EdapsRun:
    """Plan one design already read, through :func:`knowledge.pipeline.run_plan`.
    ``prune`` and the design's own ``N`` command must both allow the partial plan pruner.
    ``force`` ({task: alternative}) re-plans with the alternative taken at the first such
    choice point of the plan (why not?) and says how the forced plan compares; ``explain``
    explains every choice point (re-planning lower-valued alternatives to find where their
    cost goes).  ``budgets``: more :class:`~knowledge.PlanRequest` fields (memory budget,
    start, cancel, progress)."""
    request = PlanRequest(
        problem=design.name,
        mode=mode,
        full_tree=full_tree,
        prune=prune,
        node_budget=node_budget,
        time_budget=time_budget,
        force=force,
        explain=explain,
        **budgets,
    )
    read = Read(domain, edaps_problem(domain, design), design)
    return edaps_run(run_plan(EdapsPackage(), request, read))


def edaps_run(outcome: PlanOutcome) -> EdapsRun:
    """The run in the shop's terms (worked out once per outcome): the critique of what
    cannot be made is computed only once the search has proved it."""
    run: EdapsRun | None = outcome.notes.get("edaps")
    if run is None:
        result = outcome.result
        diagnostics = (
            critique(outcome.domain, outcome.problem) if result.outcome is Outcome.NO_PLAN else []
        )
        run = EdapsRun(
            outcome.read.own,
            result,
            diagnostics,
            outcome.seconds,
            outcome.explanation,
            outcome.why_not or None,
        )
        outcome.notes["edaps"] = run
    return run


class EdapsPackage(KnowledgePackage):
    """EDAPS: a design (by name from ``designs/``, a path, or the store's text) planned for
    the shortest lead time -- or, with ``--mode first``, the first manufacturable plan."""

    name = "edaps"
    description = "Process plans for microwave modules: EDAPS (Smith 1997, Ch. 6-7)."
    problem_kind = "edaps-design"
    reads_stored_problems = True
    refused_modes: ClassVar[Mapping[str, str]] = {
        "game": "an EDAPS design has no opponents: it is planned for the shortest lead time "
        "(optimise) or its first manufacturable plan (first)"
    }
    input_errors = (DesignError,)

    def __init__(self) -> None:
        super().__init__()
        names = sorted(p.stem for p in DESIGNS.glob("*.txt"))
        self.sources = {"edaps": Path(__file__).parent / "edaps.toml"}
        self.registries = {"edaps": registry}
        self.problems = {n: problem_from_name(n) for n in names}
        self.problem_domain = dict.fromkeys(names, "edaps")
        self.problem_descriptions = {n: f"design file designs/{n}.txt" for n in names}
        self.problem_files = {n: DESIGNS / f"{n}.txt" for n in names}

    def problem_from_text(self, domain: Domain, name: str, text: str) -> Problem:
        return problem_from_text(domain, name, text)

    def read(self, request: PlanRequest) -> Read:
        """A design by name (any case), from a file, or from the store's text."""
        text = request.problem_text
        name = request.problem
        known = {n.lower() for n in self.problems}
        if text is None and not Path(name).exists() and Path(name).stem.lower() not in known:
            raise PackageError(
                f"package 'edaps' has no problem '{name}', and no design file of that name "
                f"exists; problems: {', '.join(sorted(self.problems))}"
            )
        design = (
            resolve_design(request.problem)
            if text is None
            else parse_design(text, path=request.problem, name=Path(request.problem).stem)
        )
        domain = self.domain("edaps", request.spec)
        return Read(domain, edaps_problem(domain, design), design)

    def phrasing(self, domain: Domain) -> Phrasing:
        return phrasing(domain)

    def findings(self, domain: Domain, problem: Problem, result: RunResult) -> list[str]:
        return critique_findings(domain, problem, result)

    def facts(self, outcome: PlanOutcome) -> dict[str, Any]:
        """What a knowledge test can check about a design's plan."""
        run = edaps_run(outcome)
        return {
            "manufacturable": run.verdict,
            "lead_time": run.setup_time + run.run_time if run.manufacturable else None,
            "setup_time": run.setup_time if run.manufacturable else None,
            "run_time": run.run_time if run.manufacturable else None,
            "nodes": run.nodes,
            "unmanufacturable_at": [f"({d.x:.2f}, {d.y:.2f})" for d in run.diagnostics],
            "unmanufacturable_count": len(run.diagnostics),
        }

    def text(self, outcome: PlanOutcome) -> str:
        return edaps_run(outcome).text(explain=outcome.request.explain)

    def figure(self, outcome: PlanOutcome) -> str | None:
        """The lead time (setup and run), what a process engineer plans a design for; for
        a design proven unmanufacturable, how many features cannot be made."""
        run = edaps_run(outcome)
        if run.manufacturable:
            return (
                f"lead time {minutes(run.setup_time + run.run_time)} "
                f"(setup {run.setup_time:.2f} + run {run.run_time:.2f})"
            )
        if run.verdict is False and run.diagnostics:
            n = len(run.diagnostics)
            return f"{n} feature{'s' if n != 1 else ''} cannot be made"
        return None

    def inputs(self) -> str:
        return (
            f"a design name ({', '.join(sorted(self.problems))}) or a design file in the "
            "planner input language"
        )

    def json_data(self, outcome: PlanOutcome) -> dict[str, Any]:
        data = edaps_run(outcome).to_dict(explain=outcome.request.explain)
        data["options"] = outcome.settings()
        return data
