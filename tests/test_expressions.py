"""The safe expression compiler (:mod:`engine.tofs.expressions`).

Two properties carry most of the weight:

* nothing outside the documented language gets through -- a forbidden construct embedded
  anywhere in an otherwise accepted expression is rejected, named, and located at the
  column where it starts (counted in characters of the text the author wrote);
* everything inside the language means exactly what Python says it means -- compiled
  evaluation agrees with ``eval`` of the same text, value *and* type, or both raise.

Expected columns are always computed from how a test built its string, never read back
from :mod:`ast`, so a test can catch the compiler reporting the wrong place.
"""

from __future__ import annotations

import ast
import functools
import io
import itertools
import math
import tokenize
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from engine.tofs.expressions import _GUARDS as SIZE_GUARDS
from engine.tofs.expressions import (
    STANDARD_PRIMITIVES,
    CompiledExpression,
    ExpressionError,
    Primitive,
    SubexpressionValue,
    compile_expression,
    parse_binding,
    parse_call,
)

PROPERTY_SETTINGS = settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


# --------------------------------------------------------------------------------------
# The world expressions are compiled in: a state, two state-using primitives, variables
# and constants of known types.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ledger:
    """A stand-in planner state; only the state-using primitives look inside it."""

    base: int
    budget: int | float


def offset(state: Ledger, amount: Any) -> Any:
    """A state-using primitive with an argument: written ``offset(x)``."""
    return amount + state.base


def budget(state: Ledger) -> int | float:
    """A state-using primitive without arguments: written ``budget()``."""
    return state.budget


STATE_PRIMITIVES: dict[str, Primitive] = {
    "offset": Primitive("offset", offset, uses_state=True),
    "budget": Primitive("budget", budget, uses_state=True),
}
PRIMITIVES: dict[str, Primitive] = {**STANDARD_PRIMITIVES, **STATE_PRIMITIVES}

INT_VARIABLES = ("n", "m")
FLOAT_VARIABLES = ("r",)
BOOL_VARIABLES = ("flag",)
STR_VARIABLES = ("word",)
VARIABLES: tuple[str, ...] = (
    *INT_VARIABLES,
    *FLOAT_VARIABLES,
    *BOOL_VARIABLES,
    *STR_VARIABLES,
    "unused",
)
CONSTANT_NAMES = ("K", "RATE", "LABEL", "ON")
#: Constants for tests that only need the names to exist.
SAMPLE_CONSTANTS: dict[str, Any] = {"K": 7, "RATE": 0.5, "LABEL": "lbl", "ON": True}

ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)
FINITE_FLOAT = st.floats(allow_nan=False, allow_infinity=False)

environments = st.fixed_dictionaries(
    {
        "n": st.integers(-1000, 1000),
        "m": st.integers(-1000, 1000),
        "r": ANY_FLOAT,
        "flag": st.booleans(),
        "word": st.text(max_size=4),
        "unused": st.integers(),
    }
)
constant_values = st.fixed_dictionaries(
    {
        "K": st.integers(-(10**6), 10**6),
        "RATE": ANY_FLOAT,
        "LABEL": st.text(max_size=4),
        "ON": st.booleans(),
    }
)
states = st.builds(
    Ledger, base=st.integers(-100, 100), budget=st.one_of(st.integers(-100, 100), FINITE_FLOAT)
)


def compile_in_world(
    source: str, constants: Mapping[str, Any] | None = None, **kwargs: Any
) -> CompiledExpression:
    return compile_expression(
        source,
        variables=VARIABLES,
        constants=SAMPLE_CONSTANTS if constants is None else constants,
        primitives=PRIMITIVES,
        **kwargs,
    )


def python_namespace(
    state: Ledger, env: Mapping[str, Any], constants: Mapping[str, Any]
) -> dict[str, Any]:
    """What plain Python needs to evaluate the same text: every name bound directly."""
    namespace: dict[str, Any] = {name: p.fn for name, p in STANDARD_PRIMITIVES.items()}
    namespace["offset"] = functools.partial(offset, state)
    namespace["budget"] = functools.partial(budget, state)
    namespace.update(constants)
    namespace.update(env)
    return namespace


# --------------------------------------------------------------------------------------
# Comparing outcomes: equal values of the same type (NaN equal to NaN, -0.0 not 0.0), or
# the same exception.
# --------------------------------------------------------------------------------------


