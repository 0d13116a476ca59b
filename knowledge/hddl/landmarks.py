"""Atoms a goal atom cannot be reached without: the preconditions every action that adds it
shares, and theirs in turn (backchaining, as landmark planners find fact landmarks).

If a goal atom is false now, some later step adds it, and that step needs each of these
atoms true when it runs; an atom among them that is false now must then be added later
too.  So the goal cut (:mod:`.goal_reach`) can ask of it what it asks of a goal atom:
that a task left can add it.  Monroe's observations are the case that needs it: the
goal is the last observation, which only the observed last action adds, and that
action needs the one before, and so on back to the first.  A task that cannot make the
second observation (a kind of emergency whose methods never call anyone) is cut at the
top of the network, where the goal alone let it be searched in full.
"""

from __future__ import annotations

from collections.abc import Sequence

from .model import Action, Atom, Const, Domain, Typed, Var
from .reachability import _adds, positive_atoms

__all__ = ["LANDMARKS_AT_MOST", "Landmark", "landmarks"]

LANDMARKS_AT_MOST = 256
"""Atoms found beyond the goal's at most: each is asked about at every node."""

Ground = tuple[str, tuple[str, ...]]
Landmark = tuple[Atom, tuple[int, ...]]
"""An atom, and the atoms it is needed for (indexes into the goal's atoms followed by the
landmarks): needed while one of those is false now and needed itself."""


def landmarks(
    domain: Domain, goal: Sequence[Atom], at_most: int = LANDMARKS_AT_MOST
) -> list[Landmark]:
    """The atoms the goal's ground atoms need (see the module's docstring), breadth first
    from the goal, each with the atoms it is needed for; none of the goal's own."""
    adders: dict[str, list[tuple[Action, Atom, frozenset[str]]]] = {}
    for action in domain.actions:
        bound: list[Typed] = []  # a ``forall``'s variables: not the action's parameters
        added = _adds(action.effect, bound, [])
        quantified = frozenset(p.name for p in bound)
        for atom in added:
            adders.setdefault(atom.predicate, []).append((action, atom, quantified))
    found: list[Ground] = [(a.predicate, tuple(str(t.name) for t in a.args)) for a in goal]
    index = {g: i for i, g in enumerate(found)}
    parents: list[list[int]] = [[] for _ in found]
    todo = list(range(len(found)))
    while todo:
        i = todo.pop(0)
        for need in sorted(_shared_needs(adders.get(found[i][0], []), found[i])):
            if need[0] not in adders:
                continue  # static: as true, or as false, at every node as at the start
            j = index.get(need)
            if j is None:
                if len(found) >= len(goal) + at_most:
                    continue
                j = index[need] = len(found)
                found.append(need)
                parents.append([])
                todo.append(j)
            if j >= len(goal) and j != i and i not in parents[j]:
                parents[j].append(i)
    return [
        (Atom(p, tuple(Const(v) for v in values)), tuple(parents[k]))
        for k, (p, values) in enumerate(found[len(goal) :], start=len(goal))
    ]


def _shared_needs(adders: list[tuple[Action, Atom, frozenset[str]]], atom: Ground) -> set[Ground]:
    """The ground atoms every action able to add ``atom`` needs in its precondition (in a
    conjunctive place, every argument fixed by the atom or a constant); none where no
    action adds it (the goal cut itself finds that out)."""
    shared: set[Ground] | None = None
    for action, added, quantified in adders:
        needs = _needs(action, added, quantified, atom)
        if needs is None:
            continue
        shared = needs if shared is None else shared & needs
        if not shared:
            return set()
    return shared or set()


def _needs(
    action: Action, added: Atom, quantified: frozenset[str], atom: Ground
) -> set[Ground] | None:
    """The action's ground needs where its effect ``added`` is ``atom``; None where it can
    never be (another constant, or one parameter two values)."""
    if len(added.args) != len(atom[1]):
        return None
    params = {p.name for p in action.params} - quantified
    bound: dict[str, str] = {}
    for term, value in zip(added.args, atom[1], strict=True):
        if isinstance(term, Const):
            if str(term.name) != value:
                return None
        elif term.name in params and bound.setdefault(term.name, value) != value:
            return None
    hidden: list[Typed] = []  # an ``exists``'s variables: not the action's, whatever their names
    atoms = positive_atoms(action.precondition, hidden)
    shadowed = {p.name for p in hidden}
    out: set[Ground] = set()
    for a in atoms:
        values: list[str] = []
        for t in a.args:
            if isinstance(t, Const):
                values.append(str(t.name))
            elif isinstance(t, Var) and t.name in bound and t.name not in shadowed:
                values.append(bound[t.name])
            else:
                break
        else:
            out.add((a.predicate, tuple(values)))
    return out
