"""The planner's view of a design: ordered work lists, geometry, and the shop state.

A :class:`Prepared` design is computed once per run from a :class:`Design` and the
domain's constants: the order in which holes, features and components are worked through
(conventions 9 and 11), pin coordinates, the side-of-board test (convention 6) and the
drilling-tolerance table (convention 8).  Items are named by short ids -- ``P1`` for the
first plated through-hole in the input, ``H2``, ``M3``, ``Z4``, and ``Z4.2`` for that
component's second pin -- which keep task arguments small and hashable.

The :class:`Shop` state holds only what changes: whether the vertical machining center is
set up, and which drill bit and milling tools are installed (convention 10).  That is also
the whole cost-relevant state, which is what the transposition table keys on.

:data:`registry` holds what the knowledge in ``edaps.toml`` calls: the primitives that
read a design and the shop, and the effects of its operators, each a module-level function
registered where it is defined.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from engine.tofs import Domain, Problem, Registry, make_task

from .design import Component, Design, Hole, MillingFeature, PlatedThroughHole
from .single import f32

__all__ = ["Prepared", "Shop", "edaps_problem", "prepare", "registry"]

SLACK = 1e-9
Item = PlatedThroughHole | Hole | MillingFeature | Component


@dataclass(frozen=True)
class Pin:
    """A pin in board coordinates, with the component it belongs to."""

    component: str
    number: int
    x: float
    y: float
    ox: float  # printed (bullseye-relative, single precision)
    oy: float


@dataclass(eq=False)
class Prepared:
    design: Design
    items: dict[str, Item]
    pins: dict[str, Pin]
    pth_order: tuple[str, ...]
    feature_order: tuple[str, ...]
    paste_order: tuple[str, ...]
    place_order: tuple[str, ...]
    adhere_order: tuple[str, ...]
    hand_order: tuple[str, ...]
    side: dict[str, bool]
    printed_xy: dict[str, tuple[float, float]]
    finish_base: float
    finish_knee: float
    finish_slope: float
    rough_factor: float
    total_leads: int = 0
    constants: dict[str, Any] = field(default_factory=dict)

    def finish_min(self, item_id: str) -> float:
        """Smallest tolerance finish drilling achieves for this diameter (mils)."""
        d = self.items[item_id].diameter  # type: ignore[union-attr]
        return self.finish_base + max(0.0, d - self.finish_knee) * self.finish_slope

    def rough_min(self, item_id: str) -> float:
        return self.rough_factor * self.finish_min(item_id)


def _rotate(dx: float, dy: float, degrees: float) -> tuple[float, float]:
    if degrees == 0:
        return dx, dy
    a = math.radians(degrees)
    return dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a)


def touches_edge(m: MillingFeature, length: float, width: float) -> bool:
    """Convention 6: the feature's rotated rectangle touches or crosses the board outline."""
    corners = [(0.0, 0.0), (m.length, 0.0), (0.0, m.width), (m.length, m.width)]
    for cx, cy in corners:
        rx, ry = _rotate(cx, cy, m.rotation)
        x, y = m.x + rx, m.y + ry
        if x <= SLACK or y <= SLACK or x >= length - SLACK or y >= width - SLACK:
            return True
    return False


def _stable_desc(ids: list[str], key: dict[str, float]) -> tuple[str, ...]:
    return tuple(sorted(ids, key=lambda i: -key[i]))  # sorted() is stable


