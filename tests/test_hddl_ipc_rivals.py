"""HyperTensioN and Lilotane in ``benchmarks/hddl_ipc.py``: reading what they print, refusing
them up front when they cannot run, and running them under the benchmark's limit and cap.

Neither planner is needed: their outputs below are written by hand from the formats they
print (HyperTensioN 2.1 with ``-IPC``: its section headers, then the IPC 2020 plan with its
own spelling of names -- lower case, ``-`` between letters written ``_`` -- and a trailing
space after a method with no subtasks; Lilotane with ``-v=0``: the IPC plan alone), and the
runner tests put small shell scripts in their place.  The plans are for a domain written
here, and the validator (``tests/hddl_validation.py``) is the judge of the IPC text.
"""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.hddl_validation import validate_plan

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _load() -> ModuleType:
    sys.path.insert(0, str(BENCHMARKS))  # the benchmark imports its neighbour hddl_parse
    spec = importlib.util.spec_from_file_location("hddl_ipc", BENCHMARKS / "hddl_ipc.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["hddl_ipc"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


hddl_ipc = _load()

# Mixed case and hyphens on purpose: HyperTensioN spells these differently.
DOMAIN = """\
(define (domain errands)
  (:requirements :hierarchy :typing :negative-preconditions)
  (:types place)
  (:predicates (at ?p - place))
  (:task Go-To :parameters (?to - place))
  (:method m-already-there
    :parameters (?to - place)
    :task (Go-To ?to)
    :precondition (at ?to)
    :ordered-subtasks (and))
  (:method m-go-direct
    :parameters (?from ?to - place)
    :task (Go-To ?to)
    :precondition (and (at ?from) (not (at ?to)))
    :ordered-subtasks (and (t1 (move-to ?from ?to))))
  (:action move-to
    :parameters (?from ?to - place)
    :precondition (at ?from)
    :effect (and (not (at ?from)) (at ?to))))
"""

PROBLEM = """\
(define (problem two-stops)
  (:domain errands)
  (:objects Home work-place shop - place)
  (:htn :ordered-subtasks (and (t1 (Go-To work-place)) (t2 (Go-To work-place))
                               (t3 (Go-To shop))))
  (:init (at Home)))
"""

# Home -> work-place, already there, work-place -> shop: two actions.
HYPE_SOLVED = """\
----------------------Tasks-----------------------
0 go_to work_place
1 go_to work_place
2 go_to shop
---------------------Planning---------------------
Time: 0.0002s
-----------------------Plan-----------------------
==>
4 move_to home work_place
7 move_to work_place shop
root 0 1 2
0 go_to work_place -> m_go_direct 4
1 go_to work_place -> m_already_there{SPACE}
2 go_to shop -> m_go_direct 7
<==
Total time: 0.0051s
""".format(SPACE=" ")  # HyperTensioN ends a method line with no subtasks in a space

HYPE_HEAD = """\
----------------------Tasks-----------------------
0 go_to work_place
---------------------Planning---------------------
"""

LILOTANE_SOLVED = """\
==>
3 move-to home work-place
9 move-to work-place shop
root 1 2 5
1 go-to work-place -> m-go-direct 3
2 go-to work-place -> m-already-there
5 go-to shop -> m-go-direct 9
<==
"""


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    domain, problem = tmp_path / "domain.hddl", tmp_path / "p01.hddl"
    domain.write_text(DOMAIN, encoding="utf-8")
    problem.write_text(PROBLEM, encoding="utf-8")
    return domain, problem


# --- reading what they print -----------------------------------------------------------------


def test_hypertension_spellings_go_back_to_the_problems_names() -> None:
    names = hddl_ipc.hype_names(DOMAIN, PROBLEM)
    assert names["work_place"] == "work-place"
    assert names["m_go_direct"] == "m-go-direct"
    assert names["go_to"] == "go-to"
    assert names["home"] == "home"
    assert "?to" not in names.values() and ":task" not in names.values()


def test_a_spelling_two_names_share_is_left_as_written() -> None:
    names = hddl_ipc.hype_names("(define (domain d) (:types a-b a_b c-d))", "")
    assert "a_b" not in names  # a-b and a_b both become a_b
    assert names["c_d"] == "c-d"
    # a comment is not a name
    assert "e_f" not in hddl_ipc.hype_names("(define (domain d) ; e-f\n)", "")


def test_a_hypertension_plan_is_read_in_the_problems_names_and_validates(
    files: tuple[Path, Path],
) -> None:
    names = hddl_ipc.hype_names(DOMAIN, PROBLEM)
    record = hddl_ipc.parse_hypertension(HYPE_SOLVED, "", 0, names)
    assert record["status"] == "solved"
    assert record["plan_length"] == 2
    assert record["ipc"].splitlines() == [
        "==>",
        "4 move-to home work-place",
        "7 move-to work-place shop",
        "root 0 1 2",
        "0 go-to work-place -> m-go-direct 4",
        "1 go-to work-place -> m-already-there",
        "2 go-to shop -> m-go-direct 7",
        "<==",
    ]
    assert validate_plan(*files, record["ipc"]) == []


def test_the_validator_sees_a_wrong_hypertension_plan(files: tuple[Path, Path]) -> None:
    """The third task reached by the method for a place one is already at: rejected."""
    wrong = HYPE_SOLVED.replace("2 go_to shop -> m_go_direct 7", "2 go_to shop -> m_already_there")
    wrong = wrong.replace("7 move_to work_place shop\n", "")
    record = hddl_ipc.parse_hypertension(wrong, "", 0, hddl_ipc.hype_names(DOMAIN, PROBLEM))
    assert record["status"] == "solved" and record["plan_length"] == 1
    assert validate_plan(*files, record["ipc"]) != []


def test_hypertension_failing_stack_and_memory() -> None:
    parse = hddl_ipc.parse_hypertension
    # its search ran out of alternatives: it says so on stderr (Ruby's abort) and exits 1
    assert parse(HYPE_HEAD + "Time: 0.2s\n", "Planning failed\n", 1)["status"] == "unsolvable"
    ran_out = parse(HYPE_HEAD, "Planning failed, try with more stack\n", 1)
    assert ran_out["status"] == "crashed" and "stack" in ran_out["message"]
    memory = parse(HYPE_HEAD, "Hype.rb: failed to allocate memory (NoMemoryError)\n", 1)
    assert memory == {"status": "gave up", "message": "out of memory"}
    broken = parse("", "Hype.rb:12:in `parse': Unknown file extension .txt (RuntimeError)\n", 1)
    assert broken["status"] == "crashed"
    assert broken["message"].startswith("Hype.rb:12:in `parse': Unknown file extension .txt")
    assert broken["message"].endswith("(exit status 1)")
    # a plan begun but never ended is no plan
    assert parse(HYPE_HEAD + "==>\n4 move_to home work_place\n", "", -9)["status"] == "crashed"


def test_a_lilotane_plan_is_read_and_validates(files: tuple[Path, Path]) -> None:
    record = hddl_ipc.parse_lilotane(LILOTANE_SOLVED, "", 0)
    assert record["status"] == "solved"
    assert record["plan_length"] == 2
    assert record["ipc"] == LILOTANE_SOLVED.strip()
    assert validate_plan(*files, record["ipc"]) == []


def test_lilotane_without_a_plan() -> None:
    parse = hddl_ipc.parse_lilotane
    assert parse("", "", 0)["status"] == "gave up"  # it stopped by itself, no plan, no proof
    proof = "1.204 Unsolvable at layer 3 even without assumptions!\n"
    assert parse(proof, "", 0)["status"] == "unsolvable"
    memory = "terminate called after throwing an instance of 'std::bad_alloc'\n"
    assert parse("", memory, -6) == {"status": "gave up", "message": "out of memory"}
    assert parse("", "", -11) == {"status": "crashed", "message": "killed by signal 11"}
    # a complaint on stdout only (a parse error, say) is still named
    said = parse("0.001 Parsing domain ...\nSyntax error in line 3\n", "", 1)
    assert said == {"status": "crashed", "message": "Syntax error in line 3 (exit status 1)"}


# --- refused up front ------------------------------------------------------------------------


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def test_refusals_name_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    why = hddl_ipc.rival_problem
    assert why("hypertension", None) == (
        "hypertension needs --hypertension DIR, a checkout of "
        "https://github.com/Maumagnaguagno/HyperTensioN"
    )
    assert why("hypertension", str(tmp_path)) == (
        f"hypertension: no Hype.rb in {tmp_path} (give the HyperTensioN checkout folder)"
    )
    (tmp_path / "Hype.rb").write_text("", encoding="utf-8")
    monkeypatch.setattr(hddl_ipc.shutil, "which", lambda name: None)
    assert why("hypertension", str(tmp_path)) == (
        "hypertension needs Ruby, and ruby is not on the PATH (apt-get install ruby)"
    )
    assert why("lilotane", None) == (
        "lilotane needs --lilotane EXE, a Lilotane build (docs/reference/performance.md says how)"
    )
    assert why("lilotane", str(tmp_path / "nope")) == f"lilotane: no such file: {tmp_path / 'nope'}"
    plain = tmp_path / "plain"
    plain.write_text("", encoding="utf-8")
    assert why("lilotane", str(plain)) == f"lilotane: {plain} is not executable"


def test_a_build_that_does_not_start_is_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "lilotane"
    garbage.write_bytes(b"\x00\x01 not a program")
    garbage.chmod(0o755)
    said = hddl_ipc.rival_problem("lilotane", str(garbage))
    assert said is not None and said.startswith("lilotane does not run: OSError")
    missing_library = _script(tmp_path / "lilotane2", "echo 'libfoo.so: not found' >&2\nexit 127\n")
    assert hddl_ipc.rival_problem("lilotane", str(missing_library)) == (
        "lilotane does not run: libfoo.so: not found"
    )
    # Lilotane without arguments prints its banner and exits 1: it runs
    assert hddl_ipc.rival_problem("lilotane", str(_script(tmp_path / "l3", "exit 1\n"))) is None


def test_the_command_line_refuses_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "ipc"
    (root / "errands").mkdir(parents=True)
    (root / "errands" / "domain.hddl").write_text(DOMAIN, encoding="utf-8")
    (root / "errands" / "p01.hddl").write_text(PROBLEM, encoding="utf-8")
    argv = [str(root), "--planners", "tofs,lilotane", "--lilotane", str(tmp_path / "none")]
    assert hddl_ipc.main(argv) == 1
    err = capsys.readouterr().err
    assert err == f"lilotane: no such file: {tmp_path / 'none'}\n"
    assert hddl_ipc.main([str(root), "--planners", "hypertension"]) == 1
    assert capsys.readouterr().err.count("\n") == 1
    # tofs of another checkout needs that checkout, with its .venv
    assert hddl_ipc.main([str(root), "--planners", "tofs,baseline"]) == 1
    said = capsys.readouterr().err
    assert said.count("\n") == 1 and said.startswith("baseline needs --baseline DIR")
    assert hddl_ipc.main([str(root), "--planners", "baseline", "--baseline", str(tmp_path)]) == 1
    assert capsys.readouterr().err.startswith("baseline needs --baseline DIR")


# --- run under the benchmark's limit and cap, stand-ins for the planners ---------------------


def test_a_lilotane_stand_in_runs_capped_and_its_plan_is_checked(
    tmp_path: Path, files: tuple[Path, Path]
) -> None:
    domain, problem = files
    plan = tmp_path / "plan.txt"
    plan.write_text(LILOTANE_SOLVED, encoding="utf-8")
    # the arguments as Lilotane gets them, and the plan only then
    body = f'[ "$1" = "{domain}" ] && [ "$3" = "-co=0" ] && [ "$4" = "-v=0" ] && cat {plan}\n'
    exe = _script(tmp_path / "lilotane", body)
    tools = {"lilotane": str(exe)}
    result = hddl_ipc.attempt("lilotane", domain, problem, "errands", 10, 1.0, tools=tools)
    assert (result.status, result.plan_length, result.valid) == ("solved", 2, True)
    assert result.validation == "full"
    assert result.peak_mb is not None and result.seconds < 10

    # the cap is the planner's own: 1 GB as ulimit -v reports it (KiB)
    capped = _script(tmp_path / "capped", 'echo "cap $(ulimit -v)" >&2\nexit 3\n')
    result = hddl_ipc.attempt(
        "lilotane", domain, problem, "errands", 10, 1.0, tools={"lilotane": str(capped)}
    )
    assert (result.status, result.message) == ("crashed", f"cap {1024**2} (exit status 3)")


def test_a_planner_past_the_limit_is_killed_and_gave_up(
    tmp_path: Path, files: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hddl_ipc, "GRACE", 0.2)
    exe = _script(tmp_path / "lilotane", "sleep 30\n")
    result = hddl_ipc.attempt("lilotane", *files, "errands", 0.3, 1.0, tools={"lilotane": str(exe)})
    assert result.status == "gave up" and result.message.startswith("killed")
    assert result.seconds < 5


def test_a_hypertension_stand_in_gets_hddl_names_and_its_plan_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Problem files not ending in ``.hddl`` are copied for Hype.rb; a ``ruby`` on the PATH
    that prints the plan only for the competition's command line stands in for Ruby."""
    domain, problem = tmp_path / "errands-domain.pddl", tmp_path / "errands.txt"
    domain.write_text(DOMAIN, encoding="utf-8")
    problem.write_text(PROBLEM, encoding="utf-8")
    checkout = tmp_path / "HyperTensioN"
    checkout.mkdir()
    (checkout / "Hype.rb").write_text("", encoding="utf-8")
    plan = tmp_path / "plan.txt"
    plan.write_text(HYPE_SOLVED, encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    expected = f"--disable=all -s {checkout / 'Hype.rb'} -IPC"
    _script(
        bin_dir / "ruby",
        f'case "$5" in *.hddl) ;; *) exit 9;; esac\ncase "$6" in *.hddl) ;; *) exit 9;; esac\n'
        f'[ -f "$5" ] && [ -f "$6" ] || exit 8\n'
        f'[ "$1 $2 $3 $4" = "{expected}" ] || exit 7\n'
        f'[ "$7 $8 $9 ${{10}}" = "typredicate pullup dejavu run" ] || exit 6\n'
        f"cat {plan}\n",
    )
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    tools = {"hypertension": str(checkout)}
    result = hddl_ipc.attempt("hypertension", domain, problem, "errands", 10, 1.0, tools=tools)
    assert (result.status, result.plan_length, result.valid) == ("solved", 2, True), result


def test_records_written_as_they_end_are_read_back_and_another_limit_is_refused(
    tmp_path: Path,
) -> None:
    path = tmp_path / "run.jsonl"
    solved = hddl_ipc.Attempt("D", "p01.hddl", "tofs", "solved", 0.5, index=1)
    lost = hddl_ipc.Attempt("D", "p11.hddl", "tofs", "gave up", 10.0, index=11)
    for record in (solved, lost):
        hddl_ipc.append_record(path, record, 10.0, 4.0)
    assert hddl_ipc.read_records(path, 10.0, 4.0) == [solved, lost]
    with pytest.raises(ValueError, match=r"run.jsonl:1: .*made at 10 s / 4 GB, not 60 s"):
        hddl_ipc.read_records(path, 60.0, 4.0)
    path.write_text("{not json\n")
    with pytest.raises(ValueError, match=r"run.jsonl:1: not a record of this run"):
        hddl_ipc.read_records(path, 10.0, 4.0)


def test_the_problems_after_the_tuned_ones_are_tabulated_apart() -> None:
    records = [
        hddl_ipc.Attempt("D", "p01.hddl", "tofs", "solved", 0.5, index=1),
        hddl_ipc.Attempt("D", "p11.hddl", "tofs", "gave up", 10.0, index=11),
        hddl_ipc.Attempt("D", "p12.hddl", "tofs", "solved", 10.0**0.5, index=12),
    ]
    parts = hddl_ipc.split_summaries(records, ["D"], ["tofs"], 10.0, 10)
    assert set(parts) == {"all", "1-10", "11-"}
    assert parts["1-10"]["total"]["tofs"]["solved"] == 1
    late = parts["11-"]["total"]["tofs"]
    assert (late["attempted"], late["solved"]) == (2, 1)
    assert late["score"] == pytest.approx(0.5)  # 1 - log(sqrt 10) / log 10
    assert set(hddl_ipc.split_summaries(records[:1], ["D"], ["tofs"], 10.0, 10)) == {"all"}
