"""What the grammar cannot see: the fragment, total orders, and that every name is declared.

The grammar accepts any well-formed list; these checks hold a file to the total-order HDDL
fragment a forward decomposition planner can run, and to its own declarations, so that a
planner built on the model never meets an undeclared predicate or a task of the wrong arity.
Each finding names the construct and points at it; all of them are collected, not just the
first, so that one run shows everything to fix.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .errors import HddlError, Issue
from .model import (
    OBJECT,
    And,
    Atom,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    EffectForall,
    Equals,
    Formula,
    Imply,
    Not,
    Or,
    Pos,
    Problem,
    Subtask,
    Term,
    Typed,
    Var,
    When,
)

__all__ = [
    "Report",
    "check_domain",
    "check_problem",
    "check_requirement",
    "check_section",
    "total_order",
]


@dataclass
class Report:
    """Findings about one file, gathered as they are found."""

    path: str
    issues: list[Issue] = field(default_factory=list)

    def add(self, pos: Pos | None, message: str) -> None:
        line, column = (pos.line, pos.column) if pos else (0, 0)
        self.issues.append(Issue(self.path, line, column, message))

    def raise_if_any(self) -> None:
        if self.issues:
            raise HddlError(self.issues)


# -- the fragment ---------------------------------------------------------------------------

# What the total-order fragment may ask for: STRIPS with types, negation, equality,
# quantifiers, disjunction and conditional effects, plus HDDL's hierarchy.
SUPPORTED_REQUIREMENTS = frozenset(
    {
        ":strips",
        ":typing",
        ":negative-preconditions",
        ":disjunctive-preconditions",
        ":equality",
        ":existential-preconditions",
        ":universal-preconditions",
        ":quantified-preconditions",
        ":conditional-effects",
        ":adl",
        ":hierarchy",
        ":method-preconditions",
    }
)

# Known requirements this reader refuses, with what they are about.
OUTSIDE_REQUIREMENTS = {
    ":durative-actions": "durative actions",
    ":duration-inequalities": "durative actions",
    ":continuous-effects": "durative actions",
    ":timed-initial-literals": "time",
    ":fluents": "numeric fluents",
    ":numeric-fluents": "numeric fluents",
    ":object-fluents": "object fluents",
    ":action-costs": "numeric fluents",
    ":constraints": "PDDL3 trajectory constraints",
    ":preferences": "preferences",
    ":derived-predicates": "derived predicates",
    ":domain-axioms": "derived predicates",
    ":partial-order": "partially ordered task networks",
}

OUTSIDE_SECTIONS = {
    ":durative-action": "durative actions",
    ":functions": "numeric fluents",
    ":derived": "derived predicates",
    ":axiom": "derived predicates",
    ":constraints": "PDDL3 trajectory constraints",
    ":metric": "plan metrics",
    ":length": "plan length bounds",
}


# The sections this reader takes, for suggestions when one is misspelt.
SECTIONS = frozenset(
    {":requirements", ":types", ":constants", ":predicates", ":task", ":method", ":action"}
    | {":domain", ":objects", ":htn", ":init", ":goal"}
)


def check_requirement(requirement: str, pos: Pos, report: Report) -> None:
    if requirement in SUPPORTED_REQUIREMENTS:
        return
    if requirement in OUTSIDE_REQUIREMENTS:
        report.add(
            pos,
            f"requirement '{requirement}' is outside the total-order HDDL fragment "
            f"({OUTSIDE_REQUIREMENTS[requirement]})",
        )
    else:
        known = SUPPORTED_REQUIREMENTS | OUTSIDE_REQUIREMENTS.keys()
        report.add(pos, f"unknown requirement '{requirement}'{_did_you_mean(requirement, known)}")


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, sorted(known), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def check_section(keyword: str, pos: Pos, report: Report) -> None:
    if keyword in OUTSIDE_SECTIONS:
        report.add(
            pos,
            f"'({keyword} ...)' is outside the total-order HDDL fragment "
            f"({OUTSIDE_SECTIONS[keyword]})",
        )
    else:
        report.add(pos, f"unknown section '({keyword} ...)'{_did_you_mean(keyword, SECTIONS)}")


# -- total order ----------------------------------------------------------------------------


def total_order(
    subtasks: Sequence[Subtask],
    *,
    ordered: bool,
    pairs: Sequence[tuple[str, str, Pos]] | None,
    owner: str,
    pos: Pos,
    report: Report,
) -> tuple[Subtask, ...]:
    """The subtasks in their one total order, or as listed after reporting why there is none.

    ``:ordered-subtasks`` is total by construction; an ``:ordering`` given with it must agree.
    ``:subtasks`` needs an ``:ordering`` whose constraints leave exactly one sequence.
    """
    ids: dict[str, Subtask] = {}
    for subtask in subtasks:
        if subtask.id is None:
            continue
        if subtask.id in ids:
            report.add(subtask.pos, f"{owner} names two subtasks '{subtask.id}'")
        ids[subtask.id] = subtask
    edges: list[tuple[str, str]] = []
    for before, after, where in pairs or ():
        unknown = [i for i in dict.fromkeys((before, after)) if i not in ids]
        for name in unknown:
            report.add(
                where, f"the ordering of {owner} names '{name}', which is none of its subtasks"
            )
        if before == after and not unknown:
            report.add(where, f"the ordering of {owner} puts '{before}' before itself")
        elif not unknown:
            edges.append((before, after))
    if len(edges) < len(pairs or ()):
        return tuple(subtasks)  # said above; what is left of the ordering would mislead
    if ordered or len(subtasks) <= 1:
        rank = {s.id: i for i, s in enumerate(subtasks) if s.id is not None}
        for before, after in edges:
            if rank[before] >= rank[after]:
                report.add(
                    pos,
                    f"the ordering of {owner} puts '{before}' before '{after}', against the "
                    "order of its :ordered-subtasks",
                )
        return tuple(subtasks)
    if pairs is None:
        report.add(
            pos,
            f"{owner} lists {len(subtasks)} subtasks with no :ordering: the total-order "
            "fragment needs one sequence (use :ordered-subtasks, or add an :ordering)",
        )
        return tuple(subtasks)
    bare = [s for s in subtasks if s.id is None]
    if bare:
        report.add(
            bare[0].pos,
            f"the ordering of {owner} is not total: subtask '({bare[0].name} ...)' has no id, so "
            "no ordering can place it",
        )
        return tuple(subtasks)
    order = _topological(list(ids), edges)
    if isinstance(order, str):
        report.add(pos, f"the ordering of {owner} {order}")
        return tuple(subtasks)
    return tuple(ids[i] for i in order)


def _topological(nodes: list[str], edges: list[tuple[str, str]]) -> list[str] | str:
    """The one sequence the edges allow, or why there is not exactly one."""
    after: dict[str, set[str]] = {n: set() for n in nodes}
    indegree = dict.fromkeys(nodes, 0)
    for a, b in edges:
        if b not in after[a]:
            after[a].add(b)
            indegree[b] += 1
    order: list[str] = []
    ready = [n for n in nodes if indegree[n] == 0]
    while ready:
        if len(ready) > 1:
            a, b = ready[0], ready[1]
            return (
                f"is not total: '{a}' and '{b}' are not ordered "
                f"(add (< {a} {b}) or (< {b} {a}), or use :ordered-subtasks)"
            )
        node = ready.pop()
        order.append(node)
        for b in sorted(after[node], key=nodes.index):
            indegree[b] -= 1
            if indegree[b] == 0:
                ready.append(b)
    if len(order) < len(nodes):
        cycle = [n for n in nodes if n not in order]
        return "has a cycle among " + ", ".join(f"'{n}'" for n in cycle)
    return order


# -- declarations ---------------------------------------------------------------------------


@dataclass
class _Scope:
    """What a formula may mention: declared predicates, constants, and variables in scope."""

    predicates: dict[str, int]
    constants: frozenset[str]
    types: frozenset[str]
    variables: frozenset[str] = frozenset()

    def inner(self, params: Iterable[Typed]) -> _Scope:
        return _Scope(
            self.predicates, self.constants, self.types, self.variables | {p.name for p in params}
        )


def check_domain(domain: Domain, report: Report) -> None:
    types = frozenset({OBJECT, *(t.name for t in domain.types)})
    _type_cycles(domain, report)
    _unique(((c.name, c.pos) for c in domain.constants), "constant", report)
    for constant in domain.constants:
        _typed(constant, types, f"constant '{constant.name}'", report)
    _unique(((p.name, p.pos) for p in domain.predicates), "predicate", report)
    for predicate in domain.predicates:
        _params(predicate.params, types, f"predicate '{predicate.name}'", report)
    _unique(((t.name, t.pos) for t in domain.tasks), "task", report)
    _unique(((a.name, a.pos) for a in domain.actions), "action", report)
    _unique(((m.name, m.pos) for m in domain.methods), "method", report)
    tasks = {t.name: len(t.params) for t in domain.tasks}
    actions = {a.name: len(a.params) for a in domain.actions}
    for action in domain.actions:
        if action.name in tasks:
            report.add(action.pos, f"'{action.name}' is declared both as a task and as an action")
    scope = _Scope(
        {p.name: len(p.params) for p in domain.predicates},
        frozenset(c.name for c in domain.constants),
        types,
    )
    for task in domain.tasks:
        _params(task.params, types, f"task '{task.name}'", report)
    for action in domain.actions:
        what = f"action '{action.name}'"
        _params(action.params, types, what, report)
        inner = scope.inner(action.params)
        if action.precondition is not None:
            _formula(action.precondition, inner, f"the precondition of {what}", report)
        if action.effect is not None:
            _effect(action.effect, inner, f"the effect of {what}", report)
    for method in domain.methods:
        what = f"method '{method.name}'"
        _params(method.params, types, what, report)
        inner = scope.inner(method.params)
        call = method.task
        if call.name in tasks:
            _arity(
                call.name,
                len(call.args),
                tasks[call.name],
                call.pos,
                "task",
                f"the :task of {what}",
                report,
            )
        elif call.name in actions:
            report.add(
                call.pos,
                f"{what} decomposes '{call.name}', which is an action; methods decompose tasks",
            )
        elif call.name:
            report.add(call.pos, f"{what} is for an undeclared task '{call.name}'")
        _terms(call.args, inner, f"the :task of {what}", report)
        if method.precondition is not None:
            _formula(method.precondition, inner, f"the precondition of {what}", report)
        if method.constraints is not None:
            _constraints(method.constraints, inner, what, report)
        _subtasks(method.subtasks, tasks, actions, inner, what, report)


def check_problem(problem: Problem, domain: Domain | None, report: Report) -> None:
    """The problem on its own, and against ``domain`` when there is one."""
    _unique(((o.name, o.pos) for o in problem.objects), "object", report)
    if domain is None:
        return
    types = frozenset({OBJECT, *(t.name for t in domain.types)})
    for obj in problem.objects:
        _typed(obj, types, f"object '{obj.name}'", report)
    if problem.domain and problem.domain != domain.name:
        report.add(
            problem.domain_pos,
            f"the problem is for domain '{problem.domain}', not '{domain.name}'",
        )
    scope = _Scope(
        {p.name: len(p.params) for p in domain.predicates},
        frozenset(c.name for c in domain.constants) | {o.name for o in problem.objects},
        types,
    )
    for atom in problem.init:
        _formula(atom, scope, "the :init", report)
    if problem.htn is not None:
        htn = problem.htn
        _params(htn.params, types, "the :htn", report)
        inner = scope.inner(htn.params)
        tasks = {t.name: len(t.params) for t in domain.tasks}
        actions = {a.name: len(a.params) for a in domain.actions}
        if htn.constraints is not None:
            _constraints(htn.constraints, inner, "the :htn", report)
        _subtasks(htn.subtasks, tasks, actions, inner, "the :htn", report)
    if problem.goal is not None:
        _formula(problem.goal, scope, "the :goal", report)


def _unique(names: Iterable[tuple[str, Pos | None]], what: str, report: Report) -> None:
    first: dict[str, Pos | None] = {}
    for name, pos in names:
        if name in first:
            where = first[name]
            at = f" (first at line {where.line}, column {where.column})" if where else ""
            report.add(pos, f"{what} '{name}' is declared twice{at}")
        else:
            first[name] = pos


def _type_cycles(domain: Domain, report: Report) -> None:
    """One message for the types that are their own ancestors, at the first of them."""
    parents = domain.type_parents()
    looping = []
    for typedef in domain.types:
        seen: set[str] = set()
        todo = list(typedef.parents)
        while todo:
            name = todo.pop()
            if name == typedef.name:
                looping.append(typedef)
                break
            if name not in seen:
                seen.add(name)
                todo.extend(parents.get(name, ()))
    if looping:
        names = ", ".join(f"'{t.name}'" for t in looping)
        report.add(looping[0].pos, f"the types {names} are their own ancestors (a cycle)")


def _typed(item: Typed, types: frozenset[str], what: str, report: Report) -> None:
    for name in item.types:
        if name not in types:
            report.add(item.pos, f"{what} has the undeclared type '{name}'")


def _params(params: Sequence[Typed], types: frozenset[str], what: str, report: Report) -> None:
    seen: set[str] = set()
    for param in params:
        if param.name in seen:
            report.add(param.pos, f"{what} declares the parameter '{param.name}' twice")
        seen.add(param.name)
        _typed(param, types, f"parameter '{param.name}' of {what}", report)


def _arity(
    name: str, given: int, wanted: int, pos: Pos | None, what: str, where: str, report: Report
) -> None:
    if given != wanted:
        report.add(
            pos,
            f"{what} '{name}' takes {wanted} argument{'s' * (wanted != 1)}, given {given} "
            f"in {where}",
        )


def _terms(terms: Iterable[Term], scope: _Scope, where: str, report: Report) -> None:
    for term in terms:
        if isinstance(term, Var):
            if term.name not in scope.variables:
                report.add(term.pos, f"undeclared variable '{term.name}' in {where}")
        elif term.name not in scope.constants:
            report.add(term.pos, f"undeclared constant '{term.name}' in {where}")


def _formula(formula: Formula, scope: _Scope, where: str, report: Report) -> None:
    if isinstance(formula, Atom):
        if formula.predicate not in scope.predicates:
            report.add(formula.pos, f"undeclared predicate '{formula.predicate}' in {where}")
        else:
            wanted = scope.predicates[formula.predicate]
            _arity(
                formula.predicate,
                len(formula.args),
                wanted,
                formula.pos,
                "predicate",
                where,
                report,
            )
        _terms(formula.args, scope, where, report)
    elif isinstance(formula, Equals):
        _terms((formula.left, formula.right), scope, where, report)
    elif isinstance(formula, Not):
        _formula(formula.body, scope, where, report)
    elif isinstance(formula, And | Or):
        for part in formula.parts:
            _formula(part, scope, where, report)
    elif isinstance(formula, Imply):
        _formula(formula.condition, scope, where, report)
        _formula(formula.consequence, scope, where, report)
    else:
        _params(formula.params, scope.types, f"a quantifier in {where}", report)
        _formula(formula.body, scope.inner(formula.params), where, report)


def _effect(effect: Effect, scope: _Scope, where: str, report: Report) -> None:
    if isinstance(effect, Atom):
        _formula(effect, scope, where, report)
    elif isinstance(effect, Delete):
        _formula(effect.atom, scope, where, report)
    elif isinstance(effect, EffectAnd):
        for part in effect.parts:
            _effect(part, scope, where, report)
    elif isinstance(effect, EffectForall):
        _params(effect.params, scope.types, f"a forall in {where}", report)
        _effect(effect.effect, scope.inner(effect.params), where, report)
    else:
        assert isinstance(effect, When)
        _formula(effect.condition, scope, where, report)
        _effect(effect.effect, scope, where, report)


def _constraints(formula: Formula, scope: _Scope, what: str, report: Report) -> None:
    """Task-network constraints: HDDL allows only (in)equalities of terms, joined by 'and'."""
    parts = formula.parts if isinstance(formula, And) else (formula,)
    for part in parts:
        inner = part.body if isinstance(part, Not) else part
        if not isinstance(inner, Equals):
            report.add(
                part.pos,
                f"the :constraints of {what} may hold only (= a b) and (not (= a b))",
            )
            continue
        _terms((inner.left, inner.right), scope, f"the :constraints of {what}", report)


def _subtasks(
    subtasks: Sequence[Subtask],
    tasks: dict[str, int],
    actions: dict[str, int],
    scope: _Scope,
    what: str,
    report: Report,
) -> None:
    where = f"the subtasks of {what}"
    for subtask in subtasks:
        for kind, known in (("task", tasks), ("action", actions)):
            if subtask.name in known:
                wanted = known[subtask.name]
                _arity(subtask.name, len(subtask.args), wanted, subtask.pos, kind, where, report)
                break
        else:
            report.add(
                subtask.pos,
                f"{what} has a subtask '{subtask.name}' that is no declared task or action",
            )
        _terms(subtask.args, scope, where, report)
