"""The worked examples: dinner-and-a-movie backtracking (Smith 1997 §3.1) and a small game
whose values are computed by hand here, independently of the engine."""

from __future__ import annotations

import pytest

from engine.tofs import (
    Hurwicz,
    Maximin,
    MinimaxRegret,
    Reason,
    SearchOptions,
    Status,
    Trace,
    compile_domain,
    plan,
)
from engine.tofs.forcing import Forced
from engine.tofs.render import render_text
from engine.tofs.trace import EventKind
from knowledge import get_package
from knowledge.examples import finesse


@pytest.fixture(scope="module")
def examples():
    return get_package("examples")


# ----------------------------------------------------------------- dinner and a movie


def test_dinner_backtracks_from_movie_first_to_dinner_first(examples) -> None:
    domain, problem = examples.problem("dinner")
    trace = Trace(kinds={EventKind.NODE_CREATED})
    r = plan(domain, problem, SearchOptions(mode="first", trace=trace))
    assert r.status is Status.OK
    assert [s.operator for s in r.plan] == ["HaveDinner", "BuyMovieTicket", "WatchMovie"]
    # The planner tried movie-then-dinner first (the first method), then backtracked.
    first_children = [e.data["alternative"] for e in trace if e.data.get("parent") == 0]
    assert first_children == ["MovieThenDinner", "DinnerThenMovie"]


def test_dinner_explains_why_movie_first_failed(examples) -> None:
    domain, problem = examples.problem("dinner")
    r = plan(domain, problem, SearchOptions(mode="first"))
    (cp,) = r.choice_points
    movie_first, dinner_first = cp.alternatives
    assert dinner_first.reason is Reason.CHOSEN and dinner_first.chosen
    assert movie_first.reason is Reason.DEAD_END
    f = movie_first.failure
    assert f is not None and f.task.startswith("HaveDinner")
    assert f.failing == "now() <= last_seating(R)"
    seen = {v.text: v.value for v in f.values}
    # The 22:20 showing runs 107 minutes: the movie ends at 00:07 (1447 minutes after the
    # evening's midnight); the Mongolian Barbecue's last seating is 21:30 (1290).
    assert seen["now()"] == 22 * 60 + 20 + 107
    assert seen["last_seating(R)"] == 21 * 60 + 30
    text = render_text(r, explain="full")
    assert "MovieThenDinner: dead end" in text and "now() = 1447" in text
    assert "needs `now() <= last_seating(R)`" in text


def test_dinner_in_optimise_mode_gives_the_same_plan(examples) -> None:
    domain, problem = examples.problem("dinner")
    first = plan(domain, problem, SearchOptions(mode="first"))
    best = plan(domain, problem, SearchOptions(mode="optimise"))
    assert [s.operator for s in best.plan] == [s.operator for s in first.plan]
    # 90 min dinner + 10 min ticket + wait until 22:20 and 107 min film from 19:40.
    assert best.value == 90 + 10 + (22 * 60 + 20 + 107 - (18 * 60 + 100))


# ----------------------------------------------------------------- the finesse game
#
# Hand computation (weighted average, likelihood cutoff 0.05):
#   Cash the ace:   0.26 * 620 + 0.74 * (-100)                          =  87.2
#   Finesse: East rises (p 0.1)   -> cash the queen                     = 620
#            East ducks (p 0.9)   -> queen: 5/9 * (-100) + 4/9 * 620    = 220
#                                 -> ace: singleton p 0.04 < 0.05 pruned, so -100
#            East's node: 0.1 * 620 + 0.9 * 220                         = 260
#   Root: max(260, 87.2) = 260, the finesse.


def _run(examples, **kw):
    domain, problem = examples.problem("finesse")
    return plan(domain, problem, SearchOptions(mode="game", **kw))


def test_game_value_is_the_hand_computed_expectimax(examples) -> None:
    r = _run(examples)
    assert r.value == pytest.approx(260.0)
    root = r.choice_points[0]
    assert [(a.label, a.reason) for a in root.alternatives] == [
        ("Finesse", Reason.CHOSEN),
        ("CashAce", Reason.LOWER_VALUE),
    ]
    assert root.alternatives[1].value == pytest.approx(87.2)


def test_likelihood_pruner_drops_moves_below_the_cutoff(examples) -> None:
    r = _run(examples)
    # The ace line is not on the plan, so its value shows at the third-hand choice.
    assert not any(cp.task_name == "AceResult" for cp in r.choice_points)
    third = next(
        cp for cp in r.choice_points if cp.task_name == "Third" and cp.value == pytest.approx(220.0)
    )
    play_ace = next(a for a in third.alternatives if a.label == "PlayAce")
    assert play_ace.reason is Reason.LOWER_VALUE and play_ace.value == pytest.approx(-100.0)
    assert r.stats["likelihood_pruned"] == 1
    # Without the pruner the singleton branch counts: 0.04 * 620 + 0.96 * (-100) = -71.2.
    r0 = _run(examples, likelihood_cutoff=0.0)
    third0 = next(
        cp
        for cp in r0.choice_points
        if cp.task_name == "Third" and cp.value == pytest.approx(220.0)
    )
    assert next(a for a in third0.alternatives if a.label == "PlayAce").value == pytest.approx(
        -71.2
    )
    assert r0.stats["likelihood_pruned"] == 0


