"""An independent check of an HTN plan written in the IPC 2020 output format.

A plan our planner prints must be judged by code that is not ours, so nothing here imports
the rest of the workbench (``tests/test_hddl_validation.py`` checks it): unified-planning
reads the HDDL, and its ``SequentialPlanValidator`` runs the primitive actions from the
initial state and checks the goal.  unified-planning has no validator for a decomposition,
so this module walks the plan's decomposition lines against the methods, subtasks,
parameters and preconditions of the problem that unified-planning parsed, and evaluates the
method preconditions with unified-planning's own ``StateEvaluator`` in the states of its
validator's trace.

It is part of the product because ``plan hddl --repair`` shows a repair only once this
check accepts the plan the repaired domain gives (:func:`validate_plan_text`, on texts that
need not be files); the tests and benchmarks judge every plan with it too
(``tests/hddl_validation.py`` re-exports it).  unified-planning is imported when this
module is, and only ``--repair`` and the tests import it: it costs about a second.

The plan format (the IPC 2020 HTN track's, as read by the pandaPIparser verifier)::

    ==>
    0 drive t1 hq north            one line per primitive action, in execution order
    root 7 8                       the ids of the initial task network's tasks, in order
    7 deliver books south -> deliver-by-vehicle 9 1 11 3
    ...                            one line per decomposed task: id task args -> method ids
    <==

Lines before ``==>`` and after ``<==`` are ignored; names are compared without case (as
unified-planning lower-cases everything it reads).  A single root may be an artificial
``__top`` task decomposed by ``__top_method`` into the initial task network.

The semantics checked are those of total-order HTN planning, the workbench's: the children
of a decomposition are listed in the method's order (any order the method allows, when its
subtasks are only partially ordered), and the actions, read off the decomposition tree depth
first, are the primitive lines in their order.  A method's precondition must hold in the state
before the first action below it (for a method with no actions below it, the state where it
stands in that order); a method variable bound by neither its task nor its subtasks may take
any object of its type that makes the precondition true.

unified-planning's HDDL reader takes the sections of a domain, a problem and a method only in
one order, and no ``either`` type; ``_for_unified_planning`` reorders the sections of a file
(an s-expression rewrite, nothing more) and turns an ``(either ...)`` predicate argument type
into the nearest type above all of its members.  Any other ``either`` is refused.
"""

from __future__ import annotations

import re
import sys
import types
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise, product
from pathlib import Path
from typing import Any


def _configspace_stub() -> types.ModuleType:
    """A stand-in for ConfigSpace while unified-planning's ``engines`` package is imported.

    ``unified_planning.engines.engine`` imports ``ConfigSpace.ConfigurationSpace`` only to
    describe a planner's tunable settings, which validating a plan never asks for; the real
    import pulls in scipy.stats and costs about 1.9 s of the 2.3 s the validator took to
    import (``python -X importtime``), the most of a ``plan hddl --repair`` answer.  The
    stand-in is removed again at once, so any later ``import ConfigSpace`` is the real one.
    """
    stub = types.ModuleType("ConfigSpace")

    class ConfigurationSpace:  # only ever named in unified-planning's type hints here
        """Not the real ConfigSpace class (see :func:`_configspace_stub`)."""

    stub.ConfigurationSpace = ConfigurationSpace  # type: ignore[attr-defined]
    return stub


_STUBBED = "ConfigSpace" not in sys.modules
if _STUBBED:
    sys.modules["ConfigSpace"] = _configspace_stub()
try:
    from unified_planning.engines.plan_validator import SequentialPlanValidator
    from unified_planning.engines.results import FailedValidationReason, ValidationResultStatus
finally:
    if _STUBBED:
        del sys.modules["ConfigSpace"]
from unified_planning.environment import get_environment  # noqa: E402
from unified_planning.io import PDDLReader  # noqa: E402
from unified_planning.model.problem_kind import FEATURES  # noqa: E402
from unified_planning.model.walkers import StateEvaluator  # noqa: E402
from unified_planning.plans import ActionInstance, SequentialPlan  # noqa: E402

