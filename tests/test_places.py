"""Where to look when a run ends with no plan, without the app (``workbench/places.py``),
and ``kb test``'s failure lines that carry the same blame.

Every expected value is written by hand from the texts in this file (the TOML below is
numbered in its comments) or from the broken domain of ``tests/test_hddl_blame.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _pytest.capture import CaptureFixture

from engine.tofs import Failure, RunResult, Status
from engine.tofs.results import Blame
from tests.test_app_places import broken_store, line_in_block, no_plan, stored_text
from workbench.cli import main
from workbench.places import Place, TomlItem, blame_lines, failure_blames, places, toml_item_at

# A small TOML domain as ``kb export`` writes one; each line's number is in the comment
# at its end where the tests below use it.
TOML = """\
# a comment before everything
name = "tiny"
roots = ["Go"]

[[tasks]]
name = "Go"
label = "Go somewhere"

[[methods]]
name = "Walk"
task = "Go"
precondition = "legs() > 0"
subtasks = [
    "Step()",
    "Step()",
]

[[operators]]
name = "Step"
params = []
precondition = "True"

[operators.costs]
minutes = "5"
"""
# Lines: 1 comment, 2 name, 5 [[tasks]], 6 name = "Go", 9 [[methods]], 12 precondition,
# 14 the first "Step()" of subtasks, 18 [[operators]], 21 precondition, 23
# [operators.costs], 24 minutes.


@pytest.mark.parametrize(
    ("line", "item"),
    [
        (1, None),  # before the first item
        (2, None),  # the domain's own key
        (5, TomlItem("task", "Go", "")),  # a header: the item, no field
        (7, TomlItem("task", "Go", "label")),
        (9, TomlItem("method", "Go.Walk", "")),  # methods are Task.Method in the store
        (12, TomlItem("method", "Go.Walk", "precondition")),
        (14, TomlItem("method", "Go.Walk", "subtasks")),  # inside a list: its key
        (21, TomlItem("operator", "Step", "precondition")),
        (23, TomlItem("operator", "Step", "costs")),
        (24, TomlItem("operator", "Step", "costs.minutes")),
        (25, None),  # past the end
        (0, None),
    ],
)
def test_a_line_of_toml_falls_in_its_item_and_field(line: int, item: TomlItem | None) -> None:
    assert toml_item_at(TOML, line) == item


def failure(blame: Blame | None = None, causes: tuple[Failure, ...] = ()) -> Failure:
    return Failure(
        task="(unload t1 b box)",
        method=None if causes else "m_unload",
        field="no method" if causes else "precondition",
        expression="(in box t1)",
        failing="(in box t1)",
        values=(),
        depth=3,
        node=4,
        causes=causes,
        blame=blame,
    )


DROP = Blame("step 1 of m_unload, drop (mini.hddl:30), needs `(in box t1)`", "mini.hddl", 30)


def test_the_deepest_failure_blames_what_its_methods_blame() -> None:
    """A task no method accomplishes blames nothing itself: its methods' failures do."""
    top = failure(causes=(failure(DROP), failure(DROP)))
    assert failure_blames(top) == [DROP]  # each place once
    run = no_plan("mini", "p1", [Blame("`in` is added by no action")])
    run.failure = top
    assert places(run) == [
        Place("deepest failure", DROP),
        Place("suspect 1", Blame("`in` is added by no action")),
    ]


def test_a_failure_that_blames_no_place_is_still_listed_by_its_message() -> None:
    run = no_plan("dinner", "dinner", [])
    run.failure = failure()
    (only,) = places(run)
    assert only.role == "deepest failure" and only.blame.line is None
    assert only.blame.text == "(unload t1 b box): m_unload needs `(in box t1)`"


def test_a_run_with_a_plan_has_nowhere_to_look() -> None:
    run = RunResult("d", "p", "first", Status.OK, 0.0, [], [], 1, 1, 0.0)
    run.suspects = [DROP]
    assert places(run) == [] and blame_lines(run) == []


def test_blame_lines_say_where_each_place_is_written() -> None:
    run = no_plan(
        "mini",
        "p1",
        [
            Blame("`in` is added by no action", "/x/mini.hddl", 23),
            Blame("drop (mini.hddl:30) needs `(in box t1)`", "mini.hddl", 30),
            Blame("`road` holds nowhere"),
        ],
    )
    run.failure = failure(causes=(failure(DROP),))
    assert blame_lines(run) == [
        "deepest failure: (unload t1 b box): no method applies "
        "(step 1 of m_unload, drop (mini.hddl:30), needs `(in box t1)`)",
        "suspect 1: `in` is added by no action (mini.hddl:23)",
        "suspect 2: drop (mini.hddl:30) needs `(in box t1)`",
        "suspect 3: `road` holds nowhere",
    ]


def kb(capsys: CaptureFixture[str], *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return status, out.out


def test_kb_test_failures_carry_the_blame(capsys: CaptureFixture[str], tmp_path: Path) -> None:
    """The broken Transport in miniature: the test expects a plan; none exists, and the
    failure says the deepest failure is drop's `(in box t1)` as step 1 of m_unload, on the
    line of drop's precondition in the stored text."""
    db = str(broken_store(tmp_path))
    capsys.readouterr()
    line = line_in_block(stored_text(Path(db)), "(:action drop", ":precondition", "(in ?p ?v)")
    expect = json.dumps({"outcome": "plan"})
    assert kb(capsys, "kb", "set", "mini", "test", "delivers", "problem=p1", f"expect={expect}",
              "--db", db)[0] == 0  # fmt: skip
    status, out = kb(capsys, "kb", "test", "mini", "--db", db)
    assert status == 2
    assert (
        "      deepest failure: (unload t1 b box): no method applies (step 1 of m_unload, "
        f"drop (mini (stored HDDL):{line}), needs `(in box t1)`)\n"
    ) in out
    status, out = kb(capsys, "kb", "test", "mini", "--db", db, "--json")
    (report,) = json.loads(out)["mini"]
    places = report["places"]
    assert places[0] == {
        "role": "deepest failure",
        "text": f"step 1 of m_unload, drop (mini (stored HDDL):{line}), needs `(in box t1)`",
        "file": "mini (stored HDDL)",
        "line": line,
    }
    # Then the ranked suspects: pick_up ran with the box and the truck and adds no `in`.
    assert [p["role"] for p in places[1:]] == [f"suspect {i}" for i in range(1, len(places))]
    assert any(
        p["text"].startswith("pick_up (") and "should its effect add (in ?p ?v)?" in p["text"]
        for p in places
    )


def test_a_passing_test_of_an_unsolvable_problem_blames_nothing(
    capsys: CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(broken_store(tmp_path))
    expect = json.dumps({"outcome": "no plan exists"})
    kb(capsys, "kb", "set", "mini", "test", "no-plan", "problem=p1", f"expect={expect}", "--db", db)
    status, out = kb(capsys, "kb", "test", "mini", "--db", db)
    assert status == 0 and "deepest failure" not in out
