"""The EDAPS planner input language: parser, echo and the RM1/RUM1 design files.

Golden data comes from the dissertation, never from the program under test: the RM1 counts
of Figure 7.1, the echo of Figures 7.10-7.19 (verbatim where §7.5.5 of the notes prints it,
and rebuilt from the values its summary note lists where it abbreviates), and the one-line
RUM1 difference of Figure 7.34.  Expected lines and columns of problems are computed from
how each test built its text.
"""

from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from knowledge.edaps.design import (
    Component,
    Counterbore,
    Design,
    Hole,
    MillingFeature,
    Pin,
    PlatedThroughHole,
)
from knowledge.edaps.echo import echo_text
from knowledge.edaps.parser import (
    DesignError,
    InputProblem,
    file_order,
    format_design,
    load_design,
    parse_design,
)

DESIGNS = Path(__file__).resolve().parents[1] / "knowledge" / "edaps" / "designs"
RM1 = DESIGNS / "RM1.txt"
RUM1 = DESIGNS / "RUM1.txt"

PROPERTY_SETTINGS = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# A minimal complete design; bad lines are appended after it.
PREAMBLE = "D 4 6 1\nB 0.25 1\nG 0.015\nR 0.0014\n"
PREAMBLE_LINES = 4


def problems(text: str, path: str = "t.txt") -> list[InputProblem]:
    with pytest.raises(DesignError) as info:
        parse_design(text, path=path)
    assert info.value.problems, "a DesignError must carry its problems"
    assert str(info.value) == "\n".join(str(p) for p in info.value.problems)
    return info.value.problems


def only_problem(text: str) -> InputProblem:
    found = problems(text)
    assert len(found) == 1, [str(p) for p in found]
    return found[0]


def col(line: str, token: str, nth: int = 0) -> int:
    """1-based column of the nth whitespace-separated occurrence of token in line."""
    hits = [m.start() + 1 for m in re.finditer(r"\S+", line) if m.group() == token]
    return hits[nth]


# ======================================================================================
# RM1 and RUM1
# ======================================================================================


def test_rm1_counts_match_figure_7_1() -> None:
    d = load_design(RM1)
    assert d.name == "RM1"
    assert (len(d.holes), len(d.pths), len(d.milling), len(d.components)) == (6, 5, 5, 18)
    assert sum(len(c.pins) for c in d.components) == 37


def test_rm1_field_values() -> None:
    d = load_design(RM1)
    assert (d.length, d.width, d.thickness) == (4, 6, 1)
    assert d.dielectric == "Teflon" and d.resistivity == 0.1 and d.plating_width == 0.1
    assert d.bullseye == (0.25, 1.0) and d.min_gap == 0.015 and d.trace_thickness == 0.0014
    assert d.artwork_file == "real.iges"
    assert d.echo and d.prune
    assert d.pths[0] == PlatedThroughHole(
        x=0.25, y=5.875, depth=1, diameter=0.2, tolerance=10, line=3
    )
    assert d.pths[4].diameter == 0.3
    assert d.holes[4] == Hole(x=0.2, y=2.4, depth=1, diameter=0.15, tolerance=2.5, line=14)
    assert not d.holes[4].tapped and d.holes[4].counterbore is None
    assert d.milling[2] == MillingFeature(
        x=1.2,
        y=4.2,
        rotation=0,
        depth=0.5,
        length=0.3,
        width=0.4,
        corner_radius=0.075,
        tolerance=4,
        line=18,
    )
    fet = d.components[13]
    assert (fet.part, fet.type, fet.hardware, fet.dimx, fet.dimy, fet.dimz) == (
        "FET",
        5,
        1,
        0.5,
        0.75,
        0.5,
    )
    assert (fet.preformed, fet.auto_insert, fet.adhesion, fet.hand_solder) == (
        True,
        True,
        True,
        True,
    )
    assert [(p.x, p.y) for p in fet.pins] == [(0, 0.35), (0.5, 0.1), (0.5, 0.5)]
    assert [c.part for c in d.components if c.hand_solder] == ["L1", "L2", "FET"]
    assert [c.part for c in d.components if c.adhesion] == ["D1", "D2", "FET"]
    # 30 solder-paste locations: pins of the components that are not hand-soldered (§4.4)
    assert sum(len(c.pins) for c in d.components if not c.hand_solder) == 30
    assert d.order[:8] == (
        ("I", 0),
        ("O", 0),
        ("P", 0),
        ("P", 1),
        ("P", 2),
        ("P", 3),
        ("P", 4),
        ("B", 0),
    )
    assert d.order[-1] == ("Z", 17)
    assert len(d.order) == 8 + 5 + 6 + 5 + 18


def test_rm1_writes_back_byte_for_byte() -> None:
    assert format_design(load_design(RM1)) == RM1.read_text(encoding="utf-8")
    assert format_design(load_design(RUM1)) == RUM1.read_text(encoding="utf-8")


