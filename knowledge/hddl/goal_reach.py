"""The goal cut: a node whose state lacks a goal atom that no task left can add is a dead
end, found where it happens rather than at the leaf after every way of doing the steps
between (Blocksworld's ``(on b2 b6)`` undone by a later step).

What a task can add is worked out once, lifted, from the actions' add effects up through
the methods (:func:`add_patterns`), and matched on a ground task's arguments.  Each way
of adding an atom also keeps the action's preconditions that the atom's own arguments
fix: at the boundaries of the initial task network, a goal atom counts as reachable only
through a way whose preconditions hold now or could still be added.  Woodworking's
``process`` can colour *any* part through one of its methods, so by the lifted patterns
alone a part painted the wrong colour early is found out only at the last part; but the
paint needs the part untreated, which only that part's own (finished) process could make
it, so the cut comes as soon as the part is done.

The same patterns order a task's alternatives (:func:`goal_order`): where a method's
precondition fixes the arguments of the only steps that add a goal atom, the alternatives
whose steps meet that guard come first.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from engine.tofs.search import checkpoint

from .conditions import Obj, Test, World, conjuncts
from .landmarks import Landmark, landmarks
from .model import Atom, Const, Domain, Equals, Method, Problem, Term, Var
from .reachability import positive_atoms
from .slips import effect_atoms

__all__ = ["GoalPatterns", "goal_order", "goal_patterns", "goal_reach"]

# A slot of a lifted atom: the task's parameter at that index, a constant's name, or ANY
# (a variable no argument gives).  A requirement's slot may also be ("=", k): whatever the
# added atom has at position k (a variable the task does not give but the atom names).
Slot = int | str | None
ANY: Slot = None
ReqSlot = int | str | tuple[str, int]
Requirement = tuple[str, tuple[ReqSlot, ...]]
# The slots, and a guard: per parameter of the task, the constant it must be for the way
# to apply (a method whose precondition fixes an argument), or ANY.
Key = tuple[tuple[Slot, ...], tuple[str | None, ...]]
# Per task or action, per predicate: per key, the alternative sets of requirements (any
# one set may be what holds; the empty set: none needed).
Ways = dict[Key, set[tuple[Requirement, ...]]]
Patterns = dict[str, dict[str, Ways]]

KEPT = 32  # more keys for one predicate of one task: it can add any atom of it
ALTERNATIVES = 4  # more sets of requirements for one key: counted as needing none
NONE_NEEDED: tuple[Requirement, ...] = ()
TOLD_AT_MOST = 32  # needed atoms the cut asks about, at most; more: none (:func:`_telling`)
SOONER = 1 << 12  # (goal_order: steps told apart by how soon the guarded one comes)
SEEN_AT_MOST = 1024  # states' wanted atoms kept (:func:`goal_reach`), then begun again
OPEN = Obj("?")  # a variable not chosen yet: may be any object (compared by identity)


def _fixed(method: Method) -> dict[str, str]:
    """The method's variables its precondition sets equal to a constant."""
    out: dict[str, str] = {}
    for c in conjuncts(method.precondition) + conjuncts(method.constraints):
        if isinstance(c, Equals):
            for var, other in ((c.left, c.right), (c.right, c.left)):
                if isinstance(var, Var) and isinstance(other, Const):
                    out[var.name] = str(other.name)
    return out


def _merge(ways: Ways, key: Key, alternatives: Iterable[tuple[Requirement, ...]]) -> None:
    mine = ways.setdefault(key, set())
    if NONE_NEEDED in mine:
        return
    mine.update(alternatives)
    if NONE_NEEDED in mine or len(mine) > ALTERNATIVES:
        mine.clear()
        mine.add(NONE_NEEDED)


