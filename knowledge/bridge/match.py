"""Duplicate-style declarer matches: every declarer plays every board against the same defence.

A match is a list of pure jobs ``(problem, declarer name, defence name, options) ->``
:class:`BoardResult`.  Jobs carry only plain data (a :class:`Problem` is strings and ints),
so they pickle, run in worker processes, and are handed unchanged to a distributed
executor (``run_match(executor=...)``; ``workbench.cluster``'s runs them on a Dask
cluster, results identical).  Without one, :func:`run_match` runs them with ``jobs``
worker processes (``jobs=1``: in this process) and a per-board ``timeout``: a worker
still busy after ``timeout`` seconds is killed and replaced, and the board is reported as
a timeout for that declarer -- a pathological deal never hangs the run.  (In-process runs,
and runs on a cluster, can only check the timeout between cards; a single decision that
never returns needs a worker process: ``jobs >= 2`` or ``isolate=True``.)  The pool is a
small one of our own rather than ``concurrent.futures.ProcessPoolExecutor``, which cannot
kill one stuck worker.

Per declarer the report gives mean tricks, made rate, mean score, the double-dummy tricks
lost through declarer's own cards (DDS ``AnalysePlay`` gives declarer's DD tricks after
every card; each drop after a declarer or dummy card is declarer's loss -- defenders'
cards can only raise the value), seconds and search nodes per deal, and timeouts.

Head to head, as Smith compared Tignum 2 with Bridge Baron (dissertation §5.2-5.4): Swiss
teams board-a-match -- on each board the declarer with more points wins it, equal scores
tie -- and a 95% confidence interval for the mean per-board difference ``d`` in {+1, 0, -1}:
``mean(d) +/- t(0.975, n-1) * s / sqrt(n)`` with ``s`` the sample standard deviation.  (Smith
used 1.980, the t value for 120 degrees of freedom, for n = 1000; we use the t quantile for
n - 1.)  The interval excludes 0 when one declarer is significantly better.  A board that
timed out (or failed) for one declarer is a loss for it; for both, a tie.

Problems come from PBN records: ``[Contract]``, ``[Declarer]`` and ``[Lead]`` when present.
Records without a contract but with the DDS tags of the dev set (``[DDSTrump]``,
``[DDSLeader]``, ``[DDSTrace]``) get the strain of ``DDSTrump``, declarer to the right of
``DDSLeader``, and the level double dummy says makes exactly (DD tricks - 6, kept in 1..7),
so every trick decides make or fail at some level of scoring.
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing as mp
import time
import traceback
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import combinations
from multiprocessing.connection import wait as mp_wait
from typing import TYPE_CHECKING

from .cards import CARD_NAMES, Denom, Seat, parse_card, parse_play
from .deal import Contract, Deal, Vul
from .scoring import score as contract_score

if TYPE_CHECKING:
    from ..batch import BatchExecutor
    from .players import Player

__all__ = [
    "BoardResult",
    "DeclarerSummary",
    "HeadToHead",
    "Job",
    "MatchReport",
    "Problem",
    "ci95_board_a_match",
    "play_problem",
    "problem_from_record",
    "recorded_play_fault",
    "run_job",
    "run_match",
    "t_quantile_975",
]


# -- problems and jobs --------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One board to declare, as plain data: what a job needs and nothing else."""

    board: str
    deal: str  # PBN "N:... ... ... ..."
    contract: str  # "4H", "3NT"
    declarer: str  # "N", "E", "S", "W"
    vulnerability: str = "None"
    lead: str | None = None  # a fixed opening lead, e.g. "SQ"
    script: str = ""  # a recorded play ("SQS3…") for the scripted defence

    @property
    def contract_obj(self) -> Contract:
        return Contract.parse(self.contract)

    @property
    def declarer_seat(self) -> Seat:
        return Seat.parse(self.declarer)

    @property
    def declarer_vulnerable(self) -> bool:
        return Vul.parse(self.vulnerability).is_vulnerable(self.declarer_seat)


