"""Where to look first: one break of each kind in a small Transport-like domain, and the
line of the explanation that must lead its author to the fault.

The domain and problem are ``tests.test_hddl_blame``'s (one truck t1 at a, one box at a,
a road from a to b; deliver the box to b).  Every expectation below was worked out by hand
from that text: which step of the path fails, on which literal, and which place of the
domain the break touched.  Line numbers are those of ``DOMAIN`` (checked below).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.hddl.diagnosis import LIMIT
from knowledge.hddl.package import run_files
from tests.test_hddl_blame import DOMAIN, SOLVABLE, files
from workbench.cli import main


def line_of(needle: str, text: str = DOMAIN) -> int:
    """The 1-based line of the only line of ``text`` that holds ``needle``."""
    (hit,) = [i for i, line in enumerate(text.splitlines(), 1) if needle in line]
    return hit


def broken(old: str, new: str) -> str:
    """DOMAIN with one place changed (the same number of lines)."""
    assert DOMAIN.count(old) == 1, old
    text = DOMAIN.replace(old, new)
    assert len(text.splitlines()) == len(DOMAIN.splitlines())
    return text


def suspects(tmp_path: Path, domain: str) -> list[str]:
    run = run_files(*files(tmp_path, domain, SOLVABLE))
    assert not run.result.found
    assert 0 < len(run.result.suspects) <= LIMIT
    return [b.text for b in run.result.suspects]


def test_the_lines_used_below() -> None:
    assert line_of("(:action pick_up") == 25
    assert line_of("(:method m_deliver") == 10
    assert line_of("(:method m_unload") == 20
    assert line_of("(:action drop") == 41


def test_a_lost_add_effect_points_at_the_action_that_ran_and_should_add_it(
    tmp_path: Path,
) -> None:
    """pick_up no longer adds (in ?p ?v).  pick_up (t1 a box) and drive (t1 a b) run;
    m_unload's step drop then needs (in box t1), which nothing adds.  Of the actions that
    ran, only pick_up took both the box and the truck: it is the one to fix, with the
    literal in its own variables."""
    found = suspects(
        tmp_path, broken("(not (at ?p ?l))\n      (in ?p ?v)))", "(not (at ?p ?l))\n      ))")
    )
    assert found[0].startswith(
        "`(in box t1)` is false where step 1 of m_unload, drop (domain.hddl:45), needs it: "
        "no action of the domain adds `in` and the initial state does not hold it"
    )
    # No action adds `in` any more while drop still deletes it: of the actions, only
    # pick_up takes a vehicle and a package (drive takes no package).
    assert found[1] == (
        "`in` is needed by drop and deleted by drop, but no action adds it and the initial "
        "state does not hold it: should pick_up's effect add (in ?p ?v)?"
    )
    assert found[2] == (
        "pick_up (domain.hddl:25) ran before it as (pick_up t1 a box) and adds no `in`: "
        "should its effect add (in ?p ?v)?"
    )
    assert not any(s.startswith("drive") for s in found)  # drive never took the box


def test_a_negated_precondition_says_the_literal_holds_and_who_added_it(
    tmp_path: Path,
) -> None:
    """drop now needs (not (in ?p ?v)).  pick_up, step 1 of the path, put the box in the
    truck, so the negation is false where m_unload checks drop's precondition."""
    found = suspects(
        tmp_path, broken("(at ?v ?l)\n      (in ?p ?v))", "(at ?v ?l)\n      (not (in ?p ?v)))")
    )
    assert found[0].startswith(
        "`(in box t1)` holds where step 1 of m_unload, drop (domain.hddl:45), needs it "
        "false: step 1 of the path, (pick_up t1 a box), adds it; should drop's "
        "precondition read (in box t1) rather than (not (in box t1))?"
    )
    # And from the text alone: drop deletes (in ?p ?v), which it now needs false.
    assert (
        "drop (domain.hddl:41) needs (not (in ?p ?v)) and deletes (in ?p ?v), which can "
        "never do anything: should the precondition read (in ?p ?v)?"
    ) in found


