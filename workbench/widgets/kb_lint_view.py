"""Lint findings of the domain, one per line; choosing one asks the screen to open its item.

The list only displays and reports the choice (``FindingSelected``); the screen knows the
tree and the form, so it does the jumping.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from workbench.kb.lint import Finding

__all__ = ["LintList"]

_STYLE = {"error": "bold red", "warning": "yellow"}


def finding_text(f: Finding) -> Text:
    where = f"{f.kind} {f.name}" + (f" ({f.field})" if f.field else "")
    return Text.assemble(
        ("✗ " if f.severity == "error" else "! ", _STYLE[f.severity]),
        (f"[{f.rule}] ", "dim"),
        (where, "bold"),
        ": ",
        f.message,
    )


class LintList(OptionList):
    """The findings of the last lint run (or a line saying there were none)."""

    class FindingSelected(Message):
        """The user chose a finding: open the item it is about."""

        def __init__(self, finding: Finding) -> None:
            super().__init__()
            self.finding = finding

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            Option(Text("Lint has not run yet: press ctrl+l."), disabled=True), id=id, markup=False
        )
        self.findings: list[Finding] = []

    def show_findings(self, domain: str, revision: int, findings: Sequence[Finding]) -> None:
        self.findings = list(findings)
        self.clear_options()
        if not self.findings:
            self.add_option(Option(Text(f"No findings in {domain} r{revision}."), disabled=True))
            return
        self.add_options(Option(finding_text(f), id=str(i)) for i, f in enumerate(self.findings))
        self.highlighted = 0

    def show_message(self, text: str) -> None:
        self.findings = []
        self.clear_options()
        self.add_option(Option(Text(text), disabled=True))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.post_message(self.FindingSelected(self.findings[int(event.option.id)]))
