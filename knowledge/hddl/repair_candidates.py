"""The one-place edits worth trying on a broken HDDL domain, best first, from what the failed
run says (issue 28).

A repair is searched, not guessed, but the search must start where the fault most likely
is: an author's one-place mistakes (an action that lost an add effect, a literal the wrong
way round, a deleted method, two steps out of order, a call with the wrong variable) leave
marks in the failed run that point at them.  This module reads those marks and turns them
into :class:`Candidate` edits of the domain's text, ranked by how directly the analysis
points at them (``rank``: lower first):

tier 0
    the decisive literal -- the one the deepest failure (or each of its methods' causes)
    could not satisfy -- added, lifted to the action's variables, to the effect of an
    action that ran earlier on the failing path with those objects (the latest first);
    flipped or dropped where it was written (the line the failure blames); a method added
    for a task that is called but has none at all;
tier 1
    a method added for the task no method could do (by analogy: a one-step method calling
    the action or task whose parameters its own parameters name, a sibling with its failing
    literal dropped, an "already done" method with no steps); the two steps of an enclosing
    method around the failing one exchanged; an argument of such a step changed to another
    variable of a fitting type; the literal added to an action that could add it when none
    that ran could (relaxed reachability: no action of the domain adds it);
tier 2
    the other steps, arguments and precondition literals of the methods enclosing the
    failure, and the preconditions of the actions that ran on the path;
tier 3
    the same for the methods on the path that had finished before the failure.

Every candidate is an edit of the original text (:mod:`knowledge.hddl.edits`), so what is
checked is exactly what the diff shows.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import TYPE_CHECKING, TypeVar

from .edits import Edit
from .model import (
    Action,
    And,
    Atom,
    Const,
    Delete,
    Domain,
    Effect,
    EffectAnd,
    Formula,
    Method,
    Not,
    Problem,
    Subtask,
    Task,
    TaskCall,
    Typed,
    Var,
)
from .repair_static import fits, inverted_swaps, misplaced_arguments, parameter_types
from .repair_writer import Candidate, Writer, bare
from .writer import formula_text

if TYPE_CHECKING:
    from engine.tofs.results import Failure

    from .reachability import Reachability

__all__ = [
    "Analysis",
    "Candidate",
    "Failed",
    "Path",
    "Step",
    "Writer",
    "candidates",
    "failed_literals",
    "read_path",
]

# How many of the enclosing methods, nearest first, have their steps and arguments tried.
ENCLOSING = 6
# How many liftings of one literal into one action are tried (an object passed twice).
LIFTINGS = 4
# How many analogous one-step methods are tried for a task that lost its method, and how
# many orders of its arguments for each callee.
ANALOGIES = 20
ORDERS = 4
# How many of the swaps that undo the domain's own inversions come in tier 1.
SWAPS = 8


# -- the failing path ------------------------------------------------------------------------


@dataclass
class Step:
    """One expansion on the way to the deepest failure: an action applied or a method
    chosen, with the values its variables had."""

    name: str  # the task or action
    args: tuple[str, ...]
    method: Method | None = None  # None: an action
    action: Action | None = None
    binding: dict[str, str] = field(default_factory=dict)  # variable -> object
    parent: int | None = None  # the index of the method step it is a subtask of
    position: int = 0  # its 0-based place among the parent's subtasks
    entered: int = -1  # a method: the subtask being worked on when the path ended


@dataclass
class Path:
    """The failing run's path (``Failure.via``) rebuilt against the domain: every step, the
    methods still open at the failure (nearest first, with the step each was on), and the
    failing task."""

    steps: list[Step]
    open: list[tuple[Step, int]]  # (method step, 0-based index of the failing subtask)
    failing: str  # the task or action that failed, as "(name args)"

    @property
    def actions(self) -> list[Step]:
        """The actions applied on the way, the latest first."""
        return [s for s in reversed(self.steps) if s.action is not None]

    @property
    def closed(self) -> list[Step]:
        """Methods on the path that had finished before the failure, the latest first."""
        still = {id(s) for s, _ in self.open}
        return [s for s in reversed(self.steps) if s.method is not None and id(s) not in still]


def _call(text: str) -> tuple[str, tuple[str, ...]]:
    words = text.strip().strip("()").split()
    return (words[0].lower(), tuple(w.lower() for w in words[1:])) if words else ("", ())


def _alternative(text: str) -> tuple[str, dict[str, str]]:
    """``m_deliver(?l1=city_loc_1, ?v=truck_0)`` as the method's name and bindings."""
    name, _, rest = text.partition("(")
    binding: dict[str, str] = {}
    for part in rest.rstrip(")").split(","):
        var, eq, value = part.strip().partition("=")
        if eq:
            binding[var.strip().lower()] = value.strip().lower()
    return name.strip().lower(), binding


