"""``plan hddl --repair``: one-place edits of a broken domain that make its problem plan,
each confirmed by re-planning and by the independent validator (issue 28).

The domain is ``tests/data/hddl/repair/courier-domain.hddl`` (our own, shaped like the
IPC's Transport): a van drives to a parcel, picks it up, drives on and drops it.  Each test
breaks it in one place the way an author slips -- the five kinds of
``knowledge/hddl/faults.py`` -- and asserts that the edit undoing the slip is among the
repairs proposed, valid.  The expected edits were written by hand from the domain's text
(what was removed must come back, in the words and at the line of the file), not taken
from the program's output.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.tofs import CancelToken
from knowledge.hddl import HddlError
from knowledge.hddl.repair import Budget, Repair, propose_repairs, repair_report
from workbench.cli import main

DATA = Path(__file__).resolve().parent / "data" / "hddl" / "repair"
DOMAIN = (DATA / "courier-domain.hddl").read_text(encoding="utf-8")
PROBLEM = (DATA / "courier-p1.hddl").read_text(encoding="utf-8")
LINES = DOMAIN.splitlines()


def line_of(text: str, start: int = 1) -> int:
    """The 1-based number of the first line from ``start`` holding ``text``."""
    return next(n for n, line in enumerate(LINES, 1) if n >= start and text in line)


PICK_UP = line_of("(:action pick_up")
DROP = line_of("(:action drop")
DELIVER = line_of("(:method m_deliver")


def broken(old: str, new: str, start: int = 1) -> str:
    """The domain with the first ``old`` at or after line ``start`` made ``new``."""
    offset = sum(len(line) + 1 for line in LINES[: start - 1])
    at = DOMAIN.index(old, offset)
    return DOMAIN[:at] + new + DOMAIN[at + len(old) :]


def repairs(domain: str) -> list[Repair]:
    return propose_repairs(domain, PROBLEM, domain_file="courier-domain.hddl", seconds=20)


def test_the_lines_the_tests_break_are_the_domains() -> None:
    assert LINES[line_of("(in ?p ?v)))", PICK_UP) - 1].strip() == "(in ?p ?v)))"
    assert LINES[line_of("(at ?v ?l)", DROP) - 1].strip() == "(at ?v ?l)"
    assert LINES[DELIVER + 6].strip() == "(load ?v ?from ?p)"
    assert LINES[DELIVER + 7].strip() == "(get_to ?v ?to)"


def test_lose_add_is_repaired_by_adding_the_effect_back_to_pick_up() -> None:
    """pick_up no longer puts the parcel in the van: drop's (in ?p ?v) can never hold.  The
    fix: add (in ?p ?v) to pick_up's effect, where it was."""
    domain = broken("(not (empty ?v))\n      (in ?p ?v)))", "(not (empty ?v))))", PICK_UP)
    found = repairs(domain)
    wanted = [r for r in found if r.kind == "add-effect" and r.place == "pick_up"]
    assert wanted and wanted[0].valid and found[0] is wanted[0]  # the first proposed
    assert wanted[0].summary == "add (in ?p ?v) to the effect of action pick_up"
    assert wanted[0].domain_text == DOMAIN  # exactly the original back, on its own line
    assert "+      (in ?p ?v)))" in wanted[0].diff.splitlines()
    assert wanted[0].plan == (
        "(drive van1 depot mill)",
        "(pick_up van1 mill box)",
        "(drive van1 mill town)",
        "(drop van1 town box)",
    )


def test_negate_is_repaired_by_flipping_the_literal_back() -> None:
    """drop's (at ?v ?l) was negated: a van at the town cannot drop there.  The fix: turn
    (not (at ?v ?l)) back into (at ?v ?l), on that line of drop."""
    line = line_of("(at ?v ?l)", DROP)
    domain = broken("(at ?v ?l)", "(not (at ?v ?l))", DROP)
    found = repairs(domain)
    wanted = [r for r in found if r.kind == "flip-precondition" and r.place == "drop"]
    assert wanted and wanted[0].valid and wanted[0].line == line
    assert "turn (not (at ?v ?l)) into (at ?v ?l)" in wanted[0].summary
    assert wanted[0].domain_text == DOMAIN  # exactly the original back


def test_delete_method_is_repaired_by_a_method_calling_pick_up() -> None:
    """m_load is gone: load has no method.  The fix by analogy: a method for load whose
    one step is pick_up with load's own parameters (same names)."""
    start = line_of("(:method m_load")
    end = line_of("(pick_up ?v ?l ?p)))", start)
    domain = "\n".join(LINES[: start - 1] + LINES[end:]) + "\n"
    found = repairs(domain)
    wanted = [r for r in found if r.kind == "add-method" and r.place == "load"]
    assert wanted and wanted[0].valid
    assert wanted[0].summary.endswith("one step, (pick_up ?v ?l ?p)")
    assert "+    :task (load ?v ?l ?p)" in wanted[0].diff.splitlines()


def test_swap_is_repaired_by_swapping_the_steps_back() -> None:
    """m_deliver drives to the destination before loading: load's pick_up needs the van at
    the mill.  The fix: swap steps 2 and 3 of m_deliver back."""
    domain = broken(
        "(load ?v ?from ?p)\n      (get_to ?v ?to)",
        "(get_to ?v ?to)\n      (load ?v ?from ?p)",
        DELIVER,
    )
    found = repairs(domain)
    wanted = [r for r in found if r.kind == "reorder" and r.place == "m_deliver"]
    assert wanted and wanted[0].valid
    assert wanted[0].summary == (
        "swap steps 2 (get_to ?v ?to) and 3 (load ?v ?from ?p) of method m_deliver"
    )
    assert wanted[0].domain_text == DOMAIN