def add_patterns(domain: Domain, predicates: set[str]) -> Patterns:
    """Per task and action name, the atoms of ``predicates`` it can add, as patterns over
    its own parameters: a fixed point over the methods, from the actions' add effects.  An
    over-estimate, which is what a cut needs: a method's variable that neither its task
    nor an equality of its precondition gives may be anything, and so may a quantified one;
    a requirement that such a variable leaves open is dropped."""
    out: Patterns = {}
    for action in domain.actions:
        index = {p.name: i for i, p in enumerate(action.params)}
        mine = out.setdefault(action.name, {})
        free: tuple[str | None, ...] = (None,) * len(action.params)
        needs: list[Requirement] = []
        for atom in positive_atoms(action.precondition):
            slots = tuple(_action_slot(t, index) for t in atom.args)
            if all(s is not ANY for s in slots):
                needs.append((atom.predicate, slots))  # type: ignore[arg-type]
        for atom, add in effect_atoms(action.effect):
            if add and atom.predicate in predicates:
                key = (tuple(_action_slot(t, index) for t in atom.args), free)
                _merge(mine.setdefault(atom.predicate, {}), key, [tuple(needs)])
    for task in domain.tasks:
        out.setdefault(task.name, {})
    methods = [(m, _MethodView(m)) for m in domain.methods]
    # (task, predicate) that can add any atom of the predicate: kept so for good, or a
    # set that collapses and grows back would keep the fixed point from ever settling.
    collapsed: set[tuple[str, str]] = set()
    changed = True
    while changed:
        changed = False
        checkpoint()  # a large domain's fixed point is part of reading it, under the budgets
        for method, view in methods:
            mine = out.setdefault(method.task.name, {})
            for sub in method.subtasks:
                # copies: a recursive method's subtask adds to the very sets it reads
                for predicate, ways in list(out.get(sub.name, {}).items()):
                    if (method.task.name, predicate) in collapsed:
                        continue
                    here = mine.setdefault(predicate, {})
                    before = {k: frozenset(v) for k, v in here.items()}
                    for key, alternatives in list(ways.items()):
                        lifted = view.lift(key, sub.args)
                        if lifted is not None:
                            _merge(here, lifted, view.lift_needs(key, alternatives, sub.args))
                    if len(here) > KEPT:
                        slots, guard = next(iter(here))
                        here.clear()
                        here[((ANY,) * len(slots), (None,) * len(guard))] = {NONE_NEEDED}
                        collapsed.add((method.task.name, predicate))
                    changed = (
                        changed
                        or here.keys() != before.keys()
                        or any(before[k] != v for k, v in here.items())
                    )
    return out


def _action_slot(term: Term, index: Mapping[str, int]) -> Slot:
    if isinstance(term, Const):
        return str(term.name)
    return index.get(term.name, ANY)


class _MethodView:
    """A method as :func:`add_patterns` reads it: where each variable of its task stands,
    and what its precondition fixes."""

    def __init__(self, method: Method) -> None:
        self.index = {
            t.name: i for i, t in reversed(list(enumerate(method.task.args))) if isinstance(t, Var)
        }
        self.fixed = _fixed(method)
        guard: list[str | None] = []
        for t in method.task.args:
            if isinstance(t, Const):
                guard.append(str(t.name))
            else:
                guard.append(self.fixed.get(t.name))
        self.guard = tuple(guard)

    def term(self, arg: Term) -> Slot:
        """A subtask's argument as a slot of the method's task."""
        if isinstance(arg, Const):
            return str(arg.name)
        if arg.name in self.index:
            return self.index[arg.name]
        return self.fixed.get(arg.name)

    def lift(self, key: Key, args: tuple[Term, ...]) -> Key | None:
        """A subtask's pattern in the words of the method's task; None where the guard
        cannot hold (the subtask's argument is another constant than it needs)."""
        slots, need = key
        guard = list(self.guard)
        for arg, wanted in zip(args, need, strict=True):
            if wanted is ANY:
                continue
            here = self.term(arg)
            if isinstance(here, int):
                if guard[here] is not ANY and guard[here] != wanted:
                    return None
                guard[here] = wanted
            elif here is not ANY and here != wanted:
                return None
        lifted = tuple(
            slot if not isinstance(slot, int) else self.term(args[slot]) for slot in slots
        )
        return lifted, tuple(guard)

    def lift_needs(
        self,
        key: Key,
        alternatives: Iterable[tuple[Requirement, ...]],
        args: tuple[Term, ...],
    ) -> list[tuple[Requirement, ...]]:
        """The requirements in the words of the method's task: a subtask's parameter the
        task does not give becomes the added atom's argument where the atom names it, and
        a requirement on anything else is dropped (it may hold for some choice)."""
        slots = key[0]
        out = []
        for needs in alternatives:
            lifted: list[Requirement] = []
            for predicate, req in needs:
                new: list[ReqSlot] = []
                for s in req:
                    if isinstance(s, int):
                        here = self.term(args[s])
                        if here is not None:
                            new.append(here)
                        elif s in slots:
                            new.append(("=", slots.index(s)))
                        else:
                            break
                    else:
                        new.append(s)
                else:
                    lifted.append((predicate, tuple(new)))
            out.append(tuple(lifted))
        return out


