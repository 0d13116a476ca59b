"""Batch jobs on a Dask cluster: ``--cluster ADDRESS`` for every batch command.

A match over tens of thousands of deals, every knowledge test after each change, the whole
IPC benchmark: on one small machine that is hours.  Their jobs are already pure records
(``fn(job) -> result``), so this module hands the same jobs to an existing distributed
engine, Dask (``dask.distributed``), instead of the local process pool -- no scheduler of
our own.  What Dask gives and we rely on:

* a worker that dies mid-run costs only its tasks: the scheduler hands them to another
  worker (up to ``distributed.scheduler.allowed-failures`` deaths per task, then the task
  fails with ``KilledWorker``, and its jobs are reported as failed, never dropped);
* each task's result reaches the client once, through its future, so a re-run job is
  never counted twice;
* cancelling the futures (``ctrl+c``) drops the queued tasks on the cluster; a task
  already running finishes on its worker and its result is thrown away (Dask cannot
  interrupt a running thread), and a ``local:N`` cluster is shut down with its workers.

``ADDRESS`` is a scheduler's (``tcp://10.0.0.5:8786``; ``host:port`` means tcp) or
``local:N``: a :class:`distributed.LocalCluster` of N single-threaded worker processes on
the loopback interface, started for the command and stopped after it.  Without
``--cluster`` (and without ``$WORKBENCH_CLUSTER``) nothing changes: the local pool runs
the jobs.  ``--cluster off`` overrides the environment variable.

Jobs travel in chunks: one Dask task runs several jobs in turn, so that the scheduler's
few milliseconds per task are paid once per chunk (``benchmarks/cluster_overhead.py``
measures this).  A worker process runs one of our jobs at a time even if it was started
with several threads: the players and the double-dummy solver keep process-wide state,
and a job's timings must not include another job's.  Workers need only the installed
project (``pip install -e '.[cluster]'`` on each machine): a job carries its knowledge as
data, never a path on the submitting machine.

Only ``workbench`` and the benchmarks import this module; ``knowledge`` sees an executor
through :class:`knowledge.batch.BatchExecutor`, and ``engine`` nothing at all.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from knowledge.batch import error_text

__all__ = [
    "CLUSTER_ENV",
    "INSTALL_HINT",
    "ClusterAddress",
    "ClusterError",
    "ClusterExecutor",
    "add_cluster_option",
    "batch_executor",
    "chunk_size",
    "cluster_address",
    "open_cluster",
    "parse_address",
]

CLUSTER_ENV = "WORKBENCH_CLUSTER"
INSTALL_HINT = "pip install -e '.[cluster]'"
CLUSTER_HELP = (
    "run the jobs on a Dask cluster: a scheduler's address (tcp://HOST:PORT) or local:N "
    f"(N worker processes on this machine); default ${CLUSTER_ENV}, else the local pool; "
    "off: the local pool"
)

# A chunk's jobs run one after another on one worker: large enough to amortise the
# scheduler's per-task cost, small enough that a dying worker loses little and the
# progress bar moves.
MAX_CHUNK = 25
TASKS_PER_WORKER = 8

_J = TypeVar("_J")
_R = TypeVar("_R")


class ClusterError(Exception):
    """The cluster cannot be used (bad address, no Dask, no scheduler): one line to show."""


@dataclass(frozen=True)
class ClusterAddress:
    """Where to run: a scheduler's address, or a local cluster of ``workers`` processes."""

    scheduler: str | None = None
    workers: int | None = None

    def __str__(self) -> str:
        return self.scheduler if self.scheduler is not None else f"local:{self.workers}"


_LOCAL = re.compile(r"local:(\d+)")
_REMOTE = re.compile(r"(?:(tcp|tls|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})")


