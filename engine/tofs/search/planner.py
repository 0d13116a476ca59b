"""The entry point: :func:`plan` runs one search (or the rounds of iterative deepening)
and :class:`Search` joins the modes into the one search class."""

from __future__ import annotations

import sys
import time
from dataclasses import replace

from ..domain import Domain, Problem
from ..results import RunResult, Status
from ..trace import EventKind
from .budgets import ACTIVE, SearchStopped
from .game import GameSearch
from .optimise import CostSearch
from .options import SearchOptions
from .records import flatten
from .reporting import SUSPECTS_KEPT

__all__ = ["Search", "plan"]


class Search(CostSearch, GameSearch):
    """One run: every mode over the same expansion, accounting and records."""

    def run(self) -> RunResult:
        """Search from the problem's root and report the result; a stop (a budget, cancel,
        ctrl+c) is a result too, with what was found up to it."""
        problem = self.problem
        root = self.new_node(0)
        if self.trace is not None:
            self.trace.emit(EventKind.NODE_CREATED, root, parent=None, alternative=None, cost=0.0)
        old_limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old_limit, 200_000))
        outer = ACTIVE.search
        ACTIVE.search = self
        start_cost = self.options.start_cost
        try:
            if self.mode == "game":
                return self.run_game(root)
            if self.repeats:
                self.remember(self.path_key(problem.tasks, problem.state), problem.tasks, root)
            out = self.visit(problem.state, problem.tasks, start_cost, 0, root, ())
        except KeyboardInterrupt:
            # ctrl+c where no handler turned it into a cancel: the search is gone from the
            # stack, and what it found with it; still a result, not a traceback.
            return self.result(Status.INTERRUPTED, None, [], [], None, None)
        except SearchStopped:  # a checkpoint outside any binding loop
            return self.result(self.stop or Status.CANCELLED, None, [], [], None, None)
        finally:
            ACTIVE.search = outer
            sys.setrecursionlimit(old_limit)
        if self.aborted is not None:
            result = self.result(Status.NO_PLAN, None, [], [], None, self.failure(self.aborted))
            result.suspects = self.suspects(SUSPECTS_KEPT)
            return result
        steps = [self.make_step(alt) for alt in flatten(out.steps)]
        choices = [self.choice_point(pc) for pc in flatten(out.choices)]
        if self.stop is not None:
            status = self.stop
        else:
            status = Status.OK if out.value is not None else Status.NO_PLAN
            cut = self.stats["recursion_pruned"] or self.stats["depth_cut"]
            if cut and (out.value is None or self.mode != "first"):
                status = Status.INCOMPLETE  # what was pruned might have held a (better) plan
        value = None if out.value is None else start_cost + out.value
        result = self.result(
            status,
            value,
            steps,
            choices,
            None,
            self.failure(out.failure) if out.value is None else None,
        )
        if out.value is not None:
            result.expansions.extend(self.expansion(*item) for item in flatten(out.path))
        else:
            result.suspects = self.suspects(SUSPECTS_KEPT)
        return result


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
        return deepen(domain, problem, options)
    return Search(domain, problem, options).run()


def deepen(domain: Domain, problem: Problem, options: SearchOptions) -> RunResult:
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
        result = Search(
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
        if result.found or not result.stats.get("depth_cut") or result.status in STOPPED:
            break
        limit *= 2
    result.nodes = nodes
    result.seconds = time.perf_counter() - t0
    result.stats["deepening_rounds"] = rounds
    result.options = options.summary()
    return result


STOPPED = (
    Status.TIME_BUDGET,
    Status.NODE_BUDGET,
    Status.MEMORY_BUDGET,
    Status.CANCELLED,
    Status.INTERRUPTED,
)
