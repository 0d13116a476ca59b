"""Players for the declarer-play harness: information hiding, the layout sampler, defender
rules on constructed positions, the double-dummy players against DDS, the scripted defence,
and Monte-Carlo determinism."""

from __future__ import annotations

import random
from functools import cache
from itertools import combinations

import pytest

from knowledge.bridge import DATA_DIR as DATA
from knowledge.bridge.cards import (
    SUIT_MASKS,
    Denom,
    Seat,
    iter_cards,
    parse_card,
    parse_hand,
)
from knowledge.bridge.deal import Contract, PlayState
from knowledge.bridge.declarers import (
    DECLARERS,
    DoubleDummyDeclarer,
    HeuristicDeclarer,
    MonteCarloDeclarer,
)
from knowledge.bridge.defenders import (
    DoubleDummyDefender,
    HeuristicDefender,
    ScriptedDefender,
)
from knowledge.bridge.information import declarer_info, defender_info, masked_state
from knowledge.bridge.match import problem_from_record
from knowledge.bridge.pbn import BoardRecord, read_pbn
from knowledge.bridge.players import dd_solve, play_board


@cache
def dev_set() -> tuple[BoardRecord, ...]:
    return tuple(read_pbn(DATA / "dds-list100.pbn"))


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def position(
    hands: dict[str, str],
    trump: Denom,
    leader: str,
    declarer: str,
    played: str = "",
    contract: str = "3NT",
) -> PlayState:
    """A position from per-seat PBN hands (before ``played``), then ``played`` cards."""
    h = [parse_hand(hands[s]) for s in "NESW"]
    st = PlayState.from_position(
        h,
        trump,
        Seat.parse(leader),
        declarer=Seat.parse(declarer),
        contract=Contract.parse(contract),
    )
    for c in cards(played):
        st.play(c)
    return st


def defender_choice(st: PlayState) -> tuple[int, str | None]:
    d = HeuristicDefender()
    info = defender_info(st, st.turn)
    c = d.choose(masked_state(st, info), Seat(st.turn), info)
    return c, d.note


# -- defender rules on constructed positions ---------------------------------------------------

# Declarer South, dummy North (NT).  Positions are a few cards per hand; the opening lead
# has been made (a first trick, or cards on the table) so dummy is visible.


def test_second_hand_low() -> None:
    st = position(
        {"S": "2.AK..", "W": "K73...", "N": "QJ4...", "E": "A65..."},
        Denom.NT,
        "S",
        "S",
        played="S2",
    )
    c, note = defender_choice(st)
    assert c == parse_card("S3") and note == "second hand low"


def test_third_hand_high_cheapest_equivalent() -> None:
    # West leads, dummy (North) plays low, East holds KQ5: the queen, not the king.
    st = position(
        {"W": "2.AK..", "N": "4..A2.", "E": "KQ5...", "S": "A63..."},
        Denom.NT,
        "W",
        "S",
        played="S2 S4",
    )
    c, note = defender_choice(st)
    assert c == parse_card("SQ") and note == "third hand high"


def test_third_hand_only_as_high_as_needed_against_dummy() -> None:
    # Declarer South plays second, dummy North fourth holding J4: West's queen is enough.
    st = position(
        {"E": "2.AK..", "S": "3..A2.", "W": "AQ5...", "N": "J4.2.."},
        Denom.NT,
        "E",
        "S",
        played="S2 S3",
    )
    c, note = defender_choice(st)
    assert c == parse_card("SQ") and note == "third hand: only as high as needed"


def test_cover_an_honour_with_an_honour() -> None:
    st = position(
        {"S": "Q.AK..", "W": "K53...", "N": "A42...", "E": "T96..."},
        Denom.NT,
        "S",
        "S",
        played="SQ",
    )
    c, note = defender_choice(st)
    assert c == parse_card("SK") and note == "cover an honour with an honour"


def test_no_cover_of_touching_honours_led_from_dummy() -> None:
    # Dummy leads the queen from QJ4: wait for the jack (East plays low).
    st = position(
        {"N": "QJ4...", "E": "K53...", "S": "A2.A..", "W": "T96..."},
        Denom.NT,
        "N",
        "S",
        played="SQ",
    )
    c, note = defender_choice(st)
    assert c == parse_card("S3") and note == "second hand low"


