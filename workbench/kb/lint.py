"""The knowledge linter: what is wrong, or probably wrong, with a domain before it runs.

Compiling a domain (:func:`engine.tofs.compile_domain`) refuses what a run would trip over.
The linter adds what compiles but is still a mistake in the knowledge -- a task no problem
can reach, recursion that loops without acting, a method whose precondition is false by
its constants, a choice point an explanation cannot name -- so that a knowledge engineer
learns it from the editor rather than from a strange plan.

Each rule is a small function registered in :data:`RULES` with its name, severity and a
one-line description, so the CLI and the workbench can list the rules and say which one
produced a finding.  Every location is reported once, by the most specific rule: a call
to an undefined name is ``undefined-task``, not also ``compile``; an operator nothing
calls is ``unused-operator``, not also ``unreachable-task``.

Without a registry the ``compile`` rule still checks everything that does not need the
Python side: it compiles the domain against a *permissive* registry in which every called
name that is not a standard primitive or a constant is assumed to be some primitive, and
every effect name some effect.  So syntax, the expression whitelist, unknown bare names,
task and operator arities, bindings and label templates are checked; misspelt primitive
or effect names (and a call of a parameter, ``P(1)``) are only caught with the registry.
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from typing import TYPE_CHECKING, Any, Literal, cast

from engine.tofs.domain import (
    IMPLICIT_METHOD_NAMES,
    DomainError,
    compile_domain,
    constant_problem,
)
from engine.tofs.expressions import (
    STANDARD_PRIMITIVES,
    CompiledExpression,
    ExpressionError,
    Primitive,
    compile_expression,
    parse_binding,
    parse_call,
)
from engine.tofs.model import DomainSpec, MethodDef
from engine.tofs.registry import Registry
from engine.tofs.value_types import type_of_value
from knowledge import format_of

if TYPE_CHECKING:
    import networkx as nx

    from knowledge import DomainFormat

__all__ = ["RULES", "Finding", "Kind", "Rule", "Severity", "lint_domain"]

Severity = Literal["error", "warning"]
Kind = Literal["task", "method", "operator", "constant", "domain"]

_SEVERITY_ORDER: dict[str, int] = {"error": 0, "warning": 1}
_KINDS: frozenset[str] = frozenset(("task", "method", "operator", "constant", "domain"))
_LEADING_NAME = re.compile(r"\s*([A-Za-z][A-Za-z0-9_]*)")

# Fields that make a method the move of an uncontrolled agent (model.MethodDef).
UNCONTROLLED_FIELDS = ("weight", "assumption", "critic")
"""Fields that only an uncontrolled agent's move has.  Not ``belief_view``: in Tignum 2 the
*planner's own* methods choose the belief view their opponents' answers are weighed by
(a discard plan sees "ruff / no ruff"; Smith 1997 §5.4.3)."""


@dataclass(frozen=True)
class Finding:
    """One thing the linter found, said where it is.

    ``name`` is the task, operator or constant name, ``Task.Method`` for a method, and the
    domain's name for findings about the domain as a whole (its roots).
    """

    rule: str
    severity: Severity
    kind: Kind
    name: str
    field: str
    message: str

    def __str__(self) -> str:
        fld = f" ({self.field})" if self.field else ""
        return f"{self.severity} [{self.rule}] {self.kind} {self.name}{fld}: {self.message}"

    def sort_key(self) -> tuple[int, str, str, str, str, str]:
        """Errors first, then by rule and name: the same domain always lists the same way."""
        return (
            _SEVERITY_ORDER[self.severity],
            self.rule,
            self.name,
            self.kind,
            self.field,
            self.message,
        )


@dataclass(frozen=True)
class _Hit:
    """What a rule function reports; :class:`Rule` adds its own name and severity."""

    kind: Kind
    name: str
    field: str
    message: str


class _Context:
    """The domain under lint and what several rules derive from it, computed once."""

    def __init__(
        self, spec: DomainSpec, registry: Registry | None, problems: Sequence[str] = ()
    ) -> None:
        self.spec = spec
        # The texts of the domain's stored problems, for a format's own findings (HDDL: a
        # predicate no action adds may still be held by an initial state).
        self.problems = problems
        self.format_hits: list[tuple[str, str, str, str]] | None = None
        self.registry = registry
        # A domain written in a package's own language (HDDL): the spec is a view derived
        # from its text, whose preconditions and calls are not the expression language.
        found = format_of(spec)
        self.format: DomainFormat | None = found[1] if found is not None else None
        self.tasks = {t.name: t for t in spec.tasks}
        self.operators = {o.name: o for o in spec.operators}
        self.constants = spec.constant_values()

    @cached_property
    def primitives(self) -> Mapping[str, Primitive]:
        if self.registry is not None:
            return self.registry.primitives
        return _AnyPrimitives(self.constants)

    @cached_property
    def calls(self) -> list[tuple[MethodDef, str, str, str | None]]:
        """Every call of every method: (method, field, source, callee or None if unparsable).

        In list order (a method has subtasks or one operator call), so that positions mean
        something to the rules that care about order.
        """
        out: list[tuple[MethodDef, str, str, str | None]] = []
        for m in self.spec.methods:
            sources = (
                [(f"subtasks[{i}]", s) for i, s in enumerate(m.subtasks)]
                if m.subtasks is not None
                else [("operator", m.operator or "")]
            )
            for fld, src in sources:
                if self.format is not None:
                    out.append((m, fld, src, self.format.call_name(src)))
                    continue
                try:
                    name: str | None = parse_call(src)[0]
                except ExpressionError:
                    name = None  # the compile rule says why
                out.append((m, fld, src, name))
        return out

    @cached_property
    def used_names(self) -> list[tuple[MethodDef, str]]:
        """(method, callee) for usage and reachability, reading a broken call's name too.

        A call that does not parse (``Act(``) still says which operator it meant; without
        this, one syntax error would also make its callee "unused" and "unreachable".
        """
        out: list[tuple[MethodDef, str]] = []
        for m, _, src, name in self.calls:
            if name is None:
                match = _LEADING_NAME.match(src)
                name = match.group(1) if match else None
            if name is not None:
                out.append((m, name))
        return out

    @cached_property
    def called(self) -> set[str]:
        return {name for _, name in self.used_names}

    @cached_property
    def _callees(self) -> dict[int, list[str | None]]:
        out: dict[int, list[str | None]] = {}
        for m, _, _, name in self.calls:
            out.setdefault(id(m), []).append(name)
        return out

    def callees(self, m: MethodDef) -> list[str | None]:
        """The names ``m`` calls, in order (None where a call does not parse)."""
        return self._callees.get(id(m), [])

    def method_scope(self, m: MethodDef) -> list[str]:
        """The names a method's precondition may read, as compile_domain builds them."""
        task = self.tasks.get(m.task)
        scope = [*(task.params if task else []), *IMPLICIT_METHOD_NAMES]
        for b in m.bindings:
            try:
                var, _ = parse_binding(b)
            except ExpressionError:
                continue
            scope.append(var)
        return scope

    @cached_property
    def undefined_locations(self) -> set[tuple[str, str, str]]:
        """(kind, name, field) of every undefined-task finding, so compile can skip them."""
        return {(h.kind, h.name, h.field) for h in _undefined_task(self)}


def _method_name(m: MethodDef) -> str:
    return f"{m.task}.{m.name}"


# ---------------------------------------------------------------------------- compile


def _unchecked(*args: Any) -> Any:  # pragma: no cover - never evaluated by the linter
    raise RuntimeError("a primitive assumed by the linter without a registry was called")


class _AnyPrimitives(dict[str, Primitive]):
    """Primitives when no registry is given: every called name is assumed to exist.

    Membership (``in``) stays honest -- the standard primitives only -- so that a bare
    unknown name is still "unknown name" and a constant named like a primitive is still
    reported; lookups (``get``, ``[]``), which the compiler uses for calls, invent a
    stub.  Constants are refused so that calling one is still an error.  The stub
    ``uses_state`` so that constant folding never treats an unknown call as constant.
    """

    def __init__(self, refuse: Collection[str]) -> None:
        super().__init__(STANDARD_PRIMITIVES)
        self._refuse = frozenset(refuse)

    def _stub(self, name: str) -> Primitive:
        return Primitive(name, _unchecked, uses_state=True, doc="(assumed: no registry)")

    def get(self, key: str, default: Any = None) -> Any:
        if key in self:
            return super().__getitem__(key)
        return default if key in self._refuse else self._stub(key)

    def __missing__(self, key: str) -> Primitive:
        return self._stub(key)


class _AnyEffects(dict[str, Callable[..., Any]]):
    """Effects when no registry is given: every effect name is assumed to exist."""

    def get(self, key: str, default: Any = None) -> Any:
        return super().get(key, _unchecked)


def _permissive_registry(ctx: _Context) -> Registry:
    reg = Registry(f"{ctx.spec.name} (no registry: primitives and effects not checked)")
    reg.primitives = _AnyPrimitives(ctx.constants)
    reg.effects = _AnyEffects()
    return reg


def _compile(ctx: _Context) -> Iterator[_Hit]:
    """Everything compile_domain reports, except what undefined-task says more precisely.

    A domain in a package's own language (HDDL) is not compiled from its view: its format
    checks the text it holds (what planning reads), e.g. with the reader's line and column.
    """
    if ctx.format is not None:
        for message in ctx.format.check(ctx.spec):
            yield _Hit("domain", ctx.spec.name, f"extra.{ctx.format.extra_key}", message)
        return
    registry = ctx.registry if ctx.registry is not None else _permissive_registry(ctx)
    try:
        compile_domain(ctx.spec, registry)
    except DomainError as exc:
        problems = exc.problems
    else:
        return
    for p in problems:
        kind, _, name = p.where.partition(" ")
        if kind not in _KINDS:  # a place compile_domain may name in future
            kind, name = "domain", p.where
        if (kind, name, p.field) in ctx.undefined_locations:
            continue
        if kind == "constant" and p.field in ("value", "type"):
            continue  # constant-type says it, with the declared type
        column = f" (column {p.column})" if p.column else ""
        yield _Hit(cast(Kind, kind), name, p.field, f"{p.message}{column}")


# ---------------------------------------------------------------------- constant-type


def _constant_type(ctx: _Context) -> Iterator[_Hit]:
    """A value that is not of its constant's declared type (one saved before types were
    checked, or written into the file by hand): what compiling says, named by this rule."""
    for c in ctx.spec.constants:
        found = constant_problem(c, ctx.registry)
        if found is not None:
            yield _Hit("constant", c.name, *found)


def _untyped_constant(ctx: _Context) -> Iterator[_Hit]:
    for c in ctx.spec.constants:
        if c.type is None:
            yield _Hit(
                "constant",
                c.name,
                "type",
                "declares no type, so any value is accepted; its value makes it "
                f"{type_of_value(c.value)!r}",
            )


# ---------------------------------------------------------------------- undefined-task


def _did_you_mean(name: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, sorted(candidates), n=1)
    return f"; did you mean '{close[0]}'?" if close else ""


def _undefined_task(ctx: _Context) -> Iterator[_Hit]:
    """Calls, method tasks and roots that name nothing: the domain cannot mean them."""
    known = ctx.tasks.keys() | ctx.operators.keys()
    for i, root in enumerate(ctx.spec.roots):
        if root in ctx.tasks:
            continue
        what = (
            "it is an operator; problems start from tasks"
            if root in ctx.operators
            else "no task has that name" + _did_you_mean(root, ctx.tasks)
        )
        yield _Hit("domain", ctx.spec.name, f"roots[{i}]", f"root '{root}' is not a task: {what}")
    for m in ctx.spec.methods:
        if m.task not in ctx.tasks:
            yield _Hit(
                "method",
                _method_name(m),
                "task",
                f"no task named '{m.task}'{_did_you_mean(m.task, ctx.tasks)}",
            )
    for m, fld, _, name in ctx.calls:
        if name is not None and name not in known:
            yield _Hit(
                "method",
                _method_name(m),
                fld,
                f"'{name}' is neither a task nor an operator{_did_you_mean(name, known)}",
            )


# -------------------------------------------------------------------- reachability


def _call_graph(ctx: _Context) -> nx.DiGraph:
    """Task -> callee for every call of every method of an existing task."""
    import networkx as nx  # 80 ms to import: only when a domain is linted

    g = nx.DiGraph()
    g.add_nodes_from(ctx.tasks)
    g.add_nodes_from(ctx.operators)
    for m, name in ctx.used_names:
        if m.task in ctx.tasks and name in g:
            g.add_edge(m.task, name)
    return g


def _no_roots(ctx: _Context) -> Iterator[_Hit]:
    """Without roots nothing can be said about reachability; say so once."""
    if not ctx.spec.roots:
        yield _Hit(
            "domain",
            ctx.spec.name,
            "roots",
            "no roots are declared, so unreachable tasks cannot be found",
        )


def _unreachable_task(ctx: _Context) -> Iterator[_Hit]:
    """Tasks (and called operators) no root leads to: dead knowledge, or a missing call.

    Operators no method calls at all are left to ``unused-operator``.
    """
    if not ctx.spec.roots:
        return
    import networkx as nx

    g = _call_graph(ctx)
    reached: set[str] = set()
    for root in ctx.spec.roots:
        if root in ctx.tasks:
            reached |= {root, *nx.descendants(g, root)}
    roots = ", ".join(ctx.spec.roots)
    for t in ctx.spec.tasks:
        if t.name not in reached:
            yield _Hit("task", t.name, "", f"not reachable from the roots ({roots})")
    for o in ctx.spec.operators:
        if o.name not in reached and o.name in ctx.called:
            yield _Hit(
                "operator",
                o.name,
                "",
                f"called only from tasks not reachable from the roots ({roots})",
            )


def _task_without_methods(ctx: _Context) -> Iterator[_Hit]:
    """A task with no methods can never be accomplished: every plan through it fails."""
    with_methods = {m.task for m in ctx.spec.methods}
    for t in ctx.spec.tasks:
        if t.name not in with_methods:
            yield _Hit("task", t.name, "", "has no methods, so it can never be accomplished")


def _unused_operator(ctx: _Context) -> Iterator[_Hit]:
    """An operator no method calls is never applied: dead knowledge, or a missing call."""
    for o in ctx.spec.operators:
        if o.name not in ctx.called:
            yield _Hit("operator", o.name, "", "no method calls it")


# ------------------------------------------------------------------ never-applicable


def _conjuncts(node: ast.expr) -> list[ast.expr]:
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [c for v in node.values for c in _conjuncts(v)]
    return [node]


def _fold(ctx: _Context, source: str, scope: list[str]) -> tuple[bool, Any]:
    """(True, value) if ``source`` is constant once constants are inlined, else (False, None).

    Constant means: it reads no variable and calls only primitives that do not use the
    state (standard ones such as ``max``, or pure registered ones).
    """
    try:
        ce: CompiledExpression = compile_expression(
            source, variables=scope, constants=ctx.constants, primitives=ctx.primitives
        )
    except ExpressionError:
        return False, None
    if ce.variables:
        return False, None
    used = [k[3:] for k in ce.namespace if k.startswith("_p_")]
    if any(ctx.primitives[p].uses_state for p in used):
        return False, None
    try:
        return True, ce.evaluate(None, {})
    except Exception:
        return False, None


def _never_applicable(ctx: _Context) -> Iterator[_Hit]:
    """A precondition false by its constants alone makes its method dead weight.

    Usually a constant was tuned past a threshold, or a debugging ``False`` was left in.
    The whole precondition and each ``and``-conjunct are folded; the first conjunct that
    is always false is reported, with the constants it reads.
    """
    for m in ctx.spec.methods:
        src = m.precondition
        if src.strip() == "True":
            continue
        scope = ctx.method_scope(m)
        try:
            tree = ast.parse(src, mode="eval")
        except SyntaxError:
            continue
        parts = _conjuncts(tree.body)
        for node in [tree.body, *parts] if len(parts) > 1 else parts:
            text = ast.get_source_segment(src, node) or src
            constant, value = _fold(ctx, text, scope)
            if not constant or bool(value):
                continue
            used = sorted(
                {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in ctx.constants}
            )
            values = ", ".join(f"{n} = {ctx.constants[n]!r}" for n in used)
            part = "" if text == src else f": '{text}' is always false"
            yield _Hit(
                "method",
                _method_name(m),
                "precondition",
                f"'{src}' can never hold{part}" + (f" ({values})" if values else ""),
            )
            break


# ------------------------------------------------------------ cycle-without-operator


def _nullable_tasks(ctx: _Context) -> set[str]:
    """Tasks that can complete without applying an operator (least fixpoint).

    A task is nullable if some method's subtasks are all nullable compound tasks; an
    empty method makes its task nullable at once.  Preconditions are ignored: the rule
    asks what the knowledge *allows*, so a loop guarded only by state is still reported.
    """
    nullable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for m in ctx.spec.methods:
            if m.task in nullable or m.task not in ctx.tasks or m.subtasks is None:
                continue
            if all(c is not None and c in nullable for c in ctx.callees(m)):
                nullable.add(m.task)
                changed = True
    return nullable


def _canonical(cycle: list[str]) -> tuple[str, ...]:
    i = cycle.index(min(cycle))
    return tuple(cycle[i:] + cycle[:i])


def _cycle_without_operator(ctx: _Context) -> Iterator[_Hit]:
    """Left recursion: a task can come back to itself before any operator is applied.

    Edge T -> U when a method of T calls U after only nullable tasks; a cycle of such
    edges lets total-order forward search decompose forever without changing the state.
    Right recursion (``DrillPths(i)`` -> ``SetupAndDrill(..), DrillPths(i + 1)``) is fine
    because the first subtask acts.
    """
    import networkx as nx

    nullable = _nullable_tasks(ctx)
    g = nx.DiGraph()
    for m in ctx.spec.methods:
        if m.task not in ctx.tasks or m.subtasks is None:
            continue
        for callee in ctx.callees(m):
            if callee is None or callee not in ctx.tasks:
                break
            if g.has_edge(m.task, callee):
                g.edges[m.task, callee]["methods"].append(_method_name(m))
            else:
                g.add_edge(m.task, callee, methods=[_method_name(m)])
            if callee not in nullable:
                break
    cycles = sorted({_canonical(c) for c in nx.simple_cycles(g)})
    for cycle in cycles:
        path = " -> ".join([*cycle, cycle[0]])
        via = sorted(
            {
                m
                for a, b in zip(cycle, cycle[1:] + cycle[:1], strict=True)
                for m in g.edges[a, b]["methods"]
            }
        )
        yield _Hit(
            "task",
            cycle[0],
            "",
            f"{path} can repeat without applying an operator (via {', '.join(via)})",
        )


# ---------------------------------------------------------- uncontrolled-incomplete


def _uncontrolled_incomplete(ctx: _Context) -> Iterator[_Hit]:
    """An uncontrolled agent's move needs its probability and its critic, consistently.

    Without ``weight`` the move has no probability in the expectation; without ``critic``
    the plan cannot be checked against what the agent actually did.  A task mixing such
    moves with the planner's own choices, or without an ``agent`` parameter, cannot be
    told apart as a decision or an external-agent node.
    """
    by_task: dict[str, list[MethodDef]] = {}
    for m in ctx.spec.methods:
        by_task.setdefault(m.task, []).append(m)
    for task, methods in by_task.items():
        uncontrolled = [
            m for m in methods if any(getattr(m, f) is not None for f in UNCONTROLLED_FIELDS)
        ]
        if not uncontrolled:
            continue
        for m in uncontrolled:
            has = ", ".join(f for f in UNCONTROLLED_FIELDS if getattr(m, f) is not None)
            for f in ("weight", "critic"):
                if getattr(m, f) is None:
                    yield _Hit(
                        "method",
                        _method_name(m),
                        f,
                        f"an uncontrolled-agent method (it has {has}) needs a {f}",
                    )
        names = ", ".join(m.name for m in uncontrolled)
        for m in methods:
            if m not in uncontrolled:
                yield _Hit(
                    "method",
                    _method_name(m),
                    "",
                    f"task {task} has uncontrolled-agent methods ({names}) but this "
                    f"one has none of {', '.join(UNCONTROLLED_FIELDS)}",
                )
        t = ctx.tasks.get(task)
        if t is not None and t.agent is None:
            yield _Hit(
                "task",
                task,
                "agent",
                f"has uncontrolled-agent methods ({names}) but names no agent parameter",
            )


# ------------------------------------------------------------------- missing-label

_EXCLUDES: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.GtE, ast.Gt, ast.Eq),
    ast.LtE: (ast.Gt,),
    ast.Gt: (ast.LtE, ast.Lt, ast.Eq),
    ast.GtE: (ast.Lt,),
    ast.Eq: (ast.NotEq, ast.Lt, ast.Gt),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
}
_MIRROR: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.Gt,
    ast.Gt: ast.Lt,
    ast.LtE: ast.GtE,
    ast.GtE: ast.LtE,
    ast.Eq: ast.Eq,
    ast.NotEq: ast.NotEq,
}