def test_a_deleted_method_is_a_task_with_no_method(tmp_path: Path) -> None:
    """m_unload, the only method of unload, is gone: pick_up and drive run, then (unload
    t1 b box) has nothing to decompose it."""
    lines = DOMAIN.splitlines()
    start, end = line_of("(:method m_unload") - 1, line_of("(:action pick_up") - 1
    text = "\n".join(lines[:start] + [""] * (end - start) + lines[end:]) + "\n"
    found = suspects(tmp_path, text)
    assert "task unload has no method: none decomposes (unload t1 b box)" in found
    # The text alone says it too: m_deliver calls a task that nothing decomposes.
    task = line_of("(:task unload")
    assert (
        f"task unload (domain.hddl:{task}) has no method at all, though m_deliver calls it: "
        "was one deleted?"
    ) in found


def test_swapped_steps_name_the_method_and_the_step_that_deletes_what_the_next_needs(
    tmp_path: Path,
) -> None:
    """m_deliver drives before it picks up: drive (t1 a b) moves the truck away, and
    pick_up (t1 a box), step 2, needs the truck at a."""
    found = suspects(
        tmp_path,
        broken(
            "(pick_up ?v ?l1 ?p)\n      (drive ?v ?l1 ?l)",
            "(drive ?v ?l1 ?l)\n      (pick_up ?v ?l1 ?p)",
        ),
    )
    assert found[0].startswith(
        "`(at t1 a)` is false where pick_up (domain.hddl:28) needs it: step 1 of the path, "
        "(drive t1 a b), deletes it"
    )
    assert (
        "m_deliver (domain.hddl:10): step 1, (drive ?v ?l1 ?l), can delete `at` that "
        "step 2, (pick_up ?v ?l1 ?p), needs: are the two in the right order, with the "
        "right arguments?"
    ) in found
    # From the path: the deleting drive and the failing pick_up are both m_deliver's.
    assert found[1] == (
        "m_deliver (domain.hddl:10): step 1, (drive ?v ?l1 ?l), deletes `at` (by (drive t1 "
        "a b)) that step 2, (pick_up ?v ?l1 ?p), needs: should they change places?"
    )


def test_a_wrong_variable_names_the_method_and_the_call(tmp_path: Path) -> None:
    """m_deliver unloads at ?l1 (a) instead of ?l (b): the truck has driven to b, so
    drop (t1 a box), step 1 of m_unload, needs (at t1 a), which drive deleted; the call
    at fault is m_deliver's step 3."""
    found = suspects(tmp_path, broken("(unload ?v ?l ?p)))", "(unload ?v ?l1 ?p)))"))
    assert found[0].startswith(
        "`(at t1 a)` is false where step 1 of m_unload, drop (domain.hddl:44), needs it: "
        "step 2 of the path, (drive t1 a b), deletes it"
    )
    assert (
        "m_deliver (domain.hddl:10): step 2, (drive ?v ?l1 ?l), can delete `at` that "
        "step 3, (unload ?v ?l1 ?p), needs: are the two in the right order, with the "
        "right arguments?"
    ) in found


