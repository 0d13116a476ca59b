"""An HDDL domain and problem compiled into what the TOFS engine plans, with no Python of
their own: the state is the set of true ground atoms, preconditions bind by matching, and
effects delete, then add.

The engine sees an ordinary :class:`~engine.tofs.Domain`: compound tasks with their methods
in the order written (TOFS tries them in that order, SHOP style) -- but where the problem
has a state goal, a task's recursive methods first (:func:`_recursive_first`) -- and
actions as operators.
Conditions come from :mod:`knowledge.hddl.conditions`.  A problem is compiled together with
its domain because the objects of each type -- what a variable may range over -- are the
problem's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, cast

from engine.tofs import Domain as EngineDomain
from engine.tofs import Problem as EngineProblem
from engine.tofs import Registry
from engine.tofs.domain import Call, Method, Operator, TaskInfo, Template

from .changes import Changes
from .conditions import (
    Condition,
    Match,
    Obj,
    Origin,
    Test,
    TypeIs,
    World,
    compile_test,
    conjuncts,
    free_variables,
)
from .decomposition import call_text
from .deferral import defer_method, deferred_domain, is_continuation, variables
from .goal_reach import goal_order, goal_patterns
from .goal_reach import goal_reach as reach_of_goal
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
    Formula,
    Not,
    Problem,
    Subtask,
    TaskCall,
    Term,
    Typed,
    Var,
    When,
)
from .model import Method as HddlMethod
from .needs import Need, instantiate, task_needs
from .symmetry import spares
from .typing_only import TypingOnly, typing_only
from .writer import formula_text, subtask_text

__all__ = [
    "HddlPlanError",
    "compile_problem",
    "hddl_spec",
    "initial_state",
    "start_needs",
    "static_needs",
]

REGISTRY = Registry("hddl")
# The initial task network when it has variables (IPC format: "root 7", "7 __top -> ...").
TOP, TOP_METHOD = "__top", "__top_method"


class HddlPlanError(ValueError):
    """The problem cannot be planned as given (an object or task it names is unknown)."""


def _key(var: str) -> str:
    """A task parameter's name in the engine: the HDDL variable without its ``?``."""
    return var.lstrip("?")


@dataclass(frozen=True, slots=True)
class TaskText:
    """A task as the engine keeps its definition
    (:class:`~engine.tofs.definitions.TaskDefinition`)."""

    name: str
    params: tuple[str, ...]
    partial_plan_prune: bool = False


@dataclass(frozen=True, slots=True)
class MethodText:
    """A method as the engine keeps its definition: its precondition and subtasks as HDDL
    text, for the tree, the explanations and the editor.  HDDL has no labels, weights,
    assumptions, critics or belief views."""

    name: str
    task: str
    precondition: str
    subtasks: tuple[str, ...]
    label: str = ""
    weight: str | None = None
    assumption: str | None = None
    critic: str | None = None
    belief_view: str | None = None


@dataclass(frozen=True, slots=True)
class OperatorText:
    """An action as the engine keeps its definition; its effect is HDDL's, not a
    registered function's, and its one cost (``--mode optimise``) counts actions."""

    name: str
    params: tuple[str, ...]
    precondition: str
    costs: Mapping[str, str]
    effect: str | None = None
    group: str = ""


@dataclass(frozen=True, slots=True)
class DomainText:
    """The domain as the engine keeps it: names as written in HDDL.  Plain records, not
    the knowledge base's pydantic models: HDDL's own checks have already vouched for
    them, and importing the models' validation would be a quarter of ``plan``'s
    start-up."""

    name: str
    tasks: tuple[TaskText, ...]
    methods: tuple[MethodText, ...]
    operators: tuple[OperatorText, ...]


def hddl_spec(domain: Domain, *, unit_costs: bool = False) -> DomainText:
    """The domain as the engine's data: preconditions and subtasks as HDDL text (what
    explanations, the tree and the editor show)."""
    costs = {UNIT_COST: "1"} if unit_costs else {}
    return DomainText(
        name=domain.name,
        tasks=tuple(TaskText(t.name, tuple(_key(p.name) for p in t.params)) for t in domain.tasks),
        methods=tuple(
            MethodText(
                m.name,
                m.task.name,
                formula_text(_with_constraints(m.precondition, m.constraints))
                if m.precondition is not None or m.constraints is not None
                else "True",
                tuple(_step_text(s) for s in m.subtasks),
            )
            for m in domain.methods
        ),
        operators=tuple(
            OperatorText(
                a.name,
                tuple(_key(p.name) for p in a.params),
                formula_text(a.precondition) if a.precondition else "True",
                costs,
            )
            for a in domain.actions
        ),
    )


