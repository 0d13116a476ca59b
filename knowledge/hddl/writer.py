"""The model back to HDDL text, such that reading it gives an equal model.

This is what an export to HDDL will use, so it writes what any HDDL reader takes: sections in
the order of the HDDL paper, lower-case names, every parameter typed, subtasks always as
``:ordered-subtasks`` (the model holds them in their total order), and lines kept short
enough to read.  A name HDDL cannot spell is refused here rather than written into a file
that another reader would reject or, worse, read differently.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TypeAlias

from .model import (
    And,
    Atom,
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
    Not,
    Or,
    Problem,
    Subtask,
    Term,
    Typed,
    Var,
    When,
)

__all__ = ["effect_text", "formula_text", "subtask_text", "write_domain", "write_problem"]

WIDTH = 100
INDENT = "  "

_NAME = re.compile(r"[a-z][a-z0-9_\-]*\Z")
# Words a reader takes as keywords where a predicate or task name could stand.
_RESERVED = frozenset(
    {"and", "or", "not", "imply", "exists", "forall", "when", "either", "sort-of"}
    | {"increase", "decrease", "assign", "scale-up", "scale-down"}
)

# An s-expression to lay out: a word, or a parenthesised list of them.
Sexpr: TypeAlias = "str | list[Sexpr]"


def write_domain(domain: Domain) -> str:
    """``domain`` as HDDL; raises ValueError for a name HDDL cannot spell."""
    out = [f"(define (domain {_name(domain.name)})"]
    if domain.requirements:
        out.append(_line(["(:requirements", *(_keyword(r) for r in domain.requirements)], 1) + ")")
    if domain.types:
        groups = _groups((t.name, t.parents) for t in domain.types)
        out.append(_block(":types", groups))
    if domain.constants:
        out.append(_block(":constants", _groups((c.name, c.types) for c in domain.constants)))
    if domain.predicates:
        lines = [_layout([_symbol(p.name), *_typed(p.params)], 2) for p in domain.predicates]
        out.append(f"{INDENT}(:predicates\n" + "\n".join(lines) + ")")
    for task in domain.tasks:
        out.append(_item(":task", _symbol(task.name), [(":parameters", _typed(task.params))]))
    for method in domain.methods:
        call = method.task
        items: list[tuple[str, Sexpr]] = [
            (":parameters", _typed(method.params)),
            (":task", [_symbol(call.name), *_terms(call.args)]),
        ]
        if method.precondition is not None:
            items.append((":precondition", _formula(method.precondition)))
        items.append((":ordered-subtasks", _subtasks(method.subtasks)))
        if method.constraints is not None:
            items.append((":constraints", _formula(method.constraints)))
        out.append(_item(":method", _name(method.name), items))
    for action in domain.actions:
        items = [(":parameters", _typed(action.params))]
        if action.precondition is not None:
            items.append((":precondition", _formula(action.precondition)))
        if action.effect is not None:
            items.append((":effect", _effect(action.effect)))
        out.append(_item(":action", _symbol(action.name), items))
    return "\n".join(out) + "\n)\n"


def write_problem(problem: Problem) -> str:
    """``problem`` as HDDL; raises ValueError for a name HDDL cannot spell."""
    out = [
        f"(define (problem {_name(problem.name)})",
        f"{INDENT}(:domain {_name(problem.domain)})",
    ]
    if problem.requirements:
        out.append(_line(["(:requirements", *(_keyword(r) for r in problem.requirements)], 1) + ")")
    if problem.objects:
        out.append(_block(":objects", _groups((o.name, o.types) for o in problem.objects)))
    if problem.htn is not None:
        htn = problem.htn
        items: list[tuple[str, Sexpr]] = []
        if htn.params:
            items.append((":parameters", _typed(htn.params)))
        items.append((":ordered-subtasks", _subtasks(htn.subtasks)))
        if htn.constraints is not None:
            items.append((":constraints", _formula(htn.constraints)))
        out.append(_item(":htn", "", items))
    atoms = [_layout(_atom(a), 2) for a in problem.init]
    out.append(f"{INDENT}(:init" + "".join("\n" + a for a in atoms) + ")")
    if problem.goal is not None:
        out.append(_layout(_formula(problem.goal), 1, "(:goal ") + ")")
    return "\n".join(out) + "\n)\n"


# -- names ----------------------------------------------------------------------------------


def _name(name: str) -> str:
    if not _NAME.match(name):
        if _NAME.match(name.lower()):
            # A reader lower-cases it, so the model read back would differ from this one.
            raise ValueError(f"{name!r} is not lower case, as the model's names are")
        raise ValueError(f"{name!r} is no HDDL name (a letter, then letters, digits, - or _)")
    return name


def _symbol(name: str) -> str:
    """A predicate, task or action name: a name that is not also a keyword."""
    if name in _RESERVED:
        raise ValueError(f"{name!r} is an HDDL keyword and cannot name a predicate or task")
    return _name(name)


def _keyword(word: str) -> str:
    if not word.startswith(":") or not _NAME.match(word[1:]):
        raise ValueError(f"{word!r} is no HDDL requirement")
    return word


def _variable(name: str) -> str:
    if not name.startswith("?") or not _NAME.match(name[1:]):
        raise ValueError(f"{name!r} is no HDDL variable (?, then a name)")
    return name


def _terms(terms: Iterable[Term]) -> list[Sexpr]:
    return [_variable(t.name) if isinstance(t, Var) else _name(t.name) for t in terms]


def _type(types: Sequence[str]) -> Sexpr:
    if len(types) == 1:
        return _name(types[0])
    return ["either", *(_name(t) for t in types)]


def _typed(params: Sequence[Typed]) -> list[Sexpr]:
    """``?a ?b - t ?c - u``: runs of one type share it; every name gets a type."""
    out: list[Sexpr] = []
    for index, param in enumerate(params):
        out.append(_variable(param.name))
        following = params[index + 1].types if index + 1 < len(params) else None
        if following != param.types:
            out += ["-", _type(param.types)]
    return out


def _groups(items: Iterable[tuple[str, tuple[str, ...]]]) -> list[list[str]]:
    """Names with their types as ``a b - t`` runs, a new run wherever the type changes."""
    runs: list[tuple[tuple[str, ...], list[str]]] = []
    for name, types in items:
        if not runs or runs[-1][0] != types:
            runs.append((types, []))
        runs[-1][1].append(_name(name))
    return [[*names, "-", _flat(_type(types))] for types, names in runs]


def _block(keyword: str, groups: list[list[str]]) -> str:
    return f"{INDENT}({keyword}\n" + "\n".join(_line(g, 2) for g in groups) + ")"


def _line(words: Sequence[str], depth: int) -> str:
    """Words wrapped to the page width, each line indented to ``depth``."""
    lines: list[str] = []
    current = INDENT * depth
    for word in words:
        if current.strip() and len(current) + 1 + len(word) > WIDTH:
            lines.append(current)
            current = INDENT * (depth + 1) + word
        else:
            current += (" " if current.strip() else "") + word
    lines.append(current)
    return "\n".join(lines)


# -- task networks, formulas and effects ----------------------------------------------------


def formula_text(formula: Formula) -> str:
    """One formula on one line, as HDDL: what explanations and the editor show."""
    return _flat(_formula(formula))


def effect_text(effect: Effect) -> str:
    return _flat(_effect(effect))


def subtask_text(subtask: Subtask) -> str:
    """A subtask call ``(drive ?v ?from ?to)``, without its id."""
    return _flat([_symbol(subtask.name), *_terms(subtask.args)])


def _subtasks(subtasks: Sequence[Subtask]) -> Sexpr:
    if not subtasks:
        return []
    out: list[Sexpr] = ["and"]
    for subtask in subtasks:
        call: list[Sexpr] = [_symbol(subtask.name), *_terms(subtask.args)]
        out.append([_name(subtask.id), call] if subtask.id is not None else call)
    return out


def _atom(atom: Atom) -> list[Sexpr]:
    return [_symbol(atom.predicate), *_terms(atom.args)]


def _formula(formula: Formula) -> Sexpr:
    if isinstance(formula, Atom):
        return _atom(formula)
    if isinstance(formula, Equals):
        return ["=", *_terms((formula.left, formula.right))]
    if isinstance(formula, Not):
        return ["not", _formula(formula.body)]
    if isinstance(formula, And):
        return ["and", *(_formula(p) for p in formula.parts)]
    if isinstance(formula, Or):
        return ["or", *(_formula(p) for p in formula.parts)]
    if isinstance(formula, Imply):
        return ["imply", _formula(formula.condition), _formula(formula.consequence)]
    word = "exists" if isinstance(formula, Exists) else "forall"
    assert isinstance(formula, Exists | Forall)
    return [word, _typed(formula.params), _formula(formula.body)]


def _effect(effect: Effect) -> Sexpr:
    if isinstance(effect, Atom):
        return _atom(effect)
    if isinstance(effect, Delete):
        return ["not", _atom(effect.atom)]
    if isinstance(effect, EffectAnd):
        return ["and", *(_effect(p) for p in effect.parts)]
    if isinstance(effect, EffectForall):
        return ["forall", _typed(effect.params), _effect(effect.effect)]
    assert isinstance(effect, When)
    return ["when", _formula(effect.condition), _effect(effect.effect)]


# -- layout ---------------------------------------------------------------------------------


def _flat(expr: Sexpr) -> str:
    if isinstance(expr, str):
        return expr
    return "(" + " ".join(_flat(e) for e in expr) + ")"


def _layout(expr: Sexpr, depth: int, lead: str = "") -> str:
    """``expr`` on one line if it fits, else its head then one part per line, deeper.

    ``lead`` goes before it on its first line (a ``:precondition`` keyword, say).
    """
    pad = INDENT * depth + lead
    flat = _flat(expr)
    if isinstance(expr, str) or len(pad) + len(flat) <= WIDTH:
        return pad + flat
    if all(isinstance(e, str) for e in expr):
        return _wrap([str(e) for e in expr], pad, depth + 1)
    # The head stays on the first line: leading words, and a quantifier's variables.
    split = 0
    while split < len(expr) and isinstance(expr[split], str):
        split += 1
    if split and expr[0] in ("forall", "exists") and split < len(expr):
        split += 1
    if split == 0:
        split = 1
    head = " ".join(_flat(e) for e in expr[:split])
    rest = [_layout(e, depth + 1) for e in expr[split:]]
    return pad + "(" + head + "".join("\n" + r for r in rest) + ")"


def _wrap(words: list[str], pad: str, depth: int) -> str:
    """A list of words over as many lines as it needs, ``name - type`` kept together."""
    chunks: list[str] = []
    for word in words:
        if chunks and (word == "-" or chunks[-1].endswith(" -")):
            chunks[-1] += " " + word
        else:
            chunks.append(word)
    lines = [pad + "(" + chunks[0]]
    for chunk in chunks[1:]:
        if len(lines[-1]) + 1 + len(chunk) > WIDTH:
            lines.append(INDENT * depth + chunk)
        else:
            lines[-1] += " " + chunk
    return "\n".join(lines) + ")"


def _item(keyword: str, name: str, items: Sequence[tuple[str, Sexpr]]) -> str:
    """A ``(:method name :key value ...)`` form, one ``:key value`` per line."""
    lines = [f"{INDENT}({keyword}" + (f" {name}" if name else "")]
    lines += [_layout(value, 2, f"{key} ") for key, value in items]
    one_line = f"{lines[0]} {lines[1].strip()})" if len(lines) == 2 else ""
    if one_line and "\n" not in one_line and len(one_line) <= WIDTH:
        return one_line
    return "\n".join(lines) + ")"