def _atoms(source: str) -> list[ast.expr]:
    """The conjuncts of a precondition, chained comparisons split into single ones.

    Conjuncts reading ``view`` are left out: it differs from method to method.
    """
    try:
        body = ast.parse(source, mode="eval").body
    except SyntaxError:
        return []
    atoms: list[ast.expr] = []
    for c in _conjuncts(body):
        if isinstance(c, ast.Compare) and len(c.ops) > 1:
            sides = [c.left, *c.comparators]
            atoms += [ast.Compare(sides[i], [op], [sides[i + 1]]) for i, op in enumerate(c.ops)]
        else:
            atoms.append(c)
    return [
        a for a in atoms if not any(isinstance(n, ast.Name) and n.id == "view" for n in ast.walk(a))
    ]


def _exclusive(a: ast.expr, b: ast.expr) -> bool:
    """Whether two conditions can never both hold in one state (a syntactic check)."""
    if isinstance(a, ast.UnaryOp) and isinstance(a.op, ast.Not):
        return ast.dump(a.operand) == ast.dump(b)
    if isinstance(b, ast.UnaryOp) and isinstance(b.op, ast.Not):
        return ast.dump(b.operand) == ast.dump(a)
    if not (
        isinstance(a, ast.Compare)
        and isinstance(b, ast.Compare)
        and len(a.ops) == 1
        and len(b.ops) == 1
    ):
        return False
    oa, ob = type(a.ops[0]), type(b.ops[0])
    la, ra = ast.dump(a.left), ast.dump(a.comparators[0])
    lb, rb = ast.dump(b.left), ast.dump(b.comparators[0])
    if (la, ra) == (lb, rb):
        return ob in _EXCLUDES.get(oa, ())
    if (la, ra) == (rb, lb) and ob in _MIRROR:
        return _MIRROR[ob] in _EXCLUDES.get(oa, ())
    return False


