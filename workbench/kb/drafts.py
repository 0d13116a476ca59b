"""Drafts: unsaved edits kept on disk so a killed terminal does not take them along.

While an editor has unsaved edits it writes a :class:`Draft` (which editor, the domain, the
item's kind and name, the form's values, what the form was loaded from) here, and removes
it once the edits are saved or discarded.  The next start of the workbench offers what is
left over.

Why a folder of JSON files next to the store (``workbench.db.drafts/``) rather than a table
in the store's own file:

* **The knowledge file stays the knowledge.**  The store promises that a refused edit
  leaves its file byte-identical and that every change is a revision; drafts written into
  the same file while the user types would break the first and muddle the second.
* **No schema change for scratch data.**  A table would need a migration, which backs the
  file up and makes older workbenches refuse it -- too high a price for a scratch pad.
* **Atomic and concurrent without locks.**  One file per item, written to a temporary file
  and renamed over the old one (``os.replace`` is atomic), so a crash leaves the old draft
  or the new one, never half of one, and two workbenches editing different items never
  rewrite each other's files.

Each draft records the process that wrote it, so a workbench starting while another is
still open on the same store does not offer (and cannot discard) that one's live drafts.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import socket
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .store import KINDS, KnowledgeStore, StoreError

__all__ = ["Draft", "DraftBox", "digest", "moved_on"]

FORMAT = 1
"""Version of a draft file's layout (a file of another version is left alone)."""


def digest(text: str | None) -> str:
    """A short fingerprint of stored text, to tell later whether it changed ("" for none)."""
    if text is None:
        return ""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Draft:
    """The unsaved state of one editor form, as plain JSON-able data."""

    editor: str
    """Which editor wrote it: ``knowledge``, ``design`` or ``deal``."""
    domain: str
    kind: str
    """A knowledge item's kind (constant, task, ...), or ``design`` / ``deal``."""
    name: str
    """The item's name as the store names it ("" for a design or deal never saved)."""
    fields: dict[str, Any]
    """The form's values, as the editor reads and fills them."""
    base: int = 0
    """The domain's revision the form was loaded from (knowledge items)."""
    base_digest: str = ""
    """:func:`digest` of the stored text the form was loaded from (designs and deals)."""
    saved: str = field(default_factory=_now)
    """When it was written (ISO 8601, UTC)."""
    pid: int = field(default_factory=os.getpid)
    host: str = field(default_factory=socket.gethostname)

    @property
    def key(self) -> tuple[str, str, str, str]:
        return (self.editor, self.domain, self.kind, self.name)

    @property
    def title(self) -> str:
        """What the user calls it: ``method ApplyPhotoresist.Paint``, ``design RM1``."""
        return f"{self.kind} {self.name}" if self.name else f"a new {self.kind}"

    def when(self) -> str:
        """The local time it was written, in words ("14:05 on 3 May 2026")."""
        try:
            moment = datetime.fromisoformat(self.saved).astimezone()
        except (ValueError, TypeError):  # a damaged draft's time: not text, or not a time
            return "an unknown time"
        return f"{moment:%H:%M} on {moment.day} {moment:%B %Y}"

    def restamped(self) -> Draft:
        """The same draft as written now, by this process."""
        return replace(self, saved=_now(), pid=os.getpid(), host=socket.gethostname())

    def owned_elsewhere(self) -> bool:
        """Written by another workbench process that is still running on this machine
        (its edits are live, not left over)."""
        if self.pid == os.getpid() or self.host != socket.gethostname() or os.name != "posix":
            return False
        try:
            os.kill(self.pid, 0)  # signal 0: only asks whether the process exists
        except ProcessLookupError:
            return False
        except PermissionError:  # it exists, under another user
            return True
        except OSError:
            return False
        return True


class DraftBox:
    """The drafts of one store: a folder next to its file, one JSON file per item."""

    def __init__(self, store_path: Path) -> None:
        self.folder = store_path.with_name(store_path.name + ".drafts")

    @classmethod
    def for_store(cls, db: Path | None) -> DraftBox:
        """The drafts of the store at ``db`` (None: the default store)."""
        if db is None:
            from .catalog import default_db_path

            db = default_db_path()
        return cls(Path(db))

    def _file(self, key: tuple[str, str, str, str]) -> Path:
        name = hashlib.sha256("\x00".join(key).encode("utf-8")).hexdigest()[:24]
        return self.folder / f"{name}.json"

    def put(self, draft: Draft) -> Draft:
        """Write ``draft`` (stamped now, by this process), replacing the item's last one
        atomically.  Raises OSError if the folder cannot be written."""
        draft = draft.restamped()
        text = json.dumps({"format": FORMAT, **asdict(draft)}, ensure_ascii=False, indent=1)
        target = self._file(draft.key)
        temporary = target.with_name(f"{target.name}.{os.getpid()}.tmp")
        for attempt in (1, 2):  # a second try if another process removed the empty folder
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                with temporary.open("w", encoding="utf-8") as fh:
                    fh.write(text)
                    fh.flush()
                    os.fsync(fh.fileno())
                os.replace(temporary, target)
                return draft
            except FileNotFoundError:
                if attempt == 2:
                    raise
        return draft

    def drop(self, key: tuple[str, str, str, str]) -> None:
        """Remove the item's draft, if any (and the folder, once empty)."""
        with contextlib.suppress(FileNotFoundError):
            self._file(key).unlink()
        with contextlib.suppress(OSError):  # not empty, or gone: either is fine
            self.folder.rmdir()

    def get(self, key: tuple[str, str, str, str]) -> Draft | None:
        return self._read(self._file(key))

    def all(self) -> list[Draft]:
        """Every readable draft, oldest first (an unreadable file is skipped, not removed)."""
        if not self.folder.is_dir():
            return []
        drafts = [d for p in sorted(self.folder.glob("*.json")) if (d := self._read(p))]
        return sorted(drafts, key=lambda d: d.saved)

    def left_over(self) -> list[Draft]:
        """The drafts no running workbench is working on: what a new start should offer."""
        return [d for d in self.all() if not d.owned_elsewhere()]

    @staticmethod
    def _read(path: Path) -> Draft | None:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict) or data.pop("format", None) != FORMAT:
                return None
            draft = Draft(**data)
        except (OSError, ValueError, TypeError, RecursionError):  # RecursionError: deep JSON
            return None
        # What is compared and sorted must have its type (a damaged draft is skipped).
        typed = isinstance(draft.saved, str) and type(draft.pid) is int
        return draft if isinstance(draft.fields, dict) and typed else None


def moved_on(draft: Draft, store: KnowledgeStore) -> str | None:
    """Why the store no longer holds what the draft was based on, in words (None: it
    still does, so restoring gives exactly the form as it was left)."""
    try:
        if not store.has_domain(draft.domain):
            return f"The store has no domain {draft.domain} any more."
        if draft.kind in KINDS:
            now = store.revision(draft.domain)
            if now != draft.base:
                return (
                    f"{draft.domain} has changed since (the edits were made at r{draft.base}, "
                    f"it is now at r{now}): saving puts them on top of the current state."
                )
            return None
        if not draft.name:
            return None
        if digest(store.problem_text(draft.domain, draft.name)) != draft.base_digest:
            return (
                f"{draft.name} has been saved since the edits were made: saving them "
                "replaces what is stored now."
            )
    except StoreError as exc:
        return f"The store could not be read: {exc}"
    return None
