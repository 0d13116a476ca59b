"""Where to look first when an HDDL problem has no plan: the decisive literal, why it is
false where it was needed, and the places of the domain that could be at fault.

Why: the search's deepest failure says *what* failed and where it was written (the
``Culprit`` of its blame), but an author needs to know why it cannot hold there, and the
fault is usually elsewhere: an action that ran earlier and should have added the literal,
a method whose steps stand in the wrong order, a task that has no method for the case at
hand.  This module reads the failure, the path the search took to it and the relaxed
reachability of the problem (computed once, :mod:`knowledge.hddl.reachability`), and says
each finding on one line, in the domain's own names, with the file line to open:

* why the literal is false at that point: never true and added by no action; added only by
  actions that cannot apply (relaxed reachability); deleted by a named earlier step; or
  added only by actions that never ran with these arguments on the path;
* an action that ran earlier on the path with the literal's objects and does not add it
  (a lost add effect), most recent first;
* a later step of the method that holds the failing step, which could add what it needs
  (two steps in the wrong order);
* a precondition that asks for a literal to be false where it holds (a negated literal);
* a compound task none of whose methods applies (a missing method).

Nothing here searches: the findings are ranked by how directly they explain the failure,
and the engine's own suspects (the conditions that cut the most branches) follow them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from engine.tofs.results import Blame, Failure
from engine.tofs.search.records import NO_METHOD

from .conditions import Culprit, conjuncts
from .model import (
    Action,
    Atom,
    Const,
    Domain,
    Method,
    Not,
    Pos,
    Problem,
    Term,
    Typed,
    Var,
)
from .reachability import Reachability, literal_text, positive_atoms
from .repair_static import fits, inverted_swaps, parameter_types
from .slips import Candidate, Need, Slips, effect_atoms

__all__ = ["LIMIT", "diagnose"]

LIMIT = 5  # suspects shown, at most (issue 28: "at most five")
FINDINGS = 4  # of them, this module's findings about the decisive literal

_CALL = re.compile(r"^\((\S+)((?:\s+[^\s()]+)*)\)$")


@dataclass(frozen=True, slots=True)
class _Frame:
    """A method open on the path: the steps it has left, the entry that opened it, and
    the method open around it (shared by every frame opened inside)."""

    method: Method
    left: int
    entry: _Step
    parent: _Frame | None
    depth: int = 1


@dataclass(frozen=True)
class _Step:
    """One entry of the path to the failure: a task and the method taken for it ("" for
    an action applied)."""

    name: str
    args: tuple[str, ...]
    method: str
    bound: tuple[tuple[str, str], ...] = ()  # the method's own variables the path shows


def diagnose(
    domain: Domain,
    problem: Problem,
    failure: Failure | None,
    engine_suspects: Sequence[Blame],
    facts: Reachability | None,
    looped: bool = False,
) -> list[Blame]:
    """At most :data:`LIMIT` places to look first, best first: this module's findings about
    the deepest failure, then the engine's suspects not already said."""
    found: list[Blame] = []
    tasks: list[Blame] = []
    weak: list[Blame] = []  # slips a working domain may show too (two IPC domains do)
    engine_tasks = [b for b in engine_suspects if b.detail == NO_METHOD]
    conditions = [b for b in engine_suspects if b.detail != NO_METHOD]
    slips = Slips(domain, problem)
    diagnosis = _Diagnosis(domain, problem, failure, facts, slips) if failure is not None else None
    on_path = {s.method for s in diagnosis.path if s.method} if diagnosis else set()
    strong = _slips(domain, slips, on_path, looped)
    if diagnosis is not None:
        found, tasks = diagnosis.findings(conditions)[:FINDINGS], diagnosis.no_method()
        weak = diagnosis.negated_static(conditions)
        for more in (diagnosis.reordered(conditions), diagnosis.inverted(), diagnosis.unused()):
            if len(found) < FINDINGS:
                found += [b for b in more if all(b.text != f.text for f in found)]
    for line in engine_tasks[:1]:  # the task that most often had no method that applied
        name = line.text.split(":", 1)[0]
        if not any(name in t.text for t in tasks):
            tasks.append(line)
    # The engine's count of the same literal joins the finding's line.
    mine = {b.detail: i for i, b in enumerate(found) if b.detail is not None}
    rest: list[Blame] = []
    for blame in conditions:
        i = mine.get(blame.detail) if blame.detail is not None else None
        if i is not None:
            count = blame.text.rsplit(" (cut ", 1)
            if len(count) == 2 and "(cut " not in found[i].text:
                old = found[i]
                found[i] = Blame(f"{old.text} (cut {count[1]}", old.file, old.line, old.detail)
            continue
        if all(blame.text != b.text for b in (*found, *rest)):
            rest.append(blame)
    # The decisive literal's line leads; the slips the text shows follow it, and a
    # finding that only repeats one of them (who should add a predicate) gives way.
    said = {b.detail for b in strong if b.detail is not None}
    later = [b for b in found[1:] if not (b.detail is not None and b.detail in said)]
    found = [*found[:1], *strong, *later, *weak]
    room = LIMIT - len(found) - len(tasks)
    return [*found, *rest[: max(room, 0)], *tasks][:LIMIT]