__all__ = [
    "IpcPlan",
    "PlanFormatError",
    "Step",
    "parse_ipc_plan",
    "read_up_problem",
    "validate_plan",
    "validate_plan_text",
]


# --- the plan text -------------------------------------------------------------------------


class PlanFormatError(ValueError):
    """The text is not a plan in the IPC 2020 output format."""


@dataclass(frozen=True)
class Step:
    """One line of the plan: a primitive action (``method`` is None) or a decomposed task."""

    line: int
    id: int
    name: str
    args: tuple[str, ...]
    method: str | None = None
    children: tuple[int, ...] = ()

    def __str__(self) -> str:
        return " ".join((self.name, *self.args))


@dataclass(frozen=True)
class IpcPlan:
    actions: tuple[Step, ...]  # in execution order
    root: tuple[int, ...]
    tasks: dict[int, Step]  # the decomposed tasks, by id


_ID = r"\d+"
_NAME = r"[^\s()]+"
_ACTION_LINE = re.compile(rf"({_ID})\s+({_NAME})((?:\s+{_NAME})*)")
_ROOT_LINE = re.compile(rf"root((?:\s+{_ID})*)")
_TASK_LINE = re.compile(rf"({_ID})\s+({_NAME})((?:\s+{_NAME})*?)\s+->\s+({_NAME})((?:\s+{_ID})*)")


def parse_ipc_plan(text: str) -> IpcPlan:
    """Read the plan after ``==>`` (up to ``<==``); raise `PlanFormatError` at a bad line."""
    lines = text.splitlines()
    start = next((n for n, line in enumerate(lines) if line.strip().startswith("==>")), None)
    if start is None:
        raise PlanFormatError("no line starts with '==>', the start of the plan")
    if lines[start].strip() != "==>":
        raise PlanFormatError(f"line {start + 1}: nothing may follow '==>' on its line")
    actions: list[Step] = []
    tasks: dict[int, Step] = {}
    root: tuple[int, ...] | None = None
    seen: dict[int, int] = {}
    for n in range(start + 1, len(lines)):
        number, line = n + 1, lines[n].strip()
        if line.startswith("<=="):
            break
        if not line:
            continue
        if root is None and (match := _ROOT_LINE.fullmatch(line)):
            root = tuple(int(i) for i in match.group(1).split())
            continue
        if root is None:
            match = _ACTION_LINE.fullmatch(line)
            if match is None:
                raise PlanFormatError(f"line {number}: not an action line 'id name args': {line}")
            step = Step(number, int(match[1]), match[2].lower(), _words(match[3]))
            actions.append(step)
        else:
            match = _TASK_LINE.fullmatch(line)
            if match is None:
                raise PlanFormatError(
                    f"line {number}: not a decomposition line 'id task args -> method ids': {line}"
                )
            children = tuple(int(i) for i in match[5].split())
            step = Step(
                number,
                int(match[1]),
                match[2].lower(),
                _words(match[3]),
                match[4].lower(),
                children,
            )
            tasks[step.id] = step
        if step.id in seen:
            raise PlanFormatError(
                f"line {number}: id {step.id} is already used on line {seen[step.id]}"
            )
        seen[step.id] = number
    if root is None:
        raise PlanFormatError("no 'root' line: the plan has no decomposition")
    return IpcPlan(tuple(actions), root, tasks)


def _words(text: str) -> tuple[str, ...]:
    return tuple(word.lower() for word in text.split())


# --- the HDDL, read by unified-planning ------------------------------------------------------

_Sexp = str | list[Any]

_DOMAIN_SECTIONS = [
    ":requirements",
    ":types",
    ":constants",
    ":predicates",
    ":functions",
    ":task",
    ":method",
    ":action",
]
_PROBLEM_SECTIONS = [":domain", ":requirements", ":objects", ":htn", ":init", ":goal"]
_PROBLEM_SECTIONS += [":constraints", ":metric"]
_NETWORK_KEYS = [":parameters", ":task", ":precondition", ":ordered-subtasks", ":ordered-tasks"]
_NETWORK_KEYS += [":subtasks", ":tasks", ":ordering", ":constraints"]
_ACTION_KEYS = [":parameters", ":precondition", ":effect"]