def _step_text(subtask: Subtask) -> str:
    """A subtask as HDDL writes it; a continuation's call, which HDDL cannot name, as is."""
    if is_continuation(subtask.name):
        return call_text(subtask.name, subtask.args)
    return subtask_text(subtask)


def _with_constraints(pre: Formula | None, constraints: Formula | None) -> Formula:
    parts = [f for f in (pre, constraints) if f is not None]
    return parts[0] if len(parts) == 1 else And(tuple(parts))


# -- the world and its states --------------------------------------------------------------


def make_world(domain: Domain, problem: Problem) -> World:
    objects: dict[str, Obj] = {}
    of_type: dict[str, list[Obj]] = {}
    for item in (*domain.constants, *problem.objects):
        obj = objects.setdefault(item.name, Obj(item.name))
        for declared in item.types:
            for t in domain.ancestors(declared):
                members = of_type.setdefault(t, [])
                if obj not in members:
                    members.append(obj)
    return World(
        predicates={p.name: i for i, p in enumerate(domain.predicates)},
        objects=objects,
        of_type={t: tuple(v) for t, v in of_type.items()},
    )


def initial_state(world: World, problem: Problem) -> tuple[frozenset[tuple[Obj, ...]], ...]:
    facts: list[set[tuple[Obj, ...]]] = [set() for _ in world.predicates]
    for atom in problem.init:
        if atom.predicate not in world.predicates:
            raise HddlPlanError(f"{_at(problem.path, atom)}: no predicate '{atom.predicate}'")
        facts[world.predicates[atom.predicate]].add(tuple(_object(world, a) for a in atom.args))
    return tuple(frozenset(f) for f in facts)


def _at(path: str, item: Any) -> str:
    pos = getattr(item, "pos", None)
    return f"{path or '<problem>'}:{pos}" if pos is not None else (path or "<problem>")


def _object(world: World, term: Term) -> Obj:
    if isinstance(term, Const) and term.name in world.objects:
        return world.objects[term.name]
    raise HddlPlanError(f"'{term}' is not an object of the problem or a constant of the domain")


# -- effects -------------------------------------------------------------------------------

_Env = dict[str, Any]
_Collect = Callable[[Any, _Env, list[tuple[int, tuple[Obj, ...]]], list[Any]], None]


def _compile_effect(effect: Effect, world: World, keys: dict[str, str]) -> _Collect:
    """A function that, in the state before the action, lists what it adds and deletes."""
    if isinstance(effect, Atom | Delete):
        atom = effect if isinstance(effect, Atom) else effect.atom
        index = world.predicates[atom.predicate]
        getters = [_getter(a, world, keys) for a in atom.args]
        deleting = isinstance(effect, Delete)

        def atom_effect(
            s: Any, e: _Env, adds: list[tuple[int, tuple[Obj, ...]]], dels: list[Any]
        ) -> None:
            (dels if deleting else adds).append((index, tuple(g(e) for g in getters)))

        return atom_effect
    if isinstance(effect, EffectAnd):
        parts = [_compile_effect(p, world, keys) for p in effect.parts]

        def and_effect(s: Any, e: _Env, adds: list[Any], dels: list[Any]) -> None:
            for p in parts:
                p(s, e, adds, dels)

        return and_effect
    if isinstance(effect, When):
        inner_keys = dict(keys)
        condition = compile_test(effect.condition, world, inner_keys)
        body = _compile_effect(effect.effect, world, inner_keys)

        def when_effect(s: Any, e: _Env, adds: list[Any], dels: list[Any]) -> None:
            if condition(s, e):
                body(s, e, adds, dels)

        return when_effect
    assert isinstance(effect, EffectForall)
    inner = dict(keys)
    for p in effect.params:
        inner[p.name] = p.name
    ranges = [(p.name, world.objects_of(p.types)) for p in effect.params]
    body = _compile_effect(effect.effect, world, inner)

    def forall_effect(s: Any, e: _Env, adds: list[Any], dels: list[Any]) -> None:
        def loop(i: int, env: _Env) -> None:
            if i == len(ranges):
                body(s, env, adds, dels)
                return
            name, objs = ranges[i]
            for o in objs:
                env[name] = o
                loop(i + 1, env)

        loop(0, dict(e))

    return forall_effect