def recorded_play_fault(rec: object) -> str | None:
    """Where a board's recorded ``[Play]`` breaks the rules -- a card played twice, a card
    not dealt to its player, a revoke -- as "board 1, trick 4: West plays ♥5 twice"; None
    when it keeps them (or there is no play to check).

    The PBN reader keeps a damaged play only up to the bad card (with a warning), which
    suits reading a file; the scripted defence, whose point is to replay the record,
    would then silently defend by its heuristics from there on -- so it asks this first
    and refuses such a record.  The check walks the raw section with the reader's own
    column rule (each trick's cards are written in seat order from the ``[Play]`` seat).
    """
    from .cards import SUIT_MASKS, SUIT_OF, SUIT_SYMBOLS, CardError, card_name, iter_cards_desc
    from .deal import PlayState
    from .pbn import _play_rows

    lines = (getattr(rec, "sections", None) or {}).get("Play")
    deal: Deal | None = getattr(rec, "deal", None)
    contract: Contract | None = getattr(rec, "contract", None)
    declarer: Seat | None = getattr(rec, "declarer", None)
    if not lines or deal is None or contract is None:
        return None
    tags: Mapping[str, str] = getattr(rec, "tags", {}) or {}
    try:
        first = Seat.parse(tags["Play"]) if tags.get("Play") else None
    except ValueError:
        first = None
    first = first if first is not None else (declarer.next if declarer is not None else None)
    if first is None:
        return None
    where = f"board {getattr(rec, 'board', '?')}"
    rows, _ = _play_rows(lines)
    state = PlayState.from_position(
        deal.hands, contract.denom, first, declarer=declarer, contract=contract
    )
    for t, row in enumerate(rows, 1):
        leader = state.leader
        for i in range(4):
            seat = Seat((leader + i) & 3)
            token = row[(seat - first) & 3]
            if token in ("-", "+"):
                return None  # the record stops here (a claim): nothing wrong in it
            try:
                c = parse_card(token)
            except CardError as exc:
                return f"{where}, trick {t}: {seat.title}'s card: {exc}"
            shown = card_name(c, symbols=True)
            if not state.hands[seat] >> c & 1:
                if deal.hands[seat] >> c & 1:
                    return f"{where}, trick {t}: {seat.title} plays {shown} twice"
                return f"{where}, trick {t}: {seat.title} plays {shown}, which it was not dealt"
            if state.trick:
                suit = SUIT_OF[state.trick[0]]
                held = state.hands[seat] & SUIT_MASKS[suit]
                if SUIT_OF[c] != suit and held:
                    holding = " ".join(card_name(x, symbols=True) for x in iter_cards_desc(held))
                    return (
                        f"{where}, trick {t}: {seat.title} plays {shown} and does not follow "
                        f"{SUIT_SYMBOLS[suit]} while holding {holding}"
                    )
            state.play(c)
    return None


def problem_from_record(rec: object, index: int = 0) -> Problem:
    """A :class:`Problem` from a :class:`~.pbn.BoardRecord` (or a Problem, returned as is).

    Raises ``ValueError`` when the record says neither what contract is played nor
    (through the dev set's DDS tags) how to derive one.
    """
    if isinstance(rec, Problem):
        return rec
    board = getattr(rec, "board", None)
    board = str(board) if board is not None else str(index + 1)
    deal: Deal = rec.deal  # type: ignore[attr-defined]
    tags: Mapping[str, str] = getattr(rec, "tags", {}) or {}
    contract: Contract | None = getattr(rec, "contract", None)
    declarer: Seat | None = getattr(rec, "declarer", None)
    lead_card = getattr(rec, "lead", None)
    play = tuple(getattr(rec, "play", ()) or ())
    script = "".join(CARD_NAMES[c] for c in play) if play else tags.get("DDSPlay", "")
    if contract is None or declarer is None:
        if "DDSTrump" not in tags or "DDSLeader" not in tags:
            raise ValueError(
                f"board {board}: no [Contract]/[Declarer] and no DDS tags to derive them from"
            )
        trump = Denom.parse(tags["DDSTrump"])
        declarer = Seat.parse(tags["DDSLeader"]).prev
        if "DDSTrace" in tags:
            dd = int(tags["DDSTrace"].split()[0])
        else:
            from .players import dd_trace

            dd = dd_trace(deal, int(trump), declarer, ())[0]
        contract = Contract(min(7, max(1, dd - 6)), trump)
    vul = getattr(rec, "vulnerability", Vul.NONE)
    return Problem(
        board=board,
        deal=deal.to_pbn(),
        contract=str(contract),
        declarer=declarer.letter,
        vulnerability=Vul(vul).pbn,
        lead=CARD_NAMES[lead_card] if lead_card is not None else None,
        script=script,
    )


