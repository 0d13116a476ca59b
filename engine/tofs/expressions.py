"""The safe expression language of knowledge bases.

Preconditions, bindings, weights, costs and call arguments are written in a small subset
of Python expression syntax.  Knowledge files travel between people, so an expression must
never be able to reach Python itself: it is parsed with :mod:`ast`, every node is checked
against a whitelist, names are resolved once (constants are inlined, variables read from the
binding environment, calls go only to registered primitives) and the result is compiled once
into a function whose globals hold no builtins.

The accepted subset:

* literals: numbers, strings, ``True``/``False``/``None``, tuples and lists of expressions;
* arithmetic ``+ - * / // %`` and unary ``- +``;
* comparisons ``== != < <= > >=`` (chained too), ``in`` and ``not in``;
* ``and``, ``or``, ``not`` and the conditional ``a if c else b``;
* names of variables (task parameters and bound variables) and constants;
* calls ``f(a, b)`` where ``f`` is a registered primitive (positional arguments only).

Everything else -- attribute access, subscripts, lambdas, comprehensions, f-strings,
keyword arguments, starred arguments, walrus, ``**``, bit operations, names that start with
an underscore -- is rejected with the construct and its column.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from types import FunctionType
from typing import Any, Protocol

__all__ = [
    "STANDARD_PRIMITIVES",
    "CompiledExpression",
    "Condition",
    "ExpressionError",
    "Primitive",
    "SubexpressionValue",
    "compile_expression",
    "parse_binding",
    "parse_call",
]

_STATE = "_s"
_ENV = "_a"
_PREFIX = "_p_"

_BINOPS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Mod: "%",
}
_CMPOPS = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)
_UNARY = (ast.Not, ast.USub, ast.UAdd)

# What to call a rejected node in an error message: the user wrote Python-looking text and
# should be told in words which construct is not part of the language.
_CONSTRUCT_NAMES: dict[type[ast.AST], str] = {
    ast.Attribute: "attribute access",
    ast.Subscript: "subscript",
    ast.Slice: "slice",
    ast.Lambda: "lambda",
    ast.ListComp: "list comprehension",
    ast.SetComp: "set comprehension",
    ast.DictComp: "dict comprehension",
    ast.GeneratorExp: "generator expression",
    ast.Await: "await",
    ast.Yield: "yield",
    ast.YieldFrom: "yield from",
    ast.NamedExpr: "assignment expression (:=)",
    ast.JoinedStr: "f-string",
    ast.FormattedValue: "f-string",
    ast.Dict: "dict display",
    ast.Set: "set display",
    ast.Starred: "starred argument",
    ast.Pow: "power operator (**)",
    ast.BitAnd: "bitwise and (&)",
    ast.BitOr: "bitwise or (|)",
    ast.BitXor: "bitwise xor (^)",
    ast.LShift: "shift (<<)",
    ast.RShift: "shift (>>)",
    ast.MatMult: "matrix multiplication (@)",
    ast.Invert: "bitwise not (~)",
    ast.Is: "identity test (is)",
    ast.IsNot: "identity test (is not)",
    ast.Import: "import",
    ast.ImportFrom: "import",
}


class ExpressionError(ValueError):
    """An expression is not in the language, or names something that does not exist.

    ``column`` is 1-based within the expression's own text; ``where`` says which method,
    operator or field it came from so that a message can point a knowledge engineer at it.
    """

    def __init__(
        self, message: str, *, source: str, column: int, construct: str = "", where: str = ""
    ) -> None:
        self.message = message
        self.source = source
        self.column = column
        self.construct = construct
        self.where = where
        super().__init__(self.__str__())

    def located(self, where: str) -> ExpressionError:
        """The same error, told where it was found."""
        return ExpressionError(
            self.message,
            source=self.source,
            column=self.column,
            construct=self.construct,
            where=where,
        )

    def __str__(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        pointer = " " * (self.column - 1) + "^"
        return f"{prefix}{self.message} (column {self.column})\n    {self.source}\n    {pointer}"


@dataclass(frozen=True)
class Primitive:
    """A Python function a knowledge base may call from its expressions.

    ``uses_state`` primitives receive the planner's current state as their first argument
    without the author writing it: ``features_left()`` runs as ``features_left(state)``.
    """

    name: str
    fn: Callable[..., Any]
    uses_state: bool = True
    doc: str = ""
    params: tuple[str, ...] = ()

    @property
    def signature(self) -> str:
        return f"{self.name}({', '.join(self.params)})"


def _std(name: str, fn: Callable[..., Any], params: tuple[str, ...], doc: str) -> Primitive:
    return Primitive(name, fn, uses_state=False, doc=doc, params=params)


STANDARD_PRIMITIVES: Mapping[str, Primitive] = {
    p.name: p
    for p in (
        _std("abs", abs, ("x",), "Absolute value of x."),
        _std("min", min, ("a", "b", "..."), "Smallest argument, or smallest item of one sequence."),
        _std("max", max, ("a", "b", "..."), "Largest argument, or largest item of one sequence."),
        _std("round", round, ("x", "digits"), "x rounded half to even, to digits places."),
        _std("len", len, ("items",), "Number of items."),
        _std("sum", sum, ("items",), "Sum of the items."),
        _std("floor", math.floor, ("x",), "Largest integer <= x."),
        _std("ceil", math.ceil, ("x",), "Smallest integer >= x."),
    )
}


@dataclass(frozen=True)
class SubexpressionValue:
    """One sub-expression of a failed condition and the value it had."""

    text: str
    value: Any


class Condition(Protocol):
    """What the search needs of a precondition, a binding generator or a subtask argument.

    :class:`CompiledExpression` is the knowledge language's own; a package whose knowledge
    is written in another language (HDDL's formulas) brings objects with the same three
    members, so the search and its explanations treat both alike.  A binding generator may
    also offer ``explain_empty(state, env)``, answering like ``explain_false`` why it
    produced no value at all.

    A condition whose parts were written elsewhere than where they are checked (HDDL pulls
    an action's precondition up into its method) may also offer ``explain_blame(state,
    env)``: like ``explain_false`` (``explain_empty`` for a binding generator), with a third
    item, the :class:`~engine.tofs.results.Blame` saying where the failing part was written
    (or None), which the failure keeps and every renderer shows in place of its own words.
    """

    @property
    def source(self) -> str: ...

    def evaluate(self, state: Any, env: Mapping[str, Any]) -> Any: ...

    def explain_false(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue]]: ...


@dataclass(frozen=True)
class CompiledExpression:
    """An expression checked and compiled once; call :meth:`evaluate` as often as needed."""

    source: str
    variables: frozenset[str]
    fn: Callable[[Any, Mapping[str, Any]], Any] = field(repr=False, compare=False)
    tree: ast.Expression = field(repr=False, compare=False)
    namespace: Mapping[str, Any] = field(repr=False, compare=False)
    _node_fns: dict[int, Callable[[Any, Mapping[str, Any]], Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def evaluate(self, state: Any, env: Mapping[str, Any]) -> Any:
        return self.fn(state, env)

    def explain_false(
        self, state: Any, env: Mapping[str, Any]
    ) -> tuple[str, list[SubexpressionValue]]:
        """Find the smallest sub-condition that made this condition false.

        Walks ``and``/``or``/``not`` on the slow path (only called after the fast
        evaluation said false), and returns the failing part's text together with the
        values of the names, calls and operands it looked at.
        """
        node = self.tree.body
        negated = False
        while True:
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                node, negated = node.operand, not negated
                continue
            if isinstance(node, ast.BoolOp):
                want_false = isinstance(node.op, ast.And) != negated
                if want_false:
                    # "a and b" is false: the first false conjunct is the reason;
                    # "not (a or b)" is false: the first true disjunct is.
                    culprit = next(
                        (v for v in node.values if bool(self._eval_node(v, state, env)) == negated),
                        None,
                    )
                    if culprit is not None:
                        node = culprit
                        continue
                # "a or b" false: every disjunct failed; report the whole disjunction.
            break
        text = ast.get_source_segment(self.source, node) or self.source
        if negated:
            text = f"not ({text})"
        return text, self._operand_values(node, state, env)

    def _eval_node(self, node: ast.expr, state: Any, env: Mapping[str, Any]) -> Any:
        # Each sub-tree is compiled once: the search asks why a precondition failed at
        # every node where it fails, and compiling is most of the cost of answering.
        fn = self._node_fns.get(id(node))  # the node lives in self.tree: its id is stable
        if fn is None:
            expr = ast.Expression(body=_Resolver.rewrite_copy(node, self))
            fn = self._node_fns[id(node)] = _make_function(expr, self.namespace)
        return fn(state, env)

    def _operand_values(
        self, node: ast.expr, state: Any, env: Mapping[str, Any]
    ) -> list[SubexpressionValue]:
        seen: dict[str, Any] = {}
        for sub in _interesting_operands(node):
            text = ast.get_source_segment(self.source, sub)
            if text is None or text in seen:
                continue
            try:
                seen[text] = self._eval_node(sub, state, env)
            except Exception as exc:
                seen[text] = f"<{type(exc).__name__}: {exc}>"
        return [SubexpressionValue(k, v) for k, v in seen.items()]


def _interesting_operands(node: ast.expr) -> Iterator[ast.expr]:
    """Operands worth showing a user: comparison sides, names and calls (not callee names)."""
    if isinstance(node, ast.Compare):
        for part in (node.left, *node.comparators):
            if not isinstance(part, ast.Constant):
                yield part
            yield from _interesting_operands(part)
        return
    children = node.args if isinstance(node, ast.Call) else ast.iter_child_nodes(node)
    for child in children:
        if isinstance(child, ast.expr):
            if isinstance(child, (ast.Name, ast.Call, ast.BinOp)):
                yield child
            yield from _interesting_operands(child)
    if isinstance(node, (ast.Name, ast.Call)):
        yield node


def _column(node: ast.AST, source: str) -> int:
    """1-based column in characters (ast's col_offset counts UTF-8 bytes)."""
    offset = getattr(node, "col_offset", 0)
    return len(source.encode("utf-8")[:offset].decode("utf-8", errors="replace")) + 1


# Limits on what one expression may be.  Each one is far beyond any knowledge base written
# (the bundled ones have expressions under 300 characters, numbers under 10 digits and
# nesting under 10 levels) and far below what would exhaust the machine: Python's parser,
# checker and compiler recurse once per level of nesting (a sum of 50,000 terms is 50,000
# levels) and a 5,000-digit literal is refused by ``int`` itself.  Past a limit the error
# says which limit, so a generated or damaged file is told what was refused.
MAX_LENGTH = 2000
MAX_DIGITS = 100
MAX_DEPTH = 100

_DIGITS = re.compile(r"(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?")
_STRING = re.compile(r"""[rRbBuUfF]{0,2}('[^'\\]*(?:\\.[^'\\]*)*'?|"[^"\\]*(?:\\.[^"\\]*)*"?)""")
_WORD = re.compile(r"[^\W\d]\w*")


def _shortened(source: str, limit: int = 60) -> str:
    """An expression as an error quotes it: whole when short, else its start."""
    return source if len(source) <= limit else source[: limit - 3] + "..."


def _check_size(source: str) -> None:
    """Refuse a number literal too long, or an expression too long, before parsing.

    Digits are looked for outside strings (a string of digits is text, not a number) and
    outside names (``x2`` is a name); the scan is one pass of regular expressions.  The
    literal is checked first: a 5,000-digit number is told as that, not as a long text.
    """
    i = 0
    while i < len(source):
        string = _STRING.match(source, i)
        if string is not None:
            i = string.end()
            continue
        word = _WORD.match(source, i)
        if word is not None:
            i = word.end()
            continue
        digits = _DIGITS.match(source, i)
        if digits is not None:
            count = sum(c.isdigit() for c in digits.group())
            if count > MAX_DIGITS:
                raise ExpressionError(
                    f"number literal of {count} digits, at most {MAX_DIGITS}",
                    source=_shortened(source),
                    column=i + 1 if i < 60 else 1,
                    construct="number too long",
                )
            i = digits.end()
            continue
        i += 1
    if len(source) > MAX_LENGTH:
        raise ExpressionError(
            f"expression too long: {len(source)} characters, at most {MAX_LENGTH}",
            source=_shortened(source),
            column=1,
            construct="too long",
        )


def _check_depth(tree: ast.Expression, source: str) -> None:
    """Refuse a tree nested deeper than :data:`MAX_DEPTH`, walking it without recursion
    (the checker, resolver and compiler after it do recurse).  An operator chain counts
    one level per operator: ``a + b + c`` is ``(a + b) + c``."""
    stack: list[tuple[ast.AST, int]] = [(tree.body, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            column = _column(node, source)
            raise ExpressionError(
                f"expression nested deeper than {MAX_DEPTH} levels (each operator, call, "
                "list or 'not' is a level)",
                source=_shortened(source),
                column=column if column <= 60 else 1,
                construct="nested too deep",
            )
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))


def _parse(source: str) -> ast.Expression:
    if not isinstance(source, str):
        raise ExpressionError(
            f"an expression must be text, not {type(source).__name__}",
            source=str(source),
            column=1,
            construct="non-text",
        )
    if "\n" in source or "\r" in source:
        col = min(i for i in (source.find("\n"), source.find("\r")) if i >= 0) + 1
        raise ExpressionError(
            "an expression must fit on one line",
            source=source.replace("\n", " "),
            column=col,
            construct="line break",
        )
    if not source.strip():
        raise ExpressionError(
            "expected an expression, found nothing",
            source=source,
            column=1,
            construct="empty expression",
        )
    _check_size(source)
    try:
        tree = ast.parse(source, mode="eval")
    except (MemoryError, RecursionError):  # the parser's own stack (not within the limits)
        raise ExpressionError(
            "expression too deeply nested for the parser",
            source=_shortened(source),
            column=1,
            construct="nested too deep",
        ) from None
    except SyntaxError as exc:
        col = exc.offset or 0
        detail = exc.msg
        if "invalid syntax" in detail:
            detail = "invalid syntax"
        if col <= 0 or col > len(source):
            # CPython reports offset 0 when the text stops mid-expression ("x > ").
            col = len(source.rstrip()) + 1
            detail = "the expression ends too early" if detail == "invalid syntax" else detail
        raise ExpressionError(
            f"syntax error: {detail}", source=source, column=max(col, 1), construct="syntax"
        ) from None
    _check_depth(tree, source)
    return tree


class _Checker(ast.NodeVisitor):
    """Rejects every node that is not in the language, with its name and column."""

    def __init__(self, source: str) -> None:
        self.source = source

    def reject(self, node: ast.AST, construct: str, message: str | None = None) -> None:
        raise ExpressionError(
            message or f"{construct} is not allowed in an expression",
            source=self.source,
            column=_column(node, self.source),
            construct=construct,
        )

    def generic_visit(self, node: ast.AST) -> None:
        name = _CONSTRUCT_NAMES.get(type(node), type(node).__name__)
        self.reject(node, name)

    def visit_Expression(self, node: ast.Expression) -> None:
        self.visit(node.body)

    def visit_Constant(self, node: ast.Constant) -> None:
        if not isinstance(node.value, (int, float, str, bool, type(None))) or isinstance(
            node.value, complex
        ):
            self.reject(node, f"{type(node.value).__name__} literal")

    def visit_Name(self, node: ast.Name) -> None:
        if node.id.startswith("_"):
            kind = "dunder name" if node.id.startswith("__") else "name starting with '_'"
            self.reject(node, kind, f"{kind} '{node.id}' is not allowed in an expression")

    def _visit_all(self, nodes: list[ast.expr]) -> None:
        for child in nodes:
            self.visit(child)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        self._visit_all(node.elts)

    def visit_List(self, node: ast.List) -> None:
        self._visit_all(node.elts)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if type(node.op) not in _BINOPS:
            self.reject(node, _CONSTRUCT_NAMES.get(type(node.op), type(node.op).__name__))
        self.visit(node.left)
        self.visit(node.right)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if not isinstance(node.op, _UNARY):
            self.reject(node, _CONSTRUCT_NAMES.get(type(node.op), type(node.op).__name__))
        self.visit(node.operand)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        self._visit_all(node.values)

    def visit_Compare(self, node: ast.Compare) -> None:
        for op in node.ops:
            if not isinstance(op, _CMPOPS):
                self.reject(node, _CONSTRUCT_NAMES.get(type(op), type(op).__name__))
        self.visit(node.left)
        self._visit_all(node.comparators)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.visit(node.test)
        self.visit(node.body)
        self.visit(node.orelse)

    def visit_Call(self, node: ast.Call) -> None:
        if not isinstance(node.func, ast.Name):
            self.reject(
                node, "call of a non-name", "only registered primitives can be called, by name"
            )
        if node.keywords:
            kw = node.keywords[0]
            self.reject(
                kw,
                "keyword argument",
                "keyword arguments are not allowed; pass arguments by position",
            )
        self.visit(node.func)
        self._visit_all(node.args)


class _Resolver(ast.NodeTransformer):
    """Turns checked user names into the compiled form: inlined constants, env reads, primitives."""

    def __init__(
        self,
        source: str,
        variables: Collection[str],
        constants: Mapping[str, Any],
        primitives: Mapping[str, Primitive],
    ) -> None:
        self.source = source
        self.variables = variables
        self.constants = constants
        self.primitives = primitives
        self.used_vars: set[str] = set()
        self.used_prims: dict[str, Primitive] = {}

    @classmethod
    def rewrite_copy(cls, node: ast.expr, compiled: CompiledExpression) -> ast.expr:
        """Re-resolve a sub-tree of an already compiled expression (for explanations)."""
        resolver = cls(
            compiled.source,
            compiled.variables,
            compiled.namespace.get("__constants__", {}),
            compiled.namespace.get("__primitives__", {}),
        )
        copy = ast.parse(ast.unparse(node), mode="eval").body
        resolved: ast.expr = resolver.visit(copy)  # an expression is rewritten to one
        return ast.fix_missing_locations(resolved)

    def visit_Name(self, node: ast.Name) -> ast.expr:
        name = node.id
        if name in self.variables:
            self.used_vars.add(name)
            return ast.copy_location(
                ast.Subscript(
                    value=ast.Name(_ENV, ast.Load()), slice=ast.Constant(name), ctx=ast.Load()
                ),
                node,
            )
        if name in self.constants:
            return ast.copy_location(ast.Constant(self.constants[name]), node)
        if name in ("True", "False", "None"):  # pragma: no cover - parsed as Constant
            return node
        if name in self.primitives:
            raise ExpressionError(
                f"primitive '{name}' must be called: write {name}(...)",
                source=self.source,
                column=_column(node, self.source),
                construct="bare primitive",
            )
        raise ExpressionError(
            f"unknown name '{name}': not a parameter, bound variable or constant",
            source=self.source,
            column=_column(node, self.source),
            construct="unknown name",
        )

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        # Checked after constants are inlined, so `greeting * 9` is caught like `"hi" * 9`.
        self.generic_visit(node)
        guard = _SIZE_GUARDS.get(type(node.op))
        if guard is None:
            return node
        construct, _ = guard
        sized = [node.left, node.right] if isinstance(node.op, ast.Mult) else [node.left]
        for operand in sized:
            if _is_sized(operand):
                raise ExpressionError(
                    f"{construct} is not allowed in an expression: it builds a value whose "
                    "size the expression chooses",
                    source=self.source,
                    column=_column(operand, self.source),
                    construct=construct,
                )
        if all(_is_number(o) for o in (node.left, node.right)):
            return node
        # An operand known only at run time (a parameter, a bound variable, a call) may
        # still hold text taken from a problem file: check it where it is evaluated.
        return ast.copy_location(
            ast.Call(
                func=ast.Name(_GUARD_PREFIX + type(node.op).__name__, ast.Load()),
                args=[node.left, node.right],
                keywords=[],
            ),
            node,
        )

    def visit_Call(self, node: ast.Call) -> ast.expr:
        assert isinstance(node.func, ast.Name)
        name = node.func.id
        prim = self.primitives.get(name)
        if prim is None:
            what = (
                "a variable"
                if name in self.variables
                else ("a constant" if name in self.constants else "not a registered primitive")
            )
            raise ExpressionError(
                f"cannot call '{name}': {what}",
                source=self.source,
                column=_column(node, self.source),
                construct="call of unregistered function",
            )
        self.used_prims[name] = prim
        args = [self.visit(a) for a in node.args]
        if prim.uses_state:
            args.insert(0, ast.Name(_STATE, ast.Load()))
        return ast.copy_location(
            ast.Call(func=ast.Name(_PREFIX + name, ast.Load()), args=args, keywords=[]), node
        )


_SIZED_TYPES = (str, bytes, tuple, list)
_GUARD_PREFIX = "_g_"


class SizeGuardError(ValueError):
    """An operand known only at run time was text or a sequence under `*` or `%`."""


def _guarded_mult(a: Any, b: Any) -> Any:
    for x in (a, b):
        if isinstance(x, _SIZED_TYPES):
            raise SizeGuardError(
                f"repetition (*) of {type(x).__name__} is not allowed in an expression"
            )
    return a * b


def _guarded_mod(a: Any, b: Any) -> Any:
    if isinstance(a, _SIZED_TYPES):
        raise SizeGuardError(
            f"formatting with % on {type(a).__name__} is not allowed in an expression"
        )
    return a % b


# Operators that turn text or a sequence into a larger one chosen by an operand, so that a
# knowledge file could exhaust memory: repetition (`"a" * n`, `(0,) * n`) and %-formatting
# (`"%0999999d" % 1`).  Each has a name for messages and a guard for run-time operands.
_SIZE_GUARDS: dict[type[ast.operator], tuple[str, Callable[[Any, Any], Any]]] = {
    ast.Mult: ("repetition of text or a sequence (*)", _guarded_mult),
    ast.Mod: ("string formatting (%)", _guarded_mod),
}
_GUARDS = {_GUARD_PREFIX + op.__name__: fn for op, (_, fn) in _SIZE_GUARDS.items()}


def _is_sized(node: ast.expr) -> bool:
    """Statically text or a sequence (a literal, an inlined constant, a display)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, _SIZED_TYPES)
    if isinstance(node, (ast.Tuple, ast.List)):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _is_sized(node.left) or _is_sized(node.right)
    return False


def _is_number(node: ast.expr) -> bool:
    """Statically a number: a numeric literal or arithmetic on numeric literals."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp):
        return _is_number(node.operand)
    if isinstance(node, ast.BinOp):
        return _is_number(node.left) and _is_number(node.right)
    return False


def _make_function(
    expr: ast.Expression, namespace: Mapping[str, Any]
) -> Callable[[Any, Mapping[str, Any]], Any]:
    lam = ast.Expression(
        body=ast.Lambda(
            args=ast.arguments(
                posonlyargs=[],
                args=[ast.arg(_STATE), ast.arg(_ENV)],
                vararg=None,
                kwonlyargs=[],
                kw_defaults=[],
                kwarg=None,
                defaults=[],
            ),
            body=expr.body,
        )
    )
    ast.fix_missing_locations(lam)
    code = compile(lam, "<knowledge expression>", "eval")
    used = {n.id for n in ast.walk(lam) if isinstance(n, ast.Name)}
    glb: dict[str, Any] = {"__builtins__": {}}
    glb.update({k: fn for k, fn in _GUARDS.items() if k in used})
    glb.update({k: v for k, v in namespace.items() if k.startswith(_PREFIX)})
    fn = eval(code, glb)
    assert isinstance(fn, FunctionType)
    return fn


def compile_expression(
    source: str,
    *,
    variables: Collection[str] = (),
    constants: Mapping[str, Any] | None = None,
    primitives: Mapping[str, Primitive] | None = None,
    where: str = "",
) -> CompiledExpression:
    """Check ``source`` against the language and compile it.

    ``variables`` are the names the expression may read from its environment (task
    parameters, bound variables); ``constants`` are inlined; ``primitives`` are the only
    callables.  Raises :class:`ExpressionError` naming the construct and its column.
    """
    constants = constants or {}
    primitives = dict(STANDARD_PRIMITIVES) if primitives is None else primitives
    try:
        tree = _parse(source)
        _Checker(source).visit(tree)
        resolver = _Resolver(source, frozenset(variables), constants, primitives)
        body = resolver.visit(ast.parse(source, mode="eval").body)
    except ExpressionError as exc:
        if not where:
            raise
        raise exc.located(where) from exc
    namespace: dict[str, Any] = {_PREFIX + n: p.fn for n, p in resolver.used_prims.items()}
    namespace["__constants__"] = constants
    namespace["__primitives__"] = primitives
    fn = _make_function(ast.Expression(body=body), namespace)
    return CompiledExpression(
        source=source,
        variables=frozenset(resolver.used_vars),
        fn=fn,
        tree=tree,
        namespace=namespace,
    )


def parse_call(source: str, *, where: str = "") -> tuple[str, list[str]]:
    """Split a task or operator call ``Name(arg, arg)`` into its name and argument sources.

    The arguments are returned as text so that each can be compiled as an expression with
    the right variables in scope.
    """
    try:
        tree = _parse(source)
        body = tree.body
        if isinstance(body, ast.Name):
            return body.id, []
        if not isinstance(body, ast.Call) or not isinstance(body.func, ast.Name):
            raise ExpressionError(
                "expected a task or operator call such as Name(arg, ...)",
                source=source,
                column=_column(body, source),
                construct="not a call",
            )
        if body.keywords:
            raise ExpressionError(
                "keyword arguments are not allowed in a task call",
                source=source,
                column=_column(body.keywords[0], source),
                construct="keyword argument",
            )
        args = []
        for arg in body.args:
            text = ast.get_source_segment(source, arg)
            if isinstance(arg, ast.Starred) or text is None:
                raise ExpressionError(
                    "starred argument is not allowed",
                    source=source,
                    column=_column(arg, source),
                    construct="starred argument",
                )
            args.append(text)
        return body.func.id, args
    except ExpressionError as exc:
        if not where:
            raise
        raise exc.located(where) from exc


def parse_binding(source: str, *, where: str = "") -> tuple[str, str]:
    """Split a binding ``VAR in generator_expression`` into the variable and the generator."""
    try:
        tree = _parse(source)
        body = tree.body
        if (
            not isinstance(body, ast.Compare)
            or len(body.ops) != 1
            or not isinstance(body.ops[0], ast.In)
            or not isinstance(body.left, ast.Name)
        ):
            raise ExpressionError(
                "expected a binding of the form VAR in expression",
                source=source,
                column=_column(body, source),
                construct="not a binding",
            )
        if body.left.id.startswith("_"):
            raise ExpressionError(
                f"variable name '{body.left.id}' may not start with '_'",
                source=source,
                column=_column(body.left, source),
                construct="name starting with '_'",
            )
        gen = ast.get_source_segment(source, body.comparators[0])
        assert gen is not None
        return body.left.id, gen
    except ExpressionError as exc:
        if not where:
            raise
        raise exc.located(where) from exc
