"""Declarer's analysis (``knowledge.bridge.analysis``) against Lo's worked examples.

The golden tests take the hands Lo (1987) prints and what the thesis says a declarer
counts in them -- sure tricks, extra tricks and their techniques, entries -- and check
the analysis says the same.  The expected values are written from the thesis (the seed
``001_…``: §1.3, §3.2.2.1, ch. 4, ch. 7 and ch. 10; checked notes in
``reference/seed001-003-bridge.md`` §A3, §A10, §A17), not from the program's output;
the hands are copied in as literals.  Where the thesis rounds (Goren's table: "36 %",
"68 %"), the vacant-places figures a priori are compared at that rounding.

Then the same analysis where the product shows it (``plan bridge --explain`` and
``--json``, ``play bridge --explain``, the table view), and properties on random deals.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from math import comb
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge.bridge.analysis import (
    FINESSE,
    LENGTH,
    PROMOTION,
    THROW_IN,
    Analysis,
    analyse,
    analysis_lines,
    compact_lines,
    position_from_hands,
)
from knowledge.bridge.cards import SUIT_MASKS, Seat, parse_card
from knowledge.bridge.deal import Contract, Deal, PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.position import Table, position_of
from workbench.cli import main

DEALS = Path(__file__).resolve().parents[1] / "knowledge/bridge/deals"

# ---------------------------------------------------------------------------------------
# Lo's worked examples
# ---------------------------------------------------------------------------------------


def lo_1_3() -> Analysis:
    """Lo §1.3, "The thought process of a human player": South declares 3NT, West leads
    the ♦Q.  Dummy ♠752 ♥83 ♦K92 ♣AK643; declarer ♠AK43 ♥AQ4 ♦A73 ♣852."""
    pos = position_from_hands("AK43.AQ4.A73.852", "752.83.K92.AK643", "3NT", "S")
    return analyse(pos.with_card(Seat.W, parse_card("DQ")))


def test_lo_1_3_counts_seven_sure_tricks_and_two_to_build() -> None:
    """ "Spades: 2 - the Ace and the King; Hearts: 1 - the Ace; Diamonds: 2 - the Ace and
    the King; Clubs: 2 - the Ace and the King.  The total number of sure tricks is 7.
    Therefore, at least 2 extra tricks must be built." (§1.3 B)"""
    a = lo_1_3()
    assert [s.sure for s in a.suits] == [2, 1, 2, 2]
    assert a.sure == 7 and a.needed == 9 and a.short == 2
    assert a.suit("S").sure_cards["S"] == ("♠A", "♠K")


def test_lo_1_3_suggests_a_technique_for_each_suit() -> None:
    """§1.3 C: spades -- the fourth spade if they divide 3-3 (Technique 2, length);
    hearts -- finesse the Q to trap the right-hand opponent's K (Technique 3, or 4, the
    throw-in); diamonds -- "no way to build any extra tricks"; clubs -- 2 extra tricks if
    the outstanding clubs divide 3-2 (Technique 2)."""
    a = lo_1_3()
    spades = a.suit("S").length
    assert spades is not None and (spades.tricks, spades.breaks[0].shape) == (1, "3-3")
    assert round(spades.chance or 0, 2) == 0.36  # Goren's 36 % (§4.1.2.3)
    hearts = a.suit("H")
    finesse, throw_in = hearts.technique(FINESSE), hearts.technique(THROW_IN)
    assert finesse is not None and throw_in is not None
    assert (finesse.tricks, finesse.defender, finesse.cards) == (1, "East", ("♥K",))
    assert finesse.chance == pytest.approx(0.5)  # a missing honour: either side, a priori
    assert throw_in.tricks == 1 and throw_in.defender == "West"
    assert hearts.length is None
    assert a.suit("D").techniques == ()
    clubs = a.suit("C").length
    assert clubs is not None and (clubs.tricks, clubs.breaks[0].shape) == (2, "3-2")
    assert round(clubs.breaks[0].probability, 2) == 0.68


