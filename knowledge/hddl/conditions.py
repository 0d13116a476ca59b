"""HDDL formulas as conditions the TOFS search evaluates, and explains when they fail.

A state is a tuple with one frozenset per predicate (in the domain's order) holding the
argument tuples that are true, so that a literal is one set lookup and matching a literal
with free variables scans only its own predicate.  Formulas are turned into Python source
once, when a problem is compiled, and evaluated as plain functions: the search asks for them
at every node.

Two kinds of condition come out of here, both speaking the engine's
:class:`~engine.tofs.expressions.Condition` protocol:

* :class:`Test` -- every variable is bound (an action's precondition, a method whose
  variables all come from its task, a goal);
* :class:`Match` -- a method precondition with variables the task does not give: it yields
  every binding of them, in a fixed order, for which the precondition holds.

Both say which literal failed and the values of its variables: what a knowledge engineer
needs to see in "``(at ?t ?l)`` is false for ?t = truck-0, ?l = city-loc-3"; and, given the
:class:`Origin` of each conjunct, where it was written ("step 1 of m-unload, drop
(domain.hddl:40), needs `(in package-0 truck-0)`"): a method checks its actions'
preconditions before it is applied, and an author who opens the method would not find them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engine.tofs.expressions import SubexpressionValue
from engine.tofs.results import Blame

from .model import (
    OBJECT,
    And,
    Atom,
    Const,
    Equals,
    Exists,
    Forall,
    Formula,
    Imply,
    Not,
    Or,
    Term,
    Typed,
    Var,
)
from .writer import formula_text

__all__ = [
    "Match",
    "Obj",
    "Origin",
    "Test",
    "TypeIs",
    "World",
    "compile_test",
    "conjuncts",
    "free_variables",
    "ground_text",
    "text",
]


class Obj(str):
    """An object of a problem: a plain string that shows without quotes.

    Explanations show variable values with ``repr``; ``truck-0`` reads better than
    ``'truck-0'``, and JSON still sees a string.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return str.__str__(self)


@dataclass
class World:
    """What a problem's conditions are evaluated against, besides the state: the predicates'
    positions in the state, and the objects of each type in the order they were declared."""

    predicates: dict[str, int]
    objects: dict[str, Obj]  # name -> the one Obj for it, declaration order
    of_type: dict[str, tuple[Obj, ...]]  # type -> objects, declaration order
    type_sets: dict[str, frozenset[Obj]] = field(default_factory=dict)
    # Objects a binding leaves out, each interchangeable with one it keeps (:mod:`.symmetry`).
    spares: frozenset[Obj] = frozenset()
    _rank: dict[Obj, int] | None = field(default=None, repr=False, compare=False)

    def order(self, values: tuple[Obj, ...]) -> tuple[tuple[int, ...], tuple[Obj, ...]]:
        """The sort key of a literal's matches: its objects' places in the declarations.

        Bindings come in the order the problem's author declared the objects, as those of
        a variable that ranges over its type do, not in the order of their names: ``b10``
        is not tried before ``b2``, and a problem whose author listed the nearer or the
        likelier objects first is searched that way (HyperTensioN takes its facts in the
        order written, which is mostly the same).  The names settle what no declaration
        does (a value the problem never declared), so no order comes from a set's hashes."""
        rank = self._rank
        if rank is None:
            rank = self._rank = {o: i for i, o in enumerate(self.objects.values())}
        return tuple([rank.get(o, -1) for o in values]), values

    def object(self, name: str) -> Obj:
        """The problem's one Obj for a constant or object (the reader has checked that it
        is declared; an unknown name still compares equal to the string)."""
        return self.objects.get(name) or Obj(name)

    def objects_of(self, types: Sequence[str]) -> tuple[Obj, ...]:
        """Objects of any of ``types`` (``either``), declaration order, no repeats."""
        if len(types) == 1:
            return self.of_type.get(types[0], ())
        seen: dict[Obj, None] = {}
        for t in types:
            seen.update(dict.fromkeys(self.of_type.get(t, ())))
        return tuple(seen)

    def type_set(self, types: Sequence[str]) -> frozenset[Obj]:
        key = "|".join(types)
        found = self.type_sets.get(key)
        if found is None:
            found = self.type_sets[key] = frozenset(self.objects_of(types))
        return found


