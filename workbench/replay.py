"""The replay model behind the step-through view: the search tree as it stood after k events.

A run's trace is a flat list of events.  Replaying it means answering, for any position
``k`` (0 = before the first event, ``len(events)`` = the finished run), three questions
cheaply even for 10^5 events:

* which lines does the search tree have?  Every line (a search node, or an alternative that
  was pruned or failed its precondition without ever becoming a node) *appears* at exactly
  one event and never disappears later in the run.  So a line is identified by the index of
  the event that made it appear, and "visible at k" is simply ``id < k``: no per-position
  copies are stored;
* what does each line say?  A line's label depends on a handful of later events (the node
  expanded, valued, chose a child, was chosen, was pruned).  Those event indexes are kept
  per line, so a label at ``k`` is computed from a short sorted list;
* what changes between k and k'?  :meth:`Replay.delta` lists lines added, removed and
  relabelled, so a view can update incrementally instead of rebuilding.

Everything is built in one pass over the events (O(n)), with no Textual import, so it is
unit-tested without an app.
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.tofs import EventKind, Reason, RunResult, Trace, TraceEvent
from engine.tofs.domain import call_text

__all__ = [
    "Delta",
    "Item",
    "ItemKind",
    "NodeView",
    "Part",
    "Replay",
    "ReplayState",
    "events_of",
    "fmt_num",
    "task_text",
]

Part = tuple[str, str]
"""A piece of a label and its role ("" plain, "mark", "value", "reason", "muted", "task")."""

_NODE_LABEL = (
    EventKind.NODE_EXPANDED,
    EventKind.LEAF_VALUED,
    EventKind.VALUE_BACKED_UP,
    EventKind.CHOICE_MADE,
)


def events_of(trace: Trace | Sequence[TraceEvent] | None) -> Sequence[TraceEvent]:
    """The events of a ``Trace`` (``RunResult.trace``), or a list of events as given."""
    if trace is None:
        return []
    return trace.events if isinstance(trace, Trace) else trace


def fmt_num(v: Any) -> str:
    """Numbers as a user reads them: 367, 0.0853, 642.327 (never 642.3271021551649)."""
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def task_text(task: Any) -> str:
    """A traced task ``(name, args)`` as call text, ``HaveDinner(the Mongolian Barbecue)``."""
    if isinstance(task, tuple) and len(task) == 2 and isinstance(task[1], tuple):
        return call_text(task[0], task[1])
    return str(task)


class ItemKind(StrEnum):
    """What a line of the replayed tree stands for."""

    NODE = "node"  # a search node (NODE_CREATED)
    PRUNED = "pruned"  # an alternative pruned before it became a node (NODE_PRUNED)
    FAILED = "failed"  # a method whose precondition failed (PRECONDITION, result False)


@dataclass(slots=True, eq=False)
class Item:
    """One line of the search tree; ``id`` is the index of the event that made it appear."""

    id: int
    kind: ItemKind
    node: int  # the search node (NODE) or the node the alternative belonged to
    parent: int | None  # the parent line's id (None: a top-level line, the search root)
    alternative: str | None
    data: Mapping[str, Any]
    depth: int
    children: list[int] = field(default_factory=list)
    # Later events that change this line's label, in order (expanded, valued, chose,
    # chosen, pruned).  The label at position k uses those with index < k.
    touches: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class NodeView:
    """A search node as it stood at one position: what the side panel shows."""

    node: int
    position: int
    alternative: str | None
    parent: int | None  # parent search node
    task: Any = None  # (name, args) of the first task, once expanded
    depth: int | None = None
    g: float | None = None  # cost so far (cost modes)
    tasks_left: int | None = None
    agenda: tuple[Any, ...] | None = None  # the whole task list, if the trace has it
    value: float | None = None
    value_source: str = ""  # "leaf", "backed up" or "choice"
    complete: bool = False
    note: str = ""
    node_kind: str = ""  # "decision" / "external" (game mode, once backed up)
    chosen: str | None = None  # the alternative this node chose
    is_chosen: bool = False  # this node is the alternative its parent chose
    pruned: str = ""  # reason, if the node itself was pruned afterwards
    verdict: str = ""  # why its parent did not choose it (from the run's explanation)
    tried: tuple[tuple[str, bool | None], ...] = ()  # (method, precondition result)
    children: int = 0  # lines below it so far

    @property
    def expanded(self) -> bool:
        return self.task is not None


@dataclass(frozen=True, slots=True)
class Delta:
    """How the tree changes from position ``start`` to ``end``.

    ``added`` is in the order lines must be added (parents first); ``removed`` in the order
    they must be removed (children first); ``changed`` are lines visible at both positions
    whose label differs (or may differ).
    """

    start: int
    end: int
    added: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    changed: tuple[int, ...] = ()


class Replay:
    """The indexed trace of one run: tree lines, labels and deltas at any position."""

    def __init__(self, events: Sequence[TraceEvent], result: RunResult | None = None) -> None:
        self.events: Sequence[TraceEvent] = events
        self.result = result
        self.items: dict[int, Item] = {}
        self.roots: list[int] = []
        self.node_item: dict[int, int] = {}
        self.node_events: dict[int, list[int]] = {}
        self.choice_events: list[int] = []
        self.created: list[tuple[int, ...]] = []  # per event: lines it makes appear
        self.touched: list[tuple[int, ...]] = []  # per event: lines it relabels
        self._item_ids: list[int] = []
        self._node_ids: list[int] = []
        self._labels: dict[int, str] = {}
        self._descriptions: dict[int, str] = {}
        self._verdicts: dict[int, str] = {}
        if result is not None:
            # What the finished run says about nodes, shown once the replay reaches them:
            # task labels at choice points, step descriptions, and why each alternative
            # that became a node lost (from the explanation records).
            self._labels = {cp.node: cp.task for cp in result.choice_points}
            self._descriptions = {s.node: s.description for s in result.plan if s.description}
            self._verdicts = {
                a.node: str(a.reason)
                for cp in result.choice_points
                for a in cp.alternatives
                if a.node is not None
                and not a.chosen
                and a.reason not in (Reason.CHOSEN, Reason.WEIGHTED)
            }
        # Indexing allocates one object per line and nothing cyclic: pausing the cyclic
        # garbage collector meanwhile halves the time on 10^5 events.
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._index()
        finally:
            if collecting:
                gc.enable()

    # ------------------------------------------------------------------ building
    def _index(self) -> None:
        items, node_item = self.items, self.node_item
        child_by_alt: dict[tuple[int, str], int] = {}
        for i, e in enumerate(self.events):
            kind = e.kind
            made: tuple[int, ...] = ()
            touched: tuple[int, ...] = ()
            self.node_events.setdefault(e.node, []).append(i)
            if kind is EventKind.NODE_CREATED:
                parent_node = e.data.get("parent")
                parent = node_item.get(parent_node) if parent_node is not None else None
                made = (
                    self._add(i, ItemKind.NODE, e.node, parent, e.data.get("alternative"), e.data),
                )
                if e.node not in node_item:
                    node_item[e.node] = i
                self._node_ids.append(i)
                alt = e.data.get("alternative")
                if parent_node is not None and alt is not None:
                    child_by_alt[(parent_node, alt)] = i
            elif kind is EventKind.NODE_PRUNED:
                alt = e.data.get("alternative")
                existing = child_by_alt.get((e.node, alt)) if alt is not None else None
                if existing is not None:  # a node that was built, then pruned (pruner)
                    items[existing].touches.append(i)
                    touched = (existing,)
                else:
                    made = (
                        self._add(i, ItemKind.PRUNED, e.node, node_item.get(e.node), alt, e.data),
                    )
            elif kind is EventKind.PRECONDITION and e.data.get("result") is False:
                made = (
                    self._add(
                        i,
                        ItemKind.FAILED,
                        e.node,
                        node_item.get(e.node),
                        e.data.get("method"),
                        e.data,
                    ),
                )
            elif kind in _NODE_LABEL:
                own = node_item.get(e.node)
                lines = [own] if own is not None else []
                if kind is EventKind.CHOICE_MADE:
                    alt = e.data.get("alternative")
                    chosen = child_by_alt.get((e.node, alt)) if alt is not None else None
                    if chosen is not None:
                        lines.append(chosen)
                    if own is not None and self._verdicts:  # the losers get their reason
                        lines.extend(
                            c
                            for c in items[own].children
                            if c != chosen
                            and items[c].kind is ItemKind.NODE
                            and items[c].node in self._verdicts
                        )
                    self.choice_events.append(i)
                for line in lines:
                    items[line].touches.append(i)
                touched = tuple(lines)
            self.created.append(made)
            self.touched.append(touched)

    def _add(
        self,
        i: int,
        kind: ItemKind,
        node: int,
        parent: int | None,
        alternative: Any,
        data: Mapping[str, Any],
    ) -> int:
        depth = 0 if parent is None else self.items[parent].depth + 1
        label = None if alternative is None else str(alternative)
        self.items[i] = Item(i, kind, node, parent, label, data, depth)
        if parent is None:
            self.roots.append(i)
        else:
            self.items[parent].children.append(i)
        self._item_ids.append(i)
        return i

    # ------------------------------------------------------------------ positions
    def __len__(self) -> int:
        return len(self.events)

    def clamp(self, k: int) -> int:
        return max(0, min(len(self.events), k))

    def event_at(self, k: int) -> TraceEvent | None:
        """The current event at position k: the last one applied (None at k = 0)."""
        return self.events[k - 1] if 0 < k <= len(self.events) else None

    def current_line(self, k: int) -> int | None:
        """The line to highlight at k: the current event's node, or the line it made."""
        e = self.event_at(k)
        if e is None:
            return None
        made = self.created[k - 1]
        if made and self.items[made[0]].kind is ItemKind.NODE:
            return made[0]
        line = self.node_item.get(e.node)
        return line if line is not None and line < k else None

    def visible(self, line: int, k: int) -> bool:
        return line in self.items and line < k

    def line_count(self, k: int) -> int:
        """Lines in the tree at k (nodes plus pruned/failed alternatives)."""
        return bisect_left(self._item_ids, k)

    def node_count(self, k: int) -> int:
        """Search nodes created by position k."""
        return bisect_left(self._node_ids, k)

    def roots_at(self, k: int) -> list[int]:
        return self.roots[: bisect_left(self.roots, k)]

    def children_at(self, line: int, k: int) -> list[int]:
        """The line's children visible at k, in the order they appeared."""
        kids = self.items[line].children
        return kids[: bisect_left(kids, k)]

    def has_children(self, line: int, k: int) -> bool:
        kids = self.items[line].children
        return bool(kids) and kids[0] < k

    def path(self, line: int) -> list[int]:
        """Lines from the top of the tree down to ``line`` (inclusive)."""
        out: list[int] = []
        cur: int | None = line
        while cur is not None:
            out.append(cur)
            cur = self.items[cur].parent
        out.reverse()
        return out

    def next_choice(self, k: int) -> int:
        """Position whose current event is the next CHOICE_MADE after k (or the end)."""
        j = bisect_left(self.choice_events, k)
        return self.choice_events[j] + 1 if j < len(self.choice_events) else len(self.events)

    def previous_choice(self, k: int) -> int:
        """Position whose current event is the previous CHOICE_MADE before k (or 0)."""
        j = bisect_left(self.choice_events, k - 1) - 1
        return self.choice_events[j] + 1 if j >= 0 else 0

    # ------------------------------------------------------------------ deltas
    def delta(self, start: int, end: int) -> Delta:
        """Lines added, removed and relabelled going from ``start`` to ``end``.

        Costs O(|end - start|): stepping one event touches at most two lines.
        """
        start, end = self.clamp(start), self.clamp(end)
        lo, hi = min(start, end), max(start, end)
        appeared = [line for i in range(lo, hi) for line in self.created[i]]
        changed = {line for i in range(lo, hi) for line in self.touched[i] if line < lo}
        if end >= start:
            return Delta(start, end, added=tuple(appeared), changed=tuple(sorted(changed)))
        return Delta(start, end, removed=tuple(reversed(appeared)), changed=tuple(sorted(changed)))

    def step(self, k: int) -> Delta:
        """The delta of applying event k (position k -> k + 1)."""
        return self.delta(k, k + 1)

    # ------------------------------------------------------------------ labels
    def _applied(self, line: int, k: int) -> list[TraceEvent]:
        touches = self.items[line].touches
        return [self.events[i] for i in touches[: bisect_left(touches, k)]]

    def parts(self, line: int, k: int) -> tuple[Part, ...]:
        """The line's label at position k, as (text, role) parts."""
        item = self.items[line]
        if item.kind is ItemKind.PRUNED:
            return (
                ("✗ ", "mark"),
                (item.alternative or "?", ""),
                (f"  {item.data.get('reason', 'pruned')}", "reason"),
                *_prune_detail(item.data),
            )
        if item.kind is ItemKind.FAILED:
            return (
                ("✗ ", "mark"),
                (item.alternative or "?", ""),
                ("  precondition failed", "reason"),
            )
        view = self.node_view(item.node, k, line)
        out: list[Part] = []
        if view.is_chosen:
            out.append(("✓ ", "mark"))
        if item.parent is None and item.alternative is None:
            out.append((f"root #{item.node}", ""))
        else:
            out.append((item.alternative or f"#{item.node}", ""))
            out.append((f" #{item.node}", "muted"))
        extra = _created_detail(item.data)
        if extra:
            out.append((extra, "muted"))
        desc = self._descriptions.get(item.node)
        if desc:
            out.append((f"  {desc}", "muted"))
        if view.task is not None:
            shown = self._labels.get(item.node) or task_text(view.task)
            out.append((f"  → {shown}", "task"))
        if view.value is not None:
            out.append((f"  = {fmt_num(view.value)}", "value"))
        if view.complete:
            out.append(("  complete plan", "value"))
        elif view.value_source == "leaf" and view.note:
            out.append((f"  ({view.note})", "muted"))
        if view.pruned:
            out.append((f"  {view.pruned}", "reason"))
        elif view.verdict:
            out.append((f"  {view.verdict}", "reason"))
        return tuple(out)

    def tone(self, line: int, k: int) -> str:
        """How the whole line looks: "chosen", "rejected", "leaf" or "plain"."""
        item = self.items[line]
        if item.kind is not ItemKind.NODE:
            return "rejected"
        view = self.node_view(item.node, k, line)
        if view.pruned or view.verdict:
            return "rejected"
        if view.is_chosen:
            return "chosen"
        if view.value_source == "leaf":
            return "leaf"
        return "plain"

    def label(self, line: int, k: int) -> str:
        """The label as plain text (tests, snapshots)."""
        return "".join(text for text, _ in self.parts(line, k))

    def node_view(self, node: int, k: int, line: int | None = None) -> NodeView:
        """Everything the trace says about ``node`` by position k."""
        line = self.node_item.get(node) if line is None else line
        item = self.items.get(line) if line is not None else None
        fields: dict[str, Any] = {}
        if item is not None and line is not None and line < k:
            parent = self.items[item.parent].node if item.parent is not None else None
            fields.update(
                alternative=item.alternative, parent=parent, children=len(self.children_at(line, k))
            )
            for e in self._applied(line, k):
                self._fold(e, node, fields)
        tried: list[tuple[str, bool | None]] = []
        events = self.node_events.get(node, [])
        for i in events[: bisect_left(events, k)]:
            e = self.events[i]
            if e.kind is EventKind.METHOD_TRIED:
                tried.append((str(e.data.get("method")), None))
            elif e.kind is EventKind.PRECONDITION:
                label = str(e.data.get("method"))
                result = bool(e.data.get("result"))
                if tried and tried[-1][1] is None and label.startswith(tried[-1][0]):
                    tried[-1] = (label, result)
                else:
                    tried.append((label, result))
        return NodeView(node, k, tried=tuple(tried), **fields)

    def _fold(self, e: TraceEvent, node: int, f: dict[str, Any]) -> None:
        d = e.data
        if e.node != node:  # the parent's CHOICE_MADE, or a pruner's verdict
            if e.kind is EventKind.CHOICE_MADE:
                if d.get("alternative") == f.get("alternative"):
                    f["is_chosen"] = True
                else:
                    f["verdict"] = self._verdicts.get(node, "")
            elif e.kind is EventKind.NODE_PRUNED:
                f["pruned"] = str(d.get("reason", "pruned")) + "".join(
                    t for t, _ in _prune_detail(d)
                )
            return
        if e.kind is EventKind.NODE_EXPANDED:
            agenda = d.get("task_list")
            f.update(
                task=d.get("task"),
                depth=d.get("depth"),
                g=d.get("g"),
                tasks_left=d.get("tasks"),
                agenda=tuple(agenda) if agenda is not None else None,
            )
        elif e.kind is EventKind.LEAF_VALUED:
            f.update(
                value=d.get("value"),
                value_source="leaf",
                complete=bool(d.get("complete")),
                note=str(d.get("note", "")),
            )
        elif e.kind is EventKind.VALUE_BACKED_UP:
            f.update(
                value=d.get("value"),
                value_source="backed up",
                node_kind=str(d.get("node_kind", d.get("kind", ""))),
            )
        elif e.kind is EventKind.CHOICE_MADE:
            f.update(value=d.get("value"), value_source="choice", chosen=d.get("alternative"))

    # ------------------------------------------------------------------ words
    def describe(self, k: int, number: Callable[[Any], str] = fmt_num) -> str:
        """The current event at position k in a sentence; ``number`` writes its values
        and costs (the run's phrasing, where the caller has it)."""
        e = self.event_at(k)
        if e is None:
            return "Before the first event: the search has not started."
        d = e.data
        n = f"node {e.node}"
        match e.kind:
            case EventKind.NODE_CREATED:
                if d.get("parent") is None:
                    return f"Created the root, {n}."
                how = _created_detail(d).strip()
                return (
                    f"Created {n} below node {d.get('parent')} by "
                    f"{d.get('alternative')}" + (f" ({how})" if how else "") + "."
                )
            case EventKind.NODE_EXPANDED:
                g = f", cost so far {number(d['g'])}" if d.get("g") is not None else ""
                left = d.get("tasks")
                rest = (
                    f", {left} task{'s' if left != 1 else ''} on the list"
                    if left is not None
                    else ""
                )
                return (
                    f"Expanded {n} at depth {d.get('depth')}: its first task is "
                    f"{task_text(d.get('task'))}{g}{rest}."
                )
            case EventKind.METHOD_TRIED:
                return f"At {n}, trying method {d.get('method')} for {task_text(d.get('task'))}."
            case EventKind.BINDING:
                bound = ", ".join(f"{k_} = {v!r}" for k_, v in d.get("bindings", ()))
                return f"At {n}, {d.get('method')} binds {bound}."
            case EventKind.PRECONDITION:
                verdict = "holds" if d.get("result") else "fails"
                return f"At {n}, the precondition of {d.get('method')} {verdict}."
            case EventKind.NODE_PRUNED:
                detail = "".join(t for t, _ in _prune_detail(d)).strip()
                return (
                    f"At {n}, {d.get('alternative')} was pruned: {d.get('reason')}"
                    + (f" ({detail})" if detail else "")
                    + "."
                )
            case EventKind.LEAF_VALUED:
                what = "a complete plan" if d.get("complete") else (d.get("note") or "a leaf")
                return f"{n.capitalize()} is a leaf ({what}): value {number(d.get('value'))}."
            case EventKind.VALUE_BACKED_UP:
                kind = d.get("node_kind", d.get("kind"))
                who = f" ({kind} node)" if kind else ""
                return f"Backed up value {number(d.get('value'))} to {n}{who}."
            case EventKind.CHOICE_MADE:
                return (
                    f"{n.capitalize()} chose {d.get('alternative')}: value "
                    f"{number(d.get('value'))}."
                )
        return f"{e.kind} at {n}."

    # ------------------------------------------------------------------ whole states
    def snapshot(self, k: int) -> dict[int, tuple[int | None, str]]:
        """Every visible line at k with its parent and label: O(k), for tests and checks."""
        k = self.clamp(k)
        return {
            line: (self.items[line].parent, self.label(line, k))
            for line in self._item_ids[: self.line_count(k)]
        }


