"""``play bridge --explain``: a played board explained for players (issue 29, item 7).

The reader's view gives, at each decision, the card and its plan in the knowledge's words
(its method's label template filled in), why that card, and what it rests on; declarer's
analysis once per deal and again only when its outline changed; the full audit behind
``--explain=full``.  The workbench's play log carries the same words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.tofs import load_domain_file
from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]
DEALS = ROOT / "knowledge" / "bridge" / "deals"
BOARD = str(DEALS / "353021.pbn")
CALL = re.compile(r"\b[A-Z][A-Za-z]*\([A-Za-z_]\w*=")
"""A method named in call syntax, ``WinCheaply(C=♦K)``: never in the reader's view."""
HEAD = re.compile(
    r"^Trick (\d+): (North|East|South|West) (leads|plays) (\S+), to (.+) \(([-+][\d.]+)\)\.$"
)


def _templates() -> re.Pattern[str]:
    """Every label of the bridge knowledge as a pattern (each ``{...}`` a filled-in word or
    words), lower-cased at the start as a label inside a sentence, and one or more of them
    joined as the reader's view joins plans of one card ("a, b or c")."""
    spec = load_domain_file(ROOT / "knowledge" / "bridge" / "bridge.toml")
    alternatives = []
    for m in spec.methods:
        label = m.label
        if not label or re.fullmatch(r"\{[^}]*\}", label):
            continue  # a label that is only a value has no words of the knowledge's own
        label = label[0].lower() + label[1:] if label[1:2].islower() else label
        parts = re.split(r"\{[^}]*\}", label)
        alternatives.append(".+?".join(re.escape(x) for x in parts))
    one = "(?:" + "|".join(sorted(alternatives, key=len, reverse=True)) + ")"
    return re.compile(rf"{one}(?:(?:, | or ){one})*")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, str, dict]:
    """The acceptance command's reader view, its full audit, and its JSON."""
    import contextlib
    import io

    outs = []
    for flag in ("--explain", "--explain=full", "--json"):
        argv = ["play", "bridge", BOARD, "--defense", "scripted", "--bundled", flag]
        if flag == "--json":
            argv.append("--explain")
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            assert main(argv) == 0
        outs.append(buffer.getvalue())
    return outs[0], outs[1], json.loads(outs[2])


def test_at_most_twelve_lines_a_decision_and_no_call_syntax(played) -> None:
    reader, _, data = played
    decisions = len(data["decisions"])
    assert decisions >= 20  # declarer and dummy choose at most of the 13 tricks
    lines = reader.rstrip("\n").splitlines()
    assert len(lines) / decisions <= 12, f"{len(lines)} lines for {decisions} decisions"
    assert not CALL.findall(reader), CALL.findall(reader)[:5]
    # one head a decision, in the order played
    heads = [line for line in lines if line.startswith("Trick ")]
    assert len(heads) == decisions
    matched = [HEAD.match(h) for h in heads]
    assert all(matched), [h for h, m in zip(heads, matched, strict=True) if not m]
    tricks = [int(m.group(1)) for m in matched if m]
    assert tricks == [d["trick"] for d in data["decisions"]]


def test_each_card_is_named_with_its_plan_in_the_knowledge_words(played) -> None:
    reader, _, data = played
    templates = _templates()
    play = data["play"]  # "DKD8..." two characters a card, in the order played
    for line in (x for x in reader.splitlines() if x.startswith("Trick ")):
        head = HEAD.match(line)
        assert head, line
        assert templates.fullmatch(head.group(5)), f"not the knowledge's words: {head.group(5)!r}"
        card = head.group(4)
        assert card[0] in "♠♥♦♣" and card[1:] in "AKQJT98765432"
    # the first decision: dummy (North) follows low to the ♦6 lead, as Tignum 2 did (the
    # dissertation's Table 1: D6 D2 D8 DQ)
    first = next(x for x in reader.splitlines() if x.startswith("Trick "))
    assert first.startswith("Trick 1: North plays ♦2, to follow low")
    assert play[2:4] == "D2"


