"""The knowledge editor's fields: what each item kind shows, how each field is checked live,
and how a filled-in form becomes the item dict the store's ``edit`` takes.

Kept free of Textual on purpose: the checks must agree with the engine's compiler (they call
the same ``compile_expression``, ``parse_call``, ``parse_binding`` and ``Template.compile``
with the same names in scope as :func:`engine.tofs.compile_domain`), and that is easiest to
see -- and test -- without a running app.  The form widget is then only a view of this.
"""

from __future__ import annotations

import json
import re
from collections.abc import Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from engine.tofs.domain import IMPLICIT_METHOD_NAMES, Template, constant_problem
from engine.tofs.expressions import (
    STANDARD_PRIMITIVES,
    ExpressionError,
    Primitive,
    compile_expression,
    parse_binding,
    parse_call,
)
from engine.tofs.model import ConstantDef, DomainSpec, MethodDef, TaskDef, is_identifier
from engine.tofs.registry import Registry
from workbench.kb.store import find_item as store_find_item

__all__ = [
    "EXPRESSION_KINDS",
    "EditContext",
    "FieldError",
    "FieldSpec",
    "FormError",
    "FormValues",
    "ItemRef",
    "build_value",
    "check_form",
    "fields_for",
    "find_item",
    "item_values",
    "method_scope",
    "placeholder_for",
    "primitive_near",
    "scope_of",
    "word_at_end",
]

Kind = Literal["constant", "task", "method", "operator", "test"]
FieldKind = Literal[
    "text",
    "params",
    "agent",
    "template",
    "expr",
    "binding",
    "call",
    "operator_call",
    "cost",
    "effect",
    "json",
    "value",
    "number",
    "flag",
]
FormValues = dict[str, "str | list[str] | bool"]
"""What a form holds: one text per field, a list of texts for list fields, a bool for flags."""

# Fields whose text is (or contains) expressions: these get autocomplete and primitive help.
EXPRESSION_KINDS: frozenset[str] = frozenset(
    ("template", "expr", "binding", "call", "operator_call", "cost")
)

_WORD_END = re.compile(r"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*$")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_COST = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*:(.*)$", re.S)


@dataclass(frozen=True)
class ItemRef:
    """One editable item, named as the store names it (methods are ``Task.Method``)."""

    kind: Kind
    name: str

    @property
    def title(self) -> str:
        return f"{self.kind} {self.name}"


@dataclass(frozen=True)
class FieldSpec:
    """One field of a form: the model field it edits and how its text is read and checked."""

    key: str
    label: str
    kind: FieldKind
    many: bool = False  # one input per entry (bindings, subtasks, costs)
    optional: bool = False  # empty text means "not set" (None)
    placeholder: str = ""

    @property
    def is_expression(self) -> bool:
        return self.kind in EXPRESSION_KINDS


@dataclass(frozen=True)
class FieldError:
    """Why a field's text is not acceptable; ``column`` is 1-based within that text."""

    message: str
    column: int | None = None

    def __str__(self) -> str:
        return f"{self.message} (column {self.column})" if self.column else self.message