class GoalPatterns(NamedTuple):
    """The goal's ground atoms, the atoms they need (:mod:`.landmarks`), and what each task
    and action can add of them (and of the preconditions of the actions that add them):
    worked out once per problem, for the cut and for :func:`goal_order` (which ranks by
    the goal's own atoms alone)."""

    atoms: list[Atom]
    patterns: Patterns
    needed: list[Landmark]


def goal_patterns(domain: Domain, problem: Problem) -> GoalPatterns | None:
    """None where the goal has no ground atom (nothing to cut or rank on)."""
    atoms = [a for a in positive_atoms(problem.goal) if all(isinstance(t, Const) for t in a.args)]
    if not atoms:
        return None
    needed = landmarks(domain, atoms)
    goal_predicates = {a.predicate for a in atoms} | {a.predicate for a, _ in needed}
    # What the requirements can ask about, too: the preconditions of the actions that add
    # a goal atom (each predicate's patterns are worked out apart, so asking for more
    # changes none of the goal's).
    asked = goal_predicates | {
        atom.predicate
        for action in domain.actions
        if any(add and a.predicate in goal_predicates for a, add in effect_atoms(action.effect))
        for atom in positive_atoms(action.precondition)
    }
    patterns = add_patterns(domain, asked)
    tasks = {t.name for t in domain.tasks}
    return GoalPatterns(atoms, patterns, _telling(atoms, needed, patterns, tasks))


def _telling(
    goals: list[Atom], needed: list[Landmark], patterns: Patterns, tasks: set[str]
) -> list[Landmark]:
    """The needed atoms that can tell a task list apart where the goal alone cannot, and
    those they are needed through: an atom that some compound task can leave out while
    adding an atom it is needed for (Monroe's ``set_up_shelter`` can add the last
    observation but makes no call, so cannot add the second).  Where every task that
    adds an atom also adds what it needs (Blocksworld: whatever stacks a block picks it
    up), asking about them at every node costs time and cuts nothing.  Past
    :data:`TOLD_AT_MOST` of them, none: the cut's cost grows with them at every node."""
    n = len(goals)
    predicate = [a.predicate for a in goals] + [a.predicate for a, _ in needed]

    def adds(name: str, what: str) -> bool:
        return any(patterns.get(name, {}).get(what, {}).values())

    keep: set[int] = set()
    for k, (atom, up) in enumerate(needed):
        if n + k in keep or not any(
            adds(name, predicate[q]) and not adds(name, atom.predicate)
            for q in up
            for name in tasks
        ):
            continue
        todo = [n + k]
        while todo:
            i = todo.pop()
            if i >= n and i not in keep:
                keep.add(i)
                todo.extend(needed[i - n][1])
    if len(keep) > TOLD_AT_MOST:
        return []  # (each is asked at every node: Blocksworld's hundred blocks, 1 ms a node)
    renumbered = {i: n + j for j, i in enumerate(sorted(keep))}
    return [
        (needed[i - n][0], tuple(q if q < n else renumbered[q] for q in needed[i - n][1]))
        for i in sorted(keep)
    ]


