"""Compile a :class:`DomainSpec` with its :class:`Registry` into what the search runs.

Compilation checks everything a run would otherwise trip over -- expression syntax, names
of tasks, operators, primitives, effects and constants, and arity -- and reports *all*
problems at once, each with where it is (method, field, column).  It happens once per run,
so a knowledge engineer's edit changes the next run and costs nothing during search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, overload

from .definitions import DomainDefinition, MethodDefinition, OperatorDefinition, TaskDefinition
from .expressions import (
    CompiledExpression,
    Condition,
    ExpressionError,
    compile_expression,
    parse_binding,
    parse_call,
)
from .registry import Registry, default_state_key
from .value_types import BUILTIN_TYPES, type_problem

if TYPE_CHECKING:
    from .model import ConstantDef, DomainSpec

__all__ = [
    "Domain",
    "DomainError",
    "EvaluationError",
    "KnowledgeProblem",
    "Problem",
    "compile_domain",
    "constant_problem",
]

# Names every method expression may read besides its parameters and bound variables.
IMPLICIT_METHOD_NAMES = ("view", "assumptions")

Mode = Literal["optimise", "game", "first"]
"""How a problem is searched: minimum cost, a decision tree against other agents, or the
first plan found."""

Task = tuple[str, tuple[Any, ...]]
"""A ground task: its name and argument values (hashable, so task lists can key tables)."""


@dataclass(frozen=True)
class KnowledgeProblem:
    """One thing wrong with a domain, said where it is."""

    where: str
    field: str
    message: str
    column: int | None = None

    def __str__(self) -> str:
        col = f", column {self.column}" if self.column else ""
        return f"{self.where} [{self.field}{col}]: {self.message}"


def constant_problem(c: ConstantDef, registry: Registry | None) -> tuple[str, str] | None:
    """(field, what is wrong) with a constant: a value its Python reader's rule refuses, a
    value not of its declared type, or a type nobody defines.  Without a registry (the
    linter on a domain alone) only the built-in types can be checked."""
    rule = registry.constant_rules.get(c.name) if registry is not None else None
    wrong = rule.problem(c.value) if rule is not None else None
    if wrong is not None:
        return "value", wrong
    extra = registry.value_types if registry is not None else {}
    if c.type is None or (registry is None and c.type not in BUILTIN_TYPES):
        return None
    wrong = type_problem(c.type, c.value, extra)
    if wrong is None:
        return None
    return ("value" if c.type in BUILTIN_TYPES or c.type in extra else "type"), wrong


class DomainError(ValueError):
    """A domain did not compile; ``problems`` lists every reason."""

    def __init__(self, domain: str, problems: list[KnowledgeProblem]) -> None:
        self.domain = domain
        self.problems = problems
        lines = "\n".join(f"  - {p}" for p in problems)
        super().__init__(f"domain '{domain}' has {len(problems)} problem(s):\n{lines}")


class EvaluationError(ValueError):
    """An expression or template of the knowledge raised while it was evaluated or filled
    in (a precondition, a cost, a method's label): says which one and where.  A broken
    label used to be swallowed (the bare call text shown instead), so a knowledge engineer
    never learnt that it never showed; it is a knowledge error like any other."""

    def __init__(self, where: str, field: str, source: str, error: BaseException) -> None:
        self.where, self.field, self.source, self.error = where, field, source, error
        super().__init__(f"{where} [{field}]: `{source}` raised {type(error).__name__}: {error}")


# Values a format spec is tried on when a template is compiled: a spec none of them takes
# ("{x:q}") can never be filled in, whatever the field's value.
_SPEC_SAMPLES: tuple[object, ...] = (0, 0.0, "")


def _spec_usable(spec: str) -> bool:
    for sample in _SPEC_SAMPLES:
        try:
            format(sample, spec)
        except (ValueError, TypeError):
            continue
        return True
    return False


class Template:
    """A description template: text with ``{expression}`` or ``{expression:format}`` fields.

    Fields are expressions of the knowledge language (parameters, constants, registered
    primitives), so an operator can say "Rough drill at ({x(H)}, {y(H)})" without any
    Python in the knowledge file.  ``{{`` and ``}}`` stand for literal braces.
    """

    def __init__(
        self, text: str, parts: list[tuple[str, CompiledExpression | None, str]], uses_state: bool
    ) -> None:
        self.text = text
        self.parts = parts  # (literal text before, field or None, format spec)
        self.uses_state = uses_state  # False: the text depends on the arguments alone

    @classmethod
    def compile(
        cls,
        text: str,
        variables: tuple[str, ...] | list[str],
        constants: Mapping[str, Any],
        primitives: Mapping[str, Any],
    ) -> Template:
        parts: list[tuple[str, CompiledExpression | None, str]] = []
        literal: list[str] = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch in "{}" and text[i : i + 2] in ("{{", "}}"):
                literal.append(ch)
                i += 2
                continue
            if ch == "}":
                raise ExpressionError(
                    "single '}' in a template; write '}}' for a brace",
                    source=text,
                    column=i + 1,
                    construct="template",
                )
            if ch != "{":
                literal.append(ch)
                i += 1
                continue
            end = text.find("}", i)
            if end < 0:
                raise ExpressionError(
                    "'{' without a closing '}'", source=text, column=i + 1, construct="template"
                )
            field_text = text[i + 1 : end]
            expr_text, _, spec = field_text.partition(":")
            try:
                expr = compile_expression(
                    expr_text.strip(),
                    variables=variables,
                    constants=constants,
                    primitives=primitives,
                )
            except ExpressionError as exc:
                raise ExpressionError(
                    f"in template field {{{field_text}}}: {exc.message}",
                    source=text,
                    column=i + 1 + exc.column,
                    construct=exc.construct,
                ) from None
            if spec and not _spec_usable(spec):
                raise ExpressionError(
                    f"in template field {{{field_text}}}: '{spec}' is not a format spec "
                    "(as in {x:.2f} or {name:>8})",
                    source=text,
                    column=i + 2 + len(expr_text),
                    construct="template",
                )
            parts.append(("".join(literal), expr, spec))
            literal = []
            i = end + 1
        parts.append(("".join(literal), None, ""))
        uses_state = any(
            primitives[name[3:]].uses_state
            for _, expr, _ in parts
            if expr is not None
            for name in expr.namespace
            if name.startswith("_p_")
        )
        return cls(text, parts, uses_state)

    def render(self, state: Any, env: Mapping[str, Any], fmt: Callable[[Any], str]) -> str:
        """The text with every field filled in; raises what a field's expression or its
        format raises (the caller knows whose template it is: :class:`EvaluationError`)."""
        out = []
        for literal, expr, spec in self.parts:
            out.append(literal)
            if expr is not None:
                value = expr.evaluate(state, env)
                out.append(format(value, spec) if spec else fmt(value))
        return "".join(out)


@dataclass(slots=True)
class Call:
    """A compiled task or operator call inside a method."""

    name: str
    is_operator: bool
    args: tuple[Condition, ...]
    source: str


@dataclass(slots=True, eq=False)
class Method:
    spec: MethodDefinition
    name: str
    index: int
    # A binding fills one variable, or several at once (a tuple of names) from a generator
    # of tuples -- HDDL's match of a precondition against the state binds them together.
    bindings: tuple[tuple[str | tuple[str, ...], Condition], ...]
    precondition: Condition | None
    subtasks: tuple[Call, ...] | None
    operator: Call | None
    weight: Condition | None
    # The method's label template ("Set up a {suit_word(suit_of(C))} discard"), filled in
    # with its bindings for the reader's view of an explanation: the knowledge's own words
    # for what an alternative does, so rewording a label rewords the explanation.
    label: Template | None = None


@dataclass(slots=True, eq=False)
class Operator:
    spec: OperatorDefinition
    name: str
    params: tuple[str, ...]
    precondition: Condition | None
    effect: Callable[..., Any] | None
    costs: tuple[tuple[str, Condition], ...]
    description: Template | None = None


@dataclass(slots=True, eq=False)
class TaskInfo:
    spec: TaskDefinition
    name: str
    params: tuple[str, ...]
    agent_index: int | None
    methods: list[Method] = field(default_factory=list)
    label: Template | None = None


@dataclass(eq=False)
class Domain:
    """A compiled domain: what the search needs, looked up by name."""

    spec: DomainDefinition
    registry: Registry
    constants: Mapping[str, Any]
    tasks: dict[str, TaskInfo]
    operators: dict[str, Operator]

    @overload
    def hook(self, kind: str, default: None = None) -> Callable[..., Any] | None: ...
    @overload
    def hook(self, kind: str, default: Callable[..., Any]) -> Callable[..., Any]: ...
    def hook(
        self, kind: str, default: Callable[..., Any] | None = None
    ) -> Callable[..., Any] | None:
        return self.registry.hooks.get(kind, default)

    @property
    def state_key(self) -> Callable[[Any], Any]:
        return self.registry.hooks.get("state_key", default_state_key)

    def constant(self, name: str, default: Any = None) -> Any:
        return self.constants.get(name, default)

    def task_label(self, task: Task, state: Any = None) -> str:
        """The task as a user reads it: its label template filled in, or Name(args).

        Without a state (a task named apart from where it is planned: a choice point's
        heading) a label that reads the state may fail to fill in, and Name(args) stands
        for it; any other failure of the template is the knowledge's error, raised as a
        :class:`EvaluationError` naming the task."""
        name, args = task
        info = self.tasks.get(name)
        fmt = self.registry.hooks.get("format_value", _fmt)
        if info is not None and info.label is not None:
            label = info.label
            try:
                return label.render(state, dict(zip(info.params, args, strict=True)), fmt)
            except Exception as exc:
                if state is None and label.uses_state:
                    return call_text(name, args, fmt)
                raise EvaluationError(
                    f"task {call_text(name, args, fmt)}", "label", label.text, exc
                ) from exc
        return call_text(name, args, fmt)

    def operator_description(self, name: str, args: tuple[Any, ...], state: Any = None) -> str:
        """The operator's description template filled in for these arguments and state
        (Name(args) when there is no state for a template that reads it, as for task
        labels; a template that fails otherwise raises a :class:`EvaluationError` naming
        the operator)."""
        op = self.operators[name]
        fmt = self.registry.hooks.get("format_value", _fmt)
        if op.description is not None:
            template = op.description
            try:
                return template.render(state, dict(zip(op.params, args, strict=True)), fmt)
            except Exception as exc:
                if state is None and template.uses_state:
                    return call_text(name, args, fmt)
                raise EvaluationError(
                    f"operator {call_text(name, args, fmt)}", "description", template.text, exc
                ) from exc
        return call_text(name, args, fmt)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def call_text(name: str, args: tuple[Any, ...], fmt: Callable[[Any], str] = _fmt) -> str:
    return f"{name}({', '.join(fmt(a) for a in args)})"


@dataclass(frozen=True)
class Problem:
    """What to plan: a starting state and a task list, for one domain.

    ``options`` are the search options this kind of problem needs by default (EDAPS: stop
    at the first task no method can do); a caller's own options take precedence.
    """

    name: str
    state: Any
    tasks: tuple[Task, ...]
    mode: Mode = "optimise"
    description: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    # What must hold when the task list is done (HDDL's ``:goal``): a leaf whose state
    # fails it is a dead end, not a plan.
    goal: Condition | None = None
    # Whether the goal can still hold once these tasks are done, from this state (a cheap
    # over-approximation: False only where it never can): a node where it cannot is a
    # dead end at once, not at the leaf (HDDL: a goal literal no remaining task adds).
    goal_reach: Callable[[Any, tuple[Task, ...]], bool] | None = None
    # Which alternatives of a task to try first: the tasks whose alternatives are ranked,
    # and the rank of an alternative's new steps (higher first; equal ranks keep their
    # order).  HDDL: steps that a goal atom's way fixes by their arguments
    # (``knowledge.hddl.goal_reach.goal_order``).  The order changes which plan comes
    # first, never which plans exist.
    goal_order: tuple[frozenset[str], Callable[[tuple[Task, ...]], int]] | None = None


def compile_domain(spec: DomainSpec, registry: Registry) -> Domain:
    """Compile and cross-check a domain; raise :class:`DomainError` listing every problem."""
    problems: list[KnowledgeProblem] = []
    constants = spec.constant_values()
    prims = registry.primitives

    # A knowledge base repeats itself (EDAPS: 321 expressions, 140 different): the same
    # source with the same variables in scope compiles to the same function, so each is
    # compiled once -- a third of a headless plan's compile time.  Only successes are
    # kept: a mistake is reported at every place it is written.
    compiled: dict[tuple[str, tuple[str, ...]], CompiledExpression] = {}
    templates: dict[tuple[str, tuple[str, ...]], Template] = {}

    def expr(
        source: str, variables: tuple[str, ...] | list[str], where: str, fld: str
    ) -> CompiledExpression | None:
        key = (source, tuple(variables))
        if key in compiled:
            return compiled[key]
        try:
            compiled[key] = compile_expression(
                source, variables=variables, constants=constants, primitives=prims
            )
        except ExpressionError as exc:
            problems.append(
                KnowledgeProblem(where, fld, f"{exc.message}: {exc.source}", exc.column)
            )
            return None
        return compiled[key]

    def template(text: str, variables: list[str], where: str, fld: str) -> Template | None:
        if not text:
            return None
        key = (text, tuple(variables))
        if key in templates:
            return templates[key]
        try:
            templates[key] = Template.compile(text, variables, constants, prims)
            return templates[key]
        except ExpressionError as exc:
            problems.append(
                KnowledgeProblem(where, fld, f"{exc.message}: {exc.source}", exc.column)
            )
            return None

    def maybe_true(c: CompiledExpression | None, source: str) -> CompiledExpression | None:
        return None if source.strip() == "True" else c

    for c in spec.constants:
        if c.name in prims:
            problems.append(
                KnowledgeProblem(
                    f"constant {c.name}", "name", "the name is also a registered primitive"
                )
            )
        found = constant_problem(c, registry)
        if found is not None:
            problems.append(KnowledgeProblem(f"constant {c.name}", *found))

    operators: dict[str, Operator] = {}
    for o in spec.operators:
        where = f"operator {o.name}"
        pre = expr(o.precondition, o.params, where, "precondition")
        costs = []
        for comp, src in o.costs.items():
            ce = expr(src, o.params, where, f"costs.{comp}")
            if ce is not None:
                costs.append((comp, ce))
        effect = None
        if o.effect is not None:
            effect = registry.effects.get(o.effect)
            if effect is None:
                problems.append(
                    KnowledgeProblem(
                        where,
                        "effect",
                        f"no effect function '{o.effect}' is registered in '{registry.name}'",
                    )
                )
        operators[o.name] = Operator(
            o,
            o.name,
            tuple(o.params),
            maybe_true(pre, o.precondition),
            effect,
            tuple(costs),
            template(o.description, o.params, where, "description"),
        )

    tasks: dict[str, TaskInfo] = {}
    for t in spec.tasks:
        agent_index = t.params.index(t.agent) if t.agent else None
        tasks[t.name] = TaskInfo(
            t,
            t.name,
            tuple(t.params),
            agent_index,
            label=template(t.label, t.params, f"task {t.name}", "label"),
        )

    def call(source: str, scope: list[str], where: str, fld: str) -> Call | None:
        try:
            name, arg_srcs = parse_call(source)
        except ExpressionError as exc:
            problems.append(
                KnowledgeProblem(where, fld, f"{exc.message}: {exc.source}", exc.column)
            )
            return None
        if name in tasks:
            arity, is_op = len(tasks[name].params), False
        elif name in operators:
            arity, is_op = len(operators[name].params), True
        else:
            problems.append(
                KnowledgeProblem(
                    where, fld, f"'{name}' is neither a task nor an operator: {source}"
                )
            )
            return None
        if len(arg_srcs) != arity:
            problems.append(
                KnowledgeProblem(
                    where,
                    fld,
                    f"'{name}' takes {arity} argument(s), {len(arg_srcs)} given: {source}",
                )
            )
            return None
        args = [expr(a, scope, where, fld) for a in arg_srcs]
        if any(a is None for a in args):
            return None
        return Call(name, is_op, tuple(a for a in args if a is not None), source)

    for index, m in enumerate(spec.methods):
        where = f"method {m.task}.{m.name}"
        info = tasks.get(m.task)
        if info is None:
            problems.append(KnowledgeProblem(where, "task", f"no task named '{m.task}'"))
            continue
        scope = [*info.params, *IMPLICIT_METHOD_NAMES]
        bindings = []
        for i, b in enumerate(m.bindings):
            try:
                var, gen_src = parse_binding(b)
            except ExpressionError as exc:
                problems.append(
                    KnowledgeProblem(
                        where, f"bindings[{i}]", f"{exc.message}: {exc.source}", exc.column
                    )
                )
                continue
            if var in scope:
                problems.append(
                    KnowledgeProblem(where, f"bindings[{i}]", f"'{var}' is already bound")
                )
                continue
            gen = expr(gen_src, scope, where, f"bindings[{i}]")
            scope.append(var)
            if gen is not None:
                bindings.append((var, gen))
        pre = expr(m.precondition, scope, where, "precondition")
        label = template(m.label, scope, where, "label")
        weight = expr(m.weight, scope, where, "weight") if m.weight is not None else None
        subtasks = None
        operator = None
        if m.subtasks is not None:
            calls = [call(s, scope, where, f"subtasks[{i}]") for i, s in enumerate(m.subtasks)]
            subtasks = tuple(c for c in calls if c is not None)
        else:
            assert m.operator is not None
            operator = call(m.operator, scope, where, "operator")
            if operator is not None and not operator.is_operator:
                problems.append(
                    KnowledgeProblem(
                        where,
                        "operator",
                        f"'{operator.name}' is a task, not an operator; list it under 'subtasks'",
                    )
                )
        info.methods.append(
            Method(
                m,
                m.name,
                index,
                tuple(bindings),
                maybe_true(pre, m.precondition),
                subtasks,
                operator,
                weight,
                label,
            )
        )

    if problems:
        raise DomainError(spec.name, problems)
    return Domain(spec, registry, constants, tasks, operators)


def make_task(domain: Domain, name: str, *args: Any) -> Task:
    """A ground task for ``domain``, checked for arity (for problems built in Python)."""
    if name in domain.tasks:
        arity = len(domain.tasks[name].params)
    elif name in domain.operators:
        arity = len(domain.operators[name].params)
    else:
        raise KeyError(f"no task or operator named '{name}' in domain '{domain.spec.name}'")
    if len(args) != arity:
        raise TypeError(f"'{name}' takes {arity} argument(s), {len(args)} given")
    return (name, tuple(args))