class FormError(ValueError):
    """The form cannot even be turned into an item (bad JSON, a number that is not one)."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("; ".join(problems))


class _AnyPrimitive(dict[str, Primitive]):
    """Primitives of a domain without a registry: every call is assumed to be one.

    The store does not compile such domains either, so the live check must not be
    stricter than the save; unknown bare names are still reported.
    """

    def __init__(self) -> None:
        super().__init__(STANDARD_PRIMITIVES)

    def get(self, key: str, default: Any = None) -> Primitive:
        return super().get(key) or Primitive(key, _never, uses_state=True)

    def __getitem__(self, key: str) -> Primitive:
        return self.get(key)


def _never(*args: Any) -> Any:  # pragma: no cover - never evaluated by the editor
    raise RuntimeError("the editor does not evaluate expressions")


@dataclass
class EditContext:
    """Everything the checks and completions of one domain need, built once per load."""

    domain: str
    spec: DomainSpec
    primitives: Mapping[str, Primitive]
    effects: frozenset[str] | None  # None: unknown (no registry), so not checked
    docs: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (signature, doc)
    # The domain's registry (None: not bundled): its value types and constant rules check
    # a constant's value as it is typed, as the store will on save.
    registry: Registry | None = None

    @classmethod
    def build(
        cls,
        domain: str,
        spec: DomainSpec,
        registry: Registry | None,
        stored_docs: Iterable[Mapping[str, Any]] = (),
    ) -> EditContext:
        """From the domain's registry (when it is bundled) and the store's primitive table."""
        docs = {str(r["name"]): (str(r["signature"]), str(r["doc"] or "")) for r in stored_docs}
        if registry is not None:
            for p in registry.primitive_docs():
                docs.setdefault(p.name, (p.signature, p.doc))
            return cls(
                domain, spec, registry.primitives, frozenset(registry.effects), docs, registry
            )
        for p in STANDARD_PRIMITIVES.values():
            docs.setdefault(p.name, (p.signature, p.doc))
        return cls(domain, spec, _AnyPrimitive(), None, docs)

    @property
    def constants(self) -> dict[str, Any]:
        return self.spec.constant_values()

    @property
    def task_params(self) -> dict[str, list[str]]:
        return {t.name: list(t.params) for t in self.spec.tasks}

    @property
    def operator_params(self) -> dict[str, list[str]]:
        return {o.name: list(o.params) for o in self.spec.operators}

    def words(self, scope: Sequence[str], calls_first: bool = False) -> list[str]:
        """Completion candidates, most likely first: calls lead in subtask fields."""
        callables = [*self.task_params, *self.operator_params]
        rest = [*scope, *sorted(self.constants), *sorted(self.docs or self.primitives)]
        ordered = [*callables, *rest] if calls_first else [*rest, *callables]
        return list(dict.fromkeys(ordered))


# ------------------------------------------------------------------ fields per kind

_METHOD_HEAD = (
    # A template over the task's parameters and the method's bindings: the reader's view
    # of an explanation names the alternative by it.
    FieldSpec("label", "Label", "template"),
    FieldSpec("description", "Description", "text"),
    FieldSpec("bindings", "Bindings", "binding", many=True, placeholder="VAR in expression"),
    FieldSpec("precondition", "Precondition", "expr", placeholder="(empty: always applies)"),
)
_METHOD_TAIL = (
    FieldSpec("weight", "Weight", "expr", optional=True, placeholder="(controlled agent)"),
    FieldSpec("assumption", "Assumption", "text", optional=True),
    FieldSpec("critic", "Critic", "text", optional=True),
    FieldSpec("belief_view", "Belief view", "text", optional=True),
)
FIELDS: dict[str, tuple[FieldSpec, ...]] = {
    "constant": (
        FieldSpec("value", "Value", "value", placeholder="0.05, true or text"),
        FieldSpec(
            "type", "Type", "text", optional=True, placeholder="number, integer, text or flag"
        ),
        FieldSpec("unit", "Unit", "text"),
        FieldSpec("description", "Description", "text"),
    ),
    "task": (
        FieldSpec("params", "Parameters", "params", placeholder="a, b"),
        FieldSpec("agent", "Agent", "agent", optional=True, placeholder="(none)"),
        FieldSpec("label", "Label", "template"),
        FieldSpec("description", "Description", "text"),
        FieldSpec("partial_plan_prune", "Partial-plan prune", "flag"),
    ),
    "operator": (
        FieldSpec("params", "Parameters", "params", placeholder="a, b"),
        FieldSpec("precondition", "Precondition", "expr", placeholder="(empty: always applies)"),
        FieldSpec("effect", "Effect", "effect", optional=True, placeholder="(none)"),
        FieldSpec("costs", "Costs", "cost", many=True, placeholder="component: expression"),
        FieldSpec("group", "Group", "text"),
        FieldSpec("description", "Description", "template"),
    ),
    "test": (
        FieldSpec("problem", "Problem", "text"),
        FieldSpec("description", "Description", "text"),
        FieldSpec("options", "Options", "json", placeholder="{}"),
        FieldSpec("expect", "Expect", "json"),
        FieldSpec("tolerance", "Tolerance", "number"),
    ),
}


def placeholder_for(spec: FieldSpec, ref: ItemRef, ctx: EditContext) -> str:
    """The dim example an empty field shows, from the item's own domain: a label field
    shows a label of the same kind that the domain already has ("e.g. Spray photoresist"),
    never another package's words; without one, what a label is."""
    if spec.kind != "template" or spec.key != "label":
        return spec.placeholder
    items: list[TaskDef] | list[MethodDef] = (
        ctx.spec.tasks if ref.kind == "task" else ctx.spec.methods if ref.kind == "method" else []
    )
    for item in items:
        label = getattr(item, "label", "")
        if label and getattr(item, "name", None) != ref.name.rpartition(".")[2]:
            return f"e.g. {label}"
    return "e.g. words, with {parameter} where its value goes"


