"""Slips a domain's text shows by itself, whatever the run did: an effect that was lost, a
precondition written the wrong way round, a call with the wrong variable, a method that can
only go round (issue 28's "why it cannot hold").

A failed search reports the deepest place it reached; when an author deletes an action's
add effect or swaps a method's steps, that place is often far from the slip, or the search
gives up at once.  These slips are visible in the text alone, and the 19 IPC 2020
total-order domains have none of them but where said (so each, found, most likely is the
fault):

* **a need nothing meets**: a precondition needs a literal that no action adds for objects
  of its types and no initial state holds (``unload-airplane`` needs ``(in ?p ?airplane)``
  but only ``load-truck`` adds ``in``, for a truck); or that actions delete and nothing
  adds or holds;
* **a delete of what must be false**: an action needs ``(not p)`` and deletes ``p``;
* **a half move**: an action deletes ``(at ?p ?from)`` and ``(at ?c ?from)`` but adds only
  ``(at ?p ?to)``;
* **an idle parameter**: the one action whose parameter no literal uses (Monroe has thirty
  such actions, by habit, so then none is shown);
* **a call passing one variable twice**;
* **a task no method decomposes** that a method calls;
* **left recursion**: a method's first step is its own task with its own arguments, so
  the search meets the same task in the same state and can only go round (Logistics has
  two, which another method of the task rescues).

Where a slip asks who should add a literal, the actions that could have lost the add
effect are named, with the literal in their own variables: those whose parameters fit its
arguments, best first (one that deletes it for other objects, one that adds nothing at all,
one that needs it false, then the rest).  :func:`Slips.like_adders` answers the same for a
literal some action still adds: an action much like one that adds it (the same
preconditions and effects but that one) that does not.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .conditions import conjuncts
from .model import (
    OBJECT,
    Action,
    Atom,
    Const,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    EffectForall,
    Method,
    Not,
    Pos,
    Problem,
    Task,
    Term,
    Typed,
    Var,
    When,
)
from .reachability import literal_text, positive_atoms

__all__ = ["Candidate", "Need", "Slips", "call_text", "effect_atoms"]

Types = tuple[str, ...]


@dataclass(frozen=True)
class Candidate:
    """An action that could add ``(pred *args)``: its own variables for the literal's."""

    action: Action
    pred: str
    args: tuple[str, ...]
    # 0-1 deletes it for other objects, 2-3 adds nothing, 4-5 needs it false, 6-7 fits (the
    # odd one of each pair turns nothing else about the same objects off)
    rank: int

    @property
    def literal(self) -> str:
        return literal_text(self.pred, self.args)


@dataclass(frozen=True)
class Need:
    """A literal (at declared types) that preconditions need and nothing can make true."""

    pred: str
    slots: tuple[Types, ...]
    users: tuple[str, ...]  # the actions and methods that need it, in the text's order
    deleters: tuple[str, ...]  # actions that delete it
    others: tuple[str, ...]  # actions that add it for other types
    pos: Pos | None
    wanted: bool = True  # the users need it true (else: only false, which it always is)

    @property
    def strong(self) -> bool:
        """Never true at these types, yet added for others or deleted by some action: a
        domain that works has none of these; a static fact a problem lacks is not one."""
        return bool(self.others or self.deleters)


