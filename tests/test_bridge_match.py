"""The declarer match harness: the `match bridge` JSON contract, head-to-head bookkeeping,
the dissertation's confidence interval, timeouts in worker processes, deal generation."""

from __future__ import annotations

import json
import time
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from knowledge.bridge import DATA_DIR as DATA
from knowledge.bridge.cards import Denom, Seat
from knowledge.bridge.deal import Contract
from knowledge.bridge.declarers import HeuristicDeclarer
from knowledge.bridge.generate import (
    GAME_LEVEL,
    choose_makeable,
    generate_deals,
    generate_games,
    write_pbn,
)
from knowledge.bridge.match import (
    MatchReport,
    ci95_board_a_match,
    problem_from_record,
    run_match,
    t_quantile_975,
)
from knowledge.bridge.pbn import BoardRecord, read_pbn


@cache
def dev_set() -> tuple[BoardRecord, ...]:
    return tuple(read_pbn(DATA / "dds-list100.pbn"))


class SlowDeclarer(HeuristicDeclarer):
    """Sleeps on every decision: a stand-in for a planner stuck on a pathological deal."""

    name = "slow"

    def __init__(self, delay: float = 30.0, **options: object) -> None:
        super().__init__(**options)
        self.delay = delay

    def choose(self, state, seat, info):
        time.sleep(self.delay)
        return super().choose(state, seat, info)


def slow_declarer(**options: Any) -> SlowDeclarer:
    return SlowDeclarer(**options)


def a_bit_slow(**options: object) -> SlowDeclarer:
    return SlowDeclarer(delay=0.05, **options)


@cache
def small_report() -> MatchReport:
    return run_match(dev_set()[:3], ["heuristic", "dd"], "heuristic", jobs=1)


def test_json_has_exactly_the_contract_keys() -> None:
    data = json.loads(small_report().to_json())
    assert set(data) == {"boards", "declarers", "head_to_head", "results", "errors"}
    assert data["errors"] == []
    assert data["boards"] == 3
    assert set(data["declarers"]) == {"heuristic", "dd"}
    for row in data["declarers"].values():
        assert set(row) == {
            "tricks_mean",
            "made_rate",
            "score_mean",
            "dd_tricks_lost_mean",
            "seconds_per_deal",
            "nodes_per_deal",
            "timeouts",
            "errors",
        }
    assert data["declarers"]["dd"]["dd_tricks_lost_mean"] == 0
    assert data["declarers"]["heuristic"]["nodes_per_deal"] is None
    for h in data["head_to_head"]:
        assert set(h) == {"a", "b", "wins", "losses", "ties", "ci95"}
        assert h["wins"] + h["losses"] + h["ties"] == data["boards"]
        assert len(h["ci95"]) == 2 and h["ci95"][0] <= h["ci95"][1]
    assert len(data["results"]) == 6
    for r in data["results"]:
        assert set(r) == {"board", "declarer", "tricks", "dd_tricks", "score", "seconds", "play"}
        assert len(r["play"]) == 104  # all 52 cards, two characters each
    assert [r["board"] for r in data["results"]] == ["1", "1", "2", "2", "3", "3"]


def test_results_are_consistent() -> None:
    rep = small_report()
    for r in rep.results:
        assert r.completed and r.tricks is not None and r.dd_tricks is not None
        p = problem_from_record(dev_set()[r.index])
        assert r.dd_tricks == int(dev_set()[r.index].tags["DDSTrace"].split()[0])
        assert r.made == (r.tricks >= Contract.parse(p.contract).tricks_needed)
        if r.declarer == "dd":
            assert r.dd_lost == 0
    text = rep.to_text()
    assert "heuristic" in text and "dd" in text and "Head to head" in text


def test_derived_contract_for_the_dev_set() -> None:
    p = problem_from_record(dev_set()[0])  # DDSTrump S, DDSLeader N, DD 8 tricks
    assert (p.contract, p.declarer, p.board) == ("2S", "W", "1")


