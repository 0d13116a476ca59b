"""Random deals with the game contract a sensible auction would reach, for declarer matches.

:func:`generate_games` deals at random from a seed (Python's ``random.Random``, so the same
seed gives the same deals on every machine), computes each deal's double-dummy table with
DDS (endplay ``calc_dd_table``) and picks a game for the side with more high-card points:

* candidate strains: no-trump always, a suit only with an eight-card or longer fit;
* the game level of each (3NT, 4♥/4♠, 5♣/5♦); declarer is the partner with more cards in
  the trump suit (ties: more honour points in it; for no-trump, more points overall;
  then the first of the pair clockwise from North);
* the strain chosen is the one whose game makes with the most tricks to spare double-dummy
  (ties: majors, then no-trump, then minors -- the order auctions prefer);
* only deals where that contract is within ``tolerance`` tricks (default ±1) of making
  double-dummy are kept, so every board is one where declarer play decides the result.

Boards are tagged "G1", "G2", ...; dealer and vulnerability follow the usual rotation of the
board number.  Each record carries ``[Contract]``, ``[Declarer]``, the DD table as
``[DoubleDummyTricks]`` (BridgeComposer order) and ``[Generator]`` (seed and index), and
:func:`write_pbn` saves them for :func:`.pbn.read_pbn` to read back.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

from .cards import CARD_NAMES, SUIT_MASKS, Denom, Seat
from .deal import Contract, Deal, PlayState, Vul, dealer_for_board
from .pbn import BoardRecord, record_to_pbn

__all__ = [
    "GAME_LEVEL",
    "choose_game",
    "choose_makeable",
    "dd_table",
    "generate_deals",
    "generate_games",
    "heuristic_lead",
    "random_deal",
    "write_pbn",
]

GAME_LEVEL = {Denom.NT: 3, Denom.S: 4, Denom.H: 4, Denom.D: 5, Denom.C: 5}
_PREFERENCE = {Denom.S: 3, Denom.H: 3, Denom.NT: 2, Denom.D: 1, Denom.C: 1}
_HCP = (0,) * 9 + (1, 2, 3, 4)


def _hcp(hand: int, suit: int | None = None) -> int:
    pts = 0
    for s in range(4) if suit is None else (suit,):
        lane = (hand >> (13 * s)) & 0x1FFF
        for r in range(9, 13):
            if lane >> r & 1:
                pts += _HCP[r]
    return pts


def random_deal(rng: random.Random) -> Deal:
    cards = list(range(52))
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i // 13] |= 1 << c
    return Deal((hands[0], hands[1], hands[2], hands[3]))


def dd_table(deal: Deal) -> dict[tuple[Seat, Denom], int]:
    """DD tricks for every declarer and strain (endplay ``calc_dd_table``)."""
    from endplay.dds import calc_dd_table
    from endplay.types import Denom as EpDenom
    from endplay.types import Player

    t = calc_dd_table(deal.to_endplay())
    return {(seat, d): t[EpDenom(int(d)), Player(int(seat))] for seat in Seat for d in Denom}


def table_tag(table: dict[tuple[Seat, Denom], int]) -> str:
    """The BridgeComposer ``[DoubleDummyTricks]`` value: declarer N, S, E, W x NT, S, H, D, C."""
    order = (Denom.NT, Denom.S, Denom.H, Denom.D, Denom.C)
    return "".join(
        f"{table[seat, d]:X}" for seat in (Seat.N, Seat.S, Seat.E, Seat.W) for d in order
    )


def choose_game(deal: Deal, table: dict[tuple[Seat, Denom], int]) -> tuple[Contract, Seat, int]:
    """(game contract, declarer, DD tricks) for the side with more points; see the module doc."""
    pair = _stronger_pair(deal)
    best: tuple[tuple[int, int], Contract, Seat, int] | None = None
    for d in Denom:
        decl = _declarer_in(deal, pair, d)
        if decl is None:
            continue
        contract = Contract(GAME_LEVEL[d], d)
        tricks = table[decl, d]
        key = (tricks - contract.tricks_needed, _PREFERENCE[d])
        if best is None or key > best[0]:
            best = (key, contract, decl, tricks)
    assert best is not None  # no-trump is always a candidate
    return best[1], best[2], best[3]


def _declarer_in(deal: Deal, pair: tuple[Seat, Seat], d: Denom) -> Seat | None:
    """Who of ``pair`` declares ``d`` (None: no eight-card fit for a suit contract)."""
    a, b = pair
    if d == Denom.NT:
        return a if _hcp(deal[a]) >= _hcp(deal[b]) else b
    la = (deal[a] & SUIT_MASKS[d]).bit_count()
    lb = (deal[b] & SUIT_MASKS[d]).bit_count()
    if la + lb < 8:
        return None
    return a if (la, _hcp(deal[a], d)) >= (lb, _hcp(deal[b], d)) else b


def _stronger_pair(deal: Deal) -> tuple[Seat, Seat]:
    ns = _hcp(deal[Seat.N]) + _hcp(deal[Seat.S])
    return (Seat.N, Seat.S) if ns >= 40 - ns else (Seat.E, Seat.W)


def choose_makeable(
    deal: Deal, table: dict[tuple[Seat, Denom], int]
) -> tuple[Contract, Seat, int] | None:
    """(contract, declarer, DD tricks) at the level double dummy makes exactly, for the side
    with more high-card points.  Candidates and declarer as in :func:`choose_game`; the
    strain is the one an auction would settle in: most tricks, a minor counting one trick
    less (five of a minor is game where three no-trump is), ties to a major fit, then
    no-trump.  None when that side makes no contract at all (under seven tricks everywhere).
    """
    pair = _stronger_pair(deal)
    best: tuple[tuple[int, int], Contract, Seat, int] | None = None
    for d in Denom:
        decl = _declarer_in(deal, pair, d)
        if decl is None:
            continue
        tricks = table[decl, d]
        if tricks < 7:
            continue
        contract = Contract(tricks - 6, d)
        key = (tricks - (d in (Denom.C, Denom.D)), _PREFERENCE[d])
        if best is None or key > best[0]:
            best = (key, contract, decl, tricks)
    return None if best is None else (best[1], best[2], best[3])


def heuristic_lead(deal: Deal, contract: Contract, declarer: Seat) -> int:
    """The opening lead the heuristic defender makes (what a real record's lead stands for:
    a sensible card chosen without seeing declarer's hand)."""
    from .defenders import make_defender
    from .information import defender_info

    state = PlayState.start(deal, contract, declarer)
    leader = declarer.next
    return make_defender("heuristic").choose(state, leader, defender_info(state, leader))


Chooser = Callable[[Deal, dict[tuple[Seat, Denom], int]], "tuple[Contract, Seat, int] | None"]


def _generate(
    n: int,
    seed: int,
    choose: Chooser,
    *,
    start: int,
    prefix: str,
    limit: int,
    lead: bool,
    event: str,
    generator: str,
) -> list[BoardRecord]:
    """Deal at random from ``seed`` until ``choose`` has accepted ``n`` deals."""
    rng = random.Random(seed)
    out: list[BoardRecord] = []
    tries = 0
    while len(out) < n:
        if tries >= limit:
            raise RuntimeError(f"only {len(out)} of {n} deals found in {tries} tries")
        tries += 1
        deal = random_deal(rng)
        table = dd_table(deal)
        chosen = choose(deal, table)
        if chosen is None:
            continue
        contract, declarer, _ = chosen
        no = start + len(out)
        card = heuristic_lead(deal, contract, declarer) if lead else None
        out.append(
            BoardRecord(
                board=f"{prefix}{no}",
                deal=deal,
                dealer=dealer_for_board(no),
                vulnerability=Vul.for_board(no),
                contract=contract,
                declarer=declarer,
                lead=card,
                leader=declarer.next if lead else None,
                tags={
                    "Event": event,
                    "Site": "knowledge.bridge.generate",
                    **({"Lead": CARD_NAMES[card]} if card is not None else {}),
                    "DoubleDummyTricks": table_tag(table),
                    "Generator": f"seed={seed} try={tries} {generator}",
                },
            )
        )
    return out


def generate_deals(n: int, seed: int, *, start: int = 1, prefix: str = "R") -> list[BoardRecord]:
    """``n`` random deals played at the level double dummy makes, with a heuristic lead.

    The evaluation sets of the declarer benchmark: like the real deals of a scored event
    (the contract the hand is worth, both suit and no-trump, part scores to grand slams,
    the defence's own opening lead), but as many as wanted and never seen before a seed is
    first used.  Deterministic for a seed; boards are "<prefix>1", "<prefix>2", ...; each
    record carries ``[Lead]`` besides the tags of :func:`generate_games`.
    """
    return _generate(
        n,
        seed,
        choose_makeable,
        start=start,
        prefix=prefix,
        limit=50 * max(n, 1),
        lead=True,
        event="Generated deals at the makeable contract",
        generator="makeable",
    )


def generate_games(
    n: int, seed: int = 0, *, tolerance: int = 1, start: int = 1, max_tries: int | None = None
) -> list[BoardRecord]:
    """``n`` deals whose chosen game is within ``tolerance`` tricks of making double-dummy.

    Deterministic for a seed.  ``start`` numbers the first board ("G<start>").  Raises
    ``RuntimeError`` if ``max_tries`` deals (default ``50 * n``) do not yield ``n``.
    """

    def near(deal: Deal, table: dict[tuple[Seat, Denom], int]) -> tuple[Contract, Seat, int] | None:
        chosen = choose_game(deal, table)
        contract, _, tricks = chosen
        return chosen if abs(tricks - contract.tricks_needed) <= tolerance else None

    return _generate(
        n,
        seed,
        near,
        start=start,
        prefix="G",
        limit=max_tries if max_tries is not None else 50 * max(n, 1),
        lead=False,
        event="Generated game contracts",
        generator=f"tolerance={tolerance}",
    )


def write_pbn(records: Sequence[BoardRecord], path: str | Path) -> Path:
    """Write ``records`` as one PBN file (``% PBN 2.1`` header, a blank line between boards)."""
    p = Path(path)
    text = "% PBN 2.1\n% EXPORT\n\n" + "\n".join(record_to_pbn(r) for r in records)
    p.write_text(text, encoding="utf-8")
    return p
