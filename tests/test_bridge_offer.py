"""The cards on offer are found one trick ahead (issue 31: no slower than mcdd).

Where the samples settle every card the plans offer, the plans' values no longer choose
the card, and which cards are offered does not depend on how far the plans look: the
declarer plans ``offer_tricks`` (one) trick ahead instead of ``plan_tricks`` and makes
the plans to the horizon only when an explanation reads them.  These tests check the
premise against the planner itself, the rule for when it applies against the scoring
table, and that the cards played are the ones the deeper plans would have played.
"""

from __future__ import annotations

from collections import Counter

import pytest

from engine.tofs import RunResult
from knowledge.bridge.cards import RANK_OF
from knowledge.bridge.deal import Contract, PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.players import PlayRecord
from knowledge.bridge.position import Position, Table, position_of
from knowledge.bridge.tofs_player import (
    Decision,
    TofsDeclarer,
    _skip_decompositions,
    _with_horizon,
    bridge_domain,
    plan_position,
)
from tests.bridge_dev_play import card_values, play_dev

# The rules for cards the samples leave level are compared here on their own: without the
# discovery play, which takes a winner before a guess among such cards whatever the rule
# (tests/test_bridge_discovery.py).

PLAN_TRICKS = int(bridge_domain().constant("plan_tricks"))


def _position(player: TofsDeclarer, rec: PlayRecord, d: Decision) -> Position:
    """Declarer's planning position where ``d`` was taken, rebuilt from the record."""
    state = PlayState.start(rec.deal, rec.contract, rec.declarer)
    for c in rec.cards[: d.cards_played]:
        state.play(c)
    assert player._table is not None
    return position_of(declarer_info(state), player._table)


def _offered(run: RunResult, seat: int) -> list[int]:
    """The cards the plans offer at the run's first decision, in the network's order."""
    assert run.policy is not None
    node = _skip_decompositions(run.policy)
    assert node.kind == "decision" and node.agent == seat
    return [int(e.step.args[1]) for e in node.children if e.step is not None]


def test_the_cards_on_offer_do_not_depend_on_how_far_the_plans_look() -> None:
    """The premise: at each decision of a played board, the plans one trick ahead offer
    the same cards, in the same order, as the plans ``plan_tricks`` ahead."""
    player, rec = play_dev(0, discovery=False)
    quick = [d for d in player.decisions if d.deeper is not None]
    assert len(quick) >= 5, "board 1 has decisions where the cards were found one trick ahead"
    nodes = [0, 0]
    for d in quick[:6]:
        pos = _position(player, rec, d)
        full = plan_position(pos)
        one = plan_position(_with_horizon(pos, 1))
        assert _offered(one, d.seat) == _offered(full, d.seat) == _offered(d.run, d.seat)
        assert one.nodes <= full.nodes  # as many where planning stops after this trick anyway
        nodes[0] += one.nodes
        nodes[1] += full.nodes
    assert 2 * nodes[0] < nodes[1]  # and the point of it: far fewer nodes


