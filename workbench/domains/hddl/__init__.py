"""HDDL in the workbench: its domains are edited as HDDL text.

Planning, stepping through and explaining an HDDL problem need nothing of their own: the
generic screens do it.  What HDDL adds is the editor of a domain, because an HDDL domain's
source is its text (``workbench.domains.hddl.editor``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from workbench.domains import DomainUI

if TYPE_CHECKING:
    from textual.screen import Screen


def _editor(db: Path | None, domain: str) -> Screen[Any]:
    from workbench.domains.hddl.editor import HddlEditorScreen

    return HddlEditorScreen(db, domain)


UI = DomainUI("hddl", label="HDDL", knowledge_editor=_editor)
