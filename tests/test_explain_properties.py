"""Property tests: every number an explanation states agrees with a brute-force
re-evaluation that shares no code with the engine.

* Optimise mode: random small HTN domains (``tests.random_domains``) are decomposed by a
  dozen lines of plain Python below -- every method, every binding, every ordering the
  domain allows -- and each explained alternative's value, re-planned value and issue
  breakdown is checked against that.
* Game mode: random expectimax trees are valued bottom-up here, and the relevant issues
  of any two alternatives must add up to their difference, each part being its
  probability times the difference of the values it names.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from engine.tofs import PolicyEdge, PolicyNode, Reason, SearchOptions, plan
from engine.tofs.explanation import explain
from engine.tofs.issues import policy_issues
from engine.tofs.magnitude import Thresholds
from engine.tofs.why_not import Anchor, replan_at
from tests.random_domains import domains

_CALL = re.compile(r"^(\w+)\((.*)\)$")
LIMIT = 20_000


class TooBig(Exception):
    pass


def brute_force(spec: Any):
    """best(state, tasks) and forced(state, tasks, method, bindings): the cheapest
    completion by exhaustive decomposition (None when there is none)."""
    methods: dict[str, list[Any]] = {}
    for m in spec.methods:
        methods.setdefault(m.task, []).append(m)
    ops = {o.name: o for o in spec.operators}
    calls = [0]

    def ev(src: str, state: tuple[int, ...], env: dict[str, Any]) -> Any:
        scope = {
            "val": lambda i: state[i],
            "choices": lambda n: list(range(n)),
            "min": min,
            "max": max,
            "True": True,
            "False": False,
            **env,
        }
        return eval(src, {"__builtins__": {}}, scope)

    def parse(sub: str, state: tuple[int, ...], env: dict[str, Any]) -> tuple[str, tuple]:
        name, args = _CALL.match(sub.strip()).groups()  # type: ignore[union-attr]
        return name, tuple(ev(a, state, env) for a in args.split(",") if a.strip())

    def bindings(m: Any, state: tuple[int, ...]) -> list[dict[str, Any]]:
        if not m.bindings:
            return [{}]
        var, src = m.bindings[0].split(" in ")
        return [{var.strip(): x} for x in ev(src, state, {})]

    def expand(m: Any, env: dict[str, Any], state: tuple[int, ...], rest: tuple) -> float | None:
        if not ev(m.precondition or "True", state, env):
            return None
        subs = tuple(parse(s, state, env) for s in (m.subtasks or []))
        return best(state, subs + rest)

    @cache
    def best(state: tuple[int, ...], tasks: tuple) -> float | None:
        calls[0] += 1
        if calls[0] > LIMIT:
            raise TooBig
        if not tasks:
            return 0.0
        (name, args), rest = tasks[0], tasks[1:]
        if name in ops:
            o = ops[name]
            env = dict(zip(o.params, args, strict=True))
            if not ev(o.precondition or "True", state, env):
                return None
            cost = float(sum(ev(c, state, env) for c in o.costs.values()))
            after = list(state)
            if o.effect == "bump":
                after[args[0]] += args[1]
            below = best(tuple(after), rest)
            return None if below is None else cost + below
        values = [
            expand(m, env, state, rest) for m in methods.get(name, []) for env in bindings(m, state)
        ]
        found = [v for v in values if v is not None]
        return min(found) if found else None

    def forced(
        state: tuple[int, ...], tasks: tuple, method: str, bound: dict[str, Any]
    ) -> float | None:
        (name, _), rest = tasks[0], tasks[1:]
        m = next(m for m in methods[name] if m.name == method)
        return expand(m, bound, state, rest)

    return best, forced


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(domains())
def test_optimise_explanations_agree_with_brute_force(gen) -> None:
    domain, problem = gen.compile()
    best, forced = brute_force(gen.spec)
    try:
        optimum = best(problem.state, problem.tasks)
    except TooBig:
        assume(False)
    options = SearchOptions(node_budget=LIMIT)
    run = plan(domain, problem, options)
    assume(run.complete)
    assert run.value == optimum or (
        run.value is not None and optimum is not None and abs(run.value - optimum) < 1e-9
    )
    e = explain(
        run,
        thresholds=Thresholds(),
        replan=lambda cp, a: replan_at(domain, problem, options, Anchor.of(run, cp), a.label),
    )
    for choice in e.choices:
        cp = choice.choice
        spent = sum(s.cost for s in run.plan if s.node <= cp.node)
        assert cp.value is not None and run.value is not None
        assert abs(cp.value - run.value) < 1e-9
        for a in choice.alternatives:
            rec = a.record
            if rec.reason in (Reason.PRECONDITION_FAILED, Reason.NO_BINDING):
                continue
            truth = forced(cp.state, cp.tasks, rec.method, dict(rec.bindings))
            expected = None if truth is None else spent + truth
            if rec.reason in (Reason.CHOSEN, Reason.LOWER_VALUE, Reason.TIE):
                assert expected is not None and abs(rec.value - expected) < 1e-9
            if rec.reason is Reason.BOUND_PRUNED and expected is not None:
                assert rec.value <= expected + 1e-9
            if rec.reason is Reason.DEAD_END:
                assert expected is None
            if a.replanned is not None:
                assert expected is not None and abs(a.replanned - expected) < 1e-9
                assert a.loss is not None and abs(a.loss - (expected - cp.value)) < 1e-9
            if a.issues is not None:
                assert abs(a.issues.total - a.issues.loss) < 1e-9
                assert a.replanned is not None
                assert abs(a.issues.loss - (a.replanned - cp.value)) < 1e-9
                for issue in a.issues.items:
                    assert issue.other is not None and issue.chosen is not None
                    assert abs(issue.contribution - (issue.other - issue.chosen)) < 1e-9


# --------------------------------------------------------------------------- game trees


@st.composite
def trees(draw: st.DrawFn, depth: int = 0) -> dict[str, Any]:
    """A random game tree: our decisions, opponents' moves with weights, and leaves."""
    kind = draw(st.sampled_from(["leaf", "external", "decision"] if depth < 4 else ["leaf"]))
    if kind == "leaf":
        return {"kind": "leaf", "value": draw(st.integers(-5, 5)) * 50}
    n = draw(st.integers(1, 3))
    children = [draw(trees(depth + 1)) for _ in range(n)]
    labels = draw(st.lists(st.sampled_from("abcd"), min_size=n, max_size=n, unique=True))
    weights = [draw(st.integers(1, 9)) for _ in range(n)] if kind == "external" else None
    return {"kind": kind, "children": children, "labels": labels, "weights": weights}