@dataclass(frozen=True)
class Job:
    problem: Problem
    declarer: str
    defense: str
    options: tuple[tuple[str, object], ...] = ()
    index: int = 0  # the problem's position in the match (boards may share a tag)

    def opts(self) -> dict[str, object]:
        return dict(self.options)


@dataclass
class BoardResult:
    """What one declarer did on one board."""

    board: str
    declarer: str
    defense: str
    contract: str
    declarer_seat: str
    tricks: int | None = None
    dd_tricks: int | None = None
    score: int | None = None
    made: bool | None = None
    seconds: float = 0.0  # declarer's thinking time (sum over its decisions)
    wall_seconds: float = 0.0  # the whole job, defence and DD analysis included
    cpu_seconds: float = 0.0  # the CPU time of the job's thread: its own work, wherever it ran
    nodes: int | None = None
    dd_lost: int | None = None
    dd_losses: list[tuple[int, int]] = field(default_factory=list)
    """(card number in the play, tricks it gave away) for each of our cards that lost any:
    what :mod:`.losses` breaks down by phase, kind and scheme."""
    play: str = ""
    notes: list[str | None] = field(default_factory=list)
    timeout: bool = False
    error: str | None = None
    traceback: str | None = None  # where a failed job raised (None for a timeout)
    index: int = 0

    @property
    def completed(self) -> bool:
        return not self.timeout and self.error is None

    @property
    def failed(self) -> bool:
        """The job raised (or its worker died): a fault to report, unlike a timeout."""
        return self.error is not None and not self.timeout

    def to_error_row(self) -> dict[str, str | None]:
        return {"board": self.board, "declarer": self.declarer, "error": self.error}

    def to_json_row(self) -> dict:
        return {
            "board": self.board,
            "declarer": self.declarer,
            "tricks": self.tricks,
            "dd_tricks": self.dd_tricks,
            "score": self.score,
            "seconds": round(self.seconds, 4),
            "play": self.play,
        }


def play_problem(
    problem: Problem | object,
    declarer: str | Player = "mcdd",
    defense: str = "heuristic",
    *,
    options: Mapping[str, object] | None = None,
    timeout: float | None = None,
    on_card: Callable | None = None,
):
    """Play one board (a Problem or a BoardRecord) and return the :class:`~.players.PlayRecord`.

    ``declarer`` is a registry name or a player already made (to read its decisions
    afterwards); ``options`` go to the player factories (``samples``, ``seed``, ``timeout``
    per decision ...).  What ``workbench play bridge`` needs.
    """
    from .defenders import make_defender
    from .players import play_board

    p = problem_from_record(problem)
    opts = dict(options or {})
    dec = _declarer(p, declarer, opts) if isinstance(declarer, str) else declarer
    dfn = make_defender(defense, script=parse_play(p.script) if p.script else None, **opts)
    return play_board(
        Deal.from_pbn(p.deal),
        p.contract_obj,
        p.declarer_seat,
        dec,
        dfn,
        lead=parse_card(p.lead) if p.lead else None,
        timeout=timeout,
        on_card=on_card,
    )


def _declarer(p: Problem, name: str, options: Mapping[str, object]) -> Player:
    """The declarer ``name`` for ``p`` (its board seeds the player, unless ``options``
    name another; its vulnerability scores it)."""
    from .declarers import make_declarer

    return make_declarer(name, vulnerable=p.declarer_vulnerable, **{"board": p.board, **options})