def prepare(design: Design, constants: dict[str, Any]) -> Prepared:
    """Work lists and geometry for one design (conventions 6, 8, 9, 11)."""
    bx, by = design.bullseye or (0.0, 0.0)
    bx32, by32 = f32(bx), f32(by)
    items: dict[str, Item] = {}
    printed: dict[str, tuple[float, float]] = {}
    groups: tuple[tuple[str, tuple[Item, ...]], ...] = (
        ("P", design.pths),
        ("H", design.holes),
        ("M", design.milling),
        ("Z", design.components),
    )
    for prefix, group in groups:
        for n, item in enumerate(group, 1):
            items[f"{prefix}{n}"] = item
            printed[f"{prefix}{n}"] = (
                f32(f32(item.x) - bx32),
                f32(f32(item.y) - by32),
            )
    pins: dict[str, Pin] = {}
    for n, comp in enumerate(design.components, 1):
        for k, pin in enumerate(comp.pins, 1):
            dx, dy = _rotate(pin.x, pin.y, comp.rotation)
            if comp.rotation == 0:
                ox = f32(f32(f32(comp.x) + f32(pin.x)) - bx32)
                oy = f32(f32(f32(comp.y) + f32(pin.y)) - by32)
            else:
                ox = f32(f32(comp.x + dx) - bx32)
                oy = f32(f32(comp.y + dy) - by32)
            pid = f"Z{n}.{k}"
            pins[pid] = Pin(f"Z{n}", k, comp.x + dx, comp.y + dy, ox, oy)
            printed[pid] = (ox, oy)
    pth_ids = [f"P{n}" for n in range(1, len(design.pths) + 1)]
    mill_ids = [f"M{n}" for n in range(1, len(design.milling) + 1)]
    hole_ids = [f"H{n}" for n in range(1, len(design.holes) + 1)]
    diam = {i: items[i].diameter for i in pth_ids + hole_ids}  # type: ignore[union-attr]
    radius = {i: items[i].corner_radius for i in mill_ids}  # type: ignore[union-attr]
    comps = [(f"Z{n}", c) for n, c in enumerate(design.components, 1)]
    machine = [cid for cid, c in comps if not c.hand_solder]
    pin_count = {cid: len(c.pins) for cid, c in comps}
    paste = tuple(f"{cid}.{k}" for cid in reversed(machine) for k in range(pin_count[cid], 0, -1))
    length, width = design.length or 0.0, design.width or 0.0
    return Prepared(
        design=design,
        items=items,
        pins=pins,
        pth_order=_stable_desc(pth_ids, diam),
        feature_order=_stable_desc(mill_ids, radius) + _stable_desc(hole_ids, diam),
        paste_order=paste,
        place_order=tuple(machine),
        adhere_order=tuple(cid for cid, c in comps if c.adhesion),
        hand_order=tuple(cid for cid, c in comps if c.hand_solder),
        side={i: touches_edge(items[i], length, width) for i in mill_ids},  # type: ignore[arg-type]
        printed_xy=printed,
        finish_base=float(constants["finish_drill_base_tol"]),
        finish_knee=float(constants["finish_drill_knee"]),
        finish_slope=float(constants["finish_drill_slope"]),
        rough_factor=float(constants["rough_drill_tol_factor"]),
        total_leads=sum(len(c.pins) for c in design.components),
        constants=dict(constants),
    )


@dataclass(frozen=True, slots=True, eq=False)
class Shop:
    """The state: the design (fixed) and what the shop floor has set up so far."""

    prep: Prepared
    vmc_setup: bool = False
    drill_bit: float | None = None
    end_tool: float | None = None
    slot_tool: float | None = None
    side_tool: float | None = None

    def key(self) -> tuple[Any, ...]:
        return (self.vmc_setup, self.drill_bit, self.end_tool, self.slot_tool, self.side_tool)


def _format_value(v: Any) -> str:
    """A value in an explanation: floats to four significant figures, as the shop reads them."""
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def describe_item(prep: Prepared, x: str) -> str:
    """An item in the dissertation's words: what it is and where (absolute coordinates)."""
    it = prep.items.get(x)
    if it is None:
        return x
    at = f"({f32(it.x):.2f}, {f32(it.y):.2f})"
    if isinstance(it, PlatedThroughHole):
        return f"the plated through-hole of diameter {it.diameter:.4f} at {at}"
    if isinstance(it, Hole):
        kind = "tapped hole" if it.tapped else "hole"
        return f"the {kind} of diameter {it.diameter:.4f} at {at}"
    if isinstance(it, MillingFeature):
        return f"the milling feature at {at}"
    return f"component {it.part} at {at}"


# ----------------------------------------------------------------- the registry
# The primitives the knowledge calls and the effects its operators name, each a
# module-level function registered where it is defined (as bridge's network.py does), so
# that each can be read, imported and tested on its own.

registry = Registry("edaps")
# The design critique reads these.
registry.constant("end_mill_min_tol", float, minimum=0)
registry.constant("slot_mill_min_tol", float, minimum=0)
registry.constant("side_mill_min_tol", float, minimum=0)


def _item(s: Shop, x: str) -> Any:
    """The design item ``x`` names (a hole, feature or component)."""
    return s.prep.items[x]


# --- work lists (cursors are task arguments) ---
@registry.primitive
def n_pths(s: Shop) -> int:
    """Number of plated through-holes."""
    return len(s.prep.pth_order)


@registry.primitive
def pth(s: Shop, i: int) -> str:
    """The i-th plated through-hole in drilling order (largest diameter first)."""
    return s.prep.pth_order[i]


@registry.primitive
def n_features(s: Shop) -> int:
    """Number of mechanical features (milling features and holes)."""
    return len(s.prep.feature_order)


@registry.primitive
def feature(s: Shop, i: int) -> str:
    """The i-th feature in making order: milling features first, then holes."""
    return s.prep.feature_order[i]


