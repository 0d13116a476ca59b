"""Arguments a task takes only to check their type.

Domains translated from other formalisms pass arguments that no method uses but to type
them.  Woodworking's ``do_colour`` takes a machine, and each of its methods only says
what the machine is -- an immersion varnisher, a spray varnisher, a glazer -- and then
paints with a variable of its own.  The method of ``process`` that calls it leaves that
machine free, so depth-first search tried every machine of the problem there (55 of 105
in problem 21, the rest spares) and, on every failure below, the next one: a subtree
repeated, renamed, for each machine.

A variable whose value goes only to such places (and to no condition) matters only
through which of the types checked below it the value has: two objects with the same
types lead to the same subtrees, one renamed into the other, so a plan through either
is a plan through the first.  One object per combination of those types is tried --
and none that some place refuses by type -- which keeps every plan there is up to that
renaming, and so keeps "no plan exists" true.  Woodworking's machine: three candidates.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from .conditions import Condition, Obj, World, free_variables
from .deferral import variables
from .model import OBJECT, Domain, Method, Typed, Var

__all__ = ["Place", "TypingOnly", "typing_only"]

Place = tuple[str, int]
"""A task's or action's argument: its name and the argument's index."""

Types = tuple[str, ...]


class TypingOnly:
    """The places of a domain whose value nothing uses but its type (:func:`typing_only`)."""

    def __init__(
        self, checked: Mapping[Place, frozenset[Types]], accepted: Mapping[Place, frozenset[Types]]
    ) -> None:
        # Every type a value at the place is checked against, there or further down.
        self.checked = checked
        # The types the place itself accepts: some method's (or the action's) own.
        self.accepted = accepted

    def choices(
        self,
        method: Method,
        free: Sequence[Typed],
        condition: Condition | None,
        world: World,
    ) -> dict[str, tuple[Obj, ...]]:
        """For each of ``method``'s free variables whose value goes only to typing
        places (and into no ``condition``), the objects worth trying: the first of each
        combination of checked types, in the world's order, leaving out any some place
        refuses.  Other variables are not in the result."""
        used = free_variables(condition) if condition is not None else set()
        out: dict[str, tuple[Obj, ...]] = {}
        for var in free:
            if var.name in used:
                continue
            places = _places(method, var.name)
            if any(place not in self.checked for place in places):
                continue
            checked = sorted(set().union(*(self.checked[p] for p in places)))
            kept: dict[tuple[bool, ...], Obj] = {}
            for obj in world.objects_of(var.types):
                if obj in world.spares or not all(
                    any(obj in world.type_set(t) for t in self.accepted[p]) for p in places
                ):
                    continue
                kept.setdefault(tuple(obj in world.type_set(t) for t in checked), obj)
            out[var.name] = tuple(kept.values())
        return out


def typing_only(domain: Domain) -> TypingOnly:
    """The places of ``domain`` whose value no method or action uses but to type it.

    An action's argument is one when neither its precondition nor its effect names it.
    A compound task's argument is one when every method of the task has there a variable
    of its own that appears once in its ``:task``, in no precondition or constraint, and
    in subtasks only at such places (the greatest set that holds of, since a method may
    hand the argument on to itself).  A task with no methods is done by none whatever
    its arguments, so each of its places is one."""
    methods: dict[str, list[Method]] = defaultdict(list)
    for m in domain.methods:
        methods[m.task.name].append(m)
    own: dict[Place, set[Types]] = {}  # the types the place's own methods (action) give
    flows: dict[Place, list[Place]] = {}
    for action in domain.actions:
        used = variables(action.precondition, action.effect)
        for index, param in enumerate(action.params):
            if param.name not in used:
                own[action.name, index] = {param.types}
                flows[action.name, index] = []
    declared: dict[Place, Types] = {}
    for task in domain.tasks:
        for index, param in enumerate(task.params):
            found = _through(methods[task.name], index)
            if found is not None:
                own[task.name, index], flows[task.name, index] = found
                declared[task.name, index] = param.types
    changed = True
    while changed:  # a place that hands its value to a place that uses it is not one
        changed = False
        for place in [p for p in own if any(f not in own for f in flows[p])]:
            del own[place]
            changed = True
    checked = {p: own[p] | ({declared[p]} if p in declared else set()) for p in own}
    changed = True
    while changed:  # what is checked below a place is checked at it
        changed = False
        for place, types in checked.items():
            for below in flows[place]:
                if not checked[below] <= types:
                    types |= checked[below]
                    changed = True
    return TypingOnly(
        {p: frozenset(t) for p, t in checked.items()}, {p: frozenset(t) for p, t in own.items()}
    )


def _through(methods: Sequence[Method], index: int) -> tuple[set[Types], list[Place]] | None:
    """The types the methods give their variable at ``index`` of their task and where
    they hand it on, if each uses it for nothing else; else None."""
    types: set[Types] = set()
    onward: list[Place] = []
    for m in methods:
        arg = m.task.args[index]
        if not isinstance(arg, Var):
            return None
        if sum(isinstance(a, Var) and a.name == arg.name for a in m.task.args) != 1:
            return None
        if arg.name in variables(m.precondition, m.constraints):
            return None
        types.add(next((p.types for p in m.params if p.name == arg.name), (OBJECT,)))
        onward += _places(m, arg.name)
    return types, onward


def _places(method: Method, name: str) -> list[Place]:
    """Where ``method``'s subtasks take its variable ``name``."""
    return [
        (sub.name, index)
        for sub in method.subtasks
        for index, arg in enumerate(sub.args)
        if isinstance(arg, Var) and arg.name == name
    ]