@dataclass(frozen=True, slots=True)
class TypeIs:
    """A parameter's type as a condition: ``?v - truck`` holds for trucks only.

    HDDL types a method's or action's parameters; where a value comes from somewhere typed
    more broadly (a task's ``?v - vehicle``), the narrower type is a condition to check.
    """

    var: Var
    types: tuple[str, ...]


Condition = Formula | TypeIs


def text(f: Condition) -> str:
    """HDDL text for a conjunct, with a type condition written as its declaration."""
    if isinstance(f, TypeIs):
        return (
            f"{f.var} - {' '.join(f.types)}"
            if len(f.types) == 1
            else (f"{f.var} - (either {' '.join(f.types)})")
        )
    return formula_text(f)


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a conjunct of a compiled condition was written, and how it got there.

    ``owner`` is the action or method whose text holds it, ``line`` its line in ``file``.
    A literal a method checks for one of its actions (``planning.pulled_up``) was written
    in that action: ``step`` is the action's 1-based position among the subtasks of
    ``method``, the method it was pulled up into.
    """

    owner: str
    file: str = ""
    line: int | None = None
    step: int | None = None
    method: str = ""

    def blame(self, literal: str, grounded: Condition | None = None) -> Blame:
        """The failure's account of ``literal`` (its values filled in): where it was written,
        in the words an author searches the file with.  ``grounded`` (the conjunct with its
        values in place) goes with it as a :class:`Culprit` for the analysis of why it
        cannot hold."""
        at = f" ({os.path.basename(self.file) or 'domain'}:{self.line})" if self.line else ""
        if self.step is not None:
            text = f"step {self.step} of {self.method}, {self.owner}{at}, needs `{literal}`"
        else:
            text = f"{self.owner}{at} needs `{literal}`"
        detail = Culprit(self, grounded) if grounded is not None else None
        return Blame(text, self.file, self.line, detail)


@dataclass(frozen=True, slots=True)
class Culprit:
    """The conjunct that failed, its values in place (a variable the match had not bound
    stays a variable), and where it was written: what :mod:`knowledge.hddl.diagnosis`
    reasons about."""

    origin: Origin
    literal: Condition


def conjuncts(formula: Condition | None) -> list[Condition]:
    """The parts of a top-level conjunction (nested ``and`` flattened)."""
    if formula is None:
        return []
    if isinstance(formula, And):
        return [c for p in formula.parts for c in conjuncts(p)]
    return [formula]


# -- code generation -----------------------------------------------------------------------


class _Projection:
    """The facts of one predicate projected on some of their arguments, kept for the last
    set of facts asked (a static predicate's set is the same in every state): an
    ``exists`` over the others is then one look-up.  ``checks``: per quantified argument,
    its position, the objects allowed there (None: any) and the position of the same
    variable's first place (None: the first)."""

    __slots__ = ("checks", "facts", "fixed", "keys")

    def __init__(
        self,
        fixed: tuple[int, ...],
        checks: tuple[tuple[int, frozenset[Obj] | None, int | None], ...],
    ) -> None:
        self.fixed, self.checks = fixed, checks
        self.facts: frozenset[tuple[Obj, ...]] | None = None
        self.keys: frozenset[tuple[Obj, ...]] = frozenset()

    def of(self, facts: frozenset[tuple[Obj, ...]]) -> frozenset[tuple[Obj, ...]]:
        if facts is not self.facts:
            fixed, checks = self.fixed, self.checks
            self.keys = frozenset(
                tuple([f[i] for i in fixed])
                for f in facts
                if all(
                    (allowed is None or f[i] in allowed) and (same is None or f[i] == f[same])
                    for i, allowed, same in checks
                )
            )
            self.facts = facts
        return self.keys


class _Code:
    """Python source for formulas over ``s`` (the state) and ``e`` (the variables)."""

    def __init__(self, world: World, keys: Mapping[str, str]) -> None:
        self.world = world
        self.keys = keys  # HDDL variable -> key in the environment
        self.consts: list[Any] = []
        self.locals: dict[str, str] = {}  # quantified variable -> Python local
        self.fresh = 0

    def const(self, value: Any) -> str:
        self.consts.append(value)
        return f"C[{len(self.consts) - 1}]"

    def term(self, t: Term) -> str:
        if isinstance(t, Const):
            return self.const(self.world.object(t.name))
        if t.name in self.locals:
            return self.locals[t.name]
        return f"e[{self.keys[t.name]!r}]"

    def formula(self, f: Condition) -> str:
        if isinstance(f, TypeIs):
            return f"({self.term(f.var)} in {self.const(self.world.type_set(f.types))})"
        if isinstance(f, Atom):
            index = self.world.predicates[f.predicate]
            args = "".join(f"{self.term(a)}, " for a in f.args)
            return f"(({args}) in s[{index}])"
        if isinstance(f, Equals):
            return f"({self.term(f.left)} == {self.term(f.right)})"
        if isinstance(f, Not):
            return f"(not {self.formula(f.body)})"
        if isinstance(f, And):
            return "(" + " and ".join(self.formula(p) for p in f.parts) + ")" if f.parts else "True"
        if isinstance(f, Or):
            return "(" + " or ".join(self.formula(p) for p in f.parts) + ")" if f.parts else "False"
        if isinstance(f, Imply):
            return f"((not {self.formula(f.condition)}) or {self.formula(f.consequence)})"
        assert isinstance(f, Exists | Forall)
        if isinstance(f, Exists) and isinstance(f.body, Atom):
            scan = self.scan(f.params, f.body)
            if scan is not None:
                return scan
        saved = dict(self.locals)
        loops = []
        for p in f.params:
            self.fresh += 1
            name = self.locals[p.name] = f"q{self.fresh}"
            loops.append(f"for {name} in {self.const(self.world.objects_of(p.types))}")
        body = self.formula(f.body)
        self.locals = saved
        word = "any" if isinstance(f, Exists) else "all"
        return f"{word}({body} {' '.join(loops)})"

    def scan(self, params: Sequence[Typed], atom: Atom) -> str | None:
        """``(exists (?x - t) (p a ?x))`` as a look-up of ``(a)`` among the facts of ``p``
        projected on their first argument (those with a ``t`` second), not one look-up per
        object of ``t``: the pulled-up needs of :mod:`.needs` ask it with ``object``, every
        object of the problem.  The same answer, since a fact's arguments are objects;
        None where a variable is not an argument of the atom (its objects are looped
        over then)."""
        names = {p.name: p for p in params}
        if not names.keys() <= {a.name for a in atom.args if isinstance(a, Var)}:
            return None
        fixed: list[int] = []
        terms: list[str] = []
        checks: list[tuple[int, frozenset[Obj] | None, int | None]] = []
        first: dict[str, int] = {}
        for i, a in enumerate(atom.args):
            if isinstance(a, Var) and a.name in names:
                types = names[a.name].types
                allowed = None if types == (OBJECT,) else self.world.type_set(types)
                checks.append((i, allowed, first.get(a.name)))
                first.setdefault(a.name, i)
            else:
                fixed.append(i)
                terms.append(self.term(a))
        projection = self.const(_Projection(tuple(fixed), tuple(checks)))
        index = self.world.predicates[atom.predicate]
        key = "".join(f"{t}, " for t in terms)
        return f"(({key}) in {projection}.of(s[{index}]))"

    def function(self, f: Condition) -> Callable[[Any, Mapping[str, Any]], bool]:
        source = f"lambda s, e: {self.formula(f)}"
        scope = {"C": tuple(self.consts), "__builtins__": {"any": any, "all": all}}
        fn: Callable[[Any, Mapping[str, Any]], bool] = eval(source, scope)
        return fn


def compile_test(
    formula: Condition, world: World, keys: Mapping[str, str]
) -> Callable[[Any, Mapping[str, Any]], bool]:
    """``formula`` as a function of (state, environment); ``keys`` says where each free
    variable's value is in the environment."""
    return _Code(world, keys).function(formula)


def free_variables(f: Condition) -> set[str]:
    """The variables of ``f`` that a quantifier inside it does not bind."""
    return _free(f)


def _free(f: Condition | Term, bound: frozenset[str] = frozenset()) -> set[str]:
    """The variables of ``f`` not bound by a quantifier inside it."""
    if isinstance(f, TypeIs):
        return _free(f.var, bound)
    if isinstance(f, Var):
        return set() if f.name in bound else {f.name}
    if isinstance(f, Const):
        return set()
    if isinstance(f, Atom):
        return set().union(*(_free(a, bound) for a in f.args)) if f.args else set()
    if isinstance(f, Equals):
        return _free(f.left, bound) | _free(f.right, bound)
    if isinstance(f, Not):
        return _free(f.body, bound)
    if isinstance(f, And | Or):
        return set().union(*(_free(p, bound) for p in f.parts)) if f.parts else set()
    if isinstance(f, Imply):
        return _free(f.condition, bound) | _free(f.consequence, bound)
    assert isinstance(f, Exists | Forall)
    return _free(f.body, bound | {p.name for p in f.params})


# -- explaining a false literal ------------------------------------------------------------


def _grounded(f: Formula, values: Mapping[str, Any]) -> Formula:
    """``f`` with each free variable that has a value replaced by it (as a constant)."""
    if isinstance(f, Atom):
        return replace(f, args=tuple(_grounded_term(a, values) for a in f.args))
    if isinstance(f, Equals):
        return replace(
            f, left=_grounded_term(f.left, values), right=_grounded_term(f.right, values)
        )
    if isinstance(f, Not):
        return replace(f, body=_grounded(f.body, values))
    if isinstance(f, And | Or):
        return replace(f, parts=tuple(_grounded(p, values) for p in f.parts))
    if isinstance(f, Imply):
        return replace(
            f,
            condition=_grounded(f.condition, values),
            consequence=_grounded(f.consequence, values),
        )
    assert isinstance(f, Exists | Forall)
    inner = {k: v for k, v in values.items() if k not in {p.name for p in f.params}}
    return replace(f, body=_grounded(f.body, inner))


def _grounded_term(t: Term, values: Mapping[str, Any]) -> Term:
    return Const(str(values[t.name])) if isinstance(t, Var) and t.name in values else t


def grounded(f: Condition, keys: Mapping[str, str], env: Mapping[str, Any]) -> Condition:
    """``f`` with the values its variables have in ``env`` written in place of them."""
    if isinstance(f, TypeIs):
        return f
    return _grounded(f, {n: env[k] for n, k in keys.items() if k in env})


def ground_text(f: Condition, keys: Mapping[str, str], env: Mapping[str, Any]) -> str:
    """``f`` as HDDL text with the values its variables have in ``env`` written in place
    of them (``(in package-0 truck-0)``): what the author looks for in the state.  A
    variable with no value yet stays as written."""
    values = {n: env[k] for n, k in keys.items() if k in env}
    if isinstance(f, TypeIs):
        return (
            text(f)
            if f.var.name not in values
            else text(f).replace(f.var.name, str(values[f.var.name]), 1)
        )
    return text(_grounded(f, values))


@dataclass
class _Part:
    """One conjunct of a condition, compiled on its own to say which one failed."""

    formula: Condition
    text: str
    variables: tuple[str, ...]  # its free variables, in order of appearance
    fn: Callable[[Any, Mapping[str, Any]], bool]
    origin: Origin | None = None


def _variables(formula: Condition) -> tuple[str, ...]:
    free = _free(formula)
    out: list[str] = []
    for word in text(formula).replace("(", " ").replace(")", " ").split():
        if word in free and word not in out:
            out.append(word)
    return tuple(out)


def _values(
    names: Sequence[str], keys: Mapping[str, str], env: Mapping[str, Any]
) -> list[SubexpressionValue]:
    return [SubexpressionValue(n, env[keys[n]]) for n in names if keys.get(n, "") in env]


def _origins(
    formula: Condition | None, origins: Sequence[Origin | None]
) -> list[tuple[Condition, Origin | None]]:
    """Each conjunct of ``formula`` with its origin (``origins`` in the same order; none
    when it is empty)."""
    parts = conjuncts(formula)
    if not origins:
        return [(c, None) for c in parts]
    assert len(origins) == len(parts), (len(origins), len(parts))
    return list(zip(parts, origins, strict=True))


class Test:
    """A condition whose variables are all bound when it is asked.

    ``origins``: where each conjunct (:func:`conjuncts`, in order) was written, for the
    failure's blame; empty when the condition has no other place to point at.
    """

    def __init__(
        self,
        formula: Condition,
        world: World,
        keys: Mapping[str, str],
        source: str = "",
        origins: Sequence[Origin | None] = (),
    ) -> None:
        self.formula = formula
        self.source = source or text(formula)
        self.keys = dict(keys)
        self.world = world
        self.origins = tuple(origins)
        self.evaluate = compile_test(formula, world, self.keys)
        self._parts: list[_Part] | None = None

    def parts(self) -> list[_Part]:
        if self._parts is None:
            self._parts = [
                _Part(c, text(c), _variables(c), compile_test(c, self.world, self.keys), o)
                for c, o in _origins(self.formula, self.origins)
            ]
        return self._parts

    def failing_part(self, state: Any, env: Mapping[str, Any]) -> int | None:
        """Which conjunct is false (its index), for the engine's count of dead ends by the
        literal that closed them; None when it is a parameter's type: a binding that
        does not fit the method is how bindings are tried, not a fault to look for."""
        for i, part in enumerate(self.parts()):
            if not part.fn(state, env):
                return None if isinstance(part.formula, TypeIs) else i
        return None

    def explain_false(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue]]:
        """The first conjunct that is false, and the values of its variables."""
        failing, values, _ = self.explain_blame(state, env)
        return failing, values

    def explain_blame(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue], Blame | None]:
        """As :meth:`explain_false`, with where the false conjunct was written."""
        for part in self.parts():
            if not part.fn(state, env):
                blame = None
                if part.origin is not None:
                    blame = part.origin.blame(
                        ground_text(part.formula, self.keys, env),
                        grounded(part.formula, self.keys, env),
                    )
                return part.text, _values(part.variables, self.keys, env), blame
        return self.source, [], None


