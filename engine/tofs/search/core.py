"""What every search mode keeps and counts: the run's settings read once, node accounting,
budgets, and the small helpers all modes share.

The search is one class assembled in layers, each in its own module and each seeing the
ones below it: this base, then :mod:`.expansion` (a node's alternatives), :mod:`.reporting`
(the run's records), and the modes on top -- :mod:`.optimise` (optimise and first-plan)
and :mod:`.game` -- joined in :mod:`.planner`.  Method lookup through the layers is
cached by Python, so the split costs the hot loops nothing.
"""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable
from typing import Any

from ..domain import Domain, Problem, Task, call_text
from ..forcing import Forced
from ..results import Reason, Status
from .budgets import Watch
from .options import Progress, SearchOptions
from .records import Alternative, Entry, OpenTask, PendingFailure, slack

__all__ = ["INF", "SearchBase"]

INF = math.inf

# How many nodes (or alternatives, where no node is made) pass between two polls of the
# budgets, cancel and interrupt: a clock read every time would cost a tenth of the run.
POLL_EVERY = 64


class SearchBase:
    """The state of one run and its accounting; the modes build on it."""

    def __init__(self, domain: Domain, problem: Problem, options: SearchOptions) -> None:
        self.domain = domain
        self.problem = problem
        self.options = options
        self.mode = options.mode
        self.trace = options.trace
        self.full_tree = options.full_tree
        self.branch_and_bound = self.mode == "optimise" and not self.full_tree
        self.use_transpositions = self.branch_and_bound and options.transpositions
        self.pruner = options.partial_plan_prune and self.mode != "game"
        # (remaining tasks, state key) -> the cheapest cost so far it was reached with
        self.transpositions: dict[Any, float] = {}
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
        self.force: dict[str | int, str | Forced | tuple[Forced, ...]] = dict(options.force or {})
        self.incumbent = INF  # the cheapest complete plan's cost so far
        # A partial plan that costs this much cannot beat the incumbent (branch and bound);
        # kept with it, so that no node computes it (NaN while there is none: no bound).
        self.bound_limit = self.incumbent - slack(self.incumbent)
        self.nodes = 0
        self.discarded = 0  # nodes of partial plans the pruner threw away
        self.stop: Status | None = None
        self.aborted: PendingFailure | None = None
        # Dead ends by the condition (and its part) that closed them: (id(condition), part)
        # -> [count, the deepest such failure], for the suspects of a run with no plan
        # (``Reporter.suspects``).
        self.cuts: dict[tuple[Any, Any], list[Any]] = {}
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
            "goal_cut": 0,
            "known_failures": 0,
        }
        self.depth_limit = options.depth_limit if options.depth_limit is not None else sys.maxsize
        self.recursion = options.prune_recursion and self.mode != "game"
        # Tasks being decomposed in the current state, innermost last.
        self.decomposing: OpenTask | None = None
        # How many of the tasks in ``decomposing`` are each (task, state key): whether a
        # task is open in a state is asked at every node, and the stack can be deep.
        self.open_count: dict[tuple[Task, Any], int] = {}
        self.repeats = options.prune_repeats and self.mode != "game"
        # The lowest node a loop cut in the subtree being searched referred to (a repeated
        # ancestor, the node that took up a task still open): a failure whose cuts all
        # refer to its own subtree holds wherever its state and tasks come up again.
        self.reach: float = INF
        self.memo = (
            options.memo_failures
            and self.mode == "first"
            and self.trace is None
            and not self.force
            and options.depth_limit is None
            and options.deepening is None
        )
        # Failures remembered, by the short key of ``on_path`` (a whole task list hashed at
        # every node costs, thousands of tasks deep; it is hashed only where the short key
        # is known), then by task list: whether its search cut recursion (then it proved
        # nothing).
        self.failed: dict[Any, dict[tuple[Task, ...], bool]] = {}
        self.remembered = 0
        # For prune_repeats: the nodes on the path by a short key (how many tasks, the
        # first, the state key), each with its whole task list, compared only on a hit.
        # The whole list as the key was hashed afresh at every node: thousands of tasks
        # deep in Freecell, where that was a tenth of the run.
        self.on_path: dict[Any, list[tuple[tuple[Task, ...], int]]] = {}
        self.goal = problem.goal
        self.goal_reach = problem.goal_reach
        self.goal_order = problem.goal_order
        self.loops = self.repeats or self.recursion
        self.lazy = self.mode == "first" and self.trace is None and not self.force
        self.diagnostics: list[str] = []
        self.chosen_index: dict[int, int] = {}  # game: node -> its chosen or planned entry
        self.task_labels: dict[Task, str] = {}
        self.descriptions: dict[Task, str] = {}  # (operator, args) -> its description
        self.max_depth = 0
        self.started = time.perf_counter()
        self.watch = Watch(options, self.started)
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

    def new_node(self, depth: int) -> int:
        """Count a node (and check the budgets every so often); its id."""
        self.nodes += 1
        if depth > self.max_depth:
            self.max_depth = depth
        if self.nodes >= self.next_check:
            self.next_check = self.nodes + POLL_EVERY
            self.poll()
        options = self.options
        if options.node_budget is not None and self.nodes >= options.node_budget:
            self.stop = self.stop or Status.NODE_BUDGET
        if options.progress is not None and self.nodes >= self.next_progress:
            self.next_progress = self.nodes + options.progress_every
            best = None if self.incumbent == INF else self.incumbent
            elapsed = time.perf_counter() - self.started
            options.progress(Progress(self.nodes, depth, best, elapsed))
        return self.nodes - 1 + options.start_node

    def mark_stopped(self, ent: Entry) -> None:
        """``ent`` was not searched because the run stopped."""
        ent.reason, ent.detail = Reason.NOT_EXPANDED, f"search stopped ({self.stop})"
        self.stats["not_expanded"] += 1

    # ------------------------------------------------------------------ shared helpers
    def format_value(self, v: Any) -> str:
        """A binding's value as the domain writes it (its ``format_value`` hook)."""
        fmt = self.domain.registry.hooks.get("format_value")
        return fmt(v) if fmt else (f"{v:g}" if isinstance(v, float) else str(v))

    def task_label(self, task: Task) -> str:
        """Task labels repeat across a tree; format each ground task once."""
        label = self.task_labels.get(task)
        if label is None:
            label = self.task_labels[task] = self.domain.task_label(task)
        return label

    def forced(self, task: Task, alts: list[Alternative], node: int) -> frozenset[int] | None:
        """Indices of the alternatives ``force`` leaves open at this node, if it forces
        one here (used once): a label or method name fixes the first alternative it names,
        a :class:`~engine.tofs.forcing.Forced` every alternative that agrees with it, a
        tuple of them every alternative that agrees with any (applicable or not: one that
        fails is the answer's failure)."""
        if not self.force:
            return None
        for key in (node, task[0], self.domain.task_label(task), call_text(*task)):
            if key in self.force:
                want = self.force[key]
                if isinstance(want, Forced | tuple):
                    fmt = self.format_value
                    anyof = want if isinstance(want, tuple) else (want,)
                    hits = frozenset(
                        i
                        for i, a in enumerate(alts)
                        if any(w.matches(a.name, a.bindings, fmt) for w in anyof)
                    )
                    if hits:
                        del self.force[key]
                        return hits
                    continue
                for i, a in enumerate(alts):
                    if a.label == want or (a.method is not None and a.method.name == want):
                        del self.force[key]
                        return frozenset((i,))
        return None

    @staticmethod
    def assume(assumptions: tuple[str, ...], alt: Alternative) -> tuple[str, ...]:
        """The assumptions below ``alt``: those above, and its method's own."""
        a = alt.method.spec.assumption if alt.method is not None else None
        return (*assumptions, a) if a else assumptions
