"""A broken label or description template is an error with its task, method or operator.

Templates used to be filled in under ``except Exception: pass``: a label naming a field the
method does not have, or a primitive that raised, silently became ``Name(args)`` (or lost
the bridge play log's note), and a knowledge engineer never learnt the label never showed.
Now a template that cannot work is refused when the domain is compiled (a
:class:`DomainError` naming the method and its ``label``), and one that fails while filled
in raises a :class:`EvaluationError` naming its owner.  Only the one case that is no error
keeps its fallback: a template that reads the state, asked for without one.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.tofs import (
    DomainError,
    DomainSpec,
    MethodDef,
    OperatorDef,
    Problem,
    Registry,
    TaskDef,
    compile_domain,
    load_domain_file,
    plan,
)
from engine.tofs.domain import EvaluationError, make_task


def _registry() -> Registry:
    reg = Registry("labels")

    @reg.primitive
    def lookup(state: tuple[tuple[str, str], ...], key: str) -> str:
        """A name in the state (key-value pairs): a KeyError for a key it does not hold."""
        return dict(state)[key]

    return reg


def _spec(
    task_label: str = "", method_label: str = "", description: str = "", state_label: str = ""
) -> DomainSpec:
    return DomainSpec(
        name="labels",
        tasks=[
            TaskDef(name="Root", params=["k"], label=task_label or state_label),
        ],
        methods=[
            MethodDef(name="Go", task="Root", label=method_label, operator="Do(k)"),
            MethodDef(name="Also", task="Root", operator="Do(k)"),
        ],
        operators=[OperatorDef(name="Do", params=["k"], description=description)],
    )


def test_a_method_label_naming_an_unknown_field_is_refused_with_its_method() -> None:
    with pytest.raises(DomainError) as info:
        compile_domain(_spec(method_label="Go to {destination}"), _registry())
    (problem,) = info.value.problems
    assert problem.where == "method Root.Go" and problem.field == "label"
    assert "in template field {destination}: unknown name 'destination'" in str(problem)


def test_a_task_label_or_description_naming_an_unknown_field_is_refused() -> None:
    with pytest.raises(DomainError) as info:
        compile_domain(_spec(task_label="Root {x}", description="Do {y}"), _registry())
    found = {(p.where, p.field) for p in info.value.problems}
    assert found == {("task Root", "label"), ("operator Do", "description")}


def test_a_format_spec_no_value_takes_is_refused_when_compiled() -> None:
    with pytest.raises(DomainError) as info:
        compile_domain(_spec(method_label="Go {k:q}"), _registry())
    (problem,) = info.value.problems
    assert (problem.where, problem.field) == ("method Root.Go", "label")
    assert "'q' is not a format spec" in problem.message
    # A spec some value takes compiles: whether it fits is known only when it is filled in.
    compile_domain(_spec(method_label="Go {k:>4}", description="Do {k:.2f}"), _registry())


def test_a_task_label_that_raises_in_a_run_names_the_task() -> None:
    domain = compile_domain(_spec(task_label="Root {lookup(k)}"), _registry())
    problem = Problem("p", (("a", "alpha"),), (make_task(domain, "Root", "b"),))
    with pytest.raises(EvaluationError) as info:
        plan(domain, problem)
    assert str(info.value) == ("task Root(b) [label]: `Root {lookup(k)}` raised KeyError: 'b'")
    assert isinstance(info.value, ValueError)  # reported as bad input, exit 1
    # The same label fills in where the state holds the key.
    assert domain.task_label(("Root", ("a",)), (("a", "alpha"),)) == "Root alpha"


def test_a_description_whose_format_does_not_fit_its_value_names_the_operator() -> None:
    domain = compile_domain(_spec(description="Do {k:.2f}"), _registry())
    with pytest.raises(EvaluationError) as info:
        domain.operator_description("Do", ("b",), (("b", "x"),))
    assert str(info.value).startswith("operator Do(b) [description]: `Do {k:.2f}` raised")
    assert domain.operator_description("Do", (2,), ()) == "Do 2.00"


def test_a_label_that_reads_the_state_asked_for_without_one_is_its_call_text() -> None:
    """A choice point's heading names its task apart from a state: no error, Name(args)."""
    domain = compile_domain(_spec(state_label="Root {lookup(k)}"), _registry())
    assert domain.task_label(("Root", ("b",))) == "Root(b)"
    assert domain.operator_description("Do", ("b",)) == "Do(b)"


def test_a_bridge_scheme_label_that_raises_at_the_play_names_its_method() -> None:
    """The play log's note is the scheme's label filled in at the play: a label that
    fails there was a note lost without a word; now it is an error with its method."""
    from knowledge.bridge.cards import Seat
    from knowledge.bridge.deal import Contract, Deal, PlayState
    from knowledge.bridge.information import declarer_info
    from knowledge.bridge.network import registry
    from knowledge.bridge.position import Table, position_of
    from knowledge.bridge.tofs_player import SOURCE, TofsDeclarer

    spec = load_domain_file(SOURCE)
    methods = [
        m.model_copy(update={"label": "Set up a {suit_word(9)} ruff"})
        if m.name == "SetUpRuff"
        else m
        for m in spec.methods
    ]
    domain = compile_domain(spec.model_copy(update={"methods": methods}), registry)
    deal = Deal.from_pbn("N:AJ63.Q952.954.75 74.KJ6.KQT.A8643 Q92.T4.A73.QJT92 KT85.A873.J862.K")
    state = PlayState.start(deal, Contract.parse("4S"), Seat.S)
    pos = position_of(declarer_info(state), Table(Contract.parse("4S"), int(Seat.S), True))
    player: Any = TofsDeclarer(domain=domain)
    card = next(iter(state.legal_plays()))
    with pytest.raises(EvaluationError) as info:
        player._method_label("SetUpRuff", int(state.turn), (("C", card),), pos)
    assert str(info.value).startswith(
        "method Play.SetUpRuff [label]: `Set up a {suit_word(9)} ruff` raised IndexError"
    )
    # The shipped label fills in as before.
    shipped: Any = TofsDeclarer()
    said = shipped._method_label("SetUpRuff", int(state.turn), (("C", card),), pos)
    assert said.startswith("Set up a ") and said.endswith(" ruff")