def test_the_analysis_is_said_once_and_again_only_when_it_changed(played) -> None:
    reader, full, data = played
    shown = reader.count("Declarer's analysis (after Lo 1987)")
    assert 1 <= shown < len(data["decisions"])
    # the first decision of the deal opens with it, before its card
    body = reader.split("\n\n", 1)[1]
    assert body.lstrip().startswith("Declarer's analysis (after Lo 1987): 4♥ by South, trick 1")
    # trick 1 has two decisions (dummy, then declarer) and one analysis: nothing changed
    assert reader.count("trick 1: 10 tricks needed") == 1
    # the analysis never repeats the planner's card: the decision below says it
    assert "The planner plays" not in reader
    # the audit keeps it at every decision, with every alternative by its method
    assert full.count("Declarer's analysis (after Lo 1987)") == len(data["decisions"])
    assert "WinCheaply(C=♦K)" in full and len(full.splitlines()) > len(reader.splitlines())


def test_each_decision_says_what_it_rests_on_and_the_next_best(played) -> None:
    reader, _, data = played
    blocks = ["Trick " + b for b in reader.split("\nTrick ")[1:]]
    assert len(blocks) == len(data["decisions"])
    for block, d in zip(blocks, data["decisions"], strict=True):
        assert d["reader"] and block.startswith("Trick ")
        # the card's reason: a verdict, or the sampled layouts that settled a tie
        assert "tiebreak" not in d or "settled on" in block.splitlines()[1]
        assert "Double-dummy check (sees all four hands; not the planner's reason)" in block
    # trick 2: the samples' ♦4 (the lowest of three cards level) is named with its plans,
    # and the planner's own first choice after it, in its tree's value
    trick2 = next(b for b in blocks if b.startswith("Trick 2: South leads ♦4"))
    assert "to take a diamond finesse" in trick2
    assert "South leads ♥A, to draw trump: +650 in the planner's tree" in trick2


def test_the_workbench_play_log_carries_the_same_words() -> None:
    """The table's play log notes the reader's words at each planned card (no call
    syntax), the same sentence ``play --explain`` opens its decision with."""
    from knowledge.bridge.defenders import make_defender
    from knowledge.bridge.pbn import read_pbn
    from knowledge.bridge.play_reader import explained_decisions
    from knowledge.bridge.players import play_board
    from knowledge.bridge.problems import board_state
    from knowledge.bridge.tofs_player import TofsDeclarer
    from workbench.domains.bridge.view import play_notes

    record = read_pbn(DEALS / "353021-trick5.pbn")[0]
    start = board_state(record, "353021-trick5")
    assert record.declarer is not None and record.contract is not None
    declarer = TofsDeclarer(vulnerable=record.vulnerability.is_vulnerable(record.declarer))
    rec = play_board(
        record.deal,
        record.contract,
        record.declarer,
        declarer,
        make_defender("heuristic"),
        start=start,
    )
    notes = play_notes(start.cards_played, rec, declarer)
    # every card a plan chose (a card forced by the rules has no choice to explain and
    # keeps its scheme's label, "[Follow low]")
    planned = [notes[d.cards_played] for d, _, _ in explained_decisions(declarer)]
    assert len(planned) >= 5 and all(n and n.startswith("to ") for n in planned), planned
    assert not any(CALL.search(n or "") for n in notes)
    templates = _templates()
    for note in planned:
        assert note is not None
        plan = re.sub(r" \([-+][\d.]+\)(;.*)?\.?$", "", note)[len("to ") :]
        assert templates.fullmatch(plan), note
    # the first: what it rests on, the first answer the plan does not bank on
    assert planned[0].startswith("to set up a diamond discard for the club losers (+394.75)")
    assert "; Risk: if opponent ruffs" in planned[0]
