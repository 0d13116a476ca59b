"""Reading (and writing) the EDAPS planner input language (Smith 1997, §6.4.2).

The language is line oriented: every non-blank line is one command, a capital letter from
``D I O W Z Y B F G R H T C M P E N`` followed by its arguments, separated by whitespace.
Lengths are inches, tolerances mils.  A designer writes these files by hand, so a bad file
is reported the way a compiler would report it: *every* bad line, each as
``file:line:column: expected X for <argument>, found 'token'``, all in one
:class:`DesignError` -- never a traceback and never only the first mistake.

Rules where the dissertation is silent (chosen here, and tested):

* **Tokens.**  Arguments are maximal runs of non-whitespace (``\\S+``); a column is the
  1-based position *in characters* of the token (a tab counts as one character).  Leading
  whitespace before the command letter is tolerated.  A command letter must stand alone
  (``P0.25`` is reported, with a hint to add a space).  Lowercase command letters are
  rejected with a "did you mean" hint.  Lines end at ``\\n``; a trailing ``\\r`` (CRLF files)
  and a UTF-8 byte-order mark are ignored.  There are no comments.
* **Numbers** are plain decimals, optionally signed, with an optional exponent
  (``0.5``, ``.5``, ``5.``, ``1e-3``).  ``nan``, ``inf``, hex, ``1_000`` and non-ASCII digits
  are not numbers, and a value that does not fit a C ``float`` (the original program was
  single precision, |v| > 3.4e38) is "out of range".  ``-0`` is read as 0.
* **Names** (dielectric, artwork file, part number) are one token each.
* **Value checks** are per value only, no geometry: board dimensions, depths, diameters,
  lengths, widths, the plating width, the gap, trace thickness, threads per inch and
  component sizes must be > 0; tolerances, corner radii and the resistivity must be >= 0.
  A tolerance or corner radius of 0 is legal *input* -- the planner reports it as
  unmanufacturable, with the reason, which is the dissertation's point.  Whether a hole is
  on the board, deeper than the board, or narrower than its counterbore is the planner's
  and the critics' business, not the parser's.
* **Types**: the component type is an integer 1..6 and the hardware type 1..2; the four
  component flags are exactly ``0`` or ``1``.
* **Children directly follow their parent.**  A ``Y`` (pin) belongs to the ``Z`` on the
  closest preceding command line, provided only that component's other ``Y`` lines come in
  between; likewise ``T`` (tapping) and ``C`` (counterbore) belong to an ``H`` followed only
  by its own ``T``/``C`` lines.  Any other command in between (even ``E``) is an error: a
  tap silently landing on the wrong hole is worse than a message.  Blank lines and lines
  with an unknown command letter do not break the run (the latter are reported anyway).
  A hole takes at most one ``T`` and one ``C``.
* **Counterbore kind** is ``O`` (conical) or ``Y`` (cylindrical).  The digit ``0`` is
  accepted for conical because the dissertation's OCR prints ``C 0``.
* **Scalar commands** ``D I O W B F G R`` may appear once; a repeat is reported with the
  line of the first.  ``E`` and ``N`` are switches and may repeat harmlessly.
* **Required commands**: ``D``, ``B``, ``G`` and ``R`` always, and ``W`` when there is any
  ``P``.  A missing one is reported at the line just after the last line of the file,
  column 1 (where it could be added).  ``I``, ``O`` and ``F`` are optional (the planner
  only echoes or prints them).
* **Error recovery**: a bad ``Z`` or ``H`` still opens a parent, so its ``Y``/``T``/``C``
  lines are checked but do not cascade into "no preceding Z" messages; a bad scalar
  command still counts as present, so it is not also reported missing.
* **File-level problems** (cannot open, not UTF-8) use line 0 / column 0 when there is no
  better position; ``str()`` then prints just ``file: message``.  A byte that is not
  UTF-8 is located at its line and character column.

:func:`format_design` writes a :class:`Design` back in this language (file order kept),
so that ``parse_design(format_design(d))`` is ``d`` apart from line numbers.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from engine.tofs.search import checkpoint
from engine.tofs.textfile import TextFileError, read_text

from .design import (
    COMPONENT_TYPES,
    HARDWARE_TYPES,
    Component,
    Counterbore,
    Design,
    Hole,
    MillingFeature,
    Pin,
    PlatedThroughHole,
)

__all__ = [
    "COMMANDS",
    "DesignError",
    "InputProblem",
    "file_order",
    "format_design",
    "load_design",
    "parse_design",
]

COMMANDS = "DIOWZYBFGRHTCMPEN"
"""Every command letter, in the order of the dissertation's summary table."""

