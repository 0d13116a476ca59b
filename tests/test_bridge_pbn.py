"""PBN and LIN reading: real files, the [Play] column rule, and clear errors for bad input."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from knowledge.bridge import DATA_DIR as DATA
from knowledge.bridge.cards import CARD_NAMES, Denom, Seat, hand_to_pbn, parse_card, suit_holding
from knowledge.bridge.deal import Contract, Deal, PlayState, Vul, card_from_endplay
from knowledge.bridge.pbn import (
    BoardRecord,
    PbnError,
    deal_to_pbn,
    load,
    parse_lin,
    parse_pbn,
    read_lin,
    read_pbn,
    read_pbn_lenient,
    record_to_pbn,
)

DEAL1 = "N:QJ6.K652.J85.T98 873.J97.AT764.Q4 K5.T83.KQ9.A7652 AT942.AQ4.32.KJ3"
# Board 1 of the dev set as played in 2S by West (North leads): the first three tricks.
PLAY1 = ["CT", "C4", "CA", "CJ", "H8", "H4", "HK", "H9", "D5", "DA", "D9", "D2"]


@cache
def dev_set() -> tuple[BoardRecord, ...]:
    return tuple(read_pbn(DATA / "dds-list100.pbn"))


def dds_cards(rec: BoardRecord) -> list[int]:
    s = rec.tags["DDSPlay"]
    return [parse_card(s[i : i + 2]) for i in range(0, len(s), 2)]


def write(tmp_path: Path, text: str, name: str = "bad.pbn") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def refused(path: Path) -> PbnError:
    with pytest.raises(PbnError) as e:
        read_pbn(path)
    return e.value


# -- real files --------------------------------------------------------------------------------


def test_dev_set_reads_like_endplay() -> None:
    from endplay.parsers import pbn as ep_pbn

    recs = dev_set()
    with open(DATA / "dds-list100.pbn") as f:
        boards = ep_pbn.load(f)
    assert len(recs) == len(boards) == 100
    assert [r.board for r in recs] == [str(n) for n in range(1, 101)]
    for rec, b in zip(recs, boards, strict=True):
        assert rec.deal == Deal.from_endplay(b.deal)
        # endplay keeps [Dealer] only when there is a [Contract]; otherwise it derives the
        # dealer from the board number (board 3 here: file says N, endplay says S).
        assert rec.dealer is not None and rec.dealer.letter == rec.tags["Dealer"]
        assert b.vul is not None and rec.vulnerability is Vul.from_endplay(b.vul)
        for name in ("DDSPlay", "DDSTrace", "DDSFutureTricks", "DoubleDummyTricks", "DDSPar"):
            assert rec.tags[name] == b.info[name]
        assert len(rec.sections["OptimumResultTable"]) == 20
        assert rec.tags["OptimumResultTable"] == "Declarer;Denomination\\2R;Result\\2R"
        assert rec.contract is None and rec.play == () and not rec.warnings


def test_small_dds_files() -> None:
    (solid,) = read_pbn(DATA / "dds-all_solid.pbn")
    assert suit_holding(solid.deal[Seat.N], 0) == 0x1FFF and solid.board is None
    (freak,) = read_pbn(DATA / "dds-freak.0.pbn")
    assert hand_to_pbn(freak.deal[Seat.S]) == "9.AT8642.AJ8642."
    (three,) = load(DATA / "dds-everyone_makes_3N.pbn")
    assert three.comments == (
        "Every direction can make 3N - a deal constructed by Richard Pavlicek",
    )


def test_twelve_card_file_is_refused() -> None:
    e = refused(DATA / "dds-12_cards.pbn")
    assert str(e).startswith("dds-12_cards.pbn, record 1 (no [Board] tag, line 1), [Deal]: ")
    assert "North has 12 cards" in str(e) and "every hand needs 13" in str(e)
    assert "missing: SA, HA, DA, CA" in str(e)
    assert (e.file, e.board, e.record, e.tag, e.line) == ("dds-12_cards.pbn", None, 1, "Deal", 1)


# -- the [Play] section ---------------------------------------------------------------------------


def test_play_columns_follow_seats_not_play_order() -> None:
    # Trick 2 is led by South (who won trick 1 with the CA) but is still written N E S W.
    text = f"""[Board "1"]