def test_suspects_come_first_in_explain_and_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An author reads where to look before the path; the JSON carries file and line."""
    domain = broken("(not (at ?p ?l))\n      (in ?p ?v)))", "(not (at ?p ?l))\n      ))")
    args = ["plan", "hddl", *files(tmp_path, domain, SOLVABLE)]
    main([*args, "--explain"])
    out = capsys.readouterr().out.splitlines()
    head = out.index("Where to look first:")
    assert out[head + 2].startswith("  2. `in` is needed by drop and deleted by drop")
    assert out[head + 3].startswith("  3. pick_up (domain.hddl:25) ran before it")
    assert head < next(i for i, line in enumerate(out) if "deepest failure" in line)
    main([*args, "--json"])
    data = json.loads(capsys.readouterr().out)
    second = data["suspects"][1]
    assert (Path(second["file"]).name, second["line"]) == ("domain.hddl", 25)


def test_a_plan_has_no_suspects(tmp_path: Path) -> None:
    run = run_files(*files(tmp_path, DOMAIN, SOLVABLE))
    assert run.result.found and run.result.suspects == []


def test_a_run_that_gave_up_shows_the_suspects_and_only_the_ends_of_its_path() -> None:
    """Gave up: the suspects say where to look; of a 12-step path, the first two and the
    last three steps stay, the rest is one line (``--explain=full`` has all of it)."""
    from engine.tofs.render import render_text
    from engine.tofs.results import Blame, Failure, RunResult, Status

    via = tuple((f"(t{i})", f"m{i}" if i % 2 else "") for i in range(12))
    failure = Failure("(t12)", None, "no method", "", "", (), 13, 40, via=via)
    suspects = [Blame(f"suspect {i}") for i in range(7)]
    result = RunResult(
        "d", "p", "first", Status.NODE_BUDGET, None, [], [], 40, 40, 0.1, failure=failure
    )
    result.suspects = suspects
    lines = render_text(result, explain=False).splitlines()
    start = lines.index("Where to look first:")
    assert lines[start + 1 : start + 6] == [f"  {i + 1}. suspect {i}" for i in range(5)]
    assert "suspect 5" not in "\n".join(lines)  # five are shown
    path = lines[start + 7 : start + 13]
    assert path == [
        "    (t0)",
        "    (t1) -> m1",
        "    … 7 more steps of the path (--explain=full)",
        "    (t9) -> m9",
        "    (t10)",
        "    (t11) -> m11",
    ]
    full = render_text(result, explain="full").splitlines()
    assert "    (t5) -> m5" in full


@pytest.mark.parametrize("seed", range(4))
def test_the_open_methods_at_each_step_are_those_a_stack_walk_finds(
    tmp_path: Path, seed: int
) -> None:
    """The fault finding reads, at any step of a failure's path, which methods are open
    above it and at which of their steps (kept as frames that share their parents: a path
    is thousands of steps deep after a long search).  Checked against the plain walk --
    a stack of the open methods and their steps left, copied at every step -- on random
    paths of 300 entries through m_deliver (3 steps), m_unload (1) and the actions."""
    import random

    from engine.tofs.results import Failure
    from knowledge.hddl.diagnosis import _Diagnosis
    from knowledge.hddl.package import read_files
    from knowledge.hddl.slips import Slips

    domain, problem = read_files(*files(tmp_path, DOMAIN, SOLVABLE))
    rng = random.Random(seed)
    entries = [
        ("(deliver box b)", "m_deliver(?l1=a, ?v=t1)"),
        ("(unload t1 b box)", "m_unload"),
        ("(pick_up t1 a box)", ""),
        ("(drive t1 a b)", ""),
        ("(drop t1 b box)", ""),
    ]
    via = tuple(rng.choice(entries) for _ in range(300))
    failure = Failure("(drop t1 b box)", None, "precondition", "", "", (), 300, 900, via=via)
    diagnosis = _Diagnosis(domain, problem, failure, None, Slips(domain, problem))
    methods = {m.name.lower(): m for m in domain.methods}
    stack: list[list] = []  # [method, steps left, entry]
    walked = []
    for s in [*diagnosis.path, None]:
        while stack and stack[-1][1] == 0:
            stack.pop()
        if stack:
            stack[-1][1] -= 1
        walked.append([(m, len(m.subtasks) - left, e) for m, left, e in stack])
        if s is not None and s.method:
            stack.append([methods[s.method], len(methods[s.method].subtasks), s])
    assert max(len(level) for level in walked) > 5  # nested deep enough to mean something
    for i, level in enumerate(walked):
        assert diagnosis._open(i) == level
    assert diagnosis._open(-1) == walked[-1]