def same_value(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@dataclass(frozen=True)
class Outcome:
    value: Any = None
    error: type[BaseException] | None = None
    message: str = ""

    def matches(self, other: Outcome) -> bool:
        if self.error is not None or other.error is not None:
            return self.error is other.error and self.message == other.message
        return same_value(self.value, other.value)


def outcome_of(thunk: Callable[[], Any]) -> Outcome:
    try:
        return Outcome(value=thunk())
    except Exception as exc:
        return Outcome(error=type(exc), message=str(exc))


# --------------------------------------------------------------------------------------
# A generator of accepted expression text.
#
# Every generated sub-expression is wrapped in OPEN...CLOSE markers, and every call
# argument or tuple/list element additionally in SLOT_OPEN...SLOT_CLOSE markers.  Stripping
# the markers gives the expression; replacing one marked region by a forbidden snippet (and
# stripping the rest) embeds the snippet at a position whose column we know by
# construction.  Every composite is an atom (parenthesised or a call), so any region can be
# replaced by any atom without changing how the rest parses.
# --------------------------------------------------------------------------------------

OPEN, CLOSE, SLOT_OPEN, SLOT_CLOSE = "\x01", "\x02", "\x03", "\x04"
_MARKERS = str.maketrans("", "", OPEN + CLOSE + SLOT_OPEN + SLOT_CLOSE)


def plain(marked: str) -> str:
    """The expression text without markers (string literals never hold raw control
    characters: ``repr`` escapes them)."""
    return marked.translate(_MARKERS)


def sub(text: str) -> str:
    return OPEN + text + CLOSE


def slot(text: str) -> str:
    return SLOT_OPEN + text + SLOT_CLOSE


def regions(marked: str, opener: str, closer: str) -> list[tuple[int, int]]:
    """(start, end) index pairs of balanced opener...closer regions."""
    stack: list[int] = []
    found: list[tuple[int, int]] = []
    for i, ch in enumerate(marked):
        if ch == opener:
            stack.append(i)
        elif ch == closer:
            found.append((stack.pop(), i))
    assert not stack
    return found


def splice(marked: str, region: tuple[int, int], snippet: str) -> tuple[str, int]:
    """Replace a marked region by ``snippet``; return the text and the snippet's index."""
    start, end = region
    before = plain(marked[:start])
    return before + snippet + plain(marked[end + 1 :]), len(before)


ARITHMETIC = ("+", "-", "*", "/", "//", "%")
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _signed(text: str, negative: bool) -> str:
    return f"({text})" if negative else text


INT_LITERALS = st.integers(-1000, 1000).map(lambda i: _signed(repr(i), i < 0))
FLOAT_LITERALS = FINITE_FLOAT.map(lambda f: _signed(repr(f), math.copysign(1.0, f) < 0))
STR_LITERALS = st.text(max_size=4).map(repr)


def symbol(ops: Sequence[str]) -> st.SearchStrategy[str]:
    """An operator, spaced or not (keyword operators are always spaced)."""
    return st.sampled_from(ops).flatmap(
        lambda op: st.sampled_from(
            [f" {op} ", op] if op.isascii() and not op.isalpha() and " " not in op else [f" {op} "]
        )
    )


def binary(
    ops: Sequence[str], left: st.SearchStrategy[str], right: st.SearchStrategy[str]
) -> st.SearchStrategy[str]:
    return st.tuples(left, symbol(ops), right).map(lambda t: f"({t[0]}{t[1]}{t[2]})")


def call_of(names: Sequence[str], args: st.SearchStrategy[list[str]]) -> st.SearchStrategy[str]:
    return st.tuples(st.sampled_from(names), args).map(
        lambda t: f"{t[0]}({', '.join(slot(a) for a in t[1])})"
    )


def sequence(
    elements: st.SearchStrategy[str], min_size: int, max_size: int
) -> st.SearchStrategy[str]:
    """A tuple or list display; itself a sub-expression."""

    def render(t: tuple[bool, list[str]]) -> str:
        as_list, items = t
        inner = ", ".join(slot(x) for x in items)
        if as_list:
            return sub(f"[{inner}]")
        return sub(f"({inner},)" if len(items) == 1 else f"({inner})")

    return st.tuples(st.booleans(), st.lists(elements, min_size=min_size, max_size=max_size)).map(
        render
    )


def conditional(
    body: st.SearchStrategy[str], test: st.SearchStrategy[str], orelse: st.SearchStrategy[str]
) -> st.SearchStrategy[str]:
    return st.tuples(body, test, orelse).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})")


