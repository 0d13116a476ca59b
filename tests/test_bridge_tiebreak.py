"""Ties between the best plans are settled on sampled layouts, solved double dummy.

The leaf estimate counts whole tricks, so two plans often share the best value; Tignum 2
then took the first one considered (and lost deal 353306 on it).  The TOFS declarer plays
each tied card on layouts drawn from what declarer knows and takes the one with most
tricks.  These tests check the mechanism against the planner's own trees and against an
independent solve of every sampled layout; what it gains is measured in the benchmark
(docs/reference/performance.md, "Bridge").
"""

from __future__ import annotations

import json

import pytest

from knowledge.bridge.cards import Seat, class_representatives, mask_of
from knowledge.bridge.deal import PlayState
from knowledge.bridge.players import PlayRecord
from knowledge.bridge.tofs_player import (
    AGREED_AFTER,
    Decision,
    TofsDeclarer,
    _skip_decompositions,
    bridge_domain,
)
from tests.bridge_dev_play import DEV, card_values, play_dev

MARGIN = float(bridge_domain().constant("tie_margin"))


@pytest.mark.parametrize("margin", [MARGIN, 20.0])
def test_close_cards_are_settled_by_the_most_tricks_on_the_samples(margin: float) -> None:
    """The shipped margin (bridge.toml) is wider than any two plans differ: every card a
    plan offers is played out on the samples.  A margin of 20 points (less than an
    overtrick, the earlier setting) settles only the cards valued that close to the best."""
    player, rec = play_dev(0, tie_margin=margin)
    ties = [d for d in player.decisions if d.tiebreak is not None]
    assert ties, "board 1 has decisions with close plans"
    for d in ties:
        tb = d.tiebreak
        # 12 layouts, or the first 8 where one card led on each by half a trick
        assert tb is not None and tb.samples in (AGREED_AFTER, 12)
        tops = card_values(d.result)
        best = max(tops.values())
        # the cards the planner valued within the margin of the best, and no others but
        # one no plan offered that took more tricks on the samples than every one of them
        close = {c for c, v in tops.items() if v >= best - margin - 1e-6}
        assert set(tb.tricks) == (close if tb.offered else close | {tb.card})
        assert tb.offered or all(tb.tricks[tb.card] > tb.tricks[c] for c in close)
        assert tb.every == (close == set(tops))
        played = d.safety.card if d.safety is not None else tb.card  # a safety play's
        assert d.card == played == rec.cards[d.cards_played]
        assert tb.tricks[tb.card] == max(tb.tricks.values())
    if margin == MARGIN:
        assert all(d.tiebreak.every for d in ties)  # type: ignore[union-attr]
        # every decision with two cards on offer that are not equals (the samples are not
        # asked to choose between the ♦2 and the ♦3 when the ♦2 is gone) was settled on
        # the samples
        unequal = [d for d in player.decisions if _unequal(rec, d, card_values(d.result))]
        assert unequal and all(d.tiebreak is not None for d in unequal)


def _unequal(rec: PlayRecord, d: Decision, offered: dict[int, float]) -> bool:
    """Whether cards ``offered`` at ``d`` include two that are not equals in the hand."""
    state = PlayState.start(rec.deal, rec.contract, rec.declarer)
    for c in rec.cards[: d.cards_played]:
        state.play(c)
    gone = mask_of(rec.cards[: d.cards_played])
    return class_representatives(mask_of(offered), state.hands[d.seat], gone).bit_count() > 1


