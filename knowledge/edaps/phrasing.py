"""How EDAPS explanations say things: minutes of shop time, and hours for the standing."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded when a run is explained, not with every plan
    from engine.tofs import Domain, RunResult
    from engine.tofs.explanation import Phrasing

__all__ = ["minutes", "phrasing", "standing"]


def minutes(v: float) -> str:
    return f"{v:.2f} min"


def standing(run: RunResult) -> str:
    """The overall standing first, as a manufacturing engineer would ask for it."""
    if run.value is None:
        why = f": {run.failure.message}" if run.failure is not None else ""
        return f"This design cannot be made as it stands{why}."
    return (
        f"This design needs about {run.value / 60:.1f} hours of shop time ({minutes(run.value)})."
    )


def plain_standing(run: RunResult) -> str | None:
    """The reader's view says only the verdict here: its findings name each feature that
    cannot be made, with what to change, in the shop's words."""
    if run.value is None:
        return "This design cannot be made as it stands."
    return None


def phrasing(domain: Domain) -> Phrasing:
    from engine.tofs.explanation import Phrasing

    return Phrasing(
        value=minutes,
        standing=standing,
        plain_standing=plain_standing,
        alternatives=("process", "processes"),
    )
