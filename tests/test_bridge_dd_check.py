"""The double-dummy check beside the planner's values (issue 7, item 5): its numbers against
endplay called directly, equivalent cards, the ``play bridge --explain`` text and JSON, and
bad situations that must give a message, not a traceback."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from knowledge.bridge.cards import Seat, equivalence_classes, parse_card, parse_hand
from knowledge.bridge.dd_check import (
    LABEL,
    DDCheck,
    DDCheckError,
    checks_for,
    double_dummy_check,
    format_check,
)
from knowledge.bridge.deal import Contract, PlayState
from knowledge.bridge.information import declarer_info, masked_state
from knowledge.bridge.pbn import BoardRecord, read_pbn
from workbench.cli import main

DEALS = Path(__file__).resolve().parents[1] / "knowledge/bridge/deals"

# Deal 353021 (Smith 1997, Figure 5.9): 4H by South, all vulnerable, West leads.
DEAL_353021 = "N:QJ65.97.AK532.A9 T9743.T5.T98.Q87 K8.AJ8632.Q4.542 A2.KQ4.J76.KJT63"


@cache
def board_353021() -> BoardRecord:
    return read_pbn(DEALS / "353021.pbn")[0]


def start_353021() -> PlayState:
    r = board_353021()
    assert r.contract is not None and r.declarer is not None
    return PlayState.start(r.deal, r.contract, r.declarer)


def ep_card_number(card) -> int:
    """An endplay Card as our card number, through its text ('♦6'), not our converters."""
    return parse_card(str(card))


def ep_scores(deal) -> dict[int, int]:
    """endplay's solve_board, called directly: tricks for the side to move, every card."""
    from endplay.dds import solve_board

    return {ep_card_number(c): t for c, t in solve_board(deal)}


def ep_score_4h_south(tricks: int) -> int:
    """endplay's own duplicate score for 4H by South, all vulnerable."""
    from endplay.types import Contract as EpContract
    from endplay.types import Denom, Penalty, Player, Vul

    c = EpContract(
        level=4,
        denom=Denom.hearts,
        declarer=Player.south,
        penalty=Penalty.passed,
        result=tricks - 10,
    )
    return c.score(Vul.both)


# -- the numbers against endplay -----------------------------------------------------------


def test_trick_one_agrees_with_calc_dd_table_and_solve_board() -> None:
    """Trick 1: after West's double-dummy best opening lead, dummy's best card gives exactly
    the tricks of endplay's DD table, and every card the value solve_board gives."""
    from endplay.dds import calc_dd_table
    from endplay.types import Deal as EpDeal
    from endplay.types import Denom, Player

    ep = EpDeal(DEAL_353021, first=Player.west, trump=Denom.hearts)
    table_tricks = calc_dd_table(ep)[Denom.hearts, Player.south]
    leads = ep_scores(ep)
    best_lead = min(c for c, t in leads.items() if t == max(leads.values()))
    assert 13 - max(leads.values()) == table_tricks

    ep.play(str_card(best_lead))
    expected = ep_scores(ep)

    state = start_353021()
    state.play(best_lead)
    check = double_dummy_check(state, vulnerable=True)
    assert check.seat == Seat.N and check.won == 0
    assert check.best_tricks == table_tricks
    assert {v.card: v.from_here for v in check.values} == expected
    for v in check.values:
        assert v.tricks == v.from_here
        assert v.score == ep_score_4h_south(v.tricks)


def test_trick_one_after_the_recorded_lead() -> None:
    """The recorded lead (♦6) is a double-dummy gift: every card of dummy's is worth 10."""
    from endplay.types import Deal as EpDeal
    from endplay.types import Denom, Player

    ep = EpDeal(DEAL_353021, first=Player.west, trump=Denom.hearts)
    ep.play("D6")
    state = start_353021()
    state.play(parse_card("D6"))
    check = double_dummy_check(state, vulnerable=True)
    assert {v.card: v.from_here for v in check.values} == ep_scores(ep)
    assert check.best_tricks == 10 and check.best_score == 620


