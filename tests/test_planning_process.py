"""The planning process: runs there are the runs the workbench would make in a thread.

Results, traces, errors and cancellation must cross the process boundary unchanged;
these tests compare the child's answers with :func:`workbench.runner.execute` run here.
"""

from __future__ import annotations

import pickle
import threading
from pathlib import Path

import pytest

from engine.tofs import CancelToken, Progress, Status
from engine.tofs.trace import Trace
from knowledge.edaps.generate import stuck_together
from knowledge.edaps.parser import format_design, load_design
from workbench.kb.catalog import open_store
from workbench.planning_process import PlanningError, planning_process
from workbench.runner import ProblemRef, RunSettings, execute

RM1 = ProblemRef("edaps", "RM1")
DESIGNS = Path(__file__).resolve().parents[1] / "knowledge/edaps/designs"


def _events(trace: Trace | None) -> list[tuple[object, ...]]:
    assert trace is not None
    return [(e.seq, e.kind, e.node, e.data) for e in trace.events]


@pytest.mark.parametrize(
    "request_",
    [
        RM1,
        ProblemRef("edaps", "RUM1"),
        ProblemRef("examples", "dinner"),
        ProblemRef("examples", "finesse"),
    ],
    ids=lambda r: r.title,
)
def test_same_run_as_in_this_process(request_: ProblemRef) -> None:
    here = execute(request_, None, None, None, RunSettings())
    there = planning_process.execute(request_, None, None, None, RunSettings())
    assert (there.status, there.value, there.nodes) == (here.status, here.value, here.nodes)
    assert there.plan == here.plan
    assert there.choice_points == here.choice_points
    assert _events(there.trace) == _events(here.trace)


def test_trace_pickles_packed_and_unpacks_on_first_read() -> None:
    trace = execute(RM1, None, None, None, RunSettings()).trace
    assert trace is not None and len(trace) > 1000
    copy = pickle.loads(pickle.dumps(trace))
    assert copy._packed is not None  # not unpacked until someone reads it
    assert _events(copy) == _events(trace)
    assert (copy.limit, copy.dropped, copy.kinds) == (trace.limit, trace.dropped, trace.kinds)


def test_errors_arrive_as_the_users_message() -> None:
    with pytest.raises(PlanningError) as caught:
        planning_process.execute(ProblemRef("edaps", "NOPE"), None, None, None, RunSettings())
    assert caught.value.kind == "PackageError"
    assert "has no problem 'NOPE'" in str(caught.value)


def test_cancelling_one_run_leaves_the_next_alone() -> None:
    rm1 = load_design(DESIGNS / "RM1.txt")
    store = open_store(None)
    store.set_problem("edaps", "URM3", "edaps-design", format_design(stuck_together(rm1, 4)))
    store.close()
    token = CancelToken()
    seen: list[Progress] = []

    def progress(p: Progress) -> None:
        seen.append(p)
        token.cancel()  # cancel as soon as the search is under way

    long_run = planning_process.execute(
        ProblemRef("edaps", "URM3"),
        token,
        progress,
        None,
        RunSettings(full_tree=True, prune=False, trace=False),
    )
    assert seen and long_run.status is Status.CANCELLED
    assert long_run.nodes < 274_310  # URM3's full tree, had it finished
    after = planning_process.execute(RM1, CancelToken(), None, None, RunSettings(trace=False))
    assert after.status is Status.OK and after.value == pytest.approx(642.33, abs=0.005)


def test_concurrent_callers_each_get_their_own_result() -> None:
    results: dict[str, float | None] = {}

    def run(name: str) -> None:
        r = planning_process.execute(
            ProblemRef("edaps", name), None, None, None, RunSettings(trace=False)
        )
        results[name] = r.value

    threads = [threading.Thread(target=run, args=(n,)) for n in ("RM1", "MULTI", "RUM1")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    expected = {
        n: execute(ProblemRef("edaps", n), None, None, None, RunSettings(trace=False)).value
        for n in ("RM1", "MULTI", "RUM1")
    }
    assert results == expected