[Deal "{DEAL1}"]
[Contract "2S"]
[Declarer "W"]
[Play "N"]
CT C4 CA CJ
HK H9 H8 H4
D5 DA D9 D2
*
"""
    (rec,) = parse_pbn(text)
    assert [CARD_NAMES[c] for c in rec.play] == PLAY1
    assert rec.claimed and rec.leader is Seat.N and rec.declarer is Seat.W
    state = rec.play_state()
    assert state.won == [2, 1] and state.leader == Seat.E


def test_dev_set_plays_round_trip_and_match_endplay_linearisation() -> None:
    """Write each recorded DDS play as a [Play] section, read it back; endplay agrees."""
    from endplay.parsers import pbn as ep_pbn

    for rec in dev_set():
        leader = Seat.parse(rec.tags["DDSLeader"])
        contract = Contract(1, Denom.parse(rec.tags["DDSTrump"]))
        cards = dds_cards(rec)
        text = deal_to_pbn(
            rec.deal, board=rec.board, contract=contract, declarer=leader.prev, play=cards
        )
        (back,) = parse_pbn(text)
        assert list(back.play) == cards and back.leader is leader
        assert back.claimed == (len(cards) < 52)
        if len(cards) % 4 == 0:  # endplay leaves a partial trick's '-' placeholders in
            (b,) = ep_pbn.loads(text)
            assert [card_from_endplay(c) for c in b.play] == cards


def test_stops_at_missing_card_and_revoke(tmp_path: Path) -> None:
    gap = f"""[Board "2"]
[Deal "{DEAL1}"]
[Contract "3NT"]
[Declarer "W"]
[Play "N"]
CT C4 CA CJ
HK - H8 H4
D5 DA D9 D2
"""
    (rec,) = parse_pbn(gap)
    # trick 2 is led by South: H8 (S), H4 (W), HK (N), then East's card is missing
    assert [CARD_NAMES[c] for c in rec.play] == PLAY1[:7] and rec.claimed
    assert "trick 2: no card for East" in rec.warnings[0]
    revoke = gap.replace("HK - H8 H4", "HK D4 H8 H4")
    (rec,) = parse_pbn(revoke)
    assert len(rec.play) == 7 and "East must follow H" in rec.warnings[0]


# -- bad input -------------------------------------------------------------------------------------


def test_malformed_tag(tmp_path: Path) -> None:
    e = refused(write(tmp_path, f'[Event "x"]\n[Board "7"]\n[Deal "{DEAL1}"\n'))
    assert str(e).startswith("bad.pbn, board 7 (line 3), [Deal]: malformed tag")
    assert 'expected [Deal "value"]' in str(e)


def test_duplicated_card(tmp_path: Path) -> None:
    e = refused(write(tmp_path, f'[Board "3"]\n[Deal "{DEAL1[:-1]}6"]\n'))
    assert str(e).startswith("bad.pbn, board 3 (line 2), [Deal]: C6 is in both South and West")


def test_missing_deal(tmp_path: Path) -> None:
    e = refused(write(tmp_path, '[Board "4"]\n[Dealer "N"]\n[Contract "3NT"]\n'))
    assert str(e).startswith("bad.pbn, board 4 (line 1), [Deal]: no [Deal] tag")


def test_unknown_contract(tmp_path: Path) -> None:
    e = refused(write(tmp_path, f'[Board "5"]\n[Deal "{DEAL1}"]\n[Contract "4Z"]\n'))
    assert str(e).startswith("bad.pbn, board 5 (line 3), [Contract]: '4Z' is not a contract")
    assert "expected a level 1-7" in str(e)


@pytest.mark.parametrize(
    ("tags", "tag", "says"),
    [
        ('[Vulnerable "Some"]', "Vulnerable", "expected None, NS, EW or All"),
        ('[Dealer "Q"]', "Dealer", "expected N, E, S or W"),
        ('[Lead "S1"]', "Lead", "is not a card"),
        ('[Play "N"]\nCT C4 CA CJ', "Play", "without the trump suit"),
        (
            '[Contract "2S"]\n[Declarer "W"]\n[Play "N"]\nCT C4 CA CJ\nH4 HK H9 H8',
            "Play",
            "South plays H9, which South was not dealt (H9 was dealt to East; "
            "PBN lists each trick by seat",
        ),
        ('[Contract "2S"]\n[Declarer "W"]\n[Play "N"]\nCT C4 CX CJ', "Play", "'CX' is not a card"),
    ],
)
def test_bad_values_name_board_and_tag(tmp_path: Path, tags: str, tag: str, says: str) -> None:
    e = refused(write(tmp_path, f'[Board "9"]\n[Deal "{DEAL1}"]\n{tags}\n'))
    assert e.board == "9" and e.tag == tag and says in str(e)
    assert str(e).startswith("bad.pbn, board 9 (line ")


def test_stray_text_and_bad_inheritance(tmp_path: Path) -> None:
    e = refused(write(tmp_path, f'[Board "9"]\n[Deal "{DEAL1}"]\n\nhello\n[Board "10"]\n'))
    assert "board 10 (line 4): unexpected text 'hello'" in str(e)
    e = refused(write(tmp_path, '[Board "9"]\n[Deal "#"]\n'))
    assert "[Deal]: '#' repeats the previous board's value" in str(e)


def test_missing_file(tmp_path: Path) -> None:
    e = refused(tmp_path / "nope.pbn")
    assert str(e).endswith("nope.pbn: no such file")


def test_lenient_reader_skips_bad_boards(tmp_path: Path) -> None:
    text = (
        f'[Board "1"]\n[Deal "{DEAL1}"]\n\n[Board "2"]\n[Deal "{DEAL1[:-1]}6"]\n\n'
        f'[Board "3"]\n[Deal "{DEAL1}"]\n'
    )
    good, errors = read_pbn_lenient(write(tmp_path, text))
    assert [r.board for r in good] == ["1", "3"]
    assert [(e.board, e.tag) for e in errors] == [("2", "Deal")]


# -- real-world robustness ----------------------------------------------------------------------


def test_comments_unknown_tags_inheritance_and_encodings(tmp_path: Path) -> None:
    text = f"""% PBN 2.1
