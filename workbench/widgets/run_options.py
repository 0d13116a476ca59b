"""Run options: search switches and budgets, set before pressing Run.

The values are read when a run starts (``settings()``), so the worker gets a plain
:class:`~workbench.runner.RunSettings` and never reads a widget.  A budget that is not a
positive number is refused with a message rather than silently ignored.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Checkbox, Input, Label, Select

from knowledge import default_memory_budget
from workbench.runner import RunSettings
from workbench.widgets.tick_box import TickBox

__all__ = ["RunOptions"]

CRITERIA = [
    ("weighted average", "weighted-average"),
    ("maximin (Wald)", "maximin"),
    ("Hurwicz, alpha 0.5", "hurwicz"),
    ("minimax regret (Savage)", "minimax-regret"),
]


class RunOptions(Vertical):
    """Full tree, the partial plan pruner, node, time and memory budgets, the game
    criterion."""

    def compose(self) -> ComposeResult:
        yield TickBox(
            "Full tree",
            id="opt-full-tree",
            tooltip="The dissertation's exhaustive search: reproduces its node counts, slower",
        )
        yield TickBox(
            "Partial plan pruner",
            True,
            id="opt-prune",
            tooltip="Keep only the cheapest way of doing flagged tasks",
        )
        yield TickBox(
            "Record trace",
            True,
            id="opt-trace",
            tooltip="Keep every search event so the run can be replayed; costs about 3x the time",
        )
        yield Label("Node budget")
        yield Input(
            placeholder="no limit",
            id="opt-nodes",
            type="integer",
            tooltip="Stop after this many nodes; the best plan so far is kept",
        )
        yield Label("Time budget (s)")
        yield Input(
            placeholder="no limit",
            id="opt-seconds",
            type="number",
            tooltip="Stop after this many seconds",
        )
        yield Label("Memory budget (MB)")
        yield Input(
            placeholder="half of memory",
            id="opt-memory",
            type="number",
            tooltip="Stop when the workbench's memory passes this many MB; "
            "the best plan so far is kept",
        )
        yield Label("Opponents (game mode)")
        yield Select(CRITERIA, value="weighted-average", allow_blank=False, id="opt-criterion")

    def settings(self) -> RunSettings | str:
        """The settings, or a message saying which field is wrong and why."""
        nodes_text = self.query_one("#opt-nodes", Input).value.strip()
        seconds_text = self.query_one("#opt-seconds", Input).value.strip()
        nodes = seconds = None
        if nodes_text:
            try:
                nodes = int(nodes_text)
            except ValueError:
                return f"Node budget: expected a whole number, got '{nodes_text}'"
            if nodes <= 0:
                return "Node budget: must be at least 1"
        if seconds_text:
            try:
                seconds = float(seconds_text)
            except ValueError:
                return f"Time budget: expected a number of seconds, got '{seconds_text}'"
            if not seconds > 0:
                return "Time budget: must be more than 0 seconds"
        memory_text = self.query_one("#opt-memory", Input).value.strip()
        memory = default_memory_budget()
        if memory_text:
            try:
                memory = float(memory_text)
            except ValueError:
                return f"Memory budget: expected a number of MB, got '{memory_text}'"
            if not memory > 0:
                return "Memory budget: must be more than 0 MB"
        criterion = self.query_one("#opt-criterion", Select).value
        return RunSettings(
            full_tree=self.query_one("#opt-full-tree", Checkbox).value,
            prune=self.query_one("#opt-prune", Checkbox).value,
            node_budget=nodes,
            time_budget=seconds,
            memory_budget=memory,
            criterion=str(criterion) if isinstance(criterion, str) else "weighted-average",
            trace=self.query_one("#opt-trace", Checkbox).value,
        )