def _read_sexp(text: str) -> _Sexp:
    tokens = re.findall(r"[()]|[^\s()]+", re.sub(r";[^\n]*", " ", text).lower())
    stack: list[list[Any]] = [[]]
    for token in tokens:
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                raise ValueError("a ')' closes nothing")
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("the parentheses do not balance")
    result: _Sexp = stack[0][0]
    return result


def _show(sexp: _Sexp) -> str:
    return sexp if isinstance(sexp, str) else "(" + " ".join(_show(s) for s in sexp) + ")"


def _sorted_keys(items: list[_Sexp], order: list[str]) -> list[_Sexp]:
    pairs = [(items[i], items[i + 1]) for i in range(0, len(items) - 1, 2)]
    pairs.sort(key=lambda pair: order.index(pair[0]) if pair[0] in order else len(order))
    return [part for pair in pairs for part in pair]


def _section_rank(section: _Sexp, order: list[str]) -> int:
    head = section[0] if isinstance(section, list) and section else None
    return order.index(head) if head in order else len(order)


def _for_unified_planning(text: str) -> str:
    """The same domain or problem, its sections in the order unified-planning reads."""
    sexp = _read_sexp(text)
    if not (isinstance(sexp, list) and len(sexp) >= 2 and isinstance(sexp[1], list)):
        raise ValueError("not a (define (domain|problem ...) ...) form")
    head, kind, *sections = sexp
    if kind[0] == "domain":
        sections.sort(key=lambda s: _section_rank(s, _DOMAIN_SECTIONS))
        parents = _type_parents(sections)
        for section in sections:
            if section[0] == ":method":
                section[2:] = _sorted_keys(section[2:], _NETWORK_KEYS)
            elif section[0] == ":action":
                section[2:] = _sorted_keys(section[2:], _ACTION_KEYS)
            elif section[0] == ":predicates":
                for predicate in section[1:]:
                    predicate[1:] = [_no_either(s, parents) for s in predicate[1:]]
    else:
        sections.sort(key=lambda s: _section_rank(s, _PROBLEM_SECTIONS))
        for section in sections:
            if section[0] == ":htn":
                section[1:] = _sorted_keys(section[1:], _NETWORK_KEYS)
    if "either" in _show(sections).replace("(", " ").split():
        raise ValueError("unified-planning reads no (either ...) type outside the predicates")
    return _show([head, kind, *sections])


def _type_parents(sections: list[_Sexp]) -> dict[str, str]:
    parents: dict[str, str] = {}
    for section in sections:
        if section[0] == ":types":
            pending: list[str] = []
            words = section[1:]
            i = 0
            while i < len(words):
                if words[i] == "-" and i + 1 < len(words) and isinstance(words[i + 1], str):
                    parents.update(dict.fromkeys(pending, words[i + 1]))
                    pending, i = [], i + 2
                else:
                    pending.append(words[i])
                    i += 1
    return parents


def _no_either(sexp: _Sexp, parents: dict[str, str]) -> _Sexp:
    """``(either a b)`` as the nearest type above both (``object`` if none is)."""
    if isinstance(sexp, str) or not sexp or sexp[0] != "either":
        return sexp

    def chain(name: str) -> list[str]:
        out = [name]
        while out[-1] in parents and parents[out[-1]] not in out:
            out.append(parents[out[-1]])
        return out

    chains = [chain(name) for name in sexp[1:]]
    common = [name for name in chains[0] if all(name in other for other in chains[1:])]
    return common[0] if common else "object"


@lru_cache(maxsize=16)
def _read_cached(domain: Path, problem: Path, _versions: tuple[int, int]) -> Any:
    return _read_texts(domain.read_text(encoding="utf-8"), problem.read_text(encoding="utf-8"))


