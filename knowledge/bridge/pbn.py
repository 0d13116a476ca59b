"""Reading deals and recorded play from PBN and LIN files, writing one deal back as PBN.

Every board comes back as a :class:`BoardRecord`: the ``[Board]`` tag as written, the
validated :class:`~.deal.Deal`, contract, declarer, vulnerability, ``[Lead]``, the recorded
play as cards in play order, and every tag (known or not) in ``tags``.  Bad input raises
:class:`PbnError`, whose message names the file, the board, the line and the tag and says
what was expected -- never a bare traceback from deep inside a parser.

PBN tags are read by a small reader of our own rather than ``endplay.parsers.pbn``,
because real-world files break that parser in ways we must report board by board: it
turns ``[Board]`` into an ``int`` (so "12a" raises), stops at the first bad line without
naming the board, linearises ``[Play]`` with the placeholder for '-' left in mid-trick,
needs ``[Contract]`` before ``[Play]``, keeps no line numbers, and ignores ``[Dealer]``
on a board without ``[Contract]`` (it falls back to the board number's dealer).  The tag syntax is
simple (``[Name "value"]``, ``%`` lines, ``;`` and ``{}`` comments, section lines after a
tag); the meaning of the values is checked with this package's own deal and play code,
which is tested against endplay.  LIN files go through ``endplay.parsers.lin``.

The ``[Play]`` section (PBN 2.1, section 3.6): the tag value is the opening leader; each
line is one trick; the cards of a trick are in *seat* columns starting with that opening
leader and going clockwise -- not in the order they were played -- so later tricks are
rotated by who won the previous one.  '-' stands for a card not played (after a claim),
'*' ends the play.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from engine.tofs.textfile import TextFileError, read_bytes

from .cards import ALL_CARDS, CARD_NAMES, CardError, Denom, Seat, parse_card, parse_hand
from .deal import (
    Contract,
    Deal,
    DealError,
    Doubling,
    IllegalPlay,
    PlayState,
    Vul,
    card_from_endplay,
    check_hands,
    dealer_for_board,
)

__all__ = [
    "BoardRecord",
    "PbnError",
    "deal_to_pbn",
    "load",
    "parse_lin",
    "parse_pbn",
    "read_lin",
    "read_pbn",
    "read_pbn_lenient",
    "read_pbn_text",
    "record_to_pbn",
]


class PbnError(ValueError):
    """Bad input in a PBN or LIN file.

    The message reads "FILE, board B (line L), [Tag]: problem"; the parts are kept as
    attributes so a UI can point at the board and the tag.
    """

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        board: str | None = None,
        record: int | None = None,
        tag: str | None = None,
        line: int | None = None,
    ) -> None:
        self.problem = problem
        self.file = file
        self.board = board
        self.record = record
        self.tag = tag
        self.line = line
        super().__init__(self._message())

    def _message(self) -> str:
        where: list[str] = []
        if self.file:
            where.append(self.file)
        at = f"line {self.line}" if self.line is not None else ""
        if self.board is not None:
            where.append(f"board {self.board}" + (f" ({at})" if at else ""))
        elif self.record is not None:
            where.append(f"record {self.record} (no [Board] tag" + (f", {at})" if at else ")"))
        elif at:
            where.append(at)
        head = ", ".join(where)
        if self.tag:
            head = f"{head}, [{self.tag}]" if head else f"[{self.tag}]"
        return f"{head}: {self.problem}" if head else self.problem


@dataclass(frozen=True)
class BoardRecord:
    """One board of a PBN or LIN file, interpreted and checked.

    ``contract`` is None when the board was passed out (``passed_out``) or the contract
    is unknown.  ``play`` holds the recorded cards in play order; it stops at a claim
    (``claimed``), at the first '-', or before a revoke (noted in ``warnings``).
    ``tags`` maps every tag name to its value as written; ``sections`` holds the lines
    after a tag (``[Auction]``, ``[Play]``, tables).
    """

    board: str | None
    deal: Deal
    dealer: Seat | None
    vulnerability: Vul
    contract: Contract | None
    declarer: Seat | None
    passed_out: bool = False
    result: int | None = None
    lead: int | None = None
    leader: Seat | None = None
    play: tuple[int, ...] = ()
    claimed: bool = False
    tags: dict[str, str] = field(default_factory=dict)
    sections: dict[str, tuple[str, ...]] = field(default_factory=dict)
    comments: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    source: str = ""
    line: int = 0

    @property
    def trump(self) -> Denom | None:
        return self.contract.denom if self.contract else None

    def play_state(self, upto: int | None = None) -> PlayState:
        """The position after the first ``upto`` recorded cards (all of them by default)."""
        if self.contract is None or self.declarer is None:
            raise ValueError(f"board {self.board}: no contract and declarer to play in")
        leader = self.leader if self.leader is not None else self.declarer.next
        state = PlayState.from_position(
            self.deal.hands,
            self.contract.denom,
            leader,
            declarer=self.declarer,
            contract=self.contract,
        )
        for c in self.play[:upto]:
            state.play(c)
        return state


# -- the tag reader ----------------------------------------------------------------------------

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')
_NEW_GAME_TAGS = ("Event", "Board", "Deal")  # a repeat of one of these starts the next game


@dataclass
class _Tag:
    name: str
    value: str
    line: int
    data: list[str] = field(default_factory=list)


@dataclass
class _Game:
    line: int
    tags: dict[str, _Tag] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    error: PbnError | None = None  # the first syntax error, raised once the board is known
    last: _Tag | None = None


def _small_int(text: str | None) -> int | None:
    """A board number or trick count written in ASCII digits, else None.  ``isdigit``
    alone lets through "²" (which ``int`` refuses) and 5,000 digits (which it refuses
    too): a damaged tag is then no number, not a traceback."""
    if text and text.isascii() and text.isdigit() and len(text) <= 9:
        return int(text)
    return None


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, or a :class:`PbnError` naming it: no such file, a directory, a
    device or FIFO (refused without waiting on it), unreadable."""
    try:
        return read_bytes(path)
    except TextFileError as e:
        raise PbnError(e.message, file=str(path)) from None


