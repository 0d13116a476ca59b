"""Baseline declarers for the match harness: double-dummy, Monte-Carlo double-dummy, rules.

* :class:`DoubleDummyDeclarer` sees all four hands and plays the lowest DD-optimal card --
  the upper bound any declarer can reach against the same defence.
* :class:`MonteCarloDeclarer` plays as GIB did (Ginsberg 2001): deal the unseen cards to
  the defenders ``samples`` times consistently with what declarer knows
  (:meth:`~.information.Information.sample`), solve each layout double-dummy with DDS
  from the current position (trick in progress included), and play the card with the best
  average number of tricks; ties go to the lowest card.  Its RNG is seeded, and every
  decision draws all its samples before solving, so the play is deterministic for a seed
  (unless ``timeout`` cuts a decision short, which only changes that decision's average).
* :class:`HeuristicDeclarer` plays by simple rules: take ruffs in dummy, draw trumps when
  ahead in them, cash sure winners when they are enough, lead toward honours and finesse
  naively, develop long suits; second hand low, third hand high (cheapest equivalent), win
  cheaply, ruff when it wins.

:data:`DECLARERS` maps a name to a factory ``(**options) -> Player``.  Options every
factory accepts (and ignores if irrelevant): ``samples``, ``seed``, ``board`` (mixed into
the seed so each board has its own stream), ``timeout`` (per decision).  A declarer may
expose ``nodes`` (searched for its last decision) and ``note`` (an annotation for the play
log); the TOFS planner will register itself here as "tofs".
"""

from __future__ import annotations

import time
import zlib
from collections.abc import Callable

from .cards import RANK_OF, SUIT_MASKS, SUIT_OF, Denom, Seat
from .deal import PlayState
from .defenders import (
    beats,
    cheapest_equivalent,
    discard_cost,
    hcp,
    high,
    low,
    lowest_rank,
    masters,
    suit_len,
    winner_so_far,
    winners_over,
)
from .information import Information
from .players import DoubleDummyPlayer, Player, dd_solve_many, decision_rng, lowest_first

__all__ = [
    "DECLARERS",
    "DoubleDummyDeclarer",
    "HeuristicDeclarer",
    "MonteCarloDeclarer",
    "make_declarer",
    "seed_for",
]


def seed_for(seed: int, board: object) -> int:
    """A per-board seed: stable across runs and processes (no ``hash()`` salt)."""
    return zlib.crc32(f"{seed}:{board}".encode()) & 0x7FFFFFFF


class DoubleDummyDeclarer(DoubleDummyPlayer):
    """Sees all four hands; plays the lowest DD-optimal card for declarer and dummy."""


class MonteCarloDeclarer:
    """GIB-style declarer: average DD tricks over sampled layouts of the defenders' cards.

    ``samples`` layouts per decision (default 20; :func:`~.players.decision_rng` of the
    board's ``seed``, as the TOFS declarer's tie-break draws them), ``timeout``
    seconds per decision (no new batch of DD solves starts after it; at least one batch
    always runs).  ``nodes`` reports the DDS nodes summed over the samples solved;
    ``last_scores`` the average tricks of each candidate card.
    """

    name = "mcdd"
    double_dummy = False

    def __init__(
        self,
        samples: int = 20,
        seed: int = 0,
        timeout: float | None = 10.0,
        board: object = None,
        chunk: int = 8,
        **_: object,
    ) -> None:
        if samples < 1:
            raise ValueError("samples must be at least 1")
        self.samples = samples
        self.seed = seed if board is None else seed_for(seed, board)
        self.timeout = timeout
        self.chunk = chunk
        self.nodes: int | None = None
        self.note: str | None = None
        self.last_scores: dict[int, float] = {}
        self.last_solved = 0

    def choose(self, state: PlayState, seat: Seat, info: Information) -> int:
        legal = state.legal_mask()
        if legal.bit_count() == 1:
            self.nodes = 0
            return low(legal)
        layouts = info.consistent_layouts(decision_rng(self.seed, len(info.plays)), self.samples)
        deadline = None if self.timeout is None else time.perf_counter() + self.timeout
        positions = [(hands, info.trump, int(info.leader), info.trick) for hands in layouts]
        solved = dd_solve_many(positions, deadline=deadline, chunk=self.chunk)
        totals: dict[int, int] = {}
        nodes = 0
        for scores, n in solved:
            nodes += n
            for c, v in scores.items():
                totals[c] = totals.get(c, 0) + v
        self.nodes = nodes
        self.last_solved = len(solved)
        k = len(solved)
        self.last_scores = {c: totals.get(c, 0) / k for c in _cards(legal)}
        best = max(self.last_scores.values())
        return lowest_first([c for c, v in self.last_scores.items() if v == best])


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        b = mask & -mask
        out.append(b.bit_length() - 1)
        mask ^= b
    return out


