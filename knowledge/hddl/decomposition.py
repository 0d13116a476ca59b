"""A plan's decomposition tree, numbered, and the IPC 2020 hierarchical track's plan format.

TOFS expands the first task of its task list every time, so the run's expansions, in order,
rebuild the tree with a stack of task ids: each expansion takes the id in front, and a
method puts its subtasks' new ids in its place.  The IPC format is what the competition's
verifier reads::

    ==>
    0 drive truck-0 city-loc-0 city-loc-1
    root 2
    2 deliver package-0 city-loc-1 -> m-deliver 0
    <==

Primitive actions first, with their ids; then ``root`` and the ids of the initial tasks;
then one line per compound task: its id, the task, ``->``, the method and its subtasks' ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .deferral import CONTINUATION, is_continuation

__all__ = ["Node", "Tree", "call_text", "decomposition_tree", "ipc_text"]


def call_text(name: str, args: Any) -> str:
    """A ground task or action as HDDL writes it: ``(drive t1 hq north)``; a continuation
    (:mod:`.deferral`), which HDDL has no words for, as the rest of its method:
    ``(m-deliver from step 3: t1 north)``."""
    words = [str(a) for a in args]
    if is_continuation(name):
        method, _, start = name.rpartition(CONTINUATION)
        said = f"{method} from step {int(start) + 1}"
        return f"({said}: {' '.join(words)})" if words else f"({said})"
    return "(" + " ".join([name, *words]) + ")"


@dataclass(frozen=True)
class Node:
    id: int
    name: str
    args: tuple[str, ...]
    method: str | None = None  # None: a primitive action
    subtasks: tuple[int, ...] = ()


@dataclass(frozen=True)
class Tree:
    root: tuple[int, ...]
    actions: tuple[Node, ...]  # in plan order
    tasks: tuple[Node, ...]  # compound tasks, in the order they were decomposed

    def as_json(self) -> dict[str, Any]:
        return {
            "root": list(self.root),
            "decomposition": [
                {
                    "id": n.id,
                    "task": n.name,
                    "args": list(n.args),
                    "method": n.method,
                    "subtasks": list(n.subtasks),
                }
                for n in self.tasks
            ],
        }


def decomposition_tree(result: Any, initial: tuple[tuple[str, tuple[Any, ...]], ...]) -> Tree:
    """Number the tasks of a solved run (``result.expansions``) from the initial tasks.

    Actions get the first ids, in plan order, as the IPC format lists them; compound tasks
    follow in the order they were decomposed.  A continuation (:mod:`.deferral`: the rest
    of a method whose later variables were chosen later) is no node of its own: its
    subtasks take its place among the subtasks of the method that called it.
    """
    next_action, next_task = 0, len(result.plan)
    root = [-1] * len(initial)
    children: dict[int, list[int]] = {}
    actions: list[Node] = []
    tasks: list[Node] = []
    # The task list as (parent id or None for the root, position), first task last.
    slots: list[tuple[int | None, int]] = [(None, i) for i in reversed(range(len(initial)))]
    for exp in result.expansions:
        parent, position = slots.pop()
        name, args = exp.task[0], tuple(str(a) for a in exp.task[1])
        if is_continuation(name):  # always its method's last subtask
            below = root if parent is None else children[parent]
            below[position:] = [-1] * len(exp.subtasks)
            slots.extend((parent, position + i) for i in reversed(range(len(exp.subtasks))))
            continue
        if exp.method is None:
            ident, next_action = next_action, next_action + 1
            actions.append(Node(ident, name, args))
        else:
            ident, next_task = next_task, next_task + 1
            tasks.append(Node(ident, name, args, exp.method))
            children[ident] = [-1] * len(exp.subtasks)
            slots.extend((ident, i) for i in reversed(range(len(exp.subtasks))))
        if parent is None:
            root[position] = ident
        else:
            children[parent][position] = ident
    numbered = tuple(Node(n.id, n.name, n.args, n.method, tuple(children[n.id])) for n in tasks)
    return Tree(tuple(root), tuple(actions), numbered)


def ipc_text(tree: Tree) -> str:
    lines = ["==>"]
    lines += [" ".join([str(a.id), a.name, *a.args]) for a in tree.actions]
    lines.append(" ".join(["root", *(str(i) for i in tree.root)]))
    for t in tree.tasks:
        assert t.method is not None
        lines.append(
            " ".join([str(t.id), t.name, *t.args, "->", t.method, *(str(i) for i in t.subtasks)])
        )
    lines.append("<==")
    return "\n".join(lines)
