"""The design of a microwave module, as the planner input language describes it.

Lengths are inches and tolerances mils, as in the dissertation (Smith 1997, §6.4.2).
Coordinates are absolute board coordinates; the shop-floor output prints them relative to
the bullseye.  Every item keeps the line it came from so that messages can point at it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "COMPONENT_TYPES",
    "HARDWARE_TYPES",
    "Component",
    "Counterbore",
    "Design",
    "Hole",
    "MillingFeature",
    "Pin",
    "PlatedThroughHole",
]

COMPONENT_TYPES = {
    1: "resistor",
    2: "capacitor",
    3: "transistor",
    4: "inductor",
    5: "FET",
    6: "diode",
}
HARDWARE_TYPES = {1: "none", 2: "screwed"}


class _Item(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    line: int | None = Field(default=None, description="line of the input file, for messages")


class PlatedThroughHole(_Item):
    """`P x y depth diameter tolerance` -- a via, plated like the artwork."""

    x: float
    y: float
    depth: float
    diameter: float
    tolerance: float  # mils


class Counterbore(_Item):
    """`C O depth diameter` (conical) or `C Y depth diameter` (cylindrical)."""

    kind: Literal["conical", "cylindrical"]
    depth: float
    diameter: float


class Hole(_Item):
    """`H x y depth diameter tolerance`, optionally tapped (`T`) and counterbored (`C`)."""

    x: float
    y: float
    depth: float
    diameter: float
    tolerance: float  # mils
    threads_per_inch: float | None = None
    counterbore: Counterbore | None = None

    @property
    def tapped(self) -> bool:
        return self.threads_per_inch is not None


class MillingFeature(_Item):
    """`M x y rotation depth length width corner-radius tolerance`.

    (x, y) is a reference corner; the rectangle is rotated counter-clockwise about it by
    ``rotation`` degrees, with length along the rotated x axis and width along rotated y.
    """

    x: float
    y: float
    rotation: float  # degrees
    depth: float
    length: float
    width: float
    corner_radius: float
    tolerance: float  # mils


class Pin(_Item):
    """`Y x y` -- a pin of the preceding component, relative to it at orientation 0."""

    x: float
    y: float


class Component(_Item):
    """`Z x y rotation dimx dimy dimz type hardware part preformed auto adhesion hand`."""

    x: float
    y: float
    rotation: float  # degrees
    dimx: float
    dimy: float
    dimz: float
    type: int
    hardware: int
    part: str
    preformed: bool
    auto_insert: bool
    adhesion: bool
    hand_solder: bool
    pins: tuple[Pin, ...] = ()


EchoItem = tuple[str, int]
"""(command letter, index into that command's list) in file order, for the echo."""


class Design(BaseModel):
    """A whole planner input file."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = "design"
    length: float | None = None  # D: along x
    width: float | None = None  # D: along y
    thickness: float | None = None  # D: depth
    dielectric: str | None = None  # I
    resistivity: float | None = None  # O
    plating_width: float | None = None  # W
    bullseye: tuple[float, float] | None = None  # B
    artwork_file: str | None = None  # F
    min_gap: float | None = None  # G, inches
    trace_thickness: float | None = None  # R
    pths: tuple[PlatedThroughHole, ...] = ()
    holes: tuple[Hole, ...] = ()
    milling: tuple[MillingFeature, ...] = ()
    components: tuple[Component, ...] = ()
    echo: bool = True  # E switches it off
    prune: bool = True  # N switches the partial plan pruner off
    order: tuple[EchoItem, ...] = ()  # file order of the commands, for the echo
