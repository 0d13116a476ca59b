"""What a domain's text shows by itself of a slip in a method, whatever the run did: steps
out of order, a variable passed in the wrong place (issue 28's repairs).

A failed search reports the deepest place it reached, which for a method whose steps were
swapped may be far from that method (the search gave up on it at once, shallowly).  The
domain can say more on its own:

* **inverted steps**: step ``i`` of a method needs a literal (its action's precondition,
  or what the first steps of its task's methods need) that only a later step ``j`` adds,
  and nothing before ``i`` does.  A swap that leaves fewer such inversions is a candidate,
  the fewest left first (the swap that undoes a slip leaves none);
* **misplaced arguments**: a method variable that nothing uses (not its task, not its
  precondition, no step) while another variable is passed twice, or where it would fit:
  the slip of passing ``?s1`` for ``?s2`` leaves ``?s2`` unused, or passes ``?s1`` twice
  in one call.

Literals are compared lifted, in the method's own variables (``None`` where a step's
variable is not one of the method's); a step's needs and adds through a compound task
look two levels down.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .deferral import variables
from .model import (
    Action,
    Atom,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    Method,
    Term,
    Typed,
    Var,
)
from .reachability import positive_atoms

__all__ = ["fits", "inverted_swaps", "misplaced_arguments", "parameter_types"]

Lit = tuple[str, tuple[str | None, ...]]
# How deep a compound step's needs and adds are looked for.
DEPTH = 2


def _lit(atom: Atom, binding: dict[str, str | None]) -> Lit:
    args = tuple(binding.get(t.name) if isinstance(t, Var) else f"'{t.name}" for t in atom.args)
    return atom.predicate, args


def _adds(effect: Effect | None) -> list[Atom]:
    out: list[Atom] = []
    todo: list[Effect] = [effect] if effect is not None else []
    while todo:
        e = todo.pop(0)
        if isinstance(e, Atom):
            out.append(e)
        elif isinstance(e, EffectAnd):
            todo[:0] = list(e.parts)
        elif isinstance(e, Delete):
            continue
    return out


class _Steps:
    """Needs and adds of steps, lifted to the calling method's variables."""

    def __init__(self, domain: Domain) -> None:
        self.actions = {a.name: a for a in domain.actions}
        self.methods: dict[str, list[Method]] = {}
        for m in domain.methods:
            self.methods.setdefault(m.task.name, []).append(m)
        self.effects = lru_cache(maxsize=4096)(self._effects)

    def _effects(
        self, name: str, args: tuple[str | None, ...], depth: int
    ) -> tuple[frozenset[Lit], frozenset[Lit]]:
        action = self.actions.get(name)
        if action is not None:
            return _action(action, args)
        needs: set[Lit] = set()
        adds: set[Lit] = set()
        if depth <= 0:
            return frozenset(), frozenset()
        for m in self.methods.get(name, ()):
            binding: dict[str, str | None] = {
                t.name: a for t, a in zip(m.task.args, args, strict=False) if isinstance(t, Var)
            }
            needs |= {_lit(a, binding) for a in positive_atoms(m.precondition)}
            for k, sub in enumerate(m.subtasks):
                sub_args = _args(sub.args, binding)
                sub_needs, sub_adds = self.effects(sub.name, sub_args, depth - 1)
                if k == 0:
                    needs |= sub_needs
                adds |= sub_adds
        return frozenset(needs), frozenset(adds)


def _args(terms: Sequence[Term], binding: dict[str, str | None]) -> tuple[str | None, ...]:
    return tuple(binding.get(t.name) if isinstance(t, Var) else f"'{t.name}" for t in terms)


def _action(action: Action, args: tuple[str | None, ...]) -> tuple[frozenset[Lit], frozenset[Lit]]:
    binding: dict[str, str | None] = {p.name: a for p, a in zip(action.params, args, strict=False)}
    needs = frozenset(_lit(a, binding) for a in positive_atoms(action.precondition))
    adds = frozenset(_lit(a, binding) for a in _adds(action.effect))
    return needs, adds


def _meets(need: Lit, add: Lit) -> bool:
    """An add gives a need: the same predicate, no argument known to differ, and at least
    one known to agree (or none to know, for a predicate without arguments)."""
    if need[0] != add[0] or len(need[1]) != len(add[1]):
        return False
    agree = 0
    for a, b in zip(need[1], add[1], strict=True):
        if a is None or b is None:
            continue
        if a != b:
            return False
        agree += 1
    return agree > 0 or not need[1]


