"""Choosing a method's variable when the subtask that first uses it comes up.

A method variable that is neither an argument of its task nor in its precondition is chosen
by enumeration when the method is applied, although nothing can tell a good value from a bad
one until a later subtask runs: depth-first search then explores every earlier subtask again
for every value.  Woodworking's initial task network is the plain case: five surface
variables, one per part, each checked only when that part is processed, so the first part's
whole subtree was searched once per value of the others (1,024 times), and its first
problem was not solved in 10 s.

Here such a method is cut where a variable is first used: the first piece keeps the task,
the precondition and the subtasks before the cut, and ends by calling a *continuation* task
that carries the variables already bound; the continuation's one method chooses the new
variables and runs the remaining subtasks, with its first action's preconditions pulled up
(:func:`~.planning.pulled_up`), so that the value is matched against the state of that
moment.  The plans are the same; only when a choice is made changes.  Lilotane gets the same
effect from its lifted encoding, which leaves an argument open until it is constrained.

A continuation is named ``METHOD@K`` (K: the subtask it starts at), which no HDDL name can
be, and :func:`fold_children` puts its subtasks back in the method that called it, so that
plans, decomposition trees and the IPC output show the domain's own methods only.
"""

from __future__ import annotations

from dataclasses import replace

from .model import Const, Domain, Method, Subtask, Task, TaskCall, Var

__all__ = ["CONTINUATION", "defer_method", "deferred_domain", "is_continuation", "variables"]

CONTINUATION = "@"


def is_continuation(name: str) -> bool:
    """Whether ``name`` is a continuation task or method (never a name in the HDDL)."""
    return CONTINUATION in name


def variables(*items: object) -> set[str]:
    """Every variable named anywhere in terms, formulas or calls (any nesting)."""
    out: set[str] = set()
    todo: list[object] = list(items)
    while todo:
        f = todo.pop()
        if isinstance(f, Var):
            out.add(f.name)
        elif isinstance(f, Const | str | None):
            continue
        elif isinstance(f, tuple):
            todo.extend(f)
        elif hasattr(f, "__dataclass_fields__"):
            todo.extend(getattr(f, name) for name in f.__dataclass_fields__ if name != "pos")
    return out


def _cut(method: Method) -> tuple[int, set[str]] | None:
    """The first subtask after the first that uses a variable nothing bound before it, with
    the variables bound by then; None if there is none."""
    bound = variables(method.task.args) | variables(method.precondition)
    bound |= variables(method.constraints)
    for position, sub in enumerate(method.subtasks):
        fresh = variables(sub.args) - bound
        if fresh and position > 0:
            return position, bound
        bound |= fresh
    return None


def defer_method(method: Method) -> list[tuple[Method, Task | None]]:
    """``method`` cut before each subtask that uses a variable nothing bound yet: the first
    piece (the method itself, its task unchanged), then each continuation with the task it
    decomposes; just ``[(method, None)]`` when no subtask after the first does that."""
    place = {p.name: i for i, p in enumerate(method.params)}
    pieces: list[tuple[Method, Task | None]] = []
    current, task, start = method, None, 0
    while (found := _cut(current)) is not None:
        cut, bound = found
        later = set().union(*(variables(s.args) for s in current.subtasks[cut:]))
        carried = tuple(
            p for p in method.params if p.name in bound & later
        )  # in the method's own order
        name = f"{method.name}{CONTINUATION}{start + cut}"
        calls = tuple(Var(p.name) for p in carried)
        steps = (*current.subtasks[:cut], Subtask(name, calls, pos=current.subtasks[cut].pos))
        used = variables(current.task.args, current.precondition, current.constraints, steps)
        params = tuple(p for p in current.params if p.name in used)
        head = replace(current, params=params, subtasks=steps)
        pieces.append((head, task))
        fresh = sorted(later - bound, key=place.__getitem__)
        current = Method(
            name,
            (*carried, *(method.params[place[v]] for v in fresh)),
            TaskCall(name, calls),
            None,
            current.subtasks[cut:],
            pos=method.pos,
        )
        task, start = Task(name, carried, pos=method.pos), start + cut
    pieces.append((current, task))
    return pieces


def deferred_domain(domain: Domain) -> Domain:
    """``domain`` with every method cut where it first uses an unbound variable; the
    continuations come after the domain's own tasks and methods, so that theirs keep their
    places (a method's place is its order among the alternatives)."""
    heads: list[Method] = []
    extra_methods: list[Method] = []
    extra_tasks: list[Task] = []
    for method in domain.methods:
        pieces = defer_method(method)
        heads.append(pieces[0][0])
        for piece, task in pieces[1:]:
            extra_methods.append(piece)
            if task is not None:
                extra_tasks.append(task)
    if not extra_methods:
        return domain
    return replace(
        domain,
        tasks=(*domain.tasks, *extra_tasks),
        methods=(*heads, *extra_methods),
    )