def test_return_partners_suit() -> None:
    # West leads a heart, East wins the ace and returns the jack (top of two left).
    st = position(
        {"W": "Q8.Q52..", "N": "K2.76.5.", "E": "4.AJ4.J.", "S": "AJ.K3..3"},
        Denom.NT,
        "W",
        "S",
        played="H5 H6 HA H3",
    )
    assert st.turn == Seat.E
    c, note = defender_choice(st)
    assert c == parse_card("HJ") and note == "return partner's suit"


def test_discard_keeps_winners_and_length_with_dummy() -> None:
    # East, void in spades, keeps the heart ace and the three clubs that guard dummy's
    # KQJ5, and throws a worthless diamond (not the lowest card, the two of clubs).
    st = position(
        {"S": "AK.5.KQ.A", "W": "QJ.76.T.6", "N": "2.2..KQJ5", "E": ".A.98.432"},
        Denom.NT,
        "S",
        "S",
        played="SA SJ S2",
    )
    assert st.turn == Seat.E
    c, note = defender_choice(st)
    assert c == parse_card("D8") and note is not None and note.startswith("discard")


def test_ruff_when_it_wins_not_when_partner_wins() -> None:
    # Hearts are trumps; declarer South, dummy North; West is void in clubs.
    hands = {"E": "..54.4", "S": "32...K", "W": ".93.6."}
    st = position({**hands, "N": "..32.Q"}, Denom.H, "N", "S", played="CQ C4 CK", contract="4H")
    c, note = defender_choice(st)
    assert c == parse_card("H3") and note == "ruff: it wins the trick"
    # partner's ace is winning: discard instead
    hands2 = {"N": "..32.2", "E": "..54.A", "S": "32...3", "W": ".93.6."}
    st2 = position(hands2, Denom.H, "N", "S", played="C2 CA C3", contract="4H")
    c2, note2 = defender_choice(st2)
    assert c2 == parse_card("D6") and note2 is not None and note2.startswith("discard")


def test_opening_lead_top_of_sequence_against_nt() -> None:
    deal_text = "N:A52.K87.AQ5.K982 KQJT4.963.T82.73 876.AQ4.KJ6.AQJ5 93.JT52.9743.T64"
    from knowledge.bridge.deal import Deal

    st = PlayState.start(Deal.from_pbn(deal_text), Contract.parse("3NT"), Seat.N)
    assert st.turn == Seat.E
    c, note = defender_choice(st)
    assert c == parse_card("SK") and note is not None and "sequence" in note


# -- information hiding --------------------------------------------------------------------------


class Spy:
    """Wraps a player and checks that it never sees a hidden card.

    The true position is rebuilt from the deal and the public play record, only to check
    what the wrapped player was given.
    """

    def __init__(self, inner, deal, contract, declarer) -> None:
        self.inner = inner
        self.name = "spy-" + inner.name
        self.double_dummy = False
        self.start = (deal, contract, declarer)
        self.calls = 0

    def choose(self, state, seat, info):
        self.calls += 1
        truth = PlayState.start(*self.start).replay([c for _, c in info.plays])
        for s in info.hidden:
            assert state.hands[s] == 0 and info.hands[s] == 0
        for s in range(4):
            if s not in info.hidden:
                assert info.hands[s] == truth.hands[s] == state.hands[s]
        hidden_union = 0
        for s in info.hidden:
            hidden_union |= truth.hands[s]
        assert info.unseen == hidden_union  # the union only, never who holds what
        if (seat & 1) != (info.declarer & 1):
            assert set(info.hidden) >= {info.declarer, Seat(seat).partner}
            assert (info.dummy in info.hidden) == (truth.cards_played == 0)
        else:
            assert set(info.hidden) == {info.declarer.next, info.declarer.prev}
        return self.inner.choose(state, seat, info)


def test_non_dd_players_never_see_hidden_cards() -> None:
    from knowledge.bridge.deal import Deal

    for rec in dev_set()[1:3]:
        p = problem_from_record(rec)
        deal = Deal.from_pbn(p.deal)
        args = (deal, p.contract_obj, p.declarer_seat)
        decl = Spy(HeuristicDeclarer(), *args)
        dfn = Spy(HeuristicDefender(), *args)
        out = play_board(*args, decl, dfn)
        assert len(out.cards) == 52 and decl.calls > 0 and dfn.calls > 0
        assert len(out.notes) == len(out.seconds) == len(out.nodes) == 52


