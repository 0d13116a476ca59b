"""``play bridge --defense scripted`` refuses a recorded play that breaks the rules.

The scripted defence replays the file's ``[Play]``; the PBN reader keeps a damaged play
only up to the bad card, so the defence used to switch to its heuristics there without a
word.  Now a card played twice or a revoke is one line naming the file, board, trick and
card, exit 1.  The boards are the repository's deal 353021 with one card changed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from knowledge.bridge.match import recorded_play_fault
from knowledge.bridge.pbn import read_pbn
from workbench.cli import main

DEAL = Path(__file__).resolve().parents[1] / "knowledge/bridge/deals/353021.pbn"
# Columns are W N E S (the [Play] seat first).  West leads trick 4 (CJ) and follows in
# trick 5 (D7) to North's DA; West was dealt A2.KQ4.J76.KJT63 and led D6 at trick 1.


def variant(tmp_path: Path, old: str, new: str) -> Path:
    text = DEAL.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "353021.pbn"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("old", "new", "fault"),
    [
        ("CJ CA C8 C2", "D6 CA C8 C2", "board 353021, trick 4: West plays ♦6 twice"),
        (
            "D7 DA D9 D4",
            "C3 DA D9 D4",
            "board 353021, trick 5: West plays ♣3 and does not follow ♦ while holding ♦J ♦7",
        ),
    ],
    ids=["twice", "revoke"],
)
def test_a_play_that_breaks_the_rules_is_refused_in_one_line(
    tmp_path: Path, old: str, new: str, fault: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant(tmp_path, old, new)
    (record,) = read_pbn(path)
    assert recorded_play_fault(record) == fault
    assert main(["play", "bridge", str(path), "--defense", "scripted", "--bundled"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"workbench: error: {path}: {fault}\n" and captured.out == ""


def test_a_rightful_play_and_a_claim_are_replayed(tmp_path: Path) -> None:
    (record,) = read_pbn(DEAL)
    assert recorded_play_fault(record) is None
    claimed = variant(tmp_path, "C6 D3 S9 H8\nCT SJ ST HJ\n", "C6 D3 S9 H8\n- - - -\n")
    (record,) = read_pbn(claimed)
    assert recorded_play_fault(record) is None


def test_other_defences_do_not_replay_the_record_and_are_not_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = variant(tmp_path, "CJ CA C8 C2", "D6 CA C8 C2")
    assert main(["play", "bridge", str(path), "--bundled"]) == 0
    assert capsys.readouterr().out.startswith("Board 353021: 4H by S")