def read_path(domain: Domain, via: Sequence[tuple[str, str]], failing: str) -> Path:
    """The path of ``via`` (as :class:`~engine.tofs.results.Failure` keeps it) rebuilt with
    the domain's methods, so that each step knows the method it is a step of."""
    methods = {m.name: m for m in domain.methods}
    actions = {a.name: a for a in domain.actions}
    steps: list[Step] = []
    agenda: list[tuple[int | None, int]] = [(None, 0)]
    for task_text, alternative in via:
        name, args = _call(task_text)
        parent, position = agenda.pop(0) if agenda else (None, 0)
        step = Step(name, args, parent=parent, position=position)
        if parent is not None:
            steps[parent].entered = position
        if alternative:
            method_name, free = _alternative(alternative)
            method = methods.get(method_name)
            if method is None:
                break
            step.method = method
            step.binding = _bind(method.task.args, args) | free
            agenda[0:0] = [(len(steps), i) for i in range(len(method.subtasks))]
        else:
            action = actions.get(name)
            step.action = action
            if action is not None:
                step.binding = {p.name: a for p, a in zip(action.params, args, strict=False)}
        steps.append(step)
    opened: list[tuple[Step, int]] = []
    at, position = agenda[0] if agenda else (None, 0)
    while at is not None:
        enclosing = steps[at]
        opened.append((enclosing, position))
        at, position = enclosing.parent, enclosing.position
    return Path(steps, opened, failing)


def _bind(terms: Sequence[object], args: Sequence[str]) -> dict[str, str]:
    return {t.name: a for t, a in zip(terms, args, strict=False) if isinstance(t, Var)}


# -- the failed literals ---------------------------------------------------------------------


@dataclass(frozen=True)
class Failed:
    """A literal a failure could not satisfy: ground where the failure bound it
    (``args`` may hold ``?x`` where it did not), where it was written, and whether it was
    written negated."""

    predicate: str
    args: tuple[str, ...]
    negated: bool
    line: int | None
    owner: Action | Method | None = None
    index: int = -1  # its place among the owner's top-level precondition conjuncts


_BACKTICKS = re.compile(r"`([^`]*)`")


def failed_literals(failure: Failure | None, domain: Domain, domain_file: str) -> list[Failed]:
    """The literals the deepest failure and its causes name, in their order, each found
    where it was written in the domain (by the line its blame gives)."""
    out: list[Failed] = []
    todo = [failure] if failure is not None else []
    seen: set[tuple[str, tuple[str, ...], bool, int | None]] = set()
    while todo:
        f = todo.pop(0)
        todo[:0] = list(f.causes)
        literal = _ground(f)
        if literal is None:
            continue
        predicate, args, negated = literal
        line = (
            f.blame.line if f.blame is not None and _same_file(f.blame.file, domain_file) else None
        )
        owner, index = _written(domain, predicate, negated, line)
        key = (predicate, args, negated, line)
        if key not in seen:
            seen.add(key)
            out.append(Failed(predicate, args, negated, line, owner, index))
    return out


def _same_file(blamed: str, domain_file: str) -> bool:
    return not blamed or blamed.replace("\\", "/").split("/")[-1] == domain_file.split("/")[-1]