def _decode(raw: bytes) -> str:
    """UTF-16 with a BOM, UTF-8 (with or without BOM), else Windows-1252 (old PBN tools)."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _strip_comment(text: str, game: _Game) -> tuple[str, bool]:
    """Remove ';' and '{…}' comments from a line; True if a '{' stays open."""
    out: list[str] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == ";":
            game.comments.append(text[i + 1 :].strip())
            break
        if ch == "{":
            j = text.find("}", i + 1)
            if j < 0:
                game.comments.append(text[i + 1 :].strip())
                return "".join(out), True
            game.comments.append(text[i + 1 : j].strip())
            i = j + 1
            continue
        out.append(ch)
        i += 1
    return "".join(out), False


def _split_games(text: str, source: str) -> list[_Game]:
    games: list[_Game] = []
    game: _Game | None = None
    in_block = False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if in_block:
            end = line.find("}")
            if game is not None:
                game.comments.append(line if end < 0 else line[:end])
            if end < 0:
                continue
            in_block = False
            line = line[end + 1 :].strip()
            if not line:
                continue
        if line.startswith("%"):
            continue
        if not line:
            if game is not None and game.tags:
                games.append(game)
                game = None
            elif game is not None:
                game.last = None
            continue
        if game is None:
            game = _Game(line=lineno)
        if line.startswith("["):
            pos = 0
            while pos < len(line) and line[pos] == "[":
                m = _TAG_RE.match(line, pos)
                if not m:
                    if game.error is None:
                        named = re.match(r"\[\s*([A-Za-z0-9_]+)", line[pos:])
                        name = named.group(1) if named else "Name"
                        game.error = PbnError(
                            f'malformed tag {line[pos : pos + 60]!r}; expected [{name} "value"]: '
                            "a tag name, the value in double quotes, then ']'",
                            file=source,
                            line=lineno,
                            tag=named.group(1) if named else None,
                        )
                    game.last = None
                    pos = len(line)
                    break
                name = m.group(1)
                value = re.sub(r'\\(["\\])', r"\1", m.group(2))  # only \" and \\ are escapes
                if name in game.tags and name in _NEW_GAME_TAGS:
                    games.append(game)
                    game = _Game(line=lineno)
                if name in game.tags:
                    game.warnings.append(f"[{name}] given twice (line {lineno}); the first is kept")
                    game.last = None
                else:
                    game.last = game.tags[name] = _Tag(name, value, lineno)
                pos = m.end()
                while pos < len(line) and line[pos] == " ":
                    pos += 1
            rest, in_block = _strip_comment(line[pos:], game)
            if rest.strip() and game.last is not None:
                game.last.data.append(rest.strip())
            continue
        rest, in_block = _strip_comment(line, game)
        if not rest.strip():
            continue
        if game.last is not None:
            game.last.data.append(rest.strip())
        elif game.error is None:
            game.error = PbnError(
                f"unexpected text {rest.strip()[:60]!r}; expected a tag "
                '[Name "value"] or section lines right after one',
                file=source,
                line=lineno,
            )
    if game is not None and (game.tags or game.error):
        games.append(game)
    return games


# -- interpreting a game ------------------------------------------------------------------------

_PLAY_NOISE = re.compile(r"^(\$\d+|=\d+=)$")


def _play_rows(lines: Sequence[str]) -> tuple[list[list[str]], bool]:
    """Tokens of a [Play] section as rows of four seat columns; True if '*' ends it."""
    stopped = False
    rows: list[list[str]] = []
    for line in lines:
        toks = []
        for tok in line.split():
            if _PLAY_NOISE.match(tok):
                continue
            tok = tok.rstrip("!?")
            if tok == "*":
                stopped = True
                break
            toks.append(tok)
        if toks:
            rows.append(toks)
        if stopped:
            break
    if any(len(r) > 4 for r in rows):  # cards not one trick a line: read them as a stream
        flat = [t for r in rows for t in r]
        rows = [flat[i : i + 4] for i in range(0, len(flat), 4)]
    return [r + ["-"] * (4 - len(r)) for r in rows], stopped


class _Interpreter:
    """Turns one game's tags into a :class:`BoardRecord`, with errors naming board and tag."""

    def __init__(self, game: _Game, record: int, source: str, prev: dict[str, str]) -> None:
        self.game = game
        self.record = record
        self.source = source
        self.prev = prev
        self.values: dict[str, str] = {}
        board = game.tags.get("Board")  # for messages raised while resolving '#' below
        self.board = (
            None if board is None else prev.get("Board") if board.value == "#" else board.value
        )
        for name, tag in game.tags.items():
            value = tag.value
            if value == "#":  # PBN tag value inheritance: the previous game's value
                if name not in prev:
                    raise self.error(
                        name,
                        "'#' repeats the previous board's value, but no earlier board has this tag",
                    )
                value = prev[name]
            self.values[name] = value
        self.board = self.values.get("Board")
        self.warnings = list(game.warnings)

    def error(self, tag: str | None, problem: str) -> PbnError:
        t = self.game.tags.get(tag) if tag else None
        return PbnError(
            problem,
            file=self.source,
            board=self.board,
            record=self.record,
            tag=tag,
            line=t.line if t else self.game.line,
        )

    def get(self, name: str) -> str | None:
        v = self.values.get(name)
        return None if v is None or v.strip() in ("", "?") else v.strip()

    def run(self) -> BoardRecord:
        if self.game.error is not None:
            e = self.game.error
            raise PbnError(
                e.problem,
                file=self.source,
                board=self.board,
                record=self.record,
                line=e.line,
                tag=e.tag,
            )
        deal_text = self.get("Deal")
        if deal_text is None:
            raise self.error(
                "Deal",
                "no [Deal] tag; every board needs the four hands, e.g. "
                '[Deal "N:AKQ.T98.J76.5432 …"]',
            )
        try:
            deal = Deal.from_pbn(deal_text)
        except DealError as e:
            raise self.error("Deal", f"{e} (in {deal_text!r})") from None

        dealer = self._seat("Dealer")
        board_no = _small_int(self.board)
        if dealer is None and board_no:
            dealer = dealer_for_board(board_no)
        vul_text = self.get("Vulnerable")
        if vul_text is None:
            vul = Vul.for_board(board_no) if board_no else Vul.NONE
        else:
            try:
                vul = Vul.parse(vul_text)
            except ValueError as e:
                raise self.error("Vulnerable", str(e)) from None

        contract, passed_out = None, False
        ctext = self.get("Contract")
        if ctext is not None:
            if ctext.upper() in ("PASS", "AP", "P"):
                passed_out = True
            else:
                try:
                    contract = Contract.parse(ctext)
                except ValueError as e:
                    raise self.error("Contract", str(e)) from None
        declarer = self._seat("Declarer", strip="^")

        result = None
        rtext = self.get("Result")
        if rtext is not None:
            last = rtext.split()[-1]
            tricks = _small_int(last)
            if tricks is not None and tricks <= 13:
                result = tricks
            else:
                self.warnings.append(f"[Result {rtext!r}] is not a trick count 0-13; ignored")

        lead = None
        ltext = self.get("Lead")
        if ltext is not None:
            try:
                lead = parse_card(ltext)
            except CardError as e:
                raise self.error("Lead", str(e)) from None

        leader = declarer.next if declarer is not None else None
        play: tuple[int, ...] = ()
        claimed = False
        ptag = self.game.tags.get("Play")
        if ptag is not None and (self.get("Play") is not None or ptag.data):
            leader, play, claimed = self._play(deal, contract, declarer, ptag)
            if declarer is None and leader is not None:
                declarer = leader.prev
        if lead is not None and play and play[0] != lead:
            self.warnings.append(
                f"[Lead] is {CARD_NAMES[lead]} but [Play] starts with {CARD_NAMES[play[0]]}"
            )

        return BoardRecord(
            board=self.board,
            deal=deal,
            dealer=dealer,
            vulnerability=vul,
            contract=contract,
            declarer=declarer,
            passed_out=passed_out,
            result=result,
            lead=lead,
            leader=leader,
            play=play,
            claimed=claimed,
            tags=dict(self.values),
            sections={n: tuple(t.data) for n, t in self.game.tags.items() if t.data},
            comments=tuple(c for c in self.game.comments if c),
            warnings=tuple(self.warnings),
            source=self.source,
            line=self.game.line,
        )

    def _seat(self, tag: str, strip: str = "") -> Seat | None:
        text = self.get(tag)
        if text is None:
            return None
        try:
            return Seat.parse(text.lstrip(strip))
        except ValueError as e:
            raise self.error(tag, str(e)) from None

    def _play(
        self, deal: Deal, contract: Contract | None, declarer: Seat | None, tag: _Tag
    ) -> tuple[Seat | None, tuple[int, ...], bool]:
        rows, stopped = _play_rows(tag.data)
        if not rows:
            return (declarer.next if declarer is not None else None), (), stopped
        first = self._seat("Play")
        if first is None:
            if declarer is None:
                raise self.error(
                    "Play",
                    'the opening leader is not given: expected [Play "W"] (or a [Declarer] tag)',
                )
            first = declarer.next
        if declarer is not None and first != declarer.next:
            self.warnings.append(
                f"[Play] says {first.title} led, but declarer {declarer.title}'s "
                f"left-hand opponent is {declarer.next.title}"
            )
        if contract is None:
            raise self.error(
                "Play",
                "the play cannot be followed without the trump suit; "
                'expected a [Contract] tag such as "4H" or "3NT"',
            )
        state = PlayState.from_position(
            deal.hands, contract.denom, first, declarer=declarer, contract=contract
        )
        cards: list[int] = []
        for t, row in enumerate(rows, 1):
            leader = state.leader
            for i in range(4):
                seat = Seat((leader + i) & 3)
                tok = row[(seat - first) & 3]
                if tok in ("-", "+"):
                    rest = [row[(leader + j - first) & 3] for j in range(i + 1, 4)]
                    rest += [x for r in rows[t:] for x in r]
                    if any(x not in ("-", "+") for x in rest):
                        self.warnings.append(
                            f"trick {t}: no card for {seat.title}; the play is "
                            "read up to there and later cards are ignored"
                        )
                    return first, tuple(cards), True
                try:
                    c = parse_card(tok)
                except CardError as e:
                    raise self.error("Play", f"trick {t}, {seat.title}'s column: {e}") from None
                if not deal.hands[seat] >> c & 1:
                    owner = deal.holder(c)
                    hint = ""
                    if owner != seat:
                        hint = (
                            f" ({CARD_NAMES[c]} was dealt to {owner.title}; PBN lists each "
                            f"trick by seat, starting with the [Play] seat {first.title}, "
                            "not in the order the cards were played)"
                        )
                    raise self.error(
                        "Play",
                        f"trick {t}: {seat.title} plays {CARD_NAMES[c]}, "
                        f"which {seat.title} was not dealt{hint}",
                    )
                try:
                    state.play(c)
                except IllegalPlay as e:
                    self.warnings.append(f"trick {t}: {e}; the play is read up to there")
                    return first, tuple(cards), True
                cards.append(c)
        return first, tuple(cards), stopped or len(cards) < 52