% EXPORT
{{ a commentary
   over two lines }}
[Event "Club"]
[Board "7"]   ; trailing comment
[Dealer "S"]
[Vulnerable "Both"]
[Deal "{DEAL1}"]
[MyTag "kept \\"quoted\\""]
[Contract "4HX"]
[Declarer "^N"]
[Result "9"]
[Lead "h10"]
[Dealer "N"]

[Event "#"]
[Contract "Pass"]
"""
    path = tmp_path / "club.pbn"
    path.write_bytes(b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8"))
    first, second = read_pbn(path)
    assert first.board == "7" and first.dealer is Seat.S and first.vulnerability is Vul.BOTH
    assert first.contract == Contract.parse("4HX") and first.declarer is Seat.N
    assert first.result == 9 and first.lead == parse_card("HT") and first.leader is Seat.E
    assert first.tags["MyTag"] == 'kept "quoted"'
    assert any("[Dealer] given twice" in w for w in first.warnings)
    assert first.comments[0].startswith("a commentary")
    # the second table of the board omits the shared tags and inherits them
    assert second.board == "7" and second.deal == first.deal and second.tags["Event"] == "Club"
    assert second.passed_out and second.contract is None
    assert second.vulnerability is Vul.BOTH


def test_writer_round_trip_on_the_dev_set() -> None:
    for rec in dev_set():
        (back,) = parse_pbn(record_to_pbn(rec))
        assert back.deal == rec.deal and back.board == rec.board
        assert (back.dealer, back.vulnerability) == (rec.dealer, rec.vulnerability)
        for name, value in rec.tags.items():
            assert back.tags[name] == value
        assert back.sections == rec.sections


def test_writer_single_deal() -> None:
    deal = Deal.from_pbn(DEAL1)
    text = deal_to_pbn(
        deal,
        board=1,
        contract=Contract.parse("2S"),
        declarer=Seat.W,
        play=[parse_card(c) for c in PLAY1],
        result=8,
    )
    assert '[Deal "N:QJ6.K652' in text and '[Vulnerable "None"]' in text
    assert "CT C4 CA CJ\nHK H9 H8 H4\nD5 DA D9 D2\n*" in text
    (rec,) = parse_pbn(text)
    assert rec.result == 8 and [CARD_NAMES[c] for c in rec.play] == PLAY1


# -- LIN ----------------------------------------------------------------------------------------


def _lin_hand(mask: int) -> str:
    return "".join(s + hand_to_pbn(mask).split(".")[i][::-1] for i, s in enumerate("SHDC"))


def test_lin_through_endplay(tmp_path: Path) -> None:
    rec = dev_set()[0]
    d = rec.deal
    # LIN: dealer 3 = North, hands South, West, North (East completed), North deals.
    md = "3" + ",".join(_lin_hand(d[s]) for s in (Seat.S, Seat.W, Seat.N)) + ","
    bids = "mb|p|mb|p|mb|p|mb|2S|mb|p|mb|p|mb|p|"
    play = "".join(f"pc|{c}|" for c in PLAY1)
    lin = f"pn|a,b,c,d|st||md|{md}|rh||ah|Board 1|sv|o|{bids}pg||{play}\n"
    lin += lin.replace("ah|Board 1|", "ah|Board 2|")
    path = tmp_path / "two.lin"
    path.write_text(lin)
    recs = load(path)
    assert [r.board for r in recs] == ["1", "2"]
    r = recs[0]
    assert r.deal == d and r.contract == Contract.parse("2S") and r.declarer is Seat.W
    assert [CARD_NAMES[c] for c in r.play] == PLAY1 and r.lead == parse_card("CT")
    assert r.vulnerability is Vul.NONE and r.dealer is Seat.N
    # no player names: endplay alone would find no boards here
    assert len(parse_lin(lin.replace("pn|a,b,c,d|", ""))) == 2
    bad = lin.split("\n")[0].replace("pc|CT|", "pc|SA|")
    with pytest.raises(PbnError, match=r"board 1, \[pc\]: card 1: North cannot play SA"):
        parse_lin(bad, source="bad.lin")
    with pytest.raises(PbnError, match=r"bad.lin, board 1, \[md\]: North has 1 card, .*needs 13"):
        parse_lin(lin.split("\n")[0].replace(md, "3S2,S3,S4,"), source="bad.lin")
    assert read_lin(path)[1].board == "2"
    assert PlayState.start(r.deal, r.contract, r.declarer).replay(r.play).won == [2, 1]


def test_mangled_files_give_pbn_errors_not_tracebacks() -> None:
    """Random edits of a board with play and auction: either it reads, or a PbnError."""
    import random

    base = (
        f'[Board "1"]\n[Deal "{DEAL1}"]\n[Contract "2SX"]\n[Declarer "W"]\n'
        '[Result "8"]\n[Play "N"]\nCT C4 CA CJ\nHK H9 H8 H4\nD5 DA D9 D2\n*\n'
        '[Auction "N"]\nPass 1S Pass 2S\n{ note }\n\n[Board "2"]\n[Deal "#"]\n'
    )
    alphabet = '[]"{};%*-#\n SHDCNTX0123456789AKQJ.:?^=$!'
    rng = random.Random(7)
    outcomes = {"read": 0, "refused": 0}
    for _ in range(1500):
        t = list(base)
        for _ in range(rng.randint(1, 4)):
            pos = rng.randrange(len(t))
            op = rng.random()
            if op < 0.4:
                del t[pos]
            elif op < 0.8:
                t.insert(pos, rng.choice(alphabet))
            else:
                t[pos] = rng.choice(alphabet)
        try:
            parse_pbn("".join(t), source="mangled.pbn")
            outcomes["read"] += 1
        except PbnError as e:
            assert str(e).startswith("mangled.pbn")
            outcomes["refused"] += 1
    assert outcomes["read"] > 100 and outcomes["refused"] > 100
