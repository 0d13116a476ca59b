"""Belief functions (knowledge/bridge/beliefs.py) against the dissertation's printed numbers.

Sources: Smith (1997) §5.3.1, deal 353021 -- footnote 1 (p. 79) and the trick-5 game tree,
Fig. 5.13 with its text and footnotes 3-4 (p. 83-85); notes in
``/work/shared/reference/seed000-bridge-results.md`` §3.8 and §6.1.  Every test builds the
situation the dissertation describes and asks the public API, never a hand-copied formula.

Deal 353021, South 4♥.  N: S QJ65 H 97 D AK532 C A9 / S: S K8 H AJ8632 D Q4 C 542.
Tricks 1-4: ♦6 ♦2 ♦8 ♦Q; ♥4 ♥7 ♥5 ♥A; ♥Q ♥9 ♥T ♥2; ♣J ♣A ♣8 ♣2 -- each defender followed
suit every time, so at trick 5 each holds 9 cards; 4 diamonds and the ♥K are out.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from knowledge.bridge.beliefs import (
    DEFAULT_MODEL,
    DISSERTATION,
    MODELS,
    DissertationModel,
    Knowledge,
    Outcome,
    Vacancies,
    VacantPlaces,
    belief_view,
    get_model,
    p_finesse,
    shape_counts,
)

S, H, D, C = range(4)
VP = VacantPlaces()
CORRECTED = DissertationModel(off_by_one=False)
A_PRIORI = Vacancies(13, 13)  # before the opening lead: 13 vacant places each


def printed(value: float, figure: str) -> bool:
    """``value`` agrees with a figure printed to len(decimals) places (rounded, half-unit)."""
    decimals = len(figure.split(".")[1])
    return abs(value - float(figure)) <= 0.5 * 10**-decimals + 1e-12


def trick5() -> Knowledge:
    """Fig. 5.12: North on lead at trick 5, both defenders followed to tricks 1-4."""
    ours = (4 + 2, 2 + 6, 5 + 2, 2 + 3)  # N + S per suit: S, H, D, C
    k = Knowledge.start(ours)
    for suit in (D, H, H, C):
        k = k.play("W", suit).play("E", suit)
    return k


def trick6() -> Knowledge:
    """After the planned first round of the diamond discard (♦A): both follow."""
    return trick5().play("E", D).play("W", D)


# ---- Footnote 1 (p. 79): comparing plans before play, C(n,k)/2^n with 13 places each ----


def test_hearts_3_2_is_0625():
    """0.625 = P(hearts 3-2), 5 hearts out: (C(5,2)+C(5,3))/2^5 (footnote 1, §6.1 notes)."""
    assert printed(DISSERTATION.p_split(5, 2, A_PRIORI), "0.625")
    assert DISSERTATION.p_split(5, 2, A_PRIORI) == 20 / 32


def test_diamonds_3_3_is_03125():
    """0.3125 = P(diamonds 3-3), 6 diamonds out: C(6,3)/2^6 (footnote 1)."""
    assert DISSERTATION.p_split(6, 3, A_PRIORI) == 0.3125


def test_spades_4_3_is_05469():
    """0.5469 = P(spades 4-3), 7 spades out: (C(7,3)+C(7,4))/2^7 (footnote 1)."""
    assert printed(DISSERTATION.p_split(7, 3, A_PRIORI), "0.5469")


def test_plan_a_joint_is_01068():
    """0.1068 = P(hearts 3-2 and diamonds 3-3 and spades 4-3): Plan A, a club loser away on
    spades and one on diamonds (footnote 1).  The dissertation model multiplies (suits are
    independent there); vacant places, where suits share places, differs."""
    needs = [(5, shape_counts(5, [(3, 2)])), (6, {3}), (7, shape_counts(7, [(4, 3)]))]
    assert printed(DISSERTATION.p_joint(A_PRIORI, needs), "0.1068")
    exact = VP.p_joint(A_PRIORI, needs)
    assert not printed(exact, "0.1068") and exact == pytest.approx(0.1696, abs=1e-4)


def test_other_footnote_figures():
    """The rest of footnote 1 and footnote 6 (p. 79, p. 88): ♥KQ onside with hearts 3-2 is
    4/32 = 0.125; Tignum 2's plan (hearts 3-2, diamonds 3-3) 0.1953; ♥KQ bare either side
    0.0625.  Plan B's "3-3 or 4-2" is printed 0.625 but the stated formula gives 50/64
    (seed000 notes §14): we return the formula's value."""
    hearts = Knowledge.start((13, 8, 0, 5))  # only the hearts matter: 5 out
    assert p_finesse(hearts, H, "W", honours=2, model=DISSERTATION, lengths={2, 3}) == 0.125
    assert printed(DISSERTATION.p_joint(A_PRIORI, [(5, {2, 3}), (6, {3})]), "0.1953")
    bare = sum(DISSERTATION.p_cards(d, 5, 2, A_PRIORI, lengths={2}) for d in "WE")
    assert bare == 0.0625
    assert DISSERTATION.p_length("W", 6, A_PRIORI, {2, 3, 4}) == 50 / 64


