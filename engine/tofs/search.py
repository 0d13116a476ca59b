"""Total-Order Forward Search: one search core, three modes.

A node holds a state and a totally ordered task list; expansion always takes the *first*
task (Smith 1997, Ch. 3-4).  A compound task is replaced by the subtasks of each applicable
method instance; an operator is applied.  Every method instance -- applicable or not -- is
an *alternative* of the node, and every alternative ends the run with exactly one reason
(:class:`~engine.tofs.results.Reason`).

* ``optimise`` minimises the summed operator costs by depth-first branch and bound, with a
  transposition table keyed on (remaining tasks, cost-relevant state) and the
  dissertation's partial plan pruner on flagged tasks.  ``full_tree`` switches branch and
  bound and transpositions off and reproduces the dissertation's exhaustive search.
* ``game`` builds a decision tree: decision nodes take the max, external-agent nodes an
  external-agent criterion over move probabilities, leaves the domain's evaluation.
* ``first`` returns the first complete plan found depth-first (SHOP style).

The three share expansion, node accounting, budgets, tracing and the explanation records;
they differ only in how values are backed up.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from .criteria import ExternalCriterion, WeightedAverage
from .domain import Domain, Method, Mode, Operator, Problem, Task, call_text
from .expressions import Condition
from .results import (
    AlternativeRecord,
    ChoicePoint,
    Expansion,
    Failure,
    PlanStep,
    PolicyEdge,
    PolicyNode,
    Reason,
    RunResult,
    Status,
)
from .trace import EventKind, Trace

__all__ = [
    "CancelToken",
    "EvaluationError",
    "Mode",
    "Progress",
    "SearchOptions",
    "SearchStopped",
    "Watch",
    "checkpoint",
    "plan",
    "resident_mb",
    "watching",
]
_INF = math.inf

# How often (seconds) a run with a memory budget reads its resident size: often enough to
# stop within a few tens of MB of the budget, rarely enough to cost nothing.
_MEMORY_EVERY = 0.05
try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):
    _PAGE = 4096


def resident_mb() -> float | None:
    """This process's resident memory in MB, or None where it cannot be read.

    Linux: ``/proc/self/statm`` (the current size, one small read).  Elsewhere the peak
    from ``getrusage`` -- never below the current size, so a budget on it stops no later.
    """
    try:
        with open("/proc/self/statm", "rb") as f:
            pages = int(f.read().split()[1])
        return pages * _PAGE / 1e6
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    except (ImportError, OSError):
        return None
    return peak / 1e6 if sys.platform == "darwin" else peak / 1e3  # bytes there, KiB here


class SearchStopped(BaseException):
    """Raised by :func:`checkpoint` inside a domain's own long loop (matching a
    precondition against millions of bindings) when the running search must stop.

    A ``BaseException``, so that a domain's ``except Exception`` cannot swallow it; the
    search catches it where it called into the domain and ends that loop there."""


_ACTIVE = threading.local()  # the search running in this thread, for checkpoint()


def checkpoint() -> None:
    """For a domain's loops that may run long without the search seeing a node (binding
    enumeration): stops the running search there at its budget, cancel or interrupt by
    raising :class:`SearchStopped`.  Does nothing outside a search.  Costs a clock read:
    call it every thousand steps or so, not every step."""
    search = getattr(_ACTIVE, "search", None)
    if search is not None and search.poll():
        raise SearchStopped


class Watch:
    """A run's budgets, cancel and interrupt, looked at from anywhere: the search polls its
    own, and :func:`watching` lends one to the work before a search -- reading and
    compiling a large input -- whose loops call :func:`checkpoint` as the binding loops do.
    """

    def __init__(self, options: SearchOptions, now: float | None = None) -> None:
        now = time.perf_counter() if now is None else now
        start = options.started if options.started is not None else now
        self.deadline = start + options.time_budget if options.time_budget else None
        self.memory = options.memory_budget
        self.cancel = options.cancel
        self.next_memory = 0.0
        self.stop: Status | None = None

    def poll(self) -> bool:
        """Whether the run must stop (and why, in ``stop``): cancelled or interrupted, past
        the time budget, or over the memory budget."""
        if self.stop is not None:
            return True
        if self.cancel is not None and self.cancel.cancelled:
            self.stop = Status.INTERRUPTED if self.cancel.interrupted else Status.CANCELLED
            return True
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            self.stop = Status.TIME_BUDGET
        elif self.memory is not None and now >= self.next_memory:
            self.next_memory = now + _MEMORY_EVERY
            used = resident_mb()
            if used is not None and used > self.memory:
                self.stop = Status.MEMORY_BUDGET
        return self.stop is not None


@contextmanager
def watching(options: SearchOptions) -> Iterator[Watch]:
    """The run's budgets over the work inside the ``with`` (reading its input): a
    :func:`checkpoint` there raises :class:`SearchStopped` once one runs out, and the
    watch's ``stop`` says which.  Inside a running search, that search's budgets rule."""
    watch = Watch(options)
    outer = getattr(_ACTIVE, "search", None)
    if outer is None:
        _ACTIVE.search = watch
    try:
        yield watch
    finally:
        if outer is None:
            _ACTIVE.search = None


class EvaluationError(ValueError):
    """An expression raised while the planner evaluated it: says which one and where."""

    def __init__(self, where: str, field: str, source: str, error: BaseException) -> None:
        self.where, self.field, self.source, self.error = where, field, source, error
        super().__init__(f"{where} [{field}]: `{source}` raised {type(error).__name__}: {error}")


class CancelToken:
    """Thread-safe cancellation: the workbench sets it, the search polls it.  ``interrupt``
    is the same stop asked for by ctrl+c, which the run reports as "interrupted"."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.interrupted = False

    def cancel(self) -> None:
        self._event.set()

    def interrupt(self) -> None:
        self.interrupted = True
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass(frozen=True)
class Progress:
    nodes: int
    depth: int
    best: float | None
    elapsed: float


