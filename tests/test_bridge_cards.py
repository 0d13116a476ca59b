"""The bridge card-play core: cards and hands, deal validation, play/undo, legality vs endplay."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from knowledge.bridge import DATA_DIR as DATA
from knowledge.bridge.cards import (
    ALL_CARDS,
    CARD_NAMES,
    SUIT_MASKS,
    SUIT_OF,
    CardError,
    Denom,
    Seat,
    Side,
    card,
    card_name,
    class_representatives,
    equivalence_classes,
    equivalent,
    equivalents,
    hand_to_pbn,
    hand_to_text,
    highest,
    iter_cards,
    iter_cards_desc,
    lowest,
    mask_of,
    parse_card,
    parse_hand,
    suit_holding,
)
from knowledge.bridge.deal import (
    Contract,
    Deal,
    DealError,
    Doubling,
    IllegalPlay,
    PlayState,
    Vul,
    card_from_endplay,
    dealer_for_board,
)
from knowledge.bridge.pbn import BoardRecord, read_pbn

DEAL1 = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"


@cache
def dev_set() -> tuple[BoardRecord, ...]:
    return tuple(read_pbn(DATA / "dds-list100.pbn"))


def dds_start(rec: BoardRecord) -> PlayState:
    """The position the DDS records describe: DDSLeader on lead in DDSTrump."""
    leader = Seat.parse(rec.tags["DDSLeader"])
    return PlayState.from_position(rec.deal.hands, Denom.parse(rec.tags["DDSTrump"]), leader)


def dds_play(rec: BoardRecord) -> list[int]:
    s = rec.tags["DDSPlay"]
    return [parse_card(s[i : i + 2]) for i in range(0, len(s), 2)]


# -- cards -------------------------------------------------------------------------------------


def test_card_text() -> None:
    assert parse_card("SA") == card(Denom.S, 14) == 12
    assert parse_card("c2") == 39
    assert parse_card("H10") == parse_card("HT") == card(1, 10)
    assert parse_card("\u2666T") == parse_card("DT")
    assert card_name(parse_card("DT")) == "DT"
    assert card_name(parse_card("SA"), symbols=True) == "\u2660A"
    assert [parse_card(n) for n in CARD_NAMES] == list(range(52))
    for bad in ("", "S", "SX", "XA", "S1", "AS", "SAA"):
        with pytest.raises(CardError, match="expected a suit"):
            parse_card(bad)


def test_seats_and_denoms() -> None:
    assert Seat.N.next is Seat.E and Seat.W.next is Seat.N and Seat.N.prev is Seat.W
    assert Seat.E.partner is Seat.W and Seat.S.side is Side.NS and Seat.W.side is Side.EW
    assert Seat.parse("south") is Seat.S
    assert Denom.parse("NT") is Denom.NT and Denom.parse("n") is Denom.NT
    assert Denom.parse("\u2665") is Denom.H and Denom.H.symbol == "\u2665"
    with pytest.raises(ValueError, match="expected N, E, S or W"):
        Seat.parse("X")


def test_hand_masks() -> None:
    h = parse_hand("AKQ.T98..5432")
    assert h.bit_count() == 10
    assert hand_to_pbn(h) == "AKQ.T98..5432"
    assert hand_to_text(h) == "\u2660AKQ \u2665T98 \u2666\u2014 \u26635432"
    assert parse_hand("A.1098..2") == parse_hand("A.T98..2")
    assert suit_holding(h, Denom.H) == 0b111 << 6
    assert highest(h & SUIT_MASKS[Denom.C]) == parse_card("C5")
    assert lowest(h & SUIT_MASKS[Denom.S]) == parse_card("SQ")
    assert highest(h & SUIT_MASKS[Denom.D]) == -1
    assert list(iter_cards(h)) == sorted(iter_cards_desc(h))
    assert mask_of(iter_cards(h)) == h
    with pytest.raises(CardError, match="SA appears twice"):
        parse_hand("AKA...")
    with pytest.raises(CardError, match="expected 4"):
        parse_hand("AKQ.T98")


def test_equivalent_cards_by_hand() -> None:
    kj = parse_hand("KJ...")
    q = mask_of([parse_card("SQ")])
    assert not equivalent(parse_card("SK"), parse_card("SJ"), kj, 0)
    assert equivalent(parse_card("SK"), parse_card("SJ"), kj, q)
    assert equivalents(parse_card("SJ"), kj, q) == kj
    # AQ with the K elsewhere: a tenace, not equals; Q-J-T-9 in one hand: all equals.
    assert equivalence_classes(parse_hand("AQ..."), 0) == [
        1 << parse_card("SQ"),
        1 << parse_card("SA"),
    ]
    qjt9 = parse_hand("QJT9...")
    assert equivalence_classes(qjt9, 0) == [qjt9]
    # the run never leaks into the next suit (SA and H2 are adjacent bits)
    sa_h2 = parse_hand("A.2..")
    assert equivalents(parse_card("SA"), sa_h2, 0) == 1 << parse_card("SA")
    assert class_representatives(qjt9, qjt9, 0).bit_count() == 1


def _brute_equivalent(a: int, b: int, holding: int, gone: int) -> bool:
    if SUIT_OF[a] != SUIT_OF[b]:
        return False
    return all((holding | gone) >> c & 1 for c in range(min(a, b) + 1, max(a, b)))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from("HGO"), min_size=52, max_size=52))
def test_equivalence_matches_definition(where: list[str]) -> None:
    holding = mask_of(c for c in range(52) if where[c] == "H")
    gone = mask_of(c for c in range(52) if where[c] == "G")
    held = list(iter_cards(holding))
    for a in held:
        expect = mask_of(b for b in held if _brute_equivalent(a, b, holding, gone))
        assert equivalents(a, holding, gone) == expect
        for b in held:
            assert equivalent(a, b, holding, gone) == _brute_equivalent(a, b, holding, gone)
    classes = equivalence_classes(holding, gone)
    assert (
        sum(classes) == holding
        and len(classes) == class_representatives(holding, holding, gone).bit_count()
    )


# -- deals -------------------------------------------------------------------------------------


def test_deal_round_trip_and_endplay() -> None:
    d = Deal.from_pbn(DEAL1)
    assert d.to_pbn() == DEAL1
    assert Deal.from_pbn(d.to_pbn(Seat.W)) == d
    assert d.holder(parse_card("SA")) is Seat.W
    ep = d.to_endplay(first=Seat.E, trump=Denom.H)
    assert int(ep.first) == 1 and int(ep.trump) == 1
    assert Deal.from_endplay(ep) == d
    completed = Deal.from_pbn(DEAL1.rsplit(" ", 1)[0] + " -")
    assert completed == d


def test_impossible_deals_are_refused() -> None:
    with pytest.raises(DealError, match=r"North has 12 cards.*missing: SA, HA, DA, CA") as e:
        Deal.from_pbn("N:KQJT98765432... .KQJT98765432.. ..KQJT98765432. ...KQJT98765432")
    assert e.value.seat is Seat.N and e.value.field == "deal"
    with pytest.raises(DealError, match="C6 is in both South and West") as e:
        Deal.from_pbn(DEAL1[:-1] + "6")
    assert e.value.seat is Seat.W and e.value.card == parse_card("C6")
    with pytest.raises(DealError, match=r"West: .*appears twice"):
        Deal.from_pbn(DEAL1[:-1] + "K")
    with pytest.raises(DealError, match="has 3 hand"):
        Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432.")
    with pytest.raises(DealError, match="at most one hand"):
        Deal.from_pbn("N:AKQJT98765432... - ..AKQJT98765432. -")


def test_contract_and_vulnerability() -> None:
    assert Contract.parse("3NT") == Contract(3, Denom.NT)
    assert Contract.parse("7ntxx") == Contract(7, Denom.NT, Doubling.XX)
    assert str(Contract.parse("6SX")) == "6SX" and Contract.parse("4H").tricks_needed == 10
    with pytest.raises(ValueError, match="expected a level 1-7"):
        Contract.parse("8S")
    assert Vul.parse("All") is Vul.BOTH and Vul.NS.is_vulnerable(Seat.S)
    assert not Vul.NS.is_vulnerable(Seat.E)
    from endplay.types import Player
    from endplay.types import Vul as EpVul

    for n in range(1, 33):
        assert Vul.for_board(n).to_endplay() == EpVul.from_board(n)
        assert int(dealer_for_board(n)) == int(Player.from_board(n))
    for v in Vul:
        assert Vul.from_endplay(v.to_endplay()) is v


# -- play --------------------------------------------------------------------------------------


def test_play_basics() -> None:
    deal = Deal.from_pbn(DEAL1)
    s = PlayState.start(deal, Contract.parse("2S"), Seat.W)
    assert s.turn == Seat.N and s.remaining_tricks == 13 and not s.is_over
    before = s.snapshot()
    with pytest.raises(IllegalPlay, match="North cannot play SA: it is West's"):
        s.play(parse_card("SA"))
    s.play(parse_card("CT"))
    with pytest.raises(IllegalPlay, match="East must follow C"):
        s.play(parse_card("D4"))
    s.replay(["C4", "CA", "CJ"])
    assert s.won == [1, 0] and s.turn == Seat.S and s.history[0].winner == Seat.S
    assert s.history[0].card_of(Seat.W) == parse_card("CJ")
    s.replay(["H8", "H4", "HK", "H9"])
    assert s.gone.bit_count() == 8 and s.played_mask() == s.gone
    for _ in range(8):
        s.undo()
    assert s.snapshot() == before
    with pytest.raises(IndexError):
        s.undo()


def test_ruffing_and_overruffing() -> None:
    # West leads a club; North ruffs low, East overruffs, South discards: East wins.
    hands = [parse_hand(h) for h in ("2...", "3...", "..2.", "...A")]
    s = PlayState.from_position(hands, Denom.S, Seat.W)
    s.replay(["CA", "S2", "S3", "D2"])
    assert s.won == [0, 1] and s.leader == Seat.E and s.is_over
    s.undo()
    assert s.trick_winner is Seat.E
    s.undo()
    assert s.trick_winner is Seat.N


def test_mid_play_positions() -> None:
    deal = Deal.from_pbn(DEAL1)
    s = PlayState.start(deal, Contract.parse("3NT"), Seat.W)
    s.replay(["CT", "C4", "CA", "CJ", "H8", "H4"])
    p = PlayState.from_position(
        s.hands, Denom.NT, s.leader, trick=s.trick, won=(1, 0), declarer=Seat.W
    )
    assert p.legal_mask() == s.legal_mask() and p.turn == s.turn
    assert p.remaining_tricks == s.remaining_tricks == 12 and p.gone == s.gone
    ep = s.to_endplay()
    q = PlayState.from_endplay(ep, won=(1, 0), declarer=Seat.W)
    assert q.snapshot()[:7] == p.snapshot()[:7]
    with pytest.raises(DealError, match="should hold"):
        PlayState.from_position(s.hands, Denom.NT, s.leader, trick=s.trick[:1])
    with pytest.raises(DealError, match=r"on the table .* and also held"):
        PlayState.from_position(
            s.hands, Denom.NT, s.leader, trick=[next(iter_cards(s.hands[s.leader]))] * 2
        )


def test_legal_plays_and_trick_winners_match_endplay() -> None:
    """Every deal of the dev set: the recorded play, then random legal cards to the end."""
    rng = random.Random(2024)
    steps = 0
    for rec in dev_set():
        s = dds_start(rec)
        ep = s.to_endplay()
        recorded = dds_play(rec)
        while not s.is_over:
            mine = s.legal_plays()
            theirs = sorted(card_from_endplay(c) for c in ep.legal_moves())
            assert mine == theirs, (rec.board, s)
            c = recorded[s.cards_played] if s.cards_played < len(recorded) else rng.choice(mine)
            s.play(c)
            ep.play(CARD_NAMES[c])
            steps += 1
            if not s.trick:
                assert int(ep.first) == s.leader == s.history[-1].winner, (rec.board, s)
            mine_ep = s.to_endplay()  # endplay's == also compares stale trick-suit slots
            assert mine_ep.compare(ep, hands_only=True) and mine_ep.curtrick == ep.curtrick
            assert (mine_ep.first, mine_ep.trump) == (ep.first, ep.trump)
        assert sum(s.won) == 13
    assert steps == 100 * 52


def test_double_dummy_tables_of_converted_deals() -> None:
    """Our deal -> endplay conversion gives DDS the deal the file's table was computed on."""
    from endplay.dds import calc_dd_table
    from endplay.types import Denom as EpDenom
    from endplay.types import Player

    for rec in dev_set()[:3]:
        table = calc_dd_table(rec.deal.to_endplay())
        digits = rec.tags["DoubleDummyTricks"]
        i = 0
        for seat in "NSEW":
            for strain in (
                EpDenom.nt,
                EpDenom.spades,
                EpDenom.hearts,
                EpDenom.diamonds,
                EpDenom.clubs,
            ):
                assert table[strain, Player.find(seat)] == int(digits[i], 16), rec.board
                i += 1


