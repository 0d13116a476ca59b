"""What can ever happen in an HDDL problem, ignoring deletes: the cheap, complete half of
finding a fault.

A search that fails says where it stopped; it cannot say that a literal is *never* true or
that a task can *never* be done, and a search cut short by recursion pruning cannot say "no
plan exists" at all.  The delete relaxation can, soundly: a fact true in some state of
some plan is true in the relaxation's fixed point, an action that runs in some plan applies
there, a task a plan decomposes is accomplished there.  So whatever the fixed point lacks is
impossible in every plan -- a proof, not a guess -- and the reason reads in the author's
words ("false in the initial state and added by no action of the domain").

The analysis is a small Datalog program evaluated semi-naively, once per problem:

* facts are the problem's initial state (and ``(= c c)`` for no one: equality is ignored);
* an action is a rule whose body is its precondition's positive literals (in conjunctive
  positions; disjunctions, implications, universals and negations are dropped, which only
  over-approximates) and whose heads are its add effects and the primitive task itself;
* a method is a rule whose body is its precondition's positive literals and its subtasks
  (each must be accomplished) and whose head is its task -- the PANDA/Lilotane grounding
  analysis in a simple form, but bottom-up, so a method applies in the relaxation only if
  every subtask can be done;
* variables range over the problem's objects and the domain's constants of their types.

:func:`analyse` computes it; :func:`domain_findings` is the problem-free version (predicate
level, over the domain and any stored initial states) that ``kb lint`` reports.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from .model import (
    OBJECT,
    Action,
    And,
    Atom,
    Const,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    EffectForall,
    Exists,
    Formula,
    Method,
    Pos,
    Problem,
    Term,
    Typed,
    Var,
    When,
)

__all__ = [
    "DomainFinding",
    "Reachability",
    "Unfinished",
    "analyse",
    "domain_findings",
    "literal_text",
    "positive_atoms",
]

# Task facts live beside state facts in one relation table; a prefix no predicate can have
# keeps them apart ("!" cannot start an HDDL name).
_TASK = "!"

Ground = tuple[str, ...]


def literal_text(predicate: str, args: Sequence[str]) -> str:
    """``(in package_0 truck_0)``: a literal as HDDL writes it."""
    return "(" + " ".join((predicate, *args)) + ")"


def positive_atoms(formula: Formula | None, params: list[Typed] | None = None) -> list[Atom]:
    """The literals a formula needs true in every case: those in conjunctive positions,
    through ``exists`` (whose variables ``params`` collects).  Sound for the relaxation:
    whatever satisfies the formula satisfies each of these."""
    out: list[Atom] = []
    todo: list[Formula] = [formula] if formula is not None else []
    while todo:
        f = todo.pop(0)
        if isinstance(f, Atom):
            out.append(f)
        elif isinstance(f, And):
            todo[:0] = list(f.parts)
        elif isinstance(f, Exists):
            if params is not None:
                params.extend(f.params)
            todo.insert(0, f.body)
    return out


def _adds(effect: Effect | None, params: list[Typed], body: list[Atom]) -> list[Atom]:
    """The atoms an effect adds (conditional ones too, their conditions' literals joining
    ``body``: over-approximate, each ``when`` is assumed to fire)."""
    out: list[Atom] = []
    todo: list[Effect] = [effect] if effect is not None else []
    while todo:
        e = todo.pop(0)
        if isinstance(e, Atom):
            out.append(e)
        elif isinstance(e, EffectAnd):
            todo[:0] = list(e.parts)
        elif isinstance(e, EffectForall):
            params.extend(e.params)
            todo.insert(0, e.effect)
        elif isinstance(e, When):
            out.extend(_adds(e.effect, params, body))
        elif isinstance(e, Delete):
            continue
    return out


class Unfinished(Exception):
    """The analysis ran past its deadline (a problem whose grounding is too large to be a
    cheap check): it proves nothing then."""


@dataclass
class _Rule:
    """heads :- body, over variables typed by ``types`` (a variable in no body literal ranges
    over every object of its type)."""

    owner: str
    heads: list[tuple[str, tuple[Term, ...]]]
    body: list[tuple[str, tuple[Term, ...]]]
    types: dict[str, tuple[str, ...]]


@dataclass(frozen=True)
class DomainFinding:
    """A static fault of a domain, for ``kb lint``: what it is, where, in words."""

    kind: str  # "predicate", "task" or "method"
    name: str
    pos: Pos | None
    message: str

    @property
    def line(self) -> int | None:
        return self.pos.line if self.pos is not None else None


@dataclass
class Reachability:
    """The relaxed fixed point of one problem.  ``facts`` maps each predicate to the ground
    literals that can ever hold; ``actions`` and ``tasks`` the ground actions that can ever
    apply and the compound tasks that can ever be accomplished; ``methods`` the methods
    that can ever apply (by name)."""

    domain: Domain
    problem: Problem
    facts: dict[str, set[Ground]] = field(default_factory=dict)
    actions: dict[str, set[Ground]] = field(default_factory=dict)
    tasks: dict[str, set[Ground]] = field(default_factory=dict)
    methods: set[str] = field(default_factory=set)
    objects: dict[str, set[str]] = field(default_factory=dict)

    # ------------------------------------------------------------------ questions

    def can_hold(self, predicate: str, args: Sequence[str] | None = None) -> bool:
        """Whether the predicate (that literal, with ``args``) is ever true."""
        held = self.facts.get(predicate.lower(), set())
        return bool(held) if args is None else tuple(a.lower() for a in args) in held

    def can_apply(self, action: str, args: Sequence[str] | None = None) -> bool:
        applied = self.actions.get(action.lower(), set())
        return bool(applied) if args is None else tuple(a.lower() for a in args) in applied

    def method_applies(self, method: str) -> bool:
        return method.lower() in self.methods

    def can_accomplish(self, task: str, args: Sequence[str] | None = None) -> bool:
        """A compound task (or an action, as a primitive task) can ever be done."""
        name = task.lower()
        table = self.actions if name in self._actions else self.tasks
        done = table.get(name, set())
        return bool(done) if args is None else tuple(a.lower() for a in args) in done

    @property
    def _actions(self) -> dict[str, Action]:
        return {a.name: a for a in self.domain.actions}

    # ------------------------------------------------------------------ why not

    def why_never(self, predicate: str, args: Sequence[str] = (), depth: int = 2) -> str:
        """Why a literal can never hold, following its adders' preconditions ``depth``
        steps: "false in the initial state and added by no action of the domain", or
        "added only by pick_up, whose precondition (at ?v ?l) can never hold"."""
        pred = predicate.lower()
        lit = literal_text(pred, args) if args else f"`{pred}`"
        if self.can_hold(pred, args if args else None):
            return f"{lit} can hold"
        adders = [
            (a, atom)
            for a in self.domain.actions
            for atom in _adds(a.effect, list(a.params), [])
            if atom.predicate == pred
        ]
        if not adders:
            return f"{lit} is false in the initial state and added by no action of the domain"
        reasons: list[str] = []
        for action, atom in adders:
            binding = _unify(atom.args, args) if args else {}
            if binding is None or not self._typed(action, binding):
                continue
            reasons.append(f"{action.name}, {self._blocked(action, binding, depth - 1)}")
        if not reasons:
            names = ", ".join(sorted({a.name for a, _ in adders}))
            return (
                f"{lit} is false in the initial state and no action adds it with these "
                f"arguments (only {names} add `{pred}`)"
            )
        return f"{lit} is false in the initial state and added only by " + "; or by ".join(reasons)

    def _typed(self, action: Action, binding: dict[str, str]) -> bool:
        """Every bound value is of its parameter's type (a van is no package)."""
        types = {p.name: p.types for p in action.params}
        return all(
            any(value in self.objects.get(t, ()) for t in types.get(var, ("object",)))
            or var not in types
            for var, value in binding.items()
        )

    def _blocked(self, action: Action, binding: dict[str, str], depth: int) -> str:
        """Why ``action`` (partly bound) never applies, in words."""
        if not binding and not self.can_apply(action.name):
            prefix = "which never applies"
        else:
            prefix = "which never applies with these arguments"
        for atom in positive_atoms(action.precondition):
            args = [
                binding.get(t.name, t.name) if isinstance(t, Var) else t.name for t in atom.args
            ]
            bound = all(not a.startswith("?") for a in args)
            if bound and not self.can_hold(atom.predicate, args):
                text = literal_text(atom.predicate, args)
                more = ""
                if depth > 0:
                    more = f" ({self.why_never(atom.predicate, args, depth)})"
                return f"whose precondition {text} can never hold{more}"
            if not self._matches(atom.predicate, args):
                text = literal_text(atom.predicate, args)
                more = ""
                if depth > 0 and not self.can_hold(atom.predicate):
                    more = f" ({self.why_never(atom.predicate, (), depth)})"
                return f"whose precondition {text} can never hold{more}"
        return prefix + " (its preconditions never hold together)"

    def _matches(self, predicate: str, args: Sequence[str]) -> bool:
        for fact in self.facts.get(predicate, ()):
            if all(a.startswith("?") or a == f for a, f in zip(args, fact, strict=False)):
                return True
        return False

    def unsolvable(self) -> str | None:
        """Why the problem has no plan, proven by the relaxation (None: it may have one):
        a task of the initial network that can never be accomplished, or a goal literal
        that can never hold."""
        htn = self.problem.htn
        for i, sub in enumerate(htn.subtasks if htn is not None else ()):
            args = [a.name if isinstance(a, Const) else None for a in sub.args]
            if not self._task_possible(sub.name, args):
                call = "(" + " ".join([sub.name, *(str(a) for a in sub.args)]) + ")"
                return f"task {i + 1} of the initial task network, {call}, " + self.why_task(
                    sub.name, args
                )
        for atom in positive_atoms(self.problem.goal):
            ground = [t.name for t in atom.args]
            if all(isinstance(t, Const) for t in atom.args) and not self.can_hold(
                atom.predicate, ground
            ):
                return "the goal " + self.why_never(atom.predicate, ground)
        return None

    def _task_possible(self, name: str, args: Sequence[str | None]) -> bool:
        table = self.actions if name in self._actions else self.tasks
        return any(
            all(a is None or a == f for a, f in zip(args, fact, strict=False))
            for fact in table.get(name, ())
        )

    def why_task(
        self,
        name: str,
        args: Sequence[str | None] = (),
        depth: int = 4,
        seen: frozenset[str] = frozenset(),
    ) -> str:
        """Why a task can never be accomplished, in words: each method's first blocker,
        followed down a blocked step ``depth`` levels to the action or literal at fault."""
        if name in self._actions:
            action = self._actions[name]
            binding = {
                p.name: a for p, a in zip(action.params, args, strict=False) if a is not None
            }
            blocked = self._blocked(action, binding, 1).removeprefix("which never applies ")
            return f"can never be done: action {name} never applies, {blocked}"
        methods = [m for m in self.domain.methods if m.task.name == name]
        if not methods:
            return "can never be done: no method decomposes it"
        why = [f"{m.name} {self.why_method(m, depth, seen | {name})}" for m in methods]
        return "can never be done: " + "; ".join(why)

    def why_method(self, method: Method, depth: int = 4, seen: frozenset[str] = frozenset()) -> str:
        """Why a method never applies, following a blocked step down to its cause."""
        for atom in positive_atoms(method.precondition):
            if not self.can_hold(atom.predicate):
                return f"needs {_atom_text(atom)}, and " + self.why_never(atom.predicate)
        for i, sub in enumerate(method.subtasks):
            if not self._task_possible(sub.name, [None] * len(sub.args)):
                text = f"needs step {i + 1}, {_call_text(sub.name, sub.args)}, which "
                if depth <= 0 or sub.name in seen:
                    return text + "can never be done"
                return text + self.why_task(sub.name, (), depth - 1, seen)
        if method.name in self.methods:
            return "applies only with other arguments"
        return "never applies: its precondition and steps never hold together"


