"""Single precision as the dissertation's C program computed it, without numpy.

EDAPS printed coordinates and gaps from C ``float`` variables, so reproducing its figures
means rounding to binary32 after every operation.  Rounding a double result to binary32 is
exactly what a binary32 operation gives for + - * / (a double has more than 2 * 24 + 2 bits,
so the two roundings cannot disagree), and ``struct`` does the rounding: numpy, a 70 ms
import, is not needed on the path of every plan.
"""

from __future__ import annotations

import math
import struct

__all__ = ["f32"]

_BINARY32 = struct.Struct("f")


def f32(x: float) -> float:
    """The value a C ``float`` would hold (round to nearest even; too large is infinite)."""
    try:
        return float(_BINARY32.unpack(_BINARY32.pack(x))[0])
    except OverflowError:
        return math.copysign(math.inf, x)
