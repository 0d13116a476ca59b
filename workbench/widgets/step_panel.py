"""The step-through side panel: the current event in words, and the highlighted node.

Plain Rich text rather than Markdown: it is redrawn at every key press while stepping,
and a Static update is cheap.  What to say comes from :func:`step_text`, a pure function
over the replay model, so the wording is testable without an app.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from workbench.replay import ItemKind, Replay, fmt_num, task_text

__all__ = ["StepPanel", "step_text"]

AGENDA_SHOWN = 12
"""Tasks of a node's task list listed before "and N more"."""


def step_text(
    replay: Replay, k: int, line: int | None, number: Callable[[Any], str] = fmt_num
) -> Text:
    """The panel at position k, describing ``line`` (the highlighted line) if any;
    ``number`` writes values and costs (the run's own phrasing, where the screen has it, so
    that they read as everywhere else: "642.33 min")."""
    out = Text()
    n = len(replay)
    e = replay.event_at(k)
    head = f"Event {k} of {n}" + (f" · {e.kind}" if e is not None else "")
    out.append(head + "\n", style="bold")
    out.append(replay.describe(k, number) + "\n")
    choices = replay.choice_events
    done = bisect_left(choices, k)
    out.append(
        f"\nTree: {replay.node_count(k):,} nodes, {replay.line_count(k):,} lines · "
        f"{done} of {len(choices)} choices made\n",
        style="dim",
    )
    if line is None or not replay.visible(line, k):
        return out
    item = replay.items[line]
    out.append("\n")
    if item.kind is not ItemKind.NODE:
        why = (
            item.data.get("reason", "pruned")
            if item.kind is ItemKind.PRUNED
            else "precondition failed"
        )
        out.append(f"{item.alternative} at node {item.node}\n", style="bold")
        out.append(f"{why}\n", style="italic")
        extra = {
            k_: v
            for k_, v in item.data.items()
            if k_ not in ("alternative", "reason", "method", "result")
        }
        for key, value in extra.items():
            out.append(f"{key}: {number(value)}\n")
        return out
    view = replay.node_view(item.node, k, line)
    title = f"Node {view.node}"
    if view.alternative is not None:
        title += f" ← {view.alternative}"
    if view.parent is not None:
        title += f" (below node {view.parent})"
    out.append(title + "\n", style="bold")
    if not view.expanded:
        out.append("Not expanded (yet).\n", style="dim")
    else:
        facts = [f"depth {view.depth}"]
        if view.g is not None:
            facts.append(f"cost so far {number(view.g)}")
        if view.tasks_left is not None:
            facts.append(f"{view.tasks_left} task{'s' if view.tasks_left != 1 else ''} on the list")
        out.append(" · ".join(facts) + "\n")
        out.append("Task list:\n", style="bold")
        if view.agenda is not None:
            for i, task in enumerate(view.agenda[:AGENDA_SHOWN], 1):
                out.append(f"  {i}. {task_text(task)}\n")
            if len(view.agenda) > AGENDA_SHOWN:
                out.append(f"  … and {len(view.agenda) - AGENDA_SHOWN} more\n", style="dim")
        else:
            out.append(f"  1. {task_text(view.task)}\n")
            more = (view.tasks_left or 1) - 1
            if more > 0:
                out.append(
                    f"  … and {more} more (the trace records only the first task and the count)\n",
                    style="dim",
                )
    if view.value is not None:
        source = {"leaf": "leaf value", "backed up": "backed up", "choice": "best below"}
        out.append(
            f"Value {number(view.value)} ({source.get(view.value_source, '')})"
            + (" · a complete plan" if view.complete else "")
            + (f" · {view.node_kind} node" if view.node_kind else "")
            + "\n"
        )
    if view.chosen is not None:
        out.append(f"Chose {view.chosen}\n", style="bold")
    if view.is_chosen:
        out.append("Chosen by its parent\n")
    if view.pruned:
        out.append(f"Pruned: {view.pruned}\n", style="italic")
    if view.tried:
        out.append("Methods tried:\n", style="bold")
        for method, ok in view.tried:
            mark = "…" if ok is None else ("✓" if ok else "✗")
            why = "" if ok is None else (" precondition holds" if ok else " precondition fails")
            out.append(f"  {mark} {method}{why}\n")
    out.append(
        f"{view.children} line{'s' if view.children != 1 else ''} below it so far\n", style="dim"
    )
    return out


class StepPanel(VerticalScroll):
    """Scrolling text; ``show`` replaces it and keeps the plain text for tests."""

    DEFAULT_CSS = """
    StepPanel {
        padding: 0 1;
        & > Static { width: 1fr; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="step-text")

    def show(self, text: Text) -> None:
        if text.plain == self.text:
            return
        self.text = text.plain
        self.query_one("#step-text", Static).update(text)