def _getter(term: Term, world: World, keys: Mapping[str, str]) -> Callable[[_Env], Obj]:
    if isinstance(term, Const):
        obj = world.object(term.name)
        return lambda e: obj
    key = keys[term.name]
    return lambda e: e[key]


def _effect_function(
    effect: Effect | None, params: tuple[str, ...], world: World, keys: dict[str, str]
) -> Callable[..., Any] | None:
    if effect is None:
        return None
    collect = _compile_effect(effect, world, keys)

    def apply(state: tuple[frozenset[Any], ...], *args: Any) -> tuple[frozenset[Any], ...]:
        env = dict(zip(params, args, strict=True))
        adds: list[tuple[int, tuple[Obj, ...]]] = []
        dels: list[tuple[int, tuple[Obj, ...]]] = []
        collect(state, env, adds, dels)
        touched: dict[int, tuple[set[Any], set[Any]]] = {}
        for index, fact in dels:
            touched.setdefault(index, (set(), set()))[1].add(fact)
        for index, fact in adds:
            touched.setdefault(index, (set(), set()))[0].add(fact)
        new = list(state)
        for index, (added, deleted) in touched.items():
            old = state[index]
            changed = (old - deleted) | added  # delete, then add
            if changed != old:
                new[index] = frozenset(changed)
        return tuple(new)

    return apply


# -- compiling -----------------------------------------------------------------------------


class _Ref:
    """A subtask argument: a variable's value from the environment, or a constant."""

    def __init__(self, key: str | None, value: Obj | None, source: str) -> None:
        self.key, self.value, self.source = key, value, source

    def evaluate(self, state: Any, env: Mapping[str, Any]) -> Any:
        return env[self.key] if self.key is not None else self.value

    def explain_false(self, state: Any, env: Mapping[str, Any]) -> tuple[str, list[Any]]:
        return self.source, []


class _Label(Template):
    """A task shown as HDDL writes it: ``(deliver package-0 city-loc-2)``."""

    def __init__(self, name: str) -> None:
        super().__init__(name, [], uses_state=False)

    def render(self, state: Any, env: Mapping[str, Any], fmt: Callable[[Any], str]) -> str:
        return call_text(self.text, env.values())


class _MethodLabel(Template):
    """A method as the reader's view names it: HDDL has no labels, only names, so its name
    and the values its own variables took: ``drive-on (from north, next south)``."""

    def __init__(self, name: str, free: tuple[str, ...]) -> None:
        super().__init__(name, [], uses_state=False)
        self.free = free

    def render(self, state: Any, env: Mapping[str, Any], fmt: Callable[[Any], str]) -> str:
        said = [f"{k.lstrip('?')} {fmt(env[k])}" for k in self.free if k in env]
        return f"{self.text} ({', '.join(said)})" if said else self.text


class _HddlDomain(EngineDomain):
    """Tasks and actions alike shown as HDDL writes them: ``(drive t1 hq north)``."""

    unit_costs = False  # compiled for --mode optimise
    through = False  # some method checks a need of a compound step beyond static ones

    def task_label(self, task: tuple[str, tuple[Any, ...]], state: Any = None) -> str:
        return call_text(*task)


def _all(parts: list[Condition]) -> Condition | None:
    """The conjunction of ``parts`` (None when there are none)."""
    if not parts:
        return None
    return parts[0] if len(parts) == 1 else And(cast(tuple[Formula, ...], tuple(parts)))


class _UnitCost:
    """An action's cost when optimising: 1, so the best plan is the one with the fewest
    actions (the IPC optimal track's measure)."""

    def evaluate(self, state: Any, env: Mapping[str, Any]) -> float:
        return 1.0


UNIT_COST = "actions"
"""The cost component each action adds 1 to (``--mode optimise``)."""


