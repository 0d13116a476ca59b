"""Golden explanations: what the workbench tells a domain expert, checked against numbers
worked out here from the sources -- the §7.5.7 operation times for EDAPS RM1, the belief
numbers of §3.8 for deal 353021, the dinner example's clock -- never read off the planner.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from engine.tofs import Reason, RunResult, SearchOptions, plan
from engine.tofs.explanation import AlternativeExplanation, Explanation, explain
from engine.tofs.magnitude import Thresholds, magnitude_word
from engine.tofs.render import explanation_markdown, explanation_text
from knowledge import get_package
from knowledge.edaps.report import plan_design, resolve_design

# RM1's board (Figure 7.3): 4 x 6 inches.
L, W = 4.0, 6.0


@pytest.fixture(scope="module")
def rm1() -> Explanation:
    run = plan_design(get_package("edaps").domain("edaps"), resolve_design("RM1"), explain=True)
    assert run.explanation is not None
    return run.explanation


def alt(e: Explanation, task: str, label: str) -> AlternativeExplanation:
    return next(a for a in e.choice(task).alternatives if a.label == label)


def test_rm1_standing_comes_first(rm1: Explanation) -> None:
    assert rm1.run.value is not None
    hours = rm1.run.value / 60
    assert rm1.standing == (
        f"This design needs about {hours:.1f} hours of shop time ({rm1.run.value:.2f} min)."
    )
    assert f"{hours:.1f}" == "10.7"
    assert explanation_text(rm1)[0] == rm1.standing


def test_rm1_photoresist(rm1: Explanation) -> None:
    """§7.5.7: spread sqrt(L^2+W^2)/15 = 0.481, spindle min(L,W)/10 = 0.40 (chosen), spray
    0.5; paint needs a coupler gap over 0.02 in and RM1's is 0.015."""
    spread, spindle, spray = math.hypot(L, W) / 15, min(L, W) / 10, 0.5
    task = "Apply the photoresist"
    choice = rm1.choice(task)
    assert choice.choice.chosen is not None and choice.choice.chosen.label == "Spindle"
    assert rm1.run.value is not None
    for label, minutes in (("Spread", spread), ("Spray", spray)):
        a = alt(rm1, task, label)
        assert a.reason is Reason.PARTIAL_PLAN_PRUNED
        assert a.replanned == pytest.approx(rm1.run.value + minutes - spindle)
        assert a.magnitude == "slightly"  # a tenth of a minute on a 10.7-hour plan
        assert a.issues is not None and len(a.issues.items) == 1 and a.issues.rest == 0
        issue = a.issues.items[0]
        assert issue.contribution == pytest.approx(minutes - spindle)
        assert issue.other == pytest.approx(minutes) and issue.chosen == pytest.approx(spindle)
        assert label.lower() in issue.other_side[0].lower()
        assert "spindle" in issue.chosen_side[0].lower()
    paint = alt(rm1, task, "Paint")
    assert paint.reason is Reason.PRECONDITION_FAILED
    assert "min_gap() = 0.015" in paint.summary and "paint_min_gap = 0.02" in paint.summary
    assert choice.verdict.startswith("Spindle is slightly better than the runner-up Spread")


