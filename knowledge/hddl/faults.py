"""One-place faults in an HDDL domain, made by a seeded generator.

Why: to measure whether the workbench leads an author to the fault in broken knowledge
(issue 28), we need broken domains whose fault we know.  Each :class:`Fault` is the domain
with exactly one edit of five kinds an author makes by mistake, on the parsed model (so the
result is always well formed and :func:`~knowledge.hddl.write_domain` writes it back):

``lose-add``
    an action loses one add effect (a top-level atom of its effect);
``negate``
    one precondition literal of an action or method is negated (an atom becomes
    ``(not atom)``, a negated atom becomes the atom);
``delete-method``
    a method is deleted;
``swap``
    two subtasks of a method change places;
``wrong-variable``
    one argument of a subtask call becomes another variable of the method whose type fits
    the called task's or action's parameter.

Every fault says what it changed in one line (``Transport: action pick_up loses (in ?p
?v)``) and names what an explanation should point at: the changed action or method, the
task that lost its method, the predicate of the changed literal.  The same domain and seed
give the same faults, in the same order.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .model import (
    Action,
    And,
    Atom,
    Domain,
    Effect,
    EffectAnd,
    Formula,
    Method,
    Not,
    Subtask,
    Var,
)
from .repair_static import fits, parameter_types
from .writer import effect_text, formula_text, subtask_text

__all__ = ["KINDS", "Fault", "all_faults", "seeded_faults"]

KINDS = ("lose-add", "negate", "delete-method", "swap", "wrong-variable")


@dataclass(frozen=True)
class Fault:
    """A domain with one edit, and what an explanation of its failure should name.

    ``place`` is the action or method that was changed (for ``delete-method``, the method
    that is gone); ``task`` the task whose method was deleted or whose subtask call was
    changed; ``predicate`` the predicate of the changed literal; ``subtasks`` the names of
    the subtasks that were swapped or miscalled.
    """

    kind: str
    domain: Domain
    description: str
    place: str
    task: str = ""
    predicate: str = ""
    subtasks: tuple[str, ...] = ()

    def line(self, label: str = "") -> str:
        """The one line that says what was broken, for a report and for debugging."""
        return f"{label}: {self.description}" if label else self.description


def seeded_faults(domain: Domain, seed: int, kinds: tuple[str, ...] = KINDS) -> list[Fault]:
    """Every fault of ``kinds``, shuffled by ``seed`` and then interleaved by kind, so that
    the first few cover every kind; the same domain and seed give the same list."""
    rng = random.Random(seed)
    by_kind: dict[str, list[Fault]] = {kind: [] for kind in kinds}
    for fault in all_faults(domain):
        if fault.kind in by_kind:
            by_kind[fault.kind].append(fault)
    for faults in by_kind.values():
        rng.shuffle(faults)
    order = list(kinds)
    rng.shuffle(order)
    out: list[Fault] = []
    while any(by_kind.values()):
        for kind in order:
            if by_kind[kind]:
                out.append(by_kind[kind].pop(0))
    return out


def all_faults(domain: Domain) -> Iterator[Fault]:
    """Every one-place fault of the five kinds, in the order of the domain's text."""
    yield from _lose_add(domain)
    yield from _negate(domain)
    yield from _delete_method(domain)
    yield from _swap(domain)
    yield from _wrong_variable(domain)


# -- the five kinds -------------------------------------------------------------------------


def _effect_parts(effect: Effect | None) -> tuple[Effect, ...]:
    if effect is None:
        return ()
    return effect.parts if isinstance(effect, EffectAnd) else (effect,)


def _lose_add(domain: Domain) -> Iterator[Fault]:
    for index, action in enumerate(domain.actions):
        parts = _effect_parts(action.effect)
        for position, part in enumerate(parts):
            if not isinstance(part, Atom):
                continue
            rest = parts[:position] + parts[position + 1 :]
            effect = EffectAnd(rest) if rest else None
            changed = replace(action, effect=effect)
            yield Fault(
                "lose-add",
                _with_action(domain, index, changed),
                f"action {action.name} loses {effect_text(part)}",
                place=action.name,
                predicate=part.predicate,
            )


def _literals(formula: Formula | None) -> tuple[Formula, ...]:
    if formula is None:
        return ()
    return formula.parts if isinstance(formula, And) else (formula,)


def _negated(literal: Formula) -> Formula | None:
    """The literal turned round, or None for what is not a literal over a predicate."""
    if isinstance(literal, Atom):
        return Not(literal)
    if isinstance(literal, Not) and isinstance(literal.body, Atom):
        return literal.body
    return None


def _variables(formula: Formula) -> set[str]:
    atom = formula.body if isinstance(formula, Not) else formula
    if not isinstance(atom, Atom):
        return set()
    return {term.name for term in atom.args if isinstance(term, Var)}