def _count_plans(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How many times the declarer plans, by how many tricks ahead."""
    from knowledge.bridge import tofs_player

    planned: Counter[int] = Counter()
    original = tofs_player.plan_position

    def counted(pos: Position, *args: object) -> RunResult:
        planned[pos.table.horizon] += 1
        return original(pos, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(tofs_player, "plan_position", counted)
    return planned


def test_the_explanation_reads_the_plans_to_the_horizon_made_when_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Ranking level cards by the one-trick plans, no plan to the horizon is made during
    the play; the explanation's is made when first read, once, and is the plan from the
    decision's position."""
    planned = _count_plans(monkeypatch)
    player, rec = play_dev(0, discovery=False, tie_rank="offer")
    assert planned[PLAN_TRICKS] == 0
    ranked = {d.tiebreak.ranked for d in player.decisions if d.tiebreak and d.deeper}
    assert ranked == {"", "the one-trick plans' choice"}
    d = next(d for d in player.decisions if d.deeper is not None and d.tiebreak is not None)
    deep = d.result
    assert deep is d.result and planned[PLAN_TRICKS] == 1  # planned once, when asked
    full = plan_position(_position(player, rec, d))
    assert deep is not d.run and deep.nodes == full.nodes > d.run.nodes
    assert deep.value == full.value
    assert [s.args for s in deep.plan] == [s.args for s in full.plan]


@pytest.mark.parametrize(
    ("vulnerable", "spread"),
    # 3NT: 13 tricks score 100 + 300 (game) + 4 x 30 = 520 not vulnerable, 100 + 500 +
    # 120 = 720 vulnerable; no trick is 9 down, 9 x 50 = 450 or 9 x 100 = 900.
    [(False, 520 + 450), (True, 720 + 900)],
)
def test_one_trick_ahead_only_where_the_margin_spans_every_score(
    vulnerable: bool, spread: int
) -> None:
    """A plan's value is a score the contract can come to; where the tie margin spans
    the highest less the lowest, every plan's card goes to the samples whatever its
    value, and only then may the plans look less far."""
    table = Table(Contract.parse("3NT"), 0, vulnerable, horizon=PLAN_TRICKS)

    def horizon(**options: object) -> int:
        return TofsDeclarer(vulnerable=vulnerable, **options)._offer_horizon(table)  # type: ignore[arg-type]

    assert horizon(tie_margin=spread) == 1
    assert horizon(tie_margin=spread - 1) == PLAN_TRICKS
    assert horizon() == 1  # the shipped margin (10000) spans every contract's scores
    assert horizon(offer_tricks=0) == PLAN_TRICKS
    assert horizon(offer_tricks=2) == 2
    assert horizon(tie_samples=0) == PLAN_TRICKS  # no samples: the values choose
    assert horizon(replan="plan") == PLAN_TRICKS  # Tignum 2 follows its tree across tricks


def test_looking_one_trick_ahead_plays_the_cards_the_deeper_plans_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With the plans' values ranking the cards the samples leave level (planned to the
    horizon just then), the cards offered, the samples and the ranking are those of
    planning to the horizon at every decision: the same play, card for card."""
    deep, rec_deep = play_dev(0, discovery=False, tie_rank="plan", offer_tricks=0)
    assert all(d.deeper is None for d in deep.decisions)
    planned = _count_plans(monkeypatch)
    quick, rec = play_dev(0, discovery=False, tie_rank="plan")
    assert rec.cards == rec_deep.cards
    found = [d for d in quick.decisions if d.deeper is not None]
    ranked = [d for d in found if d.tiebreak is not None and d.tiebreak.ranked]
    # planned to the horizon only where the samples left distinct cards level
    assert ranked and planned[PLAN_TRICKS] == len(ranked) < len(found)
    for d in ranked:
        tie = d.tiebreak
        assert tie is not None and tie.ranked == "the plans' choice"
        # of the cards level on the samples, the one the plans to the horizon value most
        values = card_values(d.result)
        assert all(values[tie.card] >= values[c] for c in tie.level)
        assert f"(the plans' choice of {len(tie.level) + 1} cards level)" in tie.text()


def test_cards_the_samples_leave_level_go_to_the_lowest_if_asked() -> None:
    player, _ = play_dev(0, discovery=False, tie_rank="low")
    level = [d for d in player.decisions if d.tiebreak is not None and d.tiebreak.level]
    ranked = [d.tiebreak for d in level if d.tiebreak is not None and d.tiebreak.ranked]
    assert ranked, "board 1 has decisions where distinct cards take as many tricks"
    for tie in ranked:
        assert tie.ranked == "the lowest"
        assert all(RANK_OF[tie.card] <= RANK_OF[c] for c in tie.level)
        assert f"(the lowest of {len(tie.level) + 1} cards level)" in tie.text()


def test_an_unknown_rule_for_level_cards_is_refused() -> None:
    with pytest.raises(ValueError, match="tie_rank must be 'low', 'plan' or 'offer'"):
        TofsDeclarer(tie_rank="highest")
