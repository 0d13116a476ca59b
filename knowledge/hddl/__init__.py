"""HDDL, the hierarchical track's language: read domain and problem files, write them back.

The total-order fragment of HDDL 1.0 (Höller et al., AAAI 2020) as the IPC 2020 files use
it, into the immutable values of :mod:`knowledge.hddl.model`; ``write_domain`` and
``write_problem`` give text that reads back to an equal model.  This is the reading layer
only: it registers no knowledge package and plans nothing yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import HddlError, Issue

if TYPE_CHECKING:
    from .model import Domain, Problem
    from .writer import write_domain, write_problem

# The reader (lark and its grammar) and the model load when first used, not with the
# package: every workbench command imports the ``hddl`` package to seed the store, and
# only HDDL's own commands read HDDL.
_LAZY = {
    "Domain": ".model",
    "Problem": ".model",
    "write_domain": ".writer",
    "write_problem": ".writer",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Domain",
    "HddlError",
    "Issue",
    "Problem",
    "parse_domain",
    "parse_problem",
    "read_domain",
    "read_problem",
    "write_domain",
    "write_problem",
]


def parse_domain(text: str, path: str = "<string>") -> Domain:
    """The domain in ``text``; raises :class:`HddlError` with every finding if it is not one."""
    from .syntax import parse_domain_text

    return parse_domain_text(text, path)


def parse_problem(text: str, domain: Domain | None = None, path: str = "<string>") -> Problem:
    """The problem in ``text``, checked against ``domain`` (names, arities) when given."""
    from .syntax import parse_problem_text

    return parse_problem_text(text, path, domain)


def read_domain(path: str | Path) -> Domain:
    return parse_domain(_read(path), str(path))


def read_problem(path: str | Path, domain: Domain | None = None) -> Problem:
    return parse_problem(_read(path), domain, str(path))


def _read(path: str | Path) -> str:
    """The file's text, or an :class:`HddlError` saying why not: no such file, a directory
    or device, a byte that is not UTF-8 (with its line and column).  A byte-order mark some
    editors write is dropped: it is not part of the first token."""
    from engine.tofs.textfile import TextFileError, read_text

    try:
        return read_text(path)
    except TextFileError as exc:
        raise HddlError([Issue(exc.path, exc.line, exc.column, exc.message)]) from None
