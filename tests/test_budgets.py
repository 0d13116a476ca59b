"""Budgets are honoured in every loop, and a run ends the way it was asked to.

The HDDL domains here are made by the tests: one whose method has eight parameters over
thirty objects (30**8 bindings to enumerate, none of which fits), one whose search makes
nodes for ever.  The wall-clock assertions are loose (the budget plus seconds): they check
that a budget is honoured at all, not how fast anything is -- ``benchmarks/budgets.py``
measures that.
"""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine.tofs import CancelToken, Status
from engine.tofs.search import resident_mb
from knowledge import EXIT_INTERRUPTED, exit_status
from knowledge.hddl import read_domain, read_problem
from knowledge.hddl.package import run_files, run_models
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
HDDL_EXAMPLES = ROOT / "knowledge" / "hddl" / "examples"
WORKBENCH = [sys.executable, "-m", "workbench"]

OBJECTS = " ".join(f"o{i}" for i in range(30))
PARAMS = " ".join(f"?{c}" for c in "abcdefgh")

# Eight free variables, each bound from (p ?x) over thirty objects; (never ?a ?h) holds for
# no pair, so all 30**8 bindings are tried and none is ever produced.  ``(after ...)`` tells
# the objects apart: without it all but o0 would be spares (knowledge/hddl/symmetry.py),
# never bound, and there would be one binding to try.
BLOWUP_DOMAIN = f"""
(define (domain blowup)
  (:requirements :typing :hierarchy :method-preconditions)
  (:types obj)
  (:predicates (p ?x - obj) (never ?x ?y - obj) (after ?x ?y - obj))
  (:task go :parameters ())
  (:method many
    :parameters ({PARAMS} - obj)
    :task (go)
    :precondition (and {" ".join(f"(p ?{c})" for c in "abcdefgh")} (never ?a ?h))
    :ordered-subtasks (touch ?a))
  (:action touch :parameters (?x - obj)))
"""

# The same method without the impossible literal: its very first binding works.
EASY_DOMAIN = BLOWUP_DOMAIN.replace(" (never ?a ?h))", ")")

BLOWUP_PROBLEM = f"""
(define (problem p1) (:domain blowup)
  (:objects {OBJECTS} - obj)
  (:htn :ordered-subtasks (go))
  (:init {" ".join(f"(p o{i})" for i in range(30))}
    {" ".join(f"(after o{i} o{i + 1})" for i in range(29))}))
"""

# A walk along n0 -> n1 -> ... where each node leads one and two places on: ~1.6**40
# different paths, none of which ends the walk, so the search makes nodes for ever.  The
# walk marks the places it passed: without the marks, two paths to one place reach the same
# state, whose failure the search remembers (``memo_failures``), and the walk ends, no
# plan, after 122 nodes -- the tests below need a search that goes on.
WALK_DOMAIN = """
(define (domain walk)
  (:requirements :typing :hierarchy :method-preconditions :negative-preconditions)
  (:types place)
  (:predicates (at ?x - place) (next ?x ?y - place) (passed ?x - place))
  (:task walk :parameters ())
  (:method step
    :parameters (?a ?b - place)
    :task (walk)
    :precondition (and (at ?a) (next ?a ?b))
    :ordered-subtasks (and (move ?a ?b) (walk)))
  (:action move
    :parameters (?a ?b - place)
    :precondition (at ?a)
    :effect (and (not (at ?a)) (at ?b) (passed ?a))))
"""

WALK_PROBLEM = (
    "(define (problem w1) (:domain walk)\n"
    f"  (:objects {' '.join(f'n{i}' for i in range(42))} - place)\n"
    "  (:htn :ordered-subtasks (walk))\n"
    "  (:init (at n0) "
    + " ".join(f"(next n{i} n{i + 1}) (next n{i} n{i + 2})" for i in range(40))
    + "))\n"
)


def write(tmp_path: Path, domain: str, problem: str) -> tuple[str, str]:
    d, p = tmp_path / "domain.hddl", tmp_path / "problem.hddl"
    d.write_text(domain)
    p.write_text(problem)
    return str(d), str(p)


def run_child(argv: list[str], timeout: float = 60) -> tuple[int, str, str, float, float]:
    """Run the workbench in a child process: (status, stdout, stderr, wall seconds, peak
    resident MB of that child alone, from ``wait4``)."""
    import tempfile

    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        child = subprocess.Popen([*WORKBENCH, *argv], cwd=ROOT, stdout=out, stderr=err)
        while True:
            pid, code, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                child.kill()
                pytest.fail(f"still running after {timeout} s: {argv}")
            time.sleep(0.05)
        wall = time.monotonic() - t0
        child.returncode = os.waitstatus_to_exitcode(code)
        out.seek(0)
        err.seek(0)
        return (
            child.returncode,
            out.read().decode(),
            err.read().decode(),
            wall,
            usage.ru_maxrss / 1e3,
        )