def _inversions(steps: list[tuple[frozenset[Lit], frozenset[Lit]]], given: set[Lit]) -> int:
    """Pairs (i, j), i before j, where step i needs what only step j (later) adds."""
    count = 0
    for i, (needs, _) in enumerate(steps):
        before = set(given)
        for _, adds in steps[:i]:
            before |= adds
        for need in needs:
            if any(_meets(need, b) for b in before):
                continue
            count += sum(1 for _, adds in steps[i + 1 :] if any(_meets(need, a) for a in adds))
    return count


def inverted_swaps(domain: Domain) -> list[tuple[Method, int, int]]:
    """Swaps of two steps that leave a method with fewer inversions, the fewest left first
    (then the method with the most, then the order of the text)."""
    steps = _Steps(domain)
    found: list[tuple[tuple[int, int, int], tuple[Method, int, int]]] = []
    for index, method in enumerate(domain.methods):
        if len(method.subtasks) < 2:
            continue
        binding: dict[str, str | None] = {p.name: p.name for p in method.params}
        given = {_lit(a, binding) for a in positive_atoms(method.precondition)}
        effects = [steps.effects(s.name, _args(s.args, binding), DEPTH) for s in method.subtasks]
        before = _inversions(effects, given)
        if before == 0:
            continue
        for i in range(len(effects)):
            for j in range(i + 1, len(effects)):
                swapped = list(effects)
                swapped[i], swapped[j] = swapped[j], swapped[i]
                after = _inversions(swapped, given)
                if after < before:
                    found.append(((after, -before, index), (method, i, j)))
    found.sort(key=lambda f: f[0])
    return [item for _, item in found]


def misplaced_arguments(domain: Domain) -> list[tuple[Method, int, int, str]]:
    """(method, step, argument slot, variable) to put there: a variable the method declares
    but never uses, where its type fits -- first in a call that passes one variable twice,
    then in place of the variables used most -- and then, in a call that passes one
    variable twice, any other variable of the method that fits either place."""
    out: list[tuple[tuple[int, int, int], tuple[Method, int, int, str]]] = []
    for index, method in enumerate(domain.methods):
        used = _used(method)
        unused = [p for p in method.params if p.name not in used]
        counts: dict[str, int] = {}
        for sub in method.subtasks:
            for t in sub.args:
                if isinstance(t, Var):
                    counts[t.name] = counts.get(t.name, 0) + 1
        for i, sub in enumerate(method.subtasks):
            declared = parameter_types(domain, sub.name)
            if declared is None or len(declared) != len(sub.args):
                continue
            names = [t.name for t in sub.args if isinstance(t, Var)]
            for slot, term in enumerate(sub.args):
                if not isinstance(term, Var):
                    continue
                twice = names.count(term.name) > 1
                for free in unused:
                    if fits(domain, free, declared[slot]):
                        rank = (0 if twice else 1, -counts.get(term.name, 0), index)
                        out.append((rank, (method, i, slot, free.name)))
                if not twice:
                    continue
                for other in method.params:
                    fitting = fits(domain, other, declared[slot])
                    if fitting and other.name not in names and other not in unused:
                        out.append(((2, 0, index), (method, i, slot, other.name)))
    out.sort(key=lambda f: f[0])
    return [item for _, item in out]


def fits(domain: Domain, value: Typed, wanted: Typed) -> bool:
    """A variable of ``value``'s type(s) may stand where ``wanted`` is declared."""
    return all(any(w in domain.ancestors(t) for w in wanted.types) for t in value.types)


def parameter_types(domain: Domain, name: str) -> tuple[Typed, ...] | None:
    """The declared parameters of the task or action ``name``."""
    for task in domain.tasks:
        if task.name == name:
            return task.params
    for action in domain.actions:
        if action.name == name:
            return action.params
    return None


def _used(method: Method) -> set[str]:
    names = {t.name for t in method.task.args if isinstance(t, Var)}
    for formula in (method.precondition, method.constraints):
        if formula is not None:
            names |= variables(formula)
    for sub in method.subtasks:
        names |= {t.name for t in sub.args if isinstance(t, Var)}
    return names