def test_lo_1_3_clubs_first_and_dummy_keeps_the_king_of_diamonds_as_its_entry() -> None:
    """§1.3 D: "The Club suit seems to offer the best possibility for providing both
    extra tricks" (guideline b) -- and "win the first trick with your Ace.  You will then
    be able to use dummy's King as an ENTRY to the dummy to take your two Club tricks"."""
    a = lo_1_3()
    assert max(a.suits, key=lambda s: s.most).name == "clubs"
    assert a.suit("D").entries["N"].cards == ("♦K",) and a.suit("D").entries["N"].count == 1
    outside_clubs = [c for s in a.suits if s.name != "clubs" for c in s.entries["N"].cards]
    assert outside_clubs == ["♦K"]
    total = next(line for line in analysis_lines(a) if "Total:" in line)
    assert total.index("clubs") < total.index("finesse") < total.index("spades")
    assert "North's entries outside clubs: ♦K" in total


def test_the_lead_on_the_table_does_not_change_the_count() -> None:
    """The analysis is of the whole trick to come: with West's ♦Q on the table it counts
    what it counts before the lead."""
    before = analyse(position_from_hands("AK43.AQ4.A73.852", "752.83.K92.AK643", "3NT", "S"))
    after = lo_1_3()
    assert [s.sure for s in before.suits] == [s.sure for s in after.suits]
    assert [s.techniques for s in before.suits] == [s.techniques for s in after.suits]


def lo_ch3() -> Analysis:
    """Lo §3.2.2.1 and ch. 7, 3NT by South, ♠3 led: dummy ♠852 ♥A54 ♦AKQJ ♣752,
    declarer ♠KJ7 ♥KJ6 ♦984 ♣AQ83 (the North hand of §A17.2)."""
    return analyse(position_from_hands("KJ7.KJ6.984.AQ83", "852.A54.AKQJ.752", "3NT", "S"))


def test_lo_tech_info_4_3_002_clubs() -> None:
    """Tech-info-4-3-002 for ♣AQ83 opposite ♣752: "The Club suit has one sure trick";
    Technique-01 (finesse the Q, the lead from dummy) and Technique-02 (the default
    throw-in) each build 1 extra trick; Tricks-won-by-length 0.36.  The thesis binds the
    finesse's depend-on to West there -- an orientation slip (notes §A8.4); the
    bridge-correct holder, as in its own ch. 10 list, is East, the hand that plays
    before the tenace when dummy leads.  Its throw-in targets West ("Throw-in ?right-op"
    bound to West)."""
    clubs = lo_ch3().suit("C")
    assert clubs.sure == 1 and clubs.sure_cards["S"] == ("♣A",)
    finesse, throw_in, length = (
        clubs.technique(FINESSE),
        clubs.technique(THROW_IN),
        clubs.length,
    )
    assert finesse is not None and throw_in is not None and length is not None
    assert (finesse.tricks, finesse.defender) == (1, "East")
    assert (throw_in.tricks, throw_in.defender) == (1, "West")
    assert round(length.expected or 0, 2) == 0.36
    assert clubs.chosen is finesse  # a priori 50 %: the finesse, Lo's first technique


def test_lo_ch7_cashes_four_free_diamonds() -> None:
    """Ch. 7's throw-in sequence first plays "all free sure tricks": the ♦A, K, Q, J --
    four sure tricks in dummy, reached by leading the ♦4 from hand."""
    diamonds = lo_ch3().suit("D")
    assert diamonds.sure == 4 and diamonds.blocked is None
    assert diamonds.sure_cards["N"] == ("♦A", "♦K", "♦Q", "♦J")


def lo_ch10() -> Analysis:
    """Lo ch. 10, the main demonstration: 1NT by South, West leads the ♠7.  Dummy ♠652
    ♥A32 ♦974 ♣K643; declarer ♠AK4 ♥864 ♦AQ3 ♣A852."""
    pos = position_from_hands("AK4.864.AQ3.A852", "652.A32.974.K643", "1NT", "S")
    return analyse(pos.with_card(Seat.W, parse_card("S7")))


