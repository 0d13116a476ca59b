"""Defenders for the declarer-play harness: rule-based, double-dummy and scripted.

:class:`HeuristicDefender` plays by the textbook rules a club player defends by -- opening
leads (top of a sequence, fourth best from length against no-trump, short suits against a
trump contract, never underleading an ace against a suit), second hand low, third hand high
(only as high as needed: the cheapest of equivalent cards, and no higher than what beats
dummy), cover an honour with an honour, return partner's suit, cash the setting tricks, win
cheaply in fourth seat, ruff when it wins and partner is not already winning, and discard
from worthless suits while keeping length with dummy's long suits and guards on honours.  It
is deterministic and sees only a defender's :class:`~.information.Information` (own hand,
dummy once down, the cards played); the harness hands it a masked state.

:class:`DoubleDummyDefender` plays the lowest optimal card by DDS on the true position (the
strongest possible defence).  :class:`ScriptedDefender` replays a recorded play while the
play so far matches it, then hands over to a :class:`HeuristicDefender`.

The small card helpers at the top are shared with :mod:`.declarers`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .cards import (
    RANK_OF,
    SUIT_MASKS,
    SUIT_OF,
    Denom,
    Seat,
    equivalents,
    parse_card,
    parse_play,
)
from .deal import PlayState
from .information import Information
from .players import DoubleDummyPlayer, Player

__all__ = [
    "DEFENDERS",
    "DoubleDummyDefender",
    "HeuristicDefender",
    "ScriptedDefender",
    "make_defender",
]


# -- card helpers (shared with declarers.py) ----------------------------------------------------


def low(mask: int) -> int:
    """Lowest-numbered card of a mask (the lowest rank within a one-suit mask)."""
    return (mask & -mask).bit_length() - 1


def high(mask: int) -> int:
    return mask.bit_length() - 1


def lowest_rank(mask: int) -> int:
    """The lowest card by rank over all suits (ties: spades first)."""
    best = -1
    for s in range(4):
        m = mask & SUIT_MASKS[s]
        if m:
            c = low(m)
            if best < 0 or RANK_OF[c] < RANK_OF[best]:
                best = c
    return best


def beats(c: int, w: int, trump: int) -> bool:
    """Whether ``c`` beats the winning card ``w`` (``c`` played after ``w``)."""
    sc, sw = SUIT_OF[c], SUIT_OF[w]
    if sc == sw:
        return c > w
    return sc == trump


def winner_so_far(trick: Sequence[int], trump: int) -> int:
    """Index in ``trick`` of the card winning so far."""
    wi = 0
    for i in range(1, len(trick)):
        if beats(trick[i], trick[wi], trump):
            wi = i
    return wi


def winners_over(cards: int, w: int, trump: int) -> int:
    """The cards of ``cards`` that would beat ``w``, as a mask."""
    out = 0
    m = cards
    while m:
        b = m & -m
        c = b.bit_length() - 1
        if beats(c, w, trump):
            out |= b
        m ^= b
    return out


def masters(mine: int, others: int, suit: int) -> int:
    """Cards of ``mine`` in ``suit`` higher than every card of ``others`` in that suit."""
    m = mine & SUIT_MASKS[suit]
    top_other = high(others & SUIT_MASKS[suit])
    if top_other < 0:
        return m
    return m & ~((2 << top_other) - 1)


def hcp(mask: int) -> int:
    """Milton Work points: A 4, K 3, Q 2, J 1."""
    pts = 0
    for s in range(4):
        lane = (mask >> (13 * s)) & 0x1FFF
        pts += 4 * (lane >> 12 & 1) + 3 * (lane >> 11 & 1) + 2 * (lane >> 10 & 1) + (lane >> 9 & 1)
    return pts


def suit_len(mask: int, suit: int) -> int:
    return (mask & SUIT_MASKS[suit]).bit_count()


def top_sequence(mask: int, suit: int) -> int:
    """Length of the run of touching cards from the top of ``mask`` in ``suit``."""
    m = mask & SUIT_MASKS[suit]
    if not m:
        return 0
    c = high(m)
    n = 0
    while c >= 13 * suit and m >> c & 1:
        n += 1
        c -= 1
    return n


def sequence_lead(mask: int, suit: int, trump_contract: bool) -> int | None:
    """The top of an honour sequence in ``suit``, or None.

    Three touching cards headed by the ten or higher (AKQ, KQJ, QJT, JT9, T98), a broken
    sequence (KQT, QJ9, JT8), or -- against a trump contract -- two touching honours (AK,
    KQ, QJ) all qualify.
    """
    m = mask & SUIT_MASKS[suit]
    if not m:
        return None
    top = high(m)
    r = RANK_OF[top]
    if r < 10:
        return None
    run = top_sequence(mask, suit)
    if run >= 3:
        return top
    if run == 2 and (m >> (top - 3) & 1) and top - 3 >= 13 * suit:
        return top  # broken sequence: KQT
    if run == 2 and trump_contract and r >= 12:
        return top
    return None


def fourth_best(mask: int, suit: int) -> int:
    """Fourth highest card of a suit (lowest if shorter)."""
    m = mask & SUIT_MASKS[suit]
    cards = []
    while m:
        c = high(m)
        cards.append(c)
        m ^= 1 << c
    return cards[3] if len(cards) >= 4 else cards[-1]


def discard_cost(mine: int, others: int, suit: int) -> float:
    """What throwing the lowest card of ``mine`` in ``suit`` may cost (higher = keep).

    10 when that card is itself a winner (every card of the suit is), 4 for a long suit
    headed by two or more winners (its small cards may become length winners), 5 for each
    honour guard it would bare (Kx, Qxx, Jxxx), plus a little for high cards.
    """
    m = mine & SUIT_MASKS[suit]
    if not m:
        return 0.0
    n = m.bit_count()
    mast = masters(m, others, suit)
    cost = 0.0
    if mast >> low(m) & 1:
        cost += 10.0
    elif n >= 4 and mast.bit_count() >= 2:
        cost += 4.0
    for r, need in ((13, 2), (12, 3), (11, 4)):
        c = 13 * suit + r - 2
        if m >> c & 1 and n <= need and not mast >> c & 1:
            cost += 5.0
    return cost + 0.2 * hcp(m)


def cheapest_equivalent(card: int, hand: int, gone: int, among: int) -> int:
    """The lowest card of ``among`` equivalent to ``card`` for ``hand`` (cards in ``gone``
    count as played)."""
    eq = equivalents(card, hand, gone) & among
    return low(eq) if eq else card


# -- the heuristic defender ----------------------------------------------------------------------


class HeuristicDefender:
    """Standard defensive rules, deterministic, using only a defender's information set.

    After each decision ``note`` holds the rule applied (e.g. "third hand high"), for the
    play log and for tests.
    """

    name = "heuristic"
    double_dummy = False

    def __init__(self) -> None:
        self.note: str | None = None
        self.nodes: int | None = None

    def choose(self, state: PlayState, seat: Seat, info: Information) -> int:
        legal = state.legal_mask()
        if legal.bit_count() == 1:
            self.note = None
            return low(legal)
        me = Seat(seat)
        if not info.trick:
            if info.cards_played == 0:
                return self._opening_lead(info, me, legal)
            return self._lead(info, me, legal)
        led = SUIT_OF[info.trick[0]]
        if legal & SUIT_MASKS[led]:
            return self._follow(info, me, legal, led)
        return self._void(info, me, legal, led)

    def _say(self, rule: str, card: int) -> int:
        self.note = rule
        return card

    # -- shared views ----------------------------------------------------------------------

    @staticmethod
    def _others(info: Information, me: Seat) -> int:
        """Cards not in my hand and not yet played: dummy's plus the unseen."""
        return info.unseen | (info.hands[info.dummy] if info.dummy_visible else 0)

    # -- opening lead ----------------------------------------------------------------------

    def _opening_lead(self, info: Information, me: Seat, hand: int) -> int:
        trump = info.trump
        nt = trump == Denom.NT
        best: tuple[float, int, int] | None = None  # (score, -suit, card)
        for s in range(4):
            m = hand & SUIT_MASKS[s]
            if not m:
                continue
            n = m.bit_count()
            seq = sequence_lead(hand, s, not nt)
            pts = hcp(m)
            top_r = RANK_OF[high(m)]
            has_ace = bool(m >> (13 * s + 12) & 1)
            has_king = bool(m >> (13 * s + 11) & 1)
            if nt:
                score = 3.0 * n + pts * 0.5
                if seq is not None:
                    score += 4
                    card, why = seq, "top of a sequence"
                elif n >= 4:
                    card, why = fourth_best(hand, s), "fourth best from length"
                elif top_r < 11:
                    card, why = high(m), "top of nothing"
                    score += 1
                else:
                    card, why = low(m), "low from an honour"
                    score -= 2
            else:
                if s == trump:
                    trumps_small = top_r < 11 and 2 <= n <= 3
                    score = 2.0 if trumps_small else -5.0
                    card, why = (low(m) if n >= 3 else high(m)), "passive trump lead"
                elif has_ace and has_king:
                    score, card, why = 10.0, high(m), "ace from ace-king"
                elif seq is not None:
                    score, card, why = 7.0 + RANK_OF[seq] / 10, seq, "top of a sequence"
                elif n == 1 and (hand & SUIT_MASKS[trump]) and top_r < 14:
                    score, card, why = 6.5, high(m), "singleton for a ruff"
                elif has_ace:
                    score, card, why = 0.5, high(m), "ace rather than underlead"
                elif n == 2 and top_r < 11:
                    score, card, why = 5.0, high(m), "top of a doubleton"
                elif top_r < 11:
                    score, card, why = 4.0, high(m), "top of nothing"
                elif n >= 4:
                    score = 3.0 if has_king else 3.5
                    card, why = fourth_best(hand, s), "fourth best"
                else:
                    score, card, why = 1.5, low(m), "low from an honour"
            key = (score, -s, card)
            if best is None or key > best[:3]:
                best = key
                chosen_why = why
        assert best is not None
        return self._say("opening lead: " + chosen_why, best[2])

    # -- later leads -----------------------------------------------------------------------

    def _sure_winners(self, info: Information, me: Seat, hand: int) -> tuple[int, int]:
        """(count, mask) of my cards that win their trick whoever plays what."""
        others = self._others(info, me)
        trump = info.trump
        dm = info.hands[info.dummy] if info.dummy_visible else 0
        total, mask = 0, 0
        for s in range(4):
            m = masters(hand, others, s)
            if not m:
                continue
            if trump != Denom.NT and s != trump:
                # a side-suit winner is not sure if dummy or declarer may ruff it
                dummy_ruffs = not (dm & SUIT_MASKS[s]) and dm & SUIT_MASKS[trump]
                decl_ruffs = (
                    info.is_void(info.declarer, s)
                    and not info.is_void(info.declarer, trump)
                    and info.unseen & SUIT_MASKS[trump]
                )
                if dummy_ruffs or decl_ruffs:
                    continue
                # only as many as the opponents can follow to, plus one
                outside = others & SUIT_MASKS[s]
                k = min(m.bit_count(), outside.bit_count() // 2 + 1) if outside else 1
            else:
                k = m.bit_count()
            total += k
            mask |= m
        return total, mask

    def _lead(self, info: Information, me: Seat, hand: int) -> int:
        trump = info.trump
        nt = trump == Denom.NT
        dside = info.declarer & 1
        def_won = info.won[dside ^ 1]
        to_set = 13 - info.tricks_needed + 1
        sure, smask = self._sure_winners(info, me, hand)
        if smask and def_won + sure >= to_set:
            return self._say("cash the setting tricks", self._cash_order(info, smask))
        dm = info.hands[info.dummy]
        # return partner's suit
        partner = me.partner
        for s in info.led_suits(partner):
            m = hand & SUIT_MASKS[s]
            if not m or (not nt and s == trump):
                continue
            if not nt and self._ruff_sluff(info, s):
                continue
            card = high(m) if m.bit_count() <= 2 else low(m)  # top of two, low from three
            mm = masters(hand, self._others(info, me), s)
            if mm:
                card = high(mm)
            return self._say("return partner's suit", card)
        # continue my own suit against no-trump
        if nt:
            for s in info.led_suits(me):
                m = hand & SUIT_MASKS[s]
                if m and (m.bit_count() >= 2 or masters(hand, self._others(info, me), s)):
                    seq = sequence_lead(hand, s, False)
                    mm = masters(hand, self._others(info, me), s)
                    card = high(mm) if mm else (seq if seq is not None else low(m))
                    return self._say("continue my suit", card)
        # choose a suit: cut ruffs, avoid ruff-and-discard and dummy's strength
        best: tuple[float, int, int] | None = None
        why_best = ""
        others = self._others(info, me)
        for s in range(4):
            m = hand & SUIT_MASKS[s]
            if not m:
                continue
            n = m.bit_count()
            d_len = suit_len(dm, s)
            d_mast = masters(dm, hand | info.unseen, s).bit_count()
            seq = sequence_lead(hand, s, not nt)
            if not nt and s == trump:
                short_dummy = (
                    any(
                        suit_len(dm, x) <= 1 and x != trump and hand & SUIT_MASKS[x]
                        for x in range(4)
                    )
                    and dm & SUIT_MASKS[trump]
                )
                score = 4.0 if short_dummy else 1.0
                card, why = low(m), "trump to cut dummy's ruffs"
            else:
                score = 2.0 + (1.5 * n if nt else 0.0) - 2.0 * d_mast - 0.5 * max(0, d_len - 3)
                if not nt and self._ruff_sluff(info, s):
                    score -= 10
                mm = masters(hand, others, s)
                if seq is not None:
                    score += 3
                    card, why = seq, "top of a sequence"
                elif mm:
                    score += 1
                    card, why = high(mm), "cash a winner"
                elif RANK_OF[high(m)] < 11:
                    score += 1
                    card, why = (low(m) if nt and n >= 4 else high(m)), "lead through safely"
                else:
                    score -= 1.5
                    card, why = (fourth_best(hand, s) if nt and n >= 4 else low(m)), "low"
            key = (score, -s, card)
            if best is None or key > best:
                best, why_best = key, why
        assert best is not None
        return self._say(why_best, best[2])

    @staticmethod
    def _cash_order(info: Information, smask: int) -> int:
        # cash side-suit winners before trumps, the highest first
        for s in range(4):
            if s != info.trump and smask & SUIT_MASKS[s]:
                return high(smask & SUIT_MASKS[s])
        return high(smask)

    @staticmethod
    def _ruff_sluff(info: Information, suit: int) -> bool:
        """Would leading ``suit`` give declarer a ruff-and-discard (both declarer hands void)?"""
        trump = info.trump
        if trump == Denom.NT:
            return False
        dm = info.hands[info.dummy]
        if dm & SUIT_MASKS[suit]:
            return False
        return (
            info.is_void(info.declarer, suit)
            and bool(dm & SUIT_MASKS[trump])
            and not info.is_void(info.declarer, trump)
        )

    # -- following suit --------------------------------------------------------------------

    def _follow(self, info: Information, me: Seat, legal: int, led: int) -> int:
        trick = info.trick
        trump = info.trump
        pos = len(trick)
        wi = winner_so_far(trick, trump)
        w = trick[wi]
        wseat = (info.leader + wi) & 3
        partner = me.partner
        follow = legal & SUIT_MASKS[led]
        dummy = info.dummy
        dm = info.hands[dummy]
        gone = info.gone
        if pos == 1:
            led_card = trick[0]
            if RANK_OF[led_card] >= 11 and wseat != partner:
                cover = winners_over(follow, w, trump)
                if cover:
                    # don't cover the first of touching honours led from dummy
                    touching = info.leader == dummy and bool(
                        equivalents(led_card, dm | (1 << led_card), gone) & ~(1 << led_card)
                    )
                    if not touching:
                        return self._say("cover an honour with an honour", low(cover))
            return self._say("second hand low", low(follow))
        if pos == 2:
            fourth = me.next
            if fourth == dummy:
                d_follow = dm & SUIT_MASKS[led]
                if d_follow:
                    top_d = high(d_follow)
                    if wseat == partner and beats(w, top_d, trump):
                        return self._say("third hand low: partner wins", low(follow))
                    cands = winners_over(follow, w, trump) & winners_over(follow, top_d, trump)
                    if cands:
                        return self._say("third hand: only as high as needed", low(cands))
                    return self._say("third hand low: dummy wins", low(follow))
                dummy_ruffs = trump != Denom.NT and led != trump and dm & SUIT_MASKS[trump]
                if dummy_ruffs:
                    return self._say("third hand low: dummy ruffs", low(follow))
                if wseat == partner:
                    return self._say("third hand low: partner wins", low(follow))
                cands = winners_over(follow, w, trump)
                if cands:
                    return self._say("third hand: win cheaply", low(cands))
                return self._say("third hand low", low(follow))
            # declarer plays fourth, dummy has played
            if wseat == partner:
                sure = (
                    beats(w, high(info.unseen & SUIT_MASKS[led]), trump)
                    if info.unseen & SUIT_MASKS[led]
                    else True
                )
                if sure or RANK_OF[w] >= 11:
                    return self._say("third hand low: partner wins", low(follow))
            cands = winners_over(follow, w, trump)
            if not cands:
                return self._say("third hand low", low(follow))
            top = high(follow)
            card = cheapest_equivalent(top, follow, gone | dm | _mask(trick), cands)
            if wseat == partner and not beats(card, w, trump):
                return self._say("third hand low: partner wins", low(follow))
            return self._say("third hand high", card)
        # fourth hand
        if wseat == partner:
            return self._say("fourth hand low: partner wins", low(follow))
        cands = winners_over(follow, w, trump)
        if cands:
            return self._say("fourth hand: win cheaply", low(cands))
        return self._say("fourth hand low", low(follow))

    # -- void in the suit led --------------------------------------------------------------

    def _void(self, info: Information, me: Seat, legal: int, led: int) -> int:
        trick = info.trick
        trump = info.trump
        pos = len(trick)
        wi = winner_so_far(trick, trump)
        w = trick[wi]
        wseat = (info.leader + wi) & 3
        partner = me.partner
        dummy = info.dummy
        dm = info.hands[dummy]
        trumps = legal & SUIT_MASKS[trump] if trump != Denom.NT else 0
        if trumps:
            ruffs = winners_over(trumps, w, trump)
            partner_wins = wseat == partner and self._partner_sure(info, me, w, led)
            if ruffs and not partner_wins and wseat != partner:
                if pos == 3:
                    return self._say("ruff: it wins the trick", low(ruffs))
                after_dummy = pos == 1 and info.leader != dummy  # dummy plays third
                if pos == 1:
                    # ruff only what partner cannot beat
                    outside = info.unseen & SUIT_MASKS[led]
                    threat = w
                    if after_dummy and dm & SUIT_MASKS[led]:
                        threat = max(w, high(dm & SUIT_MASKS[led]))
                    if outside and not beats(threat, high(outside), trump):
                        return self._discard(info, me, legal, "discard: partner may win")
                if (
                    (after_dummy or (pos == 2 and me.next == dummy))
                    and not (dm & SUIT_MASKS[led])
                    and dm & SUIT_MASKS[trump]
                ):
                    over = winners_over(ruffs, high(dm & SUIT_MASKS[trump]), trump)
                    if not over:
                        return self._discard(info, me, legal, "discard: dummy would overruff")
                    ruffs = over
                return self._say("ruff: it wins the trick", low(ruffs))
        if trump == Denom.NT or legal & ~SUIT_MASKS[trump]:
            return self._discard(info, me, legal, "discard")
        return self._say("forced to ruff", low(legal))

    def _partner_sure(self, info: Information, me: Seat, w: int, led: int) -> bool:
        """Partner's winning card cannot be beaten by the players still to play."""
        trump = info.trump
        dm = info.hands[info.dummy]
        pos = len(info.trick)
        if pos == 3:
            return True
        # the declarer side plays after me: dummy (visible) or declarer (hidden)
        nxt = me.next
        if nxt == info.dummy:
            f = dm & SUIT_MASKS[SUIT_OF[w]]
            if f:
                return not beats(high(f), w, trump)
            return not (trump != Denom.NT and SUIT_OF[w] != trump and dm & SUIT_MASKS[trump])
        outside = info.unseen & SUIT_MASKS[SUIT_OF[w]]
        if outside and beats(high(outside), w, trump):
            return False
        return not (trump != Denom.NT and SUIT_OF[w] != trump and info.is_void(info.declarer, led))

    def _discard(self, info: Information, me: Seat, legal: int, why: str) -> int:
        trump = info.trump
        nt = trump == Denom.NT
        dm = info.hands[info.dummy] if info.dummy_visible else 0
        others = self._others(info, me)
        best: tuple[float, int, int, int] | None = None
        for s in range(4):
            m = legal & SUIT_MASKS[s]
            if not m or (not nt and s == trump and legal & ~SUIT_MASKS[trump]):
                continue
            n = m.bit_count()
            value = discard_cost(m, others, s)
            d_len = suit_len(dm, s)
            if d_len >= 3 and d_len - 1 <= n <= d_len + 1:
                value += 6.0  # keep length with dummy's long suit
            if nt and n >= 4:
                value += 3.0  # a long suit that may run
            card = low(m)
            key = (-value, -RANK_OF[card], -s, card)
            if best is None or key > best:
                best = key
        if best is None:
            return self._say(why, lowest_rank(legal))
        return self._say(why + " from a worthless suit" if best[0] > -1 else why, best[3])


def _mask(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


# -- double-dummy and scripted defenders ---------------------------------------------------------


class DoubleDummyDefender(DoubleDummyPlayer):
    """Sees all four hands; plays the lowest card that is optimal by DDS."""


class ScriptedDefender:
    """Replays ``script`` (cards in play order from the opening lead) while the play so far
    matches it and the scripted card is legal; afterwards a :class:`HeuristicDefender`.

    ``followed`` counts the recorded cards played; ``diverged_at`` is the index of the
    first card where the play left the record (None while it follows).
    """

    name = "scripted"
    double_dummy = False

    def __init__(self, script: Sequence[int | str], fallback: Player | None = None) -> None:
        self.script = tuple(parse_card(c) if isinstance(c, str) else int(c) for c in script)
        self.fallback: Player = fallback if fallback is not None else HeuristicDefender()
        self.followed = 0
        self.diverged_at: int | None = None
        self.note: str | None = None
        self.nodes: int | None = None

    @classmethod
    def from_record(cls, record: object) -> ScriptedDefender:
        """From a :class:`~.pbn.BoardRecord`: its ``[Play]``, else a ``[DDSPlay]`` tag."""
        play = tuple(getattr(record, "play", ()) or ())
        if not play:
            text = getattr(record, "tags", {}).get("DDSPlay", "")
            play = tuple(parse_play(text))
        return cls(play)

    def choose(self, state: PlayState, seat: Seat, info: Information) -> int:
        k = len(info.plays)
        if (
            self.diverged_at is None
            and k < len(self.script)
            and all(c == self.script[i] for i, (_, c) in enumerate(info.plays))
        ):
            c = self.script[k]
            if state.legal_mask() >> c & 1:
                self.followed += 1
                self.note = None
                return c
        if self.diverged_at is None:
            self.diverged_at = k
        card = self.fallback.choose(state, seat, info)
        self.note = getattr(self.fallback, "note", None)
        return card


def _scripted(
    record: object | None = None, script: Sequence[int | str] | None = None, **_: object
) -> Player:
    if script:
        return ScriptedDefender(script)
    if record is not None:
        return ScriptedDefender.from_record(record)
    return ScriptedDefender(())


DEFENDERS: dict[str, Callable[..., Player]] = {
    "heuristic": lambda record=None, **_: HeuristicDefender(),
    "dd": lambda record=None, **_: DoubleDummyDefender(),
    "scripted": _scripted,
}
"""Defence name -> factory ``(record=None, script=None, **options) -> Player``; "scripted"
replays ``script`` (cards) or the record's play, then defends by the heuristics."""


def make_defender(name: str, record: object | None = None, **options: object) -> Player:
    """A defender by registry name (see :data:`DEFENDERS`)."""
    try:
        factory = DEFENDERS[name]
    except KeyError:
        raise ValueError(
            f"unknown defence {name!r}; expected one of {', '.join(sorted(DEFENDERS))}"
        ) from None
    return factory(record=record, **options)
