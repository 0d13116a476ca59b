"""Reading an input file the user named: one place that says what is wrong with it.

Every reader of user files (HDDL domains and problems, EDAPS designs, PBN deals, KB
source files) goes through here, so that the same mistakes get the same true message:

* a path that is a directory, a device or a FIFO is said to be one -- not "no such
  file", and never opened in a way that waits: the file is opened non-blocking and
  checked with ``fstat`` before a byte is read, so a FIFO cannot stall start-up;
* text that is not UTF-8 names the line and column of the first bad byte and the byte
  itself (``FILE:3:17: byte 0xff is not UTF-8 ...``) instead of a ``UnicodeDecodeError``
  that names neither the file nor the place.

The error is a ``ValueError`` carrying the path, line and column, so each reader can turn
it into its own error type (an HDDL ``Issue``, an EDAPS ``InputProblem``...) and every
front end already treats it as bad input.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["TextFileError", "decode_utf8", "read_bytes", "read_text"]


class TextFileError(ValueError):
    """An input file could not be read as text; ``line`` 0 means the file as a whole."""

    def __init__(self, path: str, message: str, line: int = 0, column: int = 0) -> None:
        self.path = path
        self.message = message
        self.line = line
        self.column = column
        super().__init__(str(self))

    def __str__(self) -> str:
        if not self.line:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}:{self.column}: {self.message}"


def _kind(mode: int) -> str | None:
    """What a path is when it is not a regular file, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "is a directory, not a file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def read_bytes(path: str | Path, *, shown: str | None = None) -> bytes:
    """The bytes of the regular file at ``path``; :class:`TextFileError` for anything else.

    ``shown`` is the name used in messages (default: ``path`` as given).  The file is
    opened with ``O_NONBLOCK`` and checked with ``fstat`` on the open descriptor, so a
    FIFO is refused at once (opening one for reading would otherwise wait for a writer)
    and nothing can be swapped in between the check and the read.
    """
    name = str(path) if shown is None else shown
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise TextFileError(name, "no such file") from None
    except NotADirectoryError:
        raise TextFileError(name, "no such file (a part of the path is not a directory)") from None
    except IsADirectoryError:  # Windows cannot open a directory at all
        raise TextFileError(name, "is a directory, not a file") from None
    except PermissionError:
        raise TextFileError(name, "cannot be read: permission denied") from None
    except OSError as exc:
        raise TextFileError(name, f"cannot be read: {exc.strerror or exc}") from None
    try:
        kind = _kind(os.fstat(fd).st_mode)
        if kind is not None:
            raise TextFileError(name, kind)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            try:
                return fh.read()
            except OSError as exc:  # EISDIR on some systems, EIO on a bad disk
                raise TextFileError(name, f"cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def decode_utf8(data: bytes, path: str, *, bom: bool = True) -> str:
    """``data`` as UTF-8 text, or :class:`TextFileError` at the first byte that is not.

    ``bom``: drop a leading byte-order mark some editors write (it is not part of the
    first token).  The column counts characters, as an editor shows them, so a line with
    accented letters before the bad byte still points at the right place.
    """
    try:
        return data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        start = exc.start
        if bom and data.startswith(b"\xef\xbb\xbf"):
            start += 3  # utf-8-sig reports positions after the mark it removed
        before = data[:start]
        line = before.count(b"\n") + 1
        line_start = before.rfind(b"\n") + 1
        column = len(before[line_start:].decode("utf-8", errors="replace")) + 1
        if bom and line == 1 and data.startswith(b"\xef\xbb\xbf"):
            column -= 1  # the mark is not a character the user sees
        byte = data[start]
        if exc.end >= len(data) and exc.reason == "unexpected end of data":
            message = f"byte 0x{byte:02x} starts a UTF-8 character the file cuts short"
        else:
            message = f"byte 0x{byte:02x} is not UTF-8 text"
        raise TextFileError(
            path, f"{message} (save the file as UTF-8)", line, max(column, 1)
        ) from None


def read_text(path: str | Path, *, shown: str | None = None, bom: bool = True) -> str:
    """The UTF-8 text of the regular file at ``path``; :class:`TextFileError` if it is not
    one (see :func:`read_bytes` and :func:`decode_utf8`)."""
    name = str(path) if shown is None else shown
    return decode_utf8(read_bytes(path, shown=name), name, bom=bom)