def _ground(f: Failure) -> tuple[str, tuple[str, ...], bool] | None:
    """The failing literal of one failure, its values filled in."""
    text = ""
    if f.blame is not None:
        found = _BACKTICKS.findall(f.blame.text)
        text = found[-1] if found else ""
    if not text and f.failing:
        values = {v.text.lower(): str(v.value).lower() for v in f.values}
        text = " ".join(values.get(w.lower(), w) for w in re.findall(r"[()]|[^\s()]+", f.failing))
    words = re.findall(r"[^\s()]+", text.lower())
    if not words:
        return None
    negated = words[0] == "not"
    if negated:
        words = words[1:]
    if not words or words[0] in {"and", "or", "forall", "exists", "imply", "=", "-"}:
        return None
    return words[0], tuple(words[1:]), negated


def _conjuncts(formula: Formula | None) -> list[Formula]:
    if formula is None:
        return []
    return list(formula.parts) if isinstance(formula, And) else [formula]


def _literal_line(literal: Formula) -> int | None:
    return literal.pos.line if literal.pos is not None else None


def _written(
    domain: Domain, predicate: str, negated: bool, line: int | None
) -> tuple[Action | Method | None, int]:
    """The action or method, and the conjunct, holding the literal at ``line``."""
    if line is None:
        return None, -1
    owners: list[Action | Method] = [*domain.actions, *domain.methods]
    for owner in owners:
        for index, literal in enumerate(_conjuncts(owner.precondition)):
            atom = literal.body if isinstance(literal, Not) else literal
            if not isinstance(atom, Atom) or atom.predicate != predicate:
                continue
            if _literal_line(atom) == line and isinstance(literal, Not) == negated:
                return owner, index
    return None, -1


# -- the candidates ------------------------------------------------------------------------------


@dataclass
class Analysis:
    """What the candidates are drawn from."""

    text: str
    domain: Domain
    problem: Problem
    domain_file: str
    failure: Failure | None
    facts: Reachability | None = None


def candidates(analysis: Analysis) -> list[Candidate]:
    """Every candidate edit, best first, each edit once (at its best rank)."""
    domain = analysis.domain
    writer = Writer(analysis.text, domain)
    failure = analysis.failure
    path = read_path(domain, failure.via, failure.task) if failure is not None else Path([], [], "")
    literals = failed_literals(failure, domain, analysis.domain_file)
    found: dict[tuple[Edit, ...], Candidate] = {}
    for order, candidate in enumerate(c for c in _all(analysis, writer, path, literals) if c):
        ranked = candidate.ranked((candidate.rank[0], order))
        key = tuple(sorted(candidate.edits, key=lambda e: (e.start, e.end)))
        if key not in found or ranked.rank < found[key].rank:
            found[key] = ranked
    return sorted(found.values(), key=lambda c: c.rank)


def _all(
    analysis: Analysis, writer: Writer, path: Path, literals: list[Failed]
) -> Iterator[Candidate | None]:
    domain = analysis.domain
    htn = analysis.problem.htn
    roots = frozenset(s.name for s in (htn.subtasks if htn is not None else ()))
    # tier 0: the decisive literals, and tasks with no method at all
    for failed in literals:
        yield from _for_literal(writer, path, failed, 0)
    for task in _methodless(domain, analysis.problem):
        yield from _add_methods(writer, domain, task, literals, 0, roots)
    # tier 1: the task no method could do; the steps around the failure; what the domain
    # shows by itself (steps that need what a later step gives, unused variables)
    failing_task, _ = _call(path.failing)
    if failing_task in {t.name for t in domain.tasks}:
        yield from _add_methods(writer, domain, failing_task, literals, 1, roots)
    for step, k in path.open[:ENCLOSING]:
        assert step.method is not None
        yield from _reorders(writer, step.method, k, 1, near=True)
    swaps = inverted_swaps(domain)
    for method, i, j in swaps[:SWAPS]:
        yield writer.reorder(method, i, j, 1)
    for method, i, slot, other in misplaced_arguments(domain):
        yield writer.change_argument(method, i, slot, other, 1)
    for step, k in path.open[:ENCLOSING]:
        assert step.method is not None
        yield from _arguments(writer, domain, step.method, range(k + 1), 1)
    for failed in literals:
        yield from _unused_adders(writer, analysis, failed, 1)
    # tier 2: weaker edits of the decisive literals; all else about the methods enclosing
    # the failure and the actions that ran
    for failed in literals:
        yield from _weak(writer, path, failed)
    for method, i, j in swaps[SWAPS:]:
        yield writer.reorder(method, i, j, 2)
    for step, k in path.open[:ENCLOSING]:
        assert step.method is not None
        yield from _reorders(writer, step.method, k, 2, near=False)
        yield from _arguments(writer, domain, step.method, range(len(step.method.subtasks)), 2)
        yield from _literals_of(writer, step.method, 2)
        yield from _add_methods(writer, domain, step.method.task.name, literals, 2, roots)
    for action in _unique([s.action for s in path.actions]):
        yield from _literals_of(writer, action, 2)
    # tier 3: the methods that had finished before the failure
    for method in _unique([s.method for s in path.closed]):
        yield from _reorders(writer, method, 0, 3, near=False)
        yield from _arguments(writer, domain, method, range(len(method.subtasks)), 3)
        yield from _literals_of(writer, method, 3)