# The echo of RM1 exactly as Figures 7.10-7.19 print it, up to the end of C1's block.
ECHO_HEAD = """\
Begin echo of translated input.
Dielectric material is Teflon.
Conductor resistivity is 0.10.
There is a plated through-hole at (0.25, 5.88) of diameter 0.20 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a plated through-hole at (5.75, 5.88) of diameter 0.20 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a plated through-hole at (3.00, 2.25) of diameter 0.20 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a plated through-hole at (3.50, 1.00) of diameter 0.20 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a plated through-hole at (1.50, 0.50) of diameter 0.30 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
Bullseye is at (0.25, 1.00).
Plating on through-holes is of width 0.10.
There is a hole at (0.50, 0.25) of diameter 0.40 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a hole at (0.50, 5.75) of diameter 0.40 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a hole at (3.25, 0.25) of diameter 0.40 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a hole at (3.25, 5.75) of diameter 0.40 inches.
It is 1.00 inches deep; it has dimensional tolerance 10.00 mils.
There is a hole at (0.20, 2.40) of diameter 0.15 inches.
It is 1.00 inches deep; it has dimensional tolerance 2.50 mils.
There is a hole at (0.20, 4.15) of diameter 0.15 inches.
It is 1.00 inches deep; it has dimensional tolerance 2.50 mils.
There is a milling feature at (0.00, 2.25); it is 0.50 inches deep.
It is rotated 0.00 degrees;
it is 0.40 inches long and 0.30 inches wide.
Its corner radius is 0.15; it has dimensional tolerance 2.00 mils.
There is a milling feature at (0.00, 4.00); it is 0.50 inches deep.
It is rotated 0.00 degrees;
it is 0.40 inches long and 0.30 inches wide.
Its corner radius is 0.15; it has dimensional tolerance 2.00 mils.
There is a milling feature at (1.20, 4.20); it is 0.50 inches deep.
It is rotated 0.00 degrees;
it is 0.30 inches long and 0.40 inches wide.
Its corner radius is 0.08; it has dimensional tolerance 4.00 mils.
There is a milling feature at (1.60, 4.20); it is 0.50 inches deep.
It is rotated 0.00 degrees;
it is 0.30 inches long and 0.40 inches wide.
Its corner radius is 0.08; it has dimensional tolerance 4.00 mils.
There is a milling feature at (3.10, 1.00); it is 0.50 inches deep.
It is rotated 0.00 degrees;
it is 0.50 inches long and 0.75 inches wide.
Its corner radius is 0.08; it has dimensional tolerance 10.00 mils.
Board is 4.00 inches long, 6.00 inches wide, and 1.00 inches thick.
Minimum gap in artwork is 0.0150 inches (15.0000 mils).
The artwork information is in the file "real.iges".
Trace thickness is 0.0014.
There is a C1 component at (3.60, 5.00).
It is rotated 0.00 degrees;
it is 0.35 inches long and 0.30 inches wide.
It is 0.20 inches high, of type 2, of mounting type 1.
It is preformed; it can be automatically inserted.
It need not be adhered; it need not be hand-soldered.
It has a pin at (0.17, 0.00).
It has a pin at (0.17, 0.30).
"""

# The remaining components, which §7.5.5 summarises as "the same 8-line block for ...".
# Values the summary note lists are marked; where the note lists nothing it is "the same
# block", and the value is the RM1 input's (§7.5.4, which was checked against the echo
# figures), written out by hand in %.2f.
_C1_LIKE = ("0.35", "0.30", "0.20")  # as C1's verbatim block
_C3_LIKE = ("0.20", "0.30", "0.10")  # as the note gives for C3
_C1_PINS = (("0.17", "0.00"), ("0.17", "0.30"))
_C3_PINS = (("0.00", "0.15"), ("0.20", "0.15"))
_PLAIN = (
    "It is preformed; it can be automatically inserted.",
    "It need not be adhered; it need not be hand-soldered.",
)
_HAND = (
    "It is preformed; it can be automatically inserted.",
    "It need not be adhered; it needs to be hand-soldered.",
)
_GLUED = (
    "It is preformed; it can be automatically inserted.",
    "It needs to be adhered; it need not be hand-soldered.",
)
_BOTH = (
    "It is preformed; it can be automatically inserted.",
    "It needs to be adhered; it needs to be hand-soldered.",
)