def compile_problem(
    domain: Domain, problem: Problem, *, unit_costs: bool = False, through: bool = True
) -> tuple[EngineDomain, EngineProblem]:
    """``domain`` and ``problem`` ready for :func:`engine.tofs.plan` (first-plan mode, loops
    pruned).  ``unit_costs``: every action costs 1, for ``--mode optimise`` (in first-plan
    mode costs play no part, and the plan's value stays 0 as before).  ``through``: a
    method checks what its compound steps need when they start, whatever the predicate
    (:func:`start_needs`); without it, only static needs, so that a search with no plan
    fails where the literal was written, with the steps before it on the path."""
    world = make_world(domain, problem)
    written_domain = domain
    domain = deferred_domain(domain)
    spec = hddl_spec(domain, unit_costs=unit_costs)
    costs: tuple[tuple[str, Any], ...] = ((UNIT_COST, _UnitCost()),) if unit_costs else ()
    operators: dict[str, Operator] = {}
    for action, op_spec in zip(domain.actions, spec.operators, strict=True):
        keys = {p.name: _key(p.name) for p in action.params}
        written = _origin(action.name, domain.path, action)
        typed = [p for p in action.params if p.types != (OBJECT,)]
        parts: list[Condition] = [TypeIs(Var(p.name), p.types) for p in typed]
        origins = [_at_item(written, p) for p in typed]
        parts += conjuncts(action.precondition)
        origins += [_at_item(written, c) for c in conjuncts(action.precondition)]
        condition = _all(parts)
        params = tuple(keys[p.name] for p in action.params)
        operators[action.name] = Operator(
            op_spec,
            action.name,
            params,
            Test(condition, world, keys, op_spec.precondition, origins)
            if condition is not None
            else None,
            _effect_function(action.effect, params, world, keys),
            costs,
            _Label(action.name),
        )
    tasks: dict[str, TaskInfo] = {}
    for task, task_spec in zip(domain.tasks, spec.tasks, strict=True):
        tasks[task.name] = TaskInfo(
            task_spec, task.name, tuple(task_spec.params), None, label=_Label(task.name)
        )
    task_types = {t.name: t.params for t in domain.tasks}
    actions = frozenset(operators)
    changes = Changes.of(
        written_domain, lambda a, b: not world.type_set(a).isdisjoint(world.type_set(b))
    )
    world.spares = spares(written_domain, problem, world, changes)  # before any Match
    by_name = {a.name: a for a in domain.actions}
    needs = start_needs(written_domain, changes, static=not through)
    changing = changes.changing
    through = through and any(
        n.kind != "eq" and n.predicate in changing for ns in needs.values() for n in ns
    )
    own_methods = {m.name: m for m in written_domain.methods}
    typing = typing_only(domain)
    for index, (method, method_spec) in enumerate(zip(domain.methods, spec.methods, strict=True)):
        info = tasks[method.task.name]
        info.methods.append(
            _method(
                method,
                method_spec,
                index,
                info,
                task_types[method.task.name],
                world,
                actions,
                _pulled(method, own_methods.get(method.name), by_name, changes, domain.path, needs),
                domain.path,
                typing,
            )
        )
    found = goal_patterns(domain, problem) if problem.goal is not None else None
    if problem.goal is not None:
        _recursive_first(tasks, own_methods)
    engine_domain = _HddlDomain(spec, REGISTRY, {}, tasks, operators)
    engine_domain.unit_costs, engine_domain.through = unit_costs, through
    htn = problem.htn
    continuations: dict[str, HddlMethod] = {}  # the initial network's, by the task they do
    if htn is not None and htn.params:
        # Variables in the initial task network are chosen like a method's free
        # variables: the network becomes the one method of a task that stands for it,
        # named as the IPC plan format names it.
        top = HddlMethod(
            TOP_METHOD,
            htn.params,
            TaskCall(TOP),
            None,
            htn.subtasks,
            htn.constraints,
        )
        top_spec = MethodText(
            TOP_METHOD,
            TOP,
            formula_text(htn.constraints) if htn.constraints else "True",
            tuple(subtask_text(t) for t in htn.subtasks),
        )
        info = tasks[TOP] = TaskInfo(TaskText(TOP, ()), TOP, (), None, label=_Label(TOP))
        for piece, rest in defer_method(top):
            if rest is not None:  # a continuation: the rest of the network, chosen later
                continuations[rest.name] = piece
                names = [_key(p.name) for p in rest.params]
                info = tasks[rest.name] = TaskInfo(
                    TaskText(rest.name, tuple(names)),
                    rest.name,
                    tuple(names),
                    None,
                    label=_Label(rest.name),
                )
            piece_spec = replace(
                top_spec,
                name=piece.name,
                task=piece.task.name,
                precondition="True" if rest is not None else top_spec.precondition,
                subtasks=tuple(_step_text(t) for t in piece.subtasks),
            )
            pulled = pulled_up(piece, by_name, changes, problem.path, needs)
            info.methods.append(
                _method(
                    piece,
                    piece_spec,
                    len(domain.methods) + len(info.methods),
                    info,
                    rest.params if rest else (),
                    world,
                    actions,
                    pulled,
                    problem.path,
                )
            )
        ground: list[tuple[str, tuple[Obj, ...]]] = [(TOP, ())]
    else:
        ground = []
    initial = htn.subtasks if htn is not None and not ground else ()
    for sub in initial:
        if sub.name not in tasks and sub.name not in operators:
            raise HddlPlanError(f"{_at(problem.path, sub)}: no task or action '{sub.name}'")
        ground.append((sub.name, tuple(_object(world, a) for a in sub.args)))
    goal = None
    goal_reach = None
    if problem.goal is not None:
        written = Origin(":goal", problem.path)
        goal_origins = [_at_item(written, c) for c in conjuncts(problem.goal)]
        goal = Test(problem.goal, world, {}, "", goal_origins)
        goal_reach = reach_of_goal(domain, problem, world, continuations, found)
    return engine_domain, EngineProblem(
        name=problem.name,
        state=initial_state(world, problem),
        tasks=tuple(ground),
        mode="first",
        options={
            "prune_repeats": True,
            "prune_recursion": True,
            "memo_failures": True,
            "record_failed_alternatives": True,
        },
        goal=goal,
        goal_reach=goal_reach,
        goal_order=goal_order(domain, found) if found is not None else None,
    )


