"""A legend for one line of an EDAPS design: each argument under its name.

The input language is terse by design (``H 0.5 0.25 1 0.4 10``), and a designer editing
it by hand has to remember which number is the diameter and which the tolerance.  The
design editor shows, under its text, the line at the cursor spelled out --
``H: hole (in inches) · x 0.5 · y 0.25 · depth 1 · diameter 0.4 · tolerance 10
mils`` -- from the parser's own signatures (:data:`knowledge.edaps.parser.SIGNATURES`), so
the legend names the fields in the order the parser reads them.  Names and units the signatures
spell as identifiers (``<locx>``) are put in plain words by the tables here.
"""

from __future__ import annotations

from knowledge.edaps.design import COMPONENT_TYPES, HARDWARE_TYPES
from knowledge.edaps.parser import COMMANDS, DESCRIPTIONS, SIGNATURES

__all__ = ["legend_parts", "record_legend"]

NAMES: dict[str, str] = {
    "<locx>": "x",
    "<locy>": "y",
    "<dimx>": "size x",
    "<dimy>": "size y",
    "<dimz>": "height",
    "<degrees of rotation>": "rotation",
    "<type number>": "type",
    "<mounting hardware type number>": "hardware",
    "<part number>": "part",
    "<preforming>": "preformed",
    "<automatic insertion>": "auto-insert",
    "<hand-soldering>": "hand-solder",
    "<dielectric material>": "material",
    "<conductor resistivity>": "resistivity",
    "<through-hole plating width>": "plating width",
    "<filename>": "file",
    "<counterbore kind>": "kind",
}
"""Plain words for argument names; the rest are their own words without the brackets."""

INCHES = {
    "<locx>",
    "<locy>",
    "<dimx>",
    "<dimy>",
    "<dimz>",
    "<length>",
    "<width>",
    "<depth>",
    "<diameter>",
    "<corner radius>",
    "<through-hole plating width>",
    "<minimum gap>",
    "<thickness>",
}
"""Arguments in inches ("lengths are inches, tolerances mils": the parser's rule)."""

UNITS: dict[str, str] = {"<tolerance>": "mils", "<degrees of rotation>": "°"}

FLAGS = {"0": "no", "1": "yes"}
BORES = {"O": "conical", "0": "conical", "Y": "cylindrical"}


def _name(arg: str) -> str:
    return NAMES.get(arg, arg.strip("<>"))


def _value(arg: str, kind: str, token: str) -> str:
    """The token as the legend shows it: with its unit, or a code with its meaning."""
    if kind == "flag":
        return FLAGS.get(token, token)
    if kind == "cbkind":
        return BORES.get(token, token)
    if kind == "int":
        table = COMPONENT_TYPES if arg == "<type number>" else HARDWARE_TYPES
        meaning = table.get(int(token)) if token.lstrip("+-").isdigit() else None
        return f"{token} ({meaning})" if meaning else token
    unit = UNITS.get(arg)
    if unit == "°":
        return f"{token}°"
    return f"{token} {unit}" if unit else token


def legend_parts(line: str) -> list[str]:
    """The legend of ``line`` as fields: what the record is, then each argument named
    (or what the line is, when it is not a record)."""
    tokens = line.split()
    if not tokens:
        return ["Blank line. A record starts with a command letter: " + " ".join(COMMANDS)]
    letter, values = tokens[0], tokens[1:]
    signature = SIGNATURES.get(letter)
    if signature is None:
        return [f"'{letter}' is not a command letter; they are " + " ".join(COMMANDS)]
    inches = " (in inches)" if any(a.name in INCHES for a in signature) else ""
    parts = [f"{letter}: {DESCRIPTIONS[letter]}{inches}"]
    for i, arg in enumerate(signature):
        if i < len(values):
            parts.append(f"{_name(arg.name)} {_value(arg.name, arg.kind, values[i])}")
        else:
            parts.append(f"{_name(arg.name)} missing")
    if len(values) > len(signature):
        parts.append("extra: " + " ".join(values[len(signature) :]))
    return parts


def record_legend(line: str, width: int = 0) -> str:
    """The legend of ``line`` joined with `` · ``; lines of at most ``width`` cells (0: one
    line), broken between fields, so "hardware 1 (none)" is never split."""
    separator = " · "
    rows: list[str] = []
    for part in legend_parts(line):
        # Room for the part and, as another may follow, a closing " ·".
        fits = len(rows[-1]) + len(separator) + len(part) + 2 <= width if rows else False
        if rows and (not width or fits):
            rows[-1] += separator + part
        else:
            if rows:
                rows[-1] += " ·"
            rows.append(part)
    return "\n".join(rows)
