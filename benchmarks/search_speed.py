"""Nodes per second of the TOFS search core on synthetic domains.

Run: ``.venv/bin/python benchmarks/search_speed.py`` (``--choices N`` to resize).

Every configuration runs in the same process, interleaved over ``--repeat`` rounds, and the
best round is reported, so ratios are measured side by side on this shared machine.

``--against DIR`` measures this checkout's search against another's (a worktree of the
commit before a change: ``git worktree add /tmp/base main``) in one process: the other
engine is imported under another name, every configuration alternates between the two
(in alternating order) each round, times are CPU seconds of this process (so that other
work on a shared machine counts less), and the two must agree on nodes and values.

The optimise domain is a chain of N three-way choices; each alternative is an operator
method whose precondition, binding-free arguments and cost all read the state, so the
figure includes real expression evaluation, effect application and bookkeeping.  The game
domain alternates three-way decision nodes with three-way weighted opponent nodes.
"""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import engine.tofs


def registry(tofs: ModuleType = engine.tofs) -> Any:
    reg = tofs.Registry("synthetic")

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


def optimise_domain(n: int, tofs: ModuleType = engine.tofs) -> tuple[Any, Any]:
    TaskDef, MethodDef, OperatorDef = tofs.TaskDef, tofs.MethodDef, tofs.OperatorDef
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
    spec = tofs.DomainSpec(name="synthetic", tasks=tasks, methods=methods, operators=ops)
    d = tofs.compile_domain(spec, registry(tofs))
    return d, tofs.Problem("chain", (0, 0, 0), (tofs.make_task(d, "Root"),))


def game_domain(n: int, tofs: ModuleType = engine.tofs) -> tuple[Any, Any]:
    TaskDef, MethodDef, OperatorDef = tofs.TaskDef, tofs.MethodDef, tofs.OperatorDef
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
    spec = tofs.DomainSpec(name="synthetic_game", tasks=tasks, methods=methods, operators=ops)
    d = tofs.compile_domain(spec, registry(tofs))
    return d, tofs.Problem("game", (0, 0, 0), (tofs.make_task(d, "Root"),), mode="game")


def configurations(
    choices: int, plies: int, tofs: ModuleType = engine.tofs
) -> dict[str, tuple[Any, Any, Callable[[], Any]]]:
    """Each configuration: its domain, problem and a maker of fresh options."""
    od, op = optimise_domain(choices, tofs)
    gd, gp = game_domain(plies, tofs)
    options, trace = tofs.SearchOptions, tofs.Trace
    return {
        "optimise, full tree (exhaustive)": (od, op, lambda: options(full_tree=True)),
        "optimise, full tree, trace on": (
            od,
            op,
            lambda: options(full_tree=True, trace=trace()),
        ),
        "optimise, branch and bound + TT": (od, op, lambda: options()),
        "first plan": (od, op, lambda: options(mode="first")),
        "game, weighted average": (gd, gp, lambda: options(mode="game")),
    }


def other_engine(checkout: Path) -> ModuleType:
    """The ``engine.tofs`` of another checkout, imported as ``engine_against.tofs`` (the
    engine's modules import one another relatively, so a renamed copy is self-contained)."""
    source = checkout / "engine"
    if not (source / "tofs" / "__init__.py").is_file():
        raise SystemExit(f"search_speed: error: {checkout} has no engine/tofs package")
    home = Path(tempfile.mkdtemp(prefix="search-speed-"))
    atexit.register(shutil.rmtree, home, True)
    shutil.copytree(source, home / "engine_against")
    sys.path.insert(0, str(home))
    return importlib.import_module("engine_against.tofs")


def compare(args: argparse.Namespace) -> None:
    """This checkout's search side by side with ``--against``'s, in one process."""
    sides = {"this": engine.tofs, "against": other_engine(Path(args.against))}
    configs = {side: configurations(args.choices, args.plies, t) for side, t in sides.items()}
    best = {(side, name): float("inf") for side in sides for name in configs["this"]}
    found: dict[tuple[str, str], tuple[int, float | None]] = {}
    for round_ in range(args.repeat):
        for name in configs["this"]:
            order = ("against", "this") if round_ % 2 == 0 else ("this", "against")
            for side in order:
                d, p, opts = configs[side][name]
                gc.collect()  # each run starts from the same heap: no result of another alive
                t0 = time.process_time()
                r = sides[side].plan(d, p, opts())
                best[side, name] = min(best[side, name], time.process_time() - t0)
                found[side, name] = (r.nodes, r.value)
                del r
    print(
        f"synthetic chain of {args.choices} three-way choices; game of {args.plies} plies; "
        f"best of {args.repeat} alternating rounds, CPU seconds"
    )
    print(f"this: {Path.cwd()}   against: {args.against}")
    print(f"{'configuration':36s} {'nodes':>9s} {'against n/s':>12s} {'this n/s':>10s}  ratio")
    for name in configs["this"]:
        if found["this", name] != found["against", name]:
            raise SystemExit(
                f"search_speed: error: {name}: nodes and value differ: this "
                f"{found['this', name]}, against {found['against', name]}"
            )
        nodes = found["this", name][0]
        this, other = nodes / best["this", name], nodes / best["against", name]
        print(f"{name:36s} {nodes:9d} {other:12.0f} {this:10.0f}  {this / other:.3f}")


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
    ap.add_argument(
        "--against",
        metavar="DIR",
        help="another checkout (the commit before a change): measure both side by side",
    )
    args = ap.parse_args()
    if args.against:
        compare(args)
        return

    configs = configurations(args.choices, args.plies)
    rows = {name: Row(name) for name in configs}
    values: dict[str, float | None] = {}
    for _ in range(args.repeat):
        for name, (d, p, opts) in configs.items():
            t0 = time.perf_counter()
            r = engine.tofs.plan(d, p, opts())
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