def run_job(job: Job, *, soft_timeout: float | None = None) -> BoardResult:
    """Play one board and analyse it double-dummy.  Pure: same job, same result (for
    seeded players without a per-decision timeout cutting them short), in whichever
    process and after whichever other job it runs -- node counts included, except those
    of DDS's multi-threaded batch solves (``mcdd``), whose threads share work as they go."""
    from .players import PlayTimeout, dd_fresh_start, dd_trace, log_notes

    dd_fresh_start()

    p = job.problem
    res = BoardResult(
        board=p.board,
        declarer=job.declarer,
        defense=job.defense,
        contract=p.contract,
        declarer_seat=p.declarer,
        index=job.index,
    )
    opts = job.opts()
    player = _declarer(p, job.declarer, opts)  # kept: its notes are read after the play
    t0, c0 = time.perf_counter(), time.thread_time()
    try:
        rec = play_problem(p, player, job.defense, options=opts, timeout=soft_timeout)
    except PlayTimeout as e:
        res.timeout = True
        res.error = str(e)
        res.wall_seconds = time.perf_counter() - t0
        res.cpu_seconds = time.thread_time() - c0
        return res
    contract = p.contract_obj
    seat = p.declarer_seat
    res.tricks = rec.declarer_tricks
    res.made = rec.made
    res.score = contract_score(contract, p.declarer_vulnerable, rec.declarer_tricks)
    res.seconds = rec.declarer_seconds
    res.nodes = rec.declarer_nodes
    res.play = rec.play_text
    # The plans' own notes where the report asks for them (``plan_notes``: ``--where``'s
    # losses by scheme), made after the declarer's seconds.
    res.notes = log_notes(player, rec.notes) if opts.get("plan_notes") else list(rec.notes)
    if opts.get("dd_analysis", True):
        trace = dd_trace(rec.deal, int(contract.denom), seat, rec.cards)
        res.dd_tricks = trace[0]
        side = seat & 1
        res.dd_losses = [
            (i, trace[i] - trace[i + 1])
            for i, s in enumerate(rec.seats)
            if (s & 1) == side and trace[i] > trace[i + 1]
        ]
        res.dd_lost = sum(lost for _, lost in res.dd_losses)
    res.wall_seconds = time.perf_counter() - t0
    res.cpu_seconds = time.thread_time() - c0
    return res


# -- the worker pool ----------------------------------------------------------------------------


def _worker_main(conn) -> None:  # pragma: no cover - runs in the worker process
    # What every job needs is imported before the first job arrives, and the job's clock
    # starts only when the worker says it has begun: a board's timeout measures the board,
    # not how long a fresh process took to start on a loaded machine.
    from . import declarers, defenders, players  # noqa: F401

    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        i, job = item
        try:
            conn.send(_STARTED)
            res = run_job(job)
        except BaseException as e:
            res = _raised(job, e)
        try:
            conn.send((i, res))
        except (BrokenPipeError, OSError):
            return


def _raised(job: Job, exc: BaseException) -> BoardResult:
    """The result of a job that raised, keeping the traceback for the report."""
    tb = "".join(traceback.format_exception(exc))
    return _failed(job, f"{type(exc).__name__}: {exc}", traceback_text=tb)


def _failed_with(job: Job, error: str, traceback_text: str | None) -> BoardResult:
    """A job the executor reports as raised (``failed`` of :class:`BatchExecutor`)."""
    return _failed(job, error, traceback_text=traceback_text)


def _failed(
    job: Job,
    error: str,
    *,
    timeout: bool = False,
    seconds: float = 0.0,
    traceback_text: str | None = None,
) -> BoardResult:
    p = job.problem
    return BoardResult(
        board=p.board,
        declarer=job.declarer,
        defense=job.defense,
        contract=p.contract,
        declarer_seat=p.declarer,
        timeout=timeout,
        error=error,
        traceback=traceback_text,
        wall_seconds=seconds,
        index=job.index,
    )


_STARTED = "started"  # a worker's word that it has begun the job it was sent


class _Worker:
    def __init__(self, ctx) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.index: int | None = None
        self.started: float | None = None  # when the worker began the job (its own word)

    def submit(self, i: int, job: Job) -> None:
        self.index = i
        self.started = None
        self.conn.send((i, job))

    def over_time(self, timeout: float, now: float) -> bool:
        return self.started is not None and now - self.started >= timeout

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.proc.join(2)
        if self.proc.is_alive():
            self.kill()
        else:
            self.conn.close()


