"""Renaming knowledge items: the item and every reference change together, as one
revision the store validates and can undo; a rename that cannot be made changes nothing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.tofs import SearchOptions, plan
from engine.tofs.source import load_domain_file
from knowledge import get_package
from workbench.kb import EditRejected
from workbench.kb.catalog import open_store
from workbench.kb.rename import rewrite_callee, rewrite_names


@pytest.fixture
def store(tmp_path):
    s = open_store(tmp_path / "kb.db")
    yield s
    s.close()


def test_names_are_rewritten_as_tokens_only() -> None:
    assert rewrite_names("gap * 2 + gap_width", "gap", "min_gap") == "min_gap * 2 + gap_width"
    assert rewrite_names("f(gap, 'gap') and x.gap", "gap", "g") == "f(g, 'gap') and x.gap"
    assert rewrite_names("min_gap( > gap", "gap", "g") == "min_gap( > gap"  # unreadable: kept
    assert rewrite_callee("Mill(M, gap)", "Mill", "MillIt") == "MillIt(M, gap)"
    assert rewrite_callee("MillAll(M)", "Mill", "X") == "MillAll(M)"


@given(
    st.lists(st.sampled_from(["a", "ab", "b", " ", "+", "(", ")", "1", "'a'", "."]), max_size=12)
)
def test_renaming_there_and_back_is_the_identity(parts: list[str]) -> None:
    text = "".join(parts)
    there = rewrite_names(text, "a", "zz_fresh")
    assert "zz_fresh" not in text and rewrite_names(there, "zz_fresh", "a") == text


def _lead_time(store) -> float:
    domain, problem = get_package("edaps").problem("RM1", store.load("edaps"))
    result = plan(domain, problem, SearchOptions(**{**problem.options, "mode": problem.mode}))
    assert result.value is not None
    return result.value


def test_renaming_a_constant_rewrites_every_expression(store) -> None:
    base = store.revision("edaps")
    before = store.load("edaps")
    users = [m.name for m in before.methods if "paint_min_gap" in m.precondition]
    assert users
    rev = store.rename("edaps", "constant", "paint_min_gap", "paint_gap", base=base)
    after = store.load("edaps")
    assert rev.action == "rename" and store.revision("edaps") == rev.id
    assert "paint_min_gap" not in store.export("edaps")
    assert [m.name for m in after.methods if "paint_gap" in m.precondition] == users
    assert _lead_time(store) == pytest.approx(642.33, abs=0.005)  # same knowledge
    store.undo("edaps")
    assert store.load("edaps") == before


def test_renaming_a_task_rewrites_methods_calls_and_roots(store) -> None:
    before = store.load("edaps")
    callers = [
        m.name
        for m in before.methods
        if m.subtasks
        and any(c.startswith("ApplyPhotoresist(") or c == "ApplyPhotoresist" for c in m.subtasks)
    ]
    assert callers
    store.rename(
        "edaps", "task", "ApplyPhotoresist", "CoatPhotoresist", base=store.revision("edaps")
    )
    after = store.load("edaps")
    assert {m.name for m in after.methods if m.task == "CoatPhotoresist"} == {
        m.name for m in before.methods if m.task == "ApplyPhotoresist"
    }
    assert not any(m.task == "ApplyPhotoresist" for m in after.methods)
    assert all("ApplyPhotoresist" not in c for m in after.methods for c in m.subtasks or [])
    assert _lead_time(store) == pytest.approx(642.33, abs=0.005)


def test_renaming_a_method_keeps_knowledge_tests_pointing_at_it() -> None:
    from workbench.kb.rename import rename_item

    domain_spec = load_domain_file(get_package("examples").sources["finesse"])
    renamed = rename_item(domain_spec, "method", "Play.Finesse", "LeadTowardsTenace")
    assert next(m.name for m in renamed.methods if m.task == "Play") == "LeadTowardsTenace"
    [test] = renamed.tests
    assert test.expect["chosen"] == {"South: play the suit": "LeadTowardsTenace"}


@pytest.mark.parametrize(
    "kind,old,new,says",
    [
        ("constant", "paint_min_gap", "2gap", "is not a name"),
        ("constant", "paint_min_gap", "lambda", "is not a name"),
        ("task", "ApplyPhotoresist", "DrillPths", "already names a task or an operator"),
        ("constant", "no_such_constant", "x", "there is no constant"),
        ("method", "ApplyPhotoresist.Paint", "Spread", "already has a method 'Spread'"),
    ],
)
def test_a_rename_that_cannot_be_made_changes_nothing(store, kind, old, new, says) -> None:
    base = store.revision("edaps")
    text = store.export("edaps")
    with pytest.raises(EditRejected) as caught:
        store.rename("edaps", kind, old, new, base=base)
    assert says in str(caught.value)
    assert store.revision("edaps") == base and store.export("edaps") == text