def goal_order(
    domain: Domain, found: GoalPatterns
) -> tuple[frozenset[str], Callable[[tuple[Any, ...]], int]] | None:
    """Which tasks' alternatives to rank, and how (``Problem.goal_order``): first the
    ones whose new steps a way of adding a goal atom fixes by their arguments, the most
    fixed first.

    Where a goal atom is added only by steps whose arguments a method's precondition fixes
    (Monroe-PO: the observed actions, each allowed only with the objects observed), a step
    that leads there through its own arguments carries that guard up in its patterns,
    while one that might lead there only through a variable chosen on the way has it
    dropped (it may be anything), an over-estimate that cuts nothing.  The choice at the
    top of pfile03, between ten kinds of emergency at every place or for every person,
    tried "set up a shelter at the marketplace" first; now the observed person, whose
    guard the observed climb fixes, comes first (of the kinds of help for them, the one
    that plans is still not the first: docs/reference/performance.md).  Only the tasks
    with a method whose step can meet such a guard are ranked."""
    ranked = frozenset(
        method.task.name
        for method in domain.methods
        if any(_guards(found, sub.name) for sub in method.subtasks)
    )
    if not ranked:
        return None
    goal = [(a.predicate, tuple(str(t.name) for t in a.args)) for a in found.atoms]
    known: dict[tuple[str, tuple[Any, ...]], int] = {}

    def fixes(task: tuple[str, tuple[Any, ...]]) -> int:
        got = known.get(task)
        if got is None:
            got = known[task] = _fixes(found.patterns.get(task[0], {}), task[1], goal)
        return got

    def rank(steps: tuple[Any, ...]) -> int:
        """The most arguments a step fixes, then the sooner that step comes (the guarded
        step is an observed one, and what is observed happens in its order)."""
        best, at = 0, 0
        for k, t in enumerate(steps):
            got = fixes(t)
            if got > best:
                best, at = got, k
        return best * SOONER - min(at, SOONER - 1) if best else 0

    return ranked, rank


def _guards(found: GoalPatterns, name: str) -> bool:
    """Whether a way of ``name`` to add a goal atom asks some argument to be a constant."""
    own = found.patterns.get(name, {})
    return any(
        any(need is not ANY for need in guard)
        for atom in found.atoms
        for (_, guard), alternatives in own.get(atom.predicate, {}).items()
        if alternatives
    )


def _fixes(
    own: dict[str, Ways], args: tuple[Any, ...], goal: list[tuple[str, tuple[str, ...]]]
) -> int:
    """The most arguments of a ground step that one way of adding a goal atom fixes and
    the step has (0: none, or no way)."""
    best = 0
    for predicate, values in goal:
        for (slots, guard), alternatives in own.get(predicate, {}).items():
            if not alternatives or not _guarded(guard, args):
                continue
            if any(values[k] != v for k, v in _placed(slots, args)):
                continue
            best = max(
                best,
                sum(need is not ANY and need == a for need, a in zip(guard, args, strict=True)),
            )
    return best