def test_binding_enumeration_stops_at_the_time_budget(tmp_path: Path) -> None:
    """30**8 bindings, none produced: before, the whole list was built and the budget never
    looked at (hours, gigabytes).  Now: gave up at the budget, exit 3, bounded memory."""
    domain, problem = write(tmp_path, BLOWUP_DOMAIN, BLOWUP_PROBLEM)
    status, out, err, wall, peak = run_child(
        ["plan", "hddl", domain, problem, "--time-budget", "2"]
    )
    assert status == 3, err
    assert "gave up at the time budget of 2 s" in out
    assert err == ""
    assert wall < 2 + 8  # honoured at all (start-up included), not a speed figure
    assert peak < 600  # no list of bindings: the interpreter and the problem only


def test_bindings_are_made_lazily_so_the_first_that_fits_is_taken(tmp_path: Path) -> None:
    """The same eight-parameter method without the impossible literal: its first binding
    works, and the plan is found after a handful of nodes instead of after 30**8 bindings
    were listed (which no budget below would allow)."""
    domain, problem = write(tmp_path, EASY_DOMAIN, BLOWUP_PROBLEM)
    run = run_files(domain, problem, time_budget=20)
    assert run.result.found
    assert run.result.nodes < 10
    assert [str(a) for a in run.result.plan[0].args] == ["o0"]


def test_a_memory_budget_stops_the_run_like_a_time_budget(tmp_path: Path) -> None:
    """A budget below what the interpreter already holds stops at the first look: gave up
    at the memory budget, exit 3, said in the same words as the other budgets."""
    domain, problem = write(tmp_path, WALK_DOMAIN, WALK_PROBLEM)
    used = resident_mb()
    assert used is not None and used > 1
    d = read_domain(domain)
    p = read_problem(problem, d)
    run = run_models(d, p, memory_budget=1.0)
    assert run.result.status is Status.MEMORY_BUDGET
    assert exit_status(run.result) == 3
    assert "gave up at the memory budget of 1 MB" in run.result.outcome_text
    # A budget well above what the run needs leaves it alone (a node budget ends it).
    roomy = run_models(d, p, memory_budget=used + 4000, node_budget=500)
    assert roomy.result.status is Status.NODE_BUDGET


def test_memory_budget_from_the_command_line(tmp_path: Path) -> None:
    domain, problem = write(tmp_path, WALK_DOMAIN, WALK_PROBLEM)
    status, out, err, _, _ = run_child(["plan", "hddl", domain, problem, "--memory-budget", "1M"])
    assert status == 3, err
    assert "gave up at the memory budget of 1 MB" in out


@pytest.mark.parametrize(
    "flag",
    [
        ["--time-budget", "-1"],
        ["--time-budget", "0"],
        ["--time-budget", "nan"],
        ["--node-budget", "0"],
        ["--node-budget", "-5"],
        ["--memory-budget", "0"],
        ["--memory-budget", "-0.5"],
        ["--memory-budget", "lots"],
    ],
)
def test_zero_or_negative_budgets_are_refused_in_one_line(
    flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["plan", "examples", "dinner", *flag])
    assert refused.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("workbench: error: plan: argument ")
    assert flag[0] in err and repr(flag[1]) in err


def test_a_match_timeout_of_zero_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as refused:
        main(["match", "bridge", "deals.pbn", "--timeout", "0"])
    assert refused.value.code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--timeout" in err


def test_memory_sizes_take_units(capsys: pytest.CaptureFixture[str]) -> None:
    from workbench.cli import memory_size

    assert memory_size("1500") == 1500
    assert memory_size("512M") == 512
    assert memory_size("2G") == 2000
    assert memory_size("1.5gb") == 1500


DELIVERY = ROOT / "knowledge" / "hddl" / "examples"