def _parse_games(text: str, source: str, errors: list[PbnError] | None) -> list[BoardRecord]:
    out: list[BoardRecord] = []
    prev: dict[str, str] = {}
    for n, game in enumerate(_split_games(text, source), 1):
        names = set(game.tags)
        if (
            "Deal" not in names
            and game.error is None
            and not names & {"Board", "Contract", "Play", "Auction", "Declarer"}
        ):
            prev.update({k: t.value for k, t in game.tags.items()})  # a header game of tags only
            continue
        if "Deal" not in names and game.error is None and prev.get("Deal"):
            board = game.tags.get("Board")
            if board is None or board.value == prev.get("Board"):
                # A second table of the same board that omits the shared tags (rpbridge
                # style, endplay gotcha 3): inherit the deal and its board tags.
                for name in ("Board", "Dealer", "Vulnerable", "Deal"):
                    if name not in game.tags and name in prev:
                        game.tags[name] = _Tag(name, "#", game.line)
        try:
            interp = _Interpreter(game, n, source, prev)
            out.append(interp.run())
        except PbnError as e:
            if errors is None:
                raise
            errors.append(e)
            prev.update({k: t.value for k, t in game.tags.items() if t.value != "#"})
        else:
            prev.update(interp.values)
    return out


def parse_pbn(text: str, *, source: str = "<pbn>") -> list[BoardRecord]:
    """Every board of PBN ``text``; raises :class:`PbnError` at the first bad one."""
    return _parse_games(text, source, None)