def parse_address(text: str) -> ClusterAddress:
    """``local:N`` or ``[tcp://]HOST:PORT``; anything else is a :class:`ClusterError` that
    says what was expected."""
    text = text.strip()
    if m := _LOCAL.fullmatch(text):
        workers = int(m.group(1))
        if workers < 1:
            raise ClusterError("--cluster local:N needs at least one worker (N >= 1)")
        return ClusterAddress(workers=workers)
    if (m := _REMOTE.fullmatch(text)) and 0 < int(m.group(3)) < 65536:
        return ClusterAddress(scheduler=f"{m.group(1) or 'tcp'}://{m.group(2)}:{m.group(3)}")
    raise ClusterError(
        f"--cluster: '{text}' is not a cluster address; expected tcp://HOST:PORT (a Dask "
        "scheduler) or local:N (N worker processes on this machine)"
    )


def cluster_address(
    option: str | None, environ: Mapping[str, str] | None = None
) -> ClusterAddress | None:
    """The cluster a command should use: ``--cluster``, else ``$WORKBENCH_CLUSTER``; None
    (the local pool) when neither is set or either says ``off``."""
    env = os.environ if environ is None else environ
    text = (option if option is not None else env.get(CLUSTER_ENV, "")).strip()
    if not text or text.lower() == "off":
        return None
    return parse_address(text)


# A local cluster has no dashboard to show what these feed, and they cost CPU the jobs
# could use: a statistical profiler sampling every worker's stack every 10 ms, an
# event-loop tick every 20 ms, system metrics twice a second.  With them the idle
# cluster of two workers took 7 % of a core, without them about 1 %
# (benchmarks/cluster_overhead.py).
LOCAL_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


def _dask_config() -> Any:
    import dask.config

    return dask.config


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(
            f"--cluster needs dask.distributed, which is not installed: {INSTALL_HINT}"
        ) from None
    return distributed


def _run_chunk(fn: Callable[[_J], _R], jobs: Sequence[_J]) -> list[tuple[Any, ...]]:
    """On a worker: each job of a chunk in turn, a job that raises reported, not raised.

    Each entry is ``("ok", result)`` or ``("raised", error, traceback)``: a fault of one job
    must not take its chunk-mates down with it (nor make Dask retry them).
    """
    out: list[tuple[Any, ...]] = []
    with _ONE_AT_A_TIME:
        for job in jobs:
            try:
                out.append(("ok", fn(job)))
            except Exception as exc:
                out.append(("raised", error_text(exc), "".join(traceback.format_exception(exc))))
    return out


_ONE_AT_A_TIME = threading.Lock()  # per worker process: see the module docstring