def _slips(domain: Domain, slips: Slips, on_path: set[str], looped: bool) -> list[Blame]:
    """What the domain's text shows by itself (:mod:`knowledge.hddl.slips`), for the top of
    the list: a domain that works shows none of it.  A method that calls its own task
    first, when the search went round (or the method is on the path, or the only one: a
    learned domain may have one that another method of the task rescues); a call that
    passes one variable twice; a task no method decomposes; an action that needs false
    what it deletes, or moves one thing and leaves another behind; a literal needed where
    nothing can ever make it true; an action parameter nothing uses.  One line of each."""
    file = os.path.basename(domain.path) if domain.path else "domain"
    out: list[Blame] = []
    loops = sorted(slips.left_recursions(), key=lambda m: m.name.lower() not in on_path)
    for method in loops:
        if not looped and len(loops) > 1 and method.name.lower() not in on_path:
            continue
        first, second = method.subtasks[0], method.subtasks[1]
        out.append(
            Blame(
                f"{method.name} ({file}:{_line(method.pos)}): step 1, "
                f"{_call_terms(first.name, first.args)}, is its own task again, with the "
                "same arguments, before anything has changed, so the search can only go "
                "round: should it come after step 2, "
                f"{_call_terms(second.name, second.args)}?",
                domain.path,
                _line(first.pos) or _line(method.pos),
            )
        )
        break
    twice = sorted(slips.twice(), key=lambda f: f[0].name.lower() not in on_path)
    for method, step, var in twice[:1]:
        call = method.subtasks[step]
        out.append(
            Blame(
                f"{method.name} ({file}:{_line(method.pos)}): step {step + 1}, "
                f"{_call_terms(call.name, call.args)}, passes {var} twice: is one of them "
                "the wrong variable?",
                domain.path,
                _line(call.pos) or _line(method.pos),
            )
        )
    for task, caller in slips.methodless()[:1]:
        who = caller.name if caller is not None else "the problem's task network"
        out.append(
            Blame(
                f"task {task.name} ({file}:{_line(task.pos)}) has no method at all, though "
                f"{who} calls it: was one deleted?",
                domain.path,
                _line(task.pos),
            )
        )
    for action, atom in slips.deletes_what_is_false()[:1]:
        text = _call_terms(atom.predicate, atom.args)
        out.append(
            Blame(
                f"{action.name} ({file}:{_line(action.pos)}) needs (not {text}) and deletes "
                f"{text}, which can never do anything: should the precondition read {text}?",
                domain.path,
                _line(atom.pos) or _line(action.pos),
            )
        )
    for action, came, left, lacking in slips.half_moves()[:1]:
        out.append(
            Blame(
                f"{action.name} ({file}:{_line(action.pos)}) adds "
                f"{_call_terms(came.predicate, came.args)} but, deleting "
                f"{_call_terms(left.predicate, left.args)}, adds no {lacking}: should its "
                "effect add it?",
                domain.path,
                _line(action.pos),
            )
        )
    for need in [n for n in slips.needs() if n.strong][:1]:
        out.append(_need_line(file, domain.path, need, slips))
    idle = slips.idle_parameter()
    if idle is not None:
        action, param, literal = idle
        out.append(
            Blame(
                f"{action.name} ({file}:{_line(action.pos)}) takes {param.name} but no "
                f"literal of it uses it: should its effect add {literal}?",
                domain.path,
                _line(action.pos),
            )
        )
    return out


def _need_line(file: str, path: str, need: Need, slips: Slips) -> Blame:
    users = ", ".join(need.users[:2]) + (" and others" if len(need.users) > 2 else "")
    if need.others:
        types = " and ".join("/".join(t) for t in need.slots)
        why = (
            f"`{need.pred}` for a {types} is needed by {users}, but no action adds it for "
            f"these types (only {', '.join(need.others)}, for others) and the initial state "
            "does not hold it"
        )
    elif not need.wanted:
        asked = f" and asked to be false by {users}" if need.users else ""
        why = (
            f"`{need.pred}` is deleted by {', '.join(need.deleters[:3])}{asked}, but no action "
            "adds it and the initial state does not hold it, so none of that does anything"
        )
    else:
        why = (
            f"`{need.pred}` is needed by {users} and deleted by {', '.join(need.deleters)}, "
            "but no action adds it and the initial state does not hold it"
        )
    found = slips.candidates(need.pred, need.slots)
    line = _line(found[0].action.pos) if found else _line(need.pos)  # where to edit
    return Blame(f"{why}{_should(found)}", path, line, ("adds", need.pred))


def _should(candidates: Sequence[Candidate]) -> str:
    """The question that ends a line: which action should add the literal (up to three)."""
    if not candidates:
        return ""
    first, *more = candidates
    text = f": should {first.action.name}'s effect add {first.literal}"
    for c in more:
        text += f", or {c.action.name}'s {c.literal}"
    return text + "?"


