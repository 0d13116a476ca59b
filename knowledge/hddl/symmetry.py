"""Objects the search need not tell apart: interchangeable tools of a problem.

Woodworking's later problems have fifteen planers and ten grinders, each only
``(machine_present ...)``; a method that picks "a machine" tries every one, and each
choice leads to the same subtree under another name.  An object is a *spare* when
choosing it can never lead anywhere its representative would not:

* no action's effect can mention it (no atom an action adds or deletes has an argument of
  a type it belongs to, by the domain's :class:`~.changes.Changes`), so every fact about it
  is a fact of the initial state, forever;
* the goal, the initial task network and the domain's constants do not name it;
* swapping it with its representative (the first object declared with the same types)
  maps the initial state onto itself, and no fact relates two such objects;
* and the domain compares no two variables (``(= ?a ?b)``), the one way a precondition
  could tell two such objects apart without a fact.

Then a plan that uses a spare is, with the spare renamed to its representative, a plan
too, so leaving spares out of the bindings loses no plan and keeps "no plan exists" true.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from .changes import Changes
from .conditions import Obj, World
from .model import Const, Domain, Equals, Problem, Var

__all__ = ["spares"]


def spares(domain: Domain, problem: Problem, world: World, changes: Changes) -> frozenset[Obj]:
    """The problem's spare objects (see the module's docstring); empty where the domain
    compares variables.  ``changes``: the domain's, whose signatures say the types of
    every argument of every atom an action adds or deletes."""
    if any(_compares_variables(n) for n in _nodes((domain.methods, domain.actions))):
        return frozenset()
    touched: set[str] = set()
    for action in domain.actions:
        for _, arg_types in changes.signatures.get(action.name, ()):
            for types in arg_types:
                touched.update(world.objects_of(types))
    named = {str(c.name) for c in _nodes((problem.htn, problem.goal)) if isinstance(c, Const)}
    named |= {c.name for c in domain.constants}
    declared = {item.name: item.types for item in problem.objects}
    candidates = [
        world.object(name)
        for name in declared
        if name not in touched and name not in named and name in world.objects
    ]
    if len(candidates) < 2:
        return frozenset()
    facts: dict[Obj, list[tuple[str, tuple[str, ...]]]] = {o: [] for o in candidates}
    everything = {(a.predicate, tuple(str(t.name) for t in a.args)) for a in problem.init}
    for predicate, args in everything:
        mentioned = [a for a in set(args) if a in facts]
        if len(mentioned) > 1:  # a fact between two of them: renaming could break it
            for a in mentioned:
                facts.pop(a)  # type: ignore[call-overload]
        elif mentioned:
            facts[mentioned[0]].append((predicate, args))  # type: ignore[index]
    candidates = [o for o in candidates if o in facts]
    out: set[Obj] = set()
    representatives: dict[tuple[str, ...], list[Obj]] = {}
    for o in candidates:
        for rep in representatives.setdefault(declared[o], []):
            if _swappable(rep, o, facts, everything):
                out.add(o)
                break
        else:
            representatives[declared[o]].append(o)
    return frozenset(out)


def _swappable(
    a: Obj,
    b: Obj,
    facts: dict[Obj, list[tuple[str, tuple[str, ...]]]],
    everything: set[tuple[str, tuple[str, ...]]],
) -> bool:
    """Whether swapping ``a`` and ``b`` maps the initial state onto itself."""
    if len(facts[a]) != len(facts[b]):
        return False
    swap = {a: b, b: a}
    return all(
        (predicate, tuple(swap.get(x, x) for x in args)) in everything  # type: ignore[call-overload]
        for predicate, args in (*facts[a], *facts[b])
    )


def _compares_variables(node: Any) -> bool:
    return isinstance(node, Equals) and isinstance(node.left, Var) and isinstance(node.right, Var)


def _nodes(x: Any) -> Iterator[Any]:
    """Every node of a parsed structure, depth first."""
    todo = [x]
    while todo:
        node = todo.pop()
        if isinstance(node, tuple | list):
            todo.extend(node)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            yield node
            todo.extend(getattr(node, f.name) for f in dataclasses.fields(node))