_SCALARS = "DIOWBFGR"
_ITEMS = "PHMZ"
_FLOAT32_MAX = 3.4028234663852886e38
_TOKEN = re.compile(r"\S+")
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INTEGER = re.compile(r"[+-]?[0-9]+")

DESCRIPTIONS = {
    "D": "board dimensions",
    "I": "dielectric material",
    "O": "conductor resistivity",
    "W": "through-hole plating width",
    "Z": "component",
    "Y": "pin",
    "B": "bullseye",
    "F": "artwork file",
    "G": "minimum gap",
    "R": "trace thickness",
    "H": "hole",
    "T": "tapping",
    "C": "counterbore",
    "M": "milling feature",
    "P": "plated through-hole",
    "E": "echo off",
    "N": "partial plan pruner off",
}

# ------------------------------------------------------------------------------------
# Problems
# ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InputProblem:
    """One bad place in an input file: where it is and what was expected there."""

    path: str
    line: int  # 1-based; 0 = the file as a whole
    column: int  # 1-based, in characters; 0 = no particular column
    message: str

    def __str__(self) -> str:
        if self.line <= 0:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


class DesignError(ValueError):
    """A design input could not be read; ``problems`` lists every bad place found."""

    def __init__(self, problems: list[InputProblem]) -> None:
        self.problems = list(problems)
        self.path = self.problems[0].path if self.problems else "<input>"
        super().__init__("\n".join(str(p) for p in self.problems) or "invalid design")


# ------------------------------------------------------------------------------------
# Argument signatures, named as in the dissertation's table (§6.4.2)
# ------------------------------------------------------------------------------------

_Kind = Literal["num", "int", "flag", "word", "cbkind"]
_Sign = Literal["any", "pos", "nonneg"]


@dataclass(frozen=True)
class _Arg:
    name: str
    kind: _Kind = "num"
    sign: _Sign = "any"
    choices: dict[int, str] = field(default_factory=dict)


def _a(name: str, sign: _Sign = "any") -> _Arg:
    return _Arg(name, "num", sign)


_LOC = (_a("<locx>"), _a("<locy>"))
_HOLE = (*_LOC, _a("<depth>", "pos"), _a("<diameter>", "pos"), _a("<tolerance>", "nonneg"))

SIGNATURES: dict[str, tuple[_Arg, ...]] = {
    "D": (_a("<length>", "pos"), _a("<width>", "pos"), _a("<depth>", "pos")),
    "I": (_Arg("<dielectric material>", "word"),),
    "O": (_a("<conductor resistivity>", "nonneg"),),
    "W": (_a("<through-hole plating width>", "pos"),),
    "Z": (
        *_LOC,
        _a("<degrees of rotation>"),
        _a("<dimx>", "pos"),
        _a("<dimy>", "pos"),
        _a("<dimz>", "pos"),
        _Arg("<type number>", "int", choices=COMPONENT_TYPES),
        _Arg("<mounting hardware type number>", "int", choices=HARDWARE_TYPES),
        _Arg("<part number>", "word"),
        _Arg("<preforming>", "flag"),
        _Arg("<automatic insertion>", "flag"),
        _Arg("<adhesion>", "flag"),
        _Arg("<hand-soldering>", "flag"),
    ),
    "Y": _LOC,
    "B": _LOC,
    "F": (_Arg("<filename>", "word"),),
    "G": (_a("<minimum gap>", "pos"),),
    "R": (_a("<thickness>", "pos"),),
    "H": _HOLE,
    "T": (_a("<threads-per-inch>", "pos"),),
    "C": (_Arg("<counterbore kind>", "cbkind"), _a("<depth>", "pos"), _a("<diameter>", "pos")),
    "M": (
        *_LOC,
        _a("<degrees of rotation>"),
        _a("<depth>", "pos"),
        _a("<length>", "pos"),
        _a("<width>", "pos"),
        _a("<corner radius>", "nonneg"),
        _a("<tolerance>", "nonneg"),
    ),
    "P": _HOLE,
    "E": (),
    "N": (),
}

