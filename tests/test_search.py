"""The search core: optimise mode's exact speed-ups against exhaustive search, budgets,
cancellation, determinism, and the explanation records."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings

from engine.tofs import CancelToken, Reason, SearchOptions, Status, Trace, plan
from engine.tofs.trace import EventKind
from tests.random_domains import domains

# Random domains can have huge trees; examples whose exhaustive search needs more nodes than
# this are discarded, which keeps every property test's time bounded.
BUDGET = 20_000


def _exhaustive(domain, problem, **kw):
    result = plan(domain, problem, SearchOptions(full_tree=True, node_budget=BUDGET, **kw))
    assume(result.complete)
    return result


def _plan_ops(result) -> list[tuple[str, tuple]]:
    return [(s.operator, s.args) for s in result.plan]


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(domains())
def test_branch_and_bound_and_transpositions_match_exhaustive_search(gen) -> None:
    """B&B + transposition table find the same optimum -- and the same plan -- as full tree."""
    domain, problem = gen.compile()
    full = _exhaustive(domain, problem)
    fast = plan(domain, problem, SearchOptions())
    no_tt = plan(domain, problem, SearchOptions(transpositions=False))
    assert full.status is fast.status is no_tt.status
    assert full.value == fast.value == no_tt.value
    assert _plan_ops(full) == _plan_ops(fast) == _plan_ops(no_tt)
    assert fast.nodes <= full.nodes
    if full.value is not None:
        assert fast.value is not None  # equal to full.value
        assert abs(sum(s.cost for s in fast.plan) - fast.value) < 1e-9


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(domains(flag_safe_task=True))
def test_partial_plan_pruner_keeps_the_optimum_on_safe_tasks(gen) -> None:
    """Pruning a flagged task whose alternatives differ only in cost loses nothing."""
    domain, problem = gen.compile()
    exhaustive = _exhaustive(domain, problem, partial_plan_prune=False)
    pruned = plan(domain, problem, SearchOptions(full_tree=True))
    fast = plan(domain, problem, SearchOptions())
    assert exhaustive.value == pruned.value == fast.value
    if exhaustive.value is not None:
        assert pruned.tree_nodes <= exhaustive.tree_nodes
        assert not pruned.diagnostics  # the alternatives really do end in the same state


@settings(max_examples=60, deadline=None)
@given(domains())
def test_first_mode_finds_a_plan_exactly_when_one_exists(gen) -> None:
    domain, problem = gen.compile()
    full = _exhaustive(domain, problem)
    first = plan(domain, problem, SearchOptions(mode="first"))
    assert (first.value is None) == (full.value is None)
    if first.value is not None:
        assert first.value >= full.value - 1e-9


@settings(max_examples=40, deadline=None)
@given(domains())
def test_runs_are_deterministic(gen) -> None:
    """Same input, same tree, same plan, same explanation, same trace."""
    domain, problem = gen.compile()
    _exhaustive(domain, problem)
    runs = []
    for _ in range(2):
        trace = Trace()
        r = plan(domain, problem, SearchOptions(trace=trace))
        d = r.to_dict()
        d.pop("seconds")
        runs.append((d, [(e.kind, e.node, repr(e.data)) for e in trace]))
    assert runs[0] == runs[1]


@settings(max_examples=60, deadline=None)
@given(domains())
def test_every_alternative_on_the_plan_has_exactly_one_consistent_reason(gen) -> None:
    domain, problem = gen.compile()
    _exhaustive(domain, problem)
    for options in (SearchOptions(full_tree=True), SearchOptions()):
        r = plan(domain, problem, options)
        for cp in r.choice_points:
            chosen = [a for a in cp.alternatives if a.chosen]
            assert len(chosen) == 1 and chosen[0].reason is Reason.CHOSEN
            for a in cp.alternatives:
                assert isinstance(a.reason, Reason)
                if a.reason is Reason.LOWER_VALUE:
                    assert a.value is not None and cp.value is not None and a.value > cp.value
                if a.reason is Reason.TIE:
                    assert a.value == cp.value
                if a.reason is Reason.BOUND_PRUNED:
                    assert a.value_is_bound
                    assert a.value is not None and a.compared_with is not None
                    assert a.value >= a.compared_with - 1e-9
                if a.reason is Reason.PRECONDITION_FAILED:
                    assert a.failure is not None and a.failure.failing
            if options.full_tree:  # exhaustive: never a bound, never transposed
                assert all(
                    a.reason not in (Reason.BOUND_PRUNED, Reason.TRANSPOSED)
                    for a in cp.alternatives
                )


def _heavy():
    """A domain large enough that budgets bite: 12 independent three-way choices."""
    from engine.tofs import DomainSpec, MethodDef, OperatorDef, Problem, TaskDef, compile_domain
    from engine.tofs.domain import make_task
    from tests.random_domains import REGISTRY

    tasks = [TaskDef(name=f"C{k}") for k in range(12)] + [TaskDef(name="Root")]
    methods = [MethodDef(name="All", task="Root", subtasks=[f"C{k}()" for k in range(12)])]
    for k in range(12):
        for m in range(3):
            methods.append(MethodDef(name=f"Way{m}", task=f"C{k}", operator=f"O({k % 3}, {m})"))
    ops = [OperatorDef(name="O", params=["i", "d"], effect="bump", costs={"run": "d + 1"})]
    d = compile_domain(
        DomainSpec(name="heavy", tasks=tasks, methods=methods, operators=ops), REGISTRY
    )
    return d, Problem("heavy", (0, 0, 0), (make_task(d, "Root"),))


def test_node_budget_stops_the_run_and_reports_not_expanded() -> None:
    domain, problem = _heavy()
    r = plan(domain, problem, SearchOptions(full_tree=True, node_budget=500))
    assert r.status is Status.NODE_BUDGET and not r.complete
    assert r.nodes == 500
    assert r.stats["not_expanded"] > 0
    reasons = {a.reason for cp in r.choice_points for a in cp.alternatives}
    assert Reason.NOT_EXPANDED in reasons
    not_exp = [
        a for cp in r.choice_points for a in cp.alternatives if a.reason is Reason.NOT_EXPANDED
    ]
    assert all("node budget" in a.detail for a in not_exp)
    # The best plan found so far is still returned.
    assert r.value is not None and len(r.plan) == 12


def test_time_budget_stops_the_run() -> None:
    domain, problem = _heavy()
    r = plan(domain, problem, SearchOptions(full_tree=True, time_budget=0.05))
    assert r.status is Status.TIME_BUDGET
    assert r.seconds < 2.0


def test_cancel_token_stops_the_run_from_the_progress_callback() -> None:
    domain, problem = _heavy()
    token = CancelToken()
    seen = []

    def progress(p):
        seen.append(p.nodes)
        if p.nodes >= 3000:
            token.cancel()

    r = plan(
        domain,
        problem,
        SearchOptions(full_tree=True, cancel=token, progress=progress, progress_every=1000),
    )
    assert r.status is Status.CANCELLED
    assert seen[:3] == [1000, 2000, 3000]
    assert r.nodes < 3000 + 300  # polled every 256 nodes


def test_heavy_domain_optimum_is_found_quickly_by_branch_and_bound() -> None:
    """Twelve independent choices: the exhaustive tree has 1 + 1 + 3 + ... + 3^12 nodes."""
    domain, problem = _heavy()
    r = plan(domain, problem, SearchOptions())
    assert r.value == 12.0  # Way0 (d=0, cost 1) for every one of the 12 choices
    exhaustive = 1 + sum(3**k for k in range(13))
    assert r.nodes * 1000 < exhaustive
    assert [s.args[1] for s in r.plan] == [0] * 12


def test_trace_is_off_by_default_and_records_events_when_on() -> None:
    domain, problem = _heavy()
    trace = Trace()
    plan(domain, problem, SearchOptions(trace=trace))
    kinds = {e.kind for e in trace}
    assert {
        EventKind.NODE_EXPANDED,
        EventKind.METHOD_TRIED,
        EventKind.NODE_CREATED,
        EventKind.NODE_PRUNED,
        EventKind.LEAF_VALUED,
        EventKind.CHOICE_MADE,
    } <= kinds
    only = Trace(kinds={EventKind.NODE_CREATED})
    plan(domain, problem, SearchOptions(trace=only))
    assert {e.kind for e in only} == {EventKind.NODE_CREATED}