@lru_cache(maxsize=16)
def _read_texts(domain_text: str, problem_text: str) -> Any:
    """unified-planning's problem for the two texts (kept for later calls with the same)."""
    domain_text = _for_unified_planning(domain_text)
    problem_text = _for_unified_planning(problem_text)
    # The global environment: the reader makes a task's parameters in it whatever it is given.
    environment = get_environment()
    strict = environment.error_used_name
    # IPC domains (Barman-BDI, Freecell) give a type and a predicate the same name.
    environment.error_used_name = False
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the names those domains share
            return PDDLReader(environment).parse_problem_string(domain_text, problem_text)
    finally:
        environment.error_used_name = strict


def read_up_problem(domain_path: str | Path, problem_path: str | Path) -> Any:
    """unified-planning's ``HierarchicalProblem`` for the pair (kept for later calls)."""
    domain, problem = Path(domain_path).resolve(), Path(problem_path).resolve()
    return _read_cached(domain, problem, (domain.stat().st_mtime_ns, problem.stat().st_mtime_ns))


# --- the check -------------------------------------------------------------------------------


def validate_plan(
    domain_path: str | Path, problem_path: str | Path, ipc_plan_text: str
) -> list[str]:
    """What is wrong with the plan for this HDDL problem; an empty list means it is valid.

    The HDDL files are read by unified-planning; a file it cannot read raises its exception.
    """
    return _validate(read_up_problem(domain_path, problem_path), ipc_plan_text)


def validate_plan_text(domain_text: str, problem_text: str, ipc_plan_text: str) -> list[str]:
    """:func:`validate_plan` on the texts of the domain and the problem (an edited domain
    that is in no file); a text unified-planning cannot read raises its exception."""
    return _validate(_read_texts(domain_text, problem_text), ipc_plan_text)


def _validate(problem: Any, ipc_plan_text: str) -> list[str]:
    try:
        plan = parse_ipc_plan(ipc_plan_text)
    except PlanFormatError as error:
        return [f"plan format: {error}"]
    found: list[str] = []
    unsupported = _unsupported_features(problem)
    if unsupported:
        found.append(
            "unified-planning's validator cannot judge these features of the problem: "
            + ", ".join(sorted(unsupported))
        )
    actions = {action.name: action for action in problem.actions}
    instances = [_action_instance(problem, actions, step, found) for step in plan.actions]
    states: list[Any] = []
    if all(instance is not None for instance in instances):
        states = _run_actions(problem, plan, instances, found)
    found += _Hierarchy(problem, plan, states).check()
    return found


def _unsupported_features(problem: Any) -> set[str]:
    hierarchical = set(FEATURES["PROBLEM_CLASS"]) | set(FEATURES["HIERARCHICAL"])
    features = set(problem.kind.features) - hierarchical
    return features - set(SequentialPlanValidator.supported_kind().features)


def _action_instance(problem: Any, actions: dict[str, Any], step: Step, found: list[str]) -> Any:
    action = actions.get(step.name)
    where = f"line {step.line}: action {step.id} ({step})"
    if action is None:
        kind = (
            "a task, not an action" if _has_task(problem, step.name) else "no action of the domain"
        )
        found.append(f"{where}: {step.name} is {kind}")
        return None
    if len(step.args) != len(action.parameters):
        found.append(f"{where}: {step.name} takes {len(action.parameters)} arguments")
        return None
    objects = []
    for parameter, arg in zip(action.parameters, step.args, strict=True):
        obj = _object(problem, arg)
        if obj is None:
            found.append(f"{where}: no object {arg}")
            return None
        if not parameter.type.is_compatible(obj.type):
            found.append(f"{where}: {arg} is not of type {parameter.type} ({parameter.name})")
            return None
        objects.append(obj)
    return ActionInstance(action, tuple(objects))


