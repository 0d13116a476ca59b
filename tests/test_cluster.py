"""Batch jobs on a Dask cluster (``--cluster``): a LocalCluster of two worker processes on
the loopback interface stands in for machines.  The same match gives the same JSON as the
local pool; a worker killed mid-run costs only re-runs; a job that raises is reported with
its board and traceback; ctrl+c leaves nothing queued; bad addresses are one line."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from distributed import Client, LocalCluster

from knowledge import EXIT_BAD_INPUT, EXIT_JOBS_FAILED
from knowledge.bridge import DATA_DIR
from knowledge.bridge.match import BoardResult, run_match
from knowledge.bridge.pbn import read_pbn
from workbench.batch import EXIT_INTERRUPTED
from workbench.cli import main
from workbench.cluster import (
    CLUSTER_ENV,
    ClusterAddress,
    ClusterError,
    cluster_address,
    open_cluster,
    parse_address,
)

PBN = str(DATA_DIR / "dds-list100.pbn")
BROKEN = "tests.test_bridge_match:broken_on_board_2"


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """Two single-threaded worker processes, loopback only: a cluster of two "machines"."""
    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
        memory_limit=0,
        silence_logs=50,
    ) as cluster:
        yield cluster.scheduler_address


def _without_timings(data: dict[str, Any]) -> dict[str, Any]:
    for row in data["results"]:
        row.pop("seconds")
    for summary in data["declarers"].values():
        summary.pop("seconds_per_deal")
    return data


def _match_json(capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    argv = ["match", "bridge", PBN, "--boards", "4", "--declarers", "heuristic,dd", "--json"]
    status = main([*argv, *extra])
    return status, json.loads(capsys.readouterr().out)


def test_a_match_on_the_cluster_gives_the_local_pools_json(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    local_status, local = _match_json(capsys, "--jobs", "2")
    status, remote = _match_json(capsys, "--cluster", scheduler)
    assert local_status == status == 0
    assert len(remote["results"]) == 8
    # Byte for byte, apart from the timings.
    assert json.dumps(_without_timings(remote)) == json.dumps(_without_timings(local))


def test_the_environment_names_the_cluster(
    scheduler: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, here = _match_json(capsys, "--cluster", "off")
    monkeypatch.setenv(CLUSTER_ENV, scheduler)
    status, there = _match_json(capsys)
    assert status == 0
    assert _without_timings(there) == _without_timings(here)


def test_a_job_that_raises_is_reported_with_its_board_and_traceback(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["match", "bridge", PBN, "--boards", "3", "--declarers", f"heuristic,{BROKEN}"]
    status = main([*argv, "--json", "--cluster", scheduler])
    out, err = capsys.readouterr()
    assert status == EXIT_JOBS_FAILED
    data = json.loads(out)
    assert data["errors"] == [
        {"board": "2", "declarer": BROKEN, "error": "RuntimeError: deliberate fault for the test"}
    ]
    # The rest finished: five of the six jobs have their tricks.
    assert sum(r["tricks"] is not None for r in data["results"]) == 5
    assert f"board 2 ({BROKEN}) failed: RuntimeError: deliberate fault" in err
    assert "Traceback (most recent call last)" in err and "in choose" in err
    assert err.rstrip().splitlines()[-1] == "1 board failed"


def test_knowledge_tests_on_the_cluster_report_as_here(
    scheduler: str, capsys: pytest.CaptureFixture[str]
) -> None:
    def report(*extra: str) -> dict[str, Any]:
        assert main(["kb", "test", "--json", *extra]) == 0
        data: dict[str, Any] = json.loads(capsys.readouterr().out)
        for outcomes in data.values():
            for o in outcomes:
                o.pop("seconds")
        return data

    here = report()
    assert sum(len(v) for v in here.values()) >= 5
    assert report("--cluster", scheduler) == here


def _worker_pids(client: Client) -> dict[str, int]:
    return dict(client.run(os.getpid))


def test_a_worker_killed_mid_run_costs_only_a_rerun(scheduler: str) -> None:
    records = read_pbn(DATA_DIR / "dds-list100.pbn")[:8]
    declarers = ["heuristic", "dd"]
    local = run_match(records, declarers, "dd", jobs=1)
    calls: list[int] = []
    killed: list[int] = []
    with Client(scheduler, set_as_default=False) as spy:
        before = _worker_pids(spy)

        def progress(done: int, total: int, result: BoardResult) -> None:
            calls.append(done)
            if not killed:  # at the first result: kill a worker that has work in hand
                busy = [w for w, keys in spy.processing().items() if keys] or list(before)
                killed.append(before[busy[0]])
                os.kill(killed[0], signal.SIGKILL)

        with open_cluster(scheduler, chunk=1) as executor:
            remote = run_match(records, declarers, "dd", executor=executor, progress=progress)
        spy.wait_for_workers(2, timeout=30)  # the nanny has replaced it
        after = _worker_pids(spy)
    assert killed and killed[0] not in after.values()
    # Nothing lost, nothing counted twice, the bar went 1..16 once.
    assert calls == list(range(1, 17))
    assert sorted((r.index, r.declarer) for r in remote.results) == sorted(
        (i, d) for i in range(8) for d in declarers
    )
    assert not remote.failures
    assert _without_timings(remote.to_dict()) == _without_timings(local.to_dict())


def test_ctrl_c_cancels_the_jobs_on_the_cluster(scheduler: str) -> None:
    records = read_pbn(DATA_DIR / "dds-list100.pbn")[:10]

    def interrupt(done: int, total: int, result: BoardResult) -> None:
        raise KeyboardInterrupt

    with open_cluster(scheduler, chunk=1) as executor, pytest.raises(KeyboardInterrupt):
        run_match(records, ["heuristic", "dd"], "dd", executor=executor, progress=interrupt)
    with Client(scheduler, set_as_default=False) as spy:
        deadline = time.monotonic() + 20
        left = -1
        while time.monotonic() < deadline:
            left = spy.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
            if left == 0:
                break
            time.sleep(0.1)
    assert left == 0  # nothing of the batch stays queued on the cluster


def test_ctrl_c_in_a_match_is_one_line_and_status_130(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("knowledge.bridge.match.run_match", interrupted)
    assert main(["match", "bridge", PBN, "--boards", "1"]) == EXIT_INTERRUPTED == 130
    err = capsys.readouterr().err
    assert "interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("tcp://10.0.0.5:8786", ClusterAddress(scheduler="tcp://10.0.0.5:8786")),
        ("10.0.0.5:8786", ClusterAddress(scheduler="tcp://10.0.0.5:8786")),
        ("tls://sched.example:8786", ClusterAddress(scheduler="tls://sched.example:8786")),
        ("local:3", ClusterAddress(workers=3)),
    ],
)
def test_addresses(text: str, want: ClusterAddress) -> None:
    assert parse_address(text) == want


@pytest.mark.parametrize("text", ["local:0", "local:", "tcp://host", "host:99999", "http://h:1"])
def test_a_bad_address_says_what_was_expected(text: str) -> None:
    with pytest.raises(ClusterError, match=r"tcp://HOST:PORT|at least one worker"):
        parse_address(text)


def test_no_cluster_unless_asked() -> None:
    assert cluster_address(None, {}) is None
    assert cluster_address(None, {CLUSTER_ENV: ""}) is None
    assert cluster_address("off", {CLUSTER_ENV: "local:2"}) is None
    assert cluster_address(None, {CLUSTER_ENV: "local:2"}) == ClusterAddress(workers=2)
    assert cluster_address("local:1", {CLUSTER_ENV: "local:2"}) == ClusterAddress(workers=1)


@pytest.mark.parametrize("command", [["match", "bridge", PBN, "--boards", "1"], ["kb", "test"]])
def test_bad_input_is_one_line_and_status_1(
    command: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main([*command, "--cluster", "nowhere"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a cluster address" in err
    monkeypatch.setenv(CLUSTER_ENV, "local:0")
    assert main(command) == EXIT_BAD_INPUT
    assert "at least one worker" in capsys.readouterr().err


def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with (
        pytest.raises(
            ClusterError, match=rf"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}"
        ),
        open_cluster(f"tcp://127.0.0.1:{port}", connect_timeout=0.5),
    ):
        pass


def test_without_dask_the_error_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
    assert main(["match", "bridge", PBN, "--boards", "1", "--cluster", "local:2"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "dask.distributed" in err and "pip install -e '.[cluster]'" in err
