"""Optimise and first-plan modes: cost-to-go backed up, depth first.

``optimise`` keeps the cheapest complete plan by branch and bound (an alternative whose
cost so far, plus the domain's lower bound, reaches the best plan's cost is not searched)
with a transposition table; ``full_tree`` turns both off for the exhaustive search.
``first`` stops at the first plan, making a node's alternatives only as it needs them.
A task the knowledge engineer flagged for the partial plan pruner is finished every way
and only the cheapest way is searched on (:meth:`CostSearch.visit_flagged`).

The per-node loop of :meth:`CostSearch.visit` is the hot path of every run: what it shares
with the pruner is in small helpers, and nothing in it is split further.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..domain import Task
from ..results import Reason
from ..trace import EventKind
from .core import INF
from .records import (
    Alternative,
    Cons,
    Entry,
    PathStep,
    PendingChoice,
    PendingFailure,
    Segment,
    SegmentEnd,
    Subtree,
    close,
    flatten,
    slack,
    through,
)
from .reporting import Reporter

__all__ = ["CostSearch"]

# Failures a first-plan search keeps (``memo_failures``): each holds its task list and
# state key, which are shared with the search; past this many, no more are kept.
MEMO_SIZE = 500_000


def deeper(failure: PendingFailure | None, deepest: PendingFailure | None) -> bool:
    """Whether ``failure`` lies deeper than ``deepest``: a node that fails reports the
    deepest failure below it, the one nearest to a plan."""
    return failure is not None and (deepest is None or failure.depth > deepest.depth)


class CostSearch(Reporter):
    """Searches for the cheapest plan (optimise) or the first (first)."""

    def visit(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        g: float,
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> Subtree:
        """The best way to finish ``tasks`` from ``state``, ``g`` having been spent: its
        cost-to-go in ``value`` (None if no plan was found, with the deepest failure)."""
        trace = self.trace
        if not tasks:
            return self.finished(state, g, depth, node)
        if depth >= self.depth_limit:
            self.stats["depth_cut"] += 1
            return Subtree(incomplete=True)
        if self.goal_reach is not None and not self.goal_reach(state, tasks):
            self.stats["goal_cut"] += 1
            goal = PendingFailure(("goal", ()), None, "goal", self.goal, state, {}, depth, node)
            return Subtree(failure=goal)
        if trace is not None:
            trace.emit(
                EventKind.NODE_EXPANDED, node, task=tasks[0], depth=depth, g=g, tasks=len(tasks)
            )
        # ``first`` mode makes alternatives as it goes (the rest only once a plan is
        # found, for the record); the other modes, tracing and forcing need them all first.
        info = self.domain.tasks.get(tasks[0][0])
        flagged = self.pruner and info is not None and info.spec.partial_plan_prune
        lazy = self.lazy and not flagged
        source: Iterator[Alternative] | list[Alternative]
        if lazy:
            source = self.alternatives(state, tasks, depth, node, assumptions)
            alts, entries, forced = [], [], None
        else:
            alts = source = self.expand(state, tasks, depth, node, assumptions)
            for a in alts:  # any(a.ok ...), without a generator per node
                if a.ok:
                    break
            else:
                if self.stop is not None:  # stopped while making them: nothing is proved
                    return Subtree(incomplete=True)
                for a in alts:
                    if a.failure is not None:
                        self.count_cut(a.failure)
                return self.dead_end(state, tasks, depth, node, alts)
            forced = self.forced(tasks[0], alts, node)
            if flagged and forced is None and len(alts) > 1:
                return self.visit_flagged(state, tasks, g, depth, node, assumptions, alts)
            entries = [Entry(a) for a in alts]
        best_i = -1
        best_total = INF
        best_out = Subtree()
        deepest: PendingFailure | None = None
        deepest_via: Alternative | None = None  # the alternative the deepest failure lies under
        bounded = incomplete = False
        applied = 0  # alternatives that apply (counted here: a generator per node costs)
        for i, alt in enumerate(source):
            if lazy:
                if self.stop is not None and best_i < 0:
                    # Stopped (a budget, in a child or while the bindings were made):
                    # nothing here will be reported, so make and keep no more of them.
                    incomplete = True
                    break
                ent = Entry(alt)
                alts.append(alt)
                entries.append(ent)
            else:
                ent = entries[i]
            if not alt.ok:
                ent.reason, ent.failure = alt.reason, alt.failure
                if alt.failure is not None:
                    self.count_cut(alt.failure)
                    # Where an alternative is forced, the failure to report is the forced one's.
                    if deeper(alt.failure, deepest) and (forced is None or i in forced):
                        deepest, deepest_via = alt.failure, None
                continue
            applied += 1
            if forced is not None and i not in forced:
                ent.reason, ent.detail = Reason.NOT_EXPANDED, "another alternative was forced"
                continue
            if self.stop is not None:
                self.mark_stopped(ent)
                incomplete = True
                if lazy and best_i < 0:  # nothing here will be reported: make no more
                    break
                continue
            if self.mode == "first" and best_i >= 0:
                ent.reason, ent.detail = Reason.NOT_EXPANDED, "a plan was already found"
                continue
            child_g = g + alt.cost
            if self.branch_and_bound:  # inline: once per alternative
                lb = child_g
                if self.lower_bound is not None and alt.tasks:
                    lb += self.lower_bound(alt.state, alt.tasks)
                if lb >= self.bound_limit:
                    self.prune_by_bound(alt, ent, lb, node)
                    bounded = True
                    continue
                if self.use_transpositions:
                    key = (alt.tasks, self.state_key(alt.state))
                    seen = self.transpositions.get(key)
                    if seen is not None and seen <= child_g + slack(child_g):
                        self.prune_as_transposed(alt, ent, child_g, seen, node)
                        bounded = True
                        continue
                    self.transpositions[key] = child_g
            if self.loops:
                check = self.loop_check(tasks, state, alt, ent, node, forced is not None)
                if check.pruned:
                    continue
                path_key = check.path_key
            memo_key = None
            if self.memo:
                # the short key of ``failed``: the loop check's, where it made one
                memo_key = path_key if self.repeats else self.path_key(alt.tasks, alt.state)
                cut = self.failed_before(memo_key, alt.tasks)
                if cut is not None:
                    self.known_failure(ent, alt, cut, lazy)
                    continue
            entry_bound = self.incumbent
            child = alt.node = self.new_node(depth + 1)  # open_child, inlined: once per node
            if trace is not None:
                trace.emit(
                    EventKind.NODE_CREATED, child, parent=node, alternative=alt.label, cost=alt.cost
                )
            assumed = alt.method.spec.assumption if alt.method is not None else None
            below = (*assumptions, assumed) if assumed else assumptions  # assume(), inline
            if memo_key is not None:
                reach, self.reach = self.reach, INF
                cuts = self.stats["recursion_pruned"]
            if self.loops:
                outer = self.decomposing
                if path_key is not None:
                    self.remember(path_key, alt.tasks, child)
                self.enter(check)
                out = self.visit(alt.state, alt.tasks, child_g, depth + 1, child, below)
                self.leave(check, outer)
                if path_key is not None:
                    self.forget(path_key)
            else:
                out = self.visit(alt.state, alt.tasks, child_g, depth + 1, child, below)
            if memo_key is not None:
                inner, self.reach = self.reach, min(reach, self.reach)
                if out.value is None and inner >= child:
                    cut = self.stats["recursion_pruned"] > cuts
                    self.remember_failure(memo_key, alt.tasks, out, cut)
            if alt.operator is not None:
                out.steps = (alt, out.steps)
            ent.failure = out.failure
            incomplete = incomplete or out.incomplete
            bounded = bounded or out.bounded
            if out.value is None:
                self.unsolved(ent, out, entry_bound)
                if deeper(out.failure, deepest):
                    deepest, deepest_via = out.failure, alt
                if lazy:  # searched in vain: its record needs neither (a plan's path does)
                    alt.state, alt.tasks = None, ()
                continue
            total = child_g + out.value + 0.0
            ent.value = total
            if best_i < 0 or total < best_total - slack(best_total):
                best_i, best_total = i, total
                best_out = out
        if best_i < 0:
            if lazy and self.stop is not None:
                incomplete = True  # the alternatives may have been cut short
            elif lazy and not applied:
                return self.dead_end(state, tasks, depth, node, alts)
            if deepest is not None and deepest_via is not None:  # found below an alternative
                label = deepest_via.label if deepest_via.method is not None else ""
                deepest = through(deepest, tasks[0], label)
            return Subtree(failure=deepest, bounded=bounded, incomplete=incomplete)
        self.rank(entries, best_i, best_total)
        result = Subtree(
            value=best_total - g,
            steps=best_out.steps,
            path=(PathStep(node, tasks[0], alts[best_i]), best_out.path),
            choices=best_out.choices,
            failure=deepest,
            bounded=bounded,
            incomplete=incomplete,
        )
        if trace is not None:
            trace.emit(
                EventKind.CHOICE_MADE, node, alternative=alts[best_i].label, value=best_total
            )
        if applied > 1 or (  # a real choice: two or more alternatives applied
            self.options.record_failed_alternatives and len(alts) > 1
        ):
            choice = PendingChoice(node, depth, state, tasks, "decision", None, best_total, entries)
            result.choices = (choice, result.choices)
        return result

    # ------------------------------------------------------------------ visit's parts
    def finished(self, state: Any, g: float, depth: int, node: int) -> Subtree:
        """No task is left: a plan, if the goal (where the problem has one) holds."""
        if self.goal is not None and not self.goal.evaluate(state, {}):
            self.stats["dead_ends"] += 1
            goal = PendingFailure(("goal", ()), None, "goal", self.goal, state, {}, depth, node)
            return Subtree(failure=goal)
        if g < self.incumbent:
            self.incumbent = g
            self.bound_limit = g - slack(g)
        if self.trace is not None:
            self.trace.emit(EventKind.LEAF_VALUED, node, value=g, complete=True)
        return Subtree(value=0.0)

    def prune_by_bound(self, alt: Alternative, ent: Entry, lb: float, node: int) -> None:
        """Branch and bound: ``alt`` costs at least ``lb``, which cannot beat the best plan."""
        ent.reason, ent.value, ent.bound = Reason.BOUND_PRUNED, lb, True
        ent.compared = self.incumbent
        self.stats["bound_pruned"] += 1
        if self.trace is not None:
            self.trace.emit(
                EventKind.NODE_PRUNED,
                node,
                alternative=alt.label,
                reason=str(Reason.BOUND_PRUNED),
                bound=lb,
                best=self.incumbent,
            )

    def prune_as_transposed(
        self, alt: Alternative, ent: Entry, g: float, seen: float, node: int
    ) -> None:
        """The transposition table: ``alt`` reaches tasks and state already reached for
        ``seen``, no more than its own cost so far ``g``."""
        ent.reason, ent.value, ent.bound = Reason.TRANSPOSED, g, True
        ent.compared = seen
        self.stats["transposed"] += 1
        if self.trace is not None:
            self.trace.emit(
                EventKind.NODE_PRUNED,
                node,
                alternative=alt.label,
                reason=str(Reason.TRANSPOSED),
                g=g,
                seen=seen,
            )

    def open_child(self, node: int, depth: int, alt: Alternative) -> int:
        """Make the node ``alt`` leads to from ``node``; its id."""
        child = alt.node = self.new_node(depth + 1)
        if self.trace is not None:
            self.trace.emit(
                EventKind.NODE_CREATED, child, parent=node, alternative=alt.label, cost=alt.cost
            )
        return child

    def known_failure(self, ent: Entry, alt: Alternative, cut: bool, lazy: bool) -> None:
        """``alt``'s state and tasks were searched before, in vain (``memo_failures``):
        not again.  Where that search cut recursion, this one counts a cut as well, so
        that the run cannot say "no plan" on its strength."""
        ent.reason, ent.detail = (
            Reason.TRANSPOSED,
            (
                "the same state with the same tasks left was searched on another branch, "
                "and led to no plan"
            ),
        )
        self.stats["known_failures"] += 1
        if cut:
            self.stats["recursion_pruned"] += 1
        if lazy:
            alt.state, alt.tasks = None, ()

    def failed_before(self, key: Any, tasks: tuple[Task, ...]) -> bool | None:
        """Whether ``tasks`` in the state of ``key`` failed before (None: not known to),
        and if so whether that search cut recursion."""
        there = self.failed.get(key)
        return None if there is None else there.get(tasks)

    def remember_failure(self, key: Any, tasks: tuple[Task, ...], out: Subtree, cut: bool) -> None:
        """Keep a failure that holds wherever its state and tasks come up again: searched
        to the end (no stop, no depth limit) with every loop cut referring to its own
        subtree (checked by the caller).  At most ``MEMO_SIZE`` of them."""
        if not out.incomplete and self.stop is None and self.remembered < MEMO_SIZE:
            self.failed.setdefault(key, {})[tasks] = cut
            self.remembered += 1

    def unsolved(self, ent: Entry, out: Subtree, entry_bound: float) -> None:
        """Why the alternative whose subtree is ``out`` gave no plan: not searched to the
        end (a stop, the depth limit), cut by the bound it entered with, or a dead end."""
        if out.incomplete:
            ent.reason = Reason.NOT_EXPANDED
            ent.detail = (
                f"search stopped ({self.stop})"
                if self.stop is not None
                else f"cut at the depth limit of {self.depth_limit} steps"
            )
        elif out.bounded:
            ent.reason, ent.value, ent.bound = Reason.BOUND_PRUNED, entry_bound, True
            ent.compared = self.incumbent
        else:
            ent.reason = Reason.DEAD_END
            self.stats["dead_ends"] += 1

    @staticmethod
    def rank(entries: list[Entry], best_i: int, best_total: float) -> None:
        """Each searched alternative against the chosen one: chosen, tied, or costlier."""
        for i, ent in enumerate(entries):
            if ent.reason is None and ent.value is not None:
                if i == best_i:
                    ent.reason = Reason.CHOSEN
                elif close(ent.value, best_total):
                    ent.reason = Reason.TIE
                else:
                    ent.reason = Reason.LOWER_VALUE
                ent.compared = best_total

    # ------------------------------------------------------------------ the pruner
    def visit_flagged(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        g: float,
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
        alts: list[Alternative],
    ) -> Subtree:
        """The partial plan pruner: finish the flagged task every way, keep the cheapest,
        and search the rest of the task list on from it alone (by :meth:`visit`).

        Valid because the knowledge engineer flagged the task as one whose alternatives do
        not affect any later choice; a run that finds alternatives ending in different
        cost-relevant states says so in its diagnostics.
        """
        trace = self.trace
        rest = tasks[1:]
        entries = [Entry(a) for a in alts]
        segments: list[Segment] = []
        deepest: PendingFailure | None = None
        for i, alt in enumerate(alts):
            ent = entries[i]
            if not alt.ok:
                ent.reason, ent.failure = alt.reason, alt.failure
                if alt.failure is not None:
                    self.count_cut(alt.failure)
                    if deeper(alt.failure, deepest):
                        deepest = alt.failure
                continue
            if self.stop is not None:
                self.mark_stopped(ent)
                continue
            before = self.nodes
            child = self.open_child(node, depth, alt)
            first: Cons = (alt, None) if alt.operator is not None else None
            end = self.segment(
                alt.state, alt.tasks, len(rest), alt.cost, first, depth + 1, child, g
            )
            if end is None:
                ent.reason = Reason.DEAD_END
                continue
            ent.value = end.cost
            segments.append(
                Segment(i, end.cost, end.state, end.steps, self.nodes - before, end.depth)
            )
        if not segments:
            if self.stop is not None:
                return Subtree(failure=deepest, incomplete=True)
            return Subtree(failure=deepest)
        cheapest = min(s.cost for s in segments)
        keep = next(s for s in segments if close(s.cost, cheapest))  # ties: method order
        kept = entries[keep.position]
        if len({self.state_key(s.state) for s in segments}) > 1:
            msg = (
                f"partial plan pruning at {self.domain.task_label(tasks[0])}: alternatives end "
                "in different cost-relevant states, so keeping only the cheapest may lose the "
                "optimum"
            )
            if msg not in self.diagnostics:
                self.diagnostics.append(msg)
        for s in segments:
            if s.position == keep.position:
                continue
            entries[s.position].reason, entries[s.position].compared = (
                Reason.PARTIAL_PLAN_PRUNED,
                keep.cost,
            )
            self.discarded += s.nodes
            self.stats["partial_plan_pruned"] += 1
            if trace is not None:
                trace.emit(
                    EventKind.NODE_PRUNED,
                    node,
                    alternative=alts[s.position].label,
                    reason=str(Reason.PARTIAL_PLAN_PRUNED),
                    cost=s.cost,
                    kept=keep.cost,
                )
        last_node = keep.steps[0].node if keep.steps is not None else (kept.alt.node or node)
        if self.branch_and_bound and g + keep.cost >= self.bound_limit:
            kept.reason, kept.value, kept.bound = Reason.BOUND_PRUNED, g + keep.cost, True
            self.stats["bound_pruned"] += 1
            return Subtree(failure=deepest, bounded=True)
        out = self.visit(keep.state, rest, g + keep.cost, keep.depth, last_node, assumptions)
        steps = out.steps
        for item in flatten(keep.steps):  # the segment's steps, its last step first
            steps = (item, steps)
        if out.value is None:
            kept.reason = (
                Reason.NOT_EXPANDED
                if out.incomplete
                else Reason.BOUND_PRUNED
                if out.bounded
                else Reason.DEAD_END
            )
            kept.failure = out.failure
            fail = out.failure if out.failure is not None else deepest
            return Subtree(failure=fail, bounded=out.bounded, incomplete=out.incomplete)
        total = g + keep.cost + out.value
        kept.reason, kept.value = Reason.CHOSEN, total
        for s in segments:
            if s.position != keep.position:
                entries[s.position].value = g + s.cost + out.value
                entries[s.position].detail = (
                    f"finishing this task costs {s.cost:g} against "
                    f"{keep.cost:g}; the task's alternatives do not affect later "
                    "choices, so the rest of the plan is the same"
                )
        choice = PendingChoice(node, depth, state, tasks, "decision", None, total, entries)
        return Subtree(
            value=keep.cost + out.value,
            steps=steps,
            choices=(choice, out.choices),
            failure=deepest,
            bounded=out.bounded,
            incomplete=out.incomplete,
        )

    def segment(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        rest_len: int,
        cost: float,
        steps: Cons,
        depth: int,
        node: int,
        g: float,
    ) -> SegmentEnd | None:
        """Cheapest way to work down ``tasks`` to its last ``rest_len`` tasks, or None.

        Used by the partial plan pruner; every node it creates is counted, and the
        discarded ones are subtracted from the tree size afterwards.  ``g`` is the cost
        before the segment, so that a replay shows each node's cost so far as
        :meth:`visit` does.
        """
        if len(tasks) <= rest_len:
            return SegmentEnd(cost, state, steps, depth)
        if self.trace is not None:
            self.trace.emit(
                EventKind.NODE_EXPANDED,
                node,
                task=tasks[0],
                depth=depth,
                g=g + cost,
                tasks=len(tasks),
            )
        best: SegmentEnd | None = None
        for alt in self.expand(state, tasks, depth, node, ()):
            if not alt.ok or self.stop is not None:
                continue
            child = self.open_child(node, depth, alt)
            s = (alt, steps) if alt.operator is not None else steps
            end = self.segment(
                alt.state, alt.tasks, rest_len, cost + alt.cost, s, depth + 1, child, g
            )
            if end is not None and (best is None or end.cost < best.cost - slack(best.cost)):
                best = end
        return best