# (name, location, (long, wide, high), type, flag lines, pins)
ECHO_COMPONENTS: list[
    tuple[
        str,
        tuple[str, str],
        tuple[str, str, str],
        int,
        tuple[str, str],
        tuple[tuple[str, str], ...],
    ]
] = [
    ("C2", ("0.40", "5.00"), _C1_LIKE, 2, _PLAIN, _C1_PINS),
    (
        "C3",
        ("0.00", "3.25"),
        ("0.20", "0.30", "0.10"),
        2,
        _PLAIN,
        (("0.00", "0.15"), ("0.20", "0.15")),
    ),
    ("C4", ("1.25", "1.25"), _C1_LIKE, 2, _PLAIN, _C1_PINS),
    ("C5", ("1.75", "1.50"), _C3_LIKE, 2, _PLAIN, _C3_PINS),
    ("Cs", ("3.60", "0.50"), _C1_LIKE, 2, _PLAIN, _C1_PINS),
    (
        "Cf",
        ("3.30", "1.75"),
        ("0.10", "0.10", "0.05"),
        2,
        _PLAIN,
        (("0.00", "0.05"), ("0.10", "0.05")),
    ),
    ("Cc", ("3.70", "1.40"), _C3_LIKE, 2, _PLAIN, _C3_PINS),
    (
        "Cd",
        ("3.30", "2.20"),
        ("0.10", "0.05", "0.03"),
        2,
        _PLAIN,
        (("0.00", "0.03"), ("0.10", "0.03")),
    ),
    ("L1", ("1.25", "0.85"), _C1_LIKE, 4, _HAND, _C1_PINS),
    ("L2", ("1.45", "1.50"), _C3_LIKE, 4, _HAND, _C3_PINS),
    (
        "D1",
        ("1.20", "4.20"),
        ("0.30", "0.40", "0.50"),
        6,
        _GLUED,
        (("0.20", "0.00"), ("0.00", "0.30")),
    ),
    (
        "D2",
        ("1.60", "4.20"),
        ("0.30", "0.40", "0.50"),
        6,
        _GLUED,
        (("0.20", "0.00"), ("0.40", "0.30")),
    ),
    (
        "FET",
        ("3.10", "1.00"),
        ("0.50", "0.75", "0.50"),
        5,
        _BOTH,
        (("0.00", "0.35"), ("0.50", "0.10"), ("0.50", "0.50")),
    ),
    (
        "Rg",
        ("2.75", "1.00"),
        ("0.10", "0.10", "0.05"),
        1,
        _PLAIN,
        (("0.05", "0.00"), ("0.05", "0.10")),
    ),
    (
        "Rf",
        ("3.15", "1.75"),
        ("0.10", "0.10", "0.05"),
        1,
        _PLAIN,
        (("0.00", "0.05"), ("0.10", "0.05")),
    ),
    (
        "Rs",
        ("2.75", "1.00"),
        ("0.15", "0.10", "0.05"),
        1,
        _PLAIN,
        (("0.08", "0.00"), ("0.08", "0.10")),
    ),
    (
        "Rd",
        ("3.50", "2.20"),
        ("0.10", "0.05", "0.03"),
        1,
        _PLAIN,
        (("0.00", "0.03"), ("0.10", "0.03")),
    ),
]


def _block(
    name: str,
    at: tuple[str, str],
    size: tuple[str, str, str],
    kind: int,
    flags: tuple[str, str],
    pins: tuple[tuple[str, str], ...],
) -> str:
    """C1's verbatim block with the values changed (its shape is the dissertation's)."""
    lines = [
        f"There is a {name} component at ({at[0]}, {at[1]}).",
        "It is rotated 0.00 degrees;",
        f"it is {size[0]} inches long and {size[1]} inches wide.",
        f"It is {size[2]} inches high, of type {kind}, of mounting type 1.",
        *flags,
        *(f"It has a pin at ({x}, {y})." for x, y in pins),
    ]
    return "".join(line + "\n" for line in lines)


RM1_ECHO = (
    ECHO_HEAD + "".join(_block(*c) for c in ECHO_COMPONENTS) + "End echo of translated input.\n"
)

RUM1_HOLE = (
    "There is a hole at (0.20, 2.40) of diameter 0.15 inches.\n"
    "It is 1.00 inches deep; it has dimensional tolerance 1.50 mils.\n"
)
RM1_HOLE = (
    "There is a hole at (0.20, 2.40) of diameter 0.15 inches.\n"
    "It is 1.00 inches deep; it has dimensional tolerance 2.50 mils.\n"
)


def test_block_template_reproduces_c1_verbatim() -> None:
    """The template used for the summarised blocks gives back C1's printed block."""
    c1 = _block("C1", ("3.60", "5.00"), _C1_LIKE, 2, _PLAIN, _C1_PINS)
    assert ECHO_HEAD.endswith(c1)


def test_rm1_echo_is_the_dissertations() -> None:
    got = echo_text(load_design(RM1))
    assert got.splitlines() == RM1_ECHO.splitlines()  # readable diff on failure
    assert got == RM1_ECHO


def test_single_precision_shows_in_the_echo() -> None:
    """0.075 is 0.08 as a C float (0.07 in double); 5.875 and 0.175 round as printed."""
    assert "Its corner radius is 0.08;" in RM1_ECHO
    assert "(0.25, 5.88)" in RM1_ECHO and "It has a pin at (0.17, 0.00)." in RM1_ECHO
    assert f"{0.075:.2f}" == "0.07"  # the double would have printed this


def test_rum1_differs_from_rm1_in_one_hole_tolerance() -> None:
    rm1 = RM1.read_text(encoding="utf-8").splitlines()
    rum1 = RUM1.read_text(encoding="utf-8").splitlines()
    diff = [(a, b) for a, b in zip(rm1, rum1, strict=True) if a != b]
    assert diff == [("H 0.2 2.4 1 0.15 2.5", "H 0.2 2.4 1 0.15 1.5")]
    d = load_design(RUM1)
    assert d.name == "RUM1"
    assert d.holes[4].tolerance == 1.5
    assert d.model_copy(update={"name": "RM1", "holes": load_design(RM1).holes}) == load_design(RM1)
    assert RM1_ECHO.count(RM1_HOLE) == 1
    assert echo_text(d) == RM1_ECHO.replace(RM1_HOLE, RUM1_HOLE)


# ======================================================================================
# Wording the dissertation never shows, and the planner switches
# ======================================================================================