# -- properties ---------------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.permutations(range(52)),
    st.integers(0, 4),
    st.integers(0, 3),
    st.lists(st.integers(0, 12), min_size=0, max_size=60),
    st.randoms(use_true_random=False),
)
def test_play_undo_round_trip(
    perm: list[int], trump: int, leader: int, choices: list[int], rng: random.Random
) -> None:
    hands = [mask_of(perm[13 * i : 13 * i + 13]) for i in range(4)]
    s = PlayState.from_position(hands, trump, leader)
    snaps = [s.snapshot()]
    for k in choices:
        if s.is_over:
            break
        legal = s.legal_plays()
        assert legal and mask_of(legal) == s.legal_mask()
        s.play(legal[k % len(legal)])
        snaps.append(s.snapshot())
        # conservation: every card is in a hand, on the table or gone, exactly once
        assert (s.hands[0] | s.hands[1] | s.hands[2] | s.hands[3] | s.played_mask()) == ALL_CARDS
        assert sum(h.bit_count() for h in s.hands) + s.cards_played == 52
        assert sum(s.won) == len(s.history)
        if rng.random() < 0.2:  # take a card back and replay it: same state
            c = s.undo()
            assert s.snapshot() == snaps[-2]
            s.play(c)
            assert s.snapshot() == snaps[-1]
    for snap in reversed(snaps[:-1]):
        s.undo()
        assert s.snapshot() == snap
    with pytest.raises(IndexError):
        s.undo()