_Value = float | int | bool | str


# What _convert made of an argument, by the argument's kind, for the typed fields of the
# design: "num" gives a float, "int" an int, "flag" a bool, "word" and "cbkind" a str.
def _as_float(value: _Value) -> float:
    assert isinstance(value, float)
    return value


def _as_int(value: _Value) -> int:
    assert isinstance(value, int) and not isinstance(value, bool)
    return value


def _as_flag(value: _Value) -> bool:
    assert isinstance(value, bool)
    return value


def _as_word(value: _Value) -> str:
    assert isinstance(value, str)
    return value


def _as_bore_kind(value: _Value) -> Literal["conical", "cylindrical"]:
    if value == "conical":
        return "conical"
    assert value == "cylindrical"
    return "cylindrical"


def _shown(token: str) -> str:
    """A token as messages quote it: repr-quoted (control characters escaped), shortened."""
    return repr(token if len(token) <= 40 else token[:37] + "...")


def _convert(arg: _Arg, token: str) -> tuple[_Value | None, str | None]:
    """The value of one argument token, or what was expected instead."""
    found = f"found {_shown(token)}"
    if arg.kind == "word":
        return token, None
    if arg.kind == "flag":
        if token in ("0", "1"):
            return token == "1", None
        return None, f"expected 0 or 1 for {arg.name}, {found}"
    if arg.kind == "cbkind":
        if token in ("O", "0"):
            return "conical", None
        if token == "Y":
            return "cylindrical", None
        return None, f"expected O (conical) or Y (cylindrical) for {arg.name}, {found}"
    if arg.kind == "int":
        listing = ", ".join(f"{k} ({v})" for k, v in arg.choices.items())
        # A type number is one or two digits; int() refuses 4,300 and more.
        if _INTEGER.fullmatch(token) and len(token) <= 9 and int(token) in arg.choices:
            return int(token), None
        return None, f"expected one of {listing} for {arg.name}, {found}"
    if not _NUMBER.fullmatch(token):
        return None, f"expected a number for {arg.name}, {found}"
    value = float(token) + 0.0  # + 0.0 turns -0.0 into 0.0
    if not math.isfinite(value) or abs(value) > _FLOAT32_MAX:
        return None, f"expected a number for {arg.name}, {found} (out of range)"
    if arg.sign == "pos" and not value > 0:
        return None, f"expected a positive number for {arg.name}, {found}"
    if arg.sign == "nonneg" and value < 0:
        return None, f"expected a number >= 0 for {arg.name}, {found}"
    return value, None


# ------------------------------------------------------------------------------------
# The parser
# ------------------------------------------------------------------------------------


@dataclass
class _Parent:
    """An open ``Z`` or ``H`` that later ``Y`` or ``T``/``C`` lines may attach to."""

    letter: str
    line: int
    values: list[_Value] | None  # None: the line itself was bad
    pins: list[Pin] = field(default_factory=list)
    tap_line: int | None = None
    threads: float | None = None
    bore_line: int | None = None
    bore: Counterbore | None = None