# -- matching ------------------------------------------------------------------------------


def _line(p: Typed, owner: Origin) -> int | None:
    """The line where parameter ``p`` is declared, else its owner's."""
    return p.pos.line if p.pos is not None else owner.line


# Steps an explanation of a failed match may take: enough for any match a person reads, and
# a bound on the time it takes when the bindings run into the millions (the furthest
# point found so far is reported).
EXPLAIN_BUDGET = 20_000
# The same walk, to count a dead end under the literal that closed it (every dead end
# asks, so it must be cheap; past this, the count goes to the condition as a whole).
FAILING_PART_BUDGET = 16

# Sets of facts a literal keeps indexed at once; past that the index starts again (states
# that are gone hold their sets only through it).
_INDEX_SETS = 512


@dataclass
class _Step:
    """One step of a match: bind variables from a literal, enumerate a variable's type, or
    test a conjunct whose variables are all bound by now."""

    kind: str  # "literal", "type" or "test"
    text: str
    variables: tuple[str, ...]  # the part's variables, for explanations
    new: tuple[str, ...] = ()  # variables this step binds
    index: int = 0  # literal: the predicate's position in the state
    fixed: tuple[tuple[int, str], ...] = ()  # literal: (position, key of a bound value)
    constants: tuple[tuple[int, Obj], ...] = ()  # literal: (position, object)
    slots: tuple[tuple[int, ...], ...] = ()  # literal: positions of each new variable
    types: tuple[frozenset[Obj] | None, ...] = ()  # literal: type check per new variable
    domain: tuple[Obj, ...] = ()  # type: the objects to try
    order: Callable[[tuple[Obj, ...]], Any] | None = None  # literal: the matches' sort key
    test: Callable[[Any, Mapping[str, Any]], bool] | None = None
    formula: Condition | None = None  # the conjunct it stems from (None: a type step)
    origin: Origin | None = None  # where that was written, for the failure's blame
    # A literal's matches are remembered per set of facts of its predicate (the search
    # asks an unchanged set again at every sibling and every later state that kept it):
    # id of the set -> [the set, ordered matches by bound values, the whole set grouped
    # by bound values once it was asked with two different values].
    _index: dict[int, list[Any]] = field(default_factory=dict, repr=False, compare=False)

    def candidates(self, state: Any, env: Mapping[str, Any]) -> list[tuple[Obj, ...]]:
        """The values of ``new`` this step allows, in a fixed order (``order``)."""
        if self.kind == "type":
            return [(o,) for o in self.domain]
        facts = state[self.index]
        memo = self._index.get(id(facts))
        if memo is None or memo[0] is not facts:
            if len(self._index) >= _INDEX_SETS:
                self._index.clear()
            memo = self._index[id(facts)] = [facts, {}, None]
        key = tuple([env[k] for _, k in self.fixed])
        found: list[tuple[Obj, ...]] | None = memo[1].get(key)
        if found is None:
            if memo[2] is None and not memo[1]:  # asked once: scan for this key only
                found = sorted(self._matches(facts, key), key=self.order)
            else:  # asked again with other values: group the whole set once
                if memo[2] is None:
                    memo[2] = self._group(facts)
                found = sorted(memo[2].get(key, ()), key=self.order)
            memo[1][key] = found
        return found

    def _matches(
        self, facts: frozenset[tuple[Obj, ...]], key: tuple[Obj, ...]
    ) -> set[tuple[Obj, ...]]:
        fixed = [(i, v) for (i, _), v in zip(self.fixed, key, strict=True)]
        fixed += self.constants
        out = set()
        for fact in facts:
            if any(fact[i] != v for i, v in fixed):
                continue
            values = self._values(fact)
            if values is not None:
                out.add(values)
        return out

    def _group(self, facts: frozenset[tuple[Obj, ...]]) -> dict[tuple[Obj, ...], set[Any]]:
        groups: dict[tuple[Obj, ...], set[tuple[Obj, ...]]] = {}
        fixed = [i for i, _ in self.fixed]
        for fact in facts:
            if any(fact[i] != v for i, v in self.constants):
                continue
            values = self._values(fact)
            if values is not None:
                groups.setdefault(tuple([fact[i] for i in fixed]), set()).add(values)
        return groups

    def _values(self, fact: tuple[Obj, ...]) -> tuple[Obj, ...] | None:
        """The new variables' values from ``fact``, or None where it does not fit them."""
        values = []
        for positions, allowed in zip(self.slots, self.types, strict=True):
            v = fact[positions[0]]
            if any(fact[i] != v for i in positions[1:]) or (
                allowed is not None and v not in allowed
            ):
                return None
            values.append(v)
        return tuple(values)