def _mutually_exclusive(methods: list[MethodDef]) -> bool:
    """True if no two of these methods can be applicable in the same state."""
    atoms = [_atoms(m.precondition) for m in methods]
    return all(any(_exclusive(a, b) for a in xs for b in ys) for xs, ys in combinations(atoms, 2))


def _missing_label(ctx: _Context) -> Iterator[_Hit]:
    """A choice point is shown in explanations; without a label it reads ``Name(args)``.

    A task can be a choice point when it has two or more methods that are not mutually
    exclusive by their preconditions (``i < n()`` against ``i >= n()`` never both apply),
    or a method with bindings (one alternative per value).
    """
    for t in ctx.spec.tasks:
        if t.label.strip():
            continue
        methods = ctx.spec.methods_of(t.name)
        bound = [m.name for m in methods if m.bindings]
        if bound:
            why = f"method {bound[0]} binds variables, one alternative per value"
        elif len(methods) >= 2 and not _mutually_exclusive(methods):
            why = f"{len(methods)} methods that can apply together"
        else:
            continue
        yield _Hit(
            "task",
            t.name,
            "label",
            f"a choice point ({why}) has no label, so explanations show it as "
            f"{t.name}({', '.join(t.params)})",
        )


# --------------------------------------------------------------- a format's own analysis