def boolean_op(operands: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """``a and b or c ...`` over 2-3 operands (Python's precedence applies to both sides)."""
    return st.tuples(
        operands,
        st.lists(st.tuples(st.sampled_from(["and", "or"]), operands), min_size=1, max_size=2),
    ).map(lambda t: "(" + t[0] + "".join(f" {op} {x}" for op, x in t[1]) + ")")


@functools.cache
def numbers(depth: int) -> st.SearchStrategy[str]:
    """Expressions meant to be numeric (int, float or bool-as-number)."""
    leaves = st.one_of(
        INT_LITERALS,
        FLOAT_LITERALS,
        st.sampled_from([*INT_VARIABLES, *FLOAT_VARIABLES, "K", "RATE", "budget()"]),
    )
    if depth == 0:
        return leaves.map(sub)
    n, b, s = numbers(depth - 1), booleans(depth - 1), texts(depth - 1)
    composite = st.one_of(
        binary(ARITHMETIC, n, n),
        st.tuples(st.sampled_from(["-", "+", "- ", "not "]), n).map(lambda t: f"({t[0]}{t[1]})"),
        call_of(["abs", "offset"], n.map(lambda a: [a])),
        call_of(["min", "max"], st.lists(n, min_size=2, max_size=3)),
        call_of(["min", "max"], sequence(n, 1, 3).map(lambda seq: [seq])),
        call_of(["len"], st.one_of(s, sequence(anything(depth - 1), 0, 3)).map(lambda a: [a])),
        conditional(n, b, n),
        boolean_op(n),
        binary(("+", "-", "*"), b, n),
    )
    return st.one_of(leaves, composite).map(sub)


@functools.cache
def booleans(depth: int) -> st.SearchStrategy[str]:
    """Conditions: comparisons, membership, not/and/or, conditionals."""
    leaves = st.sampled_from(["True", "False", *BOOL_VARIABLES, "ON"])
    if depth == 0:
        return leaves.map(sub)
    n, b, s, a = numbers(depth - 1), booleans(depth - 1), texts(depth - 1), anything(depth - 1)
    chained = st.tuples(n, st.lists(st.tuples(symbol(COMPARISONS), n), min_size=1, max_size=3)).map(
        lambda t: "(" + t[0] + "".join(op + x for op, x in t[1]) + ")"
    )
    composite = st.one_of(
        chained,
        binary(COMPARISONS, s, s),
        binary(("in", "not in"), a, sequence(a, 0, 3)),
        binary(("in", "not in"), s, s),
        b.map(lambda x: f"(not {x})"),
        boolean_op(b),
        conditional(b, b, b),
    )
    return st.one_of(leaves, composite).map(sub)


@functools.cache
def texts(depth: int) -> st.SearchStrategy[str]:
    """String-valued expressions (repetition is not in the language: see the size tests)."""
    leaves = st.one_of(STR_LITERALS, st.sampled_from([*STR_VARIABLES, "LABEL"]))
    if depth == 0:
        return leaves.map(sub)
    s, b = texts(depth - 1), booleans(depth - 1)
    composite = st.one_of(
        binary(("+",), s, s),
        call_of(["min", "max"], st.lists(s, min_size=2, max_size=3)),
        conditional(s, b, s),
        boolean_op(s),
    )
    return st.one_of(leaves, composite).map(sub)


@functools.cache
def anything(depth: int) -> st.SearchStrategy[str]:
    return st.one_of(numbers(depth), booleans(depth), texts(depth))


@functools.cache
def mixed(depth: int) -> st.SearchStrategy[str]:
    """Operators applied across types: these often raise TypeError, on both sides."""
    a = anything(depth - 1)
    return binary(("+", "-", "/", "==", "<", ">="), a, a).map(sub)


_KINDS: dict[str, Callable[[int], st.SearchStrategy[str]]] = {
    "number": numbers,
    "condition": booleans,
    "text": texts,
    "mixed": mixed,
}
#: Marked accepted expressions of every kind (choosing the kind first keeps the mix even;
#: a plain one_of drifts towards the small boolean leaves).
marked_expressions = st.sampled_from(sorted(_KINDS)).flatmap(lambda kind: _KINDS[kind](3))
#: Accepted expression text.
expressions = marked_expressions.map(plain)


def variable_names_in(source: str) -> set[str]:
    """Variables a source mentions, found by the tokenizer (not by the compiler's ast)."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME and t.string in VARIABLES}


# --------------------------------------------------------------------------------------
# 1. Nothing outside the language gets through.
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Forbidden:
    """A snippet holding one forbidden construct.

    ``at`` is where the construct starts inside the snippet (0-based); ``names`` are words
    of which ``ExpressionError.construct`` must contain at least one.
    """

    text: str
    at: int
    names: tuple[str, ...]


#: Forbidden constructs that can stand wherever an operand can.
FORBIDDEN_ATOMS: tuple[Forbidden, ...] = (
    # attribute access, including the classic escape routes
    Forbidden("n.real", 0, ("attribute",)),
    Forbidden("word.__class__", 0, ("attribute",)),
    Forbidden("().__class__.__bases__", 0, ("attribute",)),
    # names starting with an underscore, dunders, the compiled function's own arguments
    Forbidden("__builtins__", 0, ("dunder",)),
    Forbidden("__class__", 0, ("dunder",)),
    Forbidden("_private", 0, ("'_'", "underscore")),
    Forbidden("_s", 0, ("'_'", "underscore")),
    Forbidden("_a", 0, ("'_'", "underscore")),
    Forbidden("_helper(n)", 0, ("'_'", "underscore")),
    Forbidden("__import__('os')", 0, ("dunder",)),
    # lambdas and comprehensions
    Forbidden("(lambda: 1)", 1, ("lambda",)),
    Forbidden("(lambda x: x)", 1, ("lambda",)),
    Forbidden("[c for c in word]", 0, ("list comprehension",)),
    Forbidden("{c for c in word}", 0, ("set comprehension",)),
    Forbidden("{c: 1 for c in word}", 0, ("dict comprehension",)),
    Forbidden("(c for c in word)", 0, ("generator",)),
    # subscripts
    Forbidden("word[0]", 0, ("subscript",)),
    Forbidden("word[1:]", 0, ("subscript",)),
    Forbidden("(n, m)[0]", 0, ("subscript",)),
    # calls of anything but a registered primitive
    Forbidden("open('x')", 0, ("call",)),
    Forbidden("eval('1')", 0, ("call",)),
    Forbidden("getattr(n, 'real')", 0, ("call",)),
    Forbidden("frobnicate(n)", 0, ("call",)),
    Forbidden("n(1)", 0, ("call",)),  # a variable
    Forbidden("K(1)", 0, ("call",)),  # a constant
    Forbidden("(n)(1)", 0, ("call",)),  # a parenthesised variable
    Forbidden("(1)(2)", 0, ("call",)),  # a literal
    Forbidden("abs(n)(1)", 0, ("call",)),  # the result of a call
    Forbidden("(abs if flag else max)(n)", 0, ("call",)),
    Forbidden("(lambda: 1)()", 0, ("call", "lambda")),
    Forbidden("word.upper()", 0, ("call", "attribute")),
    # keyword and double-starred arguments
    Forbidden("max(n, key=abs)", 7, ("keyword",)),
    Forbidden("min(n, m, default=0)", 10, ("keyword",)),
    Forbidden("min(**word)", 4, ("keyword",)),
    # walrus, f-strings
    Forbidden("(y := n)", 1, ("assignment", ":=")),
    Forbidden("f'{n}'", 0, ("f-string",)),
    Forbidden("f'x'", 0, ("f-string",)),
    # power, bit operations, identity
    Forbidden("(n ** 2)", 1, ("**", "power")),
    Forbidden("(n & m)", 1, ("&",)),
    Forbidden("(n | m)", 1, ("|",)),
    Forbidden("(n ^ m)", 1, ("^",)),
    Forbidden("(n << 1)", 1, ("<<",)),
    Forbidden("(n >> 1)", 1, (">>",)),
    Forbidden("(n @ m)", 1, ("@",)),
    Forbidden("(~n)", 1, ("~",)),
    Forbidden("(n is None)", 1, ("identity",)),
    Forbidden("(n is not m)", 1, ("identity",)),
    # displays and literals outside the language
    Forbidden("{1: n}", 0, ("dict",)),
    Forbidden("{n}", 0, ("set",)),
    Forbidden("b'x'", 0, ("bytes",)),
    Forbidden("1j", 0, ("complex",)),
    Forbidden("...", 0, ("ellipsis",)),
    # generator-function and coroutine syntax
    Forbidden("(await n)", 1, ("await",)),
    Forbidden("(yield n)", 1, ("yield",)),
    Forbidden("(yield from word)", 1, ("yield",)),
)

#: Forbidden constructs that can only stand as a call argument or a display element.
FORBIDDEN_STARRED: tuple[Forbidden, ...] = (
    Forbidden("*word", 0, ("starred",)),
    Forbidden("*(n, m)", 0, ("starred",)),
)


def assert_rejected(source: str, column: int, names: Sequence[str]) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    exc = info.value
    assert any(name in exc.construct.lower() for name in names), (
        f"construct {exc.construct!r} for {source!r} should mention one of {names}"
    )
    assert exc.column == column, f"{source!r}: column {exc.column}, expected {column}"
    assert exc.source == source
    return exc


@PROPERTY_SETTINGS
@given(host=marked_expressions, forbidden=st.sampled_from(FORBIDDEN_ATOMS), data=st.data())
def test_a_forbidden_construct_anywhere_is_rejected_at_its_column(
    host: str, forbidden: Forbidden, data: st.DataObject
) -> None:
    """Embedding any forbidden construct as any operand, argument or element is caught."""
    where = data.draw(st.sampled_from(regions(host, OPEN, CLOSE)), label="position")
    source, index = splice(host, where, forbidden.text)
    assert_rejected(source, index + forbidden.at + 1, forbidden.names)


@PROPERTY_SETTINGS
@given(host=marked_expressions, forbidden=st.sampled_from(FORBIDDEN_STARRED), data=st.data())
def test_a_starred_argument_or_element_anywhere_is_rejected_at_its_column(
    host: str, forbidden: Forbidden, data: st.DataObject
) -> None:
    """``*xs`` is rejected whether it is a call argument or a tuple/list element."""
    slots = regions(host, SLOT_OPEN, SLOT_CLOSE)
    if not slots:  # give the host an argument position to put it in
        host = sub(f"max({slot(host)}, {slot('0')})")
        slots = regions(host, SLOT_OPEN, SLOT_CLOSE)
    where = data.draw(st.sampled_from(slots), label="position")
    source, index = splice(host, where, forbidden.text)
    assert_rejected(source, index + forbidden.at + 1, forbidden.names)


@pytest.mark.parametrize(
    ("source", "column", "names"),
    [
        ("n.real", 1, ("attribute",)),
        ("n + word[0]", 5, ("subscript",)),
        ("max(n, key=abs)", 8, ("keyword",)),
        ("abs(*word)", 5, ("starred",)),
        ("(n, *word)", 5, ("starred",)),
        ("[*word]", 2, ("starred",)),
        ("abs(y := n)", 5, ("assignment",)),
        ("f'{n}' == word", 1, ("f-string",)),
        ("2 * n ** 2", 5, ("**", "power")),
        ("n & 1 == 0", 1, ("&",)),
        ("flag is True", 1, ("identity",)),
        ("n + _hidden", 5, ("'_'",)),
        ("__import__('os')", 1, ("dunder",)),
        ("lambda: 0", 1, ("lambda",)),
        ("sum(c for c in word)", 4, ("generator",)),
        ("n(2)", 1, ("call",)),
        ("RATE(2)", 1, ("call",)),
        ("nosuch(2)", 1, ("call",)),
        ("(n)()", 1, ("call",)),
        ("(abs or min)(n)", 1, ("call",)),
    ],
)
def test_examples_of_rejected_constructs(source: str, column: int, names: Sequence[str]) -> None:
    """Hand-checked columns for one instance of each rejected construct."""
    assert_rejected(source, column, names)


@pytest.mark.parametrize(
    ("source", "column", "construct"),
    [
        ('"a" * 100000000', 1, "repetition"),
        ("100000000 * 'a'", 13, "repetition"),
        ("n + (1, 2) * 50000000", 5, "repetition"),
        ("[0] * n", 1, "repetition"),
        ("LABEL * 9", 1, "repetition"),  # a text constant, inlined before the check
        ("(word + 'x') * 3", 2, "repetition"),
        ("'%0999999999d' % n", 1, "formatting"),
        ("LABEL % (n,)", 1, "formatting"),
    ],
)
def test_operators_that_build_a_value_of_the_files_choosing_size_are_refused(
    source: str, column: int, construct: str
) -> None:
    """Like ``**``, repetition and %-formatting could exhaust memory from one line of a
    knowledge file; they are refused when compiled, at the operand that makes them so."""
    assert_rejected(source, column, (construct,))


@pytest.mark.parametrize(
    ("source", "env"),
    [("word * n", {"word": "ab", "n": 100000000}), ("n * word", {"word": "ab", "n": 3})],
)
def test_repetition_of_text_known_only_at_run_time_is_refused_when_evaluated(
    source: str, env: dict[str, Any]
) -> None:
    """A parameter may hold text from a problem file: ``*`` checks it where it runs, and the
    same expression still multiplies numbers."""
    compiled = compile_in_world(source)
    with pytest.raises(ValueError, match=r"repetition \(\*\) of str is not allowed"):
        compiled.evaluate(None, env)
    assert compiled.evaluate(None, {"word": 4, "n": 3}) == 12
    assert compile_in_world("word % n").evaluate(None, {"word": 7, "n": 4}) == 3
    with pytest.raises(ValueError, match="formatting with % on str"):
        compile_in_world("word % n").evaluate(None, {"word": "%d", "n": 4})


def test_a_parenthesised_primitive_name_is_still_that_primitive() -> None:
    """``(abs)(n)`` is ``abs(n)`` to Python's parser, so it is allowed -- and means exactly
    that; only callees that are not plain names count as calls of non-names."""
    assert compile_in_world("(abs)(n)").evaluate(None, {"n": -3}) == 3
    assert compile_in_world("(budget)()").evaluate(Ledger(base=0, budget=8), {}) == 8


def test_rejection_messages_name_the_offending_name() -> None:
    """Calls of variables, constants and unknown functions say which name and why."""
    assert "'n'" in assert_rejected("n(1)", 1, ("call",)).message
    assert "variable" in assert_rejected("n(1)", 1, ("call",)).message
    assert "constant" in assert_rejected("K(1)", 1, ("call",)).message
    assert "'open'" in assert_rejected("open('x')", 1, ("call",)).message
    assert "'__class__'" in assert_rejected("__class__", 1, ("dunder",)).message


def test_column_counts_characters_not_bytes() -> None:
    """Non-ASCII text before a forbidden construct must not shift the reported column."""
    assert_rejected("'é' + n.real", 7, ("attribute",))
    assert_rejected("'日本語' == word[0]", 10, ("subscript",))
    assert_rejected("max('ä', word, key=len)", 16, ("keyword",))
    assert_rejected("'ü' + nosuch(1)", 7, ("call",))


def test_error_text_points_at_the_column() -> None:
    """The rendered message repeats the source and puts the caret under the construct."""
    source = "'é' + n.real"
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source, where="operator Move, precondition")
    exc = info.value
    assert exc.where == "operator Move, precondition"
    lines = str(exc).splitlines()
    assert lines[0].startswith("operator Move, precondition: ")
    assert "(column 7)" in lines[0]
    assert lines[1] == f"    {source}"
    caret = lines[2].index("^") - 4
    assert source[caret : caret + 6] == "n.real"


def test_bare_primitive_and_unknown_name_are_rejected() -> None:
    """A primitive must be called; a name must be a variable or a constant."""
    exc = assert_rejected("n + abs", 5, ("primitive",))
    assert "abs(" in exc.message
    exc = assert_rejected("n > limit", 5, ("unknown",))
    assert "'limit'" in exc.message
    assert_rejected("open", 1, ("unknown",))
    assert_rejected("len", 1, ("primitive",))


@pytest.mark.parametrize(
    ("source", "message", "column"),
    [
        ("import os", "invalid syntax", 1),
        ("from os import path", "invalid syntax", 1),
        ("x = 1", "invalid syntax", 3),
        ("n m", "invalid syntax", 3),
        ("min(n,, m)", "invalid syntax", 7),
        ("(n + 1", "'(' was never closed", 1),
        ("n + 1)", "unmatched ')'", 6),
        ("n if flag", "expected 'else'", 1),
        ("'abc", "unterminated string", 1),
        ("'é' + $", "invalid syntax", 7),
    ],
)
def test_syntax_errors_carry_message_and_column(source: str, message: str, column: int) -> None:
    """Text that is not an expression at all is a syntax error, located where Python says."""
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    assert info.value.construct == "syntax"
    assert message in info.value.message
    assert info.value.column == column


@pytest.mark.parametrize("source", ["n +", "n > ", "not", "abs(n) -", "lambda"])
def test_a_truncated_expression_is_located_where_the_text_ends(source: str) -> None:
    """When the text runs out, the caret goes just past its last character, not to column 1."""
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    assert info.value.construct == "syntax"
    assert info.value.column == len(source.rstrip()) + 1


@PROPERTY_SETTINGS
@given(host=expressions, tail=st.sampled_from([" )", ")", " 1", " ]"]))
def test_trailing_junk_is_a_syntax_error_at_the_junk(host: str, tail: str) -> None:
    """Columns of syntax errors count characters of the author's text, too."""
    source = host + tail
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    assert info.value.construct == "syntax"
    assert info.value.column == len(host) + len(tail)


@PROPERTY_SETTINGS
@given(host=expressions)
def test_a_dangling_operator_is_located_at_the_end(host: str) -> None:
    source = f"{host} +"
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    assert info.value.column == len(source) + 1


@PROPERTY_SETTINGS
@given(first=expressions, second=expressions, brk=st.sampled_from(["\n", "\r\n", "\r"]))
def test_multi_line_input_is_rejected_at_the_line_break(first: str, second: str, brk: str) -> None:
    """Expressions fit on one line; the column is that of the first line break."""
    with pytest.raises(ExpressionError) as info:
        compile_in_world(first + brk + second)
    assert info.value.construct == "line break"
    assert info.value.column == len(first) + 1


@pytest.mark.parametrize("source", ["", " ", "   \t "])
def test_empty_input_is_rejected(source: str) -> None:
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    assert info.value.construct == "empty expression"
    assert info.value.column == 1


@pytest.mark.parametrize("source", [None, 3, b"n + 1", ["n"]])
def test_non_text_input_is_an_expression_error(source: Any) -> None:
    """A knowledge file with a number where text belongs gets a located error, not a crash."""
    with pytest.raises(ExpressionError) as info:
        compile_in_world(source)
    assert info.value.construct == "non-text"


def test_where_is_attached_to_errors_from_every_stage() -> None:
    """Parse, check and name-resolution errors all say where they came from."""
    for source in ("n +", "n.real", "nosuch", "(n", "n\nm"):
        with pytest.raises(ExpressionError) as info:
            compile_in_world(source, where="task T, method m, weight")
        assert info.value.where == "task T, method m, weight"
        assert str(info.value).startswith("task T, method m, weight: ")


# --------------------------------------------------------------------------------------
# 2. Accepted expressions mean what Python says they mean.
# --------------------------------------------------------------------------------------


@PROPERTY_SETTINGS
@given(source=expressions, env=environments, constants=constant_values, state=states)
def test_accepted_expressions_evaluate_exactly_as_python(
    source: str, env: dict[str, Any], constants: dict[str, Any], state: Ledger
) -> None:
    """Same value and type as ``eval`` of the same text, or the same exception."""
    compiled = compile_expression(
        source, variables=VARIABLES, constants=constants, primitives=PRIMITIVES
    )
    ours = outcome_of(lambda: compiled.evaluate(state, env))
    namespace = python_namespace(state, env, constants)
    theirs = outcome_of(lambda: eval(source, {"__builtins__": {}}, namespace))
    event(f"raised {theirs.error.__name__}" if theirs.error else type(theirs.value).__name__)
    assert ours.matches(theirs), f"{source!r}: compiled {ours}, Python {theirs}"


@PROPERTY_SETTINGS
@given(source=expressions)
def test_compiled_variables_are_exactly_the_ones_mentioned(source: str) -> None:
    """``variables`` lists the environment names the expression reads, and no others."""
    compiled = compile_in_world(source)
    assert compiled.variables == variable_names_in(source)
    assert "unused" not in compiled.variables


@PROPERTY_SETTINGS
@given(source=expressions, envs=st.lists(environments, min_size=2, max_size=3), state=states)
def test_one_compilation_serves_many_environments(
    source: str, envs: list[dict[str, Any]], state: Ledger
) -> None:
    """Compile once, evaluate with different bindings: each evaluation sees its own env."""
    compiled = compile_in_world(source)
    namespace_base = python_namespace(state, {}, SAMPLE_CONSTANTS)
    for env in envs:
        ours = outcome_of(functools.partial(compiled.evaluate, state, env))
        theirs = outcome_of(
            functools.partial(eval, source, {"__builtins__": {}}, {**namespace_base, **env})
        )
        assert ours.matches(theirs), f"{source!r} with {env}: {ours} vs {theirs}"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("1 < n < 10", True),
        ("1 < n < 3", False),
        ("n in (1, 5, 9)", True),
        ("word not in ['a', 'b']", True),
        ("'ell' in word", True),
        ("n // 2 + n % 2 * 10", 12),
        ("-n + +m", -3),
        ("not flag or n", 5),
        ("flag and word", "hello"),
        ("LABEL if n > K else word", "hello"),
        ("min(n, m, 3)", 2),
        ("max([n, m])", 5),
        ("len(word) + len((1, 2))", 7),
        ("offset(n)", 105),
        ("budget() / 4", 10.0),
        ("abs(-RATE) * 2", 1.0),
        ("n / 2", 2.5),
        ("None", None),
    ],
)
def test_examples_evaluate_to_hand_computed_values(source: str, expected: Any) -> None:
    """A few hand-computed results, so the language is not only checked against itself."""
    env = {"n": 5, "m": 2, "r": 0.0, "flag": True, "word": "hello", "unused": 0}
    compiled = compile_in_world(source)
    assert same_value(compiled.evaluate(Ledger(base=100, budget=40), env), expected)