def _run_actions(
    problem: Any, plan: IpcPlan, instances: Sequence[Any], found: list[str]
) -> list[Any]:
    """unified-planning's validator on the action sequence; returns its trace of states."""
    validator = SequentialPlanValidator(environment=problem.environment)
    validator.skip_checks = True  # the hierarchy is this module's business, the rest is above
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = validator.validate(problem, SequentialPlan(list(instances), problem.environment))
    trace = list(result.trace or [])
    if result.status != ValidationResultStatus.VALID:
        said = "; ".join(log.message for log in result.log_messages or [])
        if result.reason == FailedValidationReason.INAPPLICABLE_ACTION:
            step, instance = plan.actions[len(trace) - 1], instances[len(trace) - 1]
            action = instance.action
            em = problem.environment.expression_manager
            substitution = {
                em.ParameterExp(p): value
                for p, value in zip(action.parameters, instance.actual_parameters, strict=True)
            }
            false = _false_parts(problem, action.preconditions, substitution, trace[-1])
            found.append(
                f"line {step.line}: action {step.id} ({step}) is not applicable after "
                f"{len(trace) - 1} actions: false: {', '.join(false) or '?'} "
                f"(unified-planning: {said})"
            )
        elif result.reason == FailedValidationReason.UNSATISFIED_GOALS:
            found.append(f"the goal is not reached (unified-planning: {said})")
        else:
            found.append(f"unified-planning finds the action sequence invalid: {said}")
    return trace


def _false_parts(
    problem: Any, conditions: Sequence[Any], substitution: dict[Any, Any], state: Any
) -> list[str]:
    """The conjuncts of the conditions, under the substitution, that are false in the state."""
    evaluator = StateEvaluator(problem)
    parts: list[Any] = []
    for condition in conditions:
        ground = condition.substitute(substitution)
        parts += list(ground.args) if ground.is_and() else [ground]
    return [
        str(part) for part in parts if not evaluator.evaluate(part, state).bool_constant_value()
    ]


def _has_task(problem: Any, name: str) -> bool:
    return any(task.name == name for task in problem.tasks)


def _object(problem: Any, name: str) -> Any:
    return problem.object(name) if problem.has_object(name) else None


def _before_pairs(network: Any) -> set[tuple[str, str]] | None:
    """The network's ordering as (before, after) subtask identifiers; None if it has other
    constraints than precedences."""
    order = network.total_order()
    if order is not None:
        return set(pairwise(order))
    pairs = network.partial_order()
    return None if pairs is None else {(str(a), str(b)) for a, b in pairs}


Binding = dict[str, str]  # a method's (or the initial network's) variable name -> object name


