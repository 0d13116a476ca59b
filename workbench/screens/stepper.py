"""Step-through: replay a finished run's trace forward and back, the tree growing as it did.

The screen owns the position; :class:`workbench.replay.Replay` (built once, O(events))
answers every question about it and :class:`~workbench.widgets.search_tree.SearchTree`
applies one event's delta per step.  Stepping keys are priority bindings, so they step
even while the tree has focus (where up/down still move the cursor to inspect other
nodes; the side panel then describes the highlighted node at the current position).

Indexing takes about 2 s per million events, so a trace longer than ``INDEX_IN_THREAD``
events is indexed in a thread worker (which touches no widget and posts the index back)
while the screen says so; keys do nothing until it arrives.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Header, Static, Tree

from engine.tofs import RunResult, Trace, TraceEvent
from workbench.replay import Replay, events_of, fmt_num
from workbench.widgets.fitting_footer import FittingFooter
from workbench.widgets.plan_items import run_value
from workbench.widgets.search_tree import LineData, SearchTree
from workbench.widgets.step_panel import StepPanel, step_text

__all__ = ["ReplayIndexed", "StepperScreen"]

INDEX_IN_THREAD = 50_000
"""Traces longer than this are indexed in a worker thread."""


@dataclass
class ReplayIndexed(Message):
    """The worker finished indexing a long trace."""

    replay: Replay


class StepperScreen(Screen[None]):
    """Search tree | current event and node, with a one-line position bar."""

    DEFAULT_CSS = """
    StepperScreen {
        #stepper-panes { height: 1fr; }
        #search-tree, #step-panel {
            height: 1fr;
            border: round $panel-lighten-2;
            border-title-color: $text-muted;
            &:focus, &:focus-within { border: round $accent; border-title-color: $accent; }
        }
        #search-tree { width: 1fr; }
        #step-panel { width: 42%; }
        #step-position {
            height: 1; padding: 0 1; background: $panel; color: $text-muted;
            text-wrap: nowrap; text-overflow: ellipsis;
        }
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "right,n",
            "step(1)",
            "Step",
            id="stepper.next",
            priority=True,
            tooltip="Apply the next event",
        ),
        Binding(
            "left,p",
            "step(-1)",
            "Back",
            id="stepper.back",
            priority=True,
            tooltip="Undo the last event",
        ),
        Binding(
            "right_square_bracket",
            "next_choice",
            "Next choice",
            key_display="]",
            id="stepper.next_choice",
            priority=True,
            tooltip="Run to the next choice made",
        ),
        Binding(
            "left_square_bracket",
            "previous_choice",
            "Prev choice",
            key_display="[",
            id="stepper.previous_choice",
            priority=True,
            tooltip="Back to the previous choice made",
        ),
        Binding(
            "home",
            "start",
            "Start",
            id="stepper.start",
            priority=True,
            tooltip="Before the first event",
        ),
        Binding(
            "end",
            "end",
            "End",
            id="stepper.end",
            priority=True,
            tooltip="After the last event: the finished search",
        ),
        Binding("escape", "close", "Close", id="stepper.close", tooltip="Back to the plan"),
    ]

    PANES: ClassVar[str] = "#search-tree, #step-panel"
    """The panes a maximize key means (see :mod:`workbench.panes`)."""

    def _number(self, v: Any) -> str:
        """A value as the run's reader's view writes it (its domain's phrasing: "642.33
        min"), where the run has one; the trace's own figures otherwise."""
        if isinstance(v, float) and self._result is not None:
            return run_value(self._result, v)
        return fmt_num(v)

    def __init__(
        self,
        trace: Trace | Sequence[TraceEvent] | Replay,
        result: RunResult | None,
        title: str,
        *,
        start: int = 0,
    ) -> None:
        """``trace`` is the run's ``Trace`` (``result.trace``), its events, or a ``Replay``
        already built (in a worker, for a very long trace)."""
        super().__init__()
        self._pending: Sequence[TraceEvent] | None = None
        self._result = result
        if isinstance(trace, Replay):
            self.replay = trace
        else:
            events = events_of(trace)
            if len(events) > INDEX_IN_THREAD:
                self.replay = Replay([])  # until the worker posts the real index
                self._pending = events
            else:
                self.replay = Replay(events, result)
        self.dropped = trace.dropped if isinstance(trace, Trace) else 0
        self.run_title = title
        self._start = start

    @property
    def position(self) -> int:
        return self.query_one(SearchTree).position

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="stepper-panes"):
            tree = SearchTree(self.replay, id="search-tree")
            tree.border_title = "Search tree"
            yield tree
            panel = StepPanel(id="step-panel")
            panel.border_title = "Event and node"
            yield panel
        yield Static("", id="step-position")
        yield FittingFooter()

    def on_mount(self) -> None:
        self.sub_title = f"step through {self.run_title}"
        self.query_one(SearchTree).focus()
        if self._pending is not None:
            self.query_one("#step-position", Static).update(
                f"Indexing {len(self._pending):,} events…"
            )
            self._index(self._pending, self._result)
            return
        self._ready()

    @work(
        thread=True,
        exclusive=True,
        exit_on_error=False,
        group="replay-index",
        description="index a trace",
    )
    def _index(self, events: Sequence[TraceEvent], result: RunResult | None) -> None:
        """Thread body: build the index (pure Python) and post it.  Touches no widget."""
        self.post_message(ReplayIndexed(Replay(events, result)))

    @on(ReplayIndexed)
    def _indexed(self, message: ReplayIndexed) -> None:
        self._pending = None
        self.replay = message.replay
        self.query_one(SearchTree).load(message.replay)
        self._ready()

    def _ready(self) -> None:
        if not len(self.replay):
            self.notify(
                "This run has no trace to replay: run it with the trace on.", severity="warning"
            )
        elif self.dropped:
            self.notify(
                f"The trace kept the first {len(self.replay):,} events; "
                f"{self.dropped:,} later ones were not recorded.",
                severity="warning",
            )
        self.go(self._start)

    # ------------------------------------------------------------------ moving
    def go(self, k: int) -> None:
        """Move to position k and redraw what depends on it."""
        if self._pending is not None:  # still indexing
            return
        tree = self.query_one(SearchTree)
        tree.go(k)
        self._show(tree.current)
        r, k = self.replay, tree.position
        self.query_one("#step-position", Static).update(
            f"{k:,} / {len(r):,} events · {r.node_count(k):,} nodes · "
            "→/n step · ←/p back · ]/[ choices · home/end"
        )

    def _show(self, line: int | None) -> None:
        self.query_one(StepPanel).show(step_text(self.replay, self.position, line, self._number))

    def action_step(self, delta: int) -> None:
        self.go(self.position + delta)

    def action_next_choice(self) -> None:
        self.go(self.replay.next_choice(self.position))

    def action_previous_choice(self) -> None:
        self.go(self.replay.previous_choice(self.position))

    def action_start(self) -> None:
        self.go(0)

    def action_end(self) -> None:
        self.go(len(self.replay))

    def action_close(self) -> None:
        self.dismiss(None)

    # ------------------------------------------------------------------ inspecting
    @on(Tree.NodeHighlighted, "#search-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[LineData]) -> None:
        data = event.node.data
        if data is not None and self.replay.visible(data.line, self.position):
            self._show(data.line)