class _Reader:
    def __init__(self, path: str) -> None:
        self.path = path
        self.problems: list[InputProblem] = []
        self.scalar_lines: dict[str, int] = {}
        self.scalars: dict[str, list[_Value]] = {}
        self.items: dict[str, list[_Parent]] = {k: [] for k in _ITEMS}
        # Good items of each letter so far: an item's index in the design's own list,
        # counted as they come so that reading stays linear in the number of lines.
        self.good: dict[str, int] = dict.fromkeys(_ITEMS, 0)
        self.order: list[tuple[str, int]] = []
        self.seen: set[str] = set()
        self.open: _Parent | None = None  # the Z or H whose children may follow
        self.previous: tuple[str, int] | None = None  # last recognised command, its line
        self.column = 1  # column of the current line's command letter
        self.lines: list[str] = []
        self.echo = True
        self.prune = True

    def problem(self, line: int, column: int, message: str) -> None:
        self.problems.append(InputProblem(self.path, line, column, message))

    def arguments(
        self, letter: str, tokens: list[tuple[int, str]], line: int, end: int
    ) -> list[_Value] | None:
        """Check the arguments against the signature; None if any was bad."""
        signature = SIGNATURES[letter]
        values: list[_Value] = []
        ok = True
        for arg, (column, token) in zip(signature, tokens, strict=False):
            value, error = _convert(arg, token)
            if error is not None:
                self.problem(line, column, error)
                ok = False
            else:
                assert value is not None
                values.append(value)
        usage = " ".join(a.name for a in signature)
        if len(tokens) < len(signature):
            missing = signature[len(tokens)]
            self.problem(
                line, end, f"expected {missing.name}, found end of line ({letter} takes {usage})"
            )
            ok = False
        elif len(tokens) > len(signature):
            column, token = tokens[len(signature)]
            after = f"after {signature[-1].name}" if signature else f"({letter} takes no arguments)"
            hint = "; names cannot contain spaces" if letter in "IF" else ""
            takes = f" ({letter} takes {usage}{hint})" if signature else ""
            self.problem(
                line, column, f"expected end of line {after}, found {_shown(token)}{takes}"
            )
            ok = False
        return values if ok else None

    def command(self, line: int, text: str) -> None:
        tokens = [(m.start() + 1, m.group()) for m in _TOKEN.finditer(text)]
        if not tokens:
            return
        column, word = tokens[0]
        self.column = column
        if word not in SIGNATURES:
            self.unknown(line, column, word)
            return
        values = self.arguments(word, tokens[1:], line, len(text.rstrip()) + 1)
        if word in _SCALARS:
            self.scalar(word, line, values)
        elif word in _ITEMS:
            self.item(word, line, values)
        elif word == "Y":
            self.pin(line, values)
        elif word in "TC":
            self.hole_part(word, line, values)
        elif word == "E":
            self.echo = False
        elif word == "N":
            self.prune = False
        if word in "ZH":
            self.open = self.items[word][-1]
        elif word not in "YTC":
            self.open = None
        self.seen.add(word)
        self.previous = (word, line)

    def unknown(self, line: int, column: int, word: str) -> None:
        letters = " ".join(COMMANDS)
        hint = ""
        if word.upper() in SIGNATURES:
            hint = f" (did you mean {word.upper()!r}? command letters are capitals)"
        elif len(word) > 1 and word[0] in SIGNATURES:
            hint = " (put a space after the command letter)"
        self.problem(
            line, column, f"expected a command letter ({letters}), found {_shown(word)}{hint}"
        )

    def scalar(self, letter: str, line: int, values: list[_Value] | None) -> None:
        if letter in self.scalar_lines:
            first = self.scalar_lines[letter]
            self.problem(
                line,
                self.column,
                f"duplicate {letter} command "
                f"({DESCRIPTIONS[letter]}); the first is on line {first}",
            )
            return
        self.scalar_lines[letter] = line
        if values is not None:
            self.scalars[letter] = values
            self.order.append((letter, 0))

    def item(self, letter: str, line: int, values: list[_Value] | None) -> None:
        parent = _Parent(letter, line, values)
        if values is not None:
            self.order.append((letter, self.good[letter]))
            self.good[letter] += 1
        self.items[letter].append(parent)

    def _orphan(self, letter: str, parent: str, line: int) -> None:
        child = f"{letter} ({DESCRIPTIONS[letter]})"
        owner = f"{parent} ({DESCRIPTIONS[parent]})"
        column = self.column
        if parent not in self.seen:
            self.problem(line, column, f"{child} has no {owner} before it to belong to")
            return
        kids = "Y" if parent == "Z" else "T/C"
        assert self.previous is not None
        prev_letter, prev_line = self.previous
        self.problem(
            line,
            column,
            f"expected {child} directly after its {owner} line or that "
            f"{DESCRIPTIONS[parent]}'s {kids} lines, found it after "
            f"{prev_letter} ({DESCRIPTIONS[prev_letter]}) on line {prev_line}",
        )

    def pin(self, line: int, values: list[_Value] | None) -> None:
        if self.open is None or self.open.letter != "Z":
            self._orphan("Y", "Z", line)
        elif values is not None:
            x, y = values
            self.open.pins.append(Pin(x=_as_float(x), y=_as_float(y), line=line))

    def hole_part(self, letter: str, line: int, values: list[_Value] | None) -> None:
        hole = self.open
        if hole is None or hole.letter != "H":
            self._orphan(letter, "H", line)
            return
        first = hole.tap_line if letter == "T" else hole.bore_line
        if first is not None:
            self.problem(
                line,
                self.column,
                f"second {letter} ({DESCRIPTIONS[letter]}) for the hole on line "
                f"{hole.line}; the first is on line {first}",
            )
            return
        if letter == "T":
            hole.tap_line = line
            if values is not None:
                hole.threads = float(values[0])
        else:
            hole.bore_line = line
            if values is not None:
                kind, depth, diameter = values
                hole.bore = Counterbore(
                    kind=_as_bore_kind(kind),
                    depth=_as_float(depth),
                    diameter=_as_float(diameter),
                    line=line,
                )

    def read(self, text: str) -> None:
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
        if self.lines and self.lines[-1] == "":
            self.lines.pop()  # the final newline ends the last line; it starts no new one
        for number, line in enumerate(self.lines, 1):
            if not number & 4095:
                checkpoint()  # a run's budgets count reading a long design too
            self.command(number, line)
        self.required(len(self.lines) + 1)

    def required(self, end: int) -> None:
        needed = {"D": "", "W": "", "B": "", "G": "", "R": ""}
        if "P" not in self.seen:
            del needed["W"]
        else:
            needed["W"] = ", needed because there are plated through-holes (P)"
        for letter, why in needed.items():
            if letter not in self.scalar_lines:
                self.problem(end, 1, f"missing {letter} command ({DESCRIPTIONS[letter]}){why}")

    def design(self, name: str) -> Design:
        s = self.scalars

        def num(letter: str) -> float | None:
            return _as_float(s[letter][0]) if letter in s else None

        def word(letter: str) -> str | None:
            return _as_word(s[letter][0]) if letter in s else None

        pths = [
            PlatedThroughHole(
                x=_as_float(v[0]),
                y=_as_float(v[1]),
                depth=_as_float(v[2]),
                diameter=_as_float(v[3]),
                tolerance=_as_float(v[4]),
                line=p.line,
            )
            for p in self.items["P"]
            if (v := p.values) is not None
        ]
        holes = [
            Hole(
                x=_as_float(v[0]),
                y=_as_float(v[1]),
                depth=_as_float(v[2]),
                diameter=_as_float(v[3]),
                tolerance=_as_float(v[4]),
                threads_per_inch=p.threads,
                counterbore=p.bore,
                line=p.line,
            )
            for p in self.items["H"]
            if (v := p.values) is not None
        ]
        milling = [
            MillingFeature(
                x=_as_float(v[0]),
                y=_as_float(v[1]),
                rotation=_as_float(v[2]),
                depth=_as_float(v[3]),
                length=_as_float(v[4]),
                width=_as_float(v[5]),
                corner_radius=_as_float(v[6]),
                tolerance=_as_float(v[7]),
                line=p.line,
            )
            for p in self.items["M"]
            if (v := p.values) is not None
        ]
        components = [
            Component(
                x=_as_float(v[0]),
                y=_as_float(v[1]),
                rotation=_as_float(v[2]),
                dimx=_as_float(v[3]),
                dimy=_as_float(v[4]),
                dimz=_as_float(v[5]),
                type=_as_int(v[6]),
                hardware=_as_int(v[7]),
                part=_as_word(v[8]),
                preformed=_as_flag(v[9]),
                auto_insert=_as_flag(v[10]),
                adhesion=_as_flag(v[11]),
                hand_solder=_as_flag(v[12]),
                pins=tuple(p.pins),
                line=p.line,
            )
            for p in self.items["Z"]
            if (v := p.values) is not None
        ]
        return Design(
            name=name,
            length=_as_float(s["D"][0]) if "D" in s else None,
            width=_as_float(s["D"][1]) if "D" in s else None,
            thickness=_as_float(s["D"][2]) if "D" in s else None,
            dielectric=word("I"),
            resistivity=num("O"),
            plating_width=num("W"),
            bullseye=(_as_float(s["B"][0]), _as_float(s["B"][1])) if "B" in s else None,
            artwork_file=word("F"),
            min_gap=num("G"),
            trace_thickness=num("R"),
            pths=tuple(pths),
            holes=tuple(holes),
            milling=tuple(milling),
            components=tuple(components),
            echo=self.echo,
            prune=self.prune,
            order=tuple(self.order),
        )