class _Diagnosis:
    def __init__(
        self,
        domain: Domain,
        problem: Problem,
        failure: Failure,
        facts: Reachability | None,
        slips: Slips,
    ) -> None:
        self.slips = slips
        self.domain = domain
        self.problem = problem
        self.failure = failure
        self.facts = facts
        self.file = os.path.basename(domain.path) if domain.path else "domain"
        self.actions = {a.name.lower(): a for a in domain.actions}
        self.methods = {m.name.lower(): m for m in domain.methods}
        self.path = [s for s in map(_step, failure.via) if s is not None]
        self._task_effects: dict[tuple[str, bool], frozenset[str]] = {}

    # ------------------------------------------------------------------ the findings

    def findings(self, engine_suspects: Sequence[Blame]) -> list[Blame]:
        """What the decisive literal says: why it is false there, and who may be at
        fault (its first line carries the culprit as ``detail``).  The decisive literal is
        the deepest failure's; when that failure is only bindings of the wrong type, the
        literal that cut the most branches, read without the path (it was not on it)."""
        culprit = _culprit(self.failure)
        if culprit is None:
            culprit = next((b.detail for b in engine_suspects if _is_literal(b.detail)), None)
            self.path = []
        return self._literal(culprit) if culprit is not None else []

    def _literal(self, culprit: Culprit) -> list[Blame]:
        literal = culprit.literal
        negated = isinstance(literal, Not)
        atom = literal.body if isinstance(literal, Not) else literal
        if not isinstance(atom, Atom):
            return []
        pred = atom.predicate.lower()
        args = tuple(_name(t) for t in atom.args)
        text = literal_text(pred, args)
        where = _where(culprit)
        if negated:
            return self._holds(culprit, pred, args, text, where)
        before = self._before()
        why, suspects, deleted = self._why_false(pred, args, before)
        first = Blame(
            f"`{text}` is false where {where} needs it: {why}", *self._at(culprit), culprit
        )
        wrong_values = self._static(pred) and not self._in_init(pred, args)
        if wrong_values:
            return [
                first,
                *self._arguments(culprit, pred, args),
                *self._lost(pred),
                *self._negations(culprit, pred),
            ]
        return [
            first,
            *(self._clash(pred, args) if deleted else self._misdirected(pred, args)),
            *self._uncalled(pred),
            *([] if deleted else self._later_adder(pred, args)),
            *self._lost(pred),
            *suspects,
            *self._order(culprit, pred, deleted),
            *self._arguments(culprit, pred, args),
        ]

    def negated_static(self, engine_suspects: Sequence[Blame]) -> list[Blame]:
        """A place on the path (or one the engine counts cuts at) that needs a fact of
        the problem (one no action adds or deletes) to be false: rare in a domain that
        works (two of the 19 IPC domains have one), and what a precondition written the
        wrong way round looks like."""
        culprit = _culprit(self.failure)
        owners = [culprit.origin.owner.lower()] if culprit is not None else []
        owners += [s.method or s.name for s in reversed(self.path)]
        owners += [b.detail.origin.owner.lower() for b in engine_suspects if _is_literal(b.detail)]
        for owner in dict.fromkeys(owners):
            place: Action | Method | None = self.actions.get(owner) or self.methods.get(owner)
            if place is None:
                continue
            for literal in conjuncts(place.precondition):
                if not isinstance(literal, Not) or not isinstance(literal.body, Atom):
                    continue
                atom = literal.body
                if not self._static(atom.predicate.lower()):
                    continue
                text = _call_terms(atom.predicate, atom.args)
                return [
                    Blame(
                        f"{place.name} ({self.file}:{_line(place.pos)}) needs (not {text}), "
                        "a fact of the problem that no action changes, to be false: should "
                        f"it read {text}?",
                        self.domain.path,
                        _line(atom.pos) or _line(place.pos),
                    )
                ]
        return []

    def _done_already(self, pred: str) -> list[Method]:
        """Methods with no steps that need ``pred``: the case of a task where what it is
        for holds already, so some action must be able to make it true."""
        return [
            m
            for m in self.domain.methods
            if not m.subtasks
            and any(a.predicate.lower() == pred for a in positive_atoms(m.precondition))
        ]

    def _uncalled(self, pred: str) -> list[Blame]:
        """The actions that add ``pred`` are steps of no method: a method that called them
        is missing, likely for the task whose stepless method needs ``pred`` (the task
        that makes it true, which can now only find it true already)."""
        adders = [a.name for a in self.domain.actions if pred in _adds(a)]
        called = {s.name for m in self.domain.methods for s in m.subtasks}
        if self.problem.htn is not None:
            called |= {s.name for s in self.problem.htn.subtasks}
        if not adders or any(a in called for a in adders):
            return []
        done = self._done_already(pred)
        tasks = list(dict.fromkeys(m.task.name for m in done))
        names = " or ".join(adders)
        if tasks:
            task, method = tasks[0], next(m for m in done if m.task.name == tasks[0])
            text = (
                f"no method calls {names}, which alone adds `{pred}`: has task {task} lost "
                f"a method? its {method.name} ({self.file}:{_line(method.pos)}) only finds "
                f"`{pred}` true already"
            )
            return [Blame(text, self.domain.path, _line(method.pos))]
        text = f"no method calls {names}, which alone adds `{pred}`: is a method missing?"
        return [Blame(text, self.domain.path, None)]

    def _lost(self, pred: str) -> list[Blame]:
        """Who may have lost the add effect, from the domain alone: with no action adding
        ``pred``, those whose parameters fit it; otherwise an action much like one that
        adds it (the same needs and effects but that one) that does not."""
        slots = self.slips.declared(pred)
        if not any(pred in _adds(a) for a in self.domain.actions):
            if self._static(pred) and not self._done_already(pred):
                return []  # a fact of the problem, asked with the wrong values
            found = self.slips.candidates(pred, slots)
            if not found:
                return []
            return [
                Blame(
                    f"no action adds `{pred}`{_should(found)}",
                    self.domain.path,
                    _line(found[0].action.pos),
                    ("adds", pred),
                )
            ]
        for candidate, adder in self.slips.like_adders(pred, slots)[:1]:
            action = candidate.action
            return [
                Blame(
                    f"{action.name} ({self.file}:{_line(action.pos)}) is much like "
                    f"{adder.name}, which adds `{pred}`, but adds none: should its effect "
                    f"add {candidate.literal}?",
                    self.domain.path,
                    _line(action.pos),
                )
            ]
        return []

    def _holds(
        self, culprit: Culprit, pred: str, args: tuple[str, ...], text: str, where: str
    ) -> list[Blame]:
        """A precondition needs ``(not text)`` where ``text`` holds."""
        since = "it holds in the initial state"
        for i, step in reversed(list(enumerate(self._before(), 1))):
            action = self.actions.get(step.name)
            if action is not None and _matching(action, step.args, pred, args, adds=True):
                since = f"step {i} of the path, {_call(step)}, adds it"
                break
        else:
            if not any(
                a.predicate.lower() == pred and tuple(_name(t) for t in a.args) == args
                for a in self.problem.init
            ):
                since = "it holds there"
        owner = culprit.origin.owner
        lifted = _lifted_text(culprit)
        return [
            Blame(
                f"`{text}` holds where {where} needs it false: {since}; should {owner}'s "
                f"precondition read {lifted} rather than (not {lifted})?",
                *self._at(culprit),
                culprit,
            )
        ]

    def _why_false(
        self, pred: str, args: tuple[str, ...], before: list[_Step]
    ) -> tuple[str, list[Blame], bool]:
        """Why the literal is false after ``before``, the actions on the path that may be
        at fault, and whether a step of the path deleted it."""
        adders = [a for a in self.domain.actions if pred in _adds(a)]
        in_init = any(a.predicate.lower() == pred for a in self.problem.init)
        added_at = deleted_at = 0
        for i, step in enumerate(before, 1):
            action = self.actions.get(step.name)
            if action is None:
                continue
            if _matching(action, step.args, pred, args, adds=True):
                added_at = i
            if _matching(action, step.args, pred, args, adds=False):
                deleted_at = i
        suspects = self._should_add(pred, args, before, max(added_at, deleted_at))
        if not adders:
            if in_init and self._static(pred):
                # A static fact: nothing is lost; the values asked for are the fault.
                why = (
                    f"`{pred}` is static (no action adds or deletes it), and the initial "
                    "state does not hold it with these arguments"
                )
                return why, [], False
            held = " and the initial state does not hold it" if not in_init else ""
            why = f"no action of the domain adds `{pred}`{held}"
            return why, suspects, False
        if deleted_at > added_at:
            step = before[deleted_at - 1]
            return f"step {deleted_at} of the path, {_call(step)}, deletes it", suspects, True
        if self.facts is not None and not self.facts.can_hold(pred, args):
            return self.facts.why_never(pred, args), suspects, False
        names = ", ".join(a.name for a in adders)
        return (
            f"it is added only by {names}, which did not run with these arguments before it",
            suspects,
            False,
        )

    def _should_add(
        self, pred: str, args: tuple[str, ...], before: list[_Step], since: int
    ) -> list[Blame]:
        """Actions that ran after ``since`` with every object of the literal and do not add
        it, most recent first: one of them may have lost the add effect."""
        out: list[Blame] = []
        seen: set[str] = set()
        for i in range(len(before), since, -1):
            step = before[i - 1]
            action = self.actions.get(step.name)
            if action is None or action.name in seen or pred in _adds(action):
                continue
            lifted = self._lift(action, step.args, pred, args)
            if lifted is None:
                continue
            seen.add(action.name)
            out.append(
                Blame(
                    f"{action.name} ({self.file}:{_line(action.pos)}) ran before it as "
                    f"{_call(step)} and adds no `{pred}`: should its effect add "
                    f"{literal_text(pred, lifted)}?",
                    self.domain.path,
                    _line(action.pos),
                )
            )
            if len(out) == 2:
                break
        return out

    def _order(
        self,
        culprit: Culprit,
        pred: str,
        deleted: bool,
        places: list[tuple[str, int]] | None = None,
    ) -> list[Blame]:
        """Two steps of the method holding the failing step that clash over ``pred``: a
        later step that could add it (the two may stand in the wrong order), or, when it
        was deleted on the way, an earlier step that may delete it (the wrong order, or
        the wrong arguments in one of the calls)."""
        out: list[Blame] = []
        for method_name, step in self._places(culprit) if places is None else places:
            method = self.methods.get(method_name.lower())
            if method is None or not 0 < step <= len(method.subtasks):
                continue
            need = method.subtasks[step - 1]
            needs = f"step {step}, {_call_terms(need.name, need.args)}, needs"
            at = f"{method.name} ({self.file}:{_line(method.pos)})"
            for j in range(step - 2 if deleted else -1, -1, -1):
                earlier = method.subtasks[j]
                if pred in self._effects_of_task(earlier.name.lower(), False):
                    out.append(
                        Blame(
                            f"{at}: step {j + 1}, {_call_terms(earlier.name, earlier.args)}, "
                            f"can delete `{pred}` that {needs}: are the two in the right "
                            "order, with the right arguments?",
                            self.domain.path,
                            _line(earlier.pos) or _line(method.pos),
                        )
                    )
                    break
            for j in range(step, len(method.subtasks)):
                later = method.subtasks[j]
                if pred in self._effects_of_task(later.name.lower(), True):
                    out.append(
                        Blame(
                            f"{at}: step {j + 1}, {_call_terms(later.name, later.args)}, "
                            f"can add `{pred}` that {needs}: should it come first?",
                            self.domain.path,
                            _line(later.pos) or _line(method.pos),
                        )
                    )
                    break
        return out

    def _arguments(self, culprit: Culprit, pred: str, args: tuple[str, ...]) -> list[Blame]:
        """A call of the failing step that passes one variable twice, or whose values make
        the literal one that can never hold: a subtask called with the wrong variable."""
        literal = literal_text(pred, args)
        # A static fact asked with values the initial state does not hold: nothing can
        # make it true, so the values (the call's arguments) are what is wrong.
        never = (
            self._static(pred)
            and all(not a.startswith("?") for a in args)
            and not self._in_init(pred, args)
        )
        for method_name, step in self._places(culprit):
            method = self.methods.get(method_name.lower())
            if method is None or not 0 < step <= len(method.subtasks):
                continue
            call = method.subtasks[step - 1]
            names = [t.name for t in call.args if isinstance(t, Var)]
            twice = next((n for n in names if names.count(n) > 1), None)
            at = f"{method.name} ({self.file}:{_line(method.pos)}): step {step}, "
            at += _call_terms(call.name, call.args)
            where = self.domain.path, _line(call.pos) or _line(method.pos)
            if twice is not None:
                text = f"{at}, passes {twice} twice: is one of them the wrong variable?"
                return [Blame(text, *where)]
            if never:
                text = f"{at}, leads to {literal}, which can never hold: are its arguments right?"
                return [Blame(text, *where)]
        return []

    def _static(self, pred: str) -> bool:
        """No action adds or deletes the predicate, and the initial state holds some of it."""
        return not any(
            pred in _adds(a) or pred in _deletes(a) for a in self.domain.actions
        ) and any(a.predicate.lower() == pred for a in self.problem.init)

    def _in_init(self, pred: str, args: Sequence[str]) -> bool:
        return any(
            a.predicate.lower() == pred and tuple(_name(t) for t in a.args) == tuple(args)
            for a in self.problem.init
        )

    def _negations(self, culprit: Culprit, pred: str) -> list[Blame]:
        """Where a static fact is asked with the wrong values, a negated literal beside it
        binds nothing: if it was meant positive, it would have chosen other values."""
        owner = culprit.origin.owner.lower()
        place: Action | Method | None = self.actions.get(owner) or self.methods.get(owner)
        if place is None:
            return []
        out: list[Blame] = []
        for literal in conjuncts(place.precondition):
            if not isinstance(literal, Not) or not isinstance(literal.body, Atom):
                continue
            atom = literal.body
            if atom.predicate.lower() == pred:
                continue
            text = _call_terms(atom.predicate, atom.args)
            out.append(
                Blame(
                    f"{place.name} ({self.file}:{_line(place.pos)}) needs (not {text}) beside "
                    f"it, which chooses no objects: should it read {text}?",
                    self.domain.path,
                    _line(atom.pos) or _line(place.pos),
                )
            )
        return out[:1]

    def _places(self, culprit: Culprit) -> list[tuple[str, int]]:
        """The method steps the failing literal stands in: the step it was pulled up from,
        and the step of the method that called the failing task."""
        places: list[tuple[str, int]] = []
        origin = culprit.origin
        if origin.step is not None and origin.method:
            places.append((origin.method, origin.step))
        parent = self._parent()
        if parent is not None and parent not in places:
            places.append(parent)
        return places

    def reordered(self, suspects: Sequence[Blame]) -> list[Blame]:
        """For the engine's suspects: a literal a method checks for one of its later steps
        (pulled up from step k) that a step after k could add -- the two may have changed
        places.  The first such finding, if any."""
        for blame in suspects:
            culprit = blame.detail
            if not _is_literal(culprit):
                continue
            assert isinstance(culprit, Culprit)
            origin = culprit.origin
            if origin.step is None or not origin.method:
                continue
            literal = culprit.literal
            atom = literal.body if isinstance(literal, Not) else literal
            if isinstance(literal, Not) or not isinstance(atom, Atom):
                continue
            found = self._order(
                culprit, atom.predicate.lower(), False, [(origin.method, origin.step)]
            )
            if found:
                return found[:1]
        return []

    def inverted(self) -> list[Blame]:
        """A method on the failed path whose step needs what only a later step of it adds
        (:func:`~knowledge.hddl.repair_static.inverted_swaps`, which the repairs use too),
        where swapping the two leaves fewer such steps: the two may have changed places.
        Only methods on the path: a clean domain has a few such methods of its own."""
        on_path = {s.method for s in self.path if s.method}
        parent = self._parent()
        if parent is not None:
            on_path.add(parent[0].lower())
        for method, i, j in inverted_swaps(self.domain):
            if method.name.lower() not in on_path:
                continue
            a, b = method.subtasks[i], method.subtasks[j]
            return [
                Blame(
                    f"{method.name} ({self.file}:{_line(method.pos)}): step {i + 1}, "
                    f"{_call_terms(a.name, a.args)}, needs what only step {j + 1}, "
                    f"{_call_terms(b.name, b.args)}, adds: should they change places?",
                    self.domain.path,
                    _line(a.pos) or _line(method.pos),
                )
            ]
        return []

    def unused(self) -> list[Blame]:
        """A method variable that no step and not its task takes (bound, if at all, only to
        be checked): a step was likely meant to take it -- a subtask called with the wrong
        variable leaves the right one unused.  Methods on the failed path are looked at;
        elsewhere only the domain's one such method, if it has exactly one."""
        on_path = [self.methods[s.method] for s in self.path if s.method in self.methods]
        parent = self._parent()
        if parent is not None and parent[0].lower() in self.methods:
            on_path.append(self.methods[parent[0].lower()])
        smelly = [m for m in self.domain.methods if _unused(m)]
        candidates = [m for m in dict.fromkeys(on_path) if _unused(m)]
        if not candidates and len(smelly) == 1:
            candidates = smelly
        for method in candidates:
            var = _unused(method)[0]
            slot = self._slot_for(method, var)
            where = f" ({slot} could take it)" if slot else ""
            return [
                Blame(
                    f"{method.name} ({self.file}:{_line(method.pos)}) binds {var.name} but "
                    f"passes it to no step{where}: is a step called with the wrong variable?",
                    self.domain.path,
                    _line(method.pos),
                )
            ]
        return []

    def _slot_for(self, method: Method, var: Typed) -> str:
        """The first step of ``method`` with an argument of ``var``'s type held by another
        variable: where the unused variable could go."""
        for i, step in enumerate(method.subtasks, 1):
            declared = parameter_types(self.domain, step.name) or ()
            for slot, term in enumerate(step.args):
                if slot >= len(declared) or not isinstance(term, Var) or term.name == var.name:
                    continue
                if fits(self.domain, var, declared[slot]):
                    return f"step {i}, {_call_terms(step.name, step.args)},"
        return ""

    def no_method(self) -> list[Blame]:
        """A compound task none of whose methods applied."""
        f = self.failure
        if f.field != "no method":
            return []
        step = _step((f.task, ""))
        if step is None or step.name in self.actions:
            return []
        task = next((t for t in self.domain.tasks if t.name.lower() == step.name), None)
        methods = [m.name for m in self.domain.methods if m.task.name.lower() == step.name]
        pos = task.pos if task is not None else None
        if not methods:
            text = f"task {step.name} has no method: none decomposes {f.task}"
        else:
            text = (
                f"no method of task {step.name} applies to {f.task} "
                f"(it has {', '.join(methods)}): is one missing for this case?"
            )
        return [Blame(text, self.domain.path, _line(pos))]

    # ------------------------------------------------------------------ the path

    def _before(self) -> list[_Step]:
        """The actions applied on the path before the failure, in order."""
        return [s for s in self.path if not s.method and s.name in self.actions]

    def _stack(self, i: int) -> list[tuple[Method, int]]:
        """The open methods above entry ``i`` of the path (-1: one past its end, the
        failing task) with the 1-based step each is at, outermost first."""
        return [(m, k) for m, k, _ in self._open(i)]

    def _open(self, i: int) -> list[tuple[Method, int, _Step]]:
        """:meth:`_stack` with the path entry that opened each method (its bindings)."""
        out: list[tuple[Method, int, _Step]] = []
        frame = self._frames[i]
        while frame is not None:
            out.append((frame.method, len(frame.method.subtasks) - frame.left, frame.entry))
            frame = frame.parent
        out.reverse()
        return out

    @cached_property
    def _frames(self) -> list[_Frame | None]:
        """For each entry of the path and one past its end, the innermost open method:
        frames share their parents, so a path thousands of steps deep (a failure after a
        long search) costs one frame an entry, not its whole stack."""
        out: list[_Frame | None] = []
        top: _Frame | None = None
        for s in [*self.path, None]:
            while top is not None and top.left == 0:
                top = top.parent
            if top is not None:
                top = _Frame(top.method, top.left - 1, top.entry, top.parent, top.depth)
            out.append(top)
            method = self.methods.get(s.method) if s is not None and s.method else None
            if s is not None and method is not None:
                depth = 1 if top is None else top.depth + 1
                top = _Frame(method, len(method.subtasks), s, top, depth)
        return out

    def _later_adder(self, pred: str, args: tuple[str, ...]) -> list[Blame]:
        """A method above the failing step whose later step -- an action -- adds the very
        literal (its arguments as the path bound them): the two steps may stand in the
        wrong order.  The nearest such method."""
        for method, k, entry in reversed(self._open(-1)):
            binding = dict(zip((_name(t) for t in method.task.args), entry.args, strict=False))
            binding.update(entry.bound)
            for j in range(k, len(method.subtasks)):
                later = method.subtasks[j]
                action = self.actions.get(later.name.lower())
                if action is None:
                    continue
                values = [
                    binding.get(_name(t), "?") if isinstance(t, Var) else _name(t)
                    for t in later.args
                ]
                if not _matching(action, values, pred, args, adds=True):
                    continue
                need = method.subtasks[k - 1]
                return [
                    Blame(
                        f"{method.name} ({self.file}:{_line(method.pos)}): step {j + 1}, "
                        f"{_call_terms(later.name, later.args)}, adds "
                        f"{literal_text(pred, args)} that step {k}, "
                        f"{_call_terms(need.name, need.args)}, needs: should it come first?",
                        self.domain.path,
                        _line(later.pos) or _line(method.pos),
                    )
                ]
        return []

    def _clash(self, pred: str, args: tuple[str, ...]) -> list[Blame]:
        """When a step of the path deleted the literal: the method both it and the failing
        task stand under, with the two steps of it they come from -- the deleting one first
        and the needing one after, which a swap of the two would put right."""
        actions = [i for i, s in enumerate(self.path) if not s.method and s.name in self.actions]
        deleting = None
        for i in actions:
            step = self.path[i]
            action = self.actions[step.name]
            if _matching(action, step.args, pred, args, adds=False):
                deleting = i
            elif _matching(action, step.args, pred, args, adds=True):
                deleting = None
        if deleting is None:
            return []
        above, below = self._stack(deleting), self._stack(-1)
        for depth in range(min(len(above), len(below)) - 1, -1, -1):
            (m1, a), (m2, b) = above[depth], below[depth]
            if m1 is not m2 or not 0 < a < b <= len(m1.subtasks):
                continue
            if any(above[d][0] is not below[d][0] for d in range(depth)):
                continue
            first, second = m1.subtasks[a - 1], m1.subtasks[b - 1]
            return [
                Blame(
                    f"{m1.name} ({self.file}:{_line(m1.pos)}): step {a}, "
                    f"{_call_terms(first.name, first.args)}, deletes `{pred}` (by "
                    f"{_call(self.path[deleting])}) that step {b}, "
                    f"{_call_terms(second.name, second.args)}, needs: should they change "
                    "places?",
                    self.domain.path,
                    _line(first.pos) or _line(m1.pos),
                )
            ]
        return []

    def _misdirected(self, pred: str, args: tuple[str, ...]) -> list[Blame]:
        """An action of the path that adds ``pred`` for other objects, an earlier step of
        the method whose own step failed: one of the two calls may pass the wrong variable
        (visit ?to where unvisit ?from needs (visited ?from))."""
        below = self._stack(-1)
        for i in range(len(self.path) - 1, -1, -1):
            step = self.path[i]
            action = self.actions.get(step.name) if not step.method else None
            if action is None or not any(
                atom.predicate.lower() == pred and len(atom.args) == len(args)
                for atom, add in effect_atoms(action.effect)
                if add
            ):
                continue
            # Both must be steps of one method instance itself, not deeper down: a step
            # that moves on before a recursive call adds the literal for other objects
            # by design.
            frame = self._frames[i]
            if frame is None or frame.depth != len(below):
                continue  # (the depth first: a long path's stacks are long)
            above = self._stack(i)  # as deep as ``below``, one frame at least
            if any(x[0] is not y[0] for x, y in zip(above, below, strict=True)):
                continue
            method, a = above[-1]
            b = below[-1][1]
            if not 0 < a < b <= len(method.subtasks):
                continue
            first, second = method.subtasks[a - 1], method.subtasks[b - 1]
            if second.name.lower() not in self.actions:
                continue  # a task's methods may need it for any number of reasons
            return [
                Blame(
                    f"{method.name} ({self.file}:{_line(method.pos)}): step {a}, "
                    f"{_call_terms(first.name, first.args)}, adds `{pred}` for other objects "
                    f"({_call(step)}) than step {b}, {_call_terms(second.name, second.args)}, "
                    "needs: is one of the two called with the wrong variable?",
                    self.domain.path,
                    _line(first.pos) or _line(method.pos),
                )
            ]
        return []

    def _parent(self) -> tuple[str, int] | None:
        """The method whose step the failing task is, with the step's 1-based position
        (the innermost of :meth:`_stack` past the path's end)."""
        open_here = self._stack(-1)
        if not open_here:
            return None
        method, step = open_here[-1]
        return method.name, step

    def _effects_of_task(self, name: str, adds: bool) -> frozenset[str]:
        """The predicates a task may add (or delete), through any of its decompositions
        (relaxed: every method, every step)."""
        key = (name, adds)
        done = self._task_effects.get(key)
        if done is not None:
            return done
        self._task_effects[key] = frozenset()  # recursion: what is known so far
        action = self.actions.get(name)
        if action is not None:
            found = frozenset(
                a.predicate.lower() for a, add in effect_atoms(action.effect) if add == adds
            )
        else:
            found = frozenset().union(
                *(
                    self._effects_of_task(sub.name.lower(), adds)
                    for m in self.domain.methods
                    if m.task.name.lower() == name
                    for sub in m.subtasks
                )
            )
        self._task_effects[key] = found
        return found

    def _lift(
        self, action: Action, values: Sequence[str], pred: str, args: Sequence[str]
    ) -> list[str] | None:
        """The literal in the action's variables: each object as the parameter that took
        it, each variable the match had not bound as an unused parameter of the
        predicate's type there; None when the action did not take every object (or took
        none of a literal that has some)."""
        out: list[str] = []
        declared = next((p.params for p in self.domain.predicates if p.name.lower() == pred), ())
        for i, a in enumerate(args):
            if a.startswith("?"):
                wanted = declared[i].types if i < len(declared) else ()
                free = [
                    p.name
                    for p in action.params
                    if p.name not in out
                    and all(any(w in self.domain.ancestors(t) for w in wanted) for t in p.types)
                ]
                if not free:
                    return None
                out.append(free[0])
                continue
            hit = next(
                (p.name for p, v in zip(action.params, values, strict=False) if v == a), None
            )
            if hit is None:
                return None
            out.append(hit)
        if args and all(a.startswith("?") for a in args):
            return None
        return out

    def _at(self, culprit: Culprit) -> tuple[str, int | None]:
        return culprit.origin.file or self.domain.path, culprit.origin.line