def test_state_primitive_receives_the_state_first() -> None:
    """``uses_state`` primitives get the state without the author writing it; others do not."""
    calls: list[tuple[Any, ...]] = []

    def spy(*args: Any) -> int:
        calls.append(args)
        return len(args)

    prims = {
        "with_state": Primitive("with_state", spy, uses_state=True),
        "without": Primitive("without", spy, uses_state=False),
    }
    compiled = compile_expression(
        "with_state(n, 2) + without(n)", variables=["n"], primitives=prims
    )
    state = object()
    assert compiled.evaluate(state, {"n": 9}) == 3 + 1
    assert calls == [(state, 9, 2), (9,)]


def test_constants_are_fixed_at_compile_time() -> None:
    """Constants are inlined: later changes to the mapping do not reach compiled code."""
    constants = {"LIMIT": 3}
    compiled = compile_expression("n > LIMIT", variables=["n"], constants=constants)
    constants["LIMIT"] = 100
    assert compiled.evaluate(None, {"n": 5}) is True


def test_only_standard_primitives_by_default_and_none_when_given_empty() -> None:
    """``primitives=None`` means the standard set; an explicit empty registry means none."""
    assert (
        compile_expression("round(2.5) + floor(1.5) + ceil(0.1) + sum([1, 2])").evaluate(None, {})
        == 2 + 1 + 1 + 3
    )
    with pytest.raises(ExpressionError) as info:
        compile_expression("abs(1)", primitives={})
    assert "call" in info.value.construct


