"""The search package's seams: its public names where callers import them, the one cost
tolerance, and method labels that are errors when broken instead of quietly left open."""

from __future__ import annotations

import pytest

import engine.tofs
import engine.tofs.search
from engine.tofs import (
    Domain,
    DomainSpec,
    EvaluationError,
    MethodDef,
    OperatorDef,
    Problem,
    Reason,
    Registry,
    SearchOptions,
    TaskDef,
    compile_domain,
    plan,
)
from engine.tofs.domain import make_task
from engine.tofs.search.records import close, slack

PUBLIC = [
    "SearchOptions",
    "CancelToken",
    "Progress",
    "Mode",
    "EvaluationError",
    "SearchStopped",
    "Watch",
    "watching",
    "checkpoint",
    "plan",
    "resident_mb",
]


@pytest.mark.parametrize("name", PUBLIC)
def test_public_names_stay_where_callers_import_them(name: str) -> None:
    assert name in engine.tofs.search.__all__ and name in engine.tofs.__all__
    assert getattr(engine.tofs.search, name) is getattr(engine.tofs, name)


def test_the_tolerance_is_relative_and_ties_rounding_only() -> None:
    assert close(0.1 + 0.2, 0.3)  # rounding: a tie
    assert close(1e12 + 1e-3, 1e12)  # relative to the size of the costs
    assert not close(1.0, 1.0 + 1e-6)
    assert slack(0.0) == slack(1.0) == 1e-9  # never below the absolute floor
    assert slack(-5e9) == pytest.approx(5.0)


def _domain(label: str, bindings: list[str] | None = None) -> tuple[Domain, Problem]:
    reg = Registry("labels")

    @reg.primitive
    def broken(state: int) -> int:
        raise ValueError("this label's field is broken")

    @reg.primitive
    def nothing(state: int) -> list[int]:
        return []

    @reg.effect
    def step(state: int, d: int) -> int:
        return state + d

    methods = [
        MethodDef(name="Cheap", task="Root", operator="Go(1)", label="cheap"),
        MethodDef(
            name="Labelled", task="Root", operator="Go(2)", label=label, bindings=bindings or []
        ),
    ]
    ops = [OperatorDef(name="Go", params=["d"], effect="step", costs={"run": "d"})]
    spec = DomainSpec(name="labels", tasks=[TaskDef(name="Root")], methods=methods, operators=ops)
    domain = compile_domain(spec, reg)
    return domain, Problem("p", 0, (make_task(domain, "Root"),))


def test_a_label_whose_field_raises_is_an_error_naming_its_method() -> None:
    domain, problem = _domain("go by {broken()}")
    with pytest.raises(EvaluationError) as caught:
        plan(domain, problem, SearchOptions(full_tree=True))
    message = str(caught.value)
    assert "method Root.Labelled" in message and "[label]" in message
    assert "this label's field is broken" in message


def test_a_method_with_no_binding_keeps_its_label_with_open_fields() -> None:
    domain, problem = _domain("go with {x}", bindings=["x in nothing()"])
    r = plan(domain, problem, SearchOptions(full_tree=True, record_failed_alternatives=True))
    (cp,) = r.choice_points
    unbound = next(a for a in cp.alternatives if a.method == "Labelled")
    assert unbound.reason is Reason.NO_BINDING
    assert unbound.title == "go with …"
