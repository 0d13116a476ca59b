"""The independent check of an HTN plan in the IPC 2020 format, for the tests and the
benchmarks: :mod:`knowledge.hddl.validation` (unified-planning underneath; it imports
nothing else of the workbench, which ``tests/test_hddl_validation.py`` checks).  It lived
here until ``plan hddl --repair`` needed it in the product."""

from __future__ import annotations

from knowledge.hddl.validation import (
    IpcPlan,
    PlanFormatError,
    Step,
    parse_ipc_plan,
    read_up_problem,
    validate_plan,
    validate_plan_text,
)

__all__ = [
    "IpcPlan",
    "PlanFormatError",
    "Step",
    "parse_ipc_plan",
    "read_up_problem",
    "validate_plan",
    "validate_plan_text",
]
