"""Step-through: replay a finished run's trace forward and back, the tree growing as it did.

The screen owns the position; :class:`workbench.replay.Replay` (built once, O(events))
answers every question about it and :class:`~workbench.widgets.search_tree.SearchTree`
applies one event's delta per step.  Stepping keys are priority bindings, so they step
even while the tree has focus (where up/down still move the cursor to inspect other
nodes; the side panel then describes the highlighted node at the current position).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Header, Static, Tree

from engine.tofs import RunResult, TraceEvent
from workbench.replay import Replay
from workbench.widgets.search_tree import LineData, SearchTree
from workbench.widgets.step_panel import StepPanel, step_text

__all__ = ["StepperScreen"]


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
        #step-position { height: 1; padding: 0 1; background: $panel; color: $text-muted; }
    }
    """

    BINDINGS = [
        Binding("right,n", "step(1)", "Step", id="stepper.next", priority=True,
                tooltip="Apply the next event"),
        Binding("left,p", "step(-1)", "Back", id="stepper.back", priority=True,
                tooltip="Undo the last event"),
        Binding("right_square_bracket", "next_choice", "Next choice", key_display="]",
                id="stepper.next_choice", priority=True,
                tooltip="Run to the next choice made"),
        Binding("left_square_bracket", "previous_choice", "Prev choice", key_display="[",
                id="stepper.previous_choice", priority=True,
                tooltip="Back to the previous choice made"),
        Binding("home", "start", "Start", id="stepper.start", priority=True,
                tooltip="Before the first event"),
        Binding("end", "end", "End", id="stepper.end", priority=True,
                tooltip="After the last event: the finished search"),
        Binding("escape", "close", "Close", id="stepper.close",
                tooltip="Back to the plan"),
    ]

    def __init__(self, events: Sequence[TraceEvent], result: RunResult | None, title: str,
                 *, start: int = 0) -> None:
        super().__init__()
        self.replay = Replay(events, result)
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
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = f"step through {self.run_title}"
        if not len(self.replay):
            self.notify("This run has no trace to replay.", severity="warning")
        self.go(self._start)
        self.query_one(SearchTree).focus()

    # ------------------------------------------------------------------ moving
    def go(self, k: int) -> None:
        """Move to position k and redraw what depends on it."""
        tree = self.query_one(SearchTree)
        tree.go(k)
        self._show(tree.current)
        r, k = self.replay, tree.position
        self.query_one("#step-position", Static).update(
            f"{k:,} / {len(r):,} events · {r.node_count(k):,} nodes · "
            "→/n step · ←/p back · ]/[ choices · home/end")

    def _show(self, line: int | None) -> None:
        self.query_one(StepPanel).show(step_text(self.replay, self.position, line))

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