def test_worker_processes_give_the_same_results() -> None:
    rep = run_match(dev_set()[:3], ["heuristic", "dd"], "heuristic", jobs=2, timeout=60)
    mine = [(r.board, r.declarer, r.tricks, r.play) for r in rep.results]
    want = [(r.board, r.declarer, r.tricks, r.play) for r in small_report().results]
    assert mine == want


def test_a_stuck_declarer_times_out_and_the_run_goes_on() -> None:
    t0 = time.perf_counter()
    slow = "tests.test_bridge_match:slow_declarer"
    # A board's clock starts when its worker says it has begun, so a replacement worker's
    # start-up on a loaded machine never counts against the heuristic declarer's boards.
    rep = run_match(dev_set()[:2], ["heuristic", slow], "heuristic", jobs=2, timeout=5)
    took = time.perf_counter() - t0
    # Played out, each slow board would take 30 s for every declarer card (over 6 minutes):
    # the run ending well inside that shows the stuck boards were cut off.
    assert took < 120
    data = rep.to_dict()
    assert data["declarers"][slow]["timeouts"] == 2
    assert data["declarers"]["heuristic"]["timeouts"] == 0
    h = data["head_to_head"][0]
    assert (h["a"], h["b"], h["wins"], h["losses"], h["ties"]) == ("heuristic", slow, 2, 0, 0)
    timed_out = [r for r in data["results"] if r["declarer"] == slow]
    assert all(r["tricks"] is None and r["score"] is None for r in timed_out)


def test_in_process_timeout_is_checked_between_cards() -> None:
    rep = run_match(
        dev_set()[:1], ["tests.test_bridge_match:a_bit_slow"], "heuristic", jobs=1, timeout=0.3
    )
    assert rep.results[0].timeout and rep.summary(rep.declarers[0]).timeouts == 1


def test_confidence_interval_reproduces_the_dissertation() -> None:
    # Smith used x +/- s * 1.980 / sqrt(n); with that t value his intervals come back.
    assert t_quantile_975(120) == pytest.approx(1.980, abs=5e-4)
    assert t_quantile_975(999) == pytest.approx(1.9623, abs=5e-4)
    assert t_quantile_975(10) == pytest.approx(2.228)
    lo, hi = ci95_board_a_match(250, 191, 559)  # all played deals: CI ~ [0.01756, 0.10044]
    assert (lo, hi) == pytest.approx((0.0179, 0.1001), abs=2e-4)
    lo, hi = ci95_board_a_match(219, 179, 602)  # suit deals: [0.00074, 0.07926] with 1.980
    assert lo > 0 and (lo, hi) == pytest.approx((0.00087, 0.07913), abs=2e-4)
    assert ci95_board_a_match(0, 0, 5) == (0.0, 0.0)


def test_generated_games_are_deterministic_games_near_the_dd_result(tmp_path: Path) -> None:
    a = generate_games(3, seed=11)
    b = generate_games(3, seed=11)
    assert [r.deal for r in a] == [r.deal for r in b]
    assert [r.board for r in a] == ["G1", "G2", "G3"]
    order = (Denom.NT, Denom.S, Denom.H, Denom.D, Denom.C)
    for r in a:
        assert r.contract is not None and r.contract.level == GAME_LEVEL[r.contract.denom]
        table = r.tags["DoubleDummyTricks"]
        row = (Seat.N, Seat.S, Seat.E, Seat.W).index(r.declarer)
        dd = int(table[5 * row + order.index(r.contract.denom)], 16)
        assert abs(dd - r.contract.tricks_needed) <= 1
    back = read_pbn(write_pbn(a, tmp_path / "games.pbn"))
    assert [(r.board, r.deal, r.contract, r.declarer, r.vulnerability) for r in back] == [
        (r.board, r.deal, r.contract, r.declarer, r.vulnerability) for r in a
    ]
    rep = run_match(back[:1], ["dd"], "dd", jobs=1)
    assert rep.results[0].tricks == rep.results[0].dd_tricks