# ---- Fig. 5.13, trick 5 (p. 83-85): the per-method belief views ---------------------------


def test_trick5_bookkeeping():
    """Fig. 5.12: 18 cards between the defenders, 9 each; 4 diamonds and 1 heart unseen."""
    k = trick5()
    assert k.hands == (9, 9) and k.unseen == (7, 1, 4, 6)
    assert k.free_places() == Vacancies(9, 9)
    assert k.original(D, 0) == (1, 5)


def test_first_round_ruff_0071_0929():
    """0.071 / 0.929 = P(West ruffs the ♦A with the ♥K) / P(no ruff), "set up a diamond
    discard" view: P(5-1 | not 6-0) = (C(4,0)+C(4,4))/2^4 = 0.125 times Tignum 2's 8/14 for
    "the diamond-short defender holds the last trump" (p. 83)."""
    ruff, no_ruff = belief_view("ruff", trick5(), D, trump=H, model=DISSERTATION)
    assert ruff.key == "ruff" and ruff.shapes == ((5, 1),)
    assert printed(ruff.probability, "0.071") and printed(no_ruff.probability, "0.929")
    assert ruff.probability == pytest.approx(0.125 * 8 / 14)
    assert DISSERTATION.p_split(4, 0, trick5().vacancies(D)) == 0.125
    assert "diamonds 5-1" in ruff.label


def test_second_round_ruff_025_075():
    """0.250 / 0.750 = P(West ruffs the ♦K) / P(no ruff) after both follow to the ♦A:
    P(4-2 | not 5-1, not 6-0) = (C(2,0)+C(2,2))/2^2 = 0.5 times Tignum 2's 8/16 = 0.5
    (p. 84-85)."""
    ruff, no_ruff = belief_view("no-ruff", trick6(), D, trump=H, model=DISSERTATION)
    assert printed(ruff.probability, "0.250") and printed(no_ruff.probability, "0.750")
    assert ruff.shapes == ((4, 2),)


def test_length_winner_0375_0625():
    """0.375 / 0.625 = P(diamonds 3-3 | not 6-0) = C(4,2)/2^4, East follows with the ♦T /
    P(uneven), East shows out (p. 85): the "set up a length winner" view."""
    even, uneven = belief_view("even", trick5(), D, model=DISSERTATION)
    assert (even.label, even.key) == ("diamonds 3-3", "even")
    assert printed(even.probability, "0.375") and printed(uneven.probability, "0.625")
    assert uneven.shapes == ((4, 2), (5, 1))
    assert belief_view("uneven", trick5(), D, model=DISSERTATION) == [even, uneven]


def test_cash_out_is_worst_case():
    """Cash high cards (p. 85): "all suits split as badly as possible, so ... West is certain
    to play the ♥K at the first opportunity"."""
    for model in (DISSERTATION, VP):
        [worst] = belief_view("worst-case", trick5(), D, trump=H, model=model)
        assert worst.probability == 1 and worst.shapes == ((5, 1),) and worst.ruff