class ReplayState:
    """A tree kept up to date by applying deltas: what an incremental view maintains.

    The stepper's widget does the same with Textual tree nodes; this plain version lets
    tests check that deltas alone reproduce :meth:`Replay.snapshot` at every position.
    """

    def __init__(self, replay: Replay, position: int = 0) -> None:
        self.replay = replay
        self.position = 0
        self.lines: dict[int, tuple[int | None, str]] = {}
        self._kids: dict[int, int] = {}
        self.go(position)

    def apply(self, delta: Delta) -> None:
        if delta.start != self.position:
            raise ValueError(f"delta starts at {delta.start}, state is at {self.position}")
        r, k = self.replay, delta.end
        for line in delta.removed:
            if self._kids.get(line):
                raise AssertionError(f"line {line} removed before its children")
            parent, _ = self.lines.pop(line)
            if parent is not None:
                self._kids[parent] -= 1
        for line in delta.added:
            parent = r.items[line].parent
            if parent is not None:
                if parent not in self.lines:
                    raise AssertionError(f"line {line} added before its parent {parent}")
                self._kids[parent] = self._kids.get(parent, 0) + 1
            self.lines[line] = (parent, r.label(line, k))
        for line in delta.changed:
            self.lines[line] = (r.items[line].parent, r.label(line, k))
        self.position = k

    def go(self, k: int) -> None:
        self.apply(self.replay.delta(self.position, k))

    def forward(self) -> None:
        self.apply(self.replay.step(self.position))

    def back(self) -> None:
        self.apply(self.replay.delta(self.position, self.position - 1))


def _created_detail(d: Mapping[str, Any]) -> str:
    cost, prob = d.get("cost"), d.get("probability")
    if prob is not None:
        return f"  p={float(prob):.3g}"
    if cost:
        return f"  +{fmt_num(cost)}"
    return ""


def _prune_detail(d: Mapping[str, Any]) -> tuple[Part, ...]:
    """The numbers a NODE_PRUNED event carries, by reason."""
    shown: list[str] = []
    pairs: Iterable[tuple[str, str]] = (
        ("bound", "bound"),
        ("best", "best"),
        ("g", "cost"),
        ("seen", "seen at"),
        ("cost", "cost"),
        ("kept", "kept"),
        ("probability", "p"),
        ("cutoff", "cutoff"),
    )
    for key, name in pairs:
        if d.get(key) is not None:
            shown.append(f"{name} {fmt_num(d[key])}")
    return ((f" ({', '.join(shown)})", "muted"),) if shown else ()