@registry.primitive
def n_paste(s: Shop) -> int:
    """Number of solder-paste locations (pins of machine-soldered components)."""
    return len(s.prep.paste_order)


@registry.primitive
def paste(s: Shop, i: int) -> str:
    """The i-th solder-paste location."""
    return s.prep.paste_order[i]


@registry.primitive
def n_place(s: Shop) -> int:
    """Number of components to pick and place (those not hand-soldered)."""
    return len(s.prep.place_order)


@registry.primitive
def place(s: Shop, i: int) -> str:
    """The i-th component to pick and place."""
    return s.prep.place_order[i]


@registry.primitive
def n_adhere(s: Shop) -> int:
    """Number of components that need adhesive."""
    return len(s.prep.adhere_order)


@registry.primitive
def adhere(s: Shop, i: int) -> str:
    """The i-th component to adhere."""
    return s.prep.adhere_order[i]


@registry.primitive
def n_hand(s: Shop) -> int:
    """Number of components to hand-solder."""
    return len(s.prep.hand_order)


@registry.primitive
def hand(s: Shop, i: int) -> str:
    """The i-th component to hand-solder."""
    return s.prep.hand_order[i]


# --- features ---
@registry.primitive
def is_milling(s: Shop, x: str) -> bool:
    """Whether the feature is a milling feature (slot or pocket)."""
    return x.startswith("M")


@registry.primitive
def is_hole(s: Shop, x: str) -> bool:
    """Whether the feature is a drilled hole (not a milling feature)."""
    return x.startswith("H")


@registry.primitive
def is_pth(s: Shop, x: str) -> bool:
    """Whether the hole is a plated through-hole."""
    return x.startswith("P")


@registry.primitive
def is_tapped(s: Shop, x: str) -> bool:
    """Whether the hole is tapped."""
    return x.startswith("H") and _item(s, x).tapped


@registry.primitive
def is_plain(s: Shop, x: str) -> bool:
    """Whether the hole is an ordinary hole: not plated, not tapped."""
    return x.startswith("H") and not _item(s, x).tapped


@registry.primitive
def tol(s: Shop, x: str) -> float:
    """The feature's dimensional tolerance, in mils."""
    return _item(s, x).tolerance


@registry.primitive
def diameter(s: Shop, x: str) -> float:
    """The hole's diameter, in inches."""
    return _item(s, x).diameter


@registry.primitive
def depth(s: Shop, x: str) -> float:
    """The feature's depth, in inches."""
    return _item(s, x).depth


@registry.primitive
def radius(s: Shop, x: str) -> float:
    """The milling feature's corner radius, in inches (also the tool size)."""
    return _item(s, x).corner_radius


@registry.primitive
def length(s: Shop, x: str) -> float:
    """The milling feature's length, in inches."""
    return _item(s, x).length


@registry.primitive
def width(s: Shop, x: str) -> float:
    """The milling feature's width, in inches."""
    return _item(s, x).width


@registry.primitive
def threads(s: Shop, x: str) -> float:
    """Threads per inch of a tapped hole."""
    return _item(s, x).threads_per_inch


@registry.primitive
def on_side(s: Shop, x: str) -> bool:
    """Whether the milling feature touches or crosses the edge of the board."""
    return s.prep.side[x]


@registry.primitive
def finish_min(s: Shop, x: str) -> float:
    """Smallest tolerance finish drilling achieves for this hole's diameter (mils)."""
    return s.prep.finish_min(x)


@registry.primitive
def rough_min(s: Shop, x: str) -> float:
    """Smallest tolerance rough drilling achieves for this hole's diameter (mils)."""
    return s.prep.rough_min(x)


@registry.primitive
def describe(s: Shop, x: str) -> str:
    """The feature in words, with its absolute location."""
    return describe_item(s.prep, x)


# --- components ---
@registry.primitive
def part(s: Shop, c: str) -> str:
    """The component's part name."""
    return _item(s, c).part


@registry.primitive
def leads(s: Shop, c: str) -> int:
    """Number of leads (pins) of the component."""
    return len(_item(s, c).pins)


@registry.primitive
def preformed(s: Shop, c: str) -> bool:
    """Whether the component's leads are preformed."""
    return _item(s, c).preformed


@registry.primitive
def total_leads(s: Shop) -> int:
    """Leads of every component on the board."""
    return s.prep.total_leads


@registry.primitive
def all_immersible(s: Shop) -> bool:
    """Whether every component may be immersed; the input cannot say so (convention 7)."""
    return False


@registry.primitive
def any_integrated_circuit(s: Shop) -> bool:
    """Whether any component is an integrated circuit; none is (convention 7)."""
    return False


