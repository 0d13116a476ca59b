"""One vocabulary everywhere (issue 29): every package's plan output says what a run
established in the four outcomes' words the README lists, and nothing else; a plan without
costs is measured in steps, never "value 0"; "left standing" is not said of alternatives
that were only ruled out or never tried.

The four outcomes, as the README words them: *plan found* (and proven best when the run
compares plans), *best plan found when a budget stopped the search (not proven best)*, *no
plan exists* and *gave up* -- and the JSON's ``outcome`` is one of :class:`Outcome`'s
values.  The words that fell outside them before ("solved:", "unsolvable:", "plan found
(the first one: ...)", "cancelled with no plan found") must not come back.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.tofs import AlternativeRecord, ChoicePoint, Outcome, Reason, RunResult, Status
from engine.tofs.explanation import explain
from workbench.cli import main

ROOT = Path(__file__).resolve().parent.parent
HDDL = ROOT / "knowledge" / "hddl" / "examples"
DELIVERY = str(HDDL / "delivery-domain.hddl")
LIGHTS = str(HDDL / "lights-domain.hddl")

HEADS = ("plan found", "best plan found", "no plan exists", "gave up")
"""How each outcome's sentence begins (the README's four)."""

OUTSIDE = (
    r"\bsolved\b",
    r"\bunsolvable\b",
    r"the first one:",
    r"left standing",
    r"cancelled with no plan",
    r"interrupted with no plan",
    r"first-plan mode compares no others",
)
"""Words for an outcome that are not the four's."""

# "domain/problem (mode): outcome" -- the line each package's text says the outcome on.
HEAD_LINE = re.compile(r"^\S+/\S+ \((?:first|optimise|game)\): (.*)$", re.MULTILINE)

RUNS: list[tuple[str, list[str], bool]] = [
    # (id, arguments after "plan", whether the run has costs)
    ("bridge-trick5", ["bridge", "353021-trick5"], True),
    ("bridge-trick5-full", ["bridge", "353021-trick5", "--explain=full"], True),
    ("edaps-rm1-full", ["edaps", "RM1", "--explain=full"], True),
    ("edaps-rum1", ["edaps", "RUM1", "--explain"], True),
    ("edaps-rm1-budget", ["edaps", "RM1", "--node-budget", "40", "--explain"], True),
    ("dinner-full", ["examples", "dinner", "--explain=full"], True),
    ("finesse-full", ["examples", "finesse", "--explain=full", "--tree"], True),
    ("finesse-budget", ["examples", "finesse", "--node-budget", "3"], True),
    ("hddl-p1", ["hddl", DELIVERY, str(HDDL / "delivery-p1.hddl")], False),
    ("hddl-p1-full", ["hddl", DELIVERY, str(HDDL / "delivery-p1.hddl"), "--explain=full"], False),
    ("hddl-p1-reader", ["hddl", DELIVERY, str(HDDL / "delivery-p1.hddl"), "--explain"], False),
    ("hddl-unsolvable", ["hddl", DELIVERY, str(HDDL / "delivery-unsolvable.hddl")], False),
    (
        "hddl-stranded-full",
        ["hddl", DELIVERY, str(HDDL / "delivery-stranded.hddl"), "--explain=full"],
        False,
    ),
    (
        "hddl-budget",
        ["hddl", DELIVERY, str(HDDL / "delivery-p1.hddl"), "--node-budget", "2"],
        False,
    ),
    ("hddl-ipc", ["hddl", DELIVERY, str(HDDL / "delivery-unsolvable.hddl"), "--ipc"], False),
    ("hddl-lights-full", ["hddl", LIGHTS, str(HDDL / "lights-p1.hddl"), "--explain=full"], False),
]