def test_lo_ch10_analysis_module_output() -> None:
    """The analysis module's file (ch. 10): spades Tech-Info-3-3-003, 2 sure tricks held
    by South, no technique, length 0; hearts 3-3-005, 1 sure trick held by North; diamonds
    3-3-004, 1 sure trick, Technique-01 and -02 one extra trick each, length 0; clubs
    4-4-004, 2 sure tricks (one in each hand), length 0.68.  "Only the Diamond suit can
    build one extra trick by applying either the Finesse technique or the Throw-in
    technique.  It is possible to build 0.68 tricks in the Club suit." """
    a = lo_ch10()
    spades, hearts, diamonds, clubs = a.suits
    assert (spades.sure, spades.sure_cards["S"], spades.techniques) == (2, ("♠A", "♠K"), ())
    assert (hearts.sure, hearts.sure_cards["N"], hearts.techniques) == (1, ("♥A",), ())
    assert diamonds.sure == 1 and diamonds.length is None
    assert [t.kind for t in diamonds.techniques] == [FINESSE, THROW_IN]
    assert [t.tricks for t in diamonds.techniques] == [1, 1]
    assert (clubs.sure, clubs.sure_cards) == (2, {"S": ("♣A",), "N": ("♣K",)})
    assert [t.kind for t in clubs.techniques] == [LENGTH]
    assert round(clubs.length.expected or 0, 2) == 0.68  # type: ignore[union-attr]
    assert a.sure == 6 and a.needed == 7


def test_lo_ch10_finesse_question_and_default() -> None:
    """The depend-on binds to "(EAST HAS THE DIAMOND K)"; "If the answer is less than
    0.5, then the Finesse technique is not suitable ... the Throw-in technique is the
    default", throwing in West ("THROW-IN ?LEFT-OP", ?left-op = WEST)."""
    diamonds = lo_ch10().suit("D")
    finesse = diamonds.technique(FINESSE)
    assert finesse is not None and finesse.condition == "if East has the ♦K"
    assert diamonds.chosen is finesse
    doubtful = replace(
        diamonds,
        techniques=tuple(
            replace(t, chance=0.45) if t is finesse else t for t in diamonds.techniques
        ),
    )
    assert doubtful.chosen is not None and doubtful.chosen.kind == THROW_IN
    assert doubtful.chosen.defender == "West"


def single_suit(declarer: str, dummy: str) -> Analysis:
    """Ch. 4's one-suit illustrations, in spades: the other cards fill the hands from
    hearts (declarer) and diamonds (dummy) so they do not touch spades."""
    hearts = "AKQJT98765432"[: 13 - len(declarer)]
    diamonds = "AKQJT98765432"[: 13 - len(dummy)]
    pos = position_from_hands(f"{declarer}.{hearts}..", f"{dummy}..{diamonds}.", "3NT", "S")
    return analyse(pos)


@pytest.mark.parametrize(
    ("declarer", "dummy", "extra", "knocked"),
    [
        ("KQJ", "432", 2, ("♠A",)),  # §4.1.2.1 a: "two extra tricks by promoting the Q and J"
        ("QJT", "654", 1, ("♠A", "♠K")),  # b: "you have built a trick in the suit"
        ("JT98", "5432", 1, ("♠A", "♠K", "♠Q")),  # c: "established your 8"
    ],
)
def test_lo_promotion_examples(
    declarer: str, dummy: str, extra: int, knocked: tuple[str, ...]
) -> None:
    spades = single_suit(declarer, dummy).suit("S")
    promotion = spades.technique(PROMOTION)
    assert spades.sure == 0 and promotion is not None
    assert (promotion.tricks, promotion.cards, promotion.gives_up_lead) == (
        extra,
        knocked,
        len(knocked),
    )


def test_lo_sure_trick_example() -> None:
    """§4.1.1: dummy K 6 3, declarer A Q 7: "The Ace, King, and Queen are the sure
    tricks"."""
    spades = single_suit("AQ7", "K63").suit("S")
    assert spades.sure == 3 and spades.techniques == ()