# --- board ---
@registry.primitive
def board_length(s: Shop) -> float | None:
    """Board length (along x), inches."""
    return s.prep.design.length


@registry.primitive
def board_width(s: Shop) -> float | None:
    """Board width (along y), inches."""
    return s.prep.design.width


@registry.primitive
def min_gap(s: Shop) -> float | None:
    """Smallest coupler gap in the artwork, inches."""
    return s.prep.design.min_gap


@registry.primitive
def plating_width(s: Shop) -> float:
    """Plating width of the through-holes, inches."""
    return s.prep.design.plating_width or 0.0


@registry.primitive
def trace_thickness(s: Shop) -> float | None:
    """Thickness of the transmission lines, inches."""
    return s.prep.design.trace_thickness


@registry.primitive
def artwork_file(s: Shop) -> str:
    """The artwork (IGES) file the phototool is made from."""
    return s.prep.design.artwork_file or ""


# --- shop state ---
@registry.primitive
def vmc_setup(s: Shop) -> bool:
    """Whether the vertical machining center is oriented, clamped and datumed."""
    return s.vmc_setup


@registry.primitive
def drill_bit(s: Shop) -> float | None:
    """Diameter of the drill bit installed, or None."""
    return s.drill_bit


@registry.primitive
def end_tool(s: Shop) -> float | None:
    """Size of the end-milling tool installed, or None."""
    return s.end_tool


@registry.primitive
def slot_tool(s: Shop) -> float | None:
    """Size of the slot-milling tool installed, or None."""
    return s.slot_tool


@registry.primitive
def side_tool(s: Shop) -> float | None:
    """Size of the side-milling tool installed, or None."""
    return s.side_tool


# --- printing ---
@registry.primitive
def xo(s: Shop, x: str) -> float:
    """x relative to the bullseye, as the shop floor reads it (single precision)."""
    return s.prep.printed_xy[x][0]


@registry.primitive
def yo(s: Shop, x: str) -> float:
    """y relative to the bullseye, as the shop floor reads it (single precision)."""
    return s.prep.printed_xy[x][1]


@registry.primitive
def bullseye_x(s: Shop) -> float:
    """The bullseye's x, as printed."""
    return f32((s.prep.design.bullseye or (0.0, 0.0))[0])


@registry.primitive
def bullseye_y(s: Shop) -> float:
    """The bullseye's y, as printed."""
    return f32((s.prep.design.bullseye or (0.0, 0.0))[1])


registry.primitive(f32, name="printed", uses_state=False)
registry.primitive(math.sqrt, name="sqrt", uses_state=False)


# --- effects ---
@registry.effect
def establish_datum(s: Shop, *_: Any) -> Shop:
    return Shop(s.prep, True, s.drill_bit, s.end_tool, s.slot_tool, s.side_tool)


@registry.effect
def leave_vmc(s: Shop, *_: Any) -> Shop:
    """Any operation away from the machining center: it is no longer set up."""
    if not s.vmc_setup:
        return s
    return Shop(s.prep, False, s.drill_bit, s.end_tool, s.slot_tool, s.side_tool)


@registry.effect
def install_drill_bit(s: Shop, h: str) -> Shop:
    return Shop(s.prep, s.vmc_setup, _item(s, h).diameter, s.end_tool, s.slot_tool, s.side_tool)


@registry.effect
def install_end_tool(s: Shop, f: str) -> Shop:
    return Shop(
        s.prep, s.vmc_setup, s.drill_bit, _item(s, f).corner_radius, s.slot_tool, s.side_tool
    )


@registry.effect
def install_slot_tool(s: Shop, f: str) -> Shop:
    return Shop(
        s.prep, s.vmc_setup, s.drill_bit, s.end_tool, _item(s, f).corner_radius, s.side_tool
    )


@registry.effect
def install_side_tool(s: Shop, f: str) -> Shop:
    return Shop(
        s.prep, s.vmc_setup, s.drill_bit, s.end_tool, s.slot_tool, _item(s, f).corner_radius
    )


registry.hook("state_key")(Shop.key)
registry.hook("format_value")(_format_value)


def edaps_problem(domain: Domain, design: Design) -> Problem:
    """The planning problem for one design: make the board, from an empty shop."""
    prep = prepare(design, dict(domain.constants))
    # The dissertation stops at the first task no method can do (an unmanufacturable
    # feature), and the design's own N command switches the partial plan pruner off.
    return Problem(
        design.name,
        Shop(prep),
        (make_task(domain, "MakeBoard"),),
        mode="optimise",
        description=f"Process plan for {design.name}",
        options={"abort_on_dead_end": True, "partial_plan_prune": design.prune},
    )