class HeuristicDeclarer:
    """Simple declarer rules on declarer's information only (``note`` names the rule)."""

    name = "heuristic"
    double_dummy = False

    def __init__(self, **_: object) -> None:
        self.note: str | None = None
        self.nodes: int | None = None

    def _say(self, rule: str, card: int) -> int:
        self.note = rule
        return card

    def choose(self, state: PlayState, seat: Seat, info: Information) -> int:
        legal = state.legal_mask()
        if legal.bit_count() == 1:
            self.note = None
            return low(legal)
        me = Seat(seat)
        if not info.trick:
            return self._lead(info, me, legal)
        led = SUIT_OF[info.trick[0]]
        if legal & SUIT_MASKS[led]:
            return self._follow(info, me, legal, led)
        return self._void(info, me, legal, led)

    # -- counting ---------------------------------------------------------------------------

    @staticmethod
    def _sure(info: Information, s: int) -> int:
        """Tricks our side can cash in suit ``s`` from the top (ignoring entries and ruffs)."""
        d, m = info.hands[info.declarer], info.hands[info.dummy]
        ours = (d | m) & SUIT_MASKS[s]
        theirs = info.unseen & SUIT_MASKS[s]
        longest = max(suit_len(d, s), suit_len(m, s))
        if not ours:
            return 0
        if not theirs:
            return longest
        return min(masters(ours, theirs, s).bit_count(), longest)

    def _cash(self, info: Information, me: Seat, hand: int, why: str) -> int | None:
        """Lead a sure winner, high from the shorter hand first; None if I have none."""
        partner = me.partner
        best = None
        for s in range(4):
            if s == info.trump and info.unseen & SUIT_MASKS[s]:
                continue
            mine = hand & SUIT_MASKS[s]
            if not mine or not self._sure(info, s):
                continue
            mm = masters(mine, info.unseen, s) if info.unseen & SUIT_MASKS[s] else mine
            pl = suit_len(info.hands[partner], s)
            if mm:
                # shorter hand first (unblock); else cross to partner's winners with a low card
                key = (0 if mine.bit_count() <= pl or not pl else 1, -s)
                card = high(mm)
            elif masters(info.hands[partner], info.unseen, s):
                key, card = (2, -s), low(mine)
            else:
                continue
            if best is None or key < best[0]:
                best = (key, card)
        return self._say(why, best[1]) if best else None

    # -- leading ----------------------------------------------------------------------------

    def _lead(self, info: Information, me: Seat, hand: int) -> int:
        trump = info.trump
        nt = trump == Denom.NT
        partner = me.partner
        ph = info.hands[partner]
        dside = info.declarer & 1
        won = info.won[dside]
        left = info.counts[me]
        sure = sum(self._sure(info, s) for s in range(4))
        if sure >= left:
            c = self._cash(info, me, hand, "cash the rest")
            if c is not None:
                return c
        if not nt:
            tm = SUIT_MASKS[trump]
            their_trumps = info.unseen & tm
            our_trumps = (hand | ph) & tm
            if their_trumps and our_trumps.bit_count() > their_trumps.bit_count():
                c = self._ruff_in_dummy(info, me, hand)
                if c is not None:
                    return c
                mine = hand & tm
                mm = masters(mine, their_trumps, trump)
                if mm:
                    return self._say("draw trumps", high(mm))
                if mine and masters(ph, their_trumps, trump):
                    return self._say("draw trumps: low to the top trump", low(mine))
                fin = self._finesse_card(ph & tm, their_trumps)
                if mine and fin is not None and high(mine) < fin:
                    return self._say("draw trumps: lead toward honours", low(mine))
                if mine and RANK_OF[high(mine)] >= 10:
                    card = cheapest_equivalent(high(mine), mine, info.gone | ph, mine)
                    return self._say("draw trumps: knock out their top trump", card)
            elif not their_trumps:
                c = self._ruff_in_dummy(info, me, hand)
                if c is not None:
                    return c
        if won + sure >= info.tricks_needed:
            c = self._cash(info, me, hand, "cash sure winners for the contract")
            if c is not None:
                return c
        # develop a suit: finesse toward partner's honours, or establish length
        best: tuple[float, int, int] | None = None
        why = ""
        for s in range(4):
            mine = hand & SUIT_MASKS[s]
            if not mine:
                continue
            theirs = info.unseen & SUIT_MASKS[s]
            pm = ph & SUIT_MASKS[s]
            length = mine.bit_count() + pm.bit_count()
            score = float(length) + 0.3 * hcp(mine | pm)
            if not nt and s == trump:
                score -= 4 if not theirs else 8
            card, w = low(mine), "lead low"
            fin = self._finesse_card(pm, theirs)
            if fin is not None and theirs and high(mine) < fin:
                score += 5
                card, w = low(mine), "lead toward honours (finesse)"
            else:
                mm = masters(mine, theirs, s) if theirs else mine
                if mm and theirs:
                    score += 2
                    card, w = high(mm), "cash a top card to develop the suit"
                elif theirs and not masters(pm, theirs, s) and RANK_OF[high(mine)] >= 11:
                    # lead the top of touching honours to knock out theirs
                    card = cheapest_equivalent(high(mine), mine, info.gone | pm, mine)
                    card = high(mine) if RANK_OF[card] < 10 else card
                    w = "knock out their honour"
            key = (score, -s, card)
            if best is None or key > best:
                best, why = key, w
        if best is not None:
            return self._say(why, best[2])
        return self._say("lead low", lowest_rank(hand))

    @staticmethod
    def _finesse_card(pm: int, theirs: int) -> int | None:
        """Partner's card with exactly one of the opponents' cards above it (AQ against the
        K, Kx against the A): the card to play third if second hand plays low."""
        m = pm
        while m:
            c = high(m)
            above = theirs & ~((2 << c) - 1) & SUIT_MASKS[SUIT_OF[c]]
            if above.bit_count() == 1:
                return c
            if above.bit_count() > 1:
                return None
            m ^= 1 << c
        return None

    def _ruff_in_dummy(self, info: Information, me: Seat, hand: int) -> int | None:
        """From declarer's hand, lead a side-suit loser that dummy can ruff."""
        trump = info.trump
        if me != info.declarer:
            return None
        dm = info.hands[info.dummy]
        dtr = dm & SUIT_MASKS[trump]
        if not dtr or dtr.bit_count() > (hand & SUIT_MASKS[trump]).bit_count():
            return None
        for s in range(4):
            if s == trump:
                continue
            mine = hand & SUIT_MASKS[s]
            if mine and not dm & SUIT_MASKS[s]:
                losers = mine & ~masters(mine, info.unseen, s) if info.unseen & SUIT_MASKS[s] else 0
                if losers:
                    return self._say("ruff a loser in dummy", low(losers))
        return None

    # -- following ---------------------------------------------------------------------------

    def _follow(self, info: Information, me: Seat, legal: int, led: int) -> int:
        trick = info.trick
        trump = info.trump
        pos = len(trick)
        wi = winner_so_far(trick, trump)
        w = trick[wi]
        ours_win = ((info.leader + wi) & 1) == (me & 1)
        follow = legal & SUIT_MASKS[led]
        partner = me.partner
        ph = info.hands[partner]
        theirs = info.unseen & SUIT_MASKS[led]
        if pos == 1:
            # partner plays fourth, after the other defender
            pf = ph & SUIT_MASKS[led]
            if RANK_OF[trick[0]] >= 11:
                cover = winners_over(follow, w, trump)
                if cover and not (pf and beats(high(pf), w, trump)):
                    return self._say("cover an honour with an honour", low(cover))
            return self._say("second hand low", low(follow))
        if pos == 2:
            if ours_win:
                above = theirs & ~((2 << w) - 1) if SUIT_OF[w] == led else 0
                if not above or (RANK_OF[w] >= 10 and above.bit_count() <= 1):
                    return self._say(
                        "third hand low: partner's card wins"
                        if not above
                        else "let the honour run (finesse)",
                        low(follow),
                    )
            cands = winners_over(follow, w, trump)
            if not cands:
                return self._say("third hand low", low(follow))
            m = cands
            while m:
                c = low(m)
                above = theirs & ~((2 << c) - 1)
                if above.bit_count() <= 1:
                    return self._say("finesse" if above else "win with a master", c)
                m ^= 1 << c
            top = high(follow)
            card = cheapest_equivalent(top, follow, info.gone | ph, cands)
            return self._say("third hand high", card)
        if ours_win:
            return self._say("fourth hand low: we win", low(follow))
        cands = winners_over(follow, w, trump)
        if cands:
            return self._say("win cheaply", low(cands))
        return self._say("fourth hand low", low(follow))

    def _void(self, info: Information, me: Seat, legal: int, led: int) -> int:
        trick = info.trick
        trump = info.trump
        pos = len(trick)
        wi = winner_so_far(trick, trump)
        w = trick[wi]
        ours_win = ((info.leader + wi) & 1) == (me & 1)
        partner = me.partner
        ph = info.hands[partner]
        trumps = legal & SUIT_MASKS[trump] if trump != Denom.NT else 0
        if trumps and not ours_win:
            ruffs = winners_over(trumps, w, trump)
            partner_can = False
            if pos == 1:
                pf = ph & SUIT_MASKS[led]
                theirs = info.unseen & SUIT_MASKS[led]
                partner_can = bool(pf) and bool(masters(pf, theirs, led)) if theirs else bool(pf)
            if ruffs and not partner_can:
                return self._say("ruff" + (" in dummy" if me == info.dummy else ""), low(ruffs))
        if trump == Denom.NT or legal & ~SUIT_MASKS[trump]:
            return self._discard(info, me, legal)
        return self._say("forced to ruff", low(legal))

    def _discard(self, info: Information, me: Seat, legal: int) -> int:
        trump = info.trump
        nt = trump == Denom.NT
        ph = info.hands[me.partner]
        best = None
        for s in range(4):
            m = legal & SUIT_MASKS[s]
            if not m or (not nt and s == trump):
                continue
            theirs = info.unseen & SUIT_MASKS[s]
            value = discard_cost(m, theirs, s)
            n, pn = m.bit_count(), suit_len(ph, s)
            if n + pn >= 7 and n >= pn:
                value += 3.0  # I hold the long side of a suit that may run
            card = low(m)
            key = (-value, -RANK_OF[card], -s, card)
            if best is None or key > best:
                best = key
        if best is None:
            return self._say("discard", lowest_rank(legal))
        return self._say("discard a loser", best[3])