def _atom_text(atom: Atom) -> str:
    return _call_text(atom.predicate, atom.args)


def _call_text(name: str, args: Iterable[Term]) -> str:
    return "(" + " ".join([name, *(str(a) for a in args)]) + ")"


def _unify(terms: Sequence[Term], args: Sequence[str]) -> dict[str, str] | None:
    out: dict[str, str] = {}
    for t, a in zip(terms, args, strict=False):
        if isinstance(t, Const):
            if t.name != a:
                return None
        elif out.setdefault(t.name, a) != a:
            return None
    return out


# ---------------------------------------------------------------------------- the rules


def _rules(domain: Domain) -> list[_Rule]:
    """Every action and method as a rule of the relaxed program."""
    rules: list[_Rule] = []
    for a in domain.actions:
        params = list(a.params)
        body = positive_atoms(a.precondition, params)
        heads = [(x.predicate, x.args) for x in _adds(a.effect, params, body)]
        heads.append((_TASK + a.name, tuple(Var(p.name) for p in a.params)))
        rules.append(_Rule(a.name, heads, [(x.predicate, x.args) for x in body], _types(params)))
    for m in domain.methods:
        params = list(m.params)
        body_atoms = [(x.predicate, x.args) for x in positive_atoms(m.precondition, params)]
        body_atoms += [(_TASK + s.name, s.args) for s in m.subtasks]
        rules.append(
            _Rule(m.name, [(_TASK + m.task.name, m.task.args)], body_atoms, _types(params))
        )
    return rules