def str_card(c: int) -> str:
    return "SHDC"[c // 13] + "23456789TJQKA"[c % 13]


@pytest.mark.parametrize(
    "pbn,leader,trick,won,seat",
    [
        # declarer (South) third to play, void in diamonds: ruff or discard
        ("N:QJ65..K53.9 T9743..T.Q7 K8.J863..54 A2.K.J.KT63", "N", ["DK", "DT"], (4, 1), "S"),
        # dummy (North) second to play to West's club lead
        ("N:QJ65..3.9 T974...Q7 K8.J863.. A2...KT63", "W", ["CK"], (5, 2), "N"),
    ],
)
def test_mid_play_positions_built_independently(pbn, leader, trick, won, seat) -> None:
    """A hand-typed ending, built once as an endplay Deal (cards played with endplay) and
    once as our position: the same tricks for every card, totals and scores on top."""
    from endplay.types import Deal as EpDeal
    from endplay.types import Denom, Player

    ep = EpDeal(pbn, first=Player.find(leader), trump=Denom.hearts)
    for c in trick:
        ep.play(c)
    expected = ep_scores(ep)

    hands = [parse_hand(h) for h in pbn[2:].split()]
    cards = [parse_card(c) for c in trick]
    for i, c in enumerate(cards):  # the cards on the table are no longer held
        hands[(Seat.parse(leader) + i) & 3] &= ~(1 << c)
    state = PlayState.from_position(
        hands,
        1,
        Seat.parse(leader),
        trick=cards,
        won=won,
        declarer=Seat.S,
        contract=Contract.parse("4H"),
    )
    check = double_dummy_check(state, vulnerable=True)
    assert check.seat == Seat.parse(seat)
    assert check.won == won[0]
    assert {v.card: v.from_here for v in check.values} == expected
    for v in check.values:
        assert v.tricks == won[0] + v.from_here
        assert v.score == ep_score_4h_south(v.tricks)
    assert check.best_cards == tuple(
        v.card for v in check.values if v.from_here == max(expected.values())
    )


def test_equivalent_cards_have_equal_values_along_the_recorded_play() -> None:
    """At every declarer-side turn of the dissertation's play of 353021, cards of one
    equivalence class (touching once the played cards are removed) have one value."""
    r = board_353021()
    state = start_353021()
    checked = 0
    for c in r.play:
        if (state.turn & 1) == (state.declarer & 1):
            check = double_dummy_check(state, vulnerable=True)
            values = {v.card: v.tricks for v in check.values}
            assert set(values) == set(state.legal_plays())
            for cls in equivalence_classes(state.legal_mask(), state.gone):
                assert len({values[x] for x in range(52) if cls >> x & 1}) == 1
            checked += 1
        state.play(c)
    assert checked == 26


def test_deterministic_and_sorted_best_first() -> None:
    state = start_353021().replay(["D6", "D2", "D8", "DQ"])  # South to lead at trick 2
    a = double_dummy_check(state, vulnerable=True)
    b = double_dummy_check(state.copy(), vulnerable=True)
    assert a.values == b.values
    tricks = [v.tricks for v in a.values]
    assert tricks == sorted(tricks, reverse=True)
    assert a.won == 1 and all(v.tricks == 1 + v.from_here for v in a.values)
    assert a.to_dict()["best_tricks"] == a.best_tricks


# -- bad situations ---------------------------------------------------------------------------


def test_bad_situations_raise_one_message() -> None:
    state = start_353021()
    with pytest.raises(DDCheckError, match="defender"):
        double_dummy_check(state, vulnerable=True)  # the opening lead is West's
    state.play(parse_card("D6"))
    with pytest.raises(DDCheckError, match="four real hands"):
        double_dummy_check(masked_state(state, declarer_info(state)), vulnerable=True)
    no_contract = PlayState(board_353021().deal.hands, 1, Seat.W, declarer=Seat.S)
    no_contract.play(parse_card("D6"))
    with pytest.raises(DDCheckError, match="no contract"):
        double_dummy_check(no_contract, vulnerable=False)
    over = start_353021().replay(board_353021().play)
    with pytest.raises(DDCheckError, match="over"):
        double_dummy_check(over, vulnerable=True)
    check = double_dummy_check(state, vulnerable=True)
    with pytest.raises(DDCheckError, match="not a legal card"):
        check.value_of(parse_card("SA"))


def test_checks_for_maps_bad_positions_to_errors() -> None:
    r = board_353021()
    out = checks_for(r.play, start_353021(), [0, 1, 99], vulnerable=True)
    assert isinstance(out[0], DDCheckError) and isinstance(out[1], DDCheck)
    assert isinstance(out[99], DDCheckError)
    illegal = checks_for([parse_card("SK")], start_353021(), [1], vulnerable=True)
    assert isinstance(illegal[1], DDCheckError)
    lines = format_check({"label": LABEL, "error": str(out[99])})
    assert lines[0].strip() == LABEL + ":" and "not available" in lines[1]
    assert "not available" in format_check({})[1]


# -- the CLI ------------------------------------------------------------------------------------


def test_explain_text_shows_the_labelled_check(capsys) -> None:
    assert main(["play", "bridge", str(DEALS / "353021.pbn"), "--explain=full"]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\nTrick ")[1:]
    assert blocks and all(LABEL + ":" in b for b in blocks)
    assert "<- best" in out and "the planner's card" in out
    first = blocks[0]
    # trick 1 after the ♦6 lead: every diamond of dummy's makes 10 tricks, +620; the
    # planner plays the ♦2, as Tignum 2 did (the dissertation's Table 1)
    assert "10 tricks   +620  ♦A ♦K ♦5 ♦3 ♦2*  <- best" in first


def test_explain_json_carries_the_check(capsys) -> None:
    assert main(["play", "bridge", str(DEALS / "353021.pbn"), "--explain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    decisions = data["decisions"]
    assert decisions
    r = board_353021()
    state = start_353021()
    play = [parse_card(data["play"][i : i + 2]) for i in range(0, len(data["play"]), 2)]
    for d in decisions:
        ddc = d["double_dummy_check"]
        assert ddc["label"] == LABEL and "error" not in ddc
        assert ddc["seat"] == d["seat"]
        assert sum(c["played"] for c in ddc["cards"]) == 1
        assert [c["card"] for c in ddc["cards"] if c["best"]] == ddc["best_cards"]
        played = next(c for c in ddc["cards"] if c["played"])
        assert ddc["played_tricks_lost"] == ddc["best_tricks"] - played["tricks"]
    # the numbers are the module's for the same position (the first decision: trick 1)
    first = decisions[0]
    assert (first["trick"], first["seat"]) == (1, "N")
    n = 1  # dummy, second to play to trick 1
    pos = state.copy().replay(play[:n])
    assert r.declarer is not None
    check = double_dummy_check(pos, vulnerable=r.vulnerability.is_vulnerable(r.declarer))
    assert first["double_dummy_check"]["cards"] == check.to_dict(play[n])["cards"]


def test_declarer_without_decisions_and_other_boards_do_not_traceback(capsys) -> None:
    assert (
        main(["play", "bridge", str(DEALS / "353021.pbn"), "--explain", "--declarer", "heuristic"])
        == 0
    )
    assert "keeps no decision trees" in capsys.readouterr().out
    assert main(["play", "bridge", str(DEALS / "fig5-1.pbn"), "--explain", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for d in data["decisions"]:
        assert "double_dummy_check" in d