def test_rm1_milling_the_first_side_pocket(rm1: Explanation) -> None:
    """§7.5.7: a pass over a pocket removes depth x (area less the tool's corner) / tool
    diameter; side milling needs a quarter of end milling's time per pass, and both take a
    rough and a finish pass at 2 mils.  End milling the first pocket also costs a second
    tool install (0.1 min) because the second pocket is side-milled.  Slot milling needs
    tolerance >= 5 mils; the pocket has 2."""
    end_pass = 0.5 * (0.4 * 0.3 - math.pi / 4 * 0.15**2) / 0.15
    assert end_pass == pytest.approx(0.341, abs=5e-4)
    side_pass = end_pass / 4
    loss = 2 * (end_pass - side_pass) + 0.1
    task = "Mill the milling feature at (0.00, 2.25)"
    end = alt(rm1, task, "EndMilling")
    assert end.reason is Reason.LOWER_VALUE
    assert end.loss == pytest.approx(loss, abs=1e-6)
    assert end.magnitude == "slightly"  # under the domain's 5-minute 'clearly'
    assert end.summary.startswith("slightly worse: 642.94 min against 642.33 min")
    assert end.issues is not None and end.issues.total == pytest.approx(loss)
    [issue] = end.issues.items
    assert issue.contribution == pytest.approx(loss)
    assert issue.chosen == pytest.approx(0.1 + 2 * side_pass)
    assert any("end-mill" in t for t in issue.other_side)
    assert all("end-mill" not in t for t in issue.chosen_side)
    slot = alt(rm1, task, "SlotMilling")
    assert slot.reason is Reason.PRECONDITION_FAILED
    assert "tol(F) = 2" in slot.summary and "slot_mill_min_tol = 5" in slot.summary


def test_rm1_flux_cleaning(rm1: Explanation) -> None:
    """§7.5.7: vapour (10/21) x L x W = 11.43 min; a brush would take 37, one a lead; the
    immersion, alcohol and ultrasonic methods need every component immersible."""
    vapor, brush = 10 / 21 * L * W, 37.0
    task = "Clean the flux"
    b = alt(rm1, task, "Brush")
    assert b.reason is Reason.BOUND_PRUNED  # never finished by the search ...
    assert rm1.run.value is not None
    assert b.replanned == pytest.approx(rm1.run.value + brush - vapor)  # ... but here
    assert b.magnitude == "clearly"  # 25.6 min: between the domain's 5 and 60
    assert "finished, it costs 667.90 min, clearly worse" in b.summary
    assert b.issues is not None
    [issue] = b.issues.items
    assert (issue.other, issue.chosen) == (pytest.approx(brush), pytest.approx(vapor))
    assert "Brush" in issue.other_side[0] and "vapor" in issue.chosen_side[0]
    for label in ("Immerse", "Alcohol", "Ultrasonic"):
        a = alt(rm1, task, label)
        assert a.reason is Reason.PRECONDITION_FAILED
        assert "all_immersible() = False" in a.summary
    assert rm1.choice(task).verdict == (
        "Vapor was taken (Brush: bound pruned; Immerse, Alcohol, Ultrasonic: precondition failed)."
    )


def test_rm1_markdown_and_text_say_the_same(rm1: Explanation) -> None:
    text = "\n".join(explanation_text(rm1))
    markdown = explanation_markdown(rm1, "RM1")
    for a in rm1.choice("Clean the flux").alternatives:
        assert a.summary in text
    assert markdown.startswith("# RM1\n\nThis design needs about 10.7 hours")
    assert "Brush board to clean flux (37.00 min) instead of" in markdown


def test_rum1_rejection_names_the_hole_and_the_tolerance() -> None:
    """Figure 7.35: RUM1's 0.15-inch hole at (0.20, 2.40) asks 1.5 mils; 2.0 is the best a
    hole of that size can be drilled to."""
    run = plan_design(get_package("edaps").domain("edaps"), resolve_design("RUM1"), explain=True)
    e = run.explanation
    assert e is not None and not run.manufacturable
    assert e.standing.startswith(
        "This design cannot be made as it stands: Drill the hole "
        "of diameter 0.1500 at (0.20, 2.40): no method applies"
    )
    assert "tol(H) = 1.5" in e.standing and "finish_min(H) = 2" in e.standing
    text = run.text(explain="full")
    assert "ERROR: Tolerance of 1.5000 mils is not achievable" in text
    assert "is 2.0000 mils." in text and e.standing in text


