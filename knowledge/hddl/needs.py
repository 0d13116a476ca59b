"""What a compound task needs when it starts, whichever of its methods does it: the
literals every way of doing it checks before anything of it has run, so that a method
that calls it can check them too (HyperTensioN's "pullup" through tasks).

Pull-up (:func:`~.planning.pulled_up`) moves an action's preconditions into the method
that calls it.  A compound step hides its actions one level down or more, so a method
whose third step can never be done was applied for every binding of its variables, and
its first two steps searched each time.  Monroe's plan recognition has it in every
problem: ``(clear_road_hazard ?from ?to)`` is done by one method, whose second step
``(clean_up_hazard ?from ?to)`` is done by two, and both need some
``(hazard_seriousness ?from ?to ?h)`` -- a static literal, true of one pair of places
or of none.  Without it, the top task tried all 144 pairs and searched the first step,
blocking the road, for each: 164,569 nodes on Monroe-FO p02, where there is no hazard.

What a task needs is worked out per method, over the task's parameters: its precondition's
literals, what it pulls up from its actions, and what its compound steps need in turn (from
a later step only where no earlier step can change the literal -- by predicate and argument
types, :mod:`.changes` -- so that it holds at the start then). The task needs what every
method needs -- for a positive literal, in the least general form that each method's own
version implies: where methods differ in an argument, or the argument is a method's own
variable, any value will do. Such a literal becomes ``(exists (?any1) (hazard_seriousness
?from ?to ?any1))`` in the method that pulls it up, which :mod:`.conditions` answers by
scanning the predicate's facts. A negative literal or an equality is kept only with all its
arguments fixed (``(not (p ?x))`` for some ?x does not imply it for every one).

Sound: a method's precondition holds when it is applied, which is when its task starts;
every method of a task needs a literal, so the task does.  The fixed point starts from
nothing known and each round derives only from the rounds before, so every round is sound
(a recursive task's need has a finite derivation), and a round limit only stops early.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from .conditions import Condition, conjuncts
from .model import OBJECT, Atom, Const, Equals, Exists, Formula, Not, Term, Typed, Var
from .model import Method as HddlMethod

__all__ = ["WILD", "Need", "instantiate", "task_needs"]

# A need's argument: ("p", "3") the task's parameter at that index, ("c", name) a constant,
# or WILD, a position any value may fill.
Slot = tuple[str, str]
WILD: Slot = ("w", "")
ROUNDS = 12  # rounds of the fixed point at most: every round is sound, the limit only stops


@dataclass(frozen=True, order=True)
class Need:
    """One literal a task needs when it starts, over its parameters by position: ``kind``
    is ``atom``, ``not`` (a negated atom) or ``eq`` (two slots equal)."""

    kind: str
    predicate: str
    args: tuple[Slot, ...]

    @property
    def fixed(self) -> int:
        """How many arguments it fixes: of two forms, the one fixing more says more."""
        return sum(1 for a in self.args if a != WILD)


def task_needs(
    methods: Sequence[HddlMethod],
    pulled: Callable[[HddlMethod, Mapping[str, frozenset[Need]]], Iterable[Condition]],
    predicates: Callable[[str], bool] = lambda _: True,
) -> dict[str, frozenset[Need]]:
    """Per compound task, what every one of its methods needs when it starts (a task with
    no method is absent: it can never be done, and a search learns that at once).

    ``pulled(method, needs)`` is what the method checks beyond its own precondition, given
    the needs found so far (:func:`~.planning.pulled_up`); ``predicates`` says which
    predicates a need may be about."""
    ways: dict[str, list[HddlMethod]] = {}
    for m in methods:
        ways.setdefault(m.task.name, []).append(m)
    needs: dict[str, frozenset[Need]] = {}
    for _ in range(ROUNDS):
        found: dict[str, frozenset[Need]] = {}
        for task, its in ways.items():
            each = [_method_needs(m, pulled(m, needs), predicates) for m in its]
            common = _common(each)
            if common:
                found[task] = common
        if found == needs:
            break
        needs = found
    return needs


def _method_needs(
    method: HddlMethod, pulled: Iterable[Condition], predicates: Callable[[str], bool]
) -> frozenset[Need]:
    """What ``method`` checks when it is applied, over its task's parameters."""
    places: dict[str, Slot] = {}
    for i, arg in enumerate(method.task.args):
        if isinstance(arg, Var):
            places.setdefault(arg.name, ("p", str(i)))
    own = conjuncts(method.precondition) + conjuncts(method.constraints)
    out: set[Need] = set()
    for c in [*own, *pulled]:
        need = _need(c, places)
        if need is not None and (need.kind == "eq" or predicates(need.predicate)):
            out.add(need)
    return frozenset(out)


