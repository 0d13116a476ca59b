"""Each scheme of the method network on a small constructed ending where it is the right
play.

The right play is not written down by hand: every ending is solved double dummy (DDS
sees all four hands), and the planner -- which sees only declarer's and dummy's -- must
choose a card the solver rates best, with the scheme named.  The endings put the missing
cards where the scheme works, so a scheme that fails here is a knowledge bug, not bad
luck.
"""

from __future__ import annotations

import pytest

from knowledge.bridge.beliefs import get_model
from knowledge.bridge.cards import CARD_NAMES, Seat, parse_card, parse_hand
from knowledge.bridge.deal import Contract, PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.players import dd_solve
from knowledge.bridge.position import Table, position_of
from knowledge.bridge.tofs_player import _skip_decompositions, bridge_domain, plan_position


def choose(
    hands: str, contract: str, leader: str, won: tuple[int, int], trick: str = ""
) -> tuple[str, str, set[str]]:
    """(the scheme the planner chose, its card, the cards double dummy rates best) in the
    ending ``hands`` ("N:... E:... S:... W:..." as PBN, declarer South)."""
    seats = dict(part.split(":") for part in hands.split())
    c = Contract.parse(contract)
    state = PlayState.from_position(
        [parse_hand(seats[s]) for s in "NESW"],
        c.denom,
        Seat.parse(leader),
        won=won,
        declarer=Seat.S,
        contract=c,
        trick=[parse_card(t) for t in trick.split()],
    )
    domain = bridge_domain()
    table = Table(
        c, int(Seat.S), False, get_model("vacant-places"), int(domain.constant("plan_tricks", 2))
    )
    result = plan_position(position_of(declarer_info(state), table), domain)
    assert result.policy is not None
    node = _skip_decompositions(result.policy)
    assert node.chosen is not None
    edge = node.children[node.chosen]
    assert edge.step is not None
    scores, _ = dd_solve(state)
    best = max(scores.values())
    return (
        edge.method,
        CARD_NAMES[int(edge.step.args[1])],
        {CARD_NAMES[k] for k, v in scores.items() if v == best},
    )


# (scheme, hands, contract, leader, won[, trick]): the arguments of choose() after the name
Case = tuple[str, str, str, str, tuple[int, int]] | tuple[str, str, str, str, tuple[int, int], str]
CASES: list[Case] = [
    # Finesse: dummy leads towards A-Q; East holds the king.  Two of the last three needed.
    ("Finesse", "N:32..2. E:K5..3. S:AQ..4. W:J4..5.", "3NT", "N", (7, 3)),
    # Drawing trump: West's singleton queen would ruff the second heart.
    ("DrawTrump", "N:2.32.2. E:.T9.43. S:AK.AK.. W:Q.5.65.", "4S", "S", (6, 3)),
    # Taking a ruff: dummy, void in hearts, ruffs declarer's heart loser.
    ("TakeRuff", "N:K..32. E:.AK.4. S:A.32.. W:.QJ.5.", "4S", "S", (8, 2)),
    # A sequence winner: knock out the ace while the heart stopper lasts (deal 353306's
    # lesson); cashing the heart ace first lets East run his hearts.
    ("SequenceWinner", "N:432.2.. E:A.KQJ.. S:KQJ.A.. W:T98.3..", "3NT", "S", (6, 3)),
    # Cashing out: dummy's diamonds first (declarer's club losers go on them), then the
    # trump ace ruffs dummy's club -- cashing the ace first strands a club loser.
    ("CashOut", "N:..AKQ.2 E:.2.J.AK S:A..2.43 W:.3.T9.Q", "4S", "S", (6, 3)),
    # Ruffing: void in hearts, declarer ruffs West's king rather than discard.
    ("Ruff", "N:..3.2 E:.3..3 S:A..AK. W:.Q..4", "4S", "W", (7, 3), "HK D2 H2"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_scheme_is_chosen_where_it_is_the_right_play(case: tuple) -> None:
    scheme, *ending = case
    method, card, best = choose(*ending)
    assert card in best, f"{method} {card}: double dummy prefers {sorted(best)}"
    assert method == scheme