def build(t: dict[str, Any], counter: list[int]) -> PolicyNode:
    """The tree as policy nodes, valued bottom-up here (expectation, max)."""
    counter[0] += 1
    node_id = counter[0]
    if t["kind"] == "leaf":
        return PolicyNode(node_id, "leaf", "end", None, float(t["value"]))
    kids = [build(c, counter) for c in t["children"]]
    if t["kind"] == "external":
        total = sum(t["weights"])
        value = sum(w / total * k.value for w, k in zip(t["weights"], kids, strict=True))
        edges = [
            PolicyEdge(lab, lab, w / total, k)
            for lab, w, k in zip(t["labels"], t["weights"], kids, strict=True)
        ]
        return PolicyNode(
            node_id,
            "external",
            "them",
            "E",
            value,
            edges,
            planned=max(range(len(kids)), key=lambda i: t["weights"][i]),
        )
    best = max(range(len(kids)), key=lambda i: (kids[i].value, -i))
    edges = [PolicyEdge(lab, lab, None, k) for lab, k in zip(t["labels"], kids, strict=True)]
    return PolicyNode(node_id, "decision", "us", "S", kids[best].value, edges, chosen=best)


@settings(max_examples=300, deadline=None)
@given(trees(), trees(), st.floats(0.05, 0.5), st.floats(0.0, 60.0))
def test_game_issues_add_up_and_each_part_is_probability_times_difference(
    a: dict[str, Any], b: dict[str, Any], share: float, floor: float
) -> None:
    counter = [0]
    x, y = build(a, counter), build(b, counter)
    issues = policy_issues(x, y, Thresholds(share=share, floor=floor))
    assert abs(issues.loss - (x.value - y.value)) < 1e-9
    assert abs(issues.total - issues.loss) < 1e-9
    assert 0.0 < issues.probability <= 1.0 + 1e-12
    for i in issues.items:
        p = 1.0 if i.probability is None else i.probability
        assert 0.0 < p <= 1.0 + 1e-12
        assert i.chosen is not None and i.other is not None
        assert abs(i.contribution - p * (i.chosen - i.other)) < 1e-9


def test_parts_below_the_floor_are_not_said_to_add_up() -> None:
    """Paired branches each 2 points apart (a quarter of the weight each), floor 5: nothing
    is named and nothing is said to add up -- the whole difference is the rest."""

    def tree(values: list[int]) -> dict[str, Any]:
        return {
            "kind": "external",
            "labels": list("abcde")[: len(values)],
            "weights": [1] * len(values),
            "children": [{"kind": "leaf", "value": v} for v in values],
        }

    counter = [0]
    a, b = build(tree([4, 6, 4, 6]), counter), build(tree([2, 4, 2, 4]), counter)
    issues = policy_issues(a, b, Thresholds(floor=5))
    assert (issues.items, issues.add_up, issues.rest) == ((), False, 2.0)
    several = policy_issues(a, b, Thresholds(floor=0.1))  # each carries a quarter: named
    assert several.add_up is False and len(several.items) == 4 and several.rest == 0.0
    five = policy_issues(
        build(tree([10, 12, 10, 12, 10]), counter),
        build(tree([0, 2, 0, 2, 0]), counter),
        Thresholds(share=0.3),
    )
    assert five.add_up and five.total == pytest.approx(10.0)  # 20 % each: none alone
    assert 2 <= len(five.items) < 5
    # Opposite differences on paired branches cancel: +6 on one, -4 on the other, net +2.
    cancel = policy_issues(build(tree([10, 0]), counter), build(tree([-2, 8]), counter))
    assert cancel.cancel and cancel.loss == pytest.approx(2.0)
    assert sorted(i.contribution for i in cancel.items) == [pytest.approx(-4.0), pytest.approx(6.0)]