def _recursive_first(tasks: Mapping[str, TaskInfo], written: Mapping[str, HddlMethod]) -> None:
    """Where the problem has a state goal, each task's methods that call the task itself
    again come before the others, in the written order otherwise (HyperTensioN does the
    same).  Why: a recursive task such as "walk everyone who is here" usually has a base
    case that does nothing, written first; tried first, it stops the loop early, and a
    depth-first search only learns at the goal, after every way of doing the steps after
    it, that someone was left behind (Hiking: 2,096 nodes on p03, ~4 times more per
    place).  Recursing first does the work the goal asks for while it can; the base case
    is still tried when the recursion cannot go on.  The order changes which plan comes
    first, never which plans exist, and an endless recursion in one state is cut by the
    loop checks as before.  A method split for late variables (:mod:`.deferral`) is judged
    by the method as written."""
    for name, info in tasks.items():

        def calls_itself(method: Method, name: str = name) -> bool:
            own = written.get(method.name)
            return own is not None and any(sub.name == name for sub in own.subtasks)

        info.methods.sort(key=lambda m: not calls_itself(m))


def _method(
    method: HddlMethod,
    method_spec: MethodText,
    index: int,
    info: TaskInfo,
    task_params: tuple[Typed, ...],
    world: World,
    actions: frozenset[str],
    pulled: list[tuple[Condition, Origin]],
    path: str = "",
    typing: TypingOnly | None = None,
) -> Method:
    """One HDDL method as an engine method.

    The task's arguments arrive in the environment under the task's parameter names; the
    method's variables are renamed onto them by position (a repeated variable or a constant
    in the method's ``:task`` becomes an equality).  A method variable the task does not
    give is bound by matching the precondition (:class:`Match`), and shows in the
    alternative's label.  ``pulled`` are conditions of its actions known to be needed
    already (:func:`pulled_up`), checked with the method's own; each conjunct keeps where
    it was written (in ``path``), so that a failure blames the action, not the method.
    """
    written = _origin(method.name, path, method)
    keys: dict[str, str] = {}
    checks: list[Condition] = []
    origins: list[Origin] = []
    from_task: dict[str, tuple[str, ...]] = {}
    for position, arg in enumerate(method.task.args):
        param_key = info.params[position]
        if isinstance(arg, Var) and arg.name not in keys:
            keys[arg.name] = param_key
            from_task[arg.name] = task_params[position].types
            continue
        alias = f"?task-arg-{position}"  # the task's argument, compared below
        keys[alias] = param_key
        checks.append(Equals(Var(alias), arg))
        origins.append(_at_item(written, method.task))
    for p in method.params:
        if p.name in from_task and p.types != (OBJECT,) and p.types != from_task[p.name]:
            checks.append(TypeIs(Var(p.name), p.types))
            origins.append(_at_item(written, p))
    free = [p for p in method.params if p.name not in keys]
    for p in free:
        keys[p.name] = p.name
    written_own = conjuncts(method.precondition) + conjuncts(method.constraints)
    own = checks + written_own
    origins += [_at_item(written, c) for c in written_own]
    seen = set(own)
    moved = []
    for c, o in pulled:  # an action's literal and a step's need can be the same
        if c not in seen:
            seen.add(c)
            moved.append((c, o))
    condition = _all(own + [c for c, _ in moved])
    origins += [o for _, o in moved]
    source = method_spec.precondition
    bindings: tuple[tuple[str | tuple[str, ...], Any], ...] = ()
    precondition = None
    if free:
        choices = typing.choices(method, free, condition, world) if typing is not None else None
        match = Match(condition, free, world, keys, source, origins, written, choices)
        bindings = ((match.names, match),)
    elif condition is not None:
        precondition = Test(condition, world, keys, source, origins)
    subtasks = tuple(
        Call(
            sub.name,
            sub.name in actions,
            tuple(_ref(a, world, keys) for a in sub.args),
            text,
        )
        for sub, text in zip(method.subtasks, method_spec.subtasks or [], strict=True)
    )
    return Method(
        method_spec,
        method.name,
        index,
        bindings,
        precondition,
        subtasks,
        None,
        None,
        _MethodLabel(method.name, tuple(p.name for p in free)),
    )