def fields_for(ref: ItemRef, item: Any) -> tuple[FieldSpec, ...]:
    """The fields of an item; a method shows subtasks or its operator call, as it has."""
    if ref.kind != "method":
        return FIELDS[ref.kind]
    body = (
        FieldSpec("operator", "Operator call", "operator_call")
        if item.operator is not None
        else FieldSpec("subtasks", "Subtasks", "call", many=True, placeholder="Task(args)")
    )
    return (*_METHOD_HEAD, body, *_METHOD_TAIL)


def find_item(spec: DomainSpec, ref: ItemRef) -> Any | None:
    """The item ``ref`` names in ``spec``, or None if it is not (or no longer) there."""
    return store_find_item(spec, ref.kind, ref.name)


# ------------------------------------------------------------------ item <-> form


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        try:  # a text that would read back as a number or flag is shown quoted
            json.loads(value)
        except ValueError:
            return value
    return json.dumps(value)


def item_values(ref: ItemRef, item: Any) -> FormValues:
    """The form's initial texts for an item."""
    out: FormValues = {}
    for spec in fields_for(ref, item):
        raw = getattr(item, spec.key)
        if spec.kind == "flag":
            out[spec.key] = bool(raw)
        elif spec.kind == "params":
            out[spec.key] = ", ".join(raw)
        elif spec.kind == "cost":
            out[spec.key] = [f"{k}: {v}" for k, v in raw.items()]
        elif spec.many:
            out[spec.key] = list(raw)
        elif spec.kind == "json":
            out[spec.key] = json.dumps(raw)
        elif spec.kind == "value":
            out[spec.key] = _value_text(raw)
        elif spec.kind == "number":
            out[spec.key] = repr(raw)
        else:
            out[spec.key] = "" if raw is None else str(raw)
    return out


def _text(values: FormValues, key: str) -> str:
    v = values.get(key, "")
    return v if isinstance(v, str) else ""


def _entries(values: FormValues, key: str) -> list[str]:
    v = values.get(key, [])
    return [e for e in v if e.strip()] if isinstance(v, list) else []


def _params(text: str) -> list[str]:
    return [p.strip() for p in text.split(",") if p.strip()]


def _parse_value(text: str) -> bool | int | float | str:
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, (bool, int, float, str)) else text


def build_value(ref: ItemRef, item: Any, values: FormValues) -> dict[str, Any]:
    """The item dict for ``store.edit``; raises :class:`FormError` if a text cannot be read.

    Only reading happens here; whether the item is *valid* is the store's decision (its
    validator compiles the whole domain), so the live checks are advice, never a gate.
    """
    out: dict[str, Any] = item.model_dump(mode="json")
    problems: list[str] = []
    for spec in fields_for(ref, item):
        key = spec.key
        if spec.kind == "flag":
            out[key] = bool(values.get(key, False))
        elif spec.kind == "params":
            out[key] = _params(_text(values, key))
        elif spec.kind == "cost":
            costs: dict[str, str] = {}
            for entry in _entries(values, key):
                m = _COST.match(entry)
                if m is None:
                    problems.append(f"{spec.label}: '{entry}' is not 'component: expression'")
                    continue
                costs[m.group(1)] = m.group(2).strip()
            out[key] = costs
        elif spec.many:
            out[key] = [e.strip() for e in _entries(values, key)]
        elif spec.kind == "json":
            try:
                out[key] = json.loads(_text(values, key) or "{}")
            except ValueError as exc:
                problems.append(f"{spec.label}: not JSON ({exc})")
        elif spec.kind == "value":
            out[key] = _parse_value(_text(values, key))
        elif spec.kind == "number":
            try:
                out[key] = float(_text(values, key))
            except ValueError:
                problems.append(f"{spec.label}: '{_text(values, key)}' is not a number")
        else:
            text = _text(values, key)
            stripped = text.strip()
            if spec.kind in ("expr", "operator_call", "effect", "agent"):
                text = stripped
            out[key] = None if spec.optional and not stripped else text
    if problems:
        raise FormError(problems)
    return out


