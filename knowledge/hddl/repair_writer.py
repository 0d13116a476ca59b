"""Candidate repairs written twice: as an edit of the domain's text (what the author reads
in the diff) and as the same edit of the parsed model (what is planned first).

Planning a candidate from its model edit saves reading the whole domain again for each of
the dozens tried (about 45 ms each on a domain of Depots' size); the text of a candidate
that plans is read back, and it is shown only if that reading equals the edited model
(:func:`knowledge.hddl.repair` checks), so what the diff shows is what was planned.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from .edits import Edit, Node, Source
from .model import (
    Action,
    And,
    Atom,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    Formula,
    Method,
    Not,
    Subtask,
    Typed,
    Var,
)
from .writer import effect_text, formula_text, subtask_text

__all__ = ["Candidate", "Writer", "bare", "conjuncts"]

ModelEdit = Callable[[Domain], Domain]


@dataclass(frozen=True)
class Candidate:
    """One edit to try: what it is in the author's words, where, the text edits, the same
    edit of the model, and its rank (lower first: tier, then order of drawing)."""

    kind: str
    place: str
    summary: str
    line: int | None
    edits: tuple[Edit, ...]
    model: ModelEdit = field(compare=False, repr=False)
    rank: tuple[int, int] = (9, 0)

    def ranked(self, rank: tuple[int, int]) -> Candidate:
        return replace(self, rank=rank)


def conjuncts(formula: Formula | None) -> list[Formula]:
    """The top-level conjuncts of a precondition as the model holds them."""
    if formula is None:
        return []
    return list(formula.parts) if isinstance(formula, And) else [formula]


def bare(sub: Subtask) -> str:
    """A subtask call without its id: ``(get_to ?v ?l)``."""
    return subtask_text(Subtask(sub.name, sub.args))


def _kind(owner: Action | Method) -> str:
    return "action" if isinstance(owner, Action) else "method"


def _replace_item(domain: Domain, old: Action | Method, new: Action | Method) -> Domain:
    if isinstance(old, Action) and isinstance(new, Action):
        return replace(domain, actions=tuple(new if a is old else a for a in domain.actions))
    assert isinstance(old, Method) and isinstance(new, Method)
    return replace(domain, methods=tuple(new if m is old else m for m in domain.methods))


def _precondition(parts: list[Formula], was: Formula | None) -> Formula:
    """The precondition with these conjuncts, in the form it was written in."""
    if isinstance(was, And):
        return And(tuple(parts))
    return parts[0] if len(parts) == 1 else And(tuple(parts))


class Writer:
    """Makes candidate edits on one domain, in its text and its model, in the author's
    words."""

    def __init__(self, text: str, domain: Domain) -> None:
        self.source = Source(text)
        self.domain = domain
        self.text = text

    def _line(self, node: Node | None) -> int | None:
        return self.source.line_of(node.start) if node is not None else None

    # ---------------------------------------------------------------- effects

    def add_effect(self, action: Action, literal: Atom | Delete, rank: int) -> Candidate | None:
        """``literal`` added to the action's effect (an atom added, or deleted)."""
        form = self.source.form(action.pos)
        if form is None:
            return None
        text = effect_text(literal)
        effect = form.after(":effect")
        if effect is None:
            edit = self.source.append(form, f":effect (and {text})")
        elif effect.is_list and effect.head == "and":
            edit = self.source.append(effect, text)
        elif effect.is_list and not effect.children:
            edit = Edit(effect.start, effect.end, f"(and {text})")
        else:
            edit = Edit(effect.start, effect.end, f"(and {self.source.slice(effect)} {text})")
        old = action.effect
        parts: tuple[Effect, ...] = (
            old.parts if isinstance(old, EffectAnd) else () if old is None else (old,)
        )
        changed = replace(action, effect=EffectAnd((*parts, literal)))
        return Candidate(
            "add-effect",
            action.name,
            f"add {text} to the effect of action {action.name}",
            self.source.line_of(edit.start) + (1 if edit.new.startswith("\n") else 0),
            (edit,),
            lambda d: _replace_item(d, action, changed),
            (rank, 0),
        )

    # ---------------------------------------------------------------- preconditions

    def _conjunct_node(self, owner: Action | Method, index: int) -> Node | None:
        literals = conjuncts(owner.precondition)
        if not 0 <= index < len(literals):
            return None
        node = self.source.form(literals[index].pos)
        if node is None:
            return None
        if isinstance(owner.precondition, And) and (
            node.parent is None or node.parent.head != "and"
        ):
            return None  # not a top-level conjunct as written (the reader flattened it)
        return node

    def drop(self, owner: Action | Method, index: int, rank: int) -> Candidate | None:
        """Conjunct ``index`` of the precondition removed."""
        node = self._conjunct_node(owner, index)
        if node is None:
            return None
        literals = conjuncts(owner.precondition)
        if isinstance(owner.precondition, And):
            edit = self.source.delete(node)
            pre: Formula = And(tuple(c for i, c in enumerate(literals) if i != index))
        else:
            edit = Edit(node.start, node.end, "(and)")
            pre = And(())
        changed = replace(owner, precondition=pre)
        return Candidate(
            "drop-precondition",
            owner.name,
            f"drop {formula_text(literals[index])} from the precondition of "
            f"{_kind(owner)} {owner.name}",
            self._line(node),
            (edit,),
            lambda d: _replace_item(d, owner, changed),
            (rank, 0),
        )

    def flip(self, owner: Action | Method, index: int, rank: int) -> Candidate | None:
        """Conjunct ``index`` negated, or a negated one made positive."""
        node = self._conjunct_node(owner, index)
        if node is None:
            return None
        literals = conjuncts(owner.precondition)
        literal = literals[index]
        if isinstance(literal, Atom):
            turned: Formula = Not(literal)
            edit = Edit(node.start, node.end, f"(not {self.source.slice(node)})")
        elif isinstance(literal, Not) and isinstance(literal.body, Atom):
            inner = self.source.form(literal.body.pos)
            if inner is None:
                return None
            turned = literal.body
            edit = Edit(node.start, node.end, self.source.slice(inner))
        else:
            return None
        if isinstance(owner, Method) and isinstance(turned, Not) and not _bound(owner, index):
            return None  # a negated literal binds nothing: the method would not compile
        parts = [turned if i == index else c for i, c in enumerate(literals)]
        changed = replace(owner, precondition=_precondition(parts, owner.precondition))
        return Candidate(
            "flip-precondition",
            owner.name,
            f"turn {formula_text(literal)} into {formula_text(turned)} in the precondition "
            f"of {_kind(owner)} {owner.name}",
            self._line(node),
            (edit,),
            lambda d: _replace_item(d, owner, changed),
            (rank, 0),
        )

    # ---------------------------------------------------------------- steps

    def _call_node(self, sub: Subtask) -> Node | None:
        form = self.source.form(sub.pos)
        if form is None:
            return None
        if sub.id is not None:
            kids = form.children or []
            return kids[1] if len(kids) > 1 and kids[1].is_list else None
        return form

    def reorder(self, method: Method, i: int, j: int, rank: int) -> Candidate | None:
        """Steps ``i`` and ``j`` (0-based, in the method's order) exchanged: their calls
        trade places, their ids (and so any ``:ordering``) stay."""
        subs = method.subtasks
        a, b = subs[i], subs[j]
        if (a.name, a.args) == (b.name, b.args):
            return None
        first, second = self._call_node(a), self._call_node(b)
        if first is None or second is None:
            return None
        edits = (
            Edit(first.start, first.end, self.source.slice(second)),
            Edit(second.start, second.end, self.source.slice(first)),
        )
        steps = list(subs)
        steps[i], steps[j] = Subtask(b.name, b.args, a.id), Subtask(a.name, a.args, b.id)
        changed = replace(method, subtasks=tuple(steps))
        return Candidate(
            "reorder",
            method.name,
            f"swap steps {i + 1} {bare(a)} and {j + 1} {bare(b)} of method {method.name}",
            self._line(first),
            edits,
            lambda d: _replace_item(d, method, changed),
            (rank, 0),
        )

    def change_argument(
        self, method: Method, i: int, slot: int, other: str, rank: int
    ) -> Candidate | None:
        """Argument ``slot`` of step ``i`` replaced by the method's variable ``other``."""
        sub = method.subtasks[i]
        term = sub.args[slot]
        token = self.source.token(term.pos)
        if token is None or token.word != term.name:
            return None
        args = (*sub.args[:slot], Var(other), *sub.args[slot + 1 :])
        steps = list(method.subtasks)
        steps[i] = Subtask(sub.name, args, sub.id)
        changed = replace(method, subtasks=tuple(steps))
        return Candidate(
            "change-argument",
            method.name,
            f"call {bare(steps[i])} for {bare(sub)} in step {i + 1} of method {method.name} "
            f"({other} for {term.name})",
            self._line(token),
            (Edit(token.start, token.end, other),),
            lambda d: _replace_item(d, method, changed),
            (rank, 0),
        )

    # ---------------------------------------------------------------- methods

    def add_method(self, method: Method, how: str, rank: int) -> Candidate | None:
        """``method`` inserted after the last method of its task (else after the last
        method, else before the first action), in the file's indentation."""
        domain = self.domain
        siblings = [i for i, m in enumerate(domain.methods) if m.task.name == method.task.name]
        at = siblings[-1] if siblings else len(domain.methods) - 1
        unit = "\t" if "\t" in self.text else "  "
        if at >= 0:
            anchor = self.source.form(domain.methods[at].pos)
            if anchor is None:
                return None
            text = _method_text(method, self.source.indent(anchor.start), unit)
            edit = Edit(anchor.end, anchor.end, "\n\n" + text)
            line = self.source.line_of(anchor.end) + 2
        else:
            first = domain.actions[0] if domain.actions else None
            anchor = self.source.form(first.pos) if first is not None else None
            if anchor is None:
                return None
            indent = self.source.indent(anchor.start)
            text = _method_text(method, indent, unit)
            edit = Edit(anchor.start, anchor.start, text.lstrip(" \t") + "\n\n" + indent)
            line = self.source.line_of(anchor.start)

        def edited(d: Domain) -> Domain:
            methods = (*d.methods[: at + 1], method, *d.methods[at + 1 :])
            return replace(d, methods=methods)

        return Candidate(
            "add-method",
            method.task.name,
            f"add method {method.name} for task {method.task.name}: {how}",
            line,
            (edit,),
            edited,
            (rank, 0),
        )


