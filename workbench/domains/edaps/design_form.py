"""The EDAPS design editor's logic, without Textual: check, summarise, plan.

The design screen validates as the user types, shows a form-like summary of what the text
describes, refuses to save text that does not parse and plans the edited text in a worker.
Each of those decisions lives here as a plain function, so it can be tested without an app
and the screen only decides *when* to call them and where the answers go.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.tofs import Domain, RunResult
from knowledge.edaps.design import Design
from knowledge.edaps.parser import DesignError, InputProblem, parse_design
from knowledge.edaps.report import EdapsRun

__all__ = [
    "DESIGN_KIND",
    "EDAPS",
    "NEW_DESIGN",
    "Checked",
    "DesignCounts",
    "check_design_text",
    "count_design",
    "edaps_run_of",
    "plan_design_text",
    "problem_label",
    "summary_rows",
]

EDAPS = "edaps"
"""The knowledge store's domain (and package) of microwave-module designs."""

DESIGN_KIND = "edaps-design"
"""The store's problem kind for a design held as input-language text."""

NEW_DESIGN = """\
D 4 6 1
B 0.25 1
G 0.015
R 0.0014
"""
"""A new design starts as the smallest text that parses: the four required commands
(board, bullseye, minimum gap, trace thickness), so the editor opens without errors."""


@dataclass(frozen=True)
class Checked:
    """The outcome of parsing the editor's text: a design, or every problem found."""

    design: Design | None
    problems: tuple[InputProblem, ...] = ()

    @property
    def ok(self) -> bool:
        return self.design is not None and not self.problems


def check_design_text(text: str, name: str | None) -> Checked:
    """Parse ``text`` as the design ``name``; never raises for bad input."""
    label = name or "new design"
    try:
        design = parse_design(text, path=label, name=name or "design")
    except DesignError as exc:
        return Checked(None, tuple(exc.problems))
    return Checked(design)


def problem_label(problem: InputProblem) -> str:
    """``line:column  message`` (the file name is the editor's own, so it is left out);
    a problem of the whole text (line 0) has no position."""
    if problem.line <= 0:
        return problem.message
    return f"{problem.line}:{problem.column}  {problem.message}"


@dataclass(frozen=True)
class DesignCounts:
    """How many of each item a design has: what a designer checks at a glance."""

    pths: int
    holes: int
    tapped: int
    counterbored: int
    milling: int
    components: int
    pins: int


def count_design(design: Design) -> DesignCounts:
    return DesignCounts(
        pths=len(design.pths),
        holes=len(design.holes),
        tapped=sum(h.tapped for h in design.holes),
        counterbored=sum(h.counterbore is not None for h in design.holes),
        milling=len(design.milling),
        components=len(design.components),
        pins=sum(len(c.pins) for c in design.components),
    )


def _length(value: float | None, unit: str = "in") -> str:
    return "—" if value is None else f"{value:g} {unit}"


def summary_rows(design: Design) -> list[tuple[str, str, str]]:
    """(key, label, value) rows of the form-like summary, in the order a designer reads
    a board: its size, then the items on it, then the planner switches."""
    n = count_design(design)
    if design.length is None or design.width is None or design.thickness is None:
        board = "—"
    else:
        board = f"{design.length:g} × {design.width:g} × {design.thickness:g} in"
    holes = f"{n.holes}"
    if n.tapped or n.counterbored:
        holes += f" ({n.tapped} tapped, {n.counterbored} counterbored)"
    return [
        ("board", "Board", board),
        ("pths", "Plated through-holes", str(n.pths)),
        ("holes", "Holes", holes),
        ("milling", "Milling features", str(n.milling)),
        ("components", "Components", str(n.components)),
        ("pins", "Pins", str(n.pins)),
        ("min_gap", "Minimum gap", _length(design.min_gap)),
        ("trace", "Trace thickness", _length(design.trace_thickness)),
        ("dielectric", "Dielectric", design.dielectric or "—"),
        (
            "switches",
            "Echo / pruner",
            f"{'on' if design.echo else 'off'} / {'on' if design.prune else 'off'}",
        ),
    ]


def _store_domain(db: Path | None) -> Domain:
    """The EDAPS domain compiled from the store's spec (opened and closed in the caller's
    thread, because SQLite connections cannot cross threads): the stored knowledge, not
    the bundled file, so an edit to the knowledge changes the plan."""
    from knowledge import get_package
    from workbench.kb.catalog import open_store

    store = open_store(db)
    try:
        spec = store.load(EDAPS)
    finally:
        store.close()
    return get_package(EDAPS).domain(EDAPS, spec)


def plan_design_text(db: Path | None, text: str, name: str) -> EdapsRun:
    """Plan the design ``text`` with the knowledge in the store (blocking: call it from a
    worker)."""
    from knowledge.edaps.report import plan_design

    design = parse_design(text, path=name, name=name)
    return plan_design(_store_domain(db), design)


def edaps_run_of(db: Path | None, text: str, name: str, result: RunResult) -> EdapsRun:
    """An :class:`EdapsRun` around a result the planning screen already has (blocking).

    The process plan needs only the result; the critique of an unmanufacturable design
    needs the domain and the design, so it is computed here, as ``plan_design`` would."""
    from knowledge.edaps.critique import critique
    from knowledge.edaps.shop import edaps_problem

    design = parse_design(text, path=name, name=name)
    diagnostics = []
    if not result.found:
        domain = _store_domain(db)
        diagnostics = critique(domain, edaps_problem(domain, design))
    return EdapsRun(design, result, diagnostics, result.seconds)
