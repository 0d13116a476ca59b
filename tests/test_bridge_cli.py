"""``workbench play bridge`` and ``workbench match bridge``: output contracts and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from knowledge.bridge import DATA_DIR as DEV
from workbench.cli import main

DEALS = Path(__file__).resolve().parents[1] / "knowledge/bridge/deals"


def test_play_prints_the_play_with_scheme_notes_and_explains(capsys) -> None:
    status = main(
        ["play", "bridge", str(DEALS / "353021.pbn"), "--defense", "scripted", "--explain"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert out.startswith("Board 353021: 4H by S (tofs against scripted defence)")
    assert out.count(" led: ") == 13 and "[" in out
    # dummy follows low at trick 1, as Tignum 2 did (the dissertation's Table 1: D6 D2 D8 DQ);
    # the samples leave ♦K, ♦2 and ♦A level, and the lowest is played
    assert "Trick 1: North plays ♦2, to follow low" in out
    assert "the lowest of 3 cards level played" in out
    assert (
        main(
            ["play", "bridge", str(DEALS / "353021.pbn"), "--defense", "scripted", "--explain=full"]
        )
        == 0
    )
    full = capsys.readouterr().out
    assert "Trick 1, N to play" in full and "chosen" in full
    # the audit's verdict says what was played in the knowledge's words (the method's
    # label), not by the alternative's identifier ("FollowLow(C=♦2)")
    settled = [line for line in full.splitlines() if "settled on" in line]
    assert settled and not any("(C=" in line for line in settled)
    assert "Follow low (♦2) played (the lowest of 3 cards level)" in full


def test_play_json_keeps_its_keys(capsys) -> None:
    assert main(["play", "bridge", str(DEALS / "fig5-1.pbn"), "--json", "--explain"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {
        "board",
        "contract",
        "declarer",
        "tricks",
        "made",
        "score",
        "play",
        "trick_by_trick",
        "decisions",
    } <= set(data)
    assert len(data["play"]) == 104 and len(data["trick_by_trick"]) == 13
    for d in data["decisions"]:
        assert sum(a["chosen"] for a in d["alternatives"]) == 1


@pytest.mark.parametrize(
    "argv,says",
    [
        (["play", "bridge", "no/such/file.pbn"], "no/such/file.pbn: no such file"),
        (["play", "bridge", str(DEALS / "353021.pbn"), "--board", "7"], "no board '7'"),
        (["play", "bridge", str(DEV / "dds-12_cards.pbn")], "every hand needs 13"),
        (["match", "bridge", str(DEALS / "353306.pbn"), "--jobs", "0"], "--jobs"),
    ],
)
def test_bad_input_is_one_line_and_status_1(argv, says, capsys) -> None:
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err


def test_match_json_contract(capsys) -> None:
    status = main(
        [
            "match",
            "bridge",
            str(DEV / "dds-list100.pbn"),
            "--boards",
            "2",
            "--declarers",
            "tofs,heuristic",
            "--json",
        ]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert data["boards"] == 2
    assert set(data["declarers"]) == {"tofs", "heuristic"}
    for figures in data["declarers"].values():
        assert {
            "tricks_mean",
            "made_rate",
            "score_mean",
            "dd_tricks_lost_mean",
            "seconds_per_deal",
            "nodes_per_deal",
            "timeouts",
        } <= set(figures)
    [h2h] = data["head_to_head"]
    assert h2h["wins"] + h2h["losses"] + h2h["ties"] == 2
    assert {r["declarer"] for r in data["results"]} == {"tofs", "heuristic"}
    assert all(len(r["play"]) == 104 for r in data["results"])
