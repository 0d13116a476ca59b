"""How big a difference is, in words, with the thresholds a knowledge engineer tunes.

The backgammon commentator (seed 004) put differences into word buckets with constants
fitted to its own value scale, and those constants went silent at any other scale.  So the
thresholds here are *domain constants* (``explain_clearly``, ``explain_far``,
``explain_share``, ``explain_floor``, ``explain_cancel``) read from the knowledge base: a
knowledge engineer edits one in the store and the wording changes on the next run.  A
domain that sets none gets thresholds relative to the size of the values compared.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["CONSTANTS", "DEFAULT_THRESHOLDS", "Thresholds", "magnitude_word"]

# Domain constant -> Thresholds field.
CONSTANTS = {
    "explain_clearly": "clearly",
    "explain_far": "far",
    "explain_share": "share",
    "explain_floor": "floor",
    "explain_cancel": "cancel",
}


@dataclass(frozen=True)
class Thresholds:
    """Where "slightly" becomes "clearly" and "clearly" becomes "far", and which parts of
    a difference are worth naming.

    ``clearly`` and ``far`` are in the domain's value unit (minutes, points); None means
    2 % and 10 % of the larger of the two values compared.  ``share`` is the fraction of a
    difference one branch must carry to be named on its own (seed 004's collections:
    0.25); ``floor`` the smallest contribution ever named (its "10-point floor");
    ``cancel`` the ratio of the parts' total size to the net difference above which the
    parts are said to cancel.
    """

    clearly: float | None = None
    far: float | None = None
    share: float = 0.25
    floor: float = 0.0
    cancel: float = 1.5

    @classmethod
    def from_constants(cls, constants: Mapping[str, Any]) -> Thresholds:
        known = {f.name for f in fields(cls)}
        values = {
            CONSTANTS[name]: float(v)
            for name, v in constants.items()
            if name in CONSTANTS and CONSTANTS[name] in known and v is not None
        }
        return cls(**values)

    def bounds(self, a: float, b: float) -> tuple[float, float]:
        """The (clearly, far) thresholds for comparing values ``a`` and ``b``."""
        scale = max(abs(a), abs(b), 1e-12)
        clearly = self.clearly if self.clearly is not None else 0.02 * scale
        far = self.far if self.far is not None else 0.10 * scale
        return clearly, max(far, clearly)


# The thresholds of a domain that sets none (a shared default: Thresholds is frozen).
DEFAULT_THRESHOLDS = Thresholds()


def magnitude_word(loss: float, a: float, b: float, thresholds: Thresholds) -> str:
    """ "about the same", "slightly", "clearly" or "far" for a difference ``loss``
    between values ``a`` and ``b`` (the sign is the caller's: better or worse)."""
    size = abs(loss)
    if size <= 1e-9 * max(1.0, abs(a), abs(b)):
        return "about the same"
    clearly, far = thresholds.bounds(a, b)
    if size >= far:
        return "far"
    if size >= clearly:
        return "clearly"
    return "slightly"
