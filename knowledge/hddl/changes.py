"""What each action and each compound task can change, to the types of the arguments: the
test that lets pull-up (:func:`~.planning.pulled_up`) move a literal past earlier steps.

A literal a later step needs holds when the method starts if no earlier step can change
it.  By predicate alone, Transport's ``m-deliver`` could pull up nothing from its
``load`` step: ``get-to`` before it drives, and driving changes ``at``.  But driving moves
a *vehicle*, and ``load`` needs the *package* at the place -- ``(at ?p ?l1)`` with ``?p``
a package can only be changed by an effect on ``at`` whose first argument can be a
package.  HyperTensioN's ``typredicate`` splits predicates by argument types for the same
reason.  Checking the package's place when the delivery is chosen, not after the truck has
driven there, cut Transport p20 from a search that ran out of time to 126 nodes.

Sound: an effect ``(at ?v ?l)`` of an action whose ``?v`` is a vehicle changes only atoms
whose first argument is a vehicle; a literal whose first argument is of a type no vehicle
belongs to cannot be one of them.  Which objects belong to two types at once is asked of
``overlap`` (the problem's objects, where it is at hand): an object declared with both
types makes them overlap even where neither type is below the other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from .model import OBJECT, Atom, Delete, Domain, Effect, EffectAnd, EffectForall, Var, When

__all__ = ["Changes", "Types", "domain_overlap"]

Types = tuple[str, ...]  # a term's types: several for ``(either a b)``
Signature = tuple[str, tuple[Types, ...]]  # a predicate and the types of its arguments


@dataclass(frozen=True)
class Changes:
    """Per action and task, the predicates it can change and the argument types of each
    change; ``overlap(a, b)`` says whether some object can be of both ``a`` and ``b``."""

    signatures: Mapping[str, frozenset[Signature]]
    overlap: Callable[[Types, Types], bool]
    predicates: Mapping[str, frozenset[str]] = field(default_factory=dict)
    constants: Mapping[str, Types] = field(default_factory=dict)
    actions: frozenset[str] = frozenset()

    @classmethod
    def of(cls, domain: Domain, overlap: Callable[[Types, Types], bool] | None = None) -> Changes:
        signatures = _signatures(domain)
        return cls(
            signatures,
            overlap or domain_overlap(domain),
            {name: frozenset(p for p, _ in sigs) for name, sigs in signatures.items()},
            {c.name: c.types for c in domain.constants},
            frozenset(a.name for a in domain.actions),
        )

    @property
    def changing(self) -> frozenset[str]:
        """The predicates some action adds or deletes (the others are static)."""
        return frozenset().union(*(self.predicates.get(a, frozenset()) for a in self.actions))

    def can_change(self, steps: Iterable[str], literal: Atom, types: Mapping[str, Types]) -> bool:
        """Whether any of ``steps`` can change ``literal``, whose variables have ``types``
        (a variable not in it may be anything)."""
        mine: tuple[Types, ...] | None = None
        for step in steps:
            if literal.predicate not in self.predicates.get(step, ()):
                continue
            if mine is None:
                mine = _arg_types(literal, types, self.constants)
            for predicate, theirs in self.signatures[step]:
                if predicate == literal.predicate and all(
                    self.overlap(a, b) for a, b in zip(mine, theirs, strict=True)
                ):
                    return True
        return False


def domain_overlap(domain: Domain) -> Callable[[Types, Types], bool]:
    """Overlap from the declared types alone: two types overlap where some type is below
    both (each is below itself, everything below ``object``)."""
    below: dict[str, set[str]] = {OBJECT: set()}
    for t in domain.types:
        for above in domain.ancestors(t.name):
            below.setdefault(above, set()).add(t.name)
    for name, under in below.items():
        under.add(name)

    def overlap(a: Types, b: Types) -> bool:
        if OBJECT in a or OBJECT in b:
            return True
        return any(below.get(x, {x}) & below.get(y, {y}) for x in a for y in b)

    return overlap


def _arg_types(
    atom: Atom, types: Mapping[str, Types], constants: Mapping[str, Types]
) -> tuple[Types, ...]:
    """The types of each argument of ``atom``: a variable's from ``types``, a constant's
    as declared, anything where neither says."""
    return tuple(
        types.get(a.name, (OBJECT,)) if isinstance(a, Var) else constants.get(a.name, (OBJECT,))
        for a in atom.args
    )


def _signatures(domain: Domain) -> dict[str, frozenset[Signature]]:
    """Per action, the signature of each atom it adds or deletes; per task, the union over
    every subtask of every method, to a fixed point."""
    constants = {c.name: c.types for c in domain.constants}

    def walk(effect: Effect | None, types: Mapping[str, Types], into: set[Signature]) -> None:
        if isinstance(effect, Atom | Delete):
            atom = effect if isinstance(effect, Atom) else effect.atom
            into.add((atom.predicate, _arg_types(atom, types, constants)))
        elif isinstance(effect, EffectAnd):
            for part in effect.parts:
                walk(part, types, into)
        elif isinstance(effect, EffectForall):
            walk(effect.effect, {**types, **{v.name: v.types for v in effect.params}}, into)
        elif isinstance(effect, When):
            walk(effect.effect, types, into)

    found: dict[str, set[Signature]] = {}
    for action in domain.actions:
        walk(
            action.effect,
            {p.name: p.types for p in action.params},
            found.setdefault(action.name, set()),
        )
    for task in domain.tasks:
        found.setdefault(task.name, set())
    grown = True
    while grown:
        grown = False
        for method in domain.methods:
            into = found.setdefault(method.task.name, set())
            before = len(into)
            for sub in method.subtasks:
                into |= found.get(sub.name, set())
            grown = grown or len(into) > before
    return {name: frozenset(sigs) for name, sigs in found.items()}