def test_tree_values():
    """Fig. 5.13: the diamond discard is worth 0.929·(0.25·-100 + 0.75·620) + 0.071·-200,
    printed +394.271 (the exact arithmetic is 394.29, seed000 §14); the length winner
    0.375·620 + 0.625·-100 = +170."""
    r1 = {
        o.key: o.probability for o in belief_view("ruff", trick5(), D, trump=H, model=DISSERTATION)
    }
    r2 = {
        o.key: o.probability for o in belief_view("ruff", trick6(), D, trump=H, model=DISSERTATION)
    }
    discard = r1["no-ruff"] * (r2["ruff"] * -100 + r2["no-ruff"] * 620) + r1["ruff"] * -200
    assert discard == pytest.approx(394.2857, abs=1e-3) and abs(discard - 394.271) < 0.02
    even = {o.key: o.probability for o in belief_view("even", trick5(), D, model=DISSERTATION)}
    assert even["even"] * 620 + even["uneven"] * -100 == pytest.approx(170)


# ---- Footnotes 3 and 4: the vacant-places corrections -------------------------------------


def test_correction_9_14():
    """9/14 (footnote 3, p. 83): if one defender has all four diamonds it has 5 other cards
    and the other defender 9, so the diamond-void defender holds the last trump with
    probability 9/(9+5); Tignum 2 computed 8/14 = 0.571.  The ruff itself is then
    0.0824 · 9/14 under vacant places, not 0.071."""
    vac = trick5().free_places()
    assert VP.p_other_given_split("W", 4, 0, vac) == pytest.approx(9 / 14)
    assert VP.p_other_given_split("E", 4, 4, vac) == pytest.approx(9 / 14)
    assert CORRECTED.p_other_given_split("W", 4, 0, vac) == pytest.approx(9 / 14)
    assert DISSERTATION.p_other_given_split("W", 4, 0, vac) == pytest.approx(8 / 14)
    assert printed(9 / 14, "0.643") and abs(9 / 14 - 0.642) < 1e-3  # printed truncated
    [ruff, _] = belief_view("ruff", trick5(), D, trump=H)  # the default model
    assert ruff.probability == pytest.approx(2 * 2002 / 48620 * 9 / 14)


def test_correction_9_16():
    """9/16 = 0.5625 (footnote 4, p. 85): the author's correction for the second round.  It
    counts the defenders' places as at trick 5 (9 each) less the two diamonds still out,
    both with the long hand: 9/(9+7).  Tignum 2's 8/16 is the same accounting with the
    numerator one short.  Updating the places for the round-1 plays as well (8 each, trick
    6) gives 8/(8+6) = 4/7 under vacant places -- see the module report."""
    at_trick5 = trick5().free_places()
    assert VP.p_other_given_split("W", 2, 0, at_trick5) == pytest.approx(9 / 16)
    assert CORRECTED.p_other_given_split("W", 2, 0, at_trick5) == pytest.approx(0.5625)
    assert DISSERTATION.p_other_given_split("W", 2, 0, at_trick5) == pytest.approx(8 / 16)
    consistent = trick6().free_places()
    assert consistent == Vacancies(8, 8)
    assert VP.p_other_given_split("W", 2, 0, consistent) == pytest.approx(8 / 14)
    [ruff, _] = belief_view("ruff", trick6(), D, trump=H)
    assert ruff.probability == pytest.approx(7 / 15 * 4 / 7)


# ---- Published a-priori split table: vacant places with 13 places each --------------------


