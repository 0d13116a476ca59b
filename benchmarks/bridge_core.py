"""Speed of the bridge card-play core (knowledge/bridge/deal.py) on the development deals.

Run: ``.venv/bin/python benchmarks/bridge_core.py`` (``--rounds N``, ``--data DIR``).

Prints plays+undos per second and legal-move generations per second.  Each of the 100
deals of ``dds-list100.pbn`` is played to the end by a depth-first walk that, at every
position, generates the legal cards, plays each of the first few (like a search trying
alternatives), undoes them, then continues along the first -- the make/unmake pattern the
planner uses.  The best of ``--rounds`` rounds is reported, since this machine is shared.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from knowledge.bridge import DATA_DIR as DATA
from knowledge.bridge.cards import Denom, Seat, class_representatives
from knowledge.bridge.deal import PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.pbn import read_pbn


def start_positions(data: Path) -> list[PlayState]:
    recs = read_pbn(data / "dds-list100.pbn")
    return [
        PlayState.from_position(
            r.deal.hands, Denom.parse(r.tags["DDSTrump"]), Seat.parse(r.tags["DDSLeader"])
        )
        for r in recs
    ]


def walk(states: list[PlayState], branch: int) -> tuple[int, int, float]:
    """Plays (each followed by an undo) and legal-move calls made, and the seconds taken."""
    plays = gens = 0
    t0 = time.perf_counter()
    for s in states:
        while not s.is_over:
            m = s.legal_mask()
            gens += 1
            first = (m & -m).bit_length() - 1
            k = 0
            while m and k < branch:
                low = m & -m
                s.play(low.bit_length() - 1)
                s.undo()
                m ^= low
                k += 1
            plays += k
            s.play(first)
        while s.cards_played:
            s.undo()
    return plays, gens, time.perf_counter() - t0


def legal_only(states: list[PlayState], repeat: int) -> tuple[int, float, float]:
    """legal_mask() and legal_plays() calls per second at every position of a playout."""
    positions = []
    for s in states:
        while not s.is_over:
            positions.append(s.copy())
            s.play(s.legal_plays()[0])
        while s.cards_played:
            s.undo()
    n = len(positions) * repeat
    t0 = time.perf_counter()
    for _ in range(repeat):
        for p in positions:
            p.legal_mask()
    t_mask = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(repeat):
        for p in positions:
            p.legal_plays()
    return n, t_mask, time.perf_counter() - t0


def reps_only(states: list[PlayState], repeat: int) -> tuple[int, float]:
    """Equivalence-class representatives of the legal cards (a search's move list)."""
    positions = []
    for s in states:
        while not s.is_over:
            positions.append(s.copy())
            s.play(s.legal_plays()[0])
        while s.cards_played:
            s.undo()
    t0 = time.perf_counter()
    for _ in range(repeat):
        for p in positions:
            class_representatives(p.legal_mask(), p.hands[p.turn], p.gone)
    return len(positions) * repeat, time.perf_counter() - t0


def sampling(states: list[PlayState], per_position: int) -> tuple[int, float]:
    """Layouts sampled from declarer's information set after three tricks (what the
    tie-break and the Monte-Carlo declarer draw at every decision)."""
    infos = []
    for s in states:
        for _ in range(12):
            s.play(s.legal_plays()[0])
        infos.append(declarer_info(s))
        while s.cards_played:
            s.undo()
    rng = random.Random(0)
    t0 = time.perf_counter()
    for info in infos:
        info.consistent_layouts(rng, per_position)
    return len(infos) * per_position, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--branch", type=int, default=4, help="cards tried at each position")
    ap.add_argument("--data", type=Path, default=DATA)
    args = ap.parse_args()
    states = start_positions(args.data)

    best_pu = best_gen = best_mask = best_list = best_reps = best_samples = 0.0
    for _ in range(args.rounds):
        plays, gens, dt = walk(states, args.branch)
        best_pu = max(best_pu, plays / dt)
        n, t_mask, t_list = legal_only(states, 20)
        best_mask = max(best_mask, n / t_mask)
        best_list = max(best_list, n / t_list)
        best_gen = max(best_gen, gens / dt)
        nr, t_reps = reps_only(states, 10)
        best_reps = max(best_reps, nr / t_reps)
        ns, t_samples = sampling(states, 200)
        best_samples = max(best_samples, ns / t_samples)
    print(f"deals: {len(states)}, rounds: {args.rounds} (best round reported)")
    print(f"play+undo pairs per second (search walk, {args.branch} tries/position): {best_pu:,.0f}")
    print(f"legal_mask() per second:   {best_mask:,.0f}")
    print(f"legal_plays() per second:  {best_list:,.0f}")
    print(f"class representatives of the legal cards per second: {best_reps:,.0f}")
    print(f"consistent layouts sampled per second (declarer, after trick 3): {best_samples:,.0f}")


if __name__ == "__main__":
    main()
