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

**A draft cannot hurt the workbench that reads it.**  The folder is plain files anyone
can write to, so what is in it is read as untrusted input: only regular files are opened
(a FIFO would block start-up, a device could stream forever), only up to
:data:`MAX_DRAFT_BYTES`, and the JSON is checked against a schema
(:class:`DraftFile`) before any of it reaches a form.  A file that fails any of these is
moved aside into ``rejected/`` (renamed, never opened) by :meth:`DraftBox.sweep`, which
the app calls at start and reports in one line, so it is neither offered, nor restored,
nor saved again -- and it is still there for whoever wants to look at it.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import socket
import stat
from dataclasses import asdict, dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from .store import KINDS, KnowledgeStore, StoreError

__all__ = [
    "MAX_DRAFT_BYTES",
    "Draft",
    "DraftBox",
    "DraftFile",
    "DraftRejected",
    "Rejected",
    "digest",
    "moved_on",
    "read_draft_file",
]

FORMAT = 1
"""Version of a draft file's layout (a file of another version is left alone)."""

MAX_DRAFT_BYTES = 1_000_000
"""The largest draft file read or written (1 MB).  A draft holds one edited item's form --
a method, a design, a deal: a few kilobytes -- so a file far larger than that is not a
draft this workbench wrote, and reading it would freeze the start-up it is offered at."""

REJECTED_FOLDER = "rejected"
"""Subfolder of the drafts folder where files that are not readable drafts are moved."""


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
        except (ValueError, OverflowError, OSError):
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


_SCALARS = (str, bool, int, float, type(None))
"""What an editor keeps in a draft's ``fields``: a form field's text, a checkbox, a
choice's number, or a list of those (one level deep: no form nests further)."""


def _field_value_problem(value: object) -> str | None:
    """Why ``value`` cannot be a form's value (None: it can)."""
    if isinstance(value, _SCALARS):
        return None
    if isinstance(value, list) and all(isinstance(v, _SCALARS) for v in value):
        return None
    kind = "a list holding lists or objects" if isinstance(value, list) else "an object"
    return f"{kind}; expected text, a number, true/false, null or a list of those"


class DraftFile(BaseModel):
    """The schema of a draft file: exactly the keys :meth:`DraftBox.put` writes, each of
    the type it writes (strict: a number where a string belongs is refused, not
    converted), so a damaged or foreign file cannot reach an editor as a half-valid form."""

    model_config = ConfigDict(strict=True, extra="forbid")

    format: Literal[1]
    editor: str
    domain: str
    kind: str
    name: str
    fields: dict[str, Any]
    base: Annotated[int, Field(ge=0)] = 0
    base_digest: str = ""
    saved: str
    pid: Annotated[int, Field(gt=0, lt=2**31)]
    """A process id as ``os.kill`` takes it: 0 or a negative number would ask about a
    process group, a huge one would overflow."""
    host: str

    @field_validator("fields")
    @classmethod
    def _form_values(cls, value: dict[str, Any]) -> dict[str, Any]:
        """Only values a form holds (no deeper nesting for an editor to trip over)."""
        for key, item in value.items():
            problem = _field_value_problem(item)
            if problem is not None:
                raise ValueError(f"'{key}' holds {problem}")
        return value

    @field_validator("saved")
    @classmethod
    def _iso_time(cls, value: str) -> str:
        """An ISO 8601 time, as :meth:`Draft.when` reads it."""
        try:
            datetime.fromisoformat(value).astimezone()
        except (ValueError, OverflowError, OSError):
            raise ValueError(
                "expected an ISO 8601 time such as 2026-05-03T14:05:00+00:00"
            ) from None
        return value

    def draft(self) -> Draft:
        return Draft(**self.model_dump(exclude={"format"}))


class DraftRejected(ValueError):
    """A file in the drafts folder that is not a readable draft; the message says why."""


@dataclass(frozen=True)
class Rejected:
    """A file :meth:`DraftBox.sweep` moved aside, where it went, and why."""

    path: Path
    moved_to: Path | None
    """None when it could not be moved (it is then skipped, as before)."""
    reason: str