def _plan(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    status = main(["plan", *args])
    return status, capsys.readouterr().out


@pytest.mark.parametrize(("args", "costed"), [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
def test_plan_output_says_the_outcome_in_the_four_words(
    args: list[str], costed: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out = _plan(capsys, args)
    assert status in (0, 2, 3), out
    words = out.replace("delivery-unsolvable", "<problem>")  # a name, not an outcome
    for pattern in OUTSIDE:
        assert re.search(pattern, words) is None, f"{pattern!r} in:\n{out}"
    for said in HEAD_LINE.findall(out):
        assert said.startswith(HEADS), said
    if not costed:
        # HDDL has no costs: a plan is its steps, and no number is called a value.
        assert re.search(r"\bvalues?\b", out, re.IGNORECASE) is None, out
    # The status and the words agree: 0 a plan, 2 none exists, 3 gave up.
    heads = list(HEAD_LINE.findall(out))
    if heads:
        expected = {0: ("plan found", "best plan found"), 2: ("no plan exists",), 3: ("gave up",)}
        assert heads[0].startswith(expected[status]), (status, heads[0])


@pytest.mark.parametrize(("args", "costed"), [r[1:] for r in RUNS], ids=[r[0] for r in RUNS])
def test_json_outcome_is_one_of_the_four(
    args: list[str], costed: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    if "--ipc" in args:
        pytest.skip("the IPC format has no JSON form")
    status, out = _plan(capsys, [*args, "--json"])
    data = json.loads(out)
    outcome = data.get("outcome") or data.get("result", {}).get("outcome")
    assert outcome in {str(o) for o in Outcome}, data.keys()
    assert {0: {"plan", "plan, not proven best"}, 2: {"no plan exists"}, 3: {"gave up"}}[
        status
    ] >= {outcome}


def _result(status: Status, found: bool, mode: str) -> RunResult:
    return RunResult(
        domain="d",
        problem="p",
        mode=mode,
        status=status,
        value=3.0 if found else None,
        plan=[],
        choice_points=[],
        nodes=5,
        tree_nodes=5,
        seconds=0.0,
        options={"node_budget": 5},
    )


@pytest.mark.parametrize("status", list(Status))
@pytest.mark.parametrize("found", [True, False])
@pytest.mark.parametrize("mode", ["first", "optimise", "game"])
def test_every_stop_is_said_in_its_outcomes_words(status: Status, found: bool, mode: str) -> None:
    """Whatever stopped a search, its sentence begins with its outcome's words: a finished
    search with a plan "plan found", with none "no plan exists"; a stopped one with a plan
    "best plan found ... (not proven best)", without "gave up"."""
    if status is Status.NO_PLAN and found:
        pytest.skip("a finished search with a plan has the status ok")
    r = _result(status, found, mode)
    text = r.outcome_text
    finished = status in (Status.OK, Status.NO_PLAN)
    if finished:
        head = "plan found" if found else "no plan exists"
    else:
        head = "best plan found" if found else "gave up"
    assert text.startswith(head), text
    if not finished and found:
        assert text.endswith("(not proven best)"), text
    if found and finished and mode != "first":
        assert text == "plan found and proven best"


def test_a_plan_without_costs_is_measured_in_steps_in_the_workbench() -> None:
    """HDDL's delivery-p1 plan: 7 actions, no costs.  The status line, the pane's summary,
    the plan tree's root and the Markdown export say "7 steps", never "value 0"."""
    from knowledge.hddl.package import run_files
    from workbench.export import plan_markdown
    from workbench.widgets.explain_md import reader_summary, run_summary
    from workbench.widgets.plan_items import RunView, SummaryItem
    from workbench.widgets.status_line import result_text

    run = run_files(DELIVERY, str(HDDL / "delivery-p1.hddl")).result
    assert run.value == 0 and not run.costed and len(run.plan) == 7
    assert run.size_text() == "7 steps"

    class Ref:
        title = "hddl/delivery-p1"

    said = {
        "status line": result_text(Ref(), run),  # type: ignore[arg-type]
        "reader summary": reader_summary(run),
        "audit summary": run_summary(run),
        "plan tree root": "".join(p for p, _ in SummaryItem(RunView.of(run)).parts()),
        "export": plan_markdown("delivery-p1", run, audit=True),
    }
    for where, text in said.items():
        assert "7 steps" in text, (where, text)
        assert re.search(r"\bvalue\b", text, re.IGNORECASE) is None, (where, text)


def test_a_plan_with_costs_keeps_its_value() -> None:
    """The dinner plan costs 90 + 10 + 267 = 367 minutes (Figure 3.2): its value is shown."""
    from engine.tofs import SearchOptions, plan
    from knowledge import get_package
    from workbench.widgets.status_line import result_text

    pkg = get_package("examples")
    domain, problem = pkg.problem("dinner")
    run = plan(domain, problem, SearchOptions(**{**problem.options, "mode": problem.mode}))
    assert run.costed and run.size_text() == "value 367"

    class Ref:
        title = "examples/dinner"

    assert "value 367" in result_text(Ref(), run)  # type: ignore[arg-type]


def _choice(*others: tuple[str, Reason, float | None]) -> ChoicePoint:
    alts = [AlternativeRecord("A", "A", Reason.CHOSEN, chosen=True, value=10.0)]
    alts += [AlternativeRecord(label, label, r, value=v) for label, r, v in others]
    return ChoicePoint(1, 1, "Do it", "Do", "decision", None, 10.0, tuple(alts))


def _verdict_of(cp: ChoicePoint, mode: str) -> str:
    run = _result(Status.OK, True, mode)
    run.choice_points.append(cp)
    return explain(run).choices[0].verdict


def test_left_standing_is_never_said_of_alternatives_not_valued() -> None:
    """B was never tried (a plan was found first): A was only *taken*, not left standing
    after B lost.  C's precondition failed: A is the only one that could be taken.  D was
    valued at 12 against A's 10 and lost: A is better than the runner-up."""
    untried = _verdict_of(_choice(("B", Reason.NOT_EXPANDED, None)), "first")
    assert untried == "A was taken (B: not tried, a plan was found first)."
    ruled_out = _verdict_of(_choice(("C", Reason.PRECONDITION_FAILED, None)), "first")
    assert ruled_out == "A is the only alternative that could be taken (C: precondition failed)."
    lost = _verdict_of(_choice(("D", Reason.LOWER_VALUE, 12.0)), "optimise")
    assert "runner-up D" in lost and "left standing" not in lost