@pytest.mark.parametrize(
    ("n", "shape", "percent"),
    [
        (7, (4, 3), 62.17),
        (7, (5, 2), 30.52),
        (7, (6, 1), 6.78),
        (7, (7, 0), 0.52),
        (6, (3, 3), 35.53),
        (6, (4, 2), 48.45),
        (6, (5, 1), 14.53),
        (6, (6, 0), 1.49),
        (5, (3, 2), 67.83),
        (5, (4, 1), 28.26),
        (5, (5, 0), 3.91),
        (4, (2, 2), 40.70),
        (4, (3, 1), 49.74),
        (4, (4, 0), 9.57),
        (3, (2, 1), 78.00),
        (3, (3, 0), 22.00),
        (2, (1, 1), 52.00),
        (2, (2, 0), 48.00),
        (8, (4, 4), 32.72),
        (8, (5, 3), 47.12),
        (8, (8, 0), 0.16),
    ],
)
def test_a_priori_split_table(n, shape, percent):
    """The standard bridge suit-split table (e.g. Goren; seed001-003 notes A10.3)."""
    p = DEFAULT_MODEL.p_split(n, shape[1], A_PRIORI)
    assert abs(100 * p - percent) <= 0.005 + 1e-9


def test_a_priori_card_and_finesse():
    """A single missing honour is onside half the time a priori, under both models."""
    k = Knowledge.start((6, 6, 7, 7))
    for model in MODELS.values():
        assert p_finesse(k, S, "W", model=model) == pytest.approx(0.5)
    assert [o.label for o in belief_view("card", k, D, card="K")] == [
        "West has the ♦K",
        "East has the ♦K",
    ]


# ---- Knowledge: voids and seen cards --------------------------------------------------------


def test_show_out_moves_places():
    """West shows out of diamonds on the first round: every diamond is East's, and East's
    places for the other suits shrink by the diamonds it must hold."""
    k = Knowledge.start((6, 8, 7, 5))  # 7 S, 5 H, 6 D, 8 C out
    k = k.play("E", D).play("W", S, led=D)
    assert k.is_void("W", D) and k.void_in(D) == "W"
    assert k.vacancies(D) == Vacancies(0, 5)
    assert k.free_places() == Vacancies(12, 12 - 5)
    for model in MODELS.values():
        assert model.p_void("W", 5, k.vacancies(D)) == 1
        assert model.p_card("E", 5, k.vacancies(D)) == 1
    assert VP.p_card("W", k.unseen[H], k.vacancies(H)) == pytest.approx(12 / 19)
    [ruff, _no] = belief_view("ruff", k, D, trump=H)
    assert ruff.probability == pytest.approx(1 - VP.p_void("W", 5, k.free_places()))


def test_bad_updates_raise():
    k = Knowledge.start((6, 8, 7, 5)).play("W", S, led=D)
    with pytest.raises(ValueError):
        k.play("W", D)
    with pytest.raises(ValueError):
        k.play("N", D)
    with pytest.raises(ValueError):
        Knowledge.start((13, 13, 0, 1))
    with pytest.raises(ValueError):
        belief_view("optimistic", k, S)
    with pytest.raises(ValueError):
        get_model("bayes")
    with pytest.raises(ValueError):
        VP.split(5, Vacancies(2, 2))


# ---- Properties -------------------------------------------------------------------------------


@st.composite
def places(draw, max_places=13):
    a = draw(st.integers(0, max_places))
    b = draw(st.integers(0, max_places))
    n = draw(st.integers(0, min(a + b, 13)))
    return n, Vacancies(a, b)


@given(places(), st.sampled_from(list(MODELS.values())))
def test_splits_sum_to_one(nv, model):
    n, vac = nv
    dist = model.split(n, vac)
    assert sum(dist) == pytest.approx(1.0)
    assert all(p >= 0 for p in dist)
    assert model.p_card("W", n, vac) + model.p_card("E", n, vac) == pytest.approx(1 if n else 0)


@given(places(max_places=7))
def test_vacant_places_matches_brute_force(nv):
    """Deal the a+b unseen cards every possible way (n of them in the suit): West's share of
    the suit, and where one particular card goes, match the closed forms."""
    n, vac = nv
    counts = [0] * (n + 1)
    card0 = 0
    deals = list(itertools.combinations(range(vac.total), vac.west))
    for west in deals:
        k = sum(1 for c in west if c < n)
        counts[k] += 1
        card0 += 0 in west
    for k, p in enumerate(VP.split(n, vac)):
        assert Fraction(p).limit_denominator(10**6) == Fraction(counts[k], len(deals))
    if n:
        assert VP.p_card("W", n, vac) == pytest.approx(vac.west / vac.total)
        assert VP.p_card("W", n, vac) == pytest.approx(card0 / len(deals))