def test_invented_echo_wording() -> None:
    text = PREAMBLE + (
        "H 3 4 2 0.5 10\nC O 0.5 1.0\nT 5\nH 1 1 1 0.2 3\nC Y 0.25 0.3\n"
        "Z 3 4 45 2 1 1 1 2 Meek163 0 0 0 0\nY 0 1\nY 1 1\n"
        "Z 3 4 0 2 1 1 3 1 Q2 1 0 1 0\n"
    )
    echo = echo_text(parse_design(text))
    assert (
        "There is a hole at (3.00, 4.00) of diameter 0.50 inches.\n"
        "It is 2.00 inches deep; it has dimensional tolerance 10.00 mils.\n"
        "It is tapped with 5.00 threads per inch.\n"
        "It has a conical counterbore 0.50 inches deep and 1.00 inches in diameter.\n"
        "There is a hole at (1.00, 1.00)"
    ) in echo
    assert (
        "It has a cylindrical counterbore 0.25 inches deep and 0.30 inches in diameter.\n" in echo
    )
    assert (
        "It is 1.00 inches high, of type 1, of mounting type 2.\n"
        "It is not preformed; it cannot be automatically inserted.\n"
        "It need not be adhered; it need not be hand-soldered.\n"
        "It has a pin at (0.00, 1.00).\n"
        "It has a pin at (1.00, 1.00).\n"
    ) in echo
    assert (
        "It is preformed; it cannot be automatically inserted.\n"
        "It needs to be adhered; it need not be hand-soldered.\n"
    ) in echo


def test_switches_and_name() -> None:
    d = parse_design(PREAMBLE + "E\nN\nE\n")
    assert (d.echo, d.prune, d.name) == (False, False, "design")
    assert parse_design(PREAMBLE, path="boards/RM9.txt").name == "RM9"
    assert parse_design(PREAMBLE, path="boards/RM9.txt", name="x").name == "x"
    assert all(letter not in "EN" for letter, _ in d.order)


def test_counterbore_zero_is_the_ocr_spelling_of_conical() -> None:
    d = parse_design(PREAMBLE + "H 3 4 2 0.5 10\nT 5\nC 0 0.5 1.0\n")
    assert d.holes[0].counterbore == Counterbore(
        kind="conical", depth=0.5, diameter=1.0, line=PREAMBLE_LINES + 3
    )
    assert d.holes[0].threads_per_inch == 5


def test_legal_but_unmanufacturable_values_are_accepted() -> None:
    d = parse_design(PREAMBLE + "H 1 1 1 0.2 0\nP 1 2 1 0.2 0\nW 0.1\nM 0 0 0 1 1 1 0 0\nO 0\n")
    assert d.holes[0].tolerance == 0 and d.pths[0].tolerance == 0
    assert d.milling[0].corner_radius == 0 and d.milling[0].tolerance == 0


def test_whitespace_crlf_bom_and_blank_lines() -> None:
    text = "\ufeff  D\t4 6   1\r\n\r\n   \nB 0.25 1\r\nG .015\nR 1.4e-3\n\n"
    d = parse_design(text)
    assert (d.length, d.width, d.thickness, d.min_gap, d.trace_thickness) == (
        4,
        6,
        1,
        0.015,
        0.0014,
    )
    assert d.bullseye == (0.25, 1.0)
    # a bad token after tabs: the column counts a tab as one character
    p = only_problem("D 4 6 1\nG 0.015\nR 0.0014\nB\t1\tx\n")
    assert (p.line, p.column, p.message) == (4, 5, "expected a number for <locy>, found 'x'")


def test_str_of_a_problem() -> None:
    text = "\n" * 10 + "H 1 1 1 0.5 10\nC O 1 abc\n"
    found = problems(text, path="rm1.txt")
    assert str(found[0]) == "rm1.txt:12:7: expected a number for <diameter>, found 'abc'"
    assert str(InputProblem("rm1.txt", 0, 0, "cannot open")) == "rm1.txt: cannot open"


# ======================================================================================
# One test per kind of bad input
# ======================================================================================


