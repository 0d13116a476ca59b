"""The guide and reference in ``docs/`` build as a site, strictly, and the README stays a
front page.

Sphinx runs as a user would run it (``sphinx-build -W --keep-going -n``): every warning
fails the build, so a link to a page or section that does not exist, a missing picture or
a page left out of the contents is a failing test, not a broken site found later.  The
commands the pages show are run by ``tests/test_readme.py``; the pictures are checked by
``tests/test_docs_screenshots.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# Markdown links and pictures: [text](target) and ![alt](target).
_LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    """No warning at all: broken cross-references, missing images, orphan pages."""
    build = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-n",
            "-q",
            "-E",
            "-b",
            "html",
            "-d",
            str(tmp_path / "doctrees"),
            str(DOCS),
            str(tmp_path / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert build.returncode == 0, build.stderr[-4000:] or build.stdout[-4000:]
    html = (tmp_path / "html" / "guide" / "workbench.html").read_text(encoding="utf-8")
    assert "images/planning-screen.svg" in html or "planning-screen.svg" in html


def test_the_readme_is_a_front_page() -> None:
    """Under 150 lines: what it is, the two commands, the first ten minutes, where to read
    more -- and every file it links to exists."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) < 150
    for heading in ("## Two commands", "## The first ten minutes", "## Where to read more"):
        assert heading in text
    assert "./run " in text and "./test " in text
    for target in _LINK.findall(text):
        if "://" in target:
            continue
        path = (ROOT / target.split("#")[0]).resolve()
        assert path.is_file(), f"README links to {target}, which does not exist"


def test_every_picture_is_shown_and_every_shown_picture_exists() -> None:
    """The pictures the screenshot test keeps are the ones the pages show."""
    shown: set[Path] = set()
    for page in [ROOT / "README.md", *DOCS.rglob("*.md")]:
        for target in _LINK.findall(page.read_text(encoding="utf-8")):
            if target.endswith(".svg"):
                shown.add((page.parent / target).resolve())
    kept = {p.resolve() for p in (DOCS / "images").glob("*.svg")}
    assert shown - kept == set(), "pages show pictures that are not there"
    assert kept - shown == set(), "pictures no page shows"
