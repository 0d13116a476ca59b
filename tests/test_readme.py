"""The commands the README and the guide show run as shown, in order, on a fresh store
(the README's first ten minutes, each page of ``docs/``: the knowledge-store walk-through,
HDDL authoring, the why-not example...): a page that lies is a bug."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from workbench.cli import main

ROOT = Path(__file__).resolve().parents[1]

# What the pages say these exit with (everything else: 0), as written on the page.
EXPECTED_STATUS = {
    "plan edaps RUM1": 2,
    "plan hddl knowledge/hddl/examples/delivery-domain.hddl "
    "knowledge/hddl/examples/delivery-stranded.hddl --explain": 2,
}
# The interactive ones: the workbench itself, and serving it.
INTERACTIVE = ("", "--serve")
# Commands that change the store: what runs after one depends on the page before it.
WRITES = {"set", "delete", "undo", "redo", "import", "rename"}


def documents() -> list[Path]:
    """The README, then every page of the guide and reference, in a fixed order."""
    pages = sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)
    return [ROOT / "README.md", *pages]


def page_commands(path: Path) -> list[list[str]]:
    """Every ``./run ...`` line of a page's code blocks, as arguments, in order."""
    text = path.read_text(encoding="utf-8")
    commands = []
    for block in re.findall(r"^ *```[^\n]*\n(.*?)^ *```", text, flags=re.M | re.S):
        for line in block.splitlines():
            line = line.strip().removeprefix("$ ")
            if line == "./run" or line.startswith("./run "):
                argv = shlex.split(line, comments=True)[1:]
                if " ".join(argv) not in INTERACTIVE:
                    commands.append(argv)
    return commands


def readme_commands() -> list[list[str]]:
    """The README's own commands: its first ten minutes."""
    return page_commands(ROOT / "README.md")


def test_the_pages_show_the_commands_this_test_runs() -> None:
    shown = [" ".join(c[:3]) for page in documents() for c in page_commands(page)]
    for must in ("plan examples dinner", "play bridge", "match bridge", "kb set edaps"):
        assert any(s.startswith(must) for s in shown), must
    readme = [" ".join(c[:2]) for c in readme_commands()]
    assert "plan examples" in readme and "kb set" in readme


# A command already run, exit status checked, on a store no command had written to: the
# same command on another such store gives the same answer, so it is not run twice.
_run_on_a_fresh_store: set[tuple[str, ...]] = set()


@pytest.mark.parametrize("page", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_command_on_the_page_runs_as_shown(
    page: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("WORKBENCH_DB", str(tmp_path / "fresh.db"))
    monkeypatch.chdir(tmp_path)  # exports land here, not in the checkout
    written = False
    for shown_argv in page_commands(page):
        shown = " ".join(shown_argv)
        writes = len(shown_argv) > 1 and shown_argv[0] == "kb" and shown_argv[1] in WRITES
        if not written and not writes and tuple(shown_argv) in _run_on_a_fresh_store:
            continue
        # Paths on the pages are relative to the project root, where a user runs ./run.
        argv = [str(ROOT / a) if (ROOT / a).is_file() and "/" in a else a for a in shown_argv]
        status = main(argv)
        out = capsys.readouterr()
        want = EXPECTED_STATUS.get(shown, 0)
        where = page.relative_to(ROOT)
        assert status == want, f"{where}: ./run {shown} exited {status}:\n{out.err[-2000:]}"
        assert "Traceback" not in out.err, f"{where}: {shown}"
        written = written or writes
        if not written:
            _run_on_a_fresh_store.add(tuple(shown_argv))


# A path that climbs out of a page's folder: ``../images/x.svg`` from docs/guide/ stays in
# the repository, ``../shared/data/...`` from the README does not.
_CLIMB = re.compile(r"(?:\.\./)+[\w.@+-]+(?:/[\w.@+-]+)*")


@pytest.mark.parametrize("page", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_page_names_a_path_outside_the_repository(page: Path) -> None:
    """A user's clone has nothing beside it: data a benchmark needs is named by where to
    get it (the competition's public repository), never by a path next to the checkout."""
    text = page.read_text(encoding="utf-8")
    for m in _CLIMB.finditer(text):
        target = (page.parent / m[0]).resolve()
        assert target.is_relative_to(ROOT), f"{page.relative_to(ROOT)} names {m[0]}"
    for outside in ("/work/", "shared/data", "/tmp/"):
        assert outside not in text, f"{page.relative_to(ROOT)} names {outside}"