def _utf8_error(data: bytes, exc: UnicodeDecodeError) -> str:
    """Where the first byte that is not UTF-8 is, as line and column."""
    before = data[: exc.start]
    line = before.count(b"\n") + 1
    column = exc.start - (before.rfind(b"\n") + 1) + 1
    return f"line {line}, column {column}: byte 0x{data[exc.start]:02x} is not UTF-8"


def read_draft_file(path: Path) -> Draft | None:
    """The draft in ``path``; None for a draft of another :data:`FORMAT` (left for the
    workbench that wrote it).  Raises :class:`DraftRejected` for anything else that is
    not a draft: not a regular file (checked before opening, so a FIFO is never opened),
    larger than :data:`MAX_DRAFT_BYTES`, not UTF-8, not JSON, or not the schema."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise DraftRejected(f"cannot be read: {exc.strerror or exc}") from None
    if not stat.S_ISREG(info.st_mode):
        raise DraftRejected("is not a regular file")
    if info.st_size > MAX_DRAFT_BYTES:
        raise DraftRejected(
            f"is {info.st_size:,} bytes, more than the {MAX_DRAFT_BYTES:,} a draft may be"
        )
    try:
        # O_NONBLOCK: should the file be swapped for a FIFO after the check above, opening
        # it still returns at once; O_NOFOLLOW: a symbolic link is not followed.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:
        raise DraftRejected(f"cannot be read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise DraftRejected("is not a regular file")
        data = fh.read(MAX_DRAFT_BYTES + 1)
    if len(data) > MAX_DRAFT_BYTES:
        raise DraftRejected(f"is more than the {MAX_DRAFT_BYTES:,} bytes a draft may be")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DraftRejected(_utf8_error(data, exc)) from None
    try:
        raw = json.loads(text)
    except RecursionError:
        raise DraftRejected("is nested too deeply to be a draft") from None
    except json.JSONDecodeError as exc:
        raise DraftRejected(f"line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    if not isinstance(raw, dict):
        raise DraftRejected(f"holds a JSON {type(raw).__name__}, not an object")
    version = raw.get("format")
    if isinstance(version, int) and not isinstance(version, bool) and version != FORMAT:
        return None
    try:
        return DraftFile.model_validate(raw).draft()
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the draft"
        raise DraftRejected(
            f"field '{where}': {first['msg']} ({exc.error_count()} problem"
            f"{'s' if exc.error_count() != 1 else ''})"
        ) from None


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
        if len(text.encode("utf-8")) > MAX_DRAFT_BYTES:
            # The next start would refuse it: say so now, while the edits are on screen.
            raise OSError(
                errno.EFBIG,
                f"the edits are larger than the {MAX_DRAFT_BYTES:,} bytes a draft may hold",
            )
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
        """Every readable draft, oldest first (an unreadable file is skipped, not removed:
        :meth:`sweep` moves those aside)."""
        if not self.folder.is_dir():
            return []
        drafts = [d for p in sorted(self.folder.glob("*.json")) if (d := self._read(p))]
        return sorted(drafts, key=lambda d: d.saved)

    def sweep(self) -> list[Rejected]:
        """Move every file that is not a readable draft into ``rejected/`` (by renaming,
        never opening a file that is not regular) and say what was moved and why.  Called
        once at start, before the drafts are offered."""
        if not self.folder.is_dir():
            return []
        out: list[Rejected] = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                read_draft_file(path)
            except DraftRejected as exc:
                out.append(Rejected(path, self._move_aside(path), str(exc)))
        return out

    def _move_aside(self, path: Path) -> Path | None:
        aside = self.folder / REJECTED_FOLDER
        try:
            aside.mkdir(exist_ok=True)
            target = aside / path.name
            n = 1
            while target.exists() or target.is_symlink():
                n += 1
                target = aside / f"{path.stem}-{n}{path.suffix}"
            os.rename(path, target)  # a rename: a FIFO or device is moved, not opened
        except OSError:
            return None
        return target

    def left_over(self) -> list[Draft]:
        """The drafts no running workbench is working on: what a new start should offer."""
        return [d for d in self.all() if not d.owned_elsewhere()]

    @staticmethod
    def _read(path: Path) -> Draft | None:
        try:
            return read_draft_file(path)
        except DraftRejected:
            return None


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