def _default_name(path: str) -> str:
    if path.startswith("<"):
        return "design"
    return Path(path).stem or "design"


def parse_design(text: str, *, path: str = "<input>", name: str | None = None) -> Design:
    """The design a whole input text describes; :class:`DesignError` lists every problem.

    ``path`` is used only in messages; ``name`` defaults to the file stem ("RM1").
    """
    reader = _Reader(path)
    reader.read(text)
    if reader.problems:
        raise DesignError(sorted(reader.problems, key=lambda p: (p.line, p.column)))
    return reader.design(name if name is not None else _default_name(path))


def load_design(path: str | Path) -> Design:
    """Read and parse an input file; unreadable or non-UTF-8 files are DesignErrors too."""
    shown = str(path)
    try:
        text = read_text(path, bom=False)
    except TextFileError as exc:
        raise DesignError([InputProblem(shown, exc.line, exc.column, exc.message)]) from None
    return parse_design(text, path=shown, name=_default_name(shown))


# ------------------------------------------------------------------------------------
# File order and writing a design back out
# ------------------------------------------------------------------------------------

_LISTS = {"P": "pths", "H": "holes", "M": "milling", "Z": "components"}
_SCALAR_FIELD = {
    "D": "length",
    "I": "dielectric",
    "O": "resistivity",
    "W": "plating_width",
    "B": "bullseye",
    "F": "artwork_file",
    "G": "min_gap",
    "R": "trace_thickness",
}