def _default_context() -> str:
    return "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"


def _run_pool(
    jobs: Sequence[Job],
    workers: int,
    timeout: float | None,
    progress: Callable[[int, int, BoardResult], None] | None,
    context: str | None,
) -> list[BoardResult]:
    ctx = mp.get_context(context or _default_context())
    n = len(jobs)
    results: list[BoardResult | None] = [None] * n
    pending = deque(range(n))
    pool: list[_Worker] = []
    done = 0

    def finish(i: int, res: BoardResult) -> None:
        nonlocal done
        results[i] = res
        done += 1
        if progress is not None:
            progress(done, n, res)

    try:
        pool = [_Worker(ctx) for _ in range(max(1, min(workers, n)))]
        while done < n:
            for w in pool:
                if w.index is None and pending:
                    i = pending.popleft()
                    w.submit(i, jobs[i])
            busy = [w for w in pool if w.index is not None]
            clocks = [w.started for w in busy if w.started is not None]
            wait_for = None
            if timeout is not None and clocks:
                wait_for = max(0.0, min(clocks) + timeout - time.monotonic())
            ready = mp_wait([w.conn for w in busy], timeout=wait_for)
            for k, w in enumerate(pool):
                if w.index is None:
                    continue
                if w.conn in ready:
                    i = w.index
                    try:
                        message = w.conn.recv()
                    except (EOFError, OSError):
                        res = _failed(jobs[i], f"worker process died (exit code {w.proc.exitcode})")
                        w.kill()
                        pool[k] = _Worker(ctx)
                    else:
                        if message == _STARTED:
                            w.started = time.monotonic()
                            continue
                        _, res = message
                        w.index = None
                    finish(i, res)
                elif timeout is not None and w.over_time(timeout, time.monotonic()):
                    i = w.index
                    w.kill()
                    pool[k] = _Worker(ctx)
                    finish(
                        i,
                        _failed(
                            jobs[i], f"timed out after {timeout:g} s", timeout=True, seconds=timeout
                        ),
                    )
    finally:
        for w in pool:
            if w.index is None:
                w.stop()
            else:
                w.kill()
    return [r for r in results if r is not None]


# -- statistics ---------------------------------------------------------------------------------

# fmt: off
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
    2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
    2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)
# fmt: on


def t_quantile_975(df: int) -> float:
    """Student's t 0.975 quantile: a table to 30 degrees of freedom, then the Cornish-Fisher
    expansion (Abramowitz & Stegun 26.7.5; 1.9799 at 120, 1.9623 at 999)."""
    if df < 1:
        return math.inf
    if df <= 30:
        return _T975[df - 1]
    z = 1.959963984540054
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / df + g2 / df**2 + g3 / df**3 + g4 / df**4


def ci95_board_a_match(wins: int, losses: int, ties: int) -> tuple[float, float]:
    """95% CI of the mean per-board difference (win +1, tie 0, loss -1), as Smith did."""
    n = wins + losses + ties
    if n == 0:
        return (0.0, 0.0)
    mean = (wins - losses) / n
    if n == 1:
        return (-1.0, 1.0)
    var = (wins * (1 - mean) ** 2 + losses * (-1 - mean) ** 2 + ties * mean**2) / (n - 1)
    half = t_quantile_975(n - 1) * math.sqrt(var / n)
    return (round(mean - half, 5), round(mean + half, 5))


# -- the report ---------------------------------------------------------------------------------


@dataclass
class DeclarerSummary:
    tricks_mean: float | None
    made_rate: float | None
    score_mean: float | None
    dd_tricks_lost_mean: float | None
    seconds_per_deal: float | None
    nodes_per_deal: float | None
    timeouts: int
    errors: int = 0
    completed: int = 0