_Owner = TypeVar("_Owner", Action, Method)


def _unique(items: Sequence[_Owner | None]) -> list[_Owner]:
    """The actions or methods, each once, in their order."""
    seen: set[str] = set()
    out: list[_Owner] = []
    for item in items:
        if item is not None and item.name not in seen:
            seen.add(item.name)
            out.append(item)
    return out


def _for_literal(
    writer: Writer, path: Path, failed: Failed, tier: int
) -> Iterator[Candidate | None]:
    """The edits that restore something: the literal added by an action that ran before
    (with those objects), a literal written negated made positive where it was written
    (a negated literal is the rarer, so the likelier slip)."""
    for action, literal, undoes in _lifted(writer, path, failed):
        if not undoes:
            yield writer.add_effect(action, literal, tier)
    if failed.owner is not None and failed.negated:
        yield writer.flip(failed.owner, failed.index, tier)


def _weak(writer: Writer, path: Path, failed: Failed) -> Iterator[Candidate | None]:
    """Edits that weaken the model -- they almost always plan, rightly or not -- so they
    come after those that restore something: the literal dropped where it was written, a
    positive one negated, an action made to stop deleting (or adding) the literal."""
    for action, literal, undoes in _lifted(writer, path, failed):
        if undoes:
            yield writer.add_effect(action, literal, 2)
    if failed.owner is not None:
        yield writer.drop(failed.owner, failed.index, 2)
        if not failed.negated:
            yield writer.flip(failed.owner, failed.index, 2)


def _lifted(
    writer: Writer, path: Path, failed: Failed
) -> Iterator[tuple[Action, Atom | Delete, bool]]:
    """The literal, lifted to the variables of each action that ran before the failure with
    all of its objects (the latest action first), and whether that action's effect has its
    opposite (then the edit would only make it stop deleting or adding it)."""
    constants = {c.name for c in writer.domain.constants}
    for step in path.actions:
        action = step.action
        assert action is not None
        choices: list[list[str]] = []
        for obj in failed.args:
            names = [p.name for p in action.params if step.binding.get(p.name) == obj]
            if obj in constants:
                names.append(obj)
            if not names:
                break
            choices.append(names)
        else:
            for n, terms in enumerate(product(*choices)):
                if n >= LIFTINGS:
                    break
                args = tuple(Var(t) if t.startswith("?") else Const(t) for t in terms)
                atom = Atom(failed.predicate, args)
                literal: Atom | Delete = Delete(atom) if failed.negated else atom
                yield action, literal, _undoes(action, atom, failed.negated)


def _undoes(action: Action, atom: Atom, negated: bool) -> bool:
    """Whether the action's effect already has the literal's opposite (a delete of the atom
    an add would restore, or the add a delete would undo)."""
    todo: list[Effect] = [action.effect] if action.effect is not None else []
    while todo:
        effect = todo.pop()
        if isinstance(effect, EffectAnd):
            todo.extend(effect.parts)
            continue
        opposite = effect.atom if isinstance(effect, Delete) and not negated else None
        if isinstance(effect, Atom) and negated:
            opposite = effect
        if opposite == atom:
            return True
    return False