def _slot(term: Term, places: Mapping[str, Slot], wild: frozenset[str]) -> Slot:
    if isinstance(term, Const):
        return ("c", term.name)
    if term.name in wild:
        return WILD
    return places.get(term.name, WILD)


def _need(c: Condition, places: Mapping[str, Slot]) -> Need | None:
    """``c`` over the task's parameters, or None where it says nothing about them that
    holds for every binding of the method's own variables."""
    wild: frozenset[str] = frozenset()
    if isinstance(c, Exists) and isinstance(c.body, Atom):
        wild, c = frozenset(p.name for p in c.params), c.body
    if isinstance(c, Atom):
        return Need("atom", c.predicate, tuple(_slot(a, places, wild) for a in c.args))
    if isinstance(c, Not) and isinstance(c.body, Atom):
        args = tuple(_slot(a, places, wild) for a in c.body.args)
        return None if WILD in args else Need("not", c.body.predicate, args)
    if isinstance(c, Equals):
        args = (_slot(c.left, places, wild), _slot(c.right, places, wild))
        return None if WILD in args else Need("eq", "=", args)
    return None


def _general(a: Need, b: Need) -> Need | None:
    """The least general need both imply, or None: a positive literal keeps the arguments
    they share and leaves any value where they differ; others must be the same."""
    if a.kind != b.kind or a.predicate != b.predicate:
        return None
    if a == b:
        return a
    if a.kind != "atom":
        return None
    joined = tuple(x if x == y else WILD for x, y in zip(a.args, b.args, strict=True))
    return Need(a.kind, a.predicate, joined)


def _common(each: list[frozenset[Need]]) -> frozenset[Need]:
    """What every method's needs imply: each need of the first method, generalised
    method by method with the form of that method's own that keeps the most."""
    if not each:
        return frozenset()
    first, *rest = each
    out: set[Need] = set()
    for need in sorted(first):
        g: Need | None = need
        for other in rest:
            best: Need | None = None
            for candidate in sorted(other):
                assert g is not None
                joined = _general(g, candidate)
                if joined is not None and (best is None or joined.fixed > best.fixed):
                    best = joined
            g = best
            if g is None:
                break
        if g is not None:
            out.add(g)
    return frozenset(out)


def instantiate(need: Need, args: Sequence[Term]) -> Formula:
    """``need`` in the words of a method that calls the task with ``args``: a positive
    literal with positions any value may fill becomes an ``exists`` over them."""
    fresh: list[Typed] = []
    taken = {a.name for a in args if isinstance(a, Var)}

    def term(slot: Slot) -> Term:
        kind, value = slot
        if kind == "p":
            return args[int(value)]
        if kind == "c":
            return Const(value)
        name = f"?any{len(fresh) + 1}"
        while name in taken:  # the caller's own variables stay free in the body
            name += "_"
        fresh.append(Typed(name, (OBJECT,)))
        return Var(name)

    terms = tuple(term(s) for s in need.args)
    if need.kind == "eq":
        return Equals(terms[0], terms[1])
    atom = Atom(need.predicate, terms)
    if need.kind == "not":
        return Not(atom)
    return Exists(tuple(fresh), atom) if fresh else atom