def _format_findings(ctx: _Context, kinds: frozenset[str], mark: str = "") -> Iterator[_Hit]:
    """The format's own static findings of these kinds (``DomainFormat.lint``), computed
    once per domain: HDDL's relaxed reachability over the domain and its stored problems;
    with ``mark``, those whose kind carries it (``slip:operator``), for another rule."""
    if ctx.format is None or ctx.format.lint is None:
        return
    if ctx.format_hits is None:
        ctx.format_hits = ctx.format.lint(ctx.spec, ctx.problems)
    for kind, name, fld, message in ctx.format_hits:
        if mark and not kind.startswith(mark):
            continue
        kind = kind.removeprefix(mark)
        if kind in kinds and kind in _KINDS:
            yield _Hit(cast("Kind", kind), name, fld, message)


def _never_holds(ctx: _Context) -> Iterator[_Hit]:
    """A predicate a precondition needs that nothing makes true: every step needing it fails."""
    yield from _format_findings(ctx, frozenset(("domain",)))


def _slip(ctx: _Context) -> Iterator[_Hit]:
    """What a format's text shows by itself of a slip (HDDL: an action that needs false
    what it deletes, one that moves one thing and leaves another behind, an idle
    parameter, a call passing one variable twice, a need met for no object's type)."""
    yield from _format_findings(ctx, _KINDS, "slip:")