# -- helpers ---------------------------------------------------------------------------------


def _unused(method: Method) -> list[Typed]:
    """The method's parameters that neither its task nor any of its steps takes."""
    used = {t.name for t in method.task.args if isinstance(t, Var)}
    for step in method.subtasks:
        used.update(t.name for t in step.args if isinstance(t, Var))
    return [p for p in method.params if p.name not in used]


def _culprit(failure: Failure) -> Culprit | None:
    """The decisive failed literal: the failure's own, else its first cause's (a
    parameter's type is no literal: a binding that does not fit is no fault)."""
    todo = [failure]
    while todo:
        f = todo.pop(0)
        detail = f.blame.detail if f.blame is not None else None
        if _is_literal(detail):
            assert isinstance(detail, Culprit)
            return detail
        todo.extend(f.causes)
    return None


def _is_literal(detail: object) -> bool:
    return isinstance(detail, Culprit) and isinstance(detail.literal, Atom | Not)


def _where(culprit: Culprit) -> str:
    o = culprit.origin
    at = f" ({os.path.basename(o.file) or 'domain'}:{o.line})" if o.line else ""
    if o.step is not None:
        return f"step {o.step} of {o.method}, {o.owner}{at},"
    return f"{o.owner}{at}"


def _lifted_text(culprit: Culprit) -> str:
    literal = culprit.literal
    atom = literal.body if isinstance(literal, Not) else literal
    assert isinstance(atom, Atom)
    return literal_text(atom.predicate, [_name(t) for t in atom.args])


