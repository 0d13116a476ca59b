"""Random small single-agent HTN domains for property tests of the search core.

Tasks only call later tasks (so every decomposition terminates); preconditions, bindings
and costs read a small integer state, so alternatives genuinely differ and transpositions
genuinely occur.
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from engine.tofs import (
    DomainSpec,
    MethodDef,
    OperatorDef,
    Problem,
    Registry,
    TaskDef,
    compile_domain,
)
from engine.tofs.domain import Domain, make_task

N_COUNTERS = 3


def make_registry() -> Registry:
    reg = Registry("random")

    @reg.primitive
    def val(state: tuple[int, ...], i: int) -> int:
        """Counter i."""
        return state[i]

    @reg.primitive
    def choices(state: tuple[int, ...], n: int) -> list[int]:
        """0 .. n-1: a binding generator."""
        return list(range(n))

    @reg.effect
    def bump(state: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
        s = list(state)
        s[i] += d
        return tuple(s)

    return reg


REGISTRY = make_registry()

PRECONDITIONS = [
    "True",
    "val(0) < 2",
    "val(1) + val(2) >= 1",
    "val(2) <= 1",
    "not val(0) == val(1)",
    "val(0) * 2 >= val(2)",
    "val(1) < 3 or val(0) > 0",
]
COSTS = ["1", "2", "3", "d + 1", "val(i) + 1", "2 * d + val(0)", "5 - min(d, 2)", "0"]


@dataclass
class Generated:
    spec: DomainSpec
    flagged: bool

    def compile(self) -> tuple[Domain, Problem]:
        d = compile_domain(self.spec, REGISTRY)
        return d, Problem("random", (0,) * N_COUNTERS, (make_task(d, "T0"),))


@st.composite
def domains(draw: st.DrawFn, flag_safe_task: bool = False) -> Generated:
    n_tasks = draw(st.integers(2, 5))
    n_ops = draw(st.integers(1, 3))
    operators = []
    for k in range(n_ops):
        operators.append(
            OperatorDef(
                name=f"O{k}",
                params=["i", "d"],
                precondition=draw(
                    st.sampled_from(["True", "val(i) < 3", "d <= 1", "val(i) + d <= 3"])
                ),
                effect="bump",
                costs={"run": draw(st.sampled_from(COSTS))},
                description=f"O{k} on counter {{i}} by {{d}}",
            )
        )
    tasks = [TaskDef(name=f"T{j}") for j in range(n_tasks)]
    methods = []
    for j in range(n_tasks):
        for m in range(draw(st.integers(1, 3))):
            n_sub = draw(st.integers(0, 3))
            bindings = []
            if draw(st.booleans()):
                bindings = [f"X in choices({draw(st.integers(0, 3))})"]
            subs = []
            for _ in range(n_sub):
                later = [f"T{k}()" for k in range(j + 1, n_tasks)]
                i = draw(st.integers(0, N_COUNTERS - 1))
                dsrc = (
                    "X" if bool(bindings) and draw(st.booleans()) else str(draw(st.integers(0, 2)))
                )
                ops = [f"O{k}({i}, {dsrc})" for k in range(n_ops)]
                subs.append(draw(st.sampled_from(later + ops)))
            methods.append(
                MethodDef(
                    name=f"M{j}_{m}",
                    task=f"T{j}",
                    bindings=bindings,
                    precondition=draw(st.sampled_from(PRECONDITIONS)),
                    subtasks=subs,
                )
            )
    flagged = False
    if flag_safe_task:
        # A task whose alternatives all do the same thing to the state at different costs:
        # exactly what the partial plan pruner assumes of a flagged task.
        tasks.append(TaskDef(name="Safe", partial_plan_prune=True))
        operators.append(OperatorDef(name="Same", params=["c"], effect=None, costs={"run": "c"}))
        for m, c in enumerate(draw(st.lists(st.integers(0, 4), min_size=2, max_size=4))):
            methods.append(MethodDef(name=f"Safe_{m}", task="Safe", subtasks=[f"Same({c})"]))
        methods = [
            mm.model_copy(update={"subtasks": ["Safe()", *(mm.subtasks or [])]})
            if mm.task == "T0"
            else mm
            for mm in methods
        ]
        flagged = True
    spec = DomainSpec(name="random", tasks=tasks, methods=methods, operators=operators)
    return Generated(spec, flagged)