def test_dinner_backtracks_and_says_why() -> None:
    """Figure 3.2: the movie first ends at 22:20 + 107 min = 24:07, after the Mongolian
    Barbecue's last seating (21:30), so only dinner first is left."""
    pkg = get_package("examples")
    domain, problem = pkg.problem("dinner")
    options = SearchOptions(**{**problem.options, "mode": problem.mode})
    e = pkg.explain(plan(domain, problem, options), domain, problem, options)
    choice = e.choice("Go to dinner and a movie")
    movie_first = alt(e, "Go to dinner and a movie", "MovieThenDinner")
    assert movie_first.reason is Reason.DEAD_END
    assert f"now() = {22 * 60 + 20 + 107}" in movie_first.summary
    assert f"last_seating(R) = {21 * 60 + 30}" in movie_first.summary
    assert choice.verdict == (
        "DinnerThenMovie is the only alternative that could be taken (MovieThenDinner: dead end)."
    )
    assert e.standing == "The plan costs 367."


# --------------------------------------------------------------------------- bridge


def _trick5(model):
    from knowledge.bridge.tofs_player import plan_position

    pkg = get_package("bridge")
    domain, problem = pkg.problem("353021-trick5")
    pos = replace(problem.state, table=replace(problem.state.table, model=model))
    result = plan_position(pos, domain)
    return explain(
        result,
        phrasing=pkg.phrasing(domain),
        thresholds=Thresholds.from_constants(domain.constants),
    )


def _answers_under(policy, label: str) -> list[tuple[str, float]]:
    """The defenders' first answers (outcome, probability) below the alternative ``label``."""

    def find(node):
        for e in node.children:
            if e.label == label:
                return e.node
            hit = find(e.node)
            if hit is not None:
                return hit
        return None

    def answers(node):
        out = [
            (e.label.split("O=")[1].split(", C=")[0], e.probability)
            for e in node.children
            if e.method == "ThemAnswer"
        ]
        return out or [a for e in node.children for a in answers(e.node)]

    return answers(find(policy))


def test_353021_trick_5_chooses_the_discard_and_names_where_the_plans_part() -> None:
    """Figure 5.13 with the dissertation's belief model.  4♥ by South, vulnerable: made is
    4 x 30 + 500 = +620, one down -100, two down -200.  Setting up the diamond discard
    loses two when West ruffs the ♦A (diamonds 5-1 and the short hand has the last trump:
    1/8 x 8/14 = 1/14), else the ♦K is ruffed with diamonds 4-2 (0.25, one down) or the
    discard comes (0.75, made): 13/14 x (0.25 x -100 + 0.75 x 620) + 1/14 x -200 =
    +394.29 (the dissertation prints +394.271).  The length plan goes one down when
    diamonds break unevenly (0.625); cashing out assumes the worst, two down."""
    from knowledge.bridge.beliefs import DISSERTATION

    made, one_down, two_down = 4 * 30 + 500, -100, -200
    no_ruff = 0.25 * one_down + 0.75 * made
    discard_value = 13 / 14 * no_ruff + 1 / 14 * two_down
    assert discard_value == pytest.approx(394.2857, abs=1e-4)

    e = _trick5(DISSERTATION)
    root = e.choices[0]
    labels = {a.label: a for a in root.alternatives}
    four = ("SetUpDiscard(C=♦A)", "LengthWinner(C=♦A)", "SequenceWinner(C=♠Q)", "CashOut(C=♦A)")
    assert set(four) <= set(labels)
    discard = labels["SetUpDiscard(C=♦A)"]
    assert discard.chosen and discard.record.value == pytest.approx(discard_value)
    assert root.verdict.startswith("SetUpDiscard(C=♦A) is far better than the runner-up")
    assert e.run.plan[0].description == "North leads ♦A"

    length = labels["LengthWinner(C=♦A)"]
    assert length.issues is not None and length.magnitude == "far"
    assert length.record.value == pytest.approx(0.375 * made + 0.625 * one_down)  # +170
    uneven, even = length.issues.items  # the biggest difference first
    assert uneven.assumption.startswith("diamonds break unevenly")
    assert uneven.probability == pytest.approx(0.625) and uneven.other == one_down
    # with 3-3 the length plan makes it for sure, better than the discard plan's +394
    assert even.assumption == "diamonds 3-3" and even.other == pytest.approx(made)
    assert even.contribution < 0
    cash = labels["CashOut(C=♦A)"]
    assert cash.record.value == pytest.approx(two_down)
    assert cash.loss == pytest.approx(discard_value - two_down) and cash.magnitude == "far"
    # the sequence plan's defenders take the ♠A at the first chance (its belief view):
    # whoever holds it, the ace and two clubs beat 4♥ twice, as in every readable branch
    # of Figure 5.13
    sequence = labels["SequenceWinner(C=♠Q)"]
    assert sequence.record.value == pytest.approx(two_down)
    assert sequence.loss == pytest.approx(discard_value - two_down)
    answers = _answers_under(e.run.policy, "SequenceWinner(C=♠Q)")
    assert sorted(o for o, _ in answers) == [
        "East has the ♠A and takes it at once",
        "West has the ♠A",
    ]
    assert sum(p for _, p in answers) == pytest.approx(1.0)
    for a in root.alternatives:  # every explained difference adds up to the loss
        if a.issues is not None:
            assert a.issues.total == pytest.approx(a.loss)