def _step(entry: tuple[str, str]) -> _Step | None:
    task, alternative = entry
    m = _CALL.match(task.strip())
    if m is None:
        return None
    method, _, rest = alternative.partition("(")
    bound = tuple(
        (var.strip().lower(), value.strip().lower())
        for var, eq, value in (pair.partition("=") for pair in rest.rstrip(")").split(","))
        if eq
    )
    args = tuple(a.lower() for a in m.group(2).split())
    return _Step(m.group(1).lower(), args, method.strip().lower(), bound)


def _call(step: _Step) -> str:
    return "(" + " ".join((step.name, *step.args)) + ")"


def _call_terms(name: str, args: Iterable[Term]) -> str:
    return "(" + " ".join((name, *(str(a) for a in args))) + ")"


def _name(term: Term) -> str:
    return str(term.name).lower() if isinstance(term, Var | Const) else str(term).lower()


def _line(pos: Pos | None) -> int | None:
    return pos.line if pos is not None else None


def _adds(action: Action) -> frozenset[str]:
    return frozenset(a.predicate.lower() for a, add in effect_atoms(action.effect) if add)


def _deletes(action: Action) -> frozenset[str]:
    return frozenset(a.predicate.lower() for a, add in effect_atoms(action.effect) if not add)


def _matching(
    action: Action, values: Sequence[str], pred: str, args: Sequence[str], adds: bool
) -> bool:
    """Whether the action, applied with ``values``, adds (or deletes) ``(pred args)``."""
    binding = {p.name.lower(): v for p, v in zip(action.params, values, strict=False)}
    for atom, add in effect_atoms(action.effect):
        if add != adds or atom.predicate.lower() != pred or len(atom.args) != len(args):
            continue
        ground = [binding.get(_name(t), "?") if isinstance(t, Var) else _name(t) for t in atom.args]
        if all(g == a or g == "?" for g, a in zip(ground, args, strict=True)):
            return True
    return False