def _types(params: Iterable[Typed]) -> dict[str, tuple[str, ...]]:
    return {p.name: p.types for p in params}


def _objects(domain: Domain, problem: Problem) -> dict[str, set[str]]:
    """Each type's objects (and constants), a subtype's counting for its ancestors."""
    out: dict[str, set[str]] = {}
    for item in (*domain.constants, *problem.objects):
        for t in item.types:
            for anc in domain.ancestors(t):
                out.setdefault(anc, set()).add(item.name)
    return out


class _Db:
    """Ground facts by relation, with an index per (relation, position, value)."""

    def __init__(self) -> None:
        self.rel: dict[str, set[Ground]] = {}
        self.index: dict[tuple[str, int, str], set[Ground]] = {}

    def add(self, name: str, fact: Ground) -> bool:
        facts = self.rel.setdefault(name, set())
        if fact in facts:
            return False
        facts.add(fact)
        for i, v in enumerate(fact):
            self.index.setdefault((name, i, v), set()).add(fact)
        return True

    def candidates(self, name: str, args: Sequence[Term], env: dict[str, str]) -> set[Ground]:
        """The facts of ``name`` agreeing with ``env`` on every bound position (the
        index sets intersected, smallest first: matching them is then only binding)."""
        sets: list[set[Ground]] = []
        for i, t in enumerate(args):
            v = t.name if isinstance(t, Const) else env.get(t.name)
            if v is not None:
                found = self.index.get((name, i, v))
                if not found:
                    return set()
                sets.append(found)
        if not sets:
            return self.rel.get(name, set())
        sets.sort(key=len)
        out = sets[0]
        for other in sets[1:]:
            out = out & other
            if not out:
                break
        return out