@pytest.mark.parametrize(
    "argv",
    [
        [
            "plan",
            "hddl",
            str(DELIVERY / "delivery-domain.hddl"),
            str(DELIVERY / "delivery-p1.hddl"),
        ],
        ["plan", "examples", "dinner"],
        ["plan", "edaps", "RM1"],
    ],
)
def test_why_not_an_unknown_task_is_one_line_naming_the_choice_points(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*argv, "--why-not", "nosuch=foo"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert err.count("\n") == 1, err
    assert err.startswith("workbench: error: ")
    assert "no choice point on the plan has task 'nosuch'" in err
    listed = err.split("choice points: ", 1)[1]
    assert listed.strip() and listed.strip() != "none"


def test_why_not_after_a_budget_stop_gives_up_and_says_why(tmp_path: Path) -> None:
    """No plan to take a choice on: the run's own answer (gave up, exit 3), with a note."""
    domain, problem = write(tmp_path, WALK_DOMAIN, WALK_PROBLEM)
    run = run_files(domain, problem, node_budget=200, force={"walk": "step"})
    assert run.result.status is Status.NODE_BUDGET and exit_status(run.result) == 3
    assert any("--why-not walk=step not answered" in d for d in run.result.diagnostics)


def test_why_not_re_plans_share_the_one_time_budget(tmp_path: Path) -> None:
    """The base run and the forced re-plan count against one budget, not one each."""
    domain, problem = write(tmp_path, WALK_DOMAIN, WALK_PROBLEM)
    t0 = time.perf_counter()
    run = run_files(domain, problem, time_budget=1.0, force={"walk": "step"})
    assert run.result.status is Status.TIME_BUDGET
    assert time.perf_counter() - t0 < 1.0 + 4


def test_ctrl_c_stops_in_one_line_with_status_130(tmp_path: Path) -> None:
    domain, problem = write(tmp_path, WALK_DOMAIN, WALK_PROBLEM)
    child = subprocess.Popen(
        [*WORKBENCH, "plan", "hddl", domain, problem],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        time.sleep(3)  # started, read the files, searching
        assert child.poll() is None
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == EXIT_INTERRUPTED
    assert err == "workbench: interrupted\n"
    assert "gave up when the search was interrupted, with no plan (none ruled out)" in out
    assert "Traceback" not in out + err


def test_an_interrupt_keeps_the_best_plan_found_so_far() -> None:
    """Optimising, ctrl+c (the CLI turns it into ``CancelToken.interrupt``) stops like a
    budget: the best plan so far is kept and the status is 130."""
    from knowledge import PlanRequest, get_package

    token = CancelToken()

    def progress(p: object) -> None:
        if getattr(p, "nodes", 0) >= 2000:
            token.interrupt()

    pkg = get_package("edaps")
    report = pkg.plan(PlanRequest(problem="RM1", full_tree=True, cancel=token, progress=progress))
    assert report.status == EXIT_INTERRUPTED
    assert "best plan found before the search was interrupted (not proven best)" in report.text


def test_progress_shows_on_a_terminal_and_is_erased(tmp_path: Path) -> None:
    domain, problem = write(tmp_path, WALK_DOMAIN, WALK_PROBLEM)
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [*WORKBENCH, "plan", "hddl", domain, problem, "--time-budget", "3"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=slave,
        text=True,
    )
    os.close(slave)
    seen = b""
    try:
        out, _ = child.communicate(timeout=30)
        while select.select([master], [], [], 0.5)[0]:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        os.close(master)
        if child.poll() is None:
            child.kill()
    assert child.returncode == 3
    text = seen.decode()
    assert "searching: " in text and " nodes, depth " in text
    assert text.endswith("\r\x1b[K")  # erased at the end
    assert "searching" not in out


def _scale_inputs() -> object:
    """benchmarks/parse_scale.py's generators (a big design, a big HDDL problem)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "parse_scale_inputs", ROOT / "benchmarks" / "parse_scale.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("package", ["hddl", "edaps"])
def test_reading_a_large_input_honours_the_time_budget(
    package: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Reading is inside the budget: a reader stops at it with its own words, nothing
    planned, exit 3 -- it does not read on for seconds and then give up at the first node."""
    scale: Any = _scale_inputs()
    if package == "hddl":
        problem = tmp_path / "big.hddl"
        problem.write_text(scale.hddl_problem(4_000_000), encoding="utf-8")
        argv = ["plan", "hddl", str(HDDL_EXAMPLES / "delivery-domain.hddl"), str(problem)]
    else:
        design = tmp_path / "BIG.txt"
        design.write_text(scale.edaps_design(400_000), encoding="utf-8")
        argv = ["plan", "edaps", str(design)]
    started = time.perf_counter()
    status = main([*argv, "--bundled", "--time-budget", "0.3"])
    took = time.perf_counter() - started
    out = capsys.readouterr().out
    assert status == 3, out
    assert "gave up at the time budget of 0.3 s while reading the input" in out
    # Reading the whole file takes several seconds (benchmarks/parse_scale.py); a stop
    # at the budget comes well before that.
    assert took < 4, took


def test_knowledge_tests_run_with_the_default_memory_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`kb test` runs get the memory budget `plan` gets when none is asked for."""
    import knowledge.pipeline
    from knowledge import KnowledgePackage, default_memory_budget, get_package
    from workbench.kb.testing import jobs_for_tests, run_test_job

    pkg = get_package("examples")
    spec = pkg.spec("dinner")
    assert spec.tests, "the dinner domain ships knowledge tests"
    seen: list[float | None] = []

    def run_plan(package: KnowledgePackage, request: Any) -> Any:
        seen.append(request.memory_budget)
        raise ValueError("seen; no need to plan")

    monkeypatch.setattr(knowledge.pipeline, "run_plan", run_plan)
    run_test_job(jobs_for_tests("dinner", spec)[0])
    assert seen == [default_memory_budget()] and seen[0] is not None