# ------------------------------------------------------------------ live checks


def _expr(text: str, scope: Sequence[str], ctx: EditContext, offset: int = 0) -> FieldError | None:
    try:
        compile_expression(
            text, variables=scope, constants=ctx.constants, primitives=ctx.primitives
        )
    except ExpressionError as exc:
        return FieldError(exc.message, exc.column + offset)
    return None


def _template(text: str, scope: Sequence[str], ctx: EditContext) -> FieldError | None:
    if not text:
        return None
    try:
        Template.compile(text, list(scope), ctx.constants, ctx.primitives)
    except ExpressionError as exc:
        return FieldError(exc.message, exc.column)
    return None


def _call(
    text: str, scope: Sequence[str], ctx: EditContext, operator_only: bool
) -> FieldError | None:
    """As ``compile_domain`` checks a call: parse, callee, arity, then each argument."""
    try:
        name, args = parse_call(text)
    except ExpressionError as exc:
        return FieldError(exc.message, exc.column)
    tasks, operators = ctx.task_params, ctx.operator_params
    if name in tasks:
        arity, is_op = len(tasks[name]), False
    elif name in operators:
        arity, is_op = len(operators[name]), True
    else:
        return FieldError(f"'{name}' is neither a task nor an operator", 1)
    if operator_only and not is_op:
        return FieldError(
            f"'{name}' is a task, not an operator; a method calling tasks lists them as subtasks", 1
        )
    if len(args) != arity:
        return FieldError(f"'{name}' takes {arity} argument(s), {len(args)} given", 1)
    at = text.find("(") + 1
    for arg in args:
        at = text.find(arg, at)
        err = _expr(arg, scope, ctx, offset=max(at, 0))
        if err is not None:
            return err
        at += len(arg)
    return None


def _params_error(text: str) -> FieldError | None:
    seen: set[str] = set()
    for m in re.finditer(r"[^,]+", text):
        name = m.group().strip()
        if not name:
            continue
        column = m.start() + len(m.group()) - len(m.group().lstrip()) + 1
        if not is_identifier(name):
            return FieldError(
                f"'{name}' is not a name (a letter, then letters, digits or _)", column
            )
        if name in seen:
            return FieldError(f"'{name}' is listed twice", column)
        seen.add(name)
    return None


def method_scope(ctx: EditContext, task: str, bindings: Sequence[str]) -> list[str]:
    """Task parameters, ``view`` and ``assumptions``, then every parsable binding's variable."""
    scope = [*ctx.task_params.get(task, []), *IMPLICIT_METHOD_NAMES]
    for b in bindings:
        try:
            var, _ = parse_binding(b)
        except ExpressionError:
            continue
        if var not in scope:
            scope.append(var)
    return scope


def scope_of(ref: ItemRef, item: Any, ctx: EditContext, values: FormValues) -> list[str]:
    """The variables an expression field of this form may read, from the form's own texts."""
    if ref.kind == "method":
        return method_scope(ctx, item.task, _entries(values, "bindings"))
    if ref.kind in ("task", "operator"):
        return _params(_text(values, "params"))
    return []


def _check_one(
    spec: FieldSpec, text: str, scope: Sequence[str], ctx: EditContext, params: Container[str]
) -> FieldError | None:
    kind = spec.kind
    stripped = text.strip()
    if spec.optional and not stripped:
        return None
    if kind == "expr":
        return _expr(text, scope, ctx)
    if kind == "template":
        return _template(text, scope, ctx)
    if kind in ("call", "operator_call"):
        return _call(text, scope, ctx, kind == "operator_call")
    if kind == "cost":
        m = _COST.match(text)
        if m is None:
            return FieldError("write 'component: expression', e.g. 'setup: 5'", 1)
        expression = m.group(2)
        lead = len(expression) - len(expression.lstrip())
        return _expr(expression.strip(), scope, ctx, offset=m.start(2) + lead)
    if kind == "params":
        return _params_error(text)
    if kind == "agent":
        return (
            None
            if stripped in params
            else FieldError(f"'{stripped}' is not one of the parameters", 1)
        )
    if kind == "effect" and ctx.effects is not None and stripped not in ctx.effects:
        return FieldError(f"no effect function '{stripped}' is registered", 1)
    if kind == "json":
        try:
            value = json.loads(text or "{}")
        except json.JSONDecodeError as exc:
            return FieldError(f"not JSON: {exc.msg}", exc.colno)
        if not isinstance(value, dict):
            return FieldError('expected a JSON object such as {"found": true}', 1)
    if kind == "number":
        try:
            float(text)
        except ValueError:
            return FieldError(f"'{text}' is not a number", 1)
    return None