def _unused_adders(
    writer: Writer, analysis: Analysis, failed: Failed, tier: int
) -> Iterator[Candidate | None]:
    """When no action of the domain adds the literal's predicate (relaxed reachability
    says it can never hold), the actions that could: each action whose parameters fit the
    predicate's, by type, the first fitting parameter for each argument."""
    if failed.negated:
        return
    facts = analysis.facts
    if facts is None or facts.can_hold(failed.predicate):
        return
    domain = analysis.domain
    predicate = next((p for p in domain.predicates if p.name == failed.predicate), None)
    if predicate is None:
        return
    for action in domain.actions:
        terms: list[Var] = []
        for wanted in predicate.params:
            fit = [p.name for p in action.params if fits(domain, p, wanted)]
            if not fit:
                break
            terms.append(Var(fit[0]))
        else:
            yield writer.add_effect(action, Atom(failed.predicate, tuple(terms)), tier)


def _reorders(
    writer: Writer, method: Method, k: int, tier: int, near: bool
) -> Iterator[Candidate | None]:
    """Pairs of steps to swap: with ``near``, those with the failing step ``k`` (a later
    one first: step k needed what it adds); else every pair."""
    n = len(method.subtasks)
    if near:
        for j in range(k + 1, n):
            yield writer.reorder(method, k, j, tier)
        for i in range(k - 1, -1, -1):
            yield writer.reorder(method, i, k, tier)
        return
    for i in range(n):
        for j in range(i + 1, n):
            yield writer.reorder(method, i, j, tier)


def _arguments(
    writer: Writer, domain: Domain, method: Method, steps: Sequence[int], tier: int
) -> Iterator[Candidate | None]:
    """Each variable argument of the steps replaced by another method variable whose type
    fits the called parameter, the later steps (nearer the failure) first."""
    for i in reversed(list(steps)):
        if i >= len(method.subtasks):
            continue
        sub = method.subtasks[i]
        declared = parameter_types(domain, sub.name)
        if declared is None or len(declared) != len(sub.args):
            continue
        for slot, term in enumerate(sub.args):
            if not isinstance(term, Var):
                continue
            for other in method.params:
                if other.name != term.name and fits(domain, other, declared[slot]):
                    yield writer.change_argument(method, i, slot, other.name, tier)


def _literals_of(writer: Writer, owner: Action | Method, tier: int) -> Iterator[Candidate | None]:
    for index in range(len(_conjuncts(owner.precondition))):
        yield writer.flip(owner, index, tier)
        yield writer.drop(owner, index, tier)


# -- methods by analogy ----------------------------------------------------------------------------


def _methodless(domain: Domain, problem: Problem) -> list[str]:
    """Tasks that are called (by a method or the initial network) but have no method."""
    decomposed = {m.task.name for m in domain.methods}
    called: list[str] = []
    calls = [s.name for m in domain.methods for s in m.subtasks]
    calls += [s.name for s in (problem.htn.subtasks if problem.htn is not None else ())]
    tasks = {t.name for t in domain.tasks}
    for name in calls:
        if name in tasks and name not in decomposed and name not in called:
            called.append(name)
    return called