def test_wrong_variable_is_repaired_by_passing_the_right_one() -> None:
    """m_deliver's third step sends the van to ?from, where it already is: drop at the town
    fails.  The fix: pass ?to for ?from in that step."""
    domain = broken("(get_to ?v ?to)", "(get_to ?v ?from)", DELIVER)
    found = repairs(domain)
    wanted = [
        r
        for r in found
        if r.kind == "change-argument" and r.domain_text == DOMAIN and r.place == "m_deliver"
    ]
    assert wanted and wanted[0].valid
    assert "(get_to ?v ?to) for (get_to ?v ?from) in step 3" in wanted[0].summary


def test_a_problem_that_plans_gets_no_repair() -> None:
    report = repair_report(DOMAIN, PROBLEM)
    assert report.already_plans and report.repairs == [] and report.tried == 0
    assert propose_repairs(DOMAIN, PROBLEM) == []


def test_text_that_is_no_domain_is_bad_input() -> None:
    with pytest.raises(HddlError):
        propose_repairs("(define (domain", PROBLEM)
    with pytest.raises(HddlError):
        propose_repairs(DOMAIN, "(define (problem p) (:domain courier) (:objects x - nowhere))")


def test_the_budgets_stop_the_search_and_say_so() -> None:
    lost = broken("(not (empty ?v))\n      (in ?p ?v)))", "(not (empty ?v))))", PICK_UP)
    # No time left: nothing is tried, and the report says what stopped it.
    report = repair_report(lost, PROBLEM, seconds=0.0)
    assert report.repairs == [] and report.tried == 0 and report.stopped == "the time budget"
    # ctrl+c: the search stops at once.
    cancel = CancelToken()
    cancel.interrupt()
    report = repair_report(lost, PROBLEM, budget=Budget(cancel=cancel))
    assert report.repairs == [] and report.stopped == "interrupting the run"
    # A node budget of 3 holds for every candidate's search: none can plan 4 actions.
    report = repair_report(lost, PROBLEM, budget=Budget(node_budget=3), seconds=20)
    assert report.repairs == [] and report.tried > 0
    assert "no one-place repair found within the budget." in "\n".join(report.lines())


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(argv)
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_command_line_prints_the_repair_with_its_diff_and_plan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    domain = tmp_path / "courier-domain.hddl"
    domain.write_text(broken("(not (empty ?v))\n      (in ?p ?v)))", "(not (empty ?v))))", PICK_UP))
    argv = ["plan", "hddl", str(domain), str(DATA / "courier-p1.hddl"), "--bundled", "--repair"]
    status, out, _ = _run(argv, capsys)
    assert status == 2  # the problem as it is has no plan: the run's own exit status
    assert "1. add (in ?p ?v) to the effect of action pick_up (courier-domain.hddl:" in out
    assert "--- a/courier-domain.hddl" in out and "+++ b/courier-domain.hddl" in out
    assert "gives a plan of 4 action(s), accepted by the independent validator:" in out
    status, out, _ = _run([*argv, "--json"], capsys)
    data = json.loads(out)
    assert status == 2 and data["status"] == "unsolvable" and "failure" in data
    first = data["repairs"][0]
    assert first["valid"] is True and first["kind"] == "add-effect" and first["actions"] == 4
    assert data["repair"]["already_plans"] is False


def test_the_command_line_says_when_there_is_nothing_to_repair(
    capsys: pytest.CaptureFixture[str],
) -> None:
    files = [str(DATA / "courier-domain.hddl"), str(DATA / "courier-p1.hddl")]
    status, out, _ = _run(["plan", "hddl", *files, "--bundled", "--repair"], capsys)
    assert status == 0 and "none to propose: the problem already plans" in out


def test_repair_from_the_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``plan hddl DOMAIN PROBLEM --repair`` with names: the stored text is repaired."""
    domain = tmp_path / "courier-domain.hddl"
    domain.write_text(broken("(at ?v ?l)", "(not (at ?v ?l))", DROP))
    db = str(tmp_path / "kb.sqlite")
    status, _, err = _run(
        ["kb", "import", str(domain), str(DATA / "courier-p1.hddl"), "--db", db], capsys
    )
    assert status == 0, err
    status, out, err = _run(
        ["plan", "hddl", "courier", "courier-p1", "--repair", "--json", "--db", db], capsys
    )
    data = json.loads(out)
    flips = [r for r in data["repairs"] if r["kind"] == "flip-precondition" and r["valid"]]
    assert status == 2 and flips and flips[0]["place"] == "drop"


def test_other_packages_refuse_repair(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(["plan", "edaps", "RM1", "--repair", "--bundled"], capsys)
    assert status == 1 and out == "" and "--repair proposes one-place edits" in err
    files = [str(DATA / "courier-domain.hddl"), str(DATA / "courier-p1.hddl")]
    status, out, err = _run(
        ["plan", "hddl", *files, "--repair", "--why-not", "(deliver box town)=m_deliver"], capsys
    )
    assert status == 1 and "ask one at a time" in err


def test_a_runs_budgets_become_the_repair_searchs() -> None:
    """The hook for a caller holding a run's ``SearchOptions`` (the workbench): the time
    budget counts from the run's start, and the rest is passed on as it is."""
    from engine.tofs import SearchOptions

    cancel = CancelToken()
    options = SearchOptions(
        time_budget=2.0, started=100.0, node_budget=50, memory_budget=512.0, cancel=cancel
    )
    assert Budget.of(options) == Budget(102.0, 50, 512.0, cancel)
    assert Budget.of(SearchOptions()).deadline is None