def _bound(method: Method, index: int) -> bool:
    """Whether the conjunct's variables are bound without it (by the task or another
    positive literal): only then may it be negated."""
    literals = conjuncts(method.precondition)
    bound = {t.name for t in method.task.args if isinstance(t, Var)}
    for other, literal in enumerate(literals):
        if other != index and isinstance(literal, Atom):
            bound |= {t.name for t in literal.args if isinstance(t, Var)}
    atom = literals[index]
    names = {t.name for t in atom.args if isinstance(t, Var)} if isinstance(atom, Atom) else set()
    return names <= bound


def _typed_text(params: Sequence[Typed]) -> str:
    parts = []
    for p in params:
        kind = p.types[0] if len(p.types) == 1 else "(either " + " ".join(p.types) + ")"
        parts.append(f"{p.name} - {kind}")
    return " ".join(parts)


def _method_text(method: Method, indent: str, unit: str) -> str:
    inner = indent + unit
    call = " ".join([method.task.name, *(str(a) for a in method.task.args)])
    lines = [
        f"{indent}(:method {method.name}",
        f"{inner}:parameters ({_typed_text(method.params)})",
        f"{inner}:task ({call})",
    ]
    if method.precondition is not None:
        lines.append(f"{inner}:precondition {formula_text(method.precondition)}")
    steps = " ".join(bare(s) for s in method.subtasks)
    lines.append(f"{inner}:ordered-subtasks (and{' ' if steps else ''}{steps})")
    lines.append(f"{indent})")
    return "\n".join(lines)