class Slips:
    """The domain's slips for one problem (its objects' types and initial state)."""

    def __init__(self, domain: Domain, problem: Problem | None = None) -> None:
        self.domain = domain
        self.problem = problem
        self._ancestors: dict[str, Types] = {}
        objects = [*domain.constants, *(problem.objects if problem else ())]
        self.object_types = {o.name: o.types for o in objects}
        self.adds: list[tuple[Action, Atom]] = []
        self.deletes: list[tuple[Action, Atom]] = []
        for action in domain.actions:
            for atom, add in effect_atoms(action.effect):
                (self.adds if add else self.deletes).append((action, atom))

    # ------------------------------------------------------------ methods, calls, effects

    def left_recursions(self) -> list[Method]:
        """Methods whose first step is their own task, called with the task's arguments:
        the same task in the same state, so nothing can come of it but going round."""
        out = []
        for method in self.domain.methods:
            if len(method.subtasks) < 2:
                continue
            first = method.subtasks[0]
            if first.name == method.task.name and _same(first.args, method.task.args):
                out.append(method)
        return out

    def methodless(self) -> list[tuple[Task, Method | None]]:
        """Declared tasks that a method, or the problem's task network (None), calls and
        no method decomposes, with a caller."""
        decomposed = {m.task.name for m in self.domain.methods}
        network = self.problem.htn if self.problem is not None else None
        from_network = {s.name for s in network.subtasks} if network is not None else set()
        out: list[tuple[Task, Method | None]] = []
        for task in self.domain.tasks:
            if task.name in decomposed:
                continue
            caller = next(
                (m for m in self.domain.methods if any(s.name == task.name for s in m.subtasks)),
                None,
            )
            if caller is not None or task.name in from_network:
                out.append((task, caller))
        return out

    def deletes_what_is_false(self) -> list[tuple[Action, Atom]]:
        """Actions that need a literal false and delete it, with the same arguments: the
        delete can never do anything, and an action that uses something up needs it true
        (none of the 19 IPC domains has one; a precondition negated by a slip does)."""
        out = []
        for action in self.domain.actions:
            deleted = {_key(atom) for a, atom in self.deletes if a is action}
            for literal in conjuncts(action.precondition):
                body = literal.body if isinstance(literal, Not) else None
                if isinstance(body, Atom) and _key(body) in deleted:
                    out.append((action, body))
        return out

    def half_moves(self) -> list[tuple[Action, Atom, Atom, str]]:
        """Actions that move one thing and leave another behind: they delete
        ``(p ?x ?from)`` and add ``(p ?x ?to)``, and delete ``(p ?y ?from)`` without adding
        ``(p ?y ?to)`` -- the driver arrives, the vehicle does not.  Returned as (action,
        the move, the delete left alone, the literal it lacks); none of the 19 IPC
        domains has one."""
        out = []
        for action in self.domain.actions:
            adds = [atom for a, atom in self.adds if a is action]
            dels = [atom for a, atom in self.deletes if a is action]
            added = {_key(a) for a in adds}
            for gone in dels:
                for came in adds:
                    if came.predicate != gone.predicate or len(came.args) != len(gone.args):
                        continue
                    diff = [
                        (x, y) for x, y in zip(_key(gone)[1], _key(came)[1], strict=True) if x != y
                    ]
                    if len(diff) != 1:
                        continue
                    (old, new) = diff[0]
                    for other in dels:
                        args = _key(other)[1]
                        if other is gone or other.predicate != gone.predicate or old not in args:
                            continue
                        want = tuple(new if x == old else x for x in args)
                        if (other.predicate, want) not in added:
                            out.append((action, came, other, literal_text(other.predicate, want)))
        return out

    def twice(self) -> list[tuple[Method, int, str]]:
        """Calls that pass one variable in two places (method, 0-based step, variable):
        no IPC domain has one; a subtask called with the wrong variable often is one."""
        out = []
        for method in self.domain.methods:
            for i, call in enumerate(method.subtasks):
                names = [t.name for t in call.args if isinstance(t, Var)]
                twice = next((n for n in names if names.count(n) > 1), None)
                if twice is not None:
                    out.append((method, i, twice))
        return out

    # ------------------------------------------------------------------ idle parameters

    def idle_parameter(self) -> tuple[Action, Typed, str] | None:
        """The one action with a parameter no literal of it uses (only ``=`` at most),
        with a literal it deletes or needs rewritten to take it: the move from one place
        to another that lost ``(pointing ?s ?d_new)`` keeps ``?d_new`` for nothing.  Only
        when one action of the domain has one: some domains keep such parameters by
        habit (Monroe has thirty)."""
        idle = [(a, p) for a in self.domain.actions for p in _idle(a)]
        if len({a.name for a, _ in idle}) != 1:
            return None
        action, param = idle[0]
        atoms = [atom for a, atom in self.deletes if a is action]
        atoms += positive_atoms(action.precondition)
        for atom in atoms:
            for i, term in enumerate(atom.args):
                other = next(
                    (p for p in action.params if isinstance(term, Var) and p.name == term.name),
                    None,
                )
                if other is not None and other.types == param.types and other is not param:
                    args = [_name(t) for t in atom.args]
                    args[i] = param.name
                    return action, param, literal_text(atom.predicate, args)
        return None

    # ------------------------------------------------------------------ needs not met

    def needs(self) -> list[Need]:
        """Literals needed somewhere that no action adds at their types and no initial
        state holds (or, with no problem, held by none of its literals), then literals
        that actions delete and preconditions need false but nothing adds or holds."""
        held = self._held()
        out: dict[tuple[str, tuple[Types, ...]], list[str]] = {}
        where: dict[tuple[str, tuple[Types, ...]], Pos | None] = {}
        items: list[Action | Method] = [*self.domain.actions, *self.domain.methods]
        for item in items:
            for atom, slots in self._needed(item):
                if self._met(atom.predicate, slots, held):
                    continue
                key = (atom.predicate, slots)
                users = out.setdefault(key, [])
                where.setdefault(key, atom.pos or item.pos)
                if item.name not in users:
                    users.append(item.name)
        found = [
            Need(
                pred,
                slots,
                tuple(users),
                self.deleters(pred),
                self._other_adders(pred),
                where[(pred, slots)],
            )
            for (pred, slots), users in out.items()
        ]
        added = {atom.predicate for _, atom in self.adds}
        said = {n.pred for n in found}
        # Deleted, never added and never held: every delete of it does nothing, and
        # every precondition that needs it false is always met.
        if self.problem is not None:
            for pred in dict.fromkeys(atom.predicate for _, atom in self.deletes):
                if pred in added or pred in said or pred in held:
                    continue
                users = [
                    item.name
                    for item in items
                    if any(_negated(lit, pred) for lit in conjuncts(item.precondition))
                ]
                slots = self.declared(pred)
                deleters = self.deleters(pred)
                found.append(Need(pred, slots, tuple(users), deleters, (), None, False))
        return found

    def deleters(self, pred: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.name for a, atom in self.deletes if atom.predicate == pred))

    def _held(self) -> dict[str, list[tuple[Types, ...]]]:
        held: dict[str, list[tuple[Types, ...]]] = {}
        if self.problem is None:
            return held
        for atom in self.problem.init:
            held.setdefault(atom.predicate, []).append(
                tuple(self.object_types.get(_name(t), (OBJECT,)) for t in atom.args)
            )
        return held

    def _met(
        self, pred: str, slots: tuple[Types, ...], held: dict[str, list[tuple[Types, ...]]]
    ) -> bool:
        if self.problem is None and pred not in {a.predicate for _, a in self.adds}:
            return True  # static predicates: without a problem nothing can be said
        for action, atom in self.adds:
            if atom.predicate == pred and self._agree(slots, self._slots(atom, action.params)):
                return True
        return any(self._agree(slots, h) for h in held.get(pred, ()))

    def _other_adders(self, pred: str) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.name for a, atom in self.adds if atom.predicate == pred))

    def _needed(self, item: Action | Method) -> Iterable[tuple[Atom, tuple[Types, ...]]]:
        params = list(item.params)
        for atom in positive_atoms(item.precondition, params):
            yield atom, self._slots(atom, params)

    def _slots(self, atom: Atom, params: Sequence[Typed]) -> tuple[Types, ...]:
        types = {p.name: p.types for p in params}
        out = []
        for term in atom.args:
            if isinstance(term, Var):
                out.append(types.get(term.name, (OBJECT,)))
            else:
                out.append(self.object_types.get(_name(term), (OBJECT,)))
        return tuple(out)

    def declared(self, pred: str) -> tuple[Types, ...]:
        for p in self.domain.predicates:
            if p.name == pred:
                return tuple(t.types for t in p.params)
        return ()

    def _agree(self, a: Sequence[Types], b: Sequence[Types]) -> bool:
        """Some object could stand in both, slot by slot (one type is the other's kind)."""
        return len(a) == len(b) and all(self._overlap(x, y) for x, y in zip(a, b, strict=True))

    def _overlap(self, x: Types, y: Types) -> bool:
        return any(s in self._up(t) or t in self._up(s) for s in x for t in y)

    def _up(self, t: str) -> Types:
        if t not in self._ancestors:
            self._ancestors[t] = self.domain.ancestors(t)
        return self._ancestors[t]

    def _fits(self, value: Types, slot: Types) -> bool:
        return all(any(w in self._up(t) for w in slot) for t in value)

    # ------------------------------------------------------------------ who lost it

    def candidates(self, pred: str, slots: Sequence[Types], limit: int = 3) -> list[Candidate]:
        """Actions that could add ``pred`` at ``slots`` and do not, best first: each
        argument taken by a parameter of a fitting type, preferring a literal the action
        neither needs nor deletes as it stands."""
        found: list[Candidate] = []
        for action in self.domain.actions:
            if any(a is action and atom.predicate == pred for a, atom in self.adds):
                continue
            choice = self._choose(action, pred, slots)
            if choice is None:
                continue
            deletes = any(a is action and atom.predicate == pred for a, atom in self.deletes)
            wants_false = any(_negated(lit, pred) for lit in conjuncts(action.precondition))
            adds_nothing = not any(a is action for a, _ in self.adds)
            rank = 0 if deletes else 1 if adds_nothing else 2 if wants_false else 3
            # Within a rank, one that turns something else about the same objects off
            # ((not (unshaked ?s)) beside the lost (shaked ?s)) first.
            flips = any(a is action and _key(atom)[1] == choice for a, atom in self.deletes)
            found.append(Candidate(action, pred, choice, 2 * rank + (not flips)))
        found.sort(key=lambda c: c.rank)
        return found[:limit]

    def _choose(self, action: Action, pred: str, slots: Sequence[Types]) -> tuple[str, ...] | None:
        options = [[p.name for p in action.params if self._fits(p.types, slot)] for slot in slots]
        if any(not o for o in options):
            return None
        taken = {
            tuple(_name(t) for t in atom.args)
            for atom in positive_atoms(action.precondition)
            if atom.predicate == pred
        }
        taken |= {
            tuple(_name(t) for t in atom.args)
            for a, atom in self.deletes
            if a is action and atom.predicate == pred
        }
        best: tuple[str, ...] | None = None
        for combo in itertools.islice(itertools.product(*options), 256):
            if combo in taken:
                continue
            if len(set(combo)) == len(combo):
                return combo
            best = best or combo
        return best

    def like_adders(self, pred: str, slots: Sequence[Types]) -> list[tuple[Candidate, Action]]:
        """Actions much like one that adds ``pred`` (of the smaller of the two, at least
        three parts in five of what it needs, adds and deletes the other does too) that do
        not add it, the likest first: one of a pair of actions for two cases of the same
        move (pick up from the table, unstack from a block) may have lost it."""
        adders = list(dict.fromkeys(a for a, atom in self.adds if atom.predicate == pred))
        out: list[tuple[float, int, Candidate, Action]] = []
        for candidate in self.candidates(pred, slots, limit=len(self.domain.actions)):
            if len(set(candidate.args)) < len(candidate.args) or candidate.action.effect is None:
                continue
            mine = _signature(candidate.action)
            best = max(
                ((_likeness(mine, _signature(b) - {("add", pred)}), b) for b in adders),
                key=lambda x: x[0],
                default=(0.0, None),
            )
            if best[1] is not None and best[0] >= 0.6:
                out.append((-best[0], candidate.rank, candidate, best[1]))
        out.sort(key=lambda x: (x[0], x[1]))
        return [(c, b) for _, _, c, b in out]


