"""Nodes per second of the TOFS search core on synthetic domains.

Run: ``.venv/bin/python benchmarks/search_speed.py`` (``--choices N`` to resize).

Every configuration runs in the same process, interleaved over ``--repeat`` rounds, and the
best round is reported, so ratios are measured side by side on this shared machine.

The optimise domain is a chain of N three-way choices; each alternative is an operator
method whose precondition, binding-free arguments and cost all read the state, so the
figure includes real expression evaluation, effect application and bookkeeping.  The game
domain alternates three-way decision nodes with three-way weighted opponent nodes.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from engine.tofs import (
    DomainSpec,
    MethodDef,
    OperatorDef,
    Problem,
    Registry,
    SearchOptions,
    TaskDef,
    Trace,
    compile_domain,
    plan,
)
from engine.tofs.domain import make_task


def registry() -> Registry:
    reg = Registry("synthetic")

    @reg.primitive
    def val(state: tuple[int, ...], i: int) -> int:
        """Counter i."""
        return state[i]

    @reg.effect
    def bump(state: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
        s = list(state)
        s[i] += d
        return tuple(s)

    @reg.effect
    def move(state: tuple[int, ...], agent: str, i: int, d: int) -> tuple[int, ...]:
        return bump(state, i, d)

    @reg.hook("controlled")
    def controlled(state: tuple[int, ...], agent: str) -> bool:
        return agent == "me"

    @reg.hook("evaluate")
    def evaluate(state: tuple[int, ...]) -> float:
        return float(state[0] - state[1] + 2 * state[2])

    return reg


def optimise_domain(n: int):
    tasks = [TaskDef(name="Root")] + [TaskDef(name=f"C{k}") for k in range(n)]
    methods = [MethodDef(name="All", task="Root", subtasks=[f"C{k}()" for k in range(n)])]
    for k in range(n):
        for m in range(3):
            methods.append(
                MethodDef(
                    name=f"Way{m}",
                    task=f"C{k}",
                    precondition=f"val({k % 3}) < 100",
                    operator=f"Step({k % 3}, {m})",
                )
            )
    ops = [
        OperatorDef(
            name="Step",
            params=["i", "d"],
            precondition="val(i) + d >= 0",
            effect="bump",
            costs={"setup": "1 + d", "run": "(val(i) % 3) + 0.5"},
        )
    ]
    spec = DomainSpec(name="synthetic", tasks=tasks, methods=methods, operators=ops)
    d = compile_domain(spec, registry())
    return d, Problem("chain", (0, 0, 0), (make_task(d, "Root"),))


def game_domain(n: int):
    tasks = [TaskDef(name="Root")]
    methods = [
        MethodDef(
            name="All",
            task="Root",
            subtasks=[
                f'{"Me" if k % 2 == 0 else "Them"}{k}("{"me" if k % 2 == 0 else "them"}")'
                for k in range(n)
            ],
        )
    ]
    for k in range(n):
        name = f"{'Me' if k % 2 == 0 else 'Them'}{k}"
        tasks.append(TaskDef(name=name, params=["P"], agent="P"))
        for m in range(3):
            methods.append(
                MethodDef(
                    name=f"Move{m}",
                    task=name,
                    operator=f"Step(P, {k % 3}, {m})",
                    weight=None if k % 2 == 0 else f"{[0.5, 0.3, 0.2][m]}",
                    assumption=None if k % 2 == 0 else f"reply {m}",
                )
            )
    ops = [
        OperatorDef(name="Step", params=["P", "i", "d"], precondition="val(i) < 100", effect="move")
    ]
    spec = DomainSpec(name="synthetic_game", tasks=tasks, methods=methods, operators=ops)
    d = compile_domain(spec, registry())
    return d, Problem("game", (0, 0, 0), (make_task(d, "Root"),), mode="game")


@dataclass
class Row:
    name: str
    nodes: int = 0
    best: float = float("inf")

    def add(self, nodes: int, seconds: float) -> None:
        self.nodes = nodes
        self.best = min(self.best, seconds)

    @property
    def rate(self) -> float:
        return self.nodes / self.best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--choices", type=int, default=9, help="three-way choices in the chain")
    ap.add_argument("--plies", type=int, default=9, help="plies of the synthetic game")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    od, op = optimise_domain(args.choices)
    gd, gp = game_domain(args.plies)
    configs = {
        "optimise, full tree (exhaustive)": (od, op, lambda: SearchOptions(full_tree=True)),
        "optimise, full tree, trace on": (
            od,
            op,
            lambda: SearchOptions(full_tree=True, trace=Trace()),
        ),
        "optimise, branch and bound + TT": (od, op, lambda: SearchOptions()),
        "first plan": (od, op, lambda: SearchOptions(mode="first")),
        "game, weighted average": (gd, gp, lambda: SearchOptions(mode="game")),
    }
    rows = {name: Row(name) for name in configs}
    values: dict[str, float | None] = {}
    for _ in range(args.repeat):
        for name, (d, p, opts) in configs.items():
            t0 = time.perf_counter()
            r = plan(d, p, opts())
            rows[name].add(r.nodes, time.perf_counter() - t0)
            values[name] = r.value
    print(
        f"synthetic chain of {args.choices} three-way choices; game of {args.plies} plies; "
        f"best of {args.repeat} interleaved rounds"
    )
    print(f"{'configuration':36s} {'nodes':>9s} {'seconds':>9s} {'nodes/s':>10s}  value")
    for name, row in rows.items():
        print(f"{name:36s} {row.nodes:9d} {row.best:9.3f} {row.rate:10.0f}  {values[name]:g}")
    full = rows["optimise, full tree (exhaustive)"]
    traced = rows["optimise, full tree, trace on"]
    bnb = rows["optimise, branch and bound + TT"]
    print(f"trace on costs {traced.best / full.best:.2f}x the time of trace off")
    print(
        f"branch and bound + TT: {full.nodes / bnb.nodes:.0f}x fewer nodes, "
        f"{full.best / bnb.best:.0f}x faster than exhaustive, same value: "
        f"{values[bnb.name] == values[full.name]}"
    )


if __name__ == "__main__":
    main()
