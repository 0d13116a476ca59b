"""Why-not comparisons: forcing an alternative, values, differences, first divergence.

Expected numbers are worked out here from the problems' own figures (probabilities of the
finesse example; the §7.5.7 milling formulas for EDAPS RM1), not read off the planner.
"""

from __future__ import annotations

import math

import pytest

from engine.tofs import (
    AlternativeRecord,
    ChoicePoint,
    RunResult,
    SearchOptions,
    Status,
)
from engine.tofs.contrast import (
    Contrast,
    compare,
    forced_applied,
    principal_nodes,
    rows,
    trajectory,
)
from engine.tofs.why_not import Anchor, replan_at
from knowledge import get_package
from tests.trace_synth import traced_run
from workbench.replan import run_forced, settings_of
from workbench.runner import ProblemRef, RunSettings


def forced_run(
    package: str, problem: str, base: RunResult, cp: ChoicePoint, label: str
) -> RunResult:
    domain, prob = get_package(package).problem(problem)
    options = SearchOptions(**{**prob.options, "mode": prob.mode})
    return replan_at(domain, prob, options, Anchor.of(base, cp), label)


def pick(result: RunResult, task: str, label: str) -> tuple[ChoicePoint, AlternativeRecord]:
    cp = next(c for c in result.choice_points if c.task == task)
    return cp, next(a for a in cp.alternatives if a.label == label)


def why_not(package: str, problem: str, task: str, label: str) -> Contrast:
    base, _ = traced_run(package, problem)
    cp, alt = pick(base, task, label)
    return compare(base, forced_run(package, problem, base, cp, label), cp, alt)


# --------------------------------------------------------------------------- dinner


def test_dinner_movie_first_has_no_plan_and_says_why() -> None:
    c = why_not("examples", "dinner", "Go to dinner and a movie", "MovieThenDinner")
    assert c.forced.value is None and c.forced.status is Status.NO_PLAN
    assert c.base.value == pytest.approx(367.0)
    assert c.difference is None and c.loss is None
    failure = c.failure
    assert failure is not None and failure.failing == "now() <= last_seating(R)"
    seen = {v.text: v.value for v in failure.values}
    assert seen["now()"] > seen["last_seating(R)"]  # the restaurant has stopped seating
    verdict = c.verdict()
    assert verdict.startswith(
        "With MovieThenDinner forced at Go to dinner and a movie there "
        "is no plan: HaveDinner(the Mongolian Barbecue)"
    )
    assert c.first is not None and c.first.kind == "choice"
    assert (c.first.where, c.first.base, c.first.forced) == (
        "Go to dinner and a movie",
        "DinnerThenMovie",
        "MovieThenDinner (no plan)",
    )
    assert (
        forced_applied(c.forced, *pick(c.base, "Go to dinner and a movie", "MovieThenDinner"))
        is None
    )
    base_rows, forced_rows = rows(c)
    assert base_rows[0].first and base_rows[0].text == "Go to dinner and a movie: DinnerThenMovie"
    assert all(r.divergent for r in base_rows)  # nothing is shared with no plan
    assert [r.kind for r in forced_rows] == ["choice", "failure"]
    assert forced_rows[1].text.startswith("no plan: HaveDinner(the Mongolian Barbecue) needs")


# --------------------------------------------------------------------------- finesse


def test_finesse_cash_ace_loses_172_8() -> None:
    # Finesse: East rises 10% (620), ducks 90% -> queen: king West 5/9 (-100), East 4/9 (620).
    finesse = 0.1 * 620 + 0.9 * (5 / 9 * -100 + 4 / 9 * 620)
    # Cash the ace: the king falls 26% (620), stands 74% (-100).
    cash_ace = 0.26 * 620 + 0.74 * -100
    assert (finesse, cash_ace) == (pytest.approx(260.0), pytest.approx(87.2))

    c = why_not("examples", "finesse", "South: play the suit", "CashAce")
    assert c.base.value == pytest.approx(finesse)
    assert c.forced.value == pytest.approx(cash_ace)
    assert c.difference == pytest.approx(cash_ace - finesse)
    assert c.loss == pytest.approx(finesse - cash_ace) == pytest.approx(172.8)
    assert c.applied is True
    assert "value is 87.2 against 260: far worse, by 172.8" in c.verdict()
    # The relevant issues: cashing the ace's two outcomes, each against the finesse's 260.
    assert c.issues is not None and c.issues.rest == 0.0
    by_p = {}
    for i in c.issues.items:
        assert i.probability is not None
        by_p[round(i.probability, 2)] = i.contribution
    assert by_p == {
        0.74: pytest.approx(0.74 * (finesse - -100)),
        0.26: pytest.approx(0.26 * (finesse - 620)),
    }
    # The plans part at South's first decision: the very first move of the plan.
    first = c.first
    assert first is not None and first.index == 0 and first.kind == "choice"
    assert (first.where, first.base, first.forced) == ("South: play the suit", "Finesse", "CashAce")
    assert c.first_choice == first
    # Both lines start by leading low; the first different step is East's duck vs the loss.
    assert c.first_step is not None and c.first_step.index == 1
    assert (c.first_step.base, c.first_step.forced) == (
        "East plays low",
        "The defence takes a trick (West to play)",
    )