def test_evaluation_short_circuits_like_python() -> None:
    """``and``/``or``/``if`` do not evaluate the branch Python would skip."""
    compiled = compile_in_world("n == 0 or m / n > 1")
    assert compiled.evaluate(None, {"n": 0, "m": 1}) is True
    compiled = compile_in_world("m / n if n else -1")
    assert compiled.evaluate(None, {"n": 0, "m": 1}) == -1


# --------------------------------------------------------------------------------------
# 3. explain_false: the failing part of a false condition, and the values it looked at.
# --------------------------------------------------------------------------------------

EXPLAIN_VARIABLES = ("x", "y", "z", "a")


def explain(
    source: str,
    env: Mapping[str, Any],
    state: Any = None,
    constants: Mapping[str, Any] | None = None,
) -> tuple[str, dict[str, Any]]:
    compiled = compile_expression(
        source, variables=EXPLAIN_VARIABLES, constants=constants, primitives=PRIMITIVES
    )
    assert not compiled.evaluate(state, env), "explain_false is only for false conditions"
    text, values = compiled.explain_false(state, env)
    assert all(isinstance(v, SubexpressionValue) for v in values)
    return text, {v.text: v.value for v in values}


def test_explain_false_names_the_failing_conjunct() -> None:
    text, values = explain("x > 3 and y < 2", {"x": 5, "y": 7})
    assert text == "y < 2"
    assert values == {"y": 7}