def _match(args: Sequence[Term], fact: Ground, env: dict[str, str]) -> dict[str, str] | None:
    if len(args) != len(fact):
        return None
    out = env
    for t, v in zip(args, fact, strict=True):
        if isinstance(t, Const):
            if t.name != v:
                return None
        else:
            have = out.get(t.name)
            if have is None:
                if out is env:
                    out = dict(env)
                out[t.name] = v
            elif have != v:
                return None
    return out


def _solve(
    rule: _Rule,
    db: _Db,
    objects: dict[str, set[str]],
    pivot: int | None,
    delta: dict[str, set[Ground]],
    fired: set[str],
    known: Callable[[str, Ground], bool],
    typesets: dict[tuple[str, ...], frozenset[str]],
) -> Iterator[dict[str, str]]:
    """Every binding of ``rule``'s variables satisfying its body (the ``pivot`` literal
    matched against ``delta`` only: semi-naive), with types checked."""
    body = rule.body
    # Each (either) type's objects in order, for variables no literal binds.
    domains: dict[tuple[str, ...], list[str]] = {}

    # Each variable's objects (None: any, for ``object``), to check a value bound by a
    # literal against the variable's type.
    allowed: dict[str, frozenset[str] | None] = {}
    for var, types in rule.types.items():
        if OBJECT in types:
            allowed[var] = None
        else:
            got = typesets.get(types)
            if got is None:
                got = typesets[types] = frozenset().union(*(objects.get(t, ()) for t in types))
            allowed[var] = got

    def typed(env: dict[str, str], args: Sequence[Term]) -> bool:
        """The variables ``args`` bound are of their types (the rest were checked)."""
        for t in args:
            if isinstance(t, Var):
                ok = allowed.get(t.name)
                if ok is not None and env[t.name] not in ok:
                    return False
        return True

    # A method's head is its task: once its variables are bound and that task is known to
    # be accomplished (and the method known to apply), the rest of the join adds nothing.
    head_name, head_args = rule.heads[0]
    head_vars = {t.name for t in head_args if isinstance(t, Var)}
    projects = len(rule.heads) == 1

    def useless(env: dict[str, str]) -> bool:
        if not projects or rule.owner not in fired or not head_vars <= env.keys():
            return False
        return known(head_name, tuple(env.get(t.name, t.name) for t in head_args))

    def rest(env: dict[str, str], left: list[int]) -> Iterator[dict[str, str]]:
        if useless(env):
            return
        if not left:
            yield from free(env)
            return
        # the literal with the fewest candidates next
        best_i, best_c = left[0], None
        for i in left:
            cands = db.candidates(body[i][0], body[i][1], env)
            if best_c is None or len(cands) < len(best_c):
                best_i, best_c = i, cands
                if not cands:
                    return
        remaining = [i for i in left if i != best_i]
        for fact in list(best_c or ()):
            env2 = _match(body[best_i][1], fact, env)
            if env2 is not None and (env2 is env or typed(env2, body[best_i][1])):
                yield from rest(env2, remaining)

    def free(env: dict[str, str]) -> Iterator[dict[str, str]]:
        unbound = sorted(v for v in rule.types if v not in env)
        if not unbound:
            yield env
            return
        var, more = unbound[0], unbound[1:]
        types = rule.types[var]
        values = domains.get(types)
        if values is None:
            values = domains[types] = sorted(set().union(*(objects.get(t, ()) for t in types)))
        for value in values:
            env2 = {**env, var: value}
            if more:
                yield from free(env2)
            else:
                yield env2

    if pivot is None:
        yield from rest({}, list(range(len(body))))
        return
    name, args = body[pivot]
    others = [i for i in range(len(body)) if i != pivot]
    for fact in delta.get(name, ()):
        env = _match(args, fact, {})
        if env is not None and typed(env, args):
            yield from rest(env, others)