# --------------------------------------------------------------------------- thresholds


@pytest.mark.parametrize(
    ("loss", "word"),
    [
        (0.0, "about the same"),
        (4.99, "slightly"),
        (5.0, "clearly"),
        (59.9, "clearly"),
        (60.0, "far"),
        (-60.0, "far"),
    ],
)
def test_magnitude_words_at_the_domain_thresholds(loss: float, word: str) -> None:
    th = Thresholds.from_constants({"explain_clearly": 5, "explain_far": 60, "other": 1})
    assert (th.clearly, th.far) == (5.0, 60.0)
    assert magnitude_word(loss, 600.0, 600.0 + loss, th) == word


def test_default_thresholds_scale_with_the_values() -> None:
    th = Thresholds()
    assert magnitude_word(1.0, 100.0, 101.0, th) == "slightly"  # 1 %
    assert magnitude_word(5.0, 100.0, 105.0, th) == "clearly"  # 5 %
    assert magnitude_word(20.0, 100.0, 120.0, th) == "far"


def test_tuning_a_threshold_in_the_store_changes_the_wording(tmp_path) -> None:
    """A knowledge engineer lowers EDAPS's 'clearly' to half a minute in the store; the next
    run calls end milling RM1's first pocket (0.61 min more) clearly, not slightly, worse."""
    from workbench.kb.catalog import open_store
    from workbench.runner import ProblemRef, execute

    db = tmp_path / "kb.sqlite"
    ref = ProblemRef("edaps", "RM1")
    task = "Mill the milling feature at (0.00, 2.25)"

    def word() -> str | None:
        result: RunResult = execute(ref, None, None, db)
        return alt(result.explanation, task, "EndMilling").magnitude

    assert word() == "slightly"
    store = open_store(db)
    try:
        store.edit(
            "edaps",
            "constant",
            "explain_clearly",
            {"name": "explain_clearly", "value": 0.5, "unit": "min", "description": "tuned"},
            base=store.revision("edaps"),
        )
    finally:
        store.close()
    assert word() == "clearly"


# --------------------------------------------------------------------------- the CLI


def test_cli_why_not_breaks_the_difference_down(capsys) -> None:
    from workbench.cli import main

    vapor, brush = 10 / 21 * L * W, 37.0
    assert main(["plan", "edaps", "RM1", "--why-not", "Clean the flux=Brush"]) == 0
    out = capsys.readouterr().out
    assert "Why not Brush at Clean the flux?" in out
    assert f"clearly worse, by {brush - vapor:.2f} min" in out
    assert (
        f"why: Brush board to clean flux ({brush:.2f} min) instead of Spray board with "
        f"vapor to clean flux ({vapor:.2f} min): costs {brush - vapor:.2f} min more"
    ) in out