def test_dd_players_get_the_real_state() -> None:
    seen = []

    class Peek(DoubleDummyDeclarer):
        def choose(self, state, seat, info):
            seen.append(all(state.hands[s] for s in range(4)) or state.cards_played > 48)
            return super().choose(state, seat, info)

    p = problem_from_record(dev_set()[2])
    from knowledge.bridge.deal import Deal

    play_board(
        Deal.from_pbn(p.deal), p.contract_obj, p.declarer_seat, Peek(), DoubleDummyDefender()
    )
    assert seen and all(seen)


# -- the layout sampler -------------------------------------------------------------------------


def test_sampled_layouts_are_consistent() -> None:
    """(How fast the sampler is, is measured by ``benchmarks/bridge_core.py``.)"""
    rng = random.Random(5)
    for rec in dev_set()[:6]:
        p = problem_from_record(rec)
        from knowledge.bridge.deal import Deal

        st = PlayState.start(Deal.from_pbn(p.deal), p.contract_obj, p.declarer_seat)
        script = ScriptedDefender.from_record(rec).script
        for k, c in enumerate(script[:40]):
            if k % 5 == 1:
                info = declarer_info(st)
                for hands in info.consistent_layouts(rng, 50):
                    assert info.is_consistent(hands)
                    for s in info.hidden:
                        assert hands[s].bit_count() == st.hands[s].bit_count()
                        for suit in range(4):
                            if info.is_void(s, suit):
                                assert not hands[s] & SUIT_MASKS[suit]
                    assert hands[info.hidden[0]] | hands[info.hidden[1]] == info.unseen
                # the true layout is always one of the consistent ones
                assert info.is_consistent(tuple(st.hands))
            st.play(c)
    info = declarer_info(st)
    layouts = info.consistent_layouts(rng, 500)
    assert len(layouts) == 500 and all(info.is_consistent(h) for h in layouts)


def test_sampler_is_uniform_over_consistent_layouts() -> None:
    # West shows out of spades on trick 1, so East holds SK and SQ; the other six unseen
    # cards split 4-2 freely: C(6, 2) = 15 equally likely layouts.
    st = position(
        {"S": "A..432.5", "W": ".8765.6.", "N": "2...6432", "E": "KQJ..75."},
        Denom.NT,
        "S",
        "S",
        played="SA H5 S2 SJ",
    )
    info = declarer_info(st)
    assert info.is_void(Seat.W, 0)
    # exact enumeration of every split of the unseen cards, filtered by the voids
    unseen = list(iter_cards(info.unseen))
    consistent = set()
    for west in combinations(unseen, st.hands[Seat.W].bit_count()):
        w = sum(1 << c for c in west)
        hands = list(info.hands)
        hands[Seat.W], hands[Seat.E] = w, info.unseen & ~w
        if info.is_consistent(tuple(hands)):
            consistent.add(tuple(hands))
    assert len(consistent) == info.count_layouts() == 15
    rng = random.Random(1)
    n = 15_000
    counts: dict[tuple, int] = {}
    for layout in info.consistent_layouts(rng, n):
        assert layout in consistent
        counts[layout] = counts.get(layout, 0) + 1
    expected = n / 15
    chi2 = sum((counts.get(h, 0) - expected) ** 2 / expected for h in consistent)
    assert chi2 < 36.12  # chi-square, 14 degrees of freedom, p = 0.001


def test_defender_on_lead_cannot_see_dummy_and_samples_three_hands() -> None:
    p = problem_from_record(dev_set()[0])
    from knowledge.bridge.deal import Deal

    st = PlayState.start(Deal.from_pbn(p.deal), p.contract_obj, p.declarer_seat)
    info = defender_info(st, st.turn)
    assert len(info.hidden) == 3 and not info.dummy_visible
    for hands in info.consistent_layouts(random.Random(2), 20):
        assert info.is_consistent(hands)


# -- double dummy --------------------------------------------------------------------------------


