"""EDAPS registers its primitives and effects as bridge does: each a module-level function
of ``knowledge/edaps/shop.py``, registered where it is defined (not closures made inside a
function), so each can be imported, read and tested on its own."""

from __future__ import annotations

import math

from engine.tofs.expressions import STANDARD_PRIMITIVES
from knowledge.edaps import shop
from knowledge.edaps.design import Design, MillingFeature


def test_every_primitive_and_effect_is_a_function_of_the_module() -> None:
    registry = shop.registry
    own = {k: p for k, p in registry.primitives.items() if k not in STANDARD_PRIMITIVES}
    borrowed = {"printed": shop.f32, "sqrt": math.sqrt}
    assert len(own) == 51
    for name, primitive in own.items():
        fn = borrowed.get(name) or getattr(shop, name)
        assert primitive.fn is fn, name
        assert "<locals>" not in fn.__qualname__, name
    assert len(registry.effects) == 6
    for name, fn in registry.effects.items():
        assert getattr(shop, name) is fn and fn.__qualname__ == name


def test_a_primitive_can_be_called_on_its_own() -> None:
    feature = MillingFeature(
        x=0.0,
        y=0.1,
        rotation=0.0,
        depth=0.02,
        length=0.2,
        width=0.05,
        corner_radius=0.01,
        tolerance=1.0,
    )
    design = Design(name="T", length=1.0, width=1.0, milling=(feature,))
    constants = {
        "finish_drill_base_tol": 1.0,
        "finish_drill_knee": 0.1,
        "finish_drill_slope": 2.0,
        "rough_drill_tol_factor": 2.0,
    }
    state = shop.Shop(shop.prepare(design, constants))
    assert shop.on_side(state, "M1") is True
    assert shop.radius(state, "M1") == 0.01
    assert shop.install_end_tool(state, "M1").end_tool == 0.01
    assert shop.n_features(state) == 1 and shop.feature(state, 0) == "M1"
