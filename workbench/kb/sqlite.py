"""sqlite-utils, imported without the numpy (and pandas) it would load for nothing.

``sqlite_utils.db`` imports numpy and pandas when they are installed, only to map their
scalar types to column types on insert.  The store never inserts either, and numpy alone is
a fifth of the time ``workbench plan`` takes to start (``benchmarks/startup.py``), so they
are hidden while sqlite-utils loads; a program that has already imported them is left as
it is.
"""

from __future__ import annotations

import sys

_OPTIONAL = ("numpy", "pandas")
_hidden = [name for name in _OPTIONAL if name not in sys.modules]
for _name in _hidden:
    sys.modules[_name] = None  # type: ignore[assignment]  # import then raises ImportError
try:
    from sqlite_utils import Database
finally:
    for _name in _hidden:
        del sys.modules[_name]

__all__ = ["Database"]
