"""Unit tests of the design editor's logic and the EDAPS table rows (no Textual app).

Golden numbers are the dissertation's (RM1: 642.33 = 319.70 + 322.63; RUM1: the hole at
(0.20, 2.40) asks 1.5 mils where 2.0 is the best); the plan rows are checked line for line
against ``render_plan``, the printed work-center format they must agree with.
"""

from __future__ import annotations

import pytest

from knowledge import get_package
from knowledge.edaps.output import render_plan
from knowledge.edaps.parser import load_design
from knowledge.edaps.report import DESIGNS, EdapsRun, plan_design
from workbench.domains.edaps.design_form import (
    NEW_DESIGN,
    check_design_text,
    count_design,
    edaps_run_of,
    plan_design_text,
    problem_label,
    summary_rows,
)
from workbench.domains.edaps.tables import (
    critique_header,
    diagnostic_rows,
    fmt_measure,
    plan_header,
    plan_rows,
)
from workbench.screens.save_as import check_problem_name

RM1_TEXT = (DESIGNS / "RM1.txt").read_text("utf-8")


def run_of(name: str) -> EdapsRun:
    return plan_design(get_package("edaps").domain("edaps"), load_design(DESIGNS / f"{name}.txt"))


@pytest.fixture(scope="module")
def rm1() -> EdapsRun:
    return run_of("RM1")


@pytest.fixture(scope="module")
def rum1() -> EdapsRun:
    return run_of("RUM1")


def test_check_accepts_rm1_and_the_new_design_template() -> None:
    checked = check_design_text(RM1_TEXT, "RM1")
    assert checked.ok and checked.design is not None and checked.design.name == "RM1"
    assert check_design_text(NEW_DESIGN, None).ok


def test_check_lists_every_problem_with_line_and_column() -> None:
    text = RM1_TEXT.replace("D 4 6 1", "D 4 abc 1").replace("G 0.015", "G x")
    checked = check_design_text(text, "RM1")
    assert not checked.ok and checked.design is None
    labels = [problem_label(p) for p in checked.problems]
    assert labels == [
        "21:5  expected a number for <width>, found 'abc'",
        "22:3  expected a number for <minimum gap>, found 'x'",
    ]


def test_a_problem_of_the_whole_text_has_no_position() -> None:
    [problem] = check_design_text("", "x").problems[:1]
    assert problem_label(problem) == f"{problem.line}:{problem.column}  {problem.message}"
    from knowledge.edaps.parser import InputProblem

    assert problem_label(InputProblem("x", 0, 0, "not UTF-8")) == "not UTF-8"


def test_counts_and_summary_of_rm1() -> None:
    design = load_design(DESIGNS / "RM1.txt")
    n = count_design(design)
    assert (n.pths, n.holes, n.milling, n.components) == (5, 6, 5, 18)  # Figure 7.1
    assert n.pins == sum(len(c.pins) for c in design.components) and n.pins > 0
    assert (n.tapped, n.counterbored) == (0, 0)
    rows = {key: value for key, _, value in summary_rows(design)}
    assert rows["board"] == "4 × 6 × 1 in"
    assert rows["pths"] == "5" and rows["holes"] == "6" and rows["milling"] == "5"
    assert rows["components"] == "18" and rows["pins"] == str(n.pins)
    assert rows["min_gap"] == "0.015 in" and rows["switches"] == "on / on"


def test_tapped_and_counterbored_holes_are_counted() -> None:
    text = NEW_DESIGN + "H 1 1 0.5 0.2 10\nT 20\nC O 0.1 0.3\nH 2 2 0.5 0.2 10\n"
    design = check_design_text(text, "t").design
    assert design is not None
    n = count_design(design)
    assert (n.holes, n.tapped, n.counterbored) == (2, 1, 1)
    rows = {key: value for key, _, value in summary_rows(design)}
    assert rows["holes"] == "2 (1 tapped, 1 counterbored)"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "Give the design a name."),
        ("   ", "Give the design a name."),
        ("has space", "A name is letters"),
        ("-lead", "A name is letters"),
        ("x" * 65, "A name is letters"),
        ("RM1", "already a design called RM1"),
        ("rm1", "already a design called RM1"),
    ],
)
def test_bad_names_are_refused_with_a_reason(name: str, why: str) -> None:
    reason = check_problem_name(name, ["RM1", "RUM1"], "design")
    assert reason is not None and why in reason