def test_lo_finesse_example() -> None:
    """§4.1.2.2: dummy K 5, declarer 4 2: lead low toward the K; it makes a trick when the
    left-hand opponent has the Ace -- "a 50% chance"."""
    spades = single_suit("42", "K5").suit("S")
    finesse = spades.technique(FINESSE)
    assert spades.sure == 0 and finesse is not None
    assert (finesse.tricks, finesse.defender, finesse.cards) == (1, "West", ("♠A",))
    assert finesse.chance == pytest.approx(0.5)


def test_lo_throw_in_example() -> None:
    """§4.1.2.3: dummy 7 3 2, declarer A Q 6: playing it yourself makes only the A; "if
    you let your left-hand opponent play this suit first, then the Queen ... may win"."""
    spades = single_suit("AQ6", "732").suit("S")
    throw_in = spades.technique(THROW_IN)
    assert spades.sure == 1 and throw_in is not None
    assert (throw_in.tricks, throw_in.defender, throw_in.chance) == (1, "West", None)


def test_lo_length_example() -> None:
    """§4.1.2.3 (suit length): dummy 6 5 4 3, declarer A K 7 2: eight cards, the five
    outstanding usually 3-2; after two rounds and a third lost, the last card is a trick;
    worth 0.68 by the formula (3-2 at 68 % × 1)."""
    spades = single_suit("AK72", "6543").suit("S")
    length = spades.length
    assert spades.sure == 2 and length is not None
    assert [(b.shape, b.tricks) for b in length.breaks] == [("3-2", 1)]
    assert round(length.expected or 0, 2) == 0.68


@pytest.mark.parametrize(
    ("declarer", "dummy", "worth"),
    [
        ("AQ83", "752", 0.36),  # §4.1.2.3's worked table: 4-3, 3-3 at 36 %
        ("A852", "K643", 0.68),  # ch. 10 clubs: 4-4, 3-2 at 68 %
        ("AK43", "752", 0.36),  # §1.3 spades
        ("852", "AK643", 1.64),  # §1.3 clubs: 2 × 0.68 + 1 × 0.28 (notes §A10.3)
        ("AK4", "652", 0.0),  # ch. 10 spades
    ],
)
def test_lo_tricks_won_by_length(declarer: str, dummy: str, worth: float) -> None:
    """Lo's Tricks-won-by-length, Σ P(split) × (long hand - longer defender) (§4.1.2.3),
    at Goren's rounding."""
    length = single_suit(declarer, dummy).suit("S").length
    got = round(length.expected or 0.0, 2) if length else 0.0
    assert got == worth


def test_a_blocked_suit_needs_an_entry() -> None:
    """A-K opposite Q-x-x-x: three sure tricks, but the third needs an entry to the long
    hand from another suit (the book example of a blocked suit)."""
    spades = single_suit("Q432", "AK").suit("S")
    assert spades.sure == 3 and spades.blocked == "blocked: needs an entry to South"


def test_a_finesse_protects_only_the_hand_over_the_missing_card() -> None:
    """K-8 opposite Q-J-6-5 against the A: leading towards the K gains nothing -- the
    holder of the A sits over dummy's Q-J -- so there is no finesse, only promotion."""
    spades = single_suit("K8", "QJ65").suit("S")
    assert spades.technique(FINESSE) is None
    promotion = spades.technique(PROMOTION)
    assert promotion is not None and promotion.tricks == 2


# ---------------------------------------------------------------------------------------
# Deal 353021 at trick 5 (Smith 1997, Figures 5.12-5.13)
# ---------------------------------------------------------------------------------------


def trick5() -> Analysis:
    from knowledge import get_package

    _, problem = get_package("bridge").problem("353021-trick5")
    return analyse(problem.state)


