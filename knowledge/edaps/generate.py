"""Designs built from others, for stress tests and benchmarks.

``stuck_together`` is how the dissertation built URM1-URM3 from RM1 (and URM4-6 from RM2):
copies placed side by side along x, the board length multiplied; features on a joined edge
are no longer on the side of the board, so they lose side-milling (convention 13).
``pocket_field`` makes boards with many milling features whose tolerance allows several
milling methods, the case that made the dissertation's search explode.
"""

from __future__ import annotations

from .design import Component, Design, Hole, MillingFeature, PlatedThroughHole

__all__ = ["pocket_field", "stuck_together"]


def stuck_together(design: Design, copies: int, name: str | None = None) -> Design:
    """``copies`` copies of ``design`` side by side along x (URMk is k+1 copies of RM1)."""
    if copies < 1:
        raise ValueError("at least one copy")
    length = design.length or 0.0

    def shifted(items: tuple, k: int) -> list:
        return [item.model_copy(update={"x": item.x + k * length, "line": None}) for item in items]

    pths: list[PlatedThroughHole] = []
    holes: list[Hole] = []
    milling: list[MillingFeature] = []
    components: list[Component] = []
    for k in range(copies):
        pths += shifted(design.pths, k)
        holes += shifted(design.holes, k)
        milling += shifted(design.milling, k)
        components += shifted(design.components, k)
    order = (
        [("D", 0)]
        + [(c, i) for c in "IOWBFGR" for i in [0]]
        + [("P", i) for i in range(len(pths))]
        + [("H", i) for i in range(len(holes))]
        + [("M", i) for i in range(len(milling))]
        + [("Z", i) for i in range(len(components))]
    )
    return design.model_copy(
        update={
            "name": name or f"{design.name}x{copies}",
            "length": length * copies,
            "pths": tuple(pths),
            "holes": tuple(holes),
            "milling": tuple(milling),
            "components": tuple(components),
            "order": tuple(order),
        }
    )


def pocket_field(
    base: Design,
    pockets: int,
    *,
    tolerance: float = 5.0,
    radii: tuple[float, ...] = (0.075, 0.1, 0.125),
    name: str | None = None,
) -> Design:
    """``base`` with ``pockets`` extra 5-mil pockets: alternating along the left edge (end,
    slot and side milling all apply: 3 ways) and inside the board (end or slot: 2 ways),
    cycling through ``radii`` so that tool changes matter."""
    width = base.width or 6.0
    length = base.length or 4.0
    extra: list[MillingFeature] = []
    for n in range(pockets):
        on_edge = n % 2 == 0
        x = 0.0 if on_edge else 0.5 + (n // 2) % max(1, int(length - 1)) * 0.8
        y = 0.3 + (n * 0.37) % (width - 0.8)
        extra.append(
            MillingFeature(
                x=x,
                y=y,
                rotation=0.0,
                depth=0.05,
                length=0.4,
                width=0.3,
                corner_radius=radii[n % len(radii)],
                tolerance=tolerance,
            )
        )
    milling = base.milling + tuple(extra)
    return base.model_copy(
        update={
            "name": name or f"{base.name}+{pockets}pockets",
            "milling": milling,
            "order": base.order + tuple(("M", len(base.milling) + i) for i in range(pockets)),
        }
    )