@dataclass
class SearchOptions:
    """How to search.  Every switch is an argument, never a global."""

    mode: Mode = "optimise"
    full_tree: bool = False
    partial_plan_prune: bool = True
    transpositions: bool = True
    node_budget: int | None = None
    time_budget: float | None = None
    # Stop when the process's resident memory passes this many MB (polled every 50 ms).
    memory_budget: float | None = None
    # When the time budget started counting (a ``time.perf_counter()`` reading; default:
    # when the search starts).  Reading the files, a why-not's base run and its re-plans,
    # an explanation's re-plans all share one budget by sharing this.
    started: float | None = None
    cancel: CancelToken | None = None
    progress: Callable[[Progress], None] | None = None
    progress_every: int = 2000
    trace: Trace | None = None
    criterion: ExternalCriterion = field(default_factory=WeightedAverage)
    likelihood_cutoff: float | None = None
    # {task: alternative} fixes an alternative.  A task is named by its name, label or call
    # text (the first node with that task is forced), or by a node id (an int) of an earlier
    # run with the same options: runs are deterministic, so the ids agree up to that node.
    force: Mapping[str | int, str] | None = None
    # Stop the whole run at the first task that no method can accomplish (EDAPS: the
    # design is unmanufacturable; the dissertation stops there too).
    abort_on_dead_end: bool = False
    # Prune a node whose state and remaining task list equal those of a node above it on
    # its own path (a loop).  Sound -- whatever the repeat could do, its ancestor can -- and
    # what makes depth-first search come back on recursive domains (HDDL's).
    prune_repeats: bool = False
    # Record a node where only one alternative applied as a choice point too, with why the
    # others could not (HDDL: which methods' preconditions failed, on which literal).
    record_failed_alternatives: bool = False
    # Prune a step whose first task is one still being decomposed above it, in the same
    # state: recursion that comes back to where it started with more left to do -- left
    # recursion (HDDL's "get-to via"), or actions that undo each other on the way (Satellite's
    # switching an instrument off and on) -- HyperTensioN's "dejavu".  It can lose plans,
    # so a run that prunes this way and finds none ends ``incomplete``, never "no plan".
    prune_recursion: bool = False
    # Depth-first search that dives (a recursion that keeps finding something to do) never
    # comes back to the alternatives above it.  ``depth_limit`` leaves a node this many
    # steps below the root unexpanded; ``deepening`` (first-plan mode) searches with that
    # limit, then twice it, and so on, until a plan is found, a round was not cut, or a
    # budget stops it (budgets count over all rounds).  A run cut by the limit that finds
    # no plan ends ``incomplete``.  Off by default: on the IPC domains it finds plans
    # where the search dives (Multiarm) but costs more where the tree is broad near the
    # root (README, "Completeness").
    depth_limit: int | None = None
    deepening: int | None = None
    # Re-planning from inside an earlier run (``engine.tofs.why_not.replan_at``): the root
    # takes this node id and starts with this cost already spent, so the new run's node
    # ids, values and choice-point totals read like the earlier run's.
    start_node: int = 0
    start_cost: float = 0.0

    def summary(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "full_tree": self.full_tree,
            "partial_plan_prune": self.partial_plan_prune,
            "transpositions": self.transpositions and not self.full_tree,
            "node_budget": self.node_budget,
            "time_budget": self.time_budget,
            **({"memory_budget": self.memory_budget} if self.memory_budget is not None else {}),
            "criterion": self.criterion.name,
            "likelihood_cutoff": self.likelihood_cutoff,
            "force": {str(k): v for k, v in self.force.items()} if self.force else None,
            "abort_on_dead_end": self.abort_on_dead_end,
            "prune_repeats": self.prune_repeats,
            "record_failed_alternatives": self.record_failed_alternatives,
            "prune_recursion": self.prune_recursion,
            **({"depth_limit": self.depth_limit} if self.depth_limit is not None else {}),
            **({"deepening": self.deepening} if self.deepening is not None else {}),
            **(
                {"start_node": self.start_node, "start_cost": self.start_cost}
                if self.start_node or self.start_cost
                else {}
            ),
        }


# --------------------------------------------------------------------------- internals


@dataclass(slots=True, eq=False)
class _Pending:
    """A failure remembered cheaply (references only); explained only if it is reported."""

    task: Task
    method: str | _Alt | None  # an alternative's label is written only if reported
    field: str
    expr: Condition | None
    state: Any
    env: Mapping[str, Any]
    depth: int
    node: int
    causes: tuple[_Pending, ...] = ()
    via: Cons = None  # (task, alternative) from the top down to where it failed


@dataclass(slots=True, eq=False)
class _Alt:
    name: str  # the method's or operator's; the label adds the bindings
    method: Method | None
    bindings: tuple[tuple[str, Any], ...]
    ok: bool
    reason: Reason | None = None
    failure: _Pending | None = None
    state: Any = None
    tasks: tuple[Task, ...] = ()
    step: tuple[str, tuple[Any, ...], dict[str, float], Any] | None = None
    cost: float = 0.0
    weight: float | None = None
    fmt: Callable[[Any], str] | None = None  # formats binding values, for the label
    _label: str | None = None

    @property
    def label(self) -> str:
        """``name(var=value, ...)``: written when first asked for, since a node may have
        thousands of method instances and most are never shown to anyone."""
        if self._label is None:
            if not self.bindings or self.fmt is None:
                self._label = self.name
            else:
                fmt = self.fmt
                self._label = call_text(self.name, tuple(f"{k}={fmt(v)}" for k, v in self.bindings))
        return self._label


@dataclass(slots=True, eq=False)
class _Entry:
    """What happened to one alternative at a node, kept until the node's record is built."""

    alt: _Alt
    reason: Reason | None = None
    value: float | None = None
    bound: bool = False
    node: int | None = None
    detail: str = ""
    compared: float | None = None
    failure: _Pending | None = None


@dataclass(slots=True, eq=False)
class _PendingChoice:
    node: int
    depth: int
    state: Any
    tasks: tuple[Task, ...]
    kind: str
    agent: Any
    value: float | None
    entries: list[_Entry]


# A cons list: (item, rest) or None.  Prepending is O(1); flattened once at the end.
Cons = tuple[Any, "Cons"] | None


def _through(failure: _Pending, task: Task, alternative: str) -> _Pending:
    """``failure`` as seen one level up: reached by taking ``alternative`` for ``task``."""
    f = failure  # built field by field: dataclasses.replace costs ten times as much here
    return _Pending(
        f.task,
        f.method,
        f.field,
        f.expr,
        f.state,
        f.env,
        f.depth,
        f.node,
        f.causes,
        ((task, alternative), f.via),
    )


def _flatten(c: Cons) -> list[Any]:
    out = []
    while c is not None:
        out.append(c[0])
        c = c[1]
    return out


@dataclass(slots=True, eq=False)
class _Out:
    value: float | None = None  # optimise/first: cost-to-go; game: utility
    steps: Cons = None
    path: Cons = None  # (node, task, alternative) expanded on the way, first first
    choices: Cons = None
    failure: _Pending | None = None
    bounded: bool = False
    incomplete: bool = False
    policy: PolicyNode | None = None
    profile: dict[str, float] = field(default_factory=dict)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