@pytest.mark.parametrize("index", [0, 1, 2, 4, 7, 11, 19, 33])
def test_dd_declarer_against_dd_defence_makes_the_dd_tricks(index: int) -> None:
    rec = dev_set()[index]
    p = problem_from_record(rec)
    from knowledge.bridge.deal import Deal

    out = play_board(
        Deal.from_pbn(p.deal),
        p.contract_obj,
        p.declarer_seat,
        DoubleDummyDeclarer(),
        DoubleDummyDefender(),
    )
    assert out.declarer_tricks == int(rec.tags["DDSTrace"].split()[0])


def test_dd_solve_matches_the_file() -> None:
    for rec in dev_set()[:10]:
        st = PlayState.from_position(
            rec.deal.hands, Denom.parse(rec.tags["DDSTrump"]), Seat.parse(rec.tags["DDSLeader"])
        )
        scores, nodes = dd_solve(st)
        want = {
            parse_card(x.split(":")[0]): int(x.split(":")[1])
            for x in rec.tags["DDSFutureTricks"].split()
        }
        assert scores == want and nodes > 0


# -- scripted defence ---------------------------------------------------------------------------


def test_scripted_defender_follows_the_record_then_falls_back() -> None:
    rec = dev_set()[0]  # 45 recorded cards (a claim ends the record)
    p = problem_from_record(rec)
    from knowledge.bridge.deal import Deal

    deal = Deal.from_pbn(p.deal)
    script = ScriptedDefender.from_record(rec).script
    assert len(script) == 45
    # declarer also follows the record: the defence replays all of it, then falls back
    decl = ScriptedDefender(script, fallback=HeuristicDeclarer())
    dfn = ScriptedDefender.from_record(rec)
    out = play_board(deal, p.contract_obj, p.declarer_seat, decl, dfn)
    assert out.cards[:45] == list(script)
    side = p.declarer_seat & 1
    assert dfn.followed == sum(1 for s in out.seats[:45] if s & 1 != side)
    assert dfn.diverged_at is not None and dfn.diverged_at >= 45
    # declarer leaves the record after 12 cards: the defence follows until then only
    decl2 = ScriptedDefender(script[:12], fallback=HeuristicDeclarer())
    dfn2 = ScriptedDefender.from_record(rec)
    out2 = play_board(deal, p.contract_obj, p.declarer_seat, decl2, dfn2)
    m = next(i for i, (a, b) in enumerate(zip(out2.cards, script, strict=False)) if a != b)
    assert m >= 12 and out2.cards[:m] == list(script[:m])
    assert dfn2.followed == sum(1 for s in out2.seats[:m] if s & 1 != side)
    assert dfn2.diverged_at is not None and dfn2.diverged_at > m - 1


# -- Monte-Carlo declarer ------------------------------------------------------------------------


def test_mcdd_is_deterministic_for_a_seed() -> None:
    rec = dev_set()[3]
    p = problem_from_record(rec)
    from knowledge.bridge.deal import Deal

    deal = Deal.from_pbn(p.deal)

    def run(seed: int):
        decl = DECLARERS["mcdd"](samples=3, seed=seed, board=p.board, timeout=None)
        assert isinstance(decl, MonteCarloDeclarer)
        return play_board(deal, p.contract_obj, p.declarer_seat, decl, HeuristicDefender())

    a, b = run(7), run(7)
    assert a.cards == b.cards and a.declarer_tricks == b.declarer_tricks
    assert any(n for n in a.nodes if n)  # nodes are reported for declarer's decisions


def test_length_ranges_follow_the_voids_and_counts() -> None:
    st = position(
        {"S": "A..432.5", "W": ".8765.6.", "N": "2...6432", "E": "KQJ..75."},
        Denom.NT,
        "S",
        "S",
        played="SA H5 S2 SJ",
    )
    info = declarer_info(st)
    assert info.length_range(Seat.W, 0) == (0, 0)  # shown out of spades
    assert info.length_range(Seat.E, 0) == (2, 2)  # so East holds both spades left
    assert info.length_range(Seat.W, 1) == (1, 3)  # 3 hearts unseen; W holds 4 cards
    assert info.length_range(Seat.E, 1) == (0, 2)