def test_explain_false_reports_the_first_failing_conjunct() -> None:
    text, values = explain("x > 3 and y < 2 and z == 1", {"x": 1, "y": 7, "z": 0})
    assert text == "x > 3"
    assert values == {"x": 1}


def test_explain_false_of_a_negated_comparison() -> None:
    text, values = explain("not (a == 1)", {"a": 1})
    assert text == "not (a == 1)"
    assert values == {"a": 1}


def test_explain_false_of_a_negated_disjunction_names_the_true_disjunct() -> None:
    """``not (p or q)`` is false because some disjunct is true: that one is the reason."""
    text, values = explain("not (x > 3 or y < 2)", {"x": 5, "y": 7})
    assert text == "not (x > 3)"
    assert values == {"x": 5}
    text, values = explain("not (x > 3 or y < 2)", {"x": 1, "y": 0})
    assert text == "not (y < 2)"
    assert values == {"y": 0}


def test_explain_false_of_a_negated_conjunction_reports_it_whole() -> None:
    """``not (p and q)`` is false only when both hold, so no single part is to blame."""
    text, values = explain("not (x > 3 and y < 2)", {"x": 5, "y": 1})
    assert text == "not (x > 3 and y < 2)"
    assert values == {"x": 5, "y": 1}


def test_explain_false_reports_a_failed_disjunction_whole() -> None:
    text, values = explain("x > 3 and (y < 2 or z == 1)", {"x": 5, "y": 7, "z": 0})
    assert text == "y < 2 or z == 1"
    assert values == {"y": 7, "z": 0}


