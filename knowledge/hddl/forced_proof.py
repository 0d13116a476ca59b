"""Proving that a forced method has no plan, where the search that forced it gave up.

A why-not's re-plan forces a method at a choice point and searches below it; recursion
cuts can leave that search unable to say "no plan exists" (forcing a truck to load a
package where the package is not: every way of driving there is tried, each fails at the
load, and the cut ways leave it unsure).  Relaxed reachability
(:mod:`.reachability`) proves it cheaply when it is so, if it is asked the right question.
Over the whole domain it cannot: some action somewhere adds the missing literal (a drop
puts a package down anywhere).  But below the forced method only its own subtasks run, in
order, from the choice point's state: before subtask *k* is done, the only actions that
can have run are those some decomposition of subtasks 0..k can reach.  So the relaxation
over those actions alone, from that state, over-approximates everything that can happen
up to the end of subtask *k*; if subtask *k* cannot be accomplished even there, no
decomposition of the forced method can be, for that binding.  When that holds for every
binding the forced choice allows, no plan exists with that choice -- a proof, never a
guess: anything not proven leaves the result as the search left it.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from .model import Atom, Const, Domain, Method, Problem, Var
from .reachability import Unfinished, analyse

__all__ = ["forced_impossible"]


def _reachable(domain: Domain, tasks: Iterable[str]) -> tuple[set[str], set[str]]:
    """The tasks (compound and primitive) and methods any decomposition of ``tasks`` can
    reach, by name (the lifted task decomposition graph)."""
    by_task: dict[str, list[Method]] = {}
    for m in domain.methods:
        by_task.setdefault(m.task.name, []).append(m)
    seen: set[str] = set()
    methods: set[str] = set()
    todo = list(tasks)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for m in by_task.get(name, ()):
            methods.add(m.name)
            todo.extend(s.name for s in m.subtasks)
    return seen, methods


def _subtasks(
    method: Method, task_args: Sequence[str], bindings: Mapping[str, str]
) -> list[tuple[str, tuple[str, ...]]] | None:
    """``method``'s subtasks ground by its task's arguments and ``bindings`` (None when a
    variable stays unbound or the task's arguments do not fit)."""
    env: dict[str, str] = {k if k.startswith("?") else f"?{k}": v for k, v in bindings.items()}
    for term, value in zip(method.task.args, task_args, strict=False):
        if isinstance(term, Const):
            if term.name != value:
                return None
        elif env.setdefault(term.name, value) != value:
            return None
    out = []
    for s in method.subtasks:
        args = []
        for t in s.args:
            if isinstance(t, Var):
                if t.name not in env:
                    return None
                args.append(env[t.name])
            else:
                args.append(t.name)
        out.append((s.name, tuple(args)))
    return out


def _state_atoms(domain: Domain, state: Any) -> tuple[Atom, ...]:
    """The compiled search state (one set of argument tuples per predicate, in the
    domain's order) as the model's atoms."""
    return tuple(
        Atom(p.name, tuple(Const(str(a)) for a in fact))
        for p, facts in zip(domain.predicates, state, strict=False)
        for fact in sorted(facts)
    )


def _impossible_step(
    domain: Domain, problem: Problem, steps: list[tuple[str, tuple[str, ...]]], deadline: float
) -> int | None:
    """The first subtask (index) that cannot be accomplished after the ones before it,
    from ``problem``'s initial state, or None if each can."""
    for k, (name, args) in enumerate(steps):
        tasks, methods = _reachable(domain, (s for s, _ in steps[: k + 1]))
        sub = replace(
            domain,
            methods=tuple(m for m in domain.methods if m.name in methods),
            actions=tuple(a for a in domain.actions if a.name in tasks),
        )
        facts = analyse(sub, problem, deadline=deadline)
        if not facts.can_accomplish(name, args):
            return k
    return None


def forced_impossible(
    domain: Domain,
    problem: Problem,
    state: Any,
    task_args: Sequence[str],
    method: str,
    bindings: Sequence[Mapping[str, str]],
    seconds: float = 2.0,
) -> str | None:
    """Why no decomposition of ``method`` for a task with ``task_args``, from ``state``,
    can be done under any of ``bindings`` (its variables' values, one mapping per
    alternative the forced choice allowed) -- or None when that is not proven (a binding
    passes, a variable is left unbound, or ``seconds`` run out)."""
    found = next((m for m in domain.methods if m.name == method), None)
    if found is None or not bindings or len(state) != len(domain.predicates):
        return None  # not the compiled state this module reads: prove nothing
    deadline = time.perf_counter() + seconds
    at_state = replace(problem, init=_state_atoms(domain, state))
    reasons: list[str] = []
    try:
        for binding in bindings:
            steps = _subtasks(found, task_args, binding)
            if steps is None:
                return None
            k = _impossible_step(domain, at_state, steps, deadline)
            if k is None:
                return None
            name, args = steps[k]
            reasons.append(f"step {k + 1} of {method}, ({' '.join((name, *args))}),")
    except Unfinished:
        return None
    more = f" (and so for each of the {len(reasons)} bindings allowed)" if len(reasons) > 1 else ""
    return (
        f"proven by relaxed reachability: {reasons[0]} can never be done after the steps "
        f"before it, from the state at the choice point{more}"
    )