def _add_methods(
    writer: Writer,
    domain: Domain,
    task_name: str,
    literals: list[Failed],
    tier: int,
    roots: frozenset[str] = frozenset(),
) -> Iterator[Candidate | None]:
    """Methods for ``task_name`` by analogy: one step calling an action or task with the
    task's own parameters (those of the same name first, then the other orders of the
    fitting ones; the closest analogies first), each sibling with its failing literal
    dropped, an "already done" method with no steps (not for a task of the initial
    network, ``roots``: the whole problem would be done by doing nothing)."""
    task = next((t for t in domain.tasks if t.name == task_name), None)
    if task is None:
        return
    names = _Names(domain)
    analogies = sorted(
        (a for x in _callables(domain) for a in _one_steps(domain, task, x)),
        key=lambda a: a[0],
    )
    for _, callee, method in analogies[:ANALOGIES]:
        named = replace(method, name=names.fresh(f"m_{task.name}_{callee}"))
        yield writer.add_method(named, f"one step, {bare(method.subtasks[0])}", tier)
    for sibling in [m for m in domain.methods if m.task.name == task_name]:
        for failed in literals:
            if failed.owner is sibling:
                parts = _conjuncts(sibling.precondition)
                kept = [c for i, c in enumerate(parts) if i != failed.index]
                pre = None if not kept else (kept[0] if len(kept) == 1 else And(tuple(kept)))
                named = replace(
                    sibling, name=names.fresh(f"{sibling.name}_relaxed"), precondition=pre
                )
                how = f"{sibling.name} without {formula_text(parts[failed.index])}"
                yield writer.add_method(named, how, tier)
    if task_name in roots:
        return  # an "already done" task of the initial network: the problem would be a no-op
    params = tuple(Typed(p.name, p.types) for p in task.params)
    done = Method(names.fresh(f"m_{task.name}_done"), params, _task_call(task), None, ())
    yield writer.add_method(done, "already done (no steps)", tier)


class _Names:
    """Fresh method names: not a name the domain uses already."""

    def __init__(self, domain: Domain) -> None:
        self.used = {m.name for m in domain.methods} | {t.name for t in domain.tasks}
        self.used |= {a.name for a in domain.actions}

    def fresh(self, wanted: str) -> str:
        name, n = wanted, 2
        while name in self.used:
            name, n = f"{wanted}_{n}", n + 1
        self.used.add(name)
        return name


def _task_call(task: Task) -> TaskCall:
    return TaskCall(task.name, tuple(Var(p.name) for p in task.params))


def _callables(domain: Domain) -> list[tuple[str, tuple[Typed, ...]]]:
    return [(a.name, a.params) for a in domain.actions] + [(t.name, t.params) for t in domain.tasks]


def _one_steps(
    domain: Domain, task: Task, callee: tuple[str, tuple[Typed, ...]]
) -> Iterator[tuple[tuple[int, int, int, int], str, Method]]:
    """One-step methods for ``task`` calling ``callee``: each of the callee's parameters
    takes a parameter of the task of a fitting type (each at most once), or a new variable
    of the method when none fits.  At most :data:`ORDERS` of them, ranked by how many of
    the task's parameters they leave unused and how many new variables they need (the
    closer the analogy, the fewer), then by how many parameters kept their name."""
    name, params = callee
    if name == task.name:
        return
    own = list(task.params)
    options: list[list[str]] = []
    for q in params:
        fitting = [p.name for p in own if fits(domain, p, q)]
        fitting.sort(key=lambda n: n != q.name)  # the same name first
        options.append([*fitting, ""])  # "": a new variable
    found: list[tuple[tuple[int, int, int, int], list[str]]] = []
    for count, choice in enumerate(product(*options)):
        if count >= 512:
            break
        used = [c for c in choice if c]
        if len(used) != len(set(used)):
            continue
        if not used and own:
            continue
        named = sum(1 for c, q in zip(choice, params, strict=True) if c == q.name)
        fresh = sum(1 for c in choice if not c)
        found.append(((len(own) - len(used), fresh, -named, len(found)), list(choice)))
    found.sort(key=lambda f: f[0])
    for score, chosen in found[:ORDERS]:
        taken = {p.name for p in own}
        args: list[str] = []
        extra: list[Typed] = []
        for c, q in zip(chosen, params, strict=True):
            if c:
                args.append(c)
                continue
            fresh_name, n = q.name, 2
            while fresh_name in taken:
                fresh_name, n = f"{q.name}{n}", n + 1
            taken.add(fresh_name)
            args.append(fresh_name)
            extra.append(Typed(fresh_name, q.types))
        method = Method(
            "",
            (*(Typed(p.name, p.types) for p in own), *extra),
            _task_call(task),
            None,
            (Subtask(name, tuple(Var(a) for a in args)),),
        )
        yield score, name, method
