"""Sphinx configuration of the TOFS Workbench guide and reference (``docs/``).

Built by ``tests/test_docs.py`` in strict mode (every warning, a broken link among them,
fails the build) and by hand with::

    .venv/bin/sphinx-build -W --keep-going -n -b html docs docs/_build/html

Why Sphinx (with MyST for Markdown and the Furo theme) rather than MkDocs Material is
said in ``about.md``.
"""

from __future__ import annotations

project = "TOFS Workbench"
author = "the TOFS Workbench authors"
copyright = "the TOFS Workbench authors, MIT licence"

extensions = ["myst_parser"]
source_suffix = {".md": "markdown"}
# The build's own output is not a page of the site.
exclude_patterns = ["_build"]

# MyST: heading anchors so that pages link to each other's sections
# (``reference/performance.md#hddl-against-the-field``); a link to an anchor that does
# not exist is a warning, so the strict build fails on it.
myst_heading_anchors = 3
myst_enable_extensions = ["deflist"]

html_theme = "furo"
html_title = "TOFS Workbench"
# Offline and reproducible: no "last updated" date, no link to the page's source.
html_last_updated_fmt = None
html_show_sourcelink = False
html_copy_source = False
# Code blocks are shown as written: command lines and program output, not one language.
highlight_language = "none"