def analyse(domain: Domain, problem: Problem, deadline: float | None = None) -> Reachability:
    """The relaxed fixed point of ``problem`` (see the module's docstring).  ``deadline``
    (a ``time.perf_counter()`` value) makes it raise :class:`Unfinished` when passed."""
    objects = _objects(domain, problem)
    rules = _rules(domain)
    db = _Db()
    delta: dict[str, set[Ground]] = {}
    for atom in problem.init:
        fact = tuple(t.name for t in atom.args)
        if db.add(atom.predicate, fact):
            delta.setdefault(atom.predicate, set()).add(fact)
    by_relation: dict[str, list[tuple[_Rule, int]]] = {}
    for rule in rules:
        for i, (name, _) in enumerate(rule.body):
            by_relation.setdefault(name, []).append((rule, i))
    fired: set[str] = set()
    pending = [(r, None) for r in rules if not r.body]
    first = True
    typesets: dict[tuple[str, ...], frozenset[str]] = {}
    # What this round derived, not yet in the database (the next round's delta).
    new: dict[str, set[Ground]] = {}

    def known(name: str, fact: Ground) -> bool:
        return fact in db.rel.get(name, ()) or fact in new.get(name, ())

    while first or delta:
        new.clear()
        work: list[tuple[_Rule, int | None]] = list(pending) if first else []
        first = False
        for name in sorted(delta):
            work.extend(by_relation.get(name, []))
        for rule, pivot in work:
            for env in _solve(rule, db, objects, pivot, delta, fired, known, typesets):
                if deadline is not None and time.perf_counter() > deadline:
                    raise Unfinished
                fired.add(rule.owner)
                for head, args in rule.heads:
                    fact = tuple(env.get(t.name, t.name) for t in args)
                    if fact not in db.rel.get(head, ()):
                        new.setdefault(head, set()).add(fact)
        delta = {}
        for name, facts in new.items():
            for fact in facts:
                if db.add(name, fact):
                    delta.setdefault(name, set()).add(fact)
    actions = {a.name for a in domain.actions}
    result = Reachability(domain, problem, objects=objects)
    for name, facts in db.rel.items():
        if name.startswith(_TASK):
            task = name[len(_TASK) :]
            (result.actions if task in actions else result.tasks)[task] = facts
        else:
            result.facts[name] = facts
    result.methods = {m.name for m in domain.methods if m.name in fired}
    return result