@dataclass
class HeadToHead:
    a: str
    b: str
    wins: int
    losses: int
    ties: int
    ci95: tuple[float, float]

    @property
    def boards(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def margin(self) -> float:
        return (self.wins - self.losses) / self.boards if self.boards else 0.0


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


@dataclass
class MatchReport:
    """Results of :func:`run_match`; ``to_json()`` is the ``match bridge`` JSON contract."""

    boards: int
    declarers: list[str]
    defense: str
    results: list[BoardResult]
    seconds: float = 0.0
    options: dict = field(default_factory=dict)

    def for_declarer(self, name: str) -> list[BoardResult]:
        return [r for r in self.results if r.declarer == name]

    @property
    def failures(self) -> list[BoardResult]:
        """Jobs that raised, in board order: never folded into the figures silently."""
        return [r for r in self.results if r.failed]

    def summary(self, name: str) -> DeclarerSummary:
        rs = self.for_declarer(name)
        ok = [r for r in rs if r.completed]
        nodes = [r.nodes for r in ok if r.nodes is not None]
        return DeclarerSummary(
            tricks_mean=_mean([r.tricks for r in ok]),  # type: ignore[misc]
            made_rate=_mean([1.0 if r.made else 0.0 for r in ok]),
            score_mean=_mean([r.score for r in ok]),  # type: ignore[misc]
            dd_tricks_lost_mean=_mean([r.dd_lost for r in ok if r.dd_lost is not None]),
            seconds_per_deal=_mean([r.seconds for r in ok]),
            nodes_per_deal=_mean(nodes) if nodes else None,
            timeouts=sum(1 for r in rs if r.timeout),
            errors=sum(1 for r in rs if r.failed),
            completed=len(ok),
        )

    def head_to_head(self) -> list[HeadToHead]:
        by: dict[tuple[int, str], BoardResult] = {(r.index, r.declarer): r for r in self.results}
        boards = list(dict.fromkeys(r.index for r in self.results))
        out = []
        for a, b in combinations(self.declarers, 2):
            wins = losses = ties = 0
            for bd in boards:
                ra, rb = by.get((bd, a)), by.get((bd, b))
                oka = ra is not None and ra.completed
                okb = rb is not None and rb.completed
                if oka and okb:
                    if ra.score > rb.score:  # type: ignore[operator,union-attr]
                        wins += 1
                    elif ra.score < rb.score:  # type: ignore[operator,union-attr]
                        losses += 1
                    else:
                        ties += 1
                elif oka:
                    wins += 1
                elif okb:
                    losses += 1
                else:
                    ties += 1
            out.append(HeadToHead(a, b, wins, losses, ties, ci95_board_a_match(wins, losses, ties)))
        return out

    def to_dict(self) -> dict:
        decl = {}
        for name in self.declarers:
            s = self.summary(name)
            decl[name] = {
                "tricks_mean": s.tricks_mean,
                "made_rate": s.made_rate,
                "score_mean": s.score_mean,
                "dd_tricks_lost_mean": s.dd_tricks_lost_mean,
                "seconds_per_deal": s.seconds_per_deal,
                "nodes_per_deal": s.nodes_per_deal,
                "timeouts": s.timeouts,
                "errors": s.errors,
            }
        return {
            "boards": self.boards,
            "declarers": decl,
            "head_to_head": [
                {
                    "a": h.a,
                    "b": h.b,
                    "wins": h.wins,
                    "losses": h.losses,
                    "ties": h.ties,
                    "ci95": [h.ci95[0], h.ci95[1]],
                }
                for h in self.head_to_head()
            ],
            "results": [r.to_json_row() for r in self.results],
            "errors": [r.to_error_row() for r in self.failures],
        }

    def to_json(self, **kw: object) -> str:
        return json.dumps(self.to_dict(), **kw)  # type: ignore[arg-type]

    def to_text(self, *, title: str | None = None) -> str:
        head = title or f"Declarer match: {self.boards} boards, defence {self.defense}"
        lines = [head, ""]
        cols = (
            "declarer",
            "tricks",
            "made",
            "score",
            "DD lost",
            "s/deal",
            "nodes/deal",
            "timeouts",
            "failed",
        )
        rows = []
        for name in self.declarers:
            s = self.summary(name)

            def f(x: float | None, fmt: str) -> str:
                return "-" if x is None else format(x, fmt)

            rows.append(
                (
                    name,
                    f(s.tricks_mean, ".2f"),
                    f(None if s.made_rate is None else 100 * s.made_rate, ".0f") + "%",
                    f(s.score_mean, "+.1f"),
                    f(s.dd_tricks_lost_mean, ".2f"),
                    f(s.seconds_per_deal, ".2f"),
                    f(s.nodes_per_deal, ".0f"),
                    str(s.timeouts),
                    str(s.errors),
                )
            )
        widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(cols)]
        lines.append(
            "  ".join(
                c.ljust(widths[0]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(cols)
            )
        )
        for r in rows:
            lines.append(
                "  ".join(
                    v.ljust(widths[0]) if i == 0 else v.rjust(widths[i]) for i, v in enumerate(r)
                )
            )
        h2h = self.head_to_head()
        if h2h:
            lines += [
                "",
                "Head to head (board-a-match; 95% CI of the mean board difference, "
                "win +1 / tie 0 / loss -1):",
            ]
            for h in h2h:
                sig = " *" if h.ci95[0] > 0 or h.ci95[1] < 0 else ""
                lines.append(
                    f"  {h.a} vs {h.b}: {h.wins} won, {h.losses} lost, {h.ties} tied;"
                    f" margin {h.margin:+.3f} [{h.ci95[0]:+.3f}, {h.ci95[1]:+.3f}]{sig}"
                )
        failures = self.failures
        if failures:
            lines += ["", f"{len(failures)} board{'s' if len(failures) != 1 else ''} failed"]
            lines += [f"  board {r.board} ({r.declarer}): {r.error}" for r in failures]
        return "\n".join(lines)


def run_match(
    records: Sequence[object],
    declarers: Sequence[str],
    defense: str,
    *,
    jobs: int = 1,
    timeout: float | None = None,
    progress: Callable[[int, int, BoardResult], None] | None = None,
    options: Mapping[str, object] | None = None,
    isolate: bool = False,
    mp_context: str | None = None,
    executor: BatchExecutor | None = None,
) -> MatchReport:
    """Every declarer plays every record against ``defense``.

    ``records`` are BoardRecords (or :class:`Problem`\\ s); ``declarers`` registry names of
    :data:`.declarers.DECLARERS` or import paths ``module:factory``; ``options`` go to the
    player factories (``samples``, ``seed``, ``timeout`` per decision) and to the job
    (``dd_analysis``: False skips the DD trace).  ``timeout`` is seconds per board.
    ``progress(done, total, result)`` is called as each job finishes.

    Worker processes start with ``mp_context`` (default "forkserver", safe when the caller
    runs threads, e.g. a Textual app): like any multiprocessing program that is not forked,
    the calling script must guard its entry point with ``if __name__ == "__main__":``.
    An import-path declarer factory must accept ``**options``.

    ``executor`` (e.g. a Dask cluster's, ``workbench.cluster``) runs the jobs instead of
    the local pool, with the same results.  ``timeout`` is then checked between cards, as
    in-process (a worker cannot be killed from here), and an import-path declarer must be
    importable on the workers.
    """
    from .defenders import DEFENDERS

    if defense not in DEFENDERS:
        raise ValueError(
            f"unknown defence {defense!r}; expected one of {', '.join(sorted(DEFENDERS))}"
        )
    problems = [problem_from_record(r, i) for i, r in enumerate(records)]
    opts = tuple(sorted((options or {}).items()))
    job_list = [Job(p, d, defense, opts, i) for i, p in enumerate(problems) for d in declarers]
    t0 = time.perf_counter()
    if executor is not None:
        results = executor(
            partial(run_job, soft_timeout=timeout), job_list, failed=_failed_with, progress=progress
        )
    elif jobs <= 1 and not isolate:
        results = []
        for k, job in enumerate(job_list):
            try:
                res = run_job(job, soft_timeout=timeout)
            except Exception as e:
                res = _raised(job, e)
            results.append(res)
            if progress is not None:
                progress(k + 1, len(job_list), res)
    else:
        results = _run_pool(job_list, max(1, jobs), timeout, progress, mp_context)
    rank = {d: i for i, d in enumerate(declarers)}
    results.sort(key=lambda r: (r.index, rank.get(r.declarer, 0)))
    return MatchReport(
        boards=len(problems),
        declarers=list(declarers),
        defense=defense,
        results=results,
        seconds=time.perf_counter() - t0,
        options=dict(options or {}),
    )
