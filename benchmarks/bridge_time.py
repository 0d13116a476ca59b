"""Where a bridge declarer's seconds go, and what stopping the samples early could save.

Issue 31 asks the TOFS declarer to be no slower than Monte Carlo double dummy (``mcdd``)
with the same sample budget.  This benchmark says how far that is from reach, on the tune
deals (``benchmarks/data/tune-seed1.pbn``), one board at a time in this process:

* **time**: each declarer's thinking time by trick, and its double-dummy solver time by
  the function that asked for the solves (``_solve``: a decision's layouts;
  ``play_weights``: the defenders' cards read; ``choose``: mcdd's layouts) and by trick;
  the rest is Python (plans, suit analyses, drawing layouts).
* **stopping**: mcdd's decisions replayed with every layout solved, and for each rule that
  stops after the first ``n`` layouts, how much of the solver's time it would save and on
  how many decisions the card it stops at is not of the class the full budget plays.

Run::

    .venv/bin/python benchmarks/bridge_time.py --deals 20 --declarers tofs,mcdd
    .venv/bin/python benchmarks/bridge_time.py --deals 60 --stopping
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import knowledge.bridge.declarers as declarers  # noqa: E402
import knowledge.bridge.play_reading as play_reading  # noqa: E402
import knowledge.bridge.tofs_player as tofs_player  # noqa: E402
from knowledge.bridge.cards import class_representatives, iter_cards, mask_of  # noqa: E402
from knowledge.bridge.match import _declarer, play_problem, problem_from_record  # noqa: E402
from knowledge.bridge.pbn import PbnError, read_pbn  # noqa: E402
from knowledge.bridge.players import lowest_first  # noqa: E402
from knowledge.bridge.tofs_player import _best_everywhere, _means, _one_class  # noqa: E402

TUNE = ROOT / "benchmarks" / "data" / "tune-seed1.pbn"
Solved = list[tuple[dict[int, int], int]]
"""A decision's layouts solved: each card's tricks, and the nodes searched."""


def _trick(positions: Sequence[Any]) -> int:
    """The trick (1-13) the first position is in: by the cards left in the four hands."""
    left = sum(h.bit_count() for h in positions[0][0])
    return 14 - (left + 3) // 4


def _solver_spy(
    on_solve: Callable[[str, int, float, Any], None],
) -> Callable[[], None]:
    """Wrap the solver's batch call where the declarers import it; returns the undo."""
    modules = (declarers, play_reading, tofs_player)
    original = declarers.dd_solve_many

    def spy(positions: Sequence[Any], **kw: Any) -> Any:
        t = time.perf_counter()
        out = original(positions, **kw)
        if positions:
            on_solve(
                sys._getframe(1).f_code.co_name, _trick(positions), time.perf_counter() - t, out
            )
        return out

    for m in modules:
        m.dd_solve_many = spy  # type: ignore[attr-defined]

    def undo() -> None:
        for m in modules:
            m.dd_solve_many = original  # type: ignore[attr-defined]

    return undo