def _idle(action: Action) -> list[Typed]:
    used: set[str] = set()
    for atom in positive_atoms(action.precondition):
        used |= {t.name for t in atom.args if isinstance(t, Var)}
    for lit in conjuncts(action.precondition):
        if isinstance(lit, Not) and isinstance(lit.body, Atom):
            used |= {t.name for t in lit.body.args if isinstance(t, Var)}
    for atom, _ in effect_atoms(action.effect):
        used |= {t.name for t in atom.args if isinstance(t, Var)}
    return [p for p in action.params if p.name not in used]


def _signature(action: Action) -> frozenset[tuple[str, str]]:
    sig = {("need", a.predicate) for a in positive_atoms(action.precondition)}
    sig |= {("add" if add else "delete", a.predicate) for a, add in effect_atoms(action.effect)}
    return frozenset(sig)


def _likeness(a: frozenset[tuple[str, str]], b: frozenset[tuple[str, str]]) -> float:
    """The overlap of the two, over the smaller: an action for a special case may need
    less than the general one."""
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


def call_text(name: str, args: Iterable[Term]) -> str:
    """``(name arg ...)`` as the domain writes it."""
    return "(" + " ".join((name, *(_name(t) for t in args))) + ")"


def _key(atom: Atom) -> tuple[str, tuple[str, ...]]:
    return atom.predicate, tuple(_name(t) for t in atom.args)


def _same(a: Sequence[Term], b: Sequence[Term]) -> bool:
    return len(a) == len(b) and all(_name(x) == _name(y) for x, y in zip(a, b, strict=True))


def _name(term: Term) -> str:
    return term.name if isinstance(term, Var | Const) else str(term)


def _negated(literal: object, pred: str) -> bool:
    return (
        isinstance(literal, Not)
        and isinstance(literal.body, Atom)
        and literal.body.predicate == pred
    )


def effect_atoms(effect: Effect | None) -> Iterable[tuple[Atom, bool]]:
    """Each atom an effect adds (True) or deletes (False), conditional ones included."""
    todo: list[Effect] = [effect] if effect is not None else []
    while todo:
        e = todo.pop(0)
        if isinstance(e, Atom):
            yield e, True
        elif isinstance(e, Delete):
            yield e.atom, False
        elif isinstance(e, EffectAnd):
            todo[:0] = list(e.parts)
        elif isinstance(e, EffectForall | When):
            todo.insert(0, e.effect)