def read_pbn_text(path: str | Path) -> str:
    """The text of the PBN file at ``path`` (UTF-16 or UTF-8 with a byte-order mark, UTF-8,
    else Windows-1252), or a :class:`PbnError` naming the file when it cannot be read."""
    return _decode(_read_bytes(Path(path)))


def read_pbn(path: str | Path) -> list[BoardRecord]:
    """Every board of the PBN file at ``path``; raises :class:`PbnError` at the first bad one."""
    p = Path(path)
    return _parse_games(_decode(_read_bytes(p)), p.name, None)


def read_pbn_lenient(path: str | Path) -> tuple[list[BoardRecord], list[PbnError]]:
    """The good boards of a PBN file and an error for each bad one (for messy archives)."""
    p = Path(path)
    errors: list[PbnError] = []
    return _parse_games(_decode(_read_bytes(p)), p.name, errors), errors


# -- LIN through endplay ------------------------------------------------------------------------


def _lin_chunks(text: str) -> list[str]:
    """Split a LIN file into boards: at each 'qx|' if present, else 'pn|', else 'md|'.

    endplay splits only at 'pn|', so files without player names came back empty
    (endplay issues #50/#53).
    """
    flat = text.replace("\r", "").replace("\n", "")
    for key in ("qx|", "pn|", "md|"):
        starts = [m.start() for m in re.finditer(r"(?:^|\|)" + re.escape(key), flat)]
        if starts:
            starts = [s + 1 if flat[s] == "|" else s for s in starts]
            ends = [*starts[1:], len(flat)]
            head = flat[: starts[0]]
            return [
                (head if i == 0 else "") + flat[s:e]
                for i, (s, e) in enumerate(zip(starts, ends, strict=True))
            ]
    return [flat] if flat.strip() else []