class _Hierarchy:
    """The decomposition lines of one plan against unified-planning's methods."""

    def __init__(self, problem: Any, plan: IpcPlan, states: list[Any]) -> None:
        self.problem = problem
        self.plan = plan
        self.states = states
        self.nodes: dict[int, Step] = {step.id: step for step in plan.actions}
        self.nodes.update(plan.tasks)
        self.methods = {method.name: method for method in problem.methods}
        self.tasks = {task.name: task for task in problem.tasks}
        self.evaluator = StateEvaluator(problem)
        self.em = problem.environment.expression_manager
        self.found: list[str] = []
        self.position: dict[int, int] = {}  # node id -> actions before it, depth first
        self.top: int | None = None  # the id of an artificial __top root task
        self.unused: set[int] = set()  # ids no line and no root names

    def check(self) -> list[str]:
        roots = self._roots()
        self._check_ids(roots)
        order: list[int] = []
        walked: set[int] = set()
        self._walk(roots, order, walked)
        hanging = set(walked) | self._below(self.unused)  # the rest only hang from each other
        cycle = sorted(set(self.plan.tasks) - hanging - {self.top})
        if cycle:
            self.found.append(f"tasks {cycle} decompose into each other in a cycle")
        listed = [step.id for step in self.plan.actions]
        if order != listed:
            self.found.append(
                "the decomposition puts the actions in the order "
                f"{' '.join(map(str, order))}, the plan lists {' '.join(map(str, listed))}"
            )
            self.states = []  # the states of the plan's order are not those the methods see
        self._check_root(roots)
        for step in self.plan.tasks.values():
            if step.id != self.top:
                self._check_decomposition(step)
        return self.found

    def _roots(self) -> tuple[int, ...]:
        """The root ids; those of ``__top``'s decomposition if the root is that one task."""
        roots = self.plan.root
        if len(roots) == 1 and roots[0] in self.plan.tasks:
            top = self.plan.tasks[roots[0]]
            if top.name == "__top":
                if top.method != "__top_method":
                    self.found.append(f"line {top.line}: __top is decomposed by __top_method only")
                self.top = top.id
                return top.children
        return roots

    def _check_ids(self, roots: tuple[int, ...]) -> None:
        """Every id named exists, and every line is named exactly once."""
        named = list(roots)
        for root in roots:
            if root not in self.nodes:
                self.found.append(f"the root names task {root}, which no line defines")
        for step in self.plan.tasks.values():
            if step.id == self.top:
                continue
            for child in step.children:
                if child not in self.nodes:
                    self.found.append(
                        f"line {step.line}: task {step.id} ({step}) names subtask {child}, "
                        "which no line defines"
                    )
            named += step.children
        uses = Counter(named)
        for node, step in self.nodes.items():
            if node == self.top:
                continue
            what = "action" if step.method is None else "task"
            if uses[node] == 0:
                self.unused.add(node)
                self.found.append(
                    f"line {step.line}: {what} {node} ({step}) is reached from no root task"
                )
            elif uses[node] > 1:
                self.found.append(
                    f"line {step.line}: {what} {node} ({step}) is a subtask {uses[node]} times"
                )

    def _below(self, ids: set[int]) -> set[int]:
        """The lines at or below these."""
        out: set[int] = set()
        stack = list(ids)
        while stack:
            node = stack.pop()
            if node in self.nodes and node not in out:
                out.add(node)
                stack += self.nodes[node].children
        return out

    def _walk(self, ids: Sequence[int], order: list[int], walked: set[int]) -> None:
        """Depth first from the roots: the actions in order, and where each line stands."""
        for node in ids:
            if node not in self.nodes or node in walked:
                continue  # already said: undefined, named twice, or in a cycle
            walked.add(node)
            self.position[node] = len(order)
            step = self.nodes[node]
            if step.method is None:
                order.append(node)
            else:
                self._walk(step.children, order, walked)

    def _check_root(self, roots: tuple[int, ...]) -> None:
        network = self.problem.task_network
        if any(node not in self.nodes for node in roots):
            return
        nodes = [self.nodes[node] for node in roots]
        variables = {variable.name for variable in network.variables}
        if not any(True for _ in self._match(network, nodes, {}, variables)):
            wanted = _network_text(network)
            given = ", ".join(str(step) for step in nodes)
            self.found.append(
                f"the root tasks ({given}) are not the problem's initial task network ({wanted})"
            )

    def _check_decomposition(self, step: Step) -> None:
        where = f"line {step.line}: task {step.id} ({step})"
        task = self.tasks.get(step.name)
        if task is None:
            self.found.append(f"{where}: the domain has no task {step.name}")
            return
        if len(step.args) != len(task.parameters):
            self.found.append(f"{where}: {step.name} takes {len(task.parameters)} arguments")
            return
        assert step.method is not None
        method = self.methods.get(step.method)
        if method is None:
            self.found.append(f"{where}: the domain has no method {step.method}")
            return
        if method.achieved_task.task.name != step.name:
            self.found.append(
                f"{where}: method {method.name} decomposes {method.achieved_task.task.name}, "
                f"not {step.name}"
            )
            return
        if len(step.children) != len(method.subtasks):
            self.found.append(
                f"{where}: method {method.name} has {len(method.subtasks)} subtasks, "
                f"the line gives {len(step.children)}"
            )
            return
        if any(child not in self.nodes for child in step.children):
            return
        binding = self._unify(method.achieved_task.parameters, step.args, {}, set())
        if binding is None:
            self.found.append(f"{where}: its arguments do not fit the types of {step.name}")
            return
        children = [self.nodes[child] for child in step.children]
        matches = list(self._match(method, children, binding, set()))
        if not matches:
            wanted = _network_text(method)
            given = ", ".join(str(child) for child in children)
            self.found.append(
                f"{where}: its subtasks ({given}) are not those of method {method.name} "
                f"for it ({wanted})"
            )
            return
        position = self.position.get(step.id)
        if position is None or position >= len(self.states):
            return  # no state to judge the precondition in (the actions failed before it)
        state = self.states[position]
        if not any(self._precondition_holds(method, match, state) for match in matches):
            free = [p for p in method.parameters if p.name not in matches[0]]
            false = ""
            if len(matches) == 1 and not free:
                substitution = {
                    self.em.ParameterExp(p): self.em.ObjectExp(
                        self.problem.object(matches[0][p.name])
                    )
                    for p in method.parameters
                }
                parts = _false_parts(self.problem, method.preconditions, substitution, state)
                false = f": false: {', '.join(parts)}"
            self.found.append(
                f"{where}: the precondition of method {method.name} does not hold "
                f"in the state after {position} actions{false}"
            )

    def _match(
        self, network: Any, nodes: list[Step], binding: Binding, variables: set[str]
    ) -> Iterator[Binding]:
        """Every binding under which the nodes, in their order, are the network's subtasks in
        an order the network allows."""
        before = _before_pairs(network)
        if before is None:
            self.found.append(f"{network}: ordering constraints other than precedences")
            return
        subtasks = list(network.subtasks)
        if len(subtasks) != len(nodes):
            return

        def extend(i: int, used: frozenset[str], binding: Binding) -> Iterator[Binding]:
            if i == len(nodes):
                yield binding
                return
            for subtask in subtasks:
                ident = subtask.identifier
                if ident in used or subtask.task.name != nodes[i].name:
                    continue
                if any(a not in used for a, b in before if b == ident):
                    continue
                bound = self._unify(subtask.parameters, nodes[i].args, binding, variables)
                if bound is not None:
                    yield from extend(i + 1, used | {ident}, bound)

        yield from extend(0, frozenset(), binding)

    def _unify(
        self, terms: Sequence[Any], args: tuple[str, ...], binding: Binding, variables: set[str]
    ) -> Binding | None:
        """The binding extended so that the terms (parameters, objects, variables) are the
        objects named by args; None if they cannot be."""
        if len(terms) != len(args):
            return None
        out = dict(binding)
        for term, arg in zip(terms, args, strict=True):
            obj = _object(self.problem, arg)
            if obj is None:
                return None
            if hasattr(term, "is_object_exp") and term.is_object_exp():
                if term.object().name != arg:
                    return None
                continue
            if hasattr(term, "is_parameter_exp") and term.is_parameter_exp():
                term = term.parameter()
            elif hasattr(term, "is_variable_exp") and term.is_variable_exp():
                term = term.variable()
            elif hasattr(term, "node_type"):
                return None  # an expression of another kind: not in HDDL
            if term.name in out:
                if out[term.name] != arg:
                    return None
            elif term.type.is_compatible(obj.type):
                out[term.name] = arg
            else:
                return None
        return out

    def _precondition_holds(self, method: Any, binding: Binding, state: Any) -> bool:
        free = [p for p in method.parameters if p.name not in binding]
        choices = [
            [obj.name for obj in self.problem.all_objects if p.type.is_compatible(obj.type)]
            for p in free
        ]
        for values in product(*choices):
            full = {**binding, **dict(zip((p.name for p in free), values, strict=True))}
            substitution = {
                self.em.ParameterExp(p): self.em.ObjectExp(self.problem.object(full[p.name]))
                for p in method.parameters
            }
            if all(
                self.evaluator.evaluate(pre.substitute(substitution), state).bool_constant_value()
                for pre in method.preconditions
            ):
                return True
        return False


def _network_text(network: Any) -> str:
    """The subtasks, in their total order if they have one: ``get-to ?v ?to, ...``."""
    subtasks = list(network.subtasks)
    order = network.total_order()
    if order is not None:
        subtasks.sort(key=lambda subtask: order.index(subtask.identifier))

    def term(term: Any) -> str:
        if term.is_parameter_exp():
            return f"?{term.parameter().name}"
        if term.is_variable_exp():
            return f"?{term.variable().name}"
        return str(term)

    return ", ".join(
        " ".join((subtask.task.name, *map(term, subtask.parameters))) for subtask in subtasks
    )