def test_unknown_command_letter() -> None:
    p = only_problem(PREAMBLE + "X 1 2\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, 1)
    assert p.message.startswith(
        "expected a command letter (D I O W Z Y B F G R H T C M P E N), found 'X'"
    )


def test_command_letter_must_stand_alone() -> None:
    p = only_problem(PREAMBLE + "  P0.25 1 1 0.2 10\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, 3)
    assert "found 'P0.25'" in p.message and "space after the command letter" in p.message


def test_lowercase_command() -> None:
    p = only_problem(PREAMBLE + "h 1 1 1 0.5 10\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, 1)
    assert "found 'h'" in p.message and "did you mean 'H'?" in p.message


def test_missing_argument_is_reported_at_end_of_line() -> None:
    line = "P 1 2 1"
    p = only_problem(PREAMBLE + "W 0.1\n" + line + "   \n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 2, len(line) + 1)
    assert p.message == (
        "expected <diameter>, found end of line "
        "(P takes <locx> <locy> <depth> <diameter> <tolerance>)"
    )


def test_extra_argument() -> None:
    line = "M 0 2.25 0 0.5 0.4 0.3 0.15 2 7 8"
    p = only_problem(PREAMBLE + line + "\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, col(line, "7"))
    assert p.message.startswith("expected end of line after <tolerance>, found '7'")
    e = only_problem(PREAMBLE + "E now\n")
    assert (e.column, e.message) == (3, "expected end of line (E takes no arguments), found 'now'")
    i = only_problem("I Rogers RT5880\n" + PREAMBLE)
    assert i.column == 10 and "names cannot contain spaces" in i.message


@pytest.mark.parametrize("token", ["abc", "1,5", "0x10", "1_0", "\u0661", "--1", "1e", "."])
def test_non_numeric_where_a_number_is_expected(token: str) -> None:
    line = f"H 0.5 {token} 1 0.4 10"
    p = only_problem(PREAMBLE + line + "\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, 7)
    assert p.message == f"expected a number for <locy>, found {token!r}"


@pytest.mark.parametrize("token", ["nan", "NaN", "inf", "-inf", "Infinity", "1e999", "4e38"])
def test_nan_inf_and_out_of_range_are_rejected(token: str) -> None:
    text = f"D 4 6 1\nB 0.25 1\nR 0.0014\nG {token}\n"
    p = only_problem(text)
    assert (p.line, p.column) == (4, 3)
    assert p.message.startswith(f"expected a number for <minimum gap>, found {token!r}")


@pytest.mark.parametrize(
    "position, name",
    [
        (9, "<preforming>"),
        (10, "<automatic insertion>"),
        (11, "<adhesion>"),
        (12, "<hand-soldering>"),
    ],
)
@pytest.mark.parametrize("bad", ["2", "-1", "yes", "1.0"])
def test_flags_must_be_0_or_1(position: int, name: str, bad: str) -> None:
    args = ["3.6", "5", "0", "0.35", "0.3", "0.2", "2", "1", "C1", "1", "1", "0", "0"]
    args[position] = bad
    line = "Z " + " ".join(args)
    p = only_problem(PREAMBLE + line + "\nY 0 0\n")
    tokens = [m.start() + 1 for m in re.finditer(r"\S+", line)]
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, tokens[position + 1])
    assert p.message == f"expected 0 or 1 for {name}, found {bad!r}"


@pytest.mark.parametrize("bad", ["0", "7", "-2", "2.0", "resistor"])
def test_component_type_out_of_range(bad: str) -> None:
    line = f"Z 3.6 5 0 0.35 0.3 0.2 {bad} 1 C1 1 1 0 0"
    p = only_problem(PREAMBLE + line + "\n")
    assert p.column == col(line, "0.2") + 4
    assert p.message.startswith(
        "expected one of 1 (resistor), 2 (capacitor), 3 (transistor), "
        "4 (inductor), 5 (FET), 6 (diode) for <type number>, "
        f"found {bad!r}"
    )


@pytest.mark.parametrize("bad", ["0", "3"])
def test_hardware_type_out_of_range(bad: str) -> None:
    line = f"Z 3.6 5 0 0.35 0.3 0.2 2 {bad} C1 1 1 0 0"
    p = only_problem(PREAMBLE + line + "\n")
    assert p.column == col(line, "0.2") + 6
    assert p.message == (
        f"expected one of 1 (none), 2 (screwed) for <mounting hardware type number>, found {bad!r}"
    )


def test_pin_with_no_component() -> None:
    p = only_problem(PREAMBLE + "Y 0 1\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, 1)
    assert p.message == "Y (pin) has no Z (component) before it to belong to"


def test_pin_must_directly_follow_its_component() -> None:
    text = PREAMBLE + "Z 3 4 0 1 1 1 1 1 A 1 1 0 0\nY 0 1\n\nI Teflon\nY 1 1\n"
    p = only_problem(text)
    assert (p.line, p.column) == (PREAMBLE_LINES + 5, 1)
    assert p.message == (
        "expected Y (pin) directly after its Z (component) line or that "
        "component's Y lines, found it after I (dielectric material) "
        f"on line {PREAMBLE_LINES + 4}"
    )


@pytest.mark.parametrize("child, what", [("T 5", "T (tapping)"), ("C O 1 1", "C (counterbore)")])
def test_tap_or_counterbore_with_no_hole(child: str, what: str) -> None:
    p = only_problem(PREAMBLE + child + "\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 1, 1)
    assert p.message == f"{what} has no H (hole) before it to belong to"


def test_tap_after_another_feature_does_not_attach_to_the_earlier_hole() -> None:
    text = PREAMBLE + "H 1 1 1 0.5 10\nM 0 0 0 1 1 1 0.1 5\nT 5\n"
    p = only_problem(text)
    assert (p.line, p.column) == (PREAMBLE_LINES + 3, 1)
    assert p.message == (
        "expected T (tapping) directly after its H (hole) line or that "
        "hole's T/C lines, found it after M (milling feature) on line "
        f"{PREAMBLE_LINES + 2}"
    )
    # ... and a P is not a hole either
    p = only_problem(PREAMBLE + "H 1 1 1 0.5 10\nW 0.1\nP 1 1 1 0.5 10\nC Y 1 1\n")
    assert "found it after P (plated through-hole)" in p.message


@pytest.mark.parametrize("bad", ["X", "o", "y", "00", "1"])
def test_counterbore_kind(bad: str) -> None:
    p = only_problem(PREAMBLE + f"H 1 1 1 0.5 10\nC {bad} 0.5 1\n")
    assert (p.line, p.column) == (PREAMBLE_LINES + 2, 3)
    assert (
        p.message == f"expected O (conical) or Y (cylindrical) for <counterbore kind>, "
        f"found {bad!r}"
    )


@pytest.mark.parametrize(
    "body, what",
    [
        ("H 1 1 1 0.5 10\nT 5\nC Y 0.1 0.9\nT 8\n", "T (tapping)"),
        ("H 1 1 1 0.5 10\nC O 1 1\nT 3\nC Y 1 2\n", "C (counterbore)"),
    ],
)
def test_second_tap_or_counterbore_for_one_hole(body: str, what: str) -> None:
    p = only_problem(PREAMBLE + body)
    n = PREAMBLE_LINES
    assert (p.line, p.column) == (n + 4, 1)
    assert p.message == f"second {what} for the hole on line {n + 1}; the first is on line {n + 2}"


@pytest.mark.parametrize(
    "line, name, token, kind",
    [
        ("D 0 6 1", "<length>", "0", "positive"),
        ("D 4 -6 1", "<width>", "-6", "positive"),
        ("P 1 1 1 0 10", "<diameter>", "0", "positive"),
        ("P 1 1 -1 0.2 10", "<depth>", "-1", "positive"),
        ("H 1 1 1 0.2 -2.5", "<tolerance>", "-2.5", ">= 0"),
        ("M 1 2 3 0.5 0.4 0.3 -0.1 2", "<corner radius>", "-0.1", ">= 0"),
        ("M 1 2 3 0.5 0 0.3 0.1 2", "<length>", "0", "positive"),
        ("M 1 2 3 0.5 0.4 0.3 0.1 -1e-9", "<tolerance>", "-1e-9", ">= 0"),
        ("Z 1 1 0 0.35 0.3 -0.2 2 1 C1 1 1 0 0", "<dimz>", "-0.2", "positive"),
        ("W -0.1", "<through-hole plating width>", "-0.1", "positive"),
        ("O -1", "<conductor resistivity>", "-1", ">= 0"),
        ("G 0", "<minimum gap>", "0", "positive"),
    ],
)
def test_impossible_sizes(line: str, name: str, token: str, kind: str) -> None:
    rest = (
        PREAMBLE.split("\n", 1)[1]
        if line[0] == "D"
        else "".join(s + "\n" for s in PREAMBLE.splitlines() if s[0] != line[0])
    )
    text = line + "\n" + rest + ("W 0.1\n" if line[0] == "P" else "")
    p = only_problem(text)
    assert (p.line, p.column) == (1, col(line, token))
    number = "a positive number" if kind == "positive" else "a number >= 0"
    assert p.message == f"expected {number} for {name}, found {token!r}"


def test_impossible_sizes_in_children() -> None:
    found = problems(PREAMBLE + "H 1 1 1 0.5 10\nT 0\nC O 0.5 -1\n")
    assert [(p.line, p.column, p.message) for p in found] == [
        (PREAMBLE_LINES + 2, 3, "expected a positive number for <threads-per-inch>, found '0'"),
        (PREAMBLE_LINES + 3, 9, "expected a positive number for <diameter>, found '-1'"),
    ]


@pytest.mark.parametrize(
    "line", ["D 4 6 1", "I Alumina", "O 0.2", "W 0.1", "B 0 0", "F a.iges", "G 0.02", "R 0.001"]
)
def test_duplicate_scalar_command(line: str) -> None:
    text = "I Teflon\nO 0.1\nW 0.1\nF real.iges\n" + PREAMBLE + line + "\n"
    first = text.splitlines().index(next(s for s in text.splitlines() if s[0] == line[0])) + 1
    p = only_problem(text)
    assert (p.line, p.column) == (PREAMBLE_LINES + 5, 1)
    assert p.message.startswith(f"duplicate {line[0]} command (")
    assert p.message.endswith(f"the first is on line {first}")


def test_missing_required_commands_at_end_of_file() -> None:
    text = "I Teflon\nP 1 1 1 0.2 10\n\n"
    found = problems(text)
    assert [(p.line, p.column) for p in found] == [(4, 1)] * 5
    assert [p.message for p in found] == [
        "missing D command (board dimensions)",
        "missing W command (through-hole plating width), needed because there are plated "
        "through-holes (P)",
        "missing B command (bullseye)",
        "missing G command (minimum gap)",
        "missing R command (trace thickness)",
    ]
    assert [p.line for p in problems("")] == [1, 1, 1, 1]
    assert [p.line for p in problems("D 4 6 1")] == [2, 2, 2]  # no final newline: same


def test_non_utf8_file(tmp_path: Path) -> None:
    f = tmp_path / "bad.txt"
    f.write_bytes(PREAMBLE.encode() + "I T\u00e9flon".encode() + b"\xff\n")
    with pytest.raises(DesignError) as info:
        load_design(f)
    (p,) = info.value.problems
    assert (p.path, p.line, p.column) == (str(f), PREAMBLE_LINES + 1, len("I T\u00e9flon") + 1)
    assert p.message == "byte 0xff is not UTF-8 text (save the file as UTF-8)"


def test_missing_file_is_a_design_error(tmp_path: Path) -> None:
    path = tmp_path / "nope.txt"
    with pytest.raises(DesignError) as info:
        load_design(path)
    (p,) = info.value.problems
    assert (p.line, p.column) == (0, 0) and p.message == "no such file"
    assert str(info.value) == f"{path}: no such file"
    with pytest.raises(DesignError, match="is a directory, not a file"):
        load_design(tmp_path)


def test_several_bad_lines_are_all_reported() -> None:
    text = (
        "D 4 6\n"  # 1: missing <depth>
        "q\n"  # 2: lowercase/unknown
        "B 0.25 one\n"  # 3: non-numeric
        "G 0.015\n"
        "Z 1 1 0 1 1 1 9 1 X 1 1 0 2\n"  # 5: type and hand-soldering flag
        "Y 0 1\n"  # 6: fine -- the bad Z still owns its pins
        "Y 0 z\n"  # 7: non-numeric
        "T 5\n"  # 8: no hole
        "G 0.02\n"
    )  # 9: duplicate; R missing at line 10
    found = problems(text, path="many.txt")
    assert [(p.line, p.column) for p in found] == [
        (1, 6),
        (2, 1),
        (3, 8),
        (5, 15),
        (5, 27),
        (7, 5),
        (8, 1),
        (9, 1),
        (10, 1),
    ]
    assert (
        str(found[0])
        == "many.txt:1:6: expected <depth>, found end of line (D takes <length> <width> <depth>)"
    )
    assert found[-1].message == "missing R command (trace thickness)"
    assert "<hand-soldering>, found '2'" in found[4].message


def test_bad_parent_lines_do_not_cascade() -> None:
    text = PREAMBLE + "Z 1 1 0 1 1 1 1 1\nY 0 1\nY 1 1\nH 1 1 1 x 10\nT 5\nC O 1 1\n"
    found = problems(text)
    assert [p.line for p in found] == [PREAMBLE_LINES + 1, PREAMBLE_LINES + 4]


# ======================================================================================
# Properties
# ======================================================================================

_WORD = st.text(
    st.characters(exclude_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=10
).filter(lambda s: re.fullmatch(r"\S+", s) is not None)
_ANY = st.one_of(st.floats(-1e4, 1e4), st.floats(-3e38, 3e38), st.integers(-50, 50).map(float))
_POS = st.one_of(
    st.floats(0, 100, exclude_min=True),
    st.floats(0, 3e38, exclude_min=True),
    st.integers(1, 20).map(float),
)
_NONNEG = st.one_of(st.just(0.0), _POS)

_PINS = st.lists(st.builds(Pin, x=_ANY, y=_ANY), max_size=4).map(tuple)
_COMPONENT = st.builds(
    Component,
    x=_ANY,
    y=_ANY,
    rotation=_ANY,
    dimx=_POS,
    dimy=_POS,
    dimz=_POS,
    type=st.integers(1, 6),
    hardware=st.integers(1, 2),
    part=_WORD,
    preformed=st.booleans(),
    auto_insert=st.booleans(),
    adhesion=st.booleans(),
    hand_solder=st.booleans(),
    pins=_PINS,
)
_HOLE = st.builds(
    Hole,
    x=_ANY,
    y=_ANY,
    depth=_POS,
    diameter=_POS,
    tolerance=_NONNEG,
    threads_per_inch=st.none() | _POS,
    counterbore=st.none()
    | st.builds(
        Counterbore, kind=st.sampled_from(["conical", "cylindrical"]), depth=_POS, diameter=_POS
    ),
)
_PTH = st.builds(PlatedThroughHole, x=_ANY, y=_ANY, depth=_POS, diameter=_POS, tolerance=_NONNEG)
_MILL = st.builds(
    MillingFeature,
    x=_ANY,
    y=_ANY,
    rotation=_ANY,
    depth=_POS,
    length=_POS,
    width=_POS,
    corner_radius=_NONNEG,
    tolerance=_NONNEG,
)


@st.composite
def designs(draw: st.DrawFn) -> Design:
    pths = draw(st.lists(_PTH, max_size=3))
    holes = draw(st.lists(_HOLE, max_size=3))
    milling = draw(st.lists(_MILL, max_size=3))
    components = draw(st.lists(_COMPONENT, max_size=3))
    fields: dict[str, Any] = {
        "length": draw(_POS),
        "width": draw(_POS),
        "thickness": draw(_POS),
        "bullseye": (draw(_ANY), draw(_ANY)),
        "min_gap": draw(_POS),
        "trace_thickness": draw(_POS),
        "dielectric": draw(st.none() | _WORD),
        "resistivity": draw(st.none() | _NONNEG),
        "artwork_file": draw(st.none() | _WORD),
        "plating_width": draw(_POS if pths else st.none() | _POS),
    }
    letters = list("DBGR") + [
        k
        for k, f in (
            ("I", "dielectric"),
            ("O", "resistivity"),
            ("F", "artwork_file"),
            ("W", "plating_width"),
        )
        if fields[f] is not None
    ]
    letters += (
        ["P"] * len(pths) + ["H"] * len(holes) + ["M"] * len(milling) + ["Z"] * len(components)
    )
    counters: dict[str, int] = {}
    order = []
    for letter in draw(st.permutations(letters)):
        order.append((letter, counters.get(letter, 0)))
        counters[letter] = counters.get(letter, 0) + 1
    return Design(
        name=draw(_WORD),
        pths=tuple(pths),
        holes=tuple(holes),
        milling=tuple(milling),
        components=tuple(components),
        order=tuple(order),
        echo=draw(st.booleans()),
        prune=draw(st.booleans()),
        **fields,
    )


def _without_lines(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_lines(v) for k, v in value.items() if k != "line"}
    if isinstance(value, list | tuple):
        return [_without_lines(v) for v in value]
    return value


@PROPERTY_SETTINGS
@given(designs())
def test_written_designs_read_back_the_same(design: Design) -> None:
    text = format_design(design)
    parsed = parse_design(text, name=design.name)
    assert _without_lines(parsed.model_dump()) == _without_lines(design.model_dump())
    # every parsed item knows its line, and file order is line order
    lines = text.splitlines()
    seen = []
    for letter, i in file_order(parsed):
        if letter in "PHMZ":
            item = getattr(
                parsed, {"P": "pths", "H": "holes", "M": "milling", "Z": "components"}[letter]
            )[i]
            assert item.line is not None and lines[item.line - 1].startswith(letter + " ")
            seen.append(item.line)
    assert seen == sorted(seen)
    assert format_design(parsed) == text
    echo = echo_text(parsed)
    assert echo.startswith("Begin echo of translated input.\n")
    assert echo.endswith("End echo of translated input.\n")


_TOKENS = st.sampled_from(
    [
        "0",
        "1",
        "2",
        "7",
        "-1",
        "0.5",
        ".5",
        "5.",
        "1e3",
        "1e999",
        "nan",
        "inf",
        "-0",
        "O",
        "Y",
        "0x1",
        "abc",
        "C1",
        "\u0661",
        "\ufeff",
        "\u00e9",
        "1_0",
        "+",
        "-",
        "e",
        "2.5e-3",
        "\x00",
    ]
)
_LETTERS = st.sampled_from([*"DIOWZYBFGRHTCMPEN", "d", "z", "X", "#", "PP", "Z1", ""])
_SPACE = st.sampled_from([" ", "\t", "  ", "\u00a0", "\x0b", "\r"])


@st.composite
def garbage_lines(draw: st.DrawFn) -> str:
    tokens = [draw(_LETTERS), *draw(st.lists(_TOKENS | _WORD, max_size=15))]
    return draw(st.just("") | _SPACE) + draw(_SPACE).join(tokens)


def _check_problems_are_located(text: str) -> None:
    try:
        parse_design(text, path="g.txt")
    except DesignError as exc:
        lines = text.removeprefix("\ufeff").split("\n")
        for p in exc.problems:
            assert p.path == "g.txt" and p.message
            assert 1 <= p.line <= len(lines) + 1
            if p.line <= len(lines):
                assert 1 <= p.column <= len(lines[p.line - 1]) + 1
            assert str(p).startswith(f"g.txt:{p.line}:{p.column}: ")


@PROPERTY_SETTINGS
@given(st.lists(garbage_lines(), max_size=12).map("\n".join))
def test_garbage_lines_raise_only_design_errors(text: str) -> None:
    _check_problems_are_located(text)
    _check_problems_are_located(PREAMBLE + "W 1\n" + text)


@PROPERTY_SETTINGS
@given(st.text(max_size=300))
def test_arbitrary_text_raises_only_design_errors(text: str) -> None:
    _check_problems_are_located(text)
    _check_problems_are_located(PREAMBLE + text)


@PROPERTY_SETTINGS
@given(st.binary(max_size=200))
def test_arbitrary_bytes_raise_only_design_errors(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "junk.txt"
        path.write_bytes(data)
        try:
            load_design(path)
        except DesignError as exc:
            assert exc.problems and all(p.path == str(path) for p in exc.problems)


@settings(max_examples=3000, deadline=None)
@given(
    a=st.floats(allow_nan=False, width=64),
    b=st.floats(allow_nan=False, width=64),
    c=st.floats(allow_nan=False, width=64),
)
def test_single_precision_without_numpy_agrees_with_numpy(a: float, b: float, c: float) -> None:
    """EDAPS's coordinates are binary32 arithmetic; rounding each double result to binary32
    (struct) must give numpy's float32 arithmetic bit for bit, overflow to infinity too."""
    import numpy as np

    from knowledge.edaps.single import f32

    with np.errstate(over="ignore", invalid="ignore"):
        want_sub = float(np.float32(a) - np.float32(b))
        want_chain = float(np.float32(a) + np.float32(b) - np.float32(c))
        want_mul = float(np.float32(a) * np.float32(1000))
    assert _same_float(f32(f32(a) - f32(b)), want_sub)
    assert _same_float(f32(f32(f32(a) + f32(b)) - f32(c)), want_chain)
    assert _same_float(f32(f32(a) * 1000.0), want_mul)


def _same_float(x: float, y: float) -> bool:
    return (math.isnan(x) and math.isnan(y)) or (
        x == y and math.copysign(1, x) == math.copysign(1, y)
    )