def _origin(owner: str, path: str, item: Any) -> Origin:
    """``owner`` (an action or method) as the origin of what it writes, at its own line."""
    pos = getattr(item, "pos", None)
    return Origin(owner, path, pos.line if pos is not None else None)


def _at_item(origin: Origin, item: Any) -> Origin:
    """``origin`` at the line where ``item`` (a literal, a parameter) was written, when
    the reader kept it; else at its owner's line."""
    pos = getattr(item, "pos", None)
    return origin if pos is None else replace(origin, line=pos.line)


def _pulled(
    method: HddlMethod,
    written: HddlMethod | None,
    actions: Mapping[str, Action],
    changes: Changes,
    path: str,
    needs: Mapping[str, frozenset[Need]] | None = None,
) -> list[tuple[Condition, Origin]]:
    """What :func:`pulled_up` moves into ``method``, which is ``written`` (the domain's own)
    or its first piece when a later subtask's variable is chosen later
    (:mod:`.deferral`): the piece keeps every condition the whole method would pull up
    about its own variables, so that a binding doomed at a later step still fails at once."""
    if written is None or written is method:
        return pulled_up(method, actions, changes, path, needs)
    own = variables(method.task.args, method.precondition, method.constraints, method.subtasks)
    return [
        (c, o)
        for c, o in pulled_up(written, actions, changes, path, needs)
        if free_variables(c) <= own
    ]


def static_needs(domain: Domain, changes: Changes | None = None) -> dict[str, frozenset[Need]]:
    """What each compound task of ``domain`` needs when it starts about static predicates
    only (no action adds or deletes them, so they hold in every state): the needs that
    keep a failure where the literal fails.  :func:`start_needs` with ``static``."""
    return start_needs(domain, changes, static=True)


def start_needs(
    domain: Domain, changes: Changes | None = None, *, static: bool = False
) -> dict[str, frozenset[Need]]:
    """What each compound task of ``domain`` needs when it starts (:mod:`.needs`): a
    literal of a later step counts where no earlier step can change it, to the types of
    its arguments (:class:`.changes.Changes`).  ``static``: about static predicates only,
    which hold whatever the steps before the task did; Monroe's plan recognition needs no
    more (its hazards, wrecks and trees are static), Transport needs the rest (a package's
    place, which driving a truck cannot change).  ``changes``: the domain's, when it is
    at hand."""
    changes = Changes.of(domain) if changes is None else changes
    actions = {a.name: a for a in domain.actions}
    changing = changes.changing
    return task_needs(
        domain.methods,
        lambda m, known: _checks(m, actions, changes, known),
        (lambda predicate: predicate not in changing) if static else (lambda _: True),
    )


