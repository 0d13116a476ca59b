"""Design critique: every feature that cannot be made, what is wrong, and the best possible.

The dissertation stops at the first unmanufacturable feature it meets depth-first.  Here
each plated through-hole and feature is planned on its own (``SetupAndDrill(P)`` or
``MakeFeature(F)`` from an empty shop) with the same knowledge base, so the verdict always
agrees with the planner; a feature whose task is a dead end is reported in the
dissertation's words, with the requested value and the best the shop can achieve.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.tofs import Domain, Outcome, Problem, RunResult, SearchOptions, make_task, plan

from .design import Hole, MillingFeature, PlatedThroughHole
from .shop import Prepared, Shop
from .single import f32

__all__ = ["Diagnostic", "critique", "error_text", "findings"]


@dataclass(frozen=True)
class Diagnostic:
    """One unmanufacturable feature."""

    feature: str  # item id, e.g. "H5"
    kind: str  # "hole", "tapped hole", "plated through-hole", "milling feature"
    x: float
    y: float
    line: int | None
    message: str  # the dissertation's wording (possibly several lines)
    requested: float
    achievable: float | None
    quantity: str  # what requested/achievable measure: "tolerance (mils)", "corner radius (in)"
    what: str = ""  # the feature in words: "the hole of diameter 0.15 in at (0.20, 2.40)"
    strict: bool = False  # the achievable bound itself is not enough (milling: "above")

    def advice(self) -> str:
        """The diagnostic as an engineer says it: what is asked, what is achievable, and
        what to change on the design."""
        what = self.what or f"the {self.kind} at ({f32(self.x):.2f}, {f32(self.y):.2f})"
        if self.achievable is None:
            return (
                f"{what[:1].upper()}{what[1:]} has no corner radius, and every milling tool "
                "leaves one: give it a corner radius (the tool's size)."
            )
        if self.strict:
            best = f"every milling method needs more than {self.achievable:.2f} mils"
            change = f"more than {self.achievable:.2f} mils"
        else:
            best = f"the tightest the shop can hold on it is {self.achievable:.2f} mils"
            change = f"{self.achievable:.2f} mils or more"
        return (
            f"{what[:1].upper()}{what[1:]} asks for a tolerance of {self.requested:.2f} "
            f"mils; {best}. Loosen its tolerance to {change}."
        )

    def to_dict(self) -> dict[str, object]:
        return {
            "feature": self.feature,
            "kind": self.kind,
            "x": self.x,
            "y": self.y,
            "line": self.line,
            "message": self.message,
            "requested": self.requested,
            "achievable": self.achievable,
            "quantity": self.quantity,
        }


def _hole_diagnostic(prep: Prepared, x: str, item: Hole | PlatedThroughHole) -> Diagnostic:
    kind = (
        "plated through-hole"
        if isinstance(item, PlatedThroughHole)
        else "tapped hole"
        if item.tapped
        else "hole"
    )
    best = prep.finish_min(x)
    where = f"({f32(item.x):.2f}, {f32(item.y):.2f})"
    message = (
        f"Tolerance of {item.tolerance:.4f} mils is not achievable\n"
        f"for the {kind} of diameter {item.diameter:.4f} at {where}.\n"
        f"Smallest achievable tolerance for a {kind} of diameter {item.diameter:.4f}\n"
        f"is {best:.4f} mils."
    )
    return Diagnostic(
        x,
        kind,
        item.x,
        item.y,
        item.line,
        message,
        item.tolerance,
        best,
        "tolerance (mils)",
        f"the {kind} of diameter {item.diameter:.2f} in at {where}",
    )


def _milling_diagnostic(prep: Prepared, x: str, item: MillingFeature, domain: Domain) -> Diagnostic:
    where = f"({f32(item.x):.2f}, {f32(item.y):.2f})"
    if item.corner_radius <= 0:
        message = (
            f"The milling feature at {where} has no corner radius.\n"
            "A milling feature must have a corner radius to be milled."
        )
        return Diagnostic(
            x,
            "milling feature",
            item.x,
            item.y,
            item.line,
            message,
            item.corner_radius,
            None,
            "corner radius (in)",
            f"the milling feature at {where}",
        )
    limit = min(
        float(domain.constant("end_mill_min_tol")), float(domain.constant("slot_mill_min_tol"))
    )
    if prep.side[x]:
        limit = min(limit, float(domain.constant("side_mill_min_tol")))
    message = (
        f"Tolerance of {item.tolerance:.4f} mils is not achievable\n"
        f"for the milling feature at {where}.\n"
        f"Every milling method needs a tolerance above {limit:.4f} mils."
    )
    return Diagnostic(
        x,
        "milling feature",
        item.x,
        item.y,
        item.line,
        message,
        item.tolerance,
        limit,
        "tolerance (mils)",
        f"the milling feature at {where}",
        strict=True,
    )


def critique(domain: Domain, problem: Problem) -> list[Diagnostic]:
    """Every plated through-hole and feature that no method can make, in making order."""
    state = problem.state
    assert isinstance(state, Shop)
    prep = state.prep
    fresh = Shop(prep)
    out: list[Diagnostic] = []
    for x, task in [(p, "SetupAndDrill") for p in prep.pth_order] + [
        (f, "MakeFeature") for f in prep.feature_order
    ]:
        sub = Problem(f"{problem.name}:{x}", fresh, (make_task(domain, task, x),))
        result = plan(
            domain,
            sub,
            SearchOptions(mode="first", abort_on_dead_end=True, partial_plan_prune=False),
        )
        if result.found:
            continue
        item = prep.items[x]
        if isinstance(item, MillingFeature):
            out.append(_milling_diagnostic(prep, x, item, domain))
        else:
            out.append(_hole_diagnostic(prep, x, item))  # type: ignore[arg-type]
    return out


def error_text(diagnostics: list[Diagnostic]) -> str:
    """The dissertation's error message, once per unmanufacturable feature."""
    return "\n".join(f"ERROR: {d.message}" for d in diagnostics)


def findings(domain: Domain, problem: Problem, result: RunResult) -> list[str]:
    """The reader's view's findings for a run: every feature that cannot be made, in the
    engineer's words -- only once the whole tree was searched (a budget proves nothing)."""
    if result.outcome is not Outcome.NO_PLAN:
        return []
    return [d.advice() for d in critique(domain, problem)]