@pytest.mark.parametrize("name", ["RM1b", "RM1-wider.gap_2", "7"])
def test_good_names_are_accepted(name: str) -> None:
    assert check_problem_name(name, ["RM1", "RUM1"], "design") is None


def test_plan_rows_agree_with_the_printed_plan(rm1: EdapsRun) -> None:
    printed = render_plan(rm1.result, rm1.nodes, rm1.seconds).splitlines()
    body = printed[4 : printed.index(next(x for x in printed if x.startswith("Total planning")))]
    rows = plan_rows(rm1.result)
    assert len(rows) == len(body)
    for row, line in zip(rows, body, strict=True):
        opn, letter, wc, setup, run, ln, text = row.cells()
        if row.kind == "line":
            assert line == f"{' ' * 31}{ln}  {text}"
        else:
            assert line == f"{opn}  {letter}  {wc:<6s}{setup:>6s}  {run:>6s}   {ln}  {text}"
    grand = rows[-1]
    assert grand.kind == "grand" and grand.cells()[:5] == ("999", "T", "", "319.70", "322.63")
    assert len({r.key for r in rows}) == len(rows)


def test_plan_header_gives_lead_time_split_and_search(rm1: EdapsRun, rum1: EdapsRun) -> None:
    header = plan_header(rm1)
    assert "lead time 642.33 min = setup 319.70 + run 322.63" in header
    assert f"{rm1.nodes:,} nodes" in header
    assert "RUM1 cannot be made (1 unmanufacturable feature; see the Critique tab)" in plan_header(
        rum1
    )


def test_diagnostic_rows_of_rum1(rum1: EdapsRun) -> None:
    [row] = diagnostic_rows(rum1.diagnostics)
    assert row.cells() == ("H5", "hole", "(0.20, 2.40)", "1.5", "2.0", "tolerance (mils)", "14")
    assert "cannot be made: 1 feature" in critique_header(rum1)


def test_critique_header_of_a_manufacturable_design(rm1: EdapsRun) -> None:
    assert critique_header(rm1).startswith("RM1 is manufacturable: lead time 642.33 min")
    assert diagnostic_rows(rm1.diagnostics) == []


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (1.5, "1.5"),
        (2.0, "2.0"),
        (0.075, "0.075"),
        (10, "10.0"),
        (None, "—"),
        (0.0, "0.0"),
    ],
)
def test_fmt_measure(value: float | None, shown: str) -> None:
    assert fmt_measure(value) == shown


def test_plan_design_text_uses_the_stores_knowledge(tmp_path) -> None:
    """Spraying made cheapest in the store changes the plan of the same text."""
    from workbench.kb.catalog import open_store

    db = tmp_path / "kb.db"
    before = plan_design_text(db, RM1_TEXT, "RM1")
    assert round(before.setup_time + before.run_time, 2) == 642.33
    store = open_store(db)
    store.edit(
        "edaps",
        "constant",
        "spray_minutes",
        {"name": "spray_minutes", "value": 0.1},
        base=store.revision("edaps"),
    )
    store.close()
    after = plan_design_text(db, RM1_TEXT, "RM1")
    assert any(s.operator == "SprayPhotoresist" for s in after.result.plan)
    assert not any(s.operator == "SprayPhotoresist" for s in before.result.plan)


def test_edaps_run_of_wraps_a_result_and_adds_the_critique(tmp_path, rum1: EdapsRun) -> None:
    db = tmp_path / "kb.db"
    text = (DESIGNS / "RUM1.txt").read_text("utf-8")
    run = edaps_run_of(db, text, "RUM1", rum1.result)
    assert run.result is rum1.result and run.nodes == rum1.nodes
    assert run.diagnostics == rum1.diagnostics and len(run.diagnostics) == 1


def test_name_messages_say_what_is_being_saved() -> None:
    assert check_problem_name("RM1", ["RM1"], "deal") == "There is already a deal called RM1."
    assert check_problem_name(" ", [], "deal") == "Give the deal a name."
