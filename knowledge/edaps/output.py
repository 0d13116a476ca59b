"""The process plan in the shop floor's standard format (Smith 1997, Figures 7.20-7.33).

Operations are numbered per run of one work center; within an operation, sub-operations
(A, B, ...) group a setup with the processes it prepares; each sub-operation line carries
its summed setup and run minutes.  The grouping is not uniform in the dissertation (pre-
cleaning and drying share a sub-operation, curing does not join its setup but reflowing
does), so each operator says how it joins: ``JOINS`` lists the operators that continue the
current sub-operation, ``JOINS_SAME`` those that continue it only after their own kind, and
every other operator starts a new one.  ``GenericSetup`` belongs to the work center of the
operation after it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.tofs import RunResult

__all__ = ["Operation", "SubOperation", "group_plan", "render_plan"]

JOINS = frozenset(
    {
        "ClampFor",
        "EstablishDatumPointFor",
        "RoughDrill",
        "FinishDrill",
        "Tap",
        "RoughEndMill",
        "FinishEndMill",
        "RoughSlotMill",
        "FinishSlotMill",
        "RoughSideMill",
        "FinishSideMill",
        "PlateResist",
        "DryBoard",
        "SpreadPhotoresist",
        "SpindlePhotoresist",
        "SprayPhotoresist",
        "PaintPhotoresist",
        "ArtworkLithography",
        "Etching",
        "PrecleanForSoldering",
        "ScreenprintSolderResist",
        "PutSolderPasteAtLocation",
        "ScreenprintSolderPaste",
        "ManualSolderPasteAtLocation",
        "SetupForAutomaticSolderPaste",
        "AutomaticSolderPasteAtLocation",
        "RunAutomaticSolderPaste",
        "AdherePart",
        "ManualPickAndPlacePart",
        "AutomaticPickAndPlacePart",
        "ReflowSoldering",
    }
)
JOINS_SAME = frozenset({"HandSolderPart"})

HEADER = (
    "All length units are in inches unless otherwise stated.\n"
    "All time units are minutes unless otherwise stated.\n"
    "Processes:\n"
    "Opn  A  BC/WW  Setup  Runtime  LN  Description"
)
INDENT = " " * 31


@dataclass
class Step:
    operator: str
    args: tuple[Any, ...]
    setup: float
    run: float
    description: str
    work_center: str


@dataclass
class SubOperation:
    letter: str
    steps: list[Step] = field(default_factory=list)

    @property
    def setup(self) -> float:
        return sum(s.setup for s in self.steps)

    @property
    def run(self) -> float:
        return sum(s.run for s in self.steps)


@dataclass
class Operation:
    number: int
    work_center: str
    subs: list[SubOperation] = field(default_factory=list)

    @property
    def setup(self) -> float:
        return sum(s.setup for s in self.subs)

    @property
    def run(self) -> float:
        return sum(s.run for s in self.subs)


def steps_of(result: RunResult) -> list[Step]:
    """Plan steps with work centers resolved (a GenericSetup takes its successor's)."""
    out: list[Step] = []
    following = ""
    for s in reversed(result.plan):
        wc = s.group or following
        following = wc
        out.append(
            Step(
                s.operator,
                s.args,
                s.costs.get("setup", 0.0),
                s.costs.get("run", 0.0),
                s.description,
                wc,
            )
        )
    out.reverse()
    return out


def group_plan(result: RunResult) -> list[Operation]:
    ops: list[Operation] = []
    previous = ""
    for step in steps_of(result):
        if not ops or ops[-1].work_center != step.work_center:
            ops.append(Operation(len(ops) + 1, step.work_center))
            previous = ""
        op = ops[-1]
        joins = step.operator in JOINS or (
            step.operator in JOINS_SAME and previous == step.operator
        )
        if not op.subs or not joins:
            op.subs.append(SubOperation(chr(ord("A") + len(op.subs))))
        op.subs[-1].steps.append(step)
        previous = step.operator
    return ops


def _line(opn: str, letter: str, wc: str, setup: float, run: float, ln: int, text: str) -> str:
    return f"{opn}  {letter}  {wc:<6s}{setup:6.2f}  {run:6.2f}   {ln:02d}  {text}"


def render_plan(result: RunResult, nodes: int, seconds: float) -> str:
    """The plan as the dissertation printed it, ending with planning time and nodes."""
    lines = [HEADER]
    setup_total = run_total = 0.0
    for op in group_plan(result):
        opn = f"{op.number:03d}"
        for sub in op.subs:
            first, *rest = sub.steps
            lines.append(
                _line(opn, sub.letter, op.work_center, sub.setup, sub.run, 1, first.description)
            )
            lines.extend(f"{INDENT}{n:02d}  {s.description}" for n, s in enumerate(rest, 2))
        lines.append(
            _line(opn, "T", op.work_center, op.setup, op.run, 1, f"Total time on {op.work_center}")
        )
        setup_total += op.setup
        run_total += op.run
    lines.append(_line("999", "T", "", setup_total, run_total, 1, "Total time to manufacture"))
    lines.append(f"Total planning time: {seconds:.3f} seconds.")
    lines.append(f"Total nodes: {nodes}.")
    lines.append("Bye!")
    return "\n".join(lines)