def _time_one(
    records: list[Any], name: str, samples: int
) -> tuple[dict[int, float], dict[tuple[str, int], float]]:
    """Declarer ``name``'s thinking time by trick, and its solver time by caller and trick."""
    by_trick: dict[int, float] = collections.defaultdict(float)
    solver: dict[tuple[str, int], float] = collections.defaultdict(float)

    def solved(who: str, trick: int, seconds: float, _: Any) -> None:
        solver[who, trick] += seconds

    undo = _solver_spy(solved)
    try:
        for rec in records:
            player = _declarer(problem_from_record(rec), name, {"samples": samples})
            choose = player.choose

            def timed(state: Any, seat: Any, info: Any, _choose: Any = choose) -> int:
                t = time.perf_counter()
                card = _choose(state, seat, info)
                by_trick[len(info.plays) // 4 + 1] += time.perf_counter() - t
                return card

            player.choose = timed  # type: ignore[method-assign]
            play_problem(rec, player, "dd", options={"samples": samples})
    finally:
        undo()
    return by_trick, solver


def time_split(records: list[Any], names: list[str], samples: int) -> None:
    for name in names:
        by_trick, solver = _time_one(records, name, samples)
        total, dds = sum(by_trick.values()), sum(solver.values())
        print(f"{name}: {total:.1f} s thinking on {len(records)} deals, {dds:.1f} s of it solving")
        print("  by trick:  " + "  ".join(f"{t}:{s:.1f}" for t, s in sorted(by_trick.items())))
        callers: dict[str, float] = collections.defaultdict(float)
        for (who, _), s in solver.items():
            callers[who] += s
        for who, s in sorted(callers.items(), key=lambda kv: -kv[1]):
            tricks = "  ".join(
                f"{t}:{v:.1f}" for (w, t), v in sorted(solver.items()) if w == who and v >= 0.05
            )
            print(f"  solver for {who}: {s:.1f} s  (by trick, 0.05 s and up: {tricks})")
        print(f"  the rest (Python: plans, suit analyses, drawing layouts): {total - dds:.1f} s")


def _early_card(scores: Solved, n: int, gap: float, hand: int, gone: int) -> int | None:
    """The card the agreement rule (``tofs_player._always_best``, with ``n`` and ``gap``
    for its batch and :data:`~knowledge.bridge.tofs_player.AGREED_GAP`) stops at after
    ``n`` layouts: one class the best on each of them by ``gap`` tricks on average over
    every other card; None where none."""
    part = scores[:n]
    cards = mask_of(part[0][0])
    best = _best_everywhere(part, cards)
    if class_representatives(best, hand, gone).bit_count() != 1:
        return None
    mean = _means(part, cards)
    others = [v for c, v in mean.items() if not best >> c & 1]
    if others and max(mean.values()) - max(others) < gap:
        return None
    return lowest_first(list(iter_cards(best)))


Rule = Callable[[Solved, int, int], tuple[int, int] | None]
"""A stopping rule: (scores of the layouts, hand, cards gone) -> (layouts solved, the card
it stops at), or None where it solves the whole budget."""


def _agreed(checks: list[tuple[int, float]]) -> Rule:
    def rule(scores: Solved, hand: int, gone: int) -> tuple[int, int] | None:
        for n, gap in checks:
            if len(scores) <= n:
                return None
            card = _early_card(scores, n, gap, hand, gone)
            if card is not None:
                return n, card
        return None

    return rule


def _level(n: int) -> Rule:
    """Stop where every card takes the same tricks on each of the first ``n`` layouts, at
    the lowest (as a level decision is taken without a plan)."""

    def rule(scores: Solved, hand: int, gone: int) -> tuple[int, int] | None:
        if len(scores) <= n or any(len(set(sc.values())) > 1 for sc, _ in scores[:n]):
            return None
        return n, lowest_first(list(scores[0][0]))

    return rule


def stopping(records: list[Any], samples: int) -> None:
    decisions: list[tuple[float, Solved, int, int, int]] = []
    last: dict[str, Any] = {}
    undo = _solver_spy(lambda who, _t, dt, out: last.update(dt=dt, out=out))
    choose = declarers.MonteCarloDeclarer.choose

    def spied(self: Any, state: Any, seat: Any, info: Any) -> int:
        last.clear()
        card = choose(self, state, seat, info)
        if "out" in last:
            decisions.append((last["dt"], last["out"], info.hands[int(seat)], info.gone, card))
        return card

    declarers.MonteCarloDeclarer.choose = spied  # type: ignore[method-assign]
    try:
        for rec in records:
            play_problem(rec, "mcdd", "dd", options={"samples": samples})
    finally:
        declarers.MonteCarloDeclarer.choose = choose  # type: ignore[method-assign]
        undo()
    total = sum(d[0] for d in decisions)

    print(f"mcdd: {len(decisions)} decisions solved on {len(records)} deals, {total:.1f} s solving")
    rules: list[tuple[str, Rule]] = [
        (f"one class best on each of {n} layouts by {g} on average", _agreed([(n, g)]))
        for n, g in ((8, 0.5), (6, 0.5), (4, 0.5), (4, 1.0))
    ]
    rules.append(
        ("that after 4 layouts (by 1.0), then after 8 (by 0.5)", _agreed([(4, 1.0), (8, 0.5)]))
    )
    rules += [(f"every card level on each of {n} layouts", _level(n)) for n in (4, 8, 12)]
    for words, rule in rules:
        saved, changed, stops = 0.0, 0, 0
        for dt, scores, hand, gone, card in decisions:
            found = rule(scores, hand, gone)
            if found is None:
                continue
            n, early = found
            stops += 1
            saved += dt * (1 - n / len(scores))
            changed += not _one_class([early, card], hand, gone)
        print(
            f"  {words}: stops {stops}, saves {saved:.1f} s ({saved / total:.0%}), "
            f"another card on {changed}"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pbn", type=Path, default=TUNE, help="deals (default: the tune set)")
    ap.add_argument("--first", type=int, default=0, help="skip this many deals")
    ap.add_argument("--deals", type=int, default=20, help="deals to play")
    ap.add_argument("--samples", type=int, default=20, help="layouts a decision")
    ap.add_argument("--declarers", default="tofs,mcdd", help="for the time split")
    ap.add_argument("--stopping", action="store_true", help="the stopping rules instead")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.samples < 1:
        ap.error("--deals and --samples must be at least 1")
    try:
        records = read_pbn(args.pbn)[args.first : args.first + args.deals]
        names = [n for n in args.declarers.split(",") if n]
        for name in names:  # an unknown name is refused before any board is played
            declarers.make_declarer(name)
    except (PbnError, ValueError) as exc:
        ap.error(str(exc))
    if not records:
        ap.error(f"{args.pbn} has no deals from {args.first + 1}")
    if args.stopping:
        stopping(records, args.samples)
    else:
        time_split(records, names, args.samples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