def test_353021_trick5_from_the_deal() -> None:
    """North ♠QJ65 ♦AK53 ♣9 (no hearts), South ♠K8 ♥J863 ♦4 ♣54 in 4♥, three tricks won,
    nine cards each: the ♦A K are the only sure tricks; the ♠A and ♥K must be knocked out
    (2 and 3 tricks by promotion); diamonds make 2 more if they broke 3-3 -- with four
    unseen and 9 + 9 vacant places, C(4,2)·C(14,7)/C(18,9); the defenders' ♣K Q 10 sit
    over the ♣9 and South ruffs the third round, so clubs threaten 2 tricks, reached with
    the ♠A or ♥K; South's losers are ♠1 ♥1 ♣2 where 2 are allowed."""
    a = trick5()
    assert (a.won, a.needed, a.remaining, a.sure) == (3, 7, 9, 2)
    spades, hearts, diamonds, clubs = a.suits
    assert spades.promotion == 2 and hearts.promotion == 3
    assert spades.technique(PROMOTION).cards == ("♠A",)  # type: ignore[union-attr]
    length = diamonds.length
    assert length is not None and (length.tricks, length.breaks[0].shape) == (2, "3-3")
    assert length.chance == pytest.approx(comb(4, 2) * comb(14, 7) / comb(18, 9))
    assert clubs.techniques == ()
    assert a.threat is not None and a.threat.suit == 3 and a.threat.tricks == pytest.approx(2)
    assert a.threat.ways_in == ("♠A", "♥K")
    assert a.losers is not None and a.losers.per_suit == (1, 1, 0, 2) and a.losers.allowed == 2
    assert a.losers.discards == ("♦K",)


# ---------------------------------------------------------------------------------------
# Where it is shown
# ---------------------------------------------------------------------------------------

IDENTIFIER = re.compile(r"\w+\(\w+=|[a-z]+_[a-z]+|\b[A-Z][a-z]+[A-Z]\w*\(")


def test_plan_bridge_explain_opens_with_a_short_analysis(capsys) -> None:
    assert main(["plan", "bridge", "353021-trick5", "--explain"]) == 0
    out = capsys.readouterr().out
    section = out.split("\n\n", 1)[0].splitlines()
    assert section[0].startswith("Declarer's analysis (after Lo 1987): 4♥ by South")
    assert 6 <= len(section) <= 10
    assert not any(IDENTIFIER.search(line) for line in section), section
    assert any("sure tricks" in line for line in section)
    assert any(line.lstrip().startswith("Entries") for line in section)
    assert "The planner plays ♦A (expected score +394.75)" in section[-1]