def _method_never_applies(ctx: _Context) -> Iterator[_Hit]:
    """A method that needs what can never hold, or a step that can never be done, is dead."""
    yield from _format_findings(ctx, frozenset(("method",)))


# ------------------------------------------------------------------------- the table


@dataclass(frozen=True)
class Rule:
    """A lint rule: its name, severity, one line for listings, and the check itself."""

    name: str
    severity: Severity
    description: str
    check: Callable[[_Context], Iterable[_Hit]]

    def run(self, ctx: _Context) -> list[Finding]:
        if ctx.format is not None and self.name in ctx.format.lint_skips:
            return []
        return [
            Finding(self.name, self.severity, h.kind, h.name, h.field, h.message)
            for h in self.check(ctx)
        ]


# A domain written in a package's own language (knowledge.DomainFormat: HDDL) is linted through
# its derived view, with calls read by the format (``call_name``); ``compile`` is the
# format's check of the text instead of compiling expressions, and the rules the format
# lists in ``lint_skips`` do not apply (knowledge.hddl.stored.LINT_SKIPS says why for HDDL).
RULES: tuple[Rule, ...] = (
    Rule(
        "compile",
        "error",
        "the domain compiles: expression syntax and names, arities, effects, templates "
        "(primitives and effects only with a registry)",
        _compile,
    ),
    Rule(
        "constant-type",
        "error",
        "every constant holds a value of its declared type",
        _constant_type,
    ),
    Rule(
        "untyped-constant",
        "warning",
        "every constant declares its type (number, integer, text, flag, ...)",
        _untyped_constant,
    ),
    Rule(
        "undefined-task",
        "error",
        "every call, method task and root names a task or an operator",
        _undefined_task,
    ),
    Rule(
        "no-roots",
        "warning",
        "the domain declares roots, so reachability can be checked",
        _no_roots,
    ),
    Rule(
        "unreachable-task",
        "warning",
        "every task (and called operator) is reachable from a root",
        _unreachable_task,
    ),
    Rule(
        "task-without-methods", "error", "every task has at least one method", _task_without_methods
    ),
    Rule("unused-operator", "warning", "every operator is called by some method", _unused_operator),
    Rule(
        "never-holds",
        "error",
        "every predicate a precondition needs is added by an action or held initially "
        "(HDDL, over the stored problems)",
        _never_holds,
    ),
    Rule(
        "method-never-applies",
        "warning",
        "every method can apply: what it needs can hold and its steps can be done (HDDL)",
        _method_never_applies,
    ),
    Rule(
        "slip",
        "warning",
        "the text shows no slip by itself: nothing needed false that the same action "
        "deletes, no move that leaves one thing behind, no idle parameter, no call passing "
        "one variable twice (HDDL)",
        _slip,
    ),
    Rule(
        "never-applicable",
        "warning",
        "no precondition is false by its constants alone",
        _never_applicable,
    ),
    Rule(
        "cycle-without-operator",
        "error",
        "no recursion can repeat without applying an operator",
        _cycle_without_operator,
    ),
    Rule(
        "uncontrolled-incomplete",
        "warning",
        "uncontrolled-agent methods have weight and critic, fill their task, which has an agent",
        _uncontrolled_incomplete,
    ),
    Rule(
        "missing-label",
        "warning",
        "every possible choice point has a label",
        _missing_label,
    ),
)


def lint_domain(
    spec: DomainSpec,
    registry: Registry | None = None,
    *,
    rules: Collection[str] | None = None,
    problems: Sequence[str] = (),
) -> list[Finding]:
    """Every finding of the chosen rules (default: all), errors first, deterministically.

    ``registry`` lets the ``compile`` rule check primitives and effects and lets
    ``never-applicable`` fold calls of pure registered primitives.
    """
    if rules is not None:
        unknown = set(rules) - {r.name for r in RULES}
        if unknown:
            raise ValueError(
                f"unknown lint rule(s) {sorted(unknown)}; rules are {[r.name for r in RULES]}"
            )
    ctx = _Context(spec, registry, problems)
    findings = [f for r in RULES if rules is None or r.name in rules for f in r.run(ctx)]
    return sorted(findings, key=Finding.sort_key)