def _check_lin_deal(md: str, err: Callable[[str, str], PbnError]) -> None:
    """Validate an md| value before endplay completes the fourth hand, which would hide a
    short hand behind "Cannot complete a deal"."""
    from endplay.types import Deal as EpDeal

    try:
        ep = EpDeal.from_lin(md, complete_deal=False)
    except Exception as e:
        raise err(
            f"{md!r} is not a LIN deal ({e}); expected a dealer digit 1-4 then the "
            "South, West, North (and optionally East) hands, e.g. 3S34TH48…,…",
            "md",
        ) from None
    hands = [parse_hand(h) for h in ep.to_pbn()[2:].split()]  # N, E, S, W
    if hands[1] == 0:  # East left out, as BBO does: it gets the cards nobody else holds
        hands[1] = ALL_CARDS & ~(hands[0] | hands[2] | hands[3])
    try:
        check_hands(hands)
    except DealError as e:
        raise err(str(e), "md") from None


def parse_lin(text: str, *, source: str = "<lin>") -> list[BoardRecord]:
    """Every board of LIN ``text`` (BBO hand records), read with ``endplay.parsers.lin``."""
    from endplay.parsers.lin import LINDecoder

    out: list[BoardRecord] = []
    decoder = LINDecoder()
    for n, chunk in enumerate(_lin_chunks(text), 1):
        m = re.search(r"\|?ah\|Board\s*([^|]*)\|", chunk)
        board_tag = m.group(1).strip() if m else None

        def err(
            problem: str, tag: str | None = None, board: str | None = board_tag, n: int = n
        ) -> PbnError:
            return PbnError(problem, file=source, board=board, record=n, tag=tag)

        md = re.search(r"(?:^|\|)md\|([^|]*)\|", chunk)
        if md is None:
            raise err("no deal; expected an md| entry such as md|3S34TH48…,…|", "md")
        _check_lin_deal(md.group(1), err)
        try:
            b = decoder.parse_line(chunk)
        except Exception as e:  # endplay raises assorted errors on malformed records
            raise err(f"endplay could not read this record: {type(e).__name__}: {e}") from None
        try:
            deal = Deal.from_endplay(b.deal)
        except DealError as e:
            raise err(str(e), "md") from None
        contract = declarer = None
        passed_out = False
        result = None
        if b.contract is not None:
            if b.contract.level == 0:
                passed_out = True
            else:
                contract = Contract(
                    b.contract.level,
                    Denom(int(b.contract.denom)),
                    Doubling({1: 0, 2: 1, 4: 2}[int(b.contract.penalty)]),
                )
                declarer = Seat(int(b.contract.declarer))
        play: list[int] = []
        warnings: list[str] = []
        if b.play and contract is not None and declarer is not None:
            state = PlayState.start(deal, contract, declarer)
            for i, c in enumerate(b.play):
                cn = card_from_endplay(c)
                try:
                    state.play(cn)
                except IllegalPlay as e:
                    if state.hands[state.turn] >> cn & 1:
                        warnings.append(f"card {i + 1}: {e}; the play is read up to there")
                        break
                    raise err(f"card {i + 1}: {e}", "pc") from None
                play.append(cn)
            if state.is_over:
                result = state.declarer_tricks
        if b.claimed and contract is not None and result is None:
            assert b.contract is not None  # contract was read from it
            result = b.contract.result + contract.tricks_needed
        tags = {str(k): str(v) for k, v in b.info.items()}
        out.append(
            BoardRecord(
                board=board_tag,
                deal=deal,
                dealer=Seat(int(b.dealer)) if b.dealer is not None else None,
                vulnerability=Vul.from_endplay(b.vul) if b.vul is not None else Vul.NONE,
                contract=contract,
                declarer=declarer,
                passed_out=passed_out,
                result=result,
                leader=declarer.next if declarer is not None else None,
                play=tuple(play),
                lead=play[0] if play else None,
                claimed=b.claimed,
                tags=tags,
                warnings=tuple(warnings),
                source=source,
                line=1,
            )
        )
    return out