def _present(design: Design, letter: str, index: int) -> bool:
    if letter in _SCALAR_FIELD:
        return index == 0 and getattr(design, _SCALAR_FIELD[letter]) is not None
    if letter in _LISTS:
        return 0 <= index < len(getattr(design, _LISTS[letter]))
    return False


def file_order(design: Design) -> Iterator[tuple[str, int]]:
    """(letter, index) of every scalar and item, in ``design.order`` first.

    Anything ``order`` leaves out (a design built in code rather than parsed) follows in the
    canonical order ``D I O W B F G R``, then P, H, M and Z items; unknown or repeated
    entries of ``order`` are skipped.  The echo and :func:`format_design` both use this.
    """
    done: set[tuple[str, int]] = set()
    for letter, index in design.order:
        if (letter, index) not in done and _present(design, letter, index):
            done.add((letter, index))
            yield letter, index
    rest = [(s, 0) for s in _SCALARS] + [
        (k, i) for k in _ITEMS for i in range(len(getattr(design, _LISTS[k])))
    ]
    for key in rest:
        if key not in done and _present(design, *key):
            yield key


def _num(value: float) -> str:
    if not math.isfinite(value):
        raise ValueError(f"{value!r} cannot be written in the input language")
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(float(value))


def _word(value: str, what: str) -> str:
    if not _TOKEN.fullmatch(value):
        raise ValueError(f"{what} {value!r} cannot be written: it must be one word")
    return value


