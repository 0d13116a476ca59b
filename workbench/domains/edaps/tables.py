"""Rows of the EDAPS process-plan and critique tables, as plain data (no Textual).

The widgets only put these rows into a ``DataTable``; what a row says -- the work-center
format of Smith 1997 (Figures 7.20-7.33) or a diagnostic's what / where / requested /
achievable -- is decided here, so the wording and numbers are testable without an app and
agree with ``knowledge.edaps.output.render_plan`` line for line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engine.tofs import RunResult
from knowledge.edaps.critique import Diagnostic
from knowledge.edaps.output import group_plan
from knowledge.edaps.report import EdapsRun
from knowledge.edaps.single import f32

__all__ = [
    "DIAGNOSTIC_COLUMNS",
    "PLAN_COLUMNS",
    "STALE_NOTE",
    "DiagnosticRow",
    "PlanRow",
    "critique_header",
    "diagnostic_rows",
    "fmt_measure",
    "plan_header",
    "plan_rows",
    "where",
]

PLAN_COLUMNS: tuple[tuple[str, str], ...] = (
    ("opn", "Opn"),
    ("a", "A"),
    ("wc", "BC/WW"),
    ("setup", "Setup"),
    ("run", "Runtime"),
    ("ln", "LN"),
    ("description", "Description"),
)
"""(key, heading) of the plan table: the dissertation's column headings."""

STALE_NOTE = "(of an earlier text: ctrl+r plans the edited design)"
"""Prefixed to a plan or critique header once the design is edited after the run."""

RowKind = Literal["first", "line", "total", "grand"]


@dataclass(frozen=True)
class PlanRow:
    """One printed line of the plan.  ``kind``: the first line of a sub-operation (which
    carries its setup and run), a further line of it, an operation total, or 999 T."""

    key: str
    kind: RowKind
    opn: str
    letter: str
    work_center: str
    setup: float | None
    run: float | None
    ln: int
    description: str

    def cells(self) -> tuple[str, str, str, str, str, str, str]:
        """The row as the table shows it: blanks where the printed plan has blanks."""
        return (
            self.opn,
            self.letter,
            self.work_center,
            "" if self.setup is None else f"{self.setup:.2f}",
            "" if self.run is None else f"{self.run:.2f}",
            f"{self.ln:02d}",
            self.description,
        )


def plan_rows(result: RunResult) -> list[PlanRow]:
    """Every line of the plan in work-center format, totals included, in print order."""
    rows: list[PlanRow] = []
    setup_total = run_total = 0.0
    for op in group_plan(result):
        opn = f"{op.number:03d}"
        for sub in op.subs:
            for ln, step in enumerate(sub.steps, 1):
                key = f"{opn}{sub.letter}{ln:02d}"
                if ln == 1:
                    rows.append(
                        PlanRow(
                            key,
                            "first",
                            opn,
                            sub.letter,
                            op.work_center,
                            sub.setup,
                            sub.run,
                            ln,
                            step.description,
                        )
                    )
                else:
                    rows.append(PlanRow(key, "line", "", "", "", None, None, ln, step.description))
        rows.append(
            PlanRow(
                f"{opn}T",
                "total",
                opn,
                "T",
                op.work_center,
                op.setup,
                op.run,
                1,
                f"Total time on {op.work_center}",
            )
        )
        setup_total += op.setup
        run_total += op.run
    rows.append(
        PlanRow(
            "999T", "grand", "999", "T", "", setup_total, run_total, 1, "Total time to manufacture"
        )
    )
    return rows


def plan_header(run: EdapsRun) -> str:
    """The line above the plan: lead time and how it splits, and what the search cost."""
    name = run.design.name
    search = f"{run.nodes:,} nodes · {run.seconds:.3f} s"
    if run.verdict is None:
        return f"{name}: the search {run.result.outcome_text} · {search}"
    if not run.manufacturable:
        n = len(run.diagnostics)
        what = f"{n} unmanufacturable feature{'s' if n != 1 else ''}" if n else "no plan"
        return f"{name} cannot be made ({what}; see the Critique tab) · {search}"
    lead = run.setup_time + run.run_time
    return (
        f"{name}: lead time {lead:.2f} min = setup {run.setup_time:.2f} + "
        f"run {run.run_time:.2f} · {len(run.result.plan)} steps · {search}"
    )


DIAGNOSTIC_COLUMNS: tuple[tuple[str, str], ...] = (
    ("feature", "Feature"),
    ("what", "What"),
    ("where", "Where"),
    ("requested", "Requested"),
    ("achievable", "Achievable"),
    ("measure", "Measure"),
    ("line", "Line"),
)


def fmt_measure(value: float | None) -> str:
    """A tolerance or radius as a designer writes it: 1.5, 2.0, 0.075 (— for none)."""
    if value is None:
        return "—"
    text = f"{value:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def where(d: Diagnostic) -> str:
    """Absolute board coordinates, printed as the dissertation's message prints them."""
    return f"({f32(d.x):.2f}, {f32(d.y):.2f})"


@dataclass(frozen=True)
class DiagnosticRow:
    key: str
    diagnostic: Diagnostic

    def cells(self) -> tuple[str, str, str, str, str, str, str]:
        d = self.diagnostic
        return (
            d.feature,
            d.kind,
            where(d),
            fmt_measure(d.requested),
            fmt_measure(d.achievable),
            d.quantity,
            "" if d.line is None else str(d.line),
        )


def diagnostic_rows(diagnostics: list[Diagnostic]) -> list[DiagnosticRow]:
    """One row per diagnostic, keyed by position (a feature id may in principle repeat)."""
    return [DiagnosticRow(f"d{i}", d) for i, d in enumerate(diagnostics)]


def critique_header(run: EdapsRun) -> str:
    """The verdict above the critique table."""
    name = run.design.name
    if run.manufacturable:
        lead = run.setup_time + run.run_time
        return (
            f"{name} is manufacturable: lead time {lead:.2f} min "
            f"(setup {run.setup_time:.2f} + run {run.run_time:.2f}). Nothing to criticise."
        )
    if run.verdict is None:
        return (
            f"Whether {name} can be made is not known: the search {run.result.outcome_text}. "
            "Plan it again with a larger budget, or none."
        )
    n = len(run.diagnostics)
    if n == 0:
        return (
            f"{name} cannot be made, but no single hole or feature is at fault: "
            f"{run.result.outcome_text}."
        )
    return (
        f"{name} cannot be made: {n} feature{'s' if n != 1 else ''} no method can "
        "make. Highlight one to read why; enter shows its line in the design."
    )