def chunk_size(jobs: int, workers: int) -> int:
    """Jobs per task: about ``TASKS_PER_WORKER`` tasks per worker, at most ``MAX_CHUNK``."""
    return max(1, min(MAX_CHUNK, jobs // (max(1, workers) * TASKS_PER_WORKER)))


class ClusterExecutor:
    """A :class:`knowledge.batch.BatchExecutor` on a connected ``distributed.Client``."""

    def __init__(self, client: Any, *, chunk: int | None = None, address: str = "") -> None:
        self.client = client
        self.chunk = chunk
        self.address = address or str(getattr(client, "scheduler", "") or "")

    @property
    def workers(self) -> int:
        """Worker threads on the cluster now (it may grow or shrink during a run)."""
        return sum(self.client.nthreads().values())

    def __call__(
        self,
        fn: Callable[[_J], _R],
        jobs: Sequence[_J],
        *,
        failed: Callable[[_J, str, str | None], _R],
        progress: Callable[[int, int, _R], None] | None = None,
    ) -> list[_R]:
        from distributed import as_completed

        n = len(jobs)
        if n == 0:
            return []
        size = self.chunk or chunk_size(n, self.workers)
        spans = [range(i, min(n, i + size)) for i in range(0, n, size)]
        # One message for the whole batch; pure=False: two equal chunks are two tasks.
        submitted = self.client.map(
            _run_chunk,
            [fn] * len(spans),
            [[jobs[i] for i in span] for span in spans],
            pure=False,
        )
        futures = dict(zip(submitted, spans, strict=True))
        results: list[_R | None] = [None] * n
        done = 0
        try:
            for future in as_completed(futures, loop=self.client.loop):
                span = futures[future]
                outcomes = self._outcomes(future, len(span))
                future.release()
                for i, outcome in zip(span, outcomes, strict=True):
                    if outcome[0] == "ok":
                        result = outcome[1]
                    else:
                        result = failed(jobs[i], outcome[1], outcome[2])
                    results[i] = result
                    done += 1
                    if progress is not None:
                        progress(done, n, result)
        except BaseException:
            # ctrl+c (or a failing progress callback): nothing of this batch stays queued.
            with contextlib.suppress(Exception):
                self.client.cancel(list(futures), force=True)
            raise
        return cast(list[_R], results)  # every job has its result by now

    @staticmethod
    def _outcomes(future: Any, count: int) -> list[tuple[Any, ...]]:
        """A chunk's outcomes; when the task itself failed (its workers kept dying, or a
        worker could not unpickle it: the project is not installed there), every job of
        the chunk is reported with that error."""
        if future.status == "cancelled":
            return [("raised", "cancelled on the cluster", None)] * count
        try:
            outcomes: list[tuple[Any, ...]] = future.result()
        except Exception as exc:
            error = error_text(exc)
            if type(exc).__name__ == "KilledWorker":
                error = f"its worker died each time it ran ({error})"
            tb = "".join(traceback.format_exception(exc))
            return [("raised", error, tb)] * count
        return outcomes


@contextlib.contextmanager
def open_cluster(
    address: ClusterAddress | str, *, connect_timeout: float = 10.0, chunk: int | None = None
) -> Iterator[ClusterExecutor]:
    """Connect to (or, for ``local:N``, start) a cluster for one command; close it after.

    Raises :class:`ClusterError` when Dask is not installed, the scheduler cannot be
    reached within ``connect_timeout`` seconds, or it has no worker by then.
    """
    import logging

    where = parse_address(address) if isinstance(address, str) else address
    distributed = _distributed()
    cluster = None
    if where.workers is not None:
        try:
            with _dask_config().set(LOCAL_CONFIG):
                cluster = distributed.LocalCluster(
                    n_workers=where.workers,
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address=None,
                    memory_limit=0,  # like the local pool: no memory policing of our jobs
                    silence_logs=logging.ERROR,
                )
            client = distributed.Client(cluster, set_as_default=False)
        except Exception as exc:
            if cluster is not None:
                cluster.close()
            raise ClusterError(f"could not start a local Dask cluster: {exc}") from None
    else:
        try:
            client = distributed.Client(
                where.scheduler, timeout=connect_timeout, set_as_default=False
            )
        except (OSError, TimeoutError) as exc:
            raise ClusterError(
                f"cannot reach the Dask scheduler at {where.scheduler} ({exc}); is "
                "`dask scheduler` running there?"
            ) from None
        try:
            client.wait_for_workers(1, timeout=connect_timeout)
        except (OSError, TimeoutError):
            client.close()
            raise ClusterError(
                f"the Dask scheduler at {where.scheduler} has no workers; start one with "
                f"`dask worker {where.scheduler}`"
            ) from None
    try:
        yield ClusterExecutor(client, chunk=chunk, address=str(where))
    finally:
        with contextlib.suppress(Exception):
            client.close()
        if cluster is not None:
            with contextlib.suppress(Exception):
                cluster.close()


@contextlib.contextmanager
def batch_executor(
    option: str | None, *, chunk: int | None = None
) -> Iterator[ClusterExecutor | None]:
    """What a batch command runs its jobs with: a cluster executor when ``--cluster`` (or
    ``$WORKBENCH_CLUSTER``) names one, else None (the command's local pool).  ``chunk``:
    jobs per Dask task (default: by the batch's size; 1 for jobs of seconds or more)."""
    where = cluster_address(option)
    if where is None:
        yield None
        return
    with open_cluster(where, chunk=chunk) as executor:
        yield executor


def add_cluster_option(parser: Any) -> None:
    """``--cluster ADDRESS`` on a batch command's parser (argparse)."""
    parser.add_argument("--cluster", metavar="ADDRESS", default=None, help=CLUSTER_HELP)