# ---------------------------------------------------------------------------- kb lint


def domain_findings(domain: Domain, inits: Sequence[Iterable[Atom]] = ()) -> list[DomainFinding]:
    """The domain's static faults, at predicate level over any problem (and the stored
    initial states ``inits``): a predicate a precondition needs that no action adds and no
    initial state holds; a task no method decomposes; a method that can never apply (it
    needs such a predicate, or a step that can never be done)."""
    # Static predicates (road, capacity_predecessor) are added by no action and held by
    # initial states: without a stored problem to look at, no predicate can be blamed.
    inits = [list(init) for init in inits]
    held = {atom.predicate for init in inits for atom in init}
    added = {x.predicate for a in domain.actions for x in _adds(a.effect, list(a.params), [])}
    possible = held | added if inits else {p.name for p in domain.predicates} | added
    out: list[DomainFinding] = []
    used: dict[str, list[str]] = {}
    items: list[Action | Method] = [*domain.actions, *domain.methods]
    for item in items:
        for atom in positive_atoms(item.precondition):
            if atom.predicate not in possible:
                users = used.setdefault(atom.predicate, [])
                if item.name not in users:
                    users.append(item.name)
    declared = {p.name: p for p in domain.predicates}
    for pred, users in sorted(used.items()):
        decl = declared.get(pred)
        message = (
            f"`{pred}` is needed by {', '.join(users)} but added by no action of the domain "
            "and held by no stored problem's initial state"
        )
        out.append(DomainFinding("predicate", pred, decl.pos if decl else None, message))
    # Tasks and methods: a fixed point at the level of names.
    actions = {a.name: a for a in domain.actions}
    doable = {
        name
        for name, a in actions.items()
        if all(x.predicate in possible for x in positive_atoms(a.precondition))
    }
    by_task: dict[str, list[Method]] = {}
    for m in domain.methods:
        by_task.setdefault(m.task.name, []).append(m)
    for task in domain.tasks:
        if task.name not in by_task:
            out.append(DomainFinding("task", task.name, task.pos, "no method decomposes this task"))
    changed = True
    good: set[str] = set()
    while changed:
        changed = False
        for m in domain.methods:
            if m.name in good:
                continue
            if all(x.predicate in possible for x in positive_atoms(m.precondition)) and all(
                s.name in doable for s in m.subtasks
            ):
                good.add(m.name)
                if m.task.name not in doable:
                    doable.add(m.task.name)
                changed = True
    for m in domain.methods:
        if m.name in good:
            continue
        missing = [
            x.predicate for x in positive_atoms(m.precondition) if x.predicate not in possible
        ]
        if missing:
            why = f"its precondition needs `{missing[0]}`, which can never hold"
        else:
            step = next(i for i, s in enumerate(m.subtasks) if s.name not in doable)
            sub = m.subtasks[step]
            why = f"its step {step + 1}, {_call_text(sub.name, sub.args)}, can never be done"
        out.append(DomainFinding("method", m.name, m.pos, f"can never apply: {why}"))
    return out