class BrokenDeclarer(HeuristicDeclarer):
    """Raises at its first card: a stand-in for a bug that shows on one board only."""

    def choose(self, state, seat, info):
        raise RuntimeError("deliberate fault for the test")


def broken_on_board_2(**options: object) -> HeuristicDeclarer:
    if options.get("board") == "2":
        return BrokenDeclarer(**options)
    return HeuristicDeclarer(**options)


BROKEN = "tests.test_bridge_match:broken_on_board_2"


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_board_that_raises_is_reported_not_folded_into_the_figures(jobs: int) -> None:
    rep = run_match(dev_set()[:3], ["heuristic", BROKEN], "heuristic", jobs=jobs, timeout=120)
    (failed,) = rep.failures
    assert (failed.board, failed.declarer, failed.timeout) == ("2", BROKEN, False)
    assert failed.error == "RuntimeError: deliberate fault for the test"
    assert failed.traceback is not None and "in choose" in failed.traceback
    data = rep.to_dict()
    assert data["errors"] == [{"board": "2", "declarer": BROKEN, "error": failed.error}]
    assert data["declarers"][BROKEN]["errors"] == 1
    assert data["declarers"][BROKEN]["timeouts"] == 0
    assert rep.summary(BROKEN).completed == 2
    lines = rep.to_text().splitlines()
    assert "1 board failed" in lines
    assert f"  board 2 ({BROKEN}): RuntimeError: deliberate fault for the test" in lines