def check_form(
    ref: ItemRef, item: Any, ctx: EditContext, values: FormValues
) -> dict[tuple[str, int | None], FieldError]:
    """Every field's problem, keyed by (field, entry index or None), as the user types.

    Bindings are checked in order, each generator seeing only the variables bound before
    it, exactly as the compiler does; later fields see all of them.
    """
    problems: dict[tuple[str, int | None], FieldError] = {}
    scope = scope_of(ref, item, ctx, values)
    params = _params(_text(values, "params"))
    for spec in fields_for(ref, item):
        if spec.kind == "flag":
            continue
        if spec.kind == "binding":
            bound = [*ctx.task_params.get(item.task, []), *IMPLICIT_METHOD_NAMES]
            raw = values.get(spec.key, [])
            for i, text in enumerate(raw if isinstance(raw, list) else []):
                if not text.strip():
                    continue
                err = _binding(text, bound, ctx)
                if err is not None:
                    problems[(spec.key, i)] = err
            continue
        if spec.many:
            raw = values.get(spec.key, [])
            for i, text in enumerate(raw if isinstance(raw, list) else []):
                if text.strip():
                    err = _check_one(spec, text, scope, ctx, params)
                    if err is not None:
                        problems[(spec.key, i)] = err
            continue
        err = _check_one(spec, _text(values, spec.key), scope, ctx, params)
        if err is not None:
            problems[(spec.key, None)] = err
    if ref.kind == "constant":
        problems.update(_constant_problem(ref, ctx, values))
    return problems


def _constant_problem(
    ref: ItemRef, ctx: EditContext, values: FormValues
) -> dict[tuple[str, int | None], FieldError]:
    """A constant's value against its declared type (and its Python reader's rule), as
    the store checks it on save: ``abc`` in a number shows beside the field at once."""
    declared = _text(values, "type").strip() or None
    try:
        constant = ConstantDef(
            name=ref.name, value=_parse_value(_text(values, "value")), type=declared
        )
    except ValueError:
        return {}
    found = constant_problem(constant, ctx.registry)
    if found is None:
        return {}
    key, why = found
    return {(key, None): FieldError(why)}


def _binding(text: str, bound: list[str], ctx: EditContext) -> FieldError | None:
    """Check one binding and, if it is good, add its variable to ``bound`` (in place)."""
    try:
        var, gen = parse_binding(text)
    except ExpressionError as exc:
        return FieldError(exc.message, exc.column)
    if var in bound:
        return FieldError(f"'{var}' is already bound", 1)
    err = _expr(gen, bound, ctx, offset=max(text.rfind(gen), 0))
    bound.append(var)
    return err


# ------------------------------------------------------------------ words and primitives


def word_at_end(text: str) -> tuple[int, str] | None:
    """(start, word) of the identifier the text ends with, if it ends with one."""
    m = _WORD_END.search(text)
    return (m.start(), m.group()) if m else None


def _calls(text: str) -> Iterator[str]:
    """The name of every ``name(`` in the text, in order."""
    for m in _WORD.finditer(text):
        if text[m.end() :].lstrip().startswith("("):
            yield m.group()


def primitive_near(text: str, cursor: int, names: Container[str]) -> str | None:
    """The primitive to explain for an input: the word at the cursor if it is one, else the
    innermost primitive call around the cursor, else the last primitive called."""
    for m in _WORD.finditer(text):
        if m.start() <= cursor <= m.end() and m.group() in names:
            return m.group()
    open_calls: list[str | None] = []
    for i, ch in enumerate(text[:cursor]):
        if ch == "(":
            before = _WORD_END.search(text[:i].rstrip())
            open_calls.append(before.group() if before else None)
        elif ch == ")" and open_calls:
            open_calls.pop()
    for name in reversed(open_calls):
        if name is not None and name in names:
            return name
    last = [name for name in _calls(text) if name in names]
    return last[-1] if last else None