def _bound_elsewhere(method: Method, literals: tuple[Formula, ...], position: int) -> set[str]:
    """Variables a method binds without literal ``position``: its task's arguments and the
    other positive atoms.  A negated literal cannot bind a variable, so only a literal whose
    variables are all bound there may be negated (else the planner refuses the method)."""
    bound = {term.name for term in method.task.args if isinstance(term, Var)}
    for other, literal in enumerate(literals):
        if other != position and isinstance(literal, Atom):
            bound |= _variables(literal)
    return bound


def _negate(domain: Domain) -> Iterator[Fault]:
    for index, action in enumerate(domain.actions):
        literals = _literals(action.precondition)
        for position, literal in enumerate(literals):
            turned = _negated(literal)
            if turned is None:
                continue
            pre = _rebuilt(literals, position, turned)
            yield Fault(
                "negate",
                _with_action(domain, index, replace(action, precondition=pre)),
                f"action {action.name}: precondition {formula_text(literal)} "
                f"becomes {formula_text(turned)}",
                place=action.name,
                predicate=_predicate(literal),
            )
    for index, method in enumerate(domain.methods):
        literals = _literals(method.precondition)
        for position, literal in enumerate(literals):
            turned = _negated(literal)
            if turned is None or not _variables(literal) <= _bound_elsewhere(
                method, literals, position
            ):
                continue
            pre = _rebuilt(literals, position, turned)
            yield Fault(
                "negate",
                _with_method(domain, index, replace(method, precondition=pre)),
                f"method {method.name}: precondition {formula_text(literal)} "
                f"becomes {formula_text(turned)}",
                place=method.name,
                task=method.task.name,
                predicate=_predicate(literal),
            )


def _rebuilt(literals: tuple[Formula, ...], position: int, turned: Formula) -> Formula:
    parts = (*literals[:position], turned, *literals[position + 1 :])
    return parts[0] if len(parts) == 1 else And(parts)


def _predicate(literal: Formula) -> str:
    atom = literal.body if isinstance(literal, Not) else literal
    return atom.predicate if isinstance(atom, Atom) else ""


def _delete_method(domain: Domain) -> Iterator[Fault]:
    for index, method in enumerate(domain.methods):
        methods = domain.methods[:index] + domain.methods[index + 1 :]
        siblings = sum(1 for m in methods if m.task.name == method.task.name)
        yield Fault(
            "delete-method",
            replace(domain, methods=methods),
            f"method {method.name} of task {method.task.name} deleted "
            f"({siblings} other method{'' if siblings == 1 else 's'} left)",
            place=method.name,
            task=method.task.name,
        )


def _swap(domain: Domain) -> Iterator[Fault]:
    for index, method in enumerate(domain.methods):
        steps = method.subtasks
        for first in range(len(steps)):
            for second in range(first + 1, len(steps)):
                a, b = steps[first], steps[second]
                if (a.name, a.args) == (b.name, b.args):
                    continue  # swapping equal calls changes nothing
                swapped = list(steps)
                swapped[first], swapped[second] = b, a
                yield Fault(
                    "swap",
                    _with_method(domain, index, replace(method, subtasks=tuple(swapped))),
                    f"method {method.name}: subtasks {first + 1} {subtask_text(a)} and "
                    f"{second + 1} {subtask_text(b)} swapped",
                    place=method.name,
                    task=method.task.name,
                    subtasks=(a.name, b.name),
                )


def _wrong_variable(domain: Domain) -> Iterator[Fault]:
    for index, method in enumerate(domain.methods):
        for position, step in enumerate(method.subtasks):
            declared = parameter_types(domain, step.name)
            if declared is None or len(declared) != len(step.args):
                continue
            for slot, term in enumerate(step.args):
                if not isinstance(term, Var):
                    continue
                for other in method.params:
                    if other.name == term.name or not fits(domain, other, declared[slot]):
                        continue
                    args = (*step.args[:slot], Var(other.name), *step.args[slot + 1 :])
                    changed = Subtask(step.name, args, step.id)
                    subtasks = (
                        *method.subtasks[:position],
                        changed,
                        *method.subtasks[position + 1 :],
                    )
                    yield Fault(
                        "wrong-variable",
                        _with_method(domain, index, replace(method, subtasks=subtasks)),
                        f"method {method.name}: subtask {position + 1} "
                        f"{subtask_text(step)} calls {other.name} for {term.name}",
                        place=method.name,
                        task=method.task.name,
                        subtasks=(step.name,),
                    )


def _with_action(domain: Domain, index: int, action: Action) -> Domain:
    actions = (*domain.actions[:index], action, *domain.actions[index + 1 :])
    return replace(domain, actions=actions)


def _with_method(domain: Domain, index: int, method: Method) -> Domain:
    methods = (*domain.methods[:index], method, *domain.methods[index + 1 :])
    return replace(domain, methods=methods)