def goal_reach(
    domain: Domain,
    problem: Problem,
    world: World,
    continuations: Mapping[str, Method],
    found: GoalPatterns | None = None,
) -> Callable[[Any, tuple[Any, ...]], bool] | None:
    """Whether the goal's atoms that are false could still be made true: per ground task,
    the goal atoms it can add (matched on its arguments, kept once worked out); a node
    whose state lacks a goal atom that no remaining task can add is cut.

    A continuation of the initial network (``continuations``: the piece that does it, by
    its task's name) adds what its steps add, with the values it carries and the variables
    it has yet to choose left open; counted as adding anything, it would keep every node
    above the network's last piece from being cut.  Where the next task is one, the cut
    also asks that some way of adding each missing atom has its requirements true now or
    addable by the tasks left (:func:`_needs_met`).

    Where the goal's atoms need others (:mod:`.landmarks`), each of those that is false
    now while an atom it is needed for is false and wanted is asked the same, and must
    also be addable no later than the last task that can add that atom."""
    found = found or goal_patterns(domain, problem)
    if found is None:
        return None
    goals, patterns, needed = found
    atoms = goals + [a for a, _ in needed]
    goal_predicates = {a.predicate for a in atoms}
    goal_args = [(a.predicate, tuple(str(t.name) for t in a.args)) for a in atoms]
    by_predicate: dict[str, list[tuple[int, tuple[str, ...]]]] = {}
    at: dict[tuple[str, int, Any], list[int]] = {}  # the goal atoms with a value at a place
    for i, (predicate, values) in enumerate(goal_args):
        by_predicate.setdefault(predicate, []).append((i, values))
        for k, value in enumerate(values):
            at.setdefault((predicate, k, value), []).append(i)
    tests = [(1 << i, Test(a, world, {})) for i, a in enumerate(atoms)]
    everything = (1 << len(atoms)) - 1
    no_env: dict[str, Any] = {}

    known: dict[Any, int] = {}
    # Worked out once per ground task and atom: between the steps of the initial network
    # the cut asks again at every node about the same steps (Woodworking 22: 150,000
    # questions, 5 s of a 10 s budget, for a few thousand answers).
    answered: dict[tuple[Any, str, tuple[str, ...]], list[tuple[Requirement, ...]] | None] = {}

    def ways_to(
        task: tuple[str, tuple[Any, ...]], predicate: str, values: tuple[str, ...]
    ) -> list[tuple[Requirement, ...]] | None:
        """The requirement sets of the ways ``task`` can add the atom; None: any way."""
        key = (task, predicate, values)
        if key not in answered:
            answered[key] = _ways_to(task, predicate, values)
        return answered[key]

    def _ways_to(
        task: tuple[str, tuple[Any, ...]], predicate: str, values: tuple[str, ...]
    ) -> list[tuple[Requirement, ...]] | None:
        own = patterns.get(task[0])
        if own is None:
            return None
        args = task[1]
        found: list[tuple[Requirement, ...]] = []
        for (slots, guard), alternatives in own.get(predicate, {}).items():
            if _guarded(guard, args) and all(values[k] == v for k, v in _placed(slots, args)):
                found.extend(alternatives)
        return found

    def adds(task: tuple[str, tuple[Any, ...]]) -> int:
        piece = continuations.get(task[0])
        if piece is not None:
            return _union(known, adds, _steps(world, piece, task[1]))
        own = patterns.get(task[0])
        if own is None:  # not of the domain (the initial network's own task)
            return everything
        args = task[1]
        mask = 0
        for predicate in own.keys() & by_predicate.keys():
            for (slots, guard), alternatives in own[predicate].items():
                if not alternatives or not _guarded(guard, args):
                    continue
                fixed = _placed(slots, args)
                if not fixed:  # any atom of the predicate
                    for i, _ in by_predicate[predicate]:
                        mask |= 1 << i
                    continue
                (k0, v0), rest = fixed[0], fixed[1:]
                for i in at.get((predicate, k0, v0), ()):
                    values = goal_args[i][1]
                    if all(values[k] == v for k, v in rest):
                        mask |= 1 << i
        return mask

    def can_add(tasks: list[tuple[str, tuple[Any, ...]]], predicate: str, values: tuple) -> bool:
        for t in tasks:
            ways = ways_to(t, predicate, values)
            if ways is None or ways:
                return True
        return False

    def met(tasks: list[tuple[str, tuple[Any, ...]]], state: Any, bit: int) -> bool:
        predicate, values = goal_args[bit]
        for t in tasks:
            ways = ways_to(t, predicate, values)
            if ways is None:
                return True
            for needs in ways:
                if _needs_met(needs, t[1], values, state, world, tasks, can_add):
                    return True
        return False

    silent = frozenset(
        name for name, own in patterns.items() if goal_predicates.isdisjoint(own)
    )  # adds no goal atom
    goal_bits = (1 << len(goals)) - 1
    # Per atom the goal needs, the atoms it is needed for, as bits (only those found before
    # it: each atom's bit then depends on earlier ones alone, in one pass).
    needed_for = [
        (1 << i, sum(1 << q for q in up if q < i))
        for i, (_, up) in enumerate(needed, start=len(goals))
    ]

    # The state's rows the atoms are read from: a state shares the rows an action left
    # alone with the state before it, and a row's hash is kept, so the answer is looked up
    # by them (it changes only where an atom of the goal's or its needs does).
    rows = sorted({world.predicates[a.predicate] for a in atoms if a.predicate in world.predicates})
    seen: dict[tuple[Any, ...], int] = {}
    lookups = [
        (bit, world.predicates.get(p), tuple(world.object(v) for v in values), test)
        for (bit, test), (p, values) in zip(tests, goal_args, strict=True)
    ]

    paired: dict[int, list[tuple[int, int]]] = {}  # per wanted set, (atom, needed for)

    def wanted(state: Any) -> int:
        """The atoms that are false now and must be made true: the goal's, and those a
        wanted one needs (:mod:`.landmarks`)."""
        key = tuple(state[r] for r in rows)
        out = seen.get(key)
        if out is None:
            false = 0
            for bit, row, args, test in lookups:
                if not (args in state[row] if row is not None else test.evaluate(state, no_env)):
                    false |= bit
            out = false & goal_bits
            for bit, up in needed_for:
                if false & bit and up & out:
                    out |= bit
            if len(seen) >= SEEN_AT_MOST:
                seen.clear()
            seen[key] = out
        return out

    def meet(tasks: tuple[Any, ...], order: range, asked: int) -> tuple[dict[int, int], int]:
        """Walking the tasks in ``order``, where each atom of ``asked`` is met first (by its
        bit), and the atoms met nowhere."""
        at: dict[int, int] = {}
        for k in order:
            t = tasks[k]
            if t[0] in silent:
                continue
            got = known.get(t)
            if got is None:
                got = known[t] = adds(t)
            hit = got & asked
            if hit:
                asked ^= hit
                while hit:
                    low = hit & -hit
                    at[low] = k
                    hit ^= low
                if not asked:
                    break
        return at, asked

    def reach_needs(state: Any, tasks: tuple[Any, ...]) -> bool:
        """The cut where the goal's atoms need others: each wanted atom can be added by a
        task left, and no later than the last task that can add an atom it is needed for
        (it must hold before that one is added, and the tasks run in their order)."""
        want = wanted(state)
        if not want:
            return True
        # Where each wanted atom can first be added, from the front; where each atom a
        # wanted one is needed for can last be added, from the back.  Both walks stop once
        # every atom asked about has been met: mostly within a few tasks.
        pairs = paired.get(want)
        if pairs is None:
            if len(paired) >= SEEN_AT_MOST:
                paired.clear()
            pairs = paired[want] = [
                (bit, up & want) for bit, up in needed_for if want & bit and up & want
            ]
        first, pending = meet(tasks, range(len(tasks)), want)
        if pending:
            return False  # a wanted atom no task left adds
        if pairs:
            asked = 0
            for _, up in pairs:
                asked |= up
            last, _ = meet(tasks, range(len(tasks) - 1, -1, -1), asked)
            for bit, up in pairs:
                while up:
                    low = up & -up
                    if first[bit] > last[low]:
                        return False
                    up ^= low
        if not tasks or tasks[0][0] not in continuations:
            return True
        steps = _flatten(world, continuations, tasks)
        return all(met(steps, state, i) for i in range(len(atoms)) if want >> i & 1)

    def reach(state: Any, tasks: tuple[Any, ...]) -> bool:
        mask = 0
        for t in tasks:
            if t[0] in silent:
                continue
            got = known.get(t)
            if got is None:
                got = known[t] = adds(t)
            mask |= got
            if mask == everything:
                break
        if not tasks or tasks[0][0] not in continuations:
            left = everything & ~mask  # the atoms no task left adds: true now, or never
            while left:
                low = left & -left
                if not tests[low.bit_length() - 1][1].evaluate(state, no_env):
                    return False
                left ^= low
            return True
        missing = [i for i, (_, test) in enumerate(tests) if not test.evaluate(state, no_env)]
        if any(not mask & tests[i][0] for i in missing):
            return False
        steps = _flatten(world, continuations, tasks)
        return all(met(steps, state, i) for i in missing)

    return reach_needs if needed else reach