def test_cli_json_explain_carries_the_structured_explanation(capsys) -> None:
    import json

    from workbench.cli import main

    assert main(["plan", "examples", "finesse", "--explain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["explanation"]
    assert data["standing"] == "The expected value is 260."
    [root] = [c for c in data["choice_points"] if c["task"] == "South: play the suit"]
    cash = next(a for a in root["alternatives"] if a["label"] == "CashAce")
    assert cash["magnitude"] == "far" and cash["loss"] == pytest.approx(172.8)
    assert cash["issues"]["total"] == pytest.approx(172.8)
    assert {round(i["probability"], 2) for i in cash["issues"]["items"]} == {0.74, 0.26}


def test_353306_trick_3_says_why_not_set_up_clubs() -> None:
    """§6.2: Tignum 2 tied the club plan with the diamond sequence at +120 and lost the
    board on the tie-break.  Here the club plan (cross to dummy's ♥K, then clubs) is
    weighed by the club break: 2NT vulnerable makes (+120) if clubs were 4-3 and goes one
    down (-100) if 5-2; 6-1 is below the likelihood cutoff.  Five clubs are unseen and each
    defender has ten unknown cards when dummy leads them (vacant places)."""
    from math import comb

    from engine.tofs.contrast import contrast
    from knowledge.bridge.tofs_player import plan_position

    def split(k: int) -> float:  # North holds k of the five unseen clubs
        return comb(5, k) * comb(15, 10 - k) / comb(20, 10)

    p43, p52 = split(2) + split(3), split(1) + split(4)
    assert split(0) + split(5) < 0.05  # 6-1: pruned
    p43, p52 = p43 / (p43 + p52), p52 / (p43 + p52)  # renormalised over the moves kept
    made, down = 70 + 50, -100

    pkg = get_package("bridge")
    domain, problem = pkg.problem("353306-trick3")
    run = plan_position(problem.state, domain)
    assert pkg.phrasing is not None
    e = explain(
        run, phrasing=pkg.phrasing(domain), thresholds=Thresholds.from_constants(domain.constants)
    )
    root = e.choices[0]
    assert root.choice.chosen is not None
    assert root.choice.chosen.label == "SequenceWinner(C=♦J)"  # the diamond ace first
    best = root.choice.value
    assert best is not None
    club = next(a for a in root.alternatives if a.record.method == "CrossToLength")
    assert club.record.value == pytest.approx(p43 * made + p52 * down)
    assert club.magnitude == "clearly"  # 121.6 points: between bridge's 50 and 200
    assert club.gist == (
        f"it makes only if clubs 4-3 (p = {p43:.2f}); against clubs 5-2 "
        f"(p = {p52:.2f}) it goes down"
    )
    assert club.issues is not None and club.issues.rest == pytest.approx(0.0, abs=1e-9)
    parts = {i.assumption: i for i in club.issues.items}
    assert parts["clubs 5-2"].contribution == pytest.approx(p52 * (best - down))
    assert parts["clubs 4-3"].contribution == pytest.approx(p43 * (best - made))

    # Why not? from the CLI's and the workbench's entry point: the same breakdown.
    options = SearchOptions(**{**problem.options, "mode": problem.mode})
    plain = plan(domain, problem, options)
    choice = next(c for c in plain.choice_points if c.task == "West to play")
    c = contrast(
        plain,
        choice,
        club.label,
        domain=domain,
        problem=problem,
        options=options,
        phrasing=pkg.phrasing(domain),
    )
    assert club.record.value is not None
    assert c.loss == pytest.approx(best - club.record.value)
    assert c.magnitude == "clearly" and c.gist == club.gist
