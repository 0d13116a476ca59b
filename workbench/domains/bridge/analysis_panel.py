"""The table's analysis panel: declarer's count of the position shown, after Lo (1987).

Beside the four hands a teacher wants what a declarer counts before playing a card: the
sure tricks in each suit, the extra tricks each technique can build with their chances,
the entries, the suit the defenders threaten -- and, for comparison, the planner's own
static count of the same position.  The panel reads declarer's information set off the
play state it is given (never the defenders' cards) and renders
:func:`knowledge.bridge.analysis.compact_lines`; it only displays.
"""

from __future__ import annotations

from textual.widgets import Static

from knowledge.bridge.analysis import analyse, compact_lines, planner_values
from knowledge.bridge.deal import PlayState
from knowledge.bridge.information import declarer_info
from knowledge.bridge.position import Table, position_of

__all__ = ["AnalysisPanel", "analysis_text"]


def analysis_text(state: PlayState, vulnerable: bool = False) -> str:
    """What the panel shows for ``state``: the compact analysis from declarer's view, or
    why there is none (the play is over, no contract)."""
    if state.contract is None:
        return "No contract: nothing to analyse."
    if state.is_over:
        return f"Play over: declarer took {state.declarer_tricks} tricks."
    table = Table(state.contract, int(state.declarer), vulnerable)
    pos = position_of(declarer_info(state), table)
    return "\n".join(compact_lines(analyse(pos, planner_values(pos))))


class AnalysisPanel(Static):
    """Declarer's analysis of the position on the table (a few lines, no scrolling)."""

    DEFAULT_CSS = """
    AnalysisPanel {
        height: auto;
        padding: 0 1;
        border: round $panel-lighten-2;
        border-title-color: $text-muted;
    }
    """

    def show_state(self, state: PlayState, vulnerable: bool = False) -> None:
        self.update(analysis_text(state, vulnerable))

    def plain(self) -> str:
        """The text shown, without styles."""
        return str(self.render())
