"""From HDDL text to the model: lark's LALR parser building model values as it reduces.

LALR rather than Earley: the grammar is LALR(1) as written, and on the IPC 2020 files LALR
with the model built took 1/25 of Earley's time for a bare parse tree
(``benchmarks/hddl_parse.py --earley``); Earley's tolerance of ambiguity buys nothing for a
language of parenthesised lists.  The builder runs inside the parser (lark's
``transformer=`` option) rather than over a parse tree afterwards: no tree is built and
walked, which took about 40% off the time to read the IPC files.  Positions therefore come
from tokens -- each construct points at its keyword or name -- rather than from lark's
propagated positions.

A syntax error becomes one ``Issue`` in plain words.  Whatever the grammar accepts but the
total-order fragment does not (a durative action, an ordering that is not total, a section
given twice) is collected while building, so that all of it is reported at once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, cast

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from engine.tofs.search import checkpoint

from . import checks
from .checks import Report
from .errors import HddlError, Issue
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
    Equals,
    Exists,
    Forall,
    Formula,
    Imply,
    Method,
    Not,
    Or,
    Pos,
    Predicate,
    Problem,
    Subtask,
    Task,
    TaskCall,
    TaskNetwork,
    Term,
    Typed,
    TypeDef,
    Var,
    When,
)

__all__ = ["parse_domain_text", "parse_problem_text", "parser"]

GRAMMAR = Path(__file__).with_name("grammar.lark")

# The findings of the parse under way: the builder is built once, into the parser, so what
# belongs to one parse reaches it here (a context variable, so threads may parse at once).
_REPORT: ContextVar[Report] = ContextVar("hddl_report")


@functools.cache
def parser(algorithm: str = "lalr") -> Lark:
    """The HDDL parser, built on first use so that importing stays cheap.

    Building its LALR tables takes about 0.2 s, a third of a small problem's whole run
    from the command line (the IPC's agile score counts it): lark keeps them in a cache
    file in the temporary folder, keyed by the grammar and lark's version, and reads them
    back in a hundredth of that; an unreadable or unwritable cache only costs the build.

    ``algorithm="earley"`` gives the same grammar under Earley, building a tree instead of
    the model; only the benchmark uses it, to compare.
    """
    grammar = GRAMMAR.read_text(encoding="utf-8")
    start = ["start_domain", "start_problem"]
    if algorithm == "earley":
        return Lark(grammar, parser="earley", start=start, maybe_placeholders=False)
    return Lark(
        grammar,
        parser="lalr",
        start=start,
        maybe_placeholders=False,
        cache=True,
        transformer=_Builder(),
        lexer_callbacks={"NAME": _Budgets()},
    )


class _Budgets:
    """Looks at the run's budgets (:func:`checkpoint`) every few thousand names read: a
    problem of megabytes takes seconds to read, and a time budget counts them."""

    def __init__(self) -> None:
        self.names = 0

    def __call__(self, token: Token) -> Token:
        self.names += 1
        if not self.names & 4095:
            checkpoint()
        return token


def parse_domain_text(text: str, path: str = "<string>") -> Domain:
    """The domain in ``text``, checked; ``path`` is only for messages."""
    report = Report(path)
    domain = cast(Domain, _parse(text, report, "start_domain"))
    checks.check_domain(domain, report)
    report.raise_if_any()
    return domain


def parse_problem_text(text: str, path: str = "<string>", domain: Domain | None = None) -> Problem:
    """The problem in ``text``; checked against ``domain`` when one is given."""
    report = Report(path)
    problem = cast(Problem, _parse(text, report, "start_problem"))
    checks.check_problem(problem, domain, report)
    report.raise_if_any()
    return problem


# How deep parentheses may nest.  The parser itself keeps an explicit stack, but checking,
# writing and compiling a formula recurse once per level, and Python's stack gives out at
# a few hundred; the IPC 2020 total-order files nest at most 6 deep (after the comments).
MAX_DEPTH = 64

_DEPTH_STEP = {"(": 1, ")": -1}


def _too_deep(text: str, limit: int = MAX_DEPTH) -> tuple[int, int] | None:
    """Line and column of the first '(' nested deeper than ``limit``, or None.

    Linear and mostly in C (one regex pass, then a running sum over the parentheses
    alone), since it runs on every file read, 5 MB problems included; only a file that is
    too deep pays for the slow walk that finds the place.
    """
    if text.count("(") <= limit:
        return None
    code = re.sub(r";[^\n]*", lambda m: " " * len(m.group()), text) if ";" in text else text
    parens = _NOT_PAREN.sub("", code)
    if max(accumulate(map(_DEPTH_STEP.__getitem__, parens)), default=0) <= limit:
        return None
    depth = 0
    for match in re.finditer(r"[()]", code):
        depth += _DEPTH_STEP[match.group()]
        if depth > limit:
            offset = match.start()
            line_start = code.rfind("\n", 0, offset) + 1
            return code.count("\n", 0, offset) + 1, offset - line_start + 1
    return None  # pragma: no cover - the running sum said there is such a place


_NOT_PAREN = re.compile(r"[^()]+")


def _parse(text: str, report: Report, start: str) -> Any:
    deep = _too_deep(text)
    if deep is not None:
        raise HddlError(
            [Issue(report.path, *deep, f"parentheses nested deeper than {MAX_DEPTH} levels")]
        )
    token = _REPORT.set(report)
    try:
        return parser().parse(text, start=start)
    except UnexpectedInput as error:
        raise HddlError([_syntax_issue(error, text, report.path)]) from None
    finally:
        _REPORT.reset(token)


# -- syntax errors in plain words -----------------------------------------------------------

# Terminals that stand for a class of words rather than one literal text.
_CLASSES = {
    "NAME": "a name",
    "VARIABLE": "a variable",
    "COLON_WORD": "a ':keyword'",
    "COMPARISON": "a comparison",
    "WORD": "a word",
    "NUMBER": "a number",
}


def _syntax_issue(error: UnexpectedInput, text: str, path: str) -> Issue:
    if isinstance(error, UnexpectedCharacters):
        found = f"the character {error.char!r}"
        expected = _expected(_acceptable(error, error.allowed or ()))
    elif isinstance(error, UnexpectedToken) and error.token.type != "$END":
        found = repr(str(error.token))
        expected = _expected(_acceptable(error, error.expected))
    else:
        assert isinstance(error, UnexpectedToken | UnexpectedEOF)
        line, column = _end_of(text)
        opened = _innermost_unclosed(text)
        where = (
            f" (the '(' at line {opened[0]}, column {opened[1]} is not closed)" if opened else ""
        )
        wanted = _expected(_acceptable(error, error.expected))
        message = f"the file ends early{where}: expected {wanted}"
        return Issue(path, line, column, message)
    return Issue(path, error.line, error.column, f"found {found} where HDDL expects {expected}")


def _acceptable(error: UnexpectedInput, fallback: Iterable[str]) -> Iterable[str]:
    """The terminals that could really come next.

    The LALR table's row for the failing state also lists lookaheads that only lead to a
    reduction and then fail ('(' after a predicate's arguments); lark's interactive parser
    tries each terminal and keeps those that get shifted.  Its reductions run the builder,
    whose findings are dropped with the rest of the report.
    """
    interactive = getattr(error, "interactive_parser", None)
    if interactive is None:
        return fallback
    try:
        return set(interactive.accepts())
    except Exception:  # a best effort for the message; the table's row will do
        return fallback


def _expected(names: Iterable[str]) -> str:
    """Terminal names in words: "')' or a term", "')' or a ':keyword'"..."""
    lark = parser()
    wanted = set(names) - {"$END"}
    classes: list[str] = []
    if {"NAME", "VARIABLE"} <= wanted:
        wanted -= {"NAME", "VARIABLE"}
        classes.append("a term")
    if "COLON_WORD" in wanted:
        # Where any ':keyword' may start a section, naming each known one would say no more.
        wanted = {n for n in wanted if not _literal(lark, n).startswith(":")}
    words: list[str] = []
    for name in wanted:
        if name in _CLASSES:
            classes.append(_CLASSES[name])
        else:
            words.append(repr(_literal(lark, name)))
    # Parentheses first, the likeliest fix; then keywords alphabetically.
    words.sort(key=lambda w: (w != "')'", w != "'('", w))
    items = words + sorted(classes)
    if not items:
        return "nothing more"
    if len(items) > 8:
        return ", ".join(items[:7]) + " or another keyword"
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _literal(lark: Lark, name: str) -> str:
    try:
        pattern = lark.get_terminal(name).pattern
    except KeyError:
        return name
    return str(pattern.value) if pattern.type == "str" else name


def _end_of(text: str) -> tuple[int, int]:
    lines = text.split("\n")
    return len(lines), len(lines[-1]) + 1


def _innermost_unclosed(text: str) -> tuple[int, int] | None:
    stack: list[tuple[int, int]] = []
    line, column, comment = 1, 1, False
    for char in text:
        if char == "\n":
            line, column, comment = line + 1, 1, False
            continue
        if not comment:
            if char == ";":
                comment = True
            elif char == "(":
                stack.append((line, column))
            elif char == ")" and stack:
                stack.pop()
        column += 1
    return stack[-1] if stack else None


# -- building the model ---------------------------------------------------------------------


def _pos(token: Token) -> Pos:
    return Pos(token.line or 0, token.column or 0)


def _term(token: Token) -> Term:
    if token.type == "VARIABLE":
        return Var(token.lower(), pos=_pos(token))
    return Const(token.lower(), pos=_pos(token))


@dataclass(frozen=True, slots=True)
class _TypeRef:
    names: tuple[str, ...]
    pos: Pos


@dataclass(frozen=True, slots=True)
class _Section:
    """A section or item before assembly: its kind, value, and where its keyword is."""

    kind: str
    value: Any
    pos: Pos


@dataclass(frozen=True, slots=True)
class _Order:
    before: str
    after: str
    pos: Pos


# How each section or item is written, for messages about it.
_KEYWORDS = {
    "requirements": ":requirements",
    "types": ":types",
    "constants": ":constants",
    "predicates": ":predicates",
    "objects": ":objects",
    "init": ":init",
    "goal": ":goal",
    "htn": ":htn",
    "problem_domain": ":domain",
    "parameters": ":parameters",
    "method_task": ":task",
    "precondition": ":precondition",
    "effect": ":effect",
    "constraints": ":constraints",
    "ordering": ":ordering",
    "ordered_subtasks": "list of subtasks",
    "subtasks": "list of subtasks",
}


class _Builder(Transformer[Token, Any]):
    """Reductions to model values; what is wrong goes to the report, beside a stand-in."""

    @property
    def report(self) -> Report:
        return _REPORT.get()

    # -- shared pieces

    def typed_list(self, items: list[Token | _TypeRef]) -> list[Typed]:
        typed: list[Typed] = []
        pending: list[Token] = []
        for item in items:
            if isinstance(item, _TypeRef):
                if not pending:
                    self.report.add(item.pos, "a '- type' with no name before it")
                typed.extend(
                    Typed(t.lower(), item.names, spelling=str(t), pos=_pos(t)) for t in pending
                )
                pending = []
            else:
                pending.append(item)
        typed.extend(Typed(t.lower(), (OBJECT,), spelling=str(t), pos=_pos(t)) for t in pending)
        return typed

    def type(self, children: list[Token]) -> _TypeRef:
        names = [c for c in children if c.type == "NAME"]
        return _TypeRef(tuple(dict.fromkeys(n.lower() for n in names)), _pos(children[0]))

    def parameters(self, children: list[Any]) -> _Section:
        keyword, params = children
        return _Section("parameters", tuple(params), _pos(keyword))

    def atom(self, children: list[Token]) -> Atom:
        name, *args = children
        return Atom(name.lower(), tuple(_term(a) for a in args), pos=_pos(name))

    # -- formulas

    def empty(self, children: list[Any]) -> None:
        return None

    def and_(self, children: list[Any]) -> And:
        keyword, *parts = children
        return And(tuple(p for p in parts if p is not None), pos=_pos(keyword))

    def or_(self, children: list[Any]) -> Or:
        keyword, *parts = children
        return Or(tuple(p for p in parts if p is not None), pos=_pos(keyword))

    def not_(self, children: list[Any]) -> Formula:
        keyword, body = children
        return Not(self._formula(body, keyword), pos=_pos(keyword))

    def imply(self, children: list[Any]) -> Imply:
        keyword, condition, consequence = children
        return Imply(
            self._formula(condition, keyword),
            self._formula(consequence, keyword),
            pos=_pos(keyword),
        )

    def exists(self, children: list[Any]) -> Exists:
        keyword, params, body = children
        return Exists(tuple(params), self._formula(body, keyword), pos=_pos(keyword))

    def forall(self, children: list[Any]) -> Forall:
        keyword, params, body = children
        return Forall(tuple(params), self._formula(body, keyword), pos=_pos(keyword))

    def equals(self, children: list[Any]) -> Formula:
        keyword, *args = children
        if any(not isinstance(a, Token) or a.type == "NUMBER" for a in args):
            return self._outside(keyword, "a function term in '='", "numeric fluents")
        left, right = args
        return Equals(_term(left), _term(right), pos=_pos(keyword))

    def comparison(self, children: list[Token]) -> Formula:
        return self._outside(children[0], f"the comparison '{children[0]}'", "numeric fluents")

    def sort_of(self, children: list[Token]) -> Formula:
        return self._outside(children[0], "'sort-of'", "types belong in the parameter list")

    def fluent(self, children: list[Any]) -> str:
        return "fluent"

    def _formula(self, formula: Formula | None, at: Token) -> Formula:
        if formula is None:
            self.report.add(
                _pos(at), f"an empty '()' under '{at.lower()}', where a condition is needed"
            )
            return And(pos=_pos(at))
        return formula

    def _outside(self, at: Token, what: str, why: str) -> And:
        self.report.add(_pos(at), f"{what} is outside the total-order HDDL fragment ({why})")
        return And(pos=_pos(at))

    # -- effects

    def and_effect(self, children: list[Any]) -> EffectAnd:
        keyword, *parts = children
        return EffectAnd(tuple(p for p in parts if p is not None), pos=_pos(keyword))

    def delete(self, children: list[Any]) -> Delete:
        keyword, atom = children
        return Delete(atom, pos=_pos(keyword))

    def forall_effect(self, children: list[Any]) -> EffectForall:
        keyword, params, effect = children
        return EffectForall(tuple(params), self._effect(effect, keyword), pos=_pos(keyword))

    def when(self, children: list[Any]) -> When:
        keyword, condition, effect = children
        return When(
            self._formula(condition, keyword), self._effect(effect, keyword), pos=_pos(keyword)
        )

    def numeric_effect(self, children: list[Token]) -> EffectAnd:
        keyword = children[0]
        self._outside(keyword, f"the numeric effect '{keyword.lower()}'", "numeric fluents")
        return EffectAnd(pos=_pos(keyword))

    def _effect(self, effect: Effect | None, at: Token) -> Effect:
        return effect if effect is not None else EffectAnd(pos=_pos(at))

    # -- items of tasks, methods, actions and task networks

    def method_task(self, children: list[Token]) -> _Section:
        keyword, name, *args = children
        call = TaskCall(name.lower(), tuple(_term(a) for a in args), pos=_pos(name))
        return _Section("method_task", call, _pos(keyword))

    def precondition(self, children: list[Any]) -> _Section:
        keyword, formula = children
        return _Section("precondition", formula, _pos(keyword))

    def constraints(self, children: list[Any]) -> _Section:
        keyword, formula = children
        return _Section("constraints", formula, _pos(keyword))

    def effect(self, children: list[Any]) -> _Section:
        keyword, effect = children
        return _Section("effect", effect, _pos(keyword))

    def bare_subtask(self, children: list[Token]) -> Subtask:
        name, *args = children
        return Subtask(name.lower(), tuple(_term(a) for a in args), pos=_pos(name))

    def named_subtask(self, children: list[Token]) -> Subtask:
        ident, name, *args = children
        return Subtask(name.lower(), tuple(_term(a) for a in args), ident.lower(), pos=_pos(ident))

    def ordered_subtasks(self, children: list[Any]) -> _Section:
        keyword, *subtasks = children
        return _Section("ordered_subtasks", subtasks, _pos(keyword))

    def subtasks(self, children: list[Any]) -> _Section:
        keyword, *subtasks = children
        return _Section("subtasks", subtasks, _pos(keyword))

    def order(self, children: list[Token]) -> _Order:
        before, after = children
        return _Order(before.lower(), after.lower(), _pos(before))

    def ordering(self, children: list[Any]) -> _Section:
        keyword, *pairs = children
        return _Section("ordering", pairs, _pos(keyword))

    def _items(self, items: Sequence[_Section], owner: str) -> dict[str, _Section]:
        found: dict[str, _Section] = {}
        for item in items:
            if item.kind == "other":
                continue
            key = "subtasks" if item.kind == "ordered_subtasks" else item.kind
            if key in found:
                first = found[key].pos
                self.report.add(
                    item.pos,
                    f"{owner} has a second {_KEYWORDS[item.kind]} "
                    f"(the first is at line {first.line}, column {first.column})",
                )
                continue
            found[key] = item
        return found

    def _network(self, items: dict[str, _Section], owner: str, at: Pos) -> tuple[Subtask, ...]:
        listed = items.get("subtasks")
        ordering = items.get("ordering")
        where = ordering or listed
        return checks.total_order(
            listed.value if listed else [],
            ordered=listed is not None and listed.kind == "ordered_subtasks",
            pairs=[(o.before, o.after, o.pos) for o in ordering.value] if ordering else None,
            owner=owner,
            pos=where.pos if where else at,
            report=self.report,
        )

    def task_def(self, children: list[Any]) -> _Section:
        keyword, name, *rest = children
        params = rest[0].value if rest else ()
        task = Task(name.lower(), params, spelling=str(name), pos=_pos(name))
        return _Section("task", task, _pos(keyword))

    def method_def(self, children: list[Any]) -> _Section:
        keyword, name, *rest = children
        owner = f"method '{name.lower()}'"
        items = self._items(rest, owner)
        if "method_task" in items:
            task = items["method_task"].value
        else:
            self.report.add(_pos(name), f"{owner} has no :task (the task it decomposes)")
            task = TaskCall("", pos=_pos(name))
        method = Method(
            name.lower(),
            items["parameters"].value if "parameters" in items else (),
            task,
            items["precondition"].value if "precondition" in items else None,
            self._network(items, owner, _pos(name)),
            items["constraints"].value if "constraints" in items else None,
            spelling=str(name),
            pos=_pos(name),
        )
        return _Section("method", method, _pos(keyword))

    def action_def(self, children: list[Any]) -> _Section:
        keyword, name, *rest = children
        items = self._items(rest, f"action '{name.lower()}'")
        action = Action(
            name.lower(),
            items["parameters"].value if "parameters" in items else (),
            items["precondition"].value if "precondition" in items else None,
            items["effect"].value if "effect" in items else None,
            spelling=str(name),
            pos=_pos(name),
        )
        return _Section("action", action, _pos(keyword))

    def htn(self, children: list[Any]) -> _Section:
        keyword, *rest = children
        items = self._items(rest, "the :htn")
        network = TaskNetwork(
            items["parameters"].value if "parameters" in items else (),
            self._network(items, "the :htn", _pos(keyword)),
            items["constraints"].value if "constraints" in items else None,
            pos=_pos(keyword),
        )
        return _Section("htn", network, _pos(keyword))

    # -- sections

    def requirements(self, children: list[Token]) -> _Section:
        keyword, *words = children
        for word in words:
            checks.check_requirement(word.lower(), _pos(word), self.report)
        return _Section("requirements", tuple(w.lower() for w in words), _pos(keyword))

    def types(self, children: list[Any]) -> _Section:
        keyword, typed = children
        return _Section("types", typed, _pos(keyword))

    def constants(self, children: list[Any]) -> _Section:
        keyword, typed = children
        return _Section("constants", tuple(typed), _pos(keyword))

    def objects(self, children: list[Any]) -> _Section:
        keyword, typed = children
        return _Section("objects", tuple(typed), _pos(keyword))

    def predicate_def(self, children: list[Any]) -> Predicate:
        name, params = children
        return Predicate(name.lower(), tuple(params), spelling=str(name), pos=_pos(name))

    def predicates(self, children: list[Any]) -> _Section:
        keyword, *predicates = children
        return _Section("predicates", tuple(predicates), _pos(keyword))

    def other_section(self, children: list[Token]) -> _Section:
        checks.check_section(children[0].lower(), _pos(children[0]), self.report)
        return _Section("other", None, _pos(children[0]))

    def problem_domain(self, children: list[Token]) -> _Section:
        keyword, name = children
        return _Section("problem_domain", name.lower(), _pos(keyword))

    def ground_atom(self, children: list[Token]) -> Atom:
        name, *args = children
        return Atom(
            name.lower(), tuple(Const(a.lower(), pos=_pos(a)) for a in args), pos=_pos(name)
        )

    def numeric_init(self, children: list[Token]) -> None:
        self._outside(children[0], "a function value in :init", "numeric fluents")

    def init(self, children: list[Any]) -> _Section:
        keyword, *atoms = children
        return _Section("init", tuple(a for a in atoms if a is not None), _pos(keyword))

    def goal(self, children: list[Any]) -> _Section:
        keyword, formula = children
        return _Section("goal", formula, _pos(keyword))

    # -- whole files

    def domain(self, children: list[Any]) -> Domain:
        name, *sections = children
        single = self._items(
            [s for s in sections if s.kind not in ("task", "method", "action")], "the domain"
        )
        many: dict[str, list[Any]] = {"task": [], "method": [], "action": []}
        for section in sections:
            if section.kind in many:
                many[section.kind].append(section.value)
        return Domain(
            name.lower(),
            single["requirements"].value if "requirements" in single else (),
            self._types(single["types"].value if "types" in single else []),
            single["constants"].value if "constants" in single else (),
            single["predicates"].value if "predicates" in single else (),
            tuple(many["task"]),
            tuple(many["method"]),
            tuple(many["action"]),
            spelling=str(name),
            path=self.report.path,
        )

    def _types(self, declared: list[Typed]) -> tuple[TypeDef, ...]:
        """Declared types, then those named only as parents (which that use declares)."""
        types: dict[str, TypeDef] = {}
        for t in declared:
            if t.name == OBJECT:
                if t.types != (OBJECT,):
                    self.report.add(t.pos, "'object' is the root type and can have no parent")
                continue
            typedef = TypeDef(t.name, t.types, spelling=t.spelling, pos=t.pos)
            first = types.setdefault(t.name, typedef)
            if first.parents != typedef.parents:
                self.report.add(
                    t.pos,
                    f"type '{t.name}' is declared again with another parent (first at line "
                    f"{first.pos.line if first.pos else '?'})",
                )
        implicit: dict[str, TypeDef] = {}
        for t in declared:
            for parent in t.types:
                if parent != OBJECT and parent not in types and parent not in implicit:
                    implicit[parent] = TypeDef(parent, (OBJECT,), spelling=parent, pos=t.pos)
        return (*types.values(), *implicit.values())

    def problem(self, children: list[Any]) -> Problem:
        name, *sections = children
        single = self._items(sections, "the problem")
        if "problem_domain" not in single:
            self.report.add(_pos(name), "the problem has no (:domain ...)")
        return Problem(
            name.lower(),
            single["problem_domain"].value if "problem_domain" in single else "",
            single["requirements"].value if "requirements" in single else (),
            single["objects"].value if "objects" in single else (),
            single["htn"].value if "htn" in single else None,
            single["init"].value if "init" in single else (),
            single["goal"].value if "goal" in single else None,
            spelling=str(name),
            path=self.report.path,
            domain_pos=single["problem_domain"].pos if "problem_domain" in single else None,
        )

    def start_domain(self, children: list[Domain]) -> Domain:
        return children[0]

    def start_problem(self, children: list[Problem]) -> Problem:
        return children[0]