def _tofs(replan: str = "trick", **options: object) -> Player:
    """The TOFS planner (imported on demand: it compiles the method network); ``replan``
    is "trick" (plan afresh at every trick) or "plan" (Tignum 2: follow the plan until a
    critic rejects a card or it runs out)."""
    from engine.tofs.model import DomainSpec

    from .tofs_player import TofsDeclarer, bridge_domain

    # the match's sample budget is the tie-break's too, unless the tie-break has its own
    ties = options.get("tie_samples", options.get("samples"))
    margin = options.get("tie_margin")
    offer = options.get("offer_tricks")
    spec = options.get("spec")  # the network as edited in a knowledge store
    return TofsDeclarer(
        domain=bridge_domain(spec) if isinstance(spec, DomainSpec) else None,
        model=str(options.get("model", "vacant-places")),
        vulnerable=bool(options.get("vulnerable", False)),
        replan=replan,
        name=str(options.get("name") or ("tofs" if replan == "trick" else f"tofs-{replan}")),
        tie_samples=None if ties is None else int(ties),  # type: ignore[call-overload]
        tie_margin=None if margin is None else float(margin),  # type: ignore[arg-type]
        offer_tricks=None if offer is None else int(offer),  # type: ignore[call-overload]
        tie_rank=str(options.get("tie_rank", "low")),
        safety=bool(options.get("safety", True)),
        discovery=bool(options.get("discovery", True)),
        open_cards=bool(options.get("open_cards", True)),
        plan_lazily=bool(options.get("plan_lazily", True)),
        plan_level=bool(options.get("plan_level", True)),
        stop_when_agreed=bool(options.get("stop_when_agreed", True)),
        read_lead=bool(options.get("read_lead", True)),
        read_play=bool(options.get("read_play", True)),
        extend_close=bool(options.get("extend_close", False)),
        replan_on_ties=None
        if options.get("replan_on_ties") is None
        else bool(options["replan_on_ties"]),
        seed=seed_for(
            int(options.get("seed", 0)),  # type: ignore[call-overload]
            options.get("board"),
        ),
    )


DECLARERS: dict[str, Callable[..., Player]] = {
    "tofs": _tofs,
    "tofs-plan": lambda **o: _tofs(replan="plan", **o),
    "tofs-first": lambda **o: _tofs(**{"tie_samples": 0, "name": "tofs-first", **o}),
    "dd": lambda **o: DoubleDummyDeclarer(**o),
    "mcdd": lambda **o: MonteCarloDeclarer(**o),
    "heuristic": lambda **o: HeuristicDeclarer(**o),
}
"""Declarer name -> factory ``(**options) -> Player`` (options: samples, seed, board, timeout)."""


def make_declarer(name: str, **options: object) -> Player:
    """A declarer by registry name, or by import path ``"package.module:factory"``."""
    if name in DECLARERS:
        return DECLARERS[name](**options)
    if ":" in name:
        import importlib

        mod, _, attr = name.partition(":")
        factory = getattr(importlib.import_module(mod), attr)
        return factory(**options)
    raise ValueError(
        f"unknown declarer {name!r}; expected one of {', '.join(sorted(DECLARERS))}"
        " or an import path module:factory"
    )
