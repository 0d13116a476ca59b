"""The "echo of translated input" (Smith 1997, §7.2.1, Figures 7.10-7.19).

The planner prints back what it understood before it plans, so a designer can see a
misread line at once.  The wording and number formats below are the dissertation's,
verbatim: items in file order, numbers ``%.2f`` of the value held as a C ``float`` (the
original was single precision, which is why a corner radius of 0.075 echoes as "0.08" and
a pin offset of 0.175 as "0.17"), the minimum gap and the trace thickness ``%.4f``.

Wording the dissertation never shows, invented here in the same style:

* a component flag of 0 for preforming / automatic insertion:
  "It is not preformed; it cannot be automatically inserted." (either half independently);
* tapping, after the hole's two lines: "It is tapped with 5.00 threads per inch.";
* a counterbore, after the tapping line if any:
  "It has a conical counterbore 0.50 inches deep and 1.00 inches in diameter."
  ("cylindrical" for ``C Y``).  Tapping always comes before the counterbore, whatever
  their order in the file (the design keeps them as fields of the hole, not as lines);
* ``E`` and ``N`` are planner switches, not part of the design, and are not echoed.

:func:`echo_text` always returns the text; printing it only when ``design.echo`` is true
is the caller's business.
"""

from __future__ import annotations

from .design import Component, Design, Hole, MillingFeature, PlatedThroughHole
from .parser import file_order
from .single import f32

__all__ = ["BEGIN", "END", "echo_text", "f2"]

BEGIN = "Begin echo of translated input."
END = "End echo of translated input."


def f2(value: float) -> str:
    """``printf("%.2f", (float) value)``."""
    return f"{f32(value):.2f}"


def f4(value: float) -> str:
    """``printf("%.4f", (float) value)``."""
    return f"{f32(value):.4f}"


def _at(x: float, y: float) -> str:
    return f"({f2(x)}, {f2(y)})"


def _pth(p: PlatedThroughHole) -> list[str]:
    return [
        f"There is a plated through-hole at {_at(p.x, p.y)} of diameter {f2(p.diameter)} inches.",
        f"It is {f2(p.depth)} inches deep; it has dimensional tolerance {f2(p.tolerance)} mils.",
    ]


def _hole(h: Hole) -> list[str]:
    lines = [
        f"There is a hole at {_at(h.x, h.y)} of diameter {f2(h.diameter)} inches.",
        f"It is {f2(h.depth)} inches deep; it has dimensional tolerance {f2(h.tolerance)} mils.",
    ]
    if h.threads_per_inch is not None:
        lines.append(f"It is tapped with {f2(h.threads_per_inch)} threads per inch.")
    if h.counterbore is not None:
        cb = h.counterbore
        lines.append(
            f"It has a {cb.kind} counterbore {f2(cb.depth)} inches deep and "
            f"{f2(cb.diameter)} inches in diameter."
        )
    return lines


def _milling(m: MillingFeature) -> list[str]:
    return [
        f"There is a milling feature at {_at(m.x, m.y)}; it is {f2(m.depth)} inches deep.",
        f"It is rotated {f2(m.rotation)} degrees;",
        f"it is {f2(m.length)} inches long and {f2(m.width)} inches wide.",
        f"Its corner radius is {f2(m.corner_radius)}; it has dimensional tolerance "
        f"{f2(m.tolerance)} mils.",
    ]


def _component(c: Component) -> list[str]:
    preformed = "It is preformed" if c.preformed else "It is not preformed"
    auto = (
        "it can be automatically inserted"
        if c.auto_insert
        else "it cannot be automatically inserted"
    )
    adhered = "It needs to be adhered" if c.adhesion else "It need not be adhered"
    hand = "it needs to be hand-soldered" if c.hand_solder else "it need not be hand-soldered"
    return [
        f"There is a {c.part} component at {_at(c.x, c.y)}.",
        f"It is rotated {f2(c.rotation)} degrees;",
        f"it is {f2(c.dimx)} inches long and {f2(c.dimy)} inches wide.",
        f"It is {f2(c.dimz)} inches high, of type {c.type}, of mounting type {c.hardware}.",
        f"{preformed}; {auto}.",
        f"{adhered}; {hand}.",
        *(f"It has a pin at {_at(pin.x, pin.y)}." for pin in c.pins),
    ]


def _scalar(d: Design, letter: str) -> list[str]:
    # file_order only yields letters whose fields are set; the asserts tell the type checker.
    if letter == "D":
        assert d.length is not None and d.width is not None and d.thickness is not None
        return [
            f"Board is {f2(d.length)} inches long, {f2(d.width)} inches wide, and "
            f"{f2(d.thickness)} inches thick."
        ]
    if letter == "I":
        return [f"Dielectric material is {d.dielectric}."]
    if letter == "O":
        assert d.resistivity is not None
        return [f"Conductor resistivity is {f2(d.resistivity)}."]
    if letter == "W":
        assert d.plating_width is not None
        return [f"Plating on through-holes is of width {f2(d.plating_width)}."]
    if letter == "B":
        assert d.bullseye is not None
        return [f"Bullseye is at {_at(*d.bullseye)}."]
    if letter == "F":
        return [f'The artwork information is in the file "{d.artwork_file}".']
    if letter == "G":
        assert d.min_gap is not None
        gap = f32(d.min_gap)
        mils = f32(gap * 1000.0)  # a gap near the float limit prints "inf" mils, as C did
        return [f"Minimum gap in artwork is {gap:.4f} inches ({mils:.4f} mils)."]
    if letter == "R":
        assert d.trace_thickness is not None
        return [f"Trace thickness is {f4(d.trace_thickness)}."]
    raise ValueError(f"not a scalar command: {letter!r}")


def echo_text(design: Design) -> str:
    """The whole echo, "Begin echo ..." to "End echo ...", each line ending in a newline."""
    lines = [BEGIN]
    for letter, i in file_order(design):
        if letter == "P":
            lines += _pth(design.pths[i])
        elif letter == "H":
            lines += _hole(design.holes[i])
        elif letter == "M":
            lines += _milling(design.milling[i])
        elif letter == "Z":
            lines += _component(design.components[i])
        else:
            lines += _scalar(design, letter)
    lines.append(END)
    return "".join(line + "\n" for line in lines)