def test_explain_false_sees_through_double_negation() -> None:
    text, _ = explain("not not (x > 3 and y < 2)", {"x": 5, "y": 7})
    assert text == "y < 2"


def test_explain_false_shows_primitive_results_constants_and_errors() -> None:
    """Calls and constants are shown with their values; an operand that raises is shown as
    the error instead of aborting the explanation."""
    text, values = explain(
        "x > 0 and budget() + x >= LIMIT",
        {"x": 2},
        state=Ledger(base=0, budget=10),
        constants={"LIMIT": 50},
    )
    assert text == "budget() + x >= LIMIT"
    assert values["budget()"] == 10
    assert values["budget() + x"] == 12
    assert values["LIMIT"] == 50
    assert values["x"] == 2
    text, values = explain("x > 0 and (y == 0 or x / y > 1)", {"x": 2, "y": 4})
    assert values["x / y"] == 0.5
    _, values = explain("y == 0 and x / y > 1", {"x": 2, "y": 4})
    assert "x / y" not in values  # the failing conjunct is y == 0; nothing else is shown


@PROPERTY_SETTINGS
@given(marked=booleans(3), env=environments, constants=constant_values, state=states)
def test_explain_false_returns_a_false_part_with_true_values(
    marked: str, env: dict[str, Any], constants: dict[str, Any], state: Ledger
) -> None:
    """Whatever explain_false blames is itself false, is text of the condition (or its
    negation), and every value it shows is what that text evaluates to."""
    source = plain(marked)
    compiled = compile_expression(
        source, variables=VARIABLES, constants=constants, primitives=PRIMITIVES
    )
    result = outcome_of(lambda: compiled.evaluate(state, env))
    assume(result.error is None and not result.value)
    text, values = compiled.explain_false(state, env)
    inner = text[len("not (") : -1] if text.startswith("not (") and text.endswith(")") else text
    assert inner in source
    blamed = compile_expression(
        text, variables=VARIABLES, constants=constants, primitives=PRIMITIVES
    )
    assert not blamed.evaluate(state, env), f"{text!r} blamed for {source!r} is not false"

    def evaluate_text(text: str) -> Any:
        return compile_expression(
            text, variables=VARIABLES, constants=constants, primitives=PRIMITIVES
        ).evaluate(state, env)

    for shown in values:
        assert shown.text in source
        again = outcome_of(functools.partial(evaluate_text, shown.text))
        if again.error is not None:
            assert shown.value == f"<{again.error.__name__}: {again.message}>"
        else:
            assert same_value(shown.value, again.value), f"{shown} in {source!r}"


# --------------------------------------------------------------------------------------
# 4. parse_call and parse_binding.
# --------------------------------------------------------------------------------------

task_names = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,8}", fullmatch=True).filter(
    lambda s: (
        s
        not in {
            "True",
            "False",
            "None",
            "and",
            "or",
            "not",
            "in",
            "is",
            "if",
            "else",
            "lambda",
            "for",
            "await",
            "yield",
            "import",
            "from",
            "def",
            "class",
            "del",
            "pass",
            "raise",
            "return",
            "try",
            "while",
            "with",
            "as",
            "assert",
            "async",
            "break",
            "continue",
            "elif",
            "except",
            "finally",
            "global",
            "nonlocal",
        }
    )
)
SEPARATORS = st.sampled_from([", ", ",", " , ", ",  "])


def same_tree(a: str, b: str) -> bool:
    return ast.dump(ast.parse(a, mode="eval")) == ast.dump(ast.parse(b, mode="eval"))


@pytest.mark.parametrize(
    ("source", "name", "args"),
    [
        ("Move", "Move", []),
        ("Move()", "Move", []),
        ("Move(a)", "Move", ["a"]),
        ("Move(a, b + 1, min(x, 2))", "Move", ["a", "b + 1", "min(x, 2)"]),
        ("Say( 'x, y' ,  (1, 2) )", "Say", ["'x, y'", "(1, 2)"]),
        ("Déplacer('é', n)", "Déplacer", ["'é'", "n"]),
        ("Move(a, )", "Move", ["a"]),
    ],
)
def test_parse_call_happy_paths(source: str, name: str, args: list[str]) -> None:
    """Arguments come back as their own text, split at the top-level commas only."""
    assert parse_call(source) == (name, args)


@PROPERTY_SETTINGS
@given(name=task_names, args=st.lists(expressions, max_size=4), sep=SEPARATORS)
def test_parse_call_returns_each_argument(name: str, args: list[str], sep: str) -> None:
    """Each returned argument is text of the call that parses to the argument given."""
    source = f"{name}({sep.join(args)})"
    got_name, got_args = parse_call(source)
    assert got_name == name
    assert len(got_args) == len(args)
    for got, given_arg in zip(got_args, args, strict=True):
        assert got in source
        assert same_tree(got, given_arg)


@PROPERTY_SETTINGS
@given(name=task_names, args=st.lists(expressions, max_size=3), data=st.data())
def test_parse_call_rejects_a_keyword_argument_at_its_column(
    name: str, args: list[str], data: st.DataObject
) -> None:
    """The first keyword (they must follow the positional arguments) is located exactly."""
    keywords = data.draw(
        st.lists(st.sampled_from(["k=1", "speed=n", "**opts"]), min_size=1, max_size=2),
        label="keywords",
    )
    source = f"{name}({', '.join([*args, *keywords])})"
    with pytest.raises(ExpressionError) as info:
        parse_call(source, where="method m, subtasks")
    assert info.value.construct == "keyword argument"
    assert info.value.column == len(f"{name}(") + sum(len(a) + 2 for a in args) + 1
    assert info.value.where == "method m, subtasks"