@settings(deadline=None)
@given(st.integers(0, 13), st.integers(0, 6))
def test_models_agree_where_they_should(n, m):
    """Equal places and at most one card: identical.  Many equal places: the hypergeometric
    tends to the binomial."""
    if n <= 1:
        vac = Vacancies(m + n, m + n)
        assert VP.split(n, vac) == pytest.approx(DISSERTATION.split(n, vac))
    big = Vacancies(2000, 2000)
    assert VP.split(n, big) == pytest.approx(DISSERTATION.split(n, big), abs=3e-3)


@st.composite
def positions(draw):
    """A position reached by real play: an actual layout of the unseen cards, then voids
    shown and cards revealed that are true of it."""
    held = [[draw(st.integers(0, 3 if s % 2 else 2)) for s in range(4)] for _ in range(2)]
    k = Knowledge.from_counts(
        [held[0][s] + held[1][s] for s in range(4)], (sum(held[0]), sum(held[1]))
    )
    for _ in range(draw(st.integers(0, 4))):
        d = draw(st.integers(0, 1))
        s = draw(st.integers(0, 3))
        name = "WE"[d]
        if held[d][s] == 0:
            k = k.show_out(name, s)
        elif draw(st.booleans()) and k.unseen[s] and k.known[d][s] < held[d][s]:
            k = k.reveal(name, s)
    return k, held


def brute_force(k: Knowledge, suit: int, trump: int):
    """P(West's unseen count in ``suit`` = j) and P(a defender void in ``suit`` holds a trump),
    over every equally likely layout consistent with ``k``."""
    cards = [s for s in range(4) for _ in range(k.unseen[s])]
    west_places = k.hands[0] - sum(k.known[0])
    dist = [0] * (k.unseen[suit] + 1)
    ruffs = total = 0
    for west in itertools.combinations(range(len(cards)), west_places):
        hand = [[k.known[d][s] for s in range(4)] for d in (0, 1)]
        for i, s in enumerate(cards):
            hand[0 if i in west else 1][s] += 1
        if any(hand[d][s] for d in (0, 1) for s in k.voids[d]):
            continue
        total += 1
        dist[hand[0][suit] - k.known[0][suit]] += 1
        ruffs += any(hand[d][suit] == 0 and hand[d][trump] > 0 for d in (0, 1))
    return [x / total for x in dist], ruffs / total


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 3), st.integers(0, 3))
def test_knowledge_and_views_match_brute_force(position, suit, trump):
    """Vacant places computed from the bookkeeping (voids, revealed cards) equal an
    enumeration of all consistent layouts, for the split and for the ruff view."""
    k, _ = position
    assume(trump != suit)
    dist, p_ruff = brute_force(k, suit, trump)
    assert VP.split(k.unseen[suit], k.vacancies(suit)) == pytest.approx(dist)
    view = {o.key: o.probability for o in belief_view("ruff", k, suit, trump=trump)}
    assert view.get("ruff", 0.0) == pytest.approx(p_ruff)


@settings(max_examples=150)
@given(
    positions(),
    st.integers(0, 3),
    st.integers(0, 3),
    st.sampled_from(list(MODELS.values())),
    st.sampled_from(["ruff", "even", "worst-case", "splits", "card"]),
)
def test_views_sum_to_one(position, suit, trump, model, view):
    k, _ = position
    assume(trump != suit)
    assume(view != "card" or k.unseen[suit])
    outcomes = belief_view(view, k, suit, model=model, trump=trump, card="Q")
    assert outcomes and all(isinstance(o, Outcome) and o.label for o in outcomes)
    assert all(0 < o.probability <= 1 + 1e-12 for o in outcomes)
    assert sum(o.probability for o in outcomes) == pytest.approx(1.0)
    assert len({o.key for o in outcomes}) == len(outcomes)