def test_plan_bridge_json_has_the_analysis(capsys) -> None:
    assert main(["plan", "bridge", "353021-trick5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    analysis = data["analysis"]
    assert analysis["sure"] == 2 and analysis["short"] == 5
    assert [s["suit"] for s in analysis["suits"]] == ["S", "H", "D", "C"]
    assert analysis["threat"]["suit"] == "C"
    assert analysis["planner"]["card"] == "♦A"
    assert analysis["planner"]["value"] == pytest.approx(data["value"], abs=1e-3)
    assert analysis["text"][0].startswith("Declarer's analysis")


def test_play_bridge_explain_shows_the_analysis_at_each_decision(capsys) -> None:
    assert main(["play", "bridge", str(DEALS / "fig5-1.pbn"), "--json", "--explain"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decisions"] and all("analysis" in d for d in data["decisions"])
    first = data["decisions"][0]["analysis"]
    assert first["trick"] == 1 and first["planner"]["card"]
    assert main(["play", "bridge", str(DEALS / "fig5-1.pbn"), "--explain=full"]) == 0
    out = capsys.readouterr().out
    assert out.count("Declarer's analysis (after Lo 1987)") == len(data["decisions"])


async def test_the_table_shows_the_analysis_of_the_position() -> None:
    from textual.app import App

    from workbench.domains.bridge.analysis_panel import AnalysisPanel
    from workbench.domains.bridge.view import BridgeScreen

    screen = BridgeScreen.of_text("353021-trick5", (DEALS / "353021-trick5.pbn").read_text())

    class TableApp(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen)

    app = TableApp()
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.pause()
        text = screen.query_one(AnalysisPanel).plain()
    *lines, planner = text.splitlines()
    assert lines == compact_lines(trick5())
    assert planner == "The planner's static count: 8 tricks"
    assert "2 sure" in text and "promotion" in text and "Entries" in text
    assert all(len(line) <= 61 for line in text.splitlines())  # the panel's width: no wrap


# ---------------------------------------------------------------------------------------
# Properties on random deals
# ---------------------------------------------------------------------------------------


@st.composite
def positions(draw: st.DrawFn) -> tuple[PlayState, Table]:
    """A random deal, contract and declarer, played on at random for a while."""
    order = draw(st.permutations(range(52)))
    hands = tuple(sum(1 << c for c in order[13 * k : 13 * k + 13]) for k in range(4))
    contract = Contract.parse(draw(st.sampled_from(["1NT", "3NT", "4S", "4H", "5D", "3C"])))
    declarer = Seat(draw(st.integers(0, 3)))
    state = PlayState.start(Deal(hands), contract, declarer)  # type: ignore[arg-type]
    for _ in range(draw(st.integers(0, 47))):
        legal = sorted(state.legal_plays())
        state.play(legal[draw(st.integers(0, len(legal) - 1))])
    return state, Table(contract, int(declarer), False)


def _analysis(state: PlayState, table: Table) -> Analysis:
    return analyse(position_of(declarer_info(state), table))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_counts_stay_within_the_cards(case: tuple[PlayState, Table]) -> None:
    """Sure tricks never exceed the longer hand or the cards above all of theirs; no
    technique builds more than the rounds left; every chance is a probability; the totals
    are the sums of the suits."""
    state, table = case
    a = _analysis(state, table)
    for s in a.suits:
        longer = max(len(h) for h in s.holdings.values())
        winners = sum(len(c) for c in s.sure_cards.values())
        assert 0 <= s.sure <= min(longer, winners)
        for t in s.techniques:
            assert t.tricks >= 1
            extra = t.tricks if t.kind != PROMOTION else 0
            assert s.sure + s.promotion + extra <= longer
            if t.chance is not None:
                assert 0.0 <= t.chance <= 1.0 + 1e-9
            assert sum(b.probability for b in t.breaks) <= 1.0 + 1e-9
            assert all(0.0 < b.probability <= 1.0 + 1e-9 for b in t.breaks)
            if t.expected is not None:
                assert t.expected <= t.tricks + 1e-9
        for seat, e in s.entries.items():
            other = next(h for k, h in s.holdings.items() if k != seat)
            assert 0 <= e.count <= min(len(e.cards), len(other))
        assert 0.0 <= s.their_sure <= s.theirs
        assert s.sure <= s.expected <= longer + 2  # Lo adds the length expectation on top
    assert a.sure == sum(s.sure for s in a.suits)
    assert a.promotion == sum(s.promotion for s in a.suits)
    assert a.expected == pytest.approx(sum(s.expected for s in a.suits))
    assert a.short == max(0, a.needed - a.sure)
    if a.losers is not None:
        assert a.losers.total == sum(a.losers.per_suit)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_words_only_and_deterministic(case: tuple[PlayState, Table]) -> None:
    """The text has no identifiers and no "None"; the same position gives the same
    analysis; it is the same for a trick half played as at the trick's start, as long as
    nobody has shown out in it (a show-out tells where the suit's cards are, and so
    changes the chances of its breaks)."""
    state, table = case
    a = _analysis(state, table)
    lines = analysis_lines(a) + compact_lines(a)
    assert not any(IDENTIFIER.search(line) or "None" in line for line in lines), lines
    assert _analysis(state, table).to_dict() == a.to_dict()
    json.dumps(a.to_dict())
    if state.trick and all(c // 13 == state.trick[0] // 13 for c in state.trick):
        start = state.copy()
        while start.trick:
            start.undo()
        assert [s.techniques for s in _analysis(start, table).suits] == [
            s.techniques for s in a.suits
        ]
        assert [s.sure for s in _analysis(start, table).suits] == [s.sure for s in a.suits]


def test_unseen_cards_are_all_the_defenders_hold() -> None:
    """A cross-check of the inputs: the defenders' cards per suit are what declarer
    cannot see (thirteen less our two hands)."""
    a = lo_ch10()
    pos = position_from_hands("AK4.864.AQ3.A852", "652.A32.974.K643", "1NT", "S")
    for s in a.suits:
        ours = (pos.hands[Seat.S] | pos.hands[Seat.N]) & SUIT_MASKS[s.suit]
        assert s.theirs == 13 - ours.bit_count()