@PROPERTY_SETTINGS
@given(name=task_names, args=st.lists(expressions, max_size=3), data=st.data())
def test_parse_call_rejects_a_starred_argument_at_its_column(
    name: str, args: list[str], data: st.DataObject
) -> None:
    at = data.draw(st.integers(0, len(args)), label="starred position")
    source = f"{name}({', '.join([*args[:at], '*rest', *args[at:]])})"
    with pytest.raises(ExpressionError) as info:
        parse_call(source)
    assert info.value.construct == "starred argument"
    assert info.value.column == len(f"{name}(") + sum(len(a) + 2 for a in args[:at]) + 1


@pytest.mark.parametrize(
    ("source", "construct", "column"),
    [
        ("Move(k=1)", "keyword argument", 6),
        ("Move(a, *rest)", "starred argument", 9),
        ("Déplacer('é', *rest)", "starred argument", 15),
        ("Déplacer('é', k=1)", "keyword argument", 15),
        ("n + 1", "not a call", 1),
        ("m.Move(1)", "not a call", 1),
        ("Move(1)(2)", "not a call", 1),
        ("'Move'", "not a call", 1),
        ("Move(", "syntax", 5),
        ("", "empty expression", 1),
        ("Move(a)\nStop", "line break", 8),
    ],
)
def test_parse_call_errors(source: str, construct: str, column: int) -> None:
    with pytest.raises(ExpressionError) as info:
        parse_call(source)
    assert info.value.construct == construct
    assert info.value.column == column


@pytest.mark.parametrize(
    ("source", "var", "generator"),
    [
        ("x in range_of(a)", "x", "range_of(a)"),
        ("slot in (1, 2, 3)", "slot", "(1, 2, 3)"),
        ("v in a + b", "v", "a + b"),
        ("é in ['ü', 'ß']", "é", "['ü', 'ß']"),
        ("card in  hand(p)  ", "card", "hand(p)"),
    ],
)
def test_parse_binding_happy_paths(source: str, var: str, generator: str) -> None:
    assert parse_binding(source) == (var, generator)


@PROPERTY_SETTINGS
@given(var=task_names, generator=expressions)
def test_parse_binding_returns_the_generator_text(var: str, generator: str) -> None:
    got_var, got_gen = parse_binding(f"{var} in {generator}")
    assert got_var == var
    assert got_gen in generator
    assert same_tree(got_gen, generator)


@pytest.mark.parametrize(
    ("source", "construct", "column"),
    [
        ("x not in xs", "not a binding", 1),
        ("x == xs", "not a binding", 1),
        ("1 in xs", "not a binding", 1),
        ("x in xs in ys", "not a binding", 1),
        ("f(x) in xs", "not a binding", 1),
        ("xs", "not a binding", 1),
        ("_x in xs", "name starting with '_'", 1),
        ("__x in xs", "name starting with '_'", 1),
        ("x in", "syntax", 5),
        ("x in (1,", "syntax", 6),
        ("  ", "empty expression", 1),
    ],
)
def test_parse_binding_errors(source: str, construct: str, column: int) -> None:
    with pytest.raises(ExpressionError) as info:
        parse_binding(source, where="method m, bind")
    assert info.value.construct == construct
    assert info.value.column == column
    assert info.value.where == "method m, bind"


# --------------------------------------------------------------------------------------
# 5. The compiled function cannot reach Python.
# --------------------------------------------------------------------------------------


def called_primitives(source: str) -> set[str]:
    """Primitive names followed by '(' in the token stream: the primitives a source calls."""
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.NEWLINE, tokenize.ENDMARKER)
    ]
    return {
        a.string
        for a, b in itertools.pairwise(tokens)
        if a.type == tokenize.NAME and b.string == "(" and a.string in PRIMITIVES
    }


@PROPERTY_SETTINGS
@given(source=expressions)
def test_compiled_globals_hold_no_builtins_and_only_the_called_primitives(source: str) -> None:
    """The function's globals are an empty builtins table plus the primitives it calls (and
    the size guards of the `*` and `%` it uses on operands known only at run time)."""
    glb = compile_in_world(source).fn.__globals__
    assert glb["__builtins__"] == {}
    guards = set(map(id, SIZE_GUARDS.values()))
    reachable = [v for k, v in glb.items() if k != "__builtins__" and id(v) not in guards]
    expected = [PRIMITIVES[name].fn for name in called_primitives(source)]
    assert sorted(map(id, reachable)) == sorted(map(id, expected))


@pytest.mark.parametrize(
    "source",
    [
        "open('x')",
        "eval('1')",
        "exec('1')",
        "compile('1', '', 'eval')",
        "getattr(n, 'real')",
        "globals()",
        "vars()",
        "type(n)",
        "print(n)",
        "input()",
        "breakpoint()",
    ],
)
def test_builtins_cannot_be_called(source: str) -> None:
    """Builtins are not primitives: calling one is an unregistered call, rejected at compile
    time (so the empty builtins table is a second line of defence, not the only one)."""
    assert_rejected(source, 1, ("call",))


@pytest.mark.parametrize(
    "source", ["__builtins__", "__import__", "__loader__", "__spec__", "_s", "_a", "_p_abs"]
)
def test_internal_and_dunder_names_cannot_be_read(source: str) -> None:
    """Neither the module machinery nor the compiled function's own state/env/primitive
    names can be named by an author."""
    assert_rejected(source, 1, ("'_'", "dunder"))


def test_builtins_named_as_variables_are_just_variables() -> None:
    """A variable called ``open`` is data from the environment, not the builtin."""
    compiled = compile_expression("open + 1", variables=["open"])
    assert compiled.evaluate(None, {"open": 41}) == 42
    assert compiled.fn.__globals__["__builtins__"] == {}


def test_explanation_values_are_computed_without_builtins() -> None:
    """explain_false re-evaluates sub-expressions; it reports them, it does not regain
    Python: a name like ``len`` still means the primitive, and values are the right ones."""
    compiled = compile_in_world("n > 3 and len(word) > 10")
    text, values = compiled.explain_false(None, {"n": 5, "word": "hi"})
    assert text == "len(word) > 10"
    assert [(v.text, v.value) for v in values] == [("len(word)", 2), ("word", "hi")]