def _flag(value: bool) -> str:
    return "1" if value else "0"


def format_design(design: Design) -> str:
    """The design in the input language, one command a line, in :func:`file_order`.

    Integral numbers are written without a decimal point ("D 4 6 1") and others with the
    shortest text that reads back to the same float, so RM1 comes back byte for byte.
    ``E``/``N`` close the file when echo/pruning are off.
    """
    out: list[str] = []
    d = design
    for letter, i in file_order(design):
        if letter == "D":
            assert d.width is not None and d.thickness is not None and d.length is not None
            out.append(f"D {_num(d.length)} {_num(d.width)} {_num(d.thickness)}")
        elif letter == "I":
            assert d.dielectric is not None
            out.append(f"I {_word(d.dielectric, 'dielectric')}")
        elif letter == "O":
            assert d.resistivity is not None
            out.append(f"O {_num(d.resistivity)}")
        elif letter == "W":
            assert d.plating_width is not None
            out.append(f"W {_num(d.plating_width)}")
        elif letter == "B":
            assert d.bullseye is not None
            out.append(f"B {_num(d.bullseye[0])} {_num(d.bullseye[1])}")
        elif letter == "F":
            assert d.artwork_file is not None
            out.append(f"F {_word(d.artwork_file, 'artwork file name')}")
        elif letter == "G":
            assert d.min_gap is not None
            out.append(f"G {_num(d.min_gap)}")
        elif letter == "R":
            assert d.trace_thickness is not None
            out.append(f"R {_num(d.trace_thickness)}")
        elif letter == "P":
            p = d.pths[i]
            out.append(" ".join(["P", *map(_num, (p.x, p.y, p.depth, p.diameter, p.tolerance))]))
        elif letter == "H":
            h = d.holes[i]
            out.append(" ".join(["H", *map(_num, (h.x, h.y, h.depth, h.diameter, h.tolerance))]))
            if h.threads_per_inch is not None:
                out.append(f"T {_num(h.threads_per_inch)}")
            if h.counterbore is not None:
                cb = h.counterbore
                kind = "O" if cb.kind == "conical" else "Y"
                out.append(f"C {kind} {_num(cb.depth)} {_num(cb.diameter)}")
        elif letter == "M":
            m = d.milling[i]
            out.append(
                " ".join(
                    [
                        "M",
                        *map(
                            _num,
                            (
                                m.x,
                                m.y,
                                m.rotation,
                                m.depth,
                                m.length,
                                m.width,
                                m.corner_radius,
                                m.tolerance,
                            ),
                        ),
                    ]
                )
            )
        elif letter == "Z":
            c = d.components[i]
            out.append(
                " ".join(
                    [
                        "Z",
                        *map(_num, (c.x, c.y, c.rotation, c.dimx, c.dimy, c.dimz)),
                        str(c.type),
                        str(c.hardware),
                        _word(c.part, "part number"),
                        *map(_flag, (c.preformed, c.auto_insert, c.adhesion, c.hand_solder)),
                    ]
                )
            )
            out.extend(f"Y {_num(pin.x)} {_num(pin.y)}" for pin in c.pins)
    if not design.echo:
        out.append("E")
    if not design.prune:
        out.append("N")
    return "".join(line + "\n" for line in out)