class _Search:
    def __init__(self, domain: Domain, problem: Problem, options: SearchOptions) -> None:
        self.d = domain
        self.p = problem
        self.o = options
        self.mode = options.mode
        self.tr = options.trace
        self.full = options.full_tree
        self.bnb = self.mode == "optimise" and not self.full
        self.use_tt = self.bnb and options.transpositions
        self.pruner = options.partial_plan_prune and self.mode != "game"
        self.tt: dict[Any, float] = {}
        self.state_key = domain.state_key
        lb = domain.hook("lower_bound")
        self.lower_bound: Callable[[Any, tuple[Task, ...]], float] | None = lb
        self.controlled = domain.hook("controlled")
        self.evaluate = domain.hook("evaluate", lambda s: 0.0)
        self.horizon = domain.hook("stop_planning")
        cutoff = options.likelihood_cutoff
        if cutoff is None:
            cutoff = float(domain.constant("likelihood_cutoff", 0.0))
        self.cutoff = cutoff
        self.force: dict[str | int, str] = dict(options.force or {})
        self.incumbent = _INF
        self.nodes = 0
        self.discarded = 0
        self.stop: Status | None = None
        self.aborted: _Pending | None = None
        self.stats = {
            "bound_pruned": 0,
            "transposed": 0,
            "partial_plan_pruned": 0,
            "likelihood_pruned": 0,
            "not_expanded": 0,
            "dead_ends": 0,
            "repeats_pruned": 0,
            "recursion_pruned": 0,
            "depth_cut": 0,
        }
        self.depth_limit = options.depth_limit if options.depth_limit is not None else sys.maxsize
        self.recursion = options.prune_recursion and self.mode != "game"
        # Tasks being decomposed in the current state: (task, length of the task list it
        # leaves when done), innermost last.
        self.decomposing: list[tuple[Task, int, Any]] = []
        self.repeats = options.prune_repeats and self.mode != "game"
        self.on_path: dict[Any, int] = {}  # (tasks, state key) -> node, for prune_repeats
        self.goal = problem.goal
        self.loops = self.repeats or self.recursion
        self.lazy = self.mode == "first" and self.tr is None and not self.force
        self.diagnostics: list[str] = []
        self._chosen_idx: dict[int, int] = {}
        self._labels: dict[Task, str] = {}
        self._descriptions: dict[Task, str] = {}
        self.max_depth = 0
        self.t0 = time.perf_counter()
        self.watch = Watch(options, self.t0)
        self.deadline = self.watch.deadline
        self.next_check = 0
        self.next_poll = 0  # alternatives made, for polling where no node is made
        self.next_progress = options.progress_every

    # ------------------------------------------------------------------ accounting
    def poll(self) -> bool:
        """Whether the run must stop (and why, in ``stop``): cancelled or interrupted, past
        the time budget, or over the memory budget."""
        if self.stop is None and self.watch.poll():
            self.stop = self.watch.stop
        return self.stop is not None

    def late(self) -> bool:
        """Well past the time budget (a quarter of a second): what is still to do after a
        stop -- the explanation of failures -- keeps to its cheap form."""
        return self.deadline is not None and time.perf_counter() > self.deadline + 0.25

    def _new_node(self, depth: int) -> int:
        self.nodes += 1
        if depth > self.max_depth:
            self.max_depth = depth
        if self.nodes >= self.next_check:
            self.next_check = self.nodes + 64
            self.poll()
        if self.o.node_budget is not None and self.nodes >= self.o.node_budget:
            self.stop = self.stop or Status.NODE_BUDGET
        if self.o.progress is not None and self.nodes >= self.next_progress:
            self.next_progress = self.nodes + self.o.progress_every
            best = None if self.incumbent == _INF else self.incumbent
            self.o.progress(Progress(self.nodes, depth, best, time.perf_counter() - self.t0))
        return self.nodes - 1 + self.o.start_node

    # ------------------------------------------------------------------ expansion
    def _bindings(
        self, m: Method, state: Any, env: dict[str, Any]
    ) -> Iterator[tuple[dict[str, Any], tuple[tuple[str, Any], ...]]]:
        """Each binding of ``m``'s variables: the environment, and the (variable, value)
        pairs it added, in the order the method binds them."""
        if not m.bindings:
            yield env, ()
            return
        yield from self._bind_from(m, 0, state, env, ())

    def _bind_from(
        self,
        m: Method,
        i: int,
        state: Any,
        env: dict[str, Any],
        bound: tuple[tuple[str, Any], ...],
    ) -> Iterator[tuple[dict[str, Any], tuple[tuple[str, Any], ...]]]:
        var, gen = m.bindings[i]
        try:
            values = gen.evaluate(state, env)
            if isinstance(values, (set, frozenset)):
                values = sorted(values)  # determinism: never iterate a set in hash order
            # Anything else is taken as it comes: a generator (HDDL's match) makes its
            # bindings one at a time, so memory stays bounded however many there are.
            it = iter(values)
        except SearchStopped:
            return
        except Exception as exc:
            raise EvaluationError(
                f"method {m.spec.task}.{m.name}", f"bindings[{i}]", gen.source, exc
            ) from exc
        last = i + 1 == len(m.bindings)
        names = var if isinstance(var, tuple) else None
        while True:
            try:
                v = next(it)
            except StopIteration:
                return
            except SearchStopped:
                return
            except Exception as exc:
                raise EvaluationError(
                    f"method {m.spec.task}.{m.name}", f"bindings[{i}]", gen.source, exc
                ) from exc
            e = dict(env)
            pairs: tuple[tuple[str, Any], ...]
            if names is not None:
                pairs = tuple(zip(names, v, strict=True))
                e.update(pairs)
            else:
                assert isinstance(var, str)
                pairs = ((var, v),)
                e[var] = v
            if last:
                yield e, bound + pairs
            else:
                yield from self._bind_from(m, i + 1, state, e, bound + pairs)
            if self.stop is not None:
                return

    def _apply(
        self,
        op: Operator,
        args: tuple[Any, ...],
        state: Any,
        rest: tuple[Task, ...],
        alt: _Alt,
        depth: int,
        node: int,
    ) -> _Alt:
        env = dict(zip(op.params, args, strict=True))
        fld = "precondition"
        try:
            if op.precondition is not None and not op.precondition.evaluate(state, env):
                alt.ok = False
                alt.reason = Reason.PRECONDITION_FAILED
                alt.failure = _Pending(
                    (op.name, args),
                    alt.method.name if alt.method else None,
                    "operator precondition",
                    op.precondition,
                    state,
                    env,
                    depth,
                    node,
                )
                return alt
            costs = {}
            for comp, ce in op.costs:
                fld = f"costs.{comp}"
                costs[comp] = float(ce.evaluate(state, env))
            fld = "effect"
            new_state = op.effect(state, *args) if op.effect is not None else state
        except EvaluationError:
            raise
        except Exception as exc:
            src = (
                op.spec.effect or ""
                if fld == "effect"
                else (op.spec.precondition if fld == "precondition" else op.spec.costs[fld[6:]])
            )
            raise EvaluationError(f"operator {call_text(op.name, args)}", fld, src, exc) from exc
        cost = sum(costs.values())
        if cost < 0 and self.mode == "optimise":
            raise EvaluationError(
                f"operator {call_text(op.name, args)}",
                "costs",
                repr(costs),
                ValueError("costs must not be negative in optimise mode"),
            )
        alt.state = new_state
        alt.tasks = rest
        alt.step = (op.name, args, costs, state)
        alt.cost = cost
        return alt

    def _expand(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> list[_Alt]:
        return list(self._alternatives(state, tasks, depth, node, assumptions))

    def _alternatives(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> Iterator[_Alt]:
        """The node's alternatives in order: every method instance, applicable or not, or
        the one operator.  A generator, so that ``first`` mode makes the later ones only
        when the earlier ones led nowhere (the state never changes under it)."""
        task = tasks[0]
        name, args = task
        rest = tasks[1:]
        tr = self.tr
        op = self.d.operators.get(name)
        if op is not None:
            yield self._apply(op, args, state, rest, _Alt(name, None, (), True), depth, node)
            return
        info = self.d.tasks[name]
        base = dict(zip(info.params, args, strict=True))
        base["assumptions"] = assumptions
        fmt = self._fmt
        for m in info.methods:
            if tr is not None:
                tr.emit(EventKind.METHOD_TRIED, node, task=task, method=m.name)
            base["view"] = m.spec.belief_view
            produced = False
            for env, bnd in self._bindings(m, state, base):
                produced = True
                self.next_poll += 1
                if self.next_poll >= 64:  # a node's alternatives can run into the millions
                    self.next_poll = 0
                    if self.poll():
                        return
                if tr is not None and bnd:
                    tr.emit(EventKind.BINDING, node, method=m.name, bindings=bnd)
                alt = _Alt(m.name, m, bnd, True, fmt=fmt)
                fld, src = "precondition", m.spec.precondition
                try:
                    ok = m.precondition is None or bool(m.precondition.evaluate(state, env))
                    if tr is not None:
                        tr.emit(EventKind.PRECONDITION, node, method=alt.label, result=ok)
                    if not ok:
                        alt.ok = False
                        alt.reason = Reason.PRECONDITION_FAILED
                        alt.failure = _Pending(
                            task, alt, "precondition", m.precondition, state, env, depth, node
                        )
                        yield alt
                        continue
                    if m.weight is not None:
                        fld, src = "weight", m.spec.weight or ""
                        alt.weight = float(m.weight.evaluate(state, env))
                    if m.subtasks is not None:
                        fld = "subtasks"
                        sub = tuple(
                            (c.name, tuple(a.evaluate(state, env) for a in c.args))
                            for c in m.subtasks
                        )
                        alt.state, alt.tasks = state, sub + rest
                    else:
                        c = m.operator
                        assert c is not None
                        fld, src = "operator", c.source
                        opargs = tuple(a.evaluate(state, env) for a in c.args)
                        self._apply(self.d.operators[c.name], opargs, state, rest, alt, depth, node)
                except EvaluationError:
                    raise
                except Exception as exc:
                    raise EvaluationError(
                        f"method {m.spec.task}.{alt.label}", fld, src, exc
                    ) from exc
                yield alt
            if self.stop is not None:
                return  # the bindings may have been cut short: claim nothing about them
            if not produced:
                yield (
                    _Alt(
                        m.name,
                        m,
                        (),
                        False,
                        Reason.NO_BINDING,
                        _Pending(
                            task,
                            m.name,
                            "bindings",
                            m.bindings[0][1],
                            state,
                            base | {},
                            depth,
                            node,
                        ),
                    )
                )

    def _dead_end(
        self, state: Any, tasks: tuple[Task, ...], depth: int, node: int, alts: list[_Alt]
    ) -> _Out:
        """No alternative applies: the node fails, with every alternative's failure."""
        self.stats["dead_ends"] += 1
        if len(alts) == 1 and alts[0].method is None:  # an operator that cannot apply
            failure = alts[0].failure
        else:
            causes = tuple(a.failure for a in alts if a.failure is not None)
            failure = _Pending(tasks[0], None, "no method", None, state, {}, depth, node, causes)
        if self.o.abort_on_dead_end:
            self.aborted = failure
            self.stop = Status.NO_PLAN
        return _Out(failure=failure)

    def _loop(
        self, tasks: tuple[Task, ...], state: Any, alt: _Alt, ent: _Entry, node: int
    ) -> tuple[bool, Any, list[tuple[Task, int, Any]]]:
        """Whether ``alt`` is pruned as a loop (``prune_repeats``, ``prune_recursion``; its
        entry then says why), and else its key on the path and the tasks being decomposed
        at its child."""
        path_key = None
        if self.repeats:
            path_key = (alt.tasks, self.state_key(alt.state))
            ancestor = self.on_path.get(path_key)
            if ancestor is not None:
                ent.reason, ent.compared = Reason.REPEATED, float(ancestor)
                self.stats["repeats_pruned"] += 1
                if self.tr is not None:
                    self.tr.emit(
                        EventKind.NODE_PRUNED,
                        node,
                        alternative=alt.label,
                        reason=str(Reason.REPEATED),
                        ancestor=ancestor,
                    )
                return True, None, self.decomposing
        inner = self.decomposing
        if self.recursion:
            found = self._decomposing(tasks, state, alt)
            if found is None:
                ent.reason, ent.detail = (
                    Reason.RECURSION,
                    "its first task is still being decomposed above it, in the same state",
                )
                self.stats["recursion_pruned"] += 1
                return True, None, inner
            inner = found
        return False, path_key, inner

    def _decomposing(
        self, tasks: tuple[Task, ...], state: Any, alt: _Alt
    ) -> list[tuple[Task, int, Any]] | None:
        """The tasks still being decomposed at ``alt``'s child, each with the state it was
        taken up in, or None if the child's first task is one of them in that same state
        (see ``SearchOptions.prune_recursion``)."""
        size = len(alt.tasks)
        still = [entry for entry in self.decomposing if entry[1] < size]
        if alt.step is None:  # a method: its task is open until the list is back to the rest
            still.append((tasks[0], len(tasks) - 1, self.state_key(state)))
        if alt.tasks:
            first = alt.tasks[0]
            open_in = [entry[2] for entry in still if entry[0] == first]
            if open_in and self.state_key(alt.state) in open_in:
                return None
        return still

    def _fmt(self, v: Any) -> str:
        fmt = self.d.registry.hooks.get("format_value")
        return fmt(v) if fmt else (f"{v:g}" if isinstance(v, float) else str(v))

    def _forced(self, task: Task, alts: list[_Alt], node: int) -> int | None:
        """Index of the alternative ``force`` fixes at this node, if any (used once)."""
        if not self.force:
            return None
        for key in (node, task[0], self.d.task_label(task), call_text(*task)):
            if key in self.force:
                want = self.force[key]
                for i, a in enumerate(alts):
                    if a.label == want or (a.method is not None and a.method.name == want):
                        del self.force[key]
                        return i
        return None

    # ------------------------------------------------------------------ cost modes
    def visit(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        g: float,
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> _Out:
        tr = self.tr
        if not tasks:
            if self.goal is not None and not self.goal.evaluate(state, {}):
                self.stats["dead_ends"] += 1
                goal = _Pending(("goal", ()), None, "goal", self.goal, state, {}, depth, node)
                return _Out(failure=goal)
            if g < self.incumbent:
                self.incumbent = g
            if tr is not None:
                tr.emit(EventKind.LEAF_VALUED, node, value=g, complete=True)
            return _Out(value=0.0)
        if depth >= self.depth_limit:
            self.stats["depth_cut"] += 1
            return _Out(incomplete=True)
        if tr is not None:
            tr.emit(
                EventKind.NODE_EXPANDED, node, task=tasks[0], depth=depth, g=g, tasks=len(tasks)
            )
        # ``first`` mode makes alternatives as it goes (the rest only once a plan is
        # found, for the record); the other modes, tracing and forcing need them all first.
        info = self.d.tasks.get(tasks[0][0])
        flagged = self.pruner and info is not None and info.spec.partial_plan_prune
        lazy = self.lazy and not flagged
        source: Iterator[_Alt] | list[_Alt]
        if lazy:
            source = self._alternatives(state, tasks, depth, node, assumptions)
            alts, entries, forced = [], [], None
        else:
            alts = source = self._expand(state, tasks, depth, node, assumptions)
            if not any(a.ok for a in alts):
                if self.stop is not None:  # stopped while making them: nothing is proved
                    return _Out(incomplete=True)
                return self._dead_end(state, tasks, depth, node, alts)
            forced = self._forced(tasks[0], alts, node)
            if flagged and forced is None and len(alts) > 1:
                return self._visit_pruned(state, tasks, g, depth, node, assumptions, alts)
            entries = [_Entry(a) for a in alts]
        best_i = -1
        best_total = _INF
        best_out = _Out()
        deepest: _Pending | None = None
        deepest_via: _Alt | None = None  # the alternative the deepest failure lies under
        bounded = incomplete = any_ok = False
        for i, alt in enumerate(source):
            if lazy:
                if self.stop is not None and best_i < 0:
                    # Stopped (a budget, in a child or while the bindings were made):
                    # nothing here will be reported, so make and keep no more of them.
                    incomplete = True
                    break
                ent = _Entry(alt)
                alts.append(alt)
                entries.append(ent)
                any_ok = any_ok or alt.ok
            else:
                ent = entries[i]
            if not alt.ok:
                ent.reason, ent.failure = alt.reason, alt.failure
                if deepest is None or (alt.failure and alt.failure.depth > deepest.depth):
                    deepest, deepest_via = alt.failure, None
                continue
            if forced is not None and i != forced:
                ent.reason, ent.detail = Reason.NOT_EXPANDED, "another alternative was forced"
                continue
            if self.stop is not None:
                self._mark_stopped(ent)
                incomplete = True
                if lazy and best_i < 0:  # nothing here will be reported: make no more
                    break
                continue
            if self.mode == "first" and best_i >= 0:
                ent.reason, ent.detail = Reason.NOT_EXPANDED, "a plan was already found"
                continue
            child_g = g + alt.cost
            if self.bnb:
                lb = child_g
                if self.lower_bound is not None and alt.tasks:
                    lb += self.lower_bound(alt.state, alt.tasks)
                limit = self.incumbent - 1e-9 * max(1.0, abs(self.incumbent))
                if lb >= limit:
                    ent.reason, ent.value, ent.bound = Reason.BOUND_PRUNED, lb, True
                    ent.compared = self.incumbent
                    self.stats["bound_pruned"] += 1
                    bounded = True
                    if tr is not None:
                        tr.emit(
                            EventKind.NODE_PRUNED,
                            node,
                            alternative=alt.label,
                            reason=str(Reason.BOUND_PRUNED),
                            bound=lb,
                            best=self.incumbent,
                        )
                    continue
                if self.use_tt:
                    key = (alt.tasks, self.state_key(alt.state))
                    seen = self.tt.get(key)
                    if seen is not None and seen <= child_g + 1e-9 * max(1.0, abs(child_g)):
                        ent.reason, ent.value, ent.bound = Reason.TRANSPOSED, child_g, True
                        ent.compared = seen
                        self.stats["transposed"] += 1
                        bounded = True
                        if tr is not None:
                            tr.emit(
                                EventKind.NODE_PRUNED,
                                node,
                                alternative=alt.label,
                                reason=str(Reason.TRANSPOSED),
                                g=child_g,
                                seen=seen,
                            )
                        continue
                    self.tt[key] = child_g
            if self.loops:
                pruned, path_key, inner = self._loop(tasks, state, alt, ent, node)
                if pruned:
                    continue
            entry_bound = self.incumbent
            child = self._new_node(depth + 1)
            ent.node = child
            if tr is not None:
                tr.emit(
                    EventKind.NODE_CREATED, child, parent=node, alternative=alt.label, cost=alt.cost
                )
            if self.loops:
                outer = self.decomposing
                if path_key is not None:
                    self.on_path[path_key] = child
                self.decomposing = inner
                out = self.visit(
                    alt.state, alt.tasks, child_g, depth + 1, child, self._assume(assumptions, alt)
                )
                self.decomposing = outer
                if path_key is not None:
                    del self.on_path[path_key]
            else:
                out = self.visit(
                    alt.state, alt.tasks, child_g, depth + 1, child, self._assume(assumptions, alt)
                )
            if alt.step is not None:
                out.steps = ((alt.step, child), out.steps)
            ent.failure = out.failure
            incomplete = incomplete or out.incomplete
            bounded = bounded or out.bounded
            if out.value is None:
                if out.incomplete:
                    ent.reason, ent.detail = (
                        Reason.NOT_EXPANDED,
                        (
                            f"search stopped ({self.stop})"
                            if self.stop is not None
                            else f"cut at the depth limit of {self.depth_limit} steps"
                        ),
                    )
                elif out.bounded:
                    ent.reason, ent.value, ent.bound = Reason.BOUND_PRUNED, entry_bound, True
                    ent.compared = self.incumbent
                else:
                    ent.reason = Reason.DEAD_END
                    self.stats["dead_ends"] += 1
                if out.failure is not None and (
                    deepest is None or out.failure.depth > deepest.depth
                ):
                    deepest = out.failure
                    deepest_via = alt
                continue
            total = child_g + out.value + 0.0
            ent.value = total
            if best_i < 0 or total < best_total - 1e-9 * max(1.0, abs(best_total)):
                best_i, best_total = i, total
                best_out = out
        if best_i < 0:
            if lazy and self.stop is not None:
                incomplete = True  # the alternatives may have been cut short
            elif lazy and not any_ok:
                return self._dead_end(state, tasks, depth, node, alts)
            if deepest is not None and deepest_via is not None:  # found below an alternative
                label = deepest_via.label if deepest_via.method is not None else ""
                deepest = _through(deepest, tasks[0], label)
            return _Out(failure=deepest, bounded=bounded, incomplete=incomplete)
        for i, ent in enumerate(entries):
            if ent.reason is None and ent.value is not None:
                if i == best_i:
                    ent.reason = Reason.CHOSEN
                elif _close(ent.value, best_total):
                    ent.reason = Reason.TIE
                else:
                    ent.reason = Reason.LOWER_VALUE
                ent.compared = best_total
        result = _Out(
            value=best_total - g,
            steps=best_out.steps,
            path=((node, tasks[0], alts[best_i]), best_out.path),
            choices=best_out.choices,
            failure=deepest,
            bounded=bounded,
            incomplete=incomplete,
        )
        if tr is not None:
            tr.emit(EventKind.CHOICE_MADE, node, alternative=alts[best_i].label, value=best_total)
        if sum(a.ok for a in alts) > 1 or (  # a real choice: two or more alternatives applied
            self.o.record_failed_alternatives and len(alts) > 1
        ):
            result.choices = (
                self._pending_choice(
                    node, depth, state, tasks, "decision", None, best_total, entries
                ),
                result.choices,
            )
        return result

    def _visit_pruned(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        g: float,
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
        alts: list[_Alt],
    ) -> _Out:
        """The partial plan pruner: finish the flagged task every way, keep the cheapest.

        Valid because the knowledge engineer flagged the task as one whose alternatives do
        not affect any later choice; a run that finds alternatives ending in different
        cost-relevant states says so in its diagnostics.
        """
        tr = self.tr
        rest = tasks[1:]
        entries = [_Entry(a) for a in alts]
        segments: list[tuple[int, float, Any, Cons, int, int]] = []
        deepest: _Pending | None = None
        for i, alt in enumerate(alts):
            ent = entries[i]
            if not alt.ok:
                ent.reason, ent.failure = alt.reason, alt.failure
                if deepest is None or (alt.failure and alt.failure.depth > deepest.depth):
                    deepest = alt.failure
                continue
            if self.stop is not None:
                self._mark_stopped(ent)
                continue
            before = self.nodes
            child = self._new_node(depth + 1)
            ent.node = child
            if tr is not None:
                tr.emit(
                    EventKind.NODE_CREATED, child, parent=node, alternative=alt.label, cost=alt.cost
                )
            steps0: Cons = ((alt.step, child), None) if alt.step is not None else None
            best = self._segment(
                alt.state, alt.tasks, len(rest), alt.cost, steps0, depth + 1, child, g
            )
            used = self.nodes - before
            if best is None:
                ent.reason = Reason.DEAD_END
                continue
            cost, end_state, seg_steps, end_depth = best
            ent.value = cost
            segments.append((i, cost, end_state, seg_steps, used, end_depth))
        if not segments:
            if self.stop is not None:
                return _Out(failure=deepest, incomplete=True)
            return _Out(failure=deepest)
        cheapest = min(s[1] for s in segments)
        keep = next(s for s in segments if _close(s[1], cheapest))  # ties: method order
        ki, kcost, kstate, ksteps, _, kdepth = keep
        keys = {self.state_key(s[2]) for s in segments}
        if len(keys) > 1:
            msg = (
                f"partial plan pruning at {self.d.task_label(tasks[0])}: alternatives end in "
                "different cost-relevant states, so keeping only the cheapest may lose the "
                "optimum"
            )
            if msg not in self.diagnostics:
                self.diagnostics.append(msg)
        for i, cost, _, _, used, _ in segments:
            ent = entries[i]
            if i == ki:
                continue
            ent.reason, ent.compared = Reason.PARTIAL_PLAN_PRUNED, kcost
            self.discarded += used
            self.stats["partial_plan_pruned"] += 1
            if tr is not None:
                tr.emit(
                    EventKind.NODE_PRUNED,
                    node,
                    alternative=alts[i].label,
                    reason=str(Reason.PARTIAL_PLAN_PRUNED),
                    cost=cost,
                    kept=kcost,
                )
        last_node = ksteps[0][1] if ksteps is not None else (entries[ki].node or node)
        if self.bnb and g + kcost >= self.incumbent - 1e-9 * max(1.0, abs(self.incumbent)):
            entries[ki].reason, entries[ki].value, entries[ki].bound = (
                Reason.BOUND_PRUNED,
                g + kcost,
                True,
            )
            self.stats["bound_pruned"] += 1
            return _Out(failure=deepest, bounded=True)
        out = self.visit(kstate, rest, g + kcost, kdepth, last_node, assumptions)
        steps = out.steps
        for item in _flatten(ksteps):  # ksteps holds the segment's last step first
            steps = (item, steps)
        if out.value is None:
            entries[ki].reason = (
                Reason.NOT_EXPANDED
                if out.incomplete
                else Reason.BOUND_PRUNED
                if out.bounded
                else Reason.DEAD_END
            )
            entries[ki].failure = out.failure
            fail = out.failure if out.failure is not None else deepest
            return _Out(failure=fail, bounded=out.bounded, incomplete=out.incomplete)
        total = g + kcost + out.value
        entries[ki].reason, entries[ki].value = Reason.CHOSEN, total
        for i, cost, *_ in segments:
            if i != ki:
                entries[i].value = g + cost + out.value
                entries[i].detail = (
                    f"finishing this task costs {cost:g} against "
                    f"{kcost:g}; the task's alternatives do not affect later "
                    "choices, so the rest of the plan is the same"
                )
        choice = self._pending_choice(node, depth, state, tasks, "decision", None, total, entries)
        return _Out(
            value=kcost + out.value,
            steps=steps,
            choices=(choice, out.choices),
            failure=deepest,
            bounded=out.bounded,
            incomplete=out.incomplete,
        )

    def _segment(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        rest_len: int,
        cost: float,
        steps: Cons,
        depth: int,
        node: int,
        g: float,
    ) -> tuple[float, Any, Cons, int] | None:
        """Cheapest way to work down ``tasks`` to its last ``rest_len`` tasks.

        Returns (cost, end state, steps in reverse order, depth) or None.  Used by the
        partial plan pruner; every node it creates is counted, and the discarded ones are
        subtracted from the tree size afterwards.  ``g`` is the cost before the segment,
        so that a replay shows each node's cost so far as :meth:`visit` does.
        """
        if len(tasks) <= rest_len:
            return cost, state, steps, depth
        if self.tr is not None:
            self.tr.emit(
                EventKind.NODE_EXPANDED,
                node,
                task=tasks[0],
                depth=depth,
                g=g + cost,
                tasks=len(tasks),
            )
        alts = self._expand(state, tasks, depth, node, ())
        best: tuple[float, Any, Cons, int] | None = None
        for alt in alts:
            if not alt.ok or self.stop is not None:
                continue
            child = self._new_node(depth + 1)
            if self.tr is not None:
                self.tr.emit(
                    EventKind.NODE_CREATED, child, parent=node, alternative=alt.label, cost=alt.cost
                )
            s = ((alt.step, child), steps) if alt.step is not None else steps
            r = self._segment(
                alt.state, alt.tasks, rest_len, cost + alt.cost, s, depth + 1, child, g
            )
            if r is not None and (best is None or r[0] < best[0] - 1e-12):
                best = r
        return best

    def _mark_stopped(self, ent: _Entry) -> None:
        ent.reason, ent.detail = Reason.NOT_EXPANDED, f"search stopped ({self.stop})"
        self.stats["not_expanded"] += 1

    def _assume(self, assumptions: tuple[str, ...], alt: _Alt) -> tuple[str, ...]:
        a = alt.method.spec.assumption if alt.method is not None else None
        return (*assumptions, a) if a else assumptions

    def _pending_choice(
        self,
        node: int,
        depth: int,
        state: Any,
        tasks: tuple[Task, ...],
        kind: str,
        agent: Any,
        value: float | None,
        entries: list[_Entry],
    ) -> _PendingChoice:
        return _PendingChoice(node, depth, state, tasks, kind, agent, value, entries)

    # ------------------------------------------------------------------ game mode
    def visit_game(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
        pending: dict[int, _PendingChoice],
    ) -> _Out:
        tr = self.tr
        label = self._label(tasks[0]) if tasks else "(end)"
        if not tasks:
            return self._leaf(state, node, label, "all tasks done")
        if depth > 0 and self.horizon is not None and self.horizon(state, tasks, depth):
            self.stats["not_expanded"] += 1
            return self._leaf(
                state, node, label, "not expanded because planning stops", horizon=True
            )
        if tr is not None:
            tr.emit(EventKind.NODE_EXPANDED, node, task=tasks[0], depth=depth, tasks=len(tasks))
        alts = self._expand(state, tasks, depth, node, assumptions)
        info = self.d.tasks.get(tasks[0][0])
        agent = None
        if info is not None and info.agent_index is not None:
            agent = tasks[0][1][info.agent_index]
        external = (
            agent is not None and self.controlled is not None and not self.controlled(state, agent)
        )
        kind = "external" if external else "decision"
        forced = self._forced(tasks[0], alts, node)
        entries = [_Entry(a) for a in alts]
        usable = [i for i, a in enumerate(alts) if a.ok]
        if external and usable:
            unweighted = [i for i in usable if alts[i].weight is None]
            for i in unweighted:  # no weight given: equally likely among the moves
                alts[i].weight = 1.0 / len(usable)
        if not usable:
            return self._leaf(state, node, label, "no method applies")
        values: list[float] = []
        weights: list[float] = []
        visited: list[int] = []
        children: list[PolicyEdge] = []
        profiles: list[dict[str, float]] = []
        incomplete = False
        # Two methods proposing the same move (a card that is both a winner to cash and the
        # top of a sequence) lead to the same state and tasks: search it once.
        same_as: dict[int, int] = {}
        first_of: dict[tuple[Any, tuple[Task, ...]], int] = {}
        for i, (alt, ent) in enumerate(zip(alts, entries, strict=True)):
            if not alt.ok:
                ent.reason, ent.failure = alt.reason, alt.failure
                continue
            if forced is not None and i != forced:
                ent.reason, ent.detail = Reason.NOT_EXPANDED, "another alternative was forced"
                continue
            if not external:
                key = (self.state_key(alt.state), alt.tasks)
                if key in first_of:
                    same_as[i] = first_of[key]
                    continue
                first_of[key] = i
            if (
                external
                and alt.weight is not None
                and (alt.weight < self.cutoff or alt.weight <= 0)
            ):
                ent.reason, ent.detail = Reason.LIKELIHOOD_PRUNED, f"p = {alt.weight:.3g}"
                ent.compared = self.cutoff
                self.stats["likelihood_pruned"] += 1
                if tr is not None:
                    tr.emit(
                        EventKind.NODE_PRUNED,
                        node,
                        alternative=alt.label,
                        reason=str(Reason.LIKELIHOOD_PRUNED),
                        probability=alt.weight,
                        cutoff=self.cutoff,
                    )
                continue
            if self.stop is not None:
                self._mark_stopped(ent)
                incomplete = True
                continue
            child = self._new_node(depth + 1)
            ent.node = child
            if tr is not None:
                tr.emit(
                    EventKind.NODE_CREATED,
                    child,
                    parent=node,
                    alternative=alt.label,
                    probability=alt.weight if external else None,
                )
            out = self.visit_game(
                alt.state, alt.tasks, depth + 1, child, self._assume(assumptions, alt), pending
            )
            incomplete = incomplete or out.incomplete
            assert out.value is not None and out.policy is not None
            ent.value = out.value
            values.append(out.value)
            weights.append(alt.weight if alt.weight is not None else 1.0)
            visited.append(i)
            profiles.append(out.profile)
            step = None
            if alt.step is not None:
                step = self._make_step(alt.step, child)
            m = alt.method
            children.append(
                PolicyEdge(
                    alt.label,
                    m.name if m else alt.label,
                    alt.weight if external else None,
                    out.policy,
                    step,
                    m.spec.assumption if m else None,
                    alt.bindings,
                )
            )
        if not visited:
            out = self._leaf(state, node, label, "every move was pruned or not expanded")
            out.incomplete = incomplete
            return out
        pnode = PolicyNode(node, kind, label, agent, 0.0, children)
        if external:
            value = self.o.criterion.value(values, weights)
            planned = max(range(len(visited)), key=lambda j: (weights[j], -j))
            pnode.planned = planned
            m = alts[visited[planned]].method
            pnode.critic = m.spec.critic if m is not None else None
            for i in visited:
                entries[i].reason = Reason.WEIGHTED
                entries[i].compared = value
            profile = {alts[i].label: values[j] for j, i in enumerate(visited)}
            chosen_entry = visited[planned]
        else:
            j = self.o.criterion.choose(values, profiles)
            value = values[j]
            pnode.chosen = j
            profile = profiles[j]
            chosen_entry = visited[j]
            for jj, i in enumerate(visited):
                ent = entries[i]
                if jj == j:
                    ent.reason = Reason.CHOSEN
                elif _close(values[jj], value):
                    ent.reason = Reason.TIE
                else:
                    ent.reason = Reason.LOWER_VALUE
                ent.compared = value
        for i, j in same_as.items():
            ent, twin = entries[i], entries[j]
            ent.reason = (
                Reason.TIE if twin.reason is Reason.CHOSEN else twin.reason or Reason.NOT_EXPANDED
            )
            ent.value, ent.compared = twin.value, twin.compared
            ent.detail = f"the same move as {alts[j].label}, so it was not searched again"
        pnode.value = value
        if tr is not None:
            tr.emit(EventKind.VALUE_BACKED_UP, node, value=value, node_kind=kind)
            if not external:
                tr.emit(
                    EventKind.CHOICE_MADE, node, alternative=alts[chosen_entry].label, value=value
                )
        if len(usable) > 1:  # a real choice: two or more moves applied
            pending[node] = self._pending_choice(
                node, depth, state, tasks, kind, agent, value, entries
            )
            self._chosen_idx[node] = chosen_entry
        return _Out(value=value, policy=pnode, incomplete=incomplete, profile=profile)

    def _label(self, task: Task) -> str:
        """Task labels repeat across a tree; format each ground task once."""
        label = self._labels.get(task)
        if label is None:
            label = self._labels[task] = self.d.task_label(task)
        return label

    def _leaf(self, state: Any, node: int, label: str, note: str, horizon: bool = False) -> _Out:
        value = float(self.evaluate(state))
        if self.tr is not None:
            self.tr.emit(EventKind.LEAF_VALUED, node, value=value, note=note)
        return _Out(value=value, policy=PolicyNode(node, "leaf", label, None, value, note=note))

    # ------------------------------------------------------------------ results
    def _make_step(
        self, raw: tuple[str, tuple[Any, ...], dict[str, float], Any], node: int
    ) -> PlanStep:
        name, args, costs, state = raw
        desc = self._descriptions.get((name, args))
        if desc is None:
            desc = self.d.operator_description(name, args, state)
            template = self.d.operators[name].description
            if template is None or not template.uses_state:  # same text every time
                self._descriptions[(name, args)] = desc
        return PlanStep(name, args, costs, desc, self.d.operators[name].spec.group, node)

    def failure(self, p: _Pending | None) -> Failure | None:
        if p is None:
            return None
        found = self._failure(p)
        if found is None or p.via is None:
            return found
        via = tuple((self.d.task_label(t), label) for t, label in _flatten(p.via))
        return replace(found, via=via)

    def _failure(self, p: _Pending) -> Failure | None:
        label = "the goal" if p.field == "goal" else self.d.task_label(p.task, p.state)
        method = p.method.label if isinstance(p.method, _Alt) else p.method
        if p.expr is None:
            causes = tuple(f for f in map(self.failure, p.causes) if f is not None)
            return Failure(label, method, p.field, "", "", (), p.depth, p.node, causes)
        if self.late():  # well past the time budget: say where, not why in detail
            return Failure(
                label, method, p.field, p.expr.source, p.expr.source, (), p.depth, p.node
            )
        if p.field == "bindings":
            explain_empty = getattr(p.expr, "explain_empty", None)
            if explain_empty is not None:
                failing, values = explain_empty(p.state, p.env)
                return Failure(
                    label,
                    method,
                    "precondition",
                    p.expr.source,
                    failing,
                    tuple(values),
                    p.depth,
                    p.node,
                )
            return Failure(
                label, method, "binding", p.expr.source, p.expr.source, (), p.depth, p.node
            )
        try:
            failing, values = p.expr.explain_false(p.state, p.env)
        except Exception:
            failing, values = p.expr.source, []
        return Failure(
            label, method, p.field, p.expr.source, failing, tuple(values), p.depth, p.node
        )

    def _title(self, a: _Alt, task: Task, state: Any) -> str:
        """The method's label filled in with this alternative's bindings (empty when it has
        none, or when the label cannot be filled in here: a method with no binding)."""
        m = a.method
        if m is None or m.label is None:
            return ""
        info = self.d.tasks.get(task[0])
        env: dict[str, Any] = dict(zip(info.params, task[1], strict=True)) if info else {}
        env.update(a.bindings)
        env["view"] = m.spec.belief_view
        env["assumptions"] = ()
        try:
            return m.label.render(state, env, self._fmt)
        except Exception:
            # No binding to fill it in with (the generator gave none): the label with its
            # fields left open still says what the method would have done.
            return "".join(lit + ("…" if e is not None else "") for lit, e, _ in m.label.parts)

    def _move(self, a: _Alt) -> str:
        if a.step is None:
            return ""
        name, args, _, state = a.step
        return self.d.operator_description(name, args, state)

    def choice_point(self, pc: _PendingChoice, chosen: int | None = None) -> ChoicePoint:
        recs = []
        task = pc.tasks[0]
        for i, e in enumerate(pc.entries):
            a = e.alt
            m = a.method
            reason = e.reason or Reason.NOT_EXPANDED
            recs.append(
                AlternativeRecord(
                    label=a.label,
                    method=m.name if m else a.label,
                    reason=reason,
                    chosen=(reason is Reason.CHOSEN) if chosen is None else (i == chosen),
                    bindings=a.bindings,
                    value=e.value,
                    value_is_bound=e.bound,
                    probability=a.weight if pc.kind == "external" else None,
                    assumption=m.spec.assumption if m else None,
                    critic=m.spec.critic if m else None,
                    failure=self.failure(e.failure),
                    compared_with=e.compared,
                    detail=e.detail,
                    node=e.node,
                    title=self._title(a, task, pc.state),
                    move=self._move(a),
                )
            )
        agent = pc.agent
        return ChoicePoint(
            pc.node,
            pc.depth,
            self.d.task_label(task, pc.state),
            task[0],
            pc.kind,
            agent,
            pc.value,
            tuple(recs),
            state=pc.state,
            tasks=pc.tasks,
        )

    def run(self) -> RunResult:
        p = self.p
        root = self._new_node(0)
        if self.tr is not None:
            self.tr.emit(EventKind.NODE_CREATED, root, parent=None, alternative=None, cost=0.0)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 200_000))
        outer = getattr(_ACTIVE, "search", None)
        _ACTIVE.search = self
        g0 = self.o.start_cost
        try:
            if self.mode == "game":
                return self._run_game(root)
            if self.repeats:
                self.on_path[(p.tasks, self.state_key(p.state))] = root
            out = self.visit(p.state, p.tasks, g0, 0, root, ())
        except KeyboardInterrupt:
            # ctrl+c where no handler turned it into a cancel: the search is gone from the
            # stack, and what it found with it; still a result, not a traceback.
            return self._result(Status.INTERRUPTED, None, [], [], None, None)
        except SearchStopped:  # a checkpoint outside any binding loop
            return self._result(self.stop or Status.CANCELLED, None, [], [], None, None)
        finally:
            _ACTIVE.search = outer
            sys.setrecursionlimit(old_limit)
        if self.aborted is not None:
            return self._result(Status.NO_PLAN, None, [], [], None, self.failure(self.aborted))
        steps = [self._make_step(raw, node) for raw, node in _flatten(out.steps)]
        choices = [self.choice_point(pc) for pc in _flatten(out.choices)]
        if self.stop is not None:
            status = self.stop
        else:
            status = Status.OK if out.value is not None else Status.NO_PLAN
            cut = self.stats["recursion_pruned"] or self.stats["depth_cut"]
            if cut and (out.value is None or self.mode != "first"):
                status = Status.INCOMPLETE  # what was pruned might have held a (better) plan
        value = None if out.value is None else g0 + out.value
        result = self._result(
            status,
            value,
            steps,
            choices,
            None,
            self.failure(out.failure) if out.value is None else None,
        )
        if out.value is not None:
            result.expansions.extend(self._expansion(*item) for item in _flatten(out.path))
        return result

    def _expansion(self, node: int, task: Task, alt: _Alt) -> Expansion:
        if alt.method is None or alt.method.subtasks is None:  # an operator, or a method
            name = alt.method.name if alt.method is not None else None  # doing one operator
            step = alt.step
            subtasks: tuple[Task, ...] = (
                ((step[0], step[1]),) if alt.method is not None and step else ()
            )
            return Expansion(node, task, name, alt.bindings, subtasks)
        subtasks = alt.tasks[: len(alt.method.subtasks)]  # alt.tasks is subtasks + the rest
        return Expansion(node, task, alt.method.name, alt.bindings, subtasks)

    def _run_game(self, root: int) -> RunResult:
        pending: dict[int, _PendingChoice] = {}
        if not self.p.tasks:
            out = self._leaf(self.p.state, root, "(end)", "no tasks")
        else:
            out = self.visit_game(self.p.state, self.p.tasks, 0, root, (), pending)
        policy = out.policy
        assert policy is not None
        choices: list[ChoicePoint] = []
        # The plan is the policy: our chosen move at decision nodes, every planned-for move
        # at external-agent nodes; each of those choice points is explained.
        stack = [policy]
        while stack:
            pn = stack.pop()
            if pn.node in pending:
                choices.append(self.choice_point(pending[pn.node], self._chosen_idx.get(pn.node)))
            if pn.kind == "decision" and pn.chosen is not None:
                stack.append(pn.children[pn.chosen].node)
            else:
                stack.extend(edge.node for edge in pn.children)
        # The linear plan is the principal variation: chosen moves, and the opponents'
        # planned (most likely) moves.
        steps: list[PlanStep] = []
        pn = policy
        while pn.children:
            index = pn.chosen if pn.kind == "decision" else pn.planned
            edge = pn.children[index if index is not None else 0]
            if edge.step is not None:
                steps.append(edge.step)
            pn = edge.node
        choices.sort(key=lambda c: c.node)
        status = self.stop if self.stop is not None else Status.OK
        return self._result(status, out.value, steps, choices, policy, None)

    def _result(
        self,
        status: Status,
        value: float | None,
        steps: list[PlanStep],
        choices: list[ChoicePoint],
        policy: PolicyNode | None,
        failure: Failure | None,
    ) -> RunResult:
        return RunResult(
            domain=self.d.spec.name,
            problem=self.p.name,
            mode=self.mode,
            status=status,
            value=value,
            plan=steps,
            choice_points=choices,
            nodes=self.nodes,
            tree_nodes=self.nodes - self.discarded,
            seconds=time.perf_counter() - self.t0,
            policy=policy,
            failure=failure,
            diagnostics=self.diagnostics,
            stats=dict(self.stats, max_depth=self.max_depth, transposition_entries=len(self.tt)),
            options=self.o.summary(),
            trace=self.tr,
        )


def plan(domain: Domain, problem: Problem, options: SearchOptions | None = None) -> RunResult:
    """Run TOFS on ``problem`` and return the plan with its explanation records."""
    options = options or SearchOptions(mode=problem.mode)
    if options.mode not in ("optimise", "game", "first"):
        raise ValueError(f"unknown mode '{options.mode}'; use optimise, game or first")
    for name, _ in problem.tasks:
        if name not in domain.tasks and name not in domain.operators:
            raise ValueError(f"problem '{problem.name}' names unknown task '{name}'")
    if options.deepening is not None:
        if options.mode != "first" or options.deepening < 1:
            raise ValueError("deepening needs first-plan mode and a depth of at least 1")
        return _deepen(domain, problem, options)
    return _Search(domain, problem, options).run()


def _deepen(domain: Domain, problem: Problem, options: SearchOptions) -> RunResult:
    """Iterative deepening: rounds with a depth limit that doubles, sharing the budgets.
    The result is the last round's (its tree, plan and explanation), with the nodes and
    seconds of all rounds and their number in ``stats["deepening_rounds"]``."""
    t0 = time.perf_counter()
    started = options.started if options.started is not None else t0
    limit = options.deepening or 1
    nodes = rounds = 0
    while True:
        node_left = None
        if options.node_budget is not None:
            node_left = max(options.node_budget - nodes, 1)
        result = _Search(
            domain,
            problem,
            replace(
                options,
                deepening=None,
                depth_limit=limit,
                started=started,
                node_budget=node_left,
            ),
        ).run()
        nodes += result.nodes
        rounds += 1
        if result.found or not result.stats.get("depth_cut") or result.status in _STOPPED:
            break
        limit *= 2
    result.nodes = nodes
    result.seconds = time.perf_counter() - t0
    result.stats["deepening_rounds"] = rounds
    result.options = options.summary()
    return result


_STOPPED = (
    Status.TIME_BUDGET,
    Status.NODE_BUDGET,
    Status.MEMORY_BUDGET,
    Status.CANCELLED,
    Status.INTERRUPTED,
)