def _checks(
    method: HddlMethod,
    actions: Mapping[str, Action],
    changes: Changes,
    needs: Mapping[str, frozenset[Need]],
) -> list[Condition]:
    """What ``method`` checks beyond its own precondition, given what its compound steps
    are known to need (:func:`.needs.task_needs` asks, round by round)."""
    return [c for c, _ in pulled_up(method, actions, changes, "", needs)]


def pulled_up(
    method: HddlMethod,
    actions: Mapping[str, Action],
    changes: Changes,
    path: str = "",
    needs: Mapping[str, frozenset[Need]] | None = None,
) -> list[tuple[Condition, Origin]]:
    """Conditions of the method's actions that must hold when the method is applied, so
    that a binding doomed to fail at one of its actions is never tried (HyperTensioN calls
    this "pullup"), and, with ``needs`` (:mod:`.needs`), what its compound steps need when
    they start, blamed on the step.

    Sound because nothing can change them in between: for each action among the
    subtasks, the literals of its precondition whose predicate no earlier subtask can
    change (``changes``: an action's effects, a task's through all its methods), its
    equalities and its parameter types -- for the first subtask, its whole precondition.
    Only quantifier-free literals move, renamed into the method's variables, each with
    where it was written: step ``position + 1`` of the method, in the action.
    """
    out: list[tuple[Condition, Origin]] = []
    done: list[str] = []  # the subtasks so far
    types = {p.name: p.types for p in method.params}
    for position, sub in enumerate(method.subtasks):
        action = actions.get(sub.name)
        if action is not None:
            rename = {p.name: arg for p, arg in zip(action.params, sub.args, strict=True)}
            step = replace(
                _origin(action.name, path, action), step=position + 1, method=method.name
            )
            for p in action.params:
                arg = rename[p.name]
                if p.types != (OBJECT,) and isinstance(arg, Var):
                    out.append((TypeIs(arg, p.types), _at_item(step, p)))
            for c in conjuncts(action.precondition):
                literal = c.body if isinstance(c, Not) else c
                if not isinstance(literal, Atom | Equals):
                    continue
                renamed = _renamed(c, rename)
                if (
                    position == 0
                    or isinstance(literal, Equals)
                    or not changes.can_change(done, _atom(renamed), types)
                ):
                    out.append((renamed, _at_item(step, c)))
        elif needs and sub.name in needs:
            step = Origin(
                sub.name, path, sub.pos.line if sub.pos else None, position + 1, method.name
            )
            for need in sorted(needs[sub.name]):
                formula = instantiate(need, sub.args)
                if (
                    position == 0
                    or need.kind == "eq"
                    or not changes.can_change(done, _atom(formula), types)
                ):
                    out.append((formula, step))
        done.append(sub.name)
    return out


def _atom(literal: Condition) -> Atom:
    """The atom of a literal pull-up moves: itself, negated, or under ``exists``."""
    while isinstance(literal, Not | Exists):
        literal = literal.body
    assert isinstance(literal, Atom)
    return literal


def _renamed(formula: Condition, rename: Mapping[str, Term]) -> Condition:
    def term(t: Term) -> Term:
        return rename.get(t.name, t) if isinstance(t, Var) else t

    if isinstance(formula, Not):
        inner = _renamed(formula.body, rename)
        return Not(cast(Formula, inner), pos=formula.pos)
    if isinstance(formula, Atom):
        return Atom(formula.predicate, tuple(term(a) for a in formula.args), pos=formula.pos)
    assert isinstance(formula, Equals)
    return Equals(term(formula.left), term(formula.right), pos=formula.pos)


def _ref(term: Term, world: World, keys: Mapping[str, str]) -> _Ref:
    if isinstance(term, Const):
        return _Ref(None, _object(world, term), term.name)
    return _Ref(keys[term.name], None, term.name)
