"""A node's alternatives: every method instance of its first task, applicable or not, or
the one operator -- with its bindings, precondition, subtasks or step and cost.

Also the loop checks that decide whether an alternative leads back where the search has
been (``prune_repeats``, ``prune_recursion``), and the dead end where none applies.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..domain import EvaluationError, Method, Operator, Task, call_text
from ..results import Reason, Status
from ..trace import EventKind
from .budgets import SearchStopped
from .core import POLL_EVERY, SearchBase
from .records import NO_METHOD, Alternative, Entry, LoopCheck, OpenTask, PendingFailure, Subtree

__all__ = ["EvaluationError", "Expander"]

RANKED_AT_MOST = 4096
"""A node's alternatives ranked by ``Problem.goal_order`` at most: past this many, they
come as they are made."""


class Expander(SearchBase):
    """Makes a node's alternatives and checks them for loops."""

    def bindings(
        self, m: Method, state: Any, env: dict[str, Any]
    ) -> Iterator[tuple[dict[str, Any], tuple[tuple[str, Any], ...]]]:
        """Each binding of ``m``'s variables: the environment, and the (variable, value)
        pairs it added, in the order the method binds them."""
        if not m.bindings:
            yield env, ()
            return
        yield from self.bind_from(m, 0, state, env, ())

    def bind_from(
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
                yield from self.bind_from(m, i + 1, state, e, bound + pairs)
            if self.stop is not None:
                return

    def apply(
        self,
        op: Operator,
        args: tuple[Any, ...],
        state: Any,
        rest: tuple[Task, ...],
        alt: Alternative,
        depth: int,
        node: int,
    ) -> Alternative:
        env = dict(zip(op.params, args, strict=True))
        fld = "precondition"
        try:
            if op.precondition is not None and not op.precondition.evaluate(state, env):
                alt.ok = False
                alt.reason = Reason.PRECONDITION_FAILED
                alt.failure = PendingFailure(
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
        alt.operator = op.name
        alt.args = args
        alt.costs = costs
        alt.applied_in = state
        alt.cost = cost
        return alt

    def expand(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> list[Alternative]:
        return list(self.alternatives(state, tasks, depth, node, assumptions))

    def alternatives(
        self,
        state: Any,
        tasks: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> Iterator[Alternative]:
        """The node's alternatives in order: every method instance, applicable or not, or
        the one operator.  A generator, so that ``first`` mode makes the later ones only
        when the earlier ones led nowhere (the state never changes under it)."""
        task = tasks[0]
        name, args = task
        rest = tasks[1:]
        op = self.domain.operators.get(name)
        if op is not None:
            yield self.apply(op, args, state, rest, Alternative(name, None, (), True), depth, node)
            return
        made = self.method_alternatives(state, task, rest, depth, node, assumptions)
        order = self.goal_order
        if order is None or name not in order[0]:
            yield from made
            return
        # Ranked: made first, up to a bound (a node's alternatives can run into the
        # millions, and ``first`` mode wants the first that works); past it, as they come.
        kept: list[Alternative] = []
        for alt in made:
            kept.append(alt)
            if len(kept) >= RANKED_AT_MOST:
                yield from kept
                yield from made
                return
        rank = order[1]
        cut = len(rest)
        yield from sorted(kept, key=lambda a: -rank(a.tasks[: len(a.tasks) - cut]) if a.ok else 0)

    def method_alternatives(
        self,
        state: Any,
        task: Task,
        rest: tuple[Task, ...],
        depth: int,
        node: int,
        assumptions: tuple[str, ...],
    ) -> Iterator[Alternative]:
        """A compound task's alternatives, every method instance, in the methods' order."""
        name, args = task
        trace = self.trace
        fmt = self.format_value
        info = self.domain.tasks[name]
        base = dict(zip(info.params, args, strict=True))
        base["assumptions"] = assumptions
        for m in info.methods:
            if trace is not None:
                trace.emit(EventKind.METHOD_TRIED, node, task=task, method=m.name)
            base["view"] = m.spec.belief_view
            produced = False
            for env, bnd in self.bindings(m, state, base):
                produced = True
                self.next_poll += 1
                if self.next_poll >= POLL_EVERY:  # a node's alternatives can run into the millions
                    self.next_poll = 0
                    if self.poll():
                        return
                if trace is not None and bnd:
                    trace.emit(EventKind.BINDING, node, method=m.name, bindings=bnd)
                alt = Alternative(m.name, m, bnd, True, fmt=fmt)
                fld, src = "precondition", m.spec.precondition
                try:
                    ok = m.precondition is None or bool(m.precondition.evaluate(state, env))
                    if trace is not None:
                        trace.emit(EventKind.PRECONDITION, node, method=alt.label, result=ok)
                    if not ok:
                        alt.ok = False
                        alt.reason = Reason.PRECONDITION_FAILED
                        alt.failure = PendingFailure(
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
                        self.apply(
                            self.domain.operators[c.name], opargs, state, rest, alt, depth, node
                        )
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
                    Alternative(
                        m.name,
                        m,
                        (),
                        False,
                        Reason.NO_BINDING,
                        PendingFailure(
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

    def count_cut(self, f: PendingFailure) -> None:
        """One more branch cut by ``f``'s condition: counted per literal where the
        condition says which part failed (None: a part worth no count, such as a binding
        of the wrong type), for the suspects of a run with no plan."""
        expr = f.expr
        if expr is None:
            return
        part = getattr(expr, "failing_part", None)
        key = (id(expr), part(f.state, f.env) if part is not None else 0)
        if key[1] is None:
            return
        seen = self.cuts.get(key)
        if seen is None:
            self.cuts[key] = [1, f]
        else:
            seen[0] += 1
            if f.depth > seen[1].depth:
                seen[1] = f

    def dead_end(
        self, state: Any, tasks: tuple[Task, ...], depth: int, node: int, alts: list[Alternative]
    ) -> Subtree:
        """No alternative applies: the node fails, with every alternative's failure."""
        self.stats["dead_ends"] += 1
        cuts = self.cuts
        if len(alts) == 1 and alts[0].method is None:  # an operator that cannot apply
            failure = alts[0].failure
        else:
            causes = tuple(a.failure for a in alts if a.failure is not None)
            failure = PendingFailure(
                tasks[0], None, "no method", None, state, {}, depth, node, causes
            )
            seen = cuts.get((NO_METHOD, tasks[0][0]))
            if seen is None:
                cuts[(NO_METHOD, tasks[0][0])] = [1, failure]
            else:
                seen[0] += 1
                if depth > seen[1].depth:
                    seen[1] = failure
        if self.options.abort_on_dead_end:
            self.aborted = failure
            self.stop = Status.NO_PLAN
        return Subtree(failure=failure)

    def loop_check(
        self,
        tasks: tuple[Task, ...],
        state: Any,
        alt: Alternative,
        ent: Entry,
        node: int,
        forced: bool = False,
    ) -> LoopCheck:
        """Whether ``alt`` is pruned as a loop (``prune_repeats``, ``prune_recursion``; its
        entry then says why), and else its key on the path and the tasks being decomposed
        at its child.  ``forced``: ``alt`` was forced at this node (see
        :meth:`still_decomposing`)."""
        path_key = None
        if self.repeats:
            path_key = self.path_key(alt.tasks, alt.state)
            ancestor = None
            for tasks_there, node_there in self.on_path.get(path_key, ()):
                if tasks_there == alt.tasks:
                    ancestor = node_there
                    break
            if ancestor is not None:
                ent.reason, ent.compared = Reason.REPEATED, float(ancestor)
                self.stats["repeats_pruned"] += 1
                if ancestor < self.reach:
                    self.reach = ancestor
                if self.trace is not None:
                    self.trace.emit(
                        EventKind.NODE_PRUNED,
                        node,
                        alternative=alt.label,
                        reason=str(Reason.REPEATED),
                        ancestor=ancestor,
                    )
                return LoopCheck(True, None, self.decomposing)
        if self.recursion:
            found = self.still_decomposing(tasks, state, alt, forced, node)
            if found is None:
                ent.reason, ent.detail = (
                    Reason.RECURSION,
                    "its first task is still being decomposed above it, in the same state",
                )
                self.stats["recursion_pruned"] += 1
                return LoopCheck(True, None, self.decomposing)
            return found._replace(path_key=path_key)
        return LoopCheck(False, path_key, self.decomposing)

    def path_key(self, tasks: tuple[Task, ...], state: Any) -> Any:
        """The short key of a node for ``prune_repeats`` (see ``on_path``)."""
        return (len(tasks), tasks[0] if tasks else None, self.state_key(state))

    def remember(self, path_key: Any, tasks: tuple[Task, ...], node: int) -> None:
        self.on_path.setdefault(path_key, []).append((tasks, node))

    def forget(self, path_key: Any) -> None:
        there = self.on_path[path_key]
        there.pop()
        if not there:
            del self.on_path[path_key]

    def still_decomposing(
        self,
        tasks: tuple[Task, ...],
        state: Any,
        alt: Alternative,
        forced: bool = False,
        node: int = -1,
    ) -> LoopCheck | None:
        """The tasks still being decomposed at ``alt``'s child, each with the state it was
        taken up in, or None if the child's first task is one of them in that same state
        (see ``SearchOptions.prune_recursion``).

        A task whose method was forced (a why-not's re-plan) is not recorded as open: the
        cut is sound only because the outer task could have taken the inner one's way
        directly, and a forced task cannot.  Forcing ``get_to(v, b)`` via ``a`` when the
        truck stands at ``c`` needs ``get_to(v, b)`` again, in the same state, on the way
        to ``a``: cutting it left the re-plan with nothing after two nodes."""
        size = len(alt.tasks)
        top = self.decomposing
        closed: list[OpenTask] = []
        while top is not None and top.rest >= size:  # done: the list is back to its rest
            closed.append(top)
            top = top.below
        opened = None
        if alt.operator is None and not forced:  # a method: open until the list is back to the rest
            top = opened = OpenTask(tasks[0], len(tasks) - 1, self.state_key(state), top, node)
        if alt.tasks:
            key = (alt.tasks[0], self.state_key(alt.state))
            count = self.open_count.get(key, 0)
            if count:
                count -= sum(1 for o in closed if (o.task, o.state_key) == key)
            if opened is not None and (opened.task, opened.state_key) == key:
                count += 1
            if count > 0:
                self.reach = min(self.reach, self._opened_at(key, top, closed))
                return None
        return LoopCheck(False, None, top, tuple(closed), opened)

    def _opened_at(
        self, key: tuple[Task, Any], top: OpenTask | None, closed: list[OpenTask]
    ) -> int:
        """The node that took up the innermost open task ``key`` (the one a recursion cut
        refers to), for :attr:`reach`."""
        done = {id(o) for o in closed}
        while top is not None:
            if id(top) not in done and (top.task, top.state_key) == key:
                return top.node
            top = top.below
        return -1

    def enter(self, check: LoopCheck) -> None:
        """Make ``check``'s child the node whose tasks are open (before searching it)."""
        for o in check.closed:
            self._count((o.task, o.state_key), -1)
        if check.opened is not None:
            self._count((check.opened.task, check.opened.state_key), 1)
        self.decomposing = check.decomposing

    def leave(self, check: LoopCheck, outer: OpenTask | None) -> None:
        """Undo :meth:`enter` once the child is searched."""
        if check.opened is not None:
            self._count((check.opened.task, check.opened.state_key), -1)
        for o in check.closed:
            self._count((o.task, o.state_key), 1)
        self.decomposing = outer

    def _count(self, key: tuple[Task, Any], change: int) -> None:
        """``open_count`` with ``key`` counted ``change`` more times (gone at none)."""
        left = self.open_count.get(key, 0) + change
        if left:
            self.open_count[key] = left
        else:
            del self.open_count[key]