def test_match_command_names_the_failed_board_and_exits_non_zero(capsys) -> None:
    from knowledge import EXIT_JOBS_FAILED
    from workbench.cli import main

    args = ["match", "bridge", str(DATA / "dds-list100.pbn"), "--boards", "3"]
    status = main([*args, "--declarers", f"heuristic,{BROKEN}", "--json"])
    out, err = capsys.readouterr()
    assert status == EXIT_JOBS_FAILED != 0
    assert json.loads(out)["errors"] == [
        {"board": "2", "declarer": BROKEN, "error": "RuntimeError: deliberate fault for the test"}
    ]
    assert f"board 2 ({BROKEN}) failed: RuntimeError: deliberate fault" in err
    assert "Traceback (most recent call last)" in err and "in choose" in err
    assert err.rstrip().splitlines()[-1] == "1 board failed"
    # Without faults the same command exits 0 and reports no errors.
    assert main([*args, "--declarers", "heuristic", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["errors"] == []


def test_generated_deals_are_played_at_the_makeable_level_with_the_defences_lead(
    tmp_path: Path,
) -> None:
    from knowledge.bridge.players import dd_trace

    a = generate_deals(4, seed=3, prefix="R")
    assert [r.deal for r in a] == [r.deal for r in generate_deals(4, seed=3, prefix="R")]
    assert [r.board for r in a] == ["R1", "R2", "R3", "R4"]
    for r in a:
        assert r.contract is not None and r.declarer is not None and r.lead is not None
        # double dummy (solved afresh, not read from the record's table) makes it exactly
        made = dd_trace(r.deal, int(r.contract.denom), r.declarer, ())[0]
        assert made == r.contract.tricks_needed
        assert r.deal[r.declarer.next] >> r.lead & 1  # the lead is the leader's own card
    back = read_pbn(write_pbn(a, tmp_path / "report.pbn"))
    assert [(r.contract, r.declarer, r.lead) for r in back] == [
        (r.contract, r.declarer, r.lead) for r in a
    ]
    rep = run_match(back[:1], ["heuristic"], "dd", jobs=1)
    assert rep.results[0].play[:2] == back[0].tags["Lead"]


# North-South: 30 points, a 4-4 heart fit, a 3-5 diamond fit, seven spades, three clubs.
FITS = "N:AKQ2.AK32.QJ2.32 T98.876.T65.AKQJ J76.QJT9.AK987.5 543.54.43.T98764"


def _table(tricks: dict[Denom, int]) -> dict[tuple[Seat, Denom], int]:
    return {
        (s, d): (tricks[d] if s in (Seat.N, Seat.S) else 13 - tricks[d])
        for s in Seat
        for d in Denom
    }


@pytest.mark.parametrize(
    ("tricks", "expected"),
    [
        # a major fit wins a tie with no-trump, and no-trump one with a minor a trick better
        ({Denom.NT: 10, Denom.H: 10, Denom.D: 11, Denom.S: 12, Denom.C: 12}, "4H"),
        ({Denom.NT: 10, Denom.H: 9, Denom.D: 11, Denom.S: 12, Denom.C: 12}, "4NT"),
        # a minor two tricks better than no-trump is where the auction ends
        ({Denom.NT: 9, Denom.H: 9, Denom.D: 11, Denom.S: 12, Denom.C: 12}, "5D"),
    ],
)
def test_the_makeable_strain_is_the_one_an_auction_settles_in(
    tricks: dict[Denom, int], expected: str
) -> None:
    from knowledge.bridge.deal import Deal

    deal = Deal.from_pbn(FITS)
    chosen = choose_makeable(deal, _table(tricks))
    assert chosen is not None
    contract, declarer, _ = chosen
    # spades and clubs have no eight-card fit: however many tricks they take, they are out
    assert str(contract) == expected
    assert declarer in (Seat.N, Seat.S)


def test_no_contract_when_the_stronger_side_makes_nothing() -> None:
    from knowledge.bridge.deal import Deal

    tricks = dict.fromkeys(Denom, 6)
    assert choose_makeable(Deal.from_pbn(FITS), _table(tricks)) is None


def test_the_benchmark_names_its_sets_and_the_report_set_is_the_one_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The held-out set is made from seed 2 and kept in the repository; making it again
    gives the same deals, contracts and leads (so it is the same set on every machine)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "bridge_match.py"
    spec = importlib.util.spec_from_file_location("bridge_match_benchmark", path)
    assert spec is not None and spec.loader is not None
    bridge_match = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bridge_match)

    kept = read_pbn(bridge_match.SETS / "report-seed2.pbn")
    assert len(kept) >= 300
    again = generate_deals(3, bridge_match.REPORT_SEED, prefix="R")
    assert [(r.board, r.deal, r.contract, r.declarer, r.lead) for r in again] == [
        (r.board, r.deal, r.contract, r.declarer, r.lead) for r in kept[:3]
    ]
    argv = ["--boards", "1", "--tune", "0", "--report", "2", "--declarers", "heuristic"]
    argv += ["--defenses", "dd", "--jobs", "1", "--where", "--sets-dir", str(tmp_path)]
    assert bridge_match.main(argv) == 0
    out = capsys.readouterr().out
    assert "dev/dd: 1 boards" in out and "report/dd: 2 boards" in out
    assert "where heuristic lost on report/dd:" in out
    assert (tmp_path / "report-seed2.pbn").exists()  # made on first use, read after
    # a damaged set file is named with its board, line and tag, and left as it is
    bad = tmp_path / "bad"
    bad.mkdir()
    damaged = '[Board "1"]\n[Deal "N:garbage"]\n'
    (bad / "report-seed2.pbn").write_text(damaged, encoding="utf-8")
    argv = ["--boards", "0", "--tune", "0", "--report", "2", "--sets-dir", str(bad)]
    assert bridge_match.main(argv) == 1
    err = capsys.readouterr().err
    assert "bridge_match: error: report-seed2.pbn, board 1 (line 2), [Deal]" in err
    assert "Traceback" not in err
    assert (bad / "report-seed2.pbn").read_text(encoding="utf-8") == damaged