def test_policy_has_planned_moves_and_critics_at_opponent_nodes(examples) -> None:
    r = _run(examples)
    east = r.policy.children[r.policy.chosen].node.children[0].node
    assert east.kind == "external" and east.agent == "East"
    assert [e.label for e in east.children] == ["Rise", "Duck"]
    assert [e.probability for e in east.children] == pytest.approx([0.1, 0.9])
    assert east.planned == 1 and east.critic == "same-operator"  # Duck is the likelier move
    # The principal variation follows the planned moves.
    assert [s.operator for s in r.plan] == ["Lead", "PlayLow", "PlayLow", "Lose"]


def test_maximin_takes_the_worst_case(examples) -> None:
    """Every line can go down: -100 everywhere; the tie goes to the first method."""
    r = _run(examples, criterion=Maximin())
    assert r.value == -100.0
    root = r.choice_points[0]
    assert [a.reason for a in root.alternatives] == [Reason.CHOSEN, Reason.TIE]


def test_hurwicz_mixes_best_and_worst(examples) -> None:
    """alpha 0.5: queen (620+-100)/2 = 260; East (620+260)/2 = 440; cash (620-100)/2 = 260."""
    r = _run(examples, criterion=Hurwicz(0.5))
    assert r.value == pytest.approx(440.0)
    assert r.choice_points[0].alternatives[1].value == pytest.approx(260.0)


def test_minimax_regret_on_the_game(examples) -> None:
    """Profiles: finesse {Rise 620, Duck 220}, cash {KingFalls 620, KingStands -100}; a
    missing state counts at the alternative's own value (260 / 87.2).  Regrets: finesse
    max(0, 0, 620-260, 260-260) = 360; cash max(620-87.2, 220-87.2, 0, 260+100) = 532.8."""
    r = _run(examples, criterion=MinimaxRegret())
    assert r.choice_points[0].chosen.label == "Finesse"
    assert r.value == pytest.approx(260.0)


def test_minimax_regret_can_disagree_with_expected_value() -> None:
    """State a (p 0.9), b (p 0.1).  Alt0 {a 100, b 0}: EV 90, regret 50 (in b).
    Alt1 {a 60, b 50}: EV 59, regret 40 (in a).  EV picks alt0, regret alt1."""
    values = [0.9 * 100 + 0.1 * 0, 0.9 * 60 + 0.1 * 50]
    profiles = [{"a": 100.0, "b": 0.0}, {"a": 60.0, "b": 50.0}]
    assert MinimaxRegret().choose(values, profiles) == 1
    assert Maximin().choose(values, profiles) == 0


def test_planning_horizon_leaves_nodes_not_expanded(examples) -> None:
    reg = finesse.make_registry()

    @reg.hook("stop_planning")
    def stop(state, tasks, depth):
        return depth >= 2

    pkg_domain, problem = examples.problem("finesse")
    domain = compile_domain(pkg_domain.spec, reg)
    r = plan(domain, problem, SearchOptions(mode="game"))
    assert r.policy is not None
    leaves = [n for n in r.policy.walk() if n.kind == "leaf"]
    assert leaves and all(n.note == "not expanded because planning stops" for n in leaves)
    assert r.value == 0.0  # nothing decided yet at the horizon: the evaluation says 0
    assert r.stats["not_expanded"] == len(leaves)


def test_forcing_an_alternative_replans_with_it(examples) -> None:
    r = _run(examples, force={"Play": "CashAce"})
    assert r.value == pytest.approx(87.2)
    root = r.choice_points[0]
    assert root.alternatives[0].reason is Reason.NOT_EXPANDED
    assert "forced" in root.alternatives[0].detail


def test_forcing_any_of_several_alternatives_searches_those_alone(examples) -> None:
    """A tuple of ``Forced`` keeps every alternative that agrees with one of them: both
    of the root's methods give the unforced value (260, the finesse), the cash alone its
    own (87.2), and the other is left unexpanded."""
    both = _run(examples, force={"Play": (Forced("Finesse"), Forced("CashAce"))})
    assert both.value == pytest.approx(260.0)
    assert all(a.reason is not Reason.NOT_EXPANDED for a in both.choice_points[0].alternatives)
    cash = _run(examples, force={"Play": (Forced("CashAce"),)})
    assert cash.value == pytest.approx(87.2)
    assert sum(a.reason is Reason.NOT_EXPANDED for a in cash.choice_points[0].alternatives) == 1


def test_game_mode_records_a_trace(examples) -> None:
    """Every kind of event a game run produces, and the same value as without tracing."""
    trace = Trace()
    r = _run(examples, trace=trace)
    assert r.value == pytest.approx(260.0) and r.trace is trace
    kinds = {e.kind for e in trace}
    assert {
        EventKind.NODE_EXPANDED,
        EventKind.NODE_CREATED,
        EventKind.NODE_PRUNED,
        EventKind.LEAF_VALUED,
        EventKind.VALUE_BACKED_UP,
        EventKind.CHOICE_MADE,
    } <= kinds
    backed = [e for e in trace if e.kind is EventKind.VALUE_BACKED_UP]
    assert backed[-1].node == 0 and backed[-1].data == {
        "value": pytest.approx(260.0),
        "node_kind": "decision",
    }
    created = trace.of_kind(EventKind.NODE_CREATED)
    assert len(created) == r.nodes  # the root and every child