def read_lin(path: str | Path) -> list[BoardRecord]:
    """Every board of the LIN file at ``path``."""
    p = Path(path)
    return parse_lin(_decode(_read_bytes(p)), source=p.name)


def load(path: str | Path) -> list[BoardRecord]:
    """PBN or LIN by file extension ('.lin' is LIN, anything else PBN)."""
    return read_lin(path) if Path(path).suffix.lower() == ".lin" else read_pbn(path)


# -- writing ------------------------------------------------------------------------------------


def _tag(name: str, value: str) -> str:
    """``[Name "value"]``; a backslash is doubled only where a reader would take it for an
    escape (before a quote, a backslash or the end), so ``Denomination\\2R`` stays as is."""
    escaped = re.sub(r'\\(?=["\\]|$)', r"\\\\", value).replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _play_section(deal: Deal, contract: Contract, declarer: Seat, play: Sequence[int]) -> list[str]:
    """The recorded play as PBN seat columns starting with the opening leader."""
    first = declarer.next
    state = PlayState.start(deal, contract, declarer)
    rows: list[list[str]] = []
    row = ["-"] * 4
    for c in play:
        if not state.trick:
            row = ["-"] * 4
            rows.append(row)
        row[(state.turn - first) & 3] = CARD_NAMES[c]
        state.play(c)
    lines = [" ".join(r) for r in rows]
    if not state.is_over:
        lines.append("*")
    return lines