def _allowed(world: World, types: tuple[str, ...]) -> frozenset[Obj] | None:
    """The values a literal may bind a variable of ``types`` to; None: any."""
    if world.spares:
        return world.type_set(types) - world.spares
    return None if types == (OBJECT,) else world.type_set(types)


class Match:
    """A method precondition that binds the method's free variables by matching the state.

    Conjuncts are taken in the order written (as SHOP does): a positive literal with
    unbound variables binds them from the facts of its predicate; any other conjunct is
    tested as soon as its variables are bound; a variable no literal binds ranges over the
    objects of its type.  Bindings come out in the objects' declaration order, so runs are
    deterministic.
    """

    def __init__(
        self,
        formula: Condition | None,
        free: Sequence[Typed],
        world: World,
        keys: Mapping[str, str],
        source: str = "",
        origins: Sequence[Origin | None] = (),
        owner: Origin | None = None,
        choices: Mapping[str, tuple[Obj, ...]] | None = None,
    ) -> None:
        """``origins``: where each conjunct (:func:`conjuncts`, in order) was written;
        ``owner``: the method, for a variable no literal binds (its type is matched);
        ``choices``: for such a variable, the objects worth trying, where fewer than its
        type's are (:mod:`.typing_only`)."""
        self.source = source or (text(formula) if formula is not None else "()")
        self.keys = dict(keys)
        self.names = tuple(self.keys[p.name] for p in free)
        types = {p.name: p.types for p in free}
        bound = {v for v in self.keys if v not in types}
        steps: list[_Step] = []
        waiting: list[tuple[Condition, Origin | None]] = []

        def release() -> None:
            for w in list(waiting):
                if _free(w[0]) <= bound:
                    waiting.remove(w)
                    steps.append(self._test(w[0], world, w[1]))

        for part, origin in _origins(formula, origins):
            unbound = _free(part) - bound
            if isinstance(part, Atom) and unbound:
                steps.append(self._literal(part, unbound, types, world, origin))
                bound |= unbound
                release()
            elif unbound:
                waiting.append((part, origin))
                continue
            else:
                steps.append(self._test(part, world, origin))
        for p in free:
            if p.name not in bound:
                steps.append(
                    _Step(
                        "type",
                        f"{p.name} - {' '.join(p.types)}",
                        (p.name,),
                        new=(p.name,),
                        domain=choices[p.name]
                        if choices and p.name in choices
                        else tuple(o for o in world.objects_of(p.types) if o not in world.spares),
                        formula=TypeIs(Var(p.name), p.types),
                        origin=None if owner is None else replace(owner, line=_line(p, owner)),
                    )
                )
                bound.add(p.name)
                release()
        assert not waiting, waiting
        self.steps = steps
        # Where each step's new values go in the environment: made once, not per match.
        self.step_keys = [tuple(self.keys[v] for v in step.new) for step in steps]

    def _test(self, part: Condition, world: World, origin: Origin | None) -> _Step:
        return _Step(
            "test",
            text(part),
            _variables(part),
            test=compile_test(part, world, self.keys),
            formula=part,
            origin=origin,
        )

    def _literal(
        self,
        atom: Atom,
        unbound: set[str],
        types: Mapping[str, tuple[str, ...]],
        world: World,
        origin: Origin | None,
    ) -> _Step:
        new: list[str] = []
        slots: dict[str, list[int]] = {}
        fixed, constants = [], []
        for i, a in enumerate(atom.args):
            if isinstance(a, Const):
                constants.append((i, world.object(a.name)))
            elif a.name in unbound:
                if a.name not in slots:
                    new.append(a.name)
                    slots[a.name] = []
                slots[a.name].append(i)
            else:
                fixed.append((i, self.keys[a.name]))
        return _Step(
            "literal",
            formula_text(atom),
            _variables(atom),
            new=tuple(new),
            index=world.predicates[atom.predicate],
            fixed=tuple(fixed),
            constants=tuple(constants),
            slots=tuple(tuple(slots[n]) for n in new),
            types=tuple(_allowed(world, types[n]) for n in new),
            order=world.order,
            formula=atom,
            origin=origin,
        )

    # The engine binds a tuple of names from each value this yields.
    def evaluate(self, state: Any, env: Mapping[str, Any]) -> Iterator[tuple[Obj, ...]]:
        """Every binding of the free variables, lazily: a method with eight parameters over
        thirty objects has 30**8 candidates, and the search wants the first that works, so
        none is made before it is asked for and none is kept after."""
        return self._walk(state, dict(env))

    def _walk(self, state: Any, e: dict[str, Any]) -> Iterator[tuple[Obj, ...]]:
        """Depth first over the steps without recursion (an initial task network can have
        hundreds of variables, one step each), looking at the search's budgets every
        thousand candidates (``checkpoint``): a match can run for hours and yield nothing.
        """
        from engine.tofs.search import checkpoint

        steps = self.steps
        n = len(steps)
        names = self.names
        if n == 0:
            yield tuple(e[k] for k in names)
            return
        keys = self.step_keys
        pending: list[Iterator[tuple[Obj, ...]]] = [iter(()) for _ in steps]
        i, entering, tick = 0, True, 0
        while i >= 0:
            step = steps[i]
            if entering:
                if step.kind == "test":
                    assert step.test is not None
                    if not step.test(state, e):
                        i, entering = i - 1, False
                    elif i + 1 == n:
                        yield tuple(e[k] for k in names)
                        i, entering = i - 1, False
                    else:
                        i += 1
                    continue
                pending[i] = iter(step.candidates(state, e))
            elif step.kind == "test":  # nothing more to try at a test: back up
                i -= 1
                continue
            tick += 1
            if tick >= 1024:
                tick = 0
                checkpoint()
            values = next(pending[i], None)
            if values is None:
                i, entering = i - 1, False
                continue
            for k, v in zip(keys[i], values, strict=True):
                e[k] = v
            if i + 1 == n:
                yield tuple(e[k] for k in names)
                entering = False  # the next candidate at this same step
            else:
                i, entering = i + 1, True

    def failing_part(self, state: Any, env: Mapping[str, Any]) -> int | None:
        """The step where the match that got furthest failed, found within a small budget
        (the count of dead ends per literal must stay cheap); None when it is a
        parameter's type, which is how bindings are tried rather than a fault."""
        found = self._furthest(state, env, FAILING_PART_BUDGET)
        if found is None:
            return 0
        step = self.steps[found[0]]
        if step.kind == "type" or isinstance(step.formula, TypeIs):
            return None
        return found[0]

    def _furthest(
        self, state: Any, env: Mapping[str, Any], budget: int
    ) -> tuple[int, dict[str, Any]] | None:
        """(index of the step, bindings there) where the match that got furthest failed
        within ``budget`` steps; None when the match succeeds or nothing was tried."""
        best: list[Any] = [-1, None]
        left = [budget]

        def walk(i: int, e: dict[str, Any]) -> bool:
            if i == len(self.steps):
                return True
            left[0] -= 1
            if left[0] < 0:
                return False
            step = self.steps[i]
            if step.kind == "test":
                assert step.test is not None
                if step.test(state, e):
                    return walk(i + 1, e)
                ok = False
            else:
                keys = [self.keys[n] for n in step.new]
                ok = False
                for values in step.candidates(state, e):
                    inner = dict(e)
                    inner.update(zip(keys, values, strict=True))
                    if walk(i + 1, inner):
                        return True
            if i > best[0]:
                best[0], best[1] = i, dict(e)
            return ok

        if walk(0, dict(env)) or best[1] is None:
            return None
        return best[0], best[1]

    def explain_false(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue]]:
        return self.explain_empty(state, env)

    def explain_empty(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue]]:
        """The conjunct where the match that got furthest failed, with the values its
        variables had there ("for ?t = truck-0 and any ?l" when it was binding ?l)."""
        failing, values, _ = self.explain_blame(state, env)
        return failing, values

    def explain_blame(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue], Blame | None]:
        """As :meth:`explain_empty`, with where the conjunct that failed was written, its
        values filled in as far as the match had bound them."""
        found = self._furthest(state, env, EXPLAIN_BUDGET)
        if found is None:
            return self.source, [], None
        best = found
        step = self.steps[best[0]]
        blame = None
        if step.origin is not None and step.formula is not None:
            blame = step.origin.blame(
                ground_text(step.formula, self.keys, best[1]),
                grounded(step.formula, self.keys, best[1]),
            )
        return step.text, _values(step.variables, self.keys, best[1]), blame