def test_close_plans_within_a_trick_are_planned_afresh() -> None:
    """Following the kept tree, the second card our side plays to a trick would be the
    tree's choice; where its plans are close there (dummy's finesse or not) the
    declarer plans again, so the samples settle that card too."""
    kept, rec_kept = play_dev(0, replan_on_ties=False, open_cards=False)
    fresh, rec = play_dev(0, open_cards=False)

    def within(player: TofsDeclarer, record: PlayRecord) -> list[Decision]:
        ours = [i for i, s in enumerate(record.seats) if (s & 1) == (record.declarer & 1)]
        firsts = {min(i for i in ours if i // 4 == t) for t in {i // 4 for i in ours}}
        return [d for d in player.decisions if d.cards_played not in firsts]

    later = within(fresh, rec)
    # the kept tree plans within a trick only where it ran out or a defender surprised it
    assert len(later) > len(within(kept, rec_kept))
    assert sum(d.tiebreak is not None for d in later) > len(within(kept, rec_kept))


def test_sampled_averages_agree_with_a_solve_of_each_layout(monkeypatch) -> None:
    """The averages are checked against DDS's single-deal solver on the same layouts
    (the declarer uses the threaded batch call); every layout weighed alike, as the
    defenders' cards unread leave them (their weights: tests/test_bridge_play_reading.py)."""
    from knowledge.bridge import players, tofs_player

    seen: list[list[tuple[int, int, int, int]]] = []
    original = tofs_player.read_layouts

    def record(info, rng, n):
        layouts = original(info, rng, n)
        seen.append(layouts)
        return layouts

    monkeypatch.setattr(tofs_player, "read_layouts", record)
    player, rec = play_dev(0, open_cards=False, read_play=False)  # samples only at ties
    ties = [d for d in player.decisions if d.tiebreak is not None]
    assert len(seen) == len(ties)
    state = PlayState.start(rec.deal, rec.contract, rec.declarer)
    for d, layouts in zip(ties, seen, strict=True):
        at = state.copy()
        for c in rec.cards[: d.cards_played]:
            at.play(c)
        assert d.tiebreak is not None
        for card, average in d.tiebreak.tricks.items():
            solved = [
                players.dd_solve((h, at.trump, at.leader, tuple(at.trick)))[0][card]
                for h in layouts[: d.tiebreak.samples]  # those solved: the cards may agree
            ]
            assert average == pytest.approx(sum(solved) / len(solved))


def test_without_samples_the_first_plan_considered_wins_as_in_tignum_2() -> None:
    player, _ = play_dev(0, tie_samples=0)
    assert all(d.tiebreak is None for d in player.decisions)
    for d in player.decisions:
        node = _skip_decompositions(d.result.policy)  # type: ignore[arg-type]
        edge = node.children[node.chosen]  # type: ignore[index]
        assert d.card == int(edge.step.args[1])  # type: ignore[union-attr]


def test_settling_ties_is_deterministic() -> None:
    a = play_dev(3)[1]
    b = play_dev(3)[1]
    assert a.cards == b.cards


def test_play_explain_says_how_a_tie_was_settled(capsys) -> None:
    from workbench.cli import main

    assert main(["play", "bridge", str(DEV), "--board", "1", "--explain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    ties = [d for d in data["decisions"] if "tiebreak" in d]
    assert ties
    for d in ties:
        tb = d["tiebreak"]
        chosen = [a for a in d["alternatives"] if a["chosen"]]
        assert [a["label"] for a in chosen] == [tb["label"]]
        assert chosen[0]["reason"].startswith("chosen: the most tricks on the sampled layouts")
        assert tb["tricks"][tb["played"]] == max(tb["tricks"].values())
        assert d["verdict"].startswith(f"{len(tb['tricks'])} cards offered by the plans")


@pytest.mark.parametrize("board", [0, 3])
def test_level_cards_are_ranked_by_plans_of_those_cards_alone(board: int) -> None:
    """Where the samples leave distinct cards level, only those cards are planned to the
    horizon (the engine forces the alternatives that play them).  Each keeps the value
    it has among every card's plans -- checked against the plan of all of them, the one
    an explanation reads -- and the card played is the best of them."""
    player, _ = play_dev(board, tie_rank="plan")
    ranked = [
        d
        for d in player.decisions
        if d.tiebreak is not None and d.tiebreak.ranked == "the plans' choice"
    ]
    assert ranked, "the board has decisions with level cards"
    for d in ranked:
        tb = d.tiebreak
        assert tb is not None
        every = card_values(d.result)  # all the offered cards, planned to the horizon
        level = [tb.card, *tb.level]
        assert every[tb.card] == pytest.approx(max(every[c] for c in level))


def test_the_match_declarers_draw_the_same_layouts_at_the_same_point() -> None:
    """Common random numbers: at a decision both declarers face, mcdd's averages for the
    cards the TOFS declarer settled on the samples are the same numbers, so a match
    between them measures what each does with the samples (with the opening lead and the
    defenders' cards unread: read, the TOFS declarer keeps the layouts in proportion to the
    lead and weighs them by the defenders' cards)."""
    from knowledge.bridge.declarers import MonteCarloDeclarer
    from knowledge.bridge.information import declarer_info

    player, rec = play_dev(
        0,
        tie_samples=20,
        stop_when_agreed=False,
        extend_close=False,
        read_lead=False,
        read_play=False,
    )
    mcdd = MonteCarloDeclarer(samples=20, seed=0)
    mcdd.seed = player.seed
    state = PlayState.start(rec.deal, rec.contract, rec.declarer)
    checked = 0
    for i, card in enumerate(rec.cards):
        d = next((d for d in player.decisions if d.cards_played == i), None)
        if d is not None and d.tiebreak is not None:
            mcdd.choose(state, Seat(state.turn), declarer_info(state))
            for c, average in d.tiebreak.tricks.items():
                assert mcdd.last_scores[c] == pytest.approx(average)
            checked += 1
        state.play(card)
    assert checked > 3


def test_a_card_no_plan_offered_is_played_when_the_samples_rate_it_above_all() -> None:
    """Open cards: the solver scores every legal card on each layout, so where the network
    missed the card that takes the most tricks on the samples, that card is played (as
    ``mcdd`` would) and the explanation says no plan offered it; without open cards the
    declarer keeps to the network's cards.  (Board 1's layouts with the opening lead
    unread, where the network misses one.)"""
    player, rec = play_dev(0, read_lead=False)
    missed = [d for d in player.decisions if d.tiebreak is not None and not d.tiebreak.offered]
    assert missed, "board 1 has a decision where the network missed the samples' card"
    for d in missed:
        tb = d.tiebreak
        assert tb is not None and tb.card not in card_values(d.run)
        assert d.card == rec.cards[d.cards_played] == (d.safety.card if d.safety else tb.card)
        assert "which no plan offered" in tb.text()
    closed, _ = play_dev(0, open_cards=False, read_lead=False)
    for d in closed.decisions:
        assert d.card in card_values(d.run) or d.safety is not None


def test_the_cards_agreeing_on_the_first_batch_of_layouts_stops_the_samples() -> None:
    """Where one card takes the most tricks on each of the first eight layouts, the other
    layouts are not solved; where they disagree, all of them are -- and where two cards
    that are not equals are level on every layout so far, they have not agreed."""
    from knowledge.bridge.tofs_player import AGREED_AFTER, _always_best

    hand = 0b1110  # the spade 3, 4 and 5 (cards 1-3): touching, so equals
    agree = [({1: 9, 2: 8, 3: 9}, 0), ({1: 7, 2: 7, 3: 6}, 0)]  # card 1 best on both
    assert _always_best(agree, 0b1110, 0b0010, 0)  # held alone
    # card 1 best on all three, but card 2 only a third of a trick behind on average
    near = [({1: 9, 2: 9}, 0), ({1: 7, 2: 7}, 0), ({1: 8, 2: 7}, 0)]
    assert not _always_best(near, 0b110, 0b1010, 0)
    split = [({1: 9, 2: 8}, 0), ({1: 7, 2: 8}, 0)]
    assert not _always_best(split, 0b110, 0b110, 0)
    level = [({1: 9, 3: 9}, 0), ({1: 7, 3: 7}, 0)]  # the 3 and the 5, level on both
    assert not _always_best(level, 0b1010, 0b1010, 0)  # with the 4 out: two classes
    assert _always_best(level, 0b1010, hand, 0)  # with the 4 in the same hand: equals
    player, _ = play_dev(0, tie_samples=20, stop_when_agreed=True)
    counts = {d.tiebreak.samples for d in player.decisions if d.tiebreak is not None}
    assert counts <= {AGREED_AFTER, 16, 20} and AGREED_AFTER in counts and 20 in counts
    every, _ = play_dev(0, tie_samples=20, stop_when_agreed=False, extend_close=False)
    assert {d.tiebreak.samples for d in every.decisions if d.tiebreak is not None} == {20}


def test_close_cards_get_more_layouts_and_the_others_pay_for_them() -> None:
    """Where distinct cards are within a tenth of a trick after the budget, the layouts
    go on (to twice the budget); on the board as a whole the declarer solves no more
    layouts than a declarer sampling the budget at every decision it samples."""
    from knowledge.bridge.tofs_player import CLOSE, _close

    # the spade 3 and 5 (cards 1 and 3) with the 4 out: distinct cards; once the 4 is
    # gone, equals (the samples give them the same tricks anyway)
    assert _close([({1: 9, 3: 9}, 0)], 0b1010, 0b1010, 0)
    assert not _close([({1: 9, 3: 8}, 0)], 0b1010, 0b1010, 0)
    assert not _close([({1: 9, 3: 9}, 0)], 0b1010, 0b1010, 0b100)
    assert CLOSE < 0.5
    player, _ = play_dev(0, tie_samples=20, stop_when_agreed=True, extend_close=True)
    counts = [d.tiebreak.samples for d in player.decisions if d.tiebreak is not None]
    assert max(counts) > 20 and sum(counts) <= 20 * len(counts)


def test_where_the_samples_choose_alone_the_plans_are_made_when_read() -> None:
    """plan_lazily: the samples come first; where one card (with its equals) takes the
    most tricks alone it is played before any plan, and the plans that explain it are made
    when the explanation reads the decision: the same layouts as an eager tie-break, the
    card it names the card played, every legal card's average as it was.  Where cards of
    two classes are level on the samples, the plans are made at once."""
    player, rec = play_dev(0, plan_lazily=True)
    unplanned = [d for d in player.decisions if d.later is not None]
    planned = [d for d in player.decisions if d.later is None]
    assert unplanned and planned
    for d in unplanned:
        tb = d.tiebreak  # plans now
        assert d.later is None and d.planned is not None
        assert d.card == rec.cards[d.cards_played]
        if tb is None:  # every legal card the same: nothing was solved
            continue
        assert tb.card == (d.card if d.safety is None else d.safety.instead)
        assert tb.samples in (AGREED_AFTER, player._samples())
        top = max(tb.tricks.values())
        assert tb.tricks[tb.card] == top
    for d in planned:  # cards of two classes level on the samples: planned at once
        assert d.planned is not None
        # settled, unless the plans offered one card alone (the samples' best of it)
        assert d.settled is not None or len(card_values(d.planned)) == 1
    # The same deal eagerly: the same tricks.
    _, eager_rec = play_dev(0)
    assert eager_rec.declarer_tricks == rec.declarer_tricks