_STANDARD = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
    "Play",
)


def deal_to_pbn(
    deal: Deal,
    *,
    board: str | int | None = None,
    dealer: Seat | None = None,
    vulnerability: Vul | None = None,
    contract: Contract | None = None,
    declarer: Seat | None = None,
    play: Sequence[int] = (),
    result: int | None = None,
    passed_out: bool = False,
    tags: Mapping[str, str] | None = None,
    sections: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """One board as PBN text: the standard tags in export order, then the other ``tags``
    (each followed by its ``sections`` lines, e.g. a table).

    The deal editor writes a single deal with this; pass ``contract`` and ``declarer`` to
    include a recorded ``play``.  ``tags`` may also give the values of Event, Site, Date,
    the players' names and Scoring.
    """
    t = dict(tags or {})
    board_no = _small_int(None if board is None else str(board))
    if dealer is None:
        dealer = dealer_for_board(board_no) if board_no else Seat.N
    if vulnerability is None:
        vulnerability = Vul.for_board(board_no) if board_no else Vul.NONE
    lines = [_tag(n, t.get(n, "")) for n in ("Event", "Site", "Date")]
    lines.append(_tag("Board", "" if board is None else str(board)))
    lines += [_tag(n, t.get(n, "")) for n in ("West", "North", "East", "South")]
    lines += [
        _tag("Dealer", dealer.letter),
        _tag("Vulnerable", vulnerability.pbn),
        _tag("Deal", deal.to_pbn(dealer)),
        _tag("Scoring", t.get("Scoring", "")),
    ]
    if contract is not None:
        lines += [
            _tag("Declarer", declarer.letter if declarer is not None else "?"),
            _tag("Contract", str(contract)),
            _tag("Result", "" if result is None else str(result)),
        ]
        if play and declarer is not None:
            lines.append(_tag("Play", declarer.next.letter))
            lines += _play_section(deal, contract, declarer, play)
    elif passed_out:
        lines += [_tag("Declarer", ""), _tag("Contract", "Pass"), _tag("Result", "")]
    else:
        lines += [_tag("Declarer", "?"), _tag("Contract", "?"), _tag("Result", "?")]
    for name, value in t.items():
        if name not in _STANDARD:
            lines.append(_tag(name, value))
            lines.extend((sections or {}).get(name, ()))
    return "\n".join(lines) + "\n"


def record_to_pbn(rec: BoardRecord) -> str:
    """A :class:`BoardRecord` back to PBN; its other tags and their sections are kept."""
    return deal_to_pbn(
        rec.deal,
        board=rec.board,
        dealer=rec.dealer,
        vulnerability=rec.vulnerability,
        contract=rec.contract,
        declarer=rec.declarer,
        play=rec.play,
        result=rec.result,
        passed_out=rec.passed_out,
        tags=rec.tags,
        sections=rec.sections,
    )