def _placed(slots: tuple[Slot, ...], args: tuple[Any, ...]) -> list[tuple[int, Any]]:
    """The places of an added atom a pattern fixes for a task with ``args``, each with its
    value: a constant, or the task's argument where that is chosen already."""
    return [
        (k, here)
        for k, slot in enumerate(slots)
        if slot is not ANY and (here := args[slot] if isinstance(slot, int) else slot) is not OPEN
    ]


def _guarded(guard: tuple[Any, ...], args: tuple[Any, ...]) -> bool:
    """Whether ``args`` can meet a pattern's ``guard`` (a constant a method's precondition
    sets an argument to): an argument not chosen yet may."""
    return all(
        need is ANY or arg is OPEN or need == arg for need, arg in zip(guard, args, strict=True)
    )


def _needs_met(
    needs: tuple[Requirement, ...],
    args: tuple[Any, ...],
    values: tuple[str, ...],
    state: Any,
    world: World,
    tasks: list[tuple[str, tuple[Any, ...]]],
    can_add: Callable[[list[tuple[str, tuple[Any, ...]]], str, tuple], bool],
) -> bool:
    """Each requirement true in ``state`` or addable by one of ``tasks`` (a requirement on
    a task argument not chosen yet may hold)."""
    for predicate, slots in needs:
        ground = []
        for s in slots:
            if isinstance(s, tuple):
                ground.append(values[s[1]])
            elif isinstance(s, int):
                ground.append(args[s])
            else:
                ground.append(s)
        if any(g is OPEN for g in ground):
            continue
        row = world.predicates.get(predicate)
        if row is not None and tuple(ground) in state[row]:
            continue
        if not can_add(tasks, predicate, tuple(ground)):
            return False
    return True


def _steps(world: World, piece: Method, args: tuple[Any, ...]) -> list[tuple[str, tuple]]:
    """A continuation's steps, ground on what it carries, OPEN where it has yet to choose."""
    carried = {t.name: arg for t, arg in zip(piece.task.args, args, strict=True)}
    return [
        (
            sub.name,
            tuple(
                world.object(str(t.name)) if isinstance(t, Const) else carried.get(t.name, OPEN)
                for t in sub.args
            ),
        )
        for sub in piece.subtasks
    ]


def _flatten(
    world: World, continuations: Mapping[str, Method], tasks: Iterable[tuple[str, tuple]]
) -> list[tuple[str, tuple]]:
    out: list[tuple[str, tuple]] = []
    todo = list(tasks)
    while todo:
        t = todo.pop(0)
        piece = continuations.get(t[0])
        if piece is None:
            out.append(t)
        else:
            todo[:0] = _steps(world, piece, t[1])
    return out


def _union(known: dict[Any, int], adds: Callable[[Any], int], steps: list[tuple]) -> int:
    mask = 0
    for call in steps:
        got = known.get(call)
        if got is None:
            got = known[call] = adds(call)
        mask |= got
    return mask