def test_game_trajectory_follows_the_principal_variation() -> None:
    base, _ = traced_run("examples", "finesse")
    on_pv = principal_nodes(base)
    assert on_pv is not None and 0 in on_pv
    texts = [m.text for m in trajectory(base) if m.kind == "choice"]
    # East's Rise branch (node 3) is planned for but not on the principal variation.
    assert texts == [
        "South: play the suit: Finesse",
        "East: second hand: Duck",
        "South: third hand: PlayQueen",
        "West: fourth hand after the queen: KingWest",
    ]
    assert all(
        cp.node in on_pv
        for cp in base.choice_points
        if cp.task in {t.rsplit(": ", 1)[0] for t in texts}
    )


# --------------------------------------------------------------------------- EDAPS


def test_rm1_end_milling_the_side_pocket_costs_more() -> None:
    # §7.5.7: end-mill dp * (L*W - pi/4 * t^2) / t per cut; side-mill a quarter of that.
    # Pocket 0.40 x 0.30, depth 0.50, tool t = corner radius 0.15; 2 mils: rough + finish.
    end_cut = 0.5 * (0.4 * 0.3 - math.pi / 4 * 0.15**2) / 0.15
    side_cut = 0.25 * end_cut
    assert side_cut == pytest.approx(0.25 * 0.5 * (0.12 - math.pi / 4 * 0.0225) / 0.15)
    install = 0.1
    # Planned: one side-milling tool, both side pockets rough + finish side-milled.
    planned = install + 4 * side_cut
    # Forced: end-milling tool and two end cuts for the first pocket; the second is still
    # side-milled, so a side-milling tool is installed after all.
    forced = install + 2 * end_cut + install + 2 * side_cut
    extra = forced - planned
    assert extra == pytest.approx(0.611643, abs=1e-6)

    task = "Mill the milling feature at (0.00, 2.25)"
    c = why_not("edaps", "RM1", task, "EndMilling")
    assert c.base.value == pytest.approx(642.327, abs=5e-4)
    assert c.forced.value == pytest.approx(642.939, abs=5e-4)
    assert c.loss == pytest.approx(extra, abs=1e-9)
    assert c.applied is True
    assert c.first is not None and (c.first.where, c.first.base, c.first.forced) == (
        task,
        "SideMilling",
        "EndMilling",
    )
    step = c.first_step
    assert step is not None and step.index == step.base_step == step.forced_step
    assert step.base == "Install 0.15-diameter side-milling tool"
    assert step.forced == "Install 0.15-diameter end-milling tool"
    assert "first different step is step 36" in c.divergence_text()
    # Divergent steps: side tool + two side cuts planned; end tool, two end cuts and the
    # late side-tool install forced.  Everything else is shared.
    planned_diff = [s.description for s, m in zip(c.base.plan, c.base_marks, strict=True) if m]
    forced_diff = [s.description for s, m in zip(c.forced.plan, c.forced_marks, strict=True) if m]
    assert len(planned_diff) == 3 and len(forced_diff) == 4
    assert forced_diff[0] == "Install 0.15-diameter end-milling tool"
    assert forced_diff[-1] == "Install 0.15-diameter side-milling tool"
    assert sum(s.cost for s, m in zip(c.forced.plan, c.forced_marks, strict=True) if m) - sum(
        s.cost for s, m in zip(c.base.plan, c.base_marks, strict=True) if m
    ) == pytest.approx(extra)


def test_every_alternative_on_rm1s_plan_is_taken_where_it_was_asked() -> None:
    """Why-not re-plans from the choice point, so the answer goes through the alternative
    even where a task key could not reach the node (the second pocket's task was first
    expanded at node 85, below the first pocket's end-milling branch).  A claim that the
    alternative costs more is checked by the re-plan: exact for lower-value and
    partial-plan-pruned alternatives, a lower bound for bound-pruned ones."""
    base, _ = traced_run("edaps", "RM1")
    checked = 0
    for cp in base.choice_points:
        for alt in cp.alternatives:
            if alt.chosen or alt.value is None:
                continue
            forced = forced_run("edaps", "RM1", base, cp, alt.label)
            c = compare(base, forced, cp, alt)
            assert c.applied is True, (cp.task, alt.label)
            [again] = [x for x in forced.choice_points if x.node == cp.node]
            assert again.chosen is not None and again.chosen.label == alt.label
            assert forced.value is not None and base.value is not None
            assert forced.value >= base.value - 1e-9
            if alt.value_is_bound:
                assert forced.value >= alt.value - 1e-9
            else:
                assert forced.value == pytest.approx(alt.value, abs=1e-9)
            checked += 1
    assert checked >= 5


def test_identical_runs_do_not_diverge() -> None:
    base, _ = traced_run("examples", "dinner")
    c = compare(base, base)
    assert c.first is None and c.first_step is None and c.loss == 0
    assert c.divergence_text() == "The two plans are identical."
    assert not any(c.base_marks) and not any(r.divergent for r in rows(c)[0])


# --------------------------------------------------------------------------- the store


def test_run_forced_plans_from_the_store_with_the_same_settings(tmp_path) -> None:
    from workbench.kb.catalog import open_store

    db = tmp_path / "kb.db"
    request = ProblemRef("examples", "finesse")
    base, _ = traced_run("examples", "finesse")
    settings = settings_of(base)
    assert settings == RunSettings(trace=False)
    cp, _ = pick(base, "South: play the suit", "CashAce")
    forced = run_forced(request, base, cp, "CashAce", db, settings=settings)
    assert forced.value == pytest.approx(87.2) and forced.trace is None
    store = open_store(db)
    try:
        last = store.runs("finesse")[-1]
    finally:
        store.close()
    assert last["problem"] == "finesse" and '"CashAce"' in last["parameters"]
