"""``workbench --serve`` in a real browser: Playwright drives Chromium through a whole run.

The other serve tests only fetch the page's HTML and make raw websocket requests.  This
one takes the path a user takes: the URL the server prints (with its token) is opened,
textual-serve's page opens its websocket (the token in its path, the page's Origin),
xterm.js draws the app, a mouse click reaches Textual as a click on the problem list, and
the ``r`` key runs the planner, whose plan must then be on the page.

Chromium is the system's (Debian's ``chromium-headless-shell``), launched by path: the
browser build ``playwright install`` would fetch needs the internet, which CI may lack.
Without a Chromium the test is skipped with the command that enables it; ``.ci/run``
installs the package, so in CI it runs.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

ENABLE_HINT = (
    "apt-get install chromium-headless-shell (or set WORKBENCH_CHROMIUM to a Chromium binary)"
)
"""How to enable the test; ``./test`` prints the same advice when it finds no browser."""

CHROMIUM_NAMES = ("chromium-headless-shell",)
"""Looked up on PATH: Debian's headless shell is the browser this test is known to work with."""

CHROMIUM_PATHS = ("/usr/lib/chromium/chromium-headless-shell",)
"""Where Debian's package puts the real binary, for a PATH without /usr/bin."""

ROOT = Path(__file__).resolve().parents[1]
"""This checkout: the server runs from it, so ``-m workbench`` is this code, whatever the
virtualenv's editable install points at."""

BUDGET = 110.0
"""Seconds for the whole test (server start, browser, run): start-up takes ~2 s on an idle
machine, but CI machines are shared and loaded, and a hung test must still end."""

CATCH_TERMINAL = """
// textual-serve keeps its xterm.js Terminal in a local of its onload handler and draws it
// on a canvas, so neither the DOM nor the accessibility tree holds the screen's text.
// Its session class assigns `this.websocket_url` in its constructor: a setter of that
// name on Object.prototype sees the session object once, keeps it, and then gets out of
// the way (the property becomes an ordinary own property of that object).
Object.defineProperty(Object.prototype, "websocket_url", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "websocket_url", {
      value, writable: true, configurable: true, enumerable: true,
    });
    window.__tofsSession = this;
  },
});
// The screen as rows of cells, read from the buffer xterm.js draws from: each cell's
// characters; "" for the second half of a wide character, " " for an empty cell.
window.__tofsCells = () => {
  const term = window.__tofsSession && window.__tofsSession.terminal;
  if (!term) return null;
  const buffer = term.buffer.active;
  const rows = [];
  for (let y = 0; y < term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    const cells = [];
    for (let x = 0; line && x < term.cols; x++) {
      const cell = line.getCell(x);
      cells.push(cell ? cell.getChars() || (cell.getWidth() ? " " : "") : " ");
    }
    rows.push(cells);
  }
  return rows;
};
window.__tofsText = () => {
  const rows = window.__tofsCells();
  return rows === null ? null : rows.map((cells) => cells.join("")).join("\\n");
};
"""


def find_chromium() -> str | None:
    """The Chromium to drive, or None.  ``WORKBENCH_CHROMIUM``, when set, is the only
    candidate, so a wrong path skips the test instead of silently testing another browser."""
    override = os.environ.get("WORKBENCH_CHROMIUM")
    if override:
        return override if os.path.isfile(override) and os.access(override, os.X_OK) else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    for path in CHROMIUM_PATHS:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("playwright") is None,
        reason="playwright is not installed: pip install -e '.[test]'",
    ),
    pytest.mark.skipif(
        find_chromium() is None, reason=f"no Chromium for the browser test: {ENABLE_HINT}"
    ),
]


def test_a_browser_clicks_a_problem_and_plans_it(tmp_path: Path) -> None:
    """A click on ``dinner`` and ``r``, as a user would, end with the dinner plan on the
    page: the mouse and the keys reach the app, and its screen reaches the browser."""
    from playwright.sync_api import sync_playwright

    chromium = find_chromium()
    assert chromium is not None
    deadline = time.monotonic() + BUDGET
    port = _free_port()
    log = tmp_path / "serve.log"
    env = dict(os.environ, WORKBENCH_DB=str(tmp_path / "kb.db"))
    env.pop("COLUMNS", None)  # the browser's terminal decides the app's size
    env.pop("LINES", None)
    with log.open("wb") as out:
        # A session of its own, so the cleanup reaches the app processes the server starts.
        server = subprocess.Popen(
            [sys.executable, "-m", "workbench", "--serve", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        url = _wait_for_server(server, port, deadline, log)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, timeout=_ms_left(deadline))
            try:
                # About 155 x 50 cells at the default font: every pane and problem in view.
                page = browser.new_page(viewport={"width": 1400, "height": 900})
                errors: list[str] = []
                page.on("pageerror", lambda exc: errors.append(str(exc)))
                # Only the server on loopback: the page also asks Google for a font.
                page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda r: r.abort())
                page.add_init_script(CATCH_TERMINAL)
                # No Start button to press: textual-serve shows one only for ?delay=1.
                page.goto(url, timeout=_ms_left(deadline))
                # The picker is filled and its cursor placed: the app has finished starting.
                _wait_for_text(page, "Press r to plan it.", deadline, errors)
                _click_cell(page, *_find_cell(page, r"── (dinner)\b"))
                _wait_for_text(page, "examples / dinner", deadline, errors)
                page.keyboard.press("r")
                screen = _wait_for_text(
                    page, "examples/dinner (first): plan found", deadline, errors
                )
                assert "1. Have dinner at the Mongolian Barbecue" in screen, screen
            finally:
                browser.close()
    finally:
        _stop(server)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _ms_left(deadline: float) -> float:
    """Playwright's timeouts are in milliseconds; each gets what is left of the budget."""
    return max(1.0, deadline - time.monotonic()) * 1000


def _wait_for_server(server: subprocess.Popen[bytes], port: int, deadline: float, log: Path) -> str:
    """The URL the server printed (with its token) once the page answers there; fails
    early, with its output, if it exits.  The token is what a browser needs: the page and
    its websocket are refused without it (tests/test_serve_security.py)."""
    url = ""
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the server exited ({server.returncode}):\n{log.read_text()}")
        if not url:
            found = re.search(r"Serving the workbench at (\S+) ", log.read_text())
            url = found.group(1) if found else ""
        if url:
            assert url.startswith(f"http://127.0.0.1:{port}/?token="), url
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if "TOFS Workbench" in r.read().decode("utf-8", "replace"):
                        return url
            except OSError:
                pass
        time.sleep(0.3)
    raise AssertionError(f"the server never answered on port {port}:\n{log.read_text()}")


def _screen(page: Page) -> str:
    text = page.evaluate("window.__tofsText ? window.__tofsText() : null")
    return text if isinstance(text, str) else "(textual-serve's terminal was not found)"


def _wait_for_text(page: Page, text: str, deadline: float, errors: list[str]) -> str:
    """The screen once ``text`` is on it; on timeout, fails showing the screen instead."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(
            "text => { const s = window.__tofsText && window.__tofsText();"
            " return s !== null && s !== undefined && s.includes(text); }",
            arg=text,
            polling=100,
            timeout=_ms_left(deadline),
        )
    except PlaywrightTimeout:
        raise AssertionError(
            f"{text!r} never appeared; page errors: {errors}; the screen was:\n{_screen(page)}"
        ) from None
    return _screen(page)


def _find_cell(page: Page, pattern: str) -> tuple[int, int]:
    """Column and row of the first match of ``pattern``'s group 1, in terminal cells
    (not string offsets, which a wide or combined character left of it would shift)."""
    rows = page.evaluate("window.__tofsCells()")
    assert isinstance(rows, list)
    for y, cells in enumerate(rows):
        text = "".join(cells)
        column = [x for x, chars in enumerate(cells) for _ in chars]  # cell of each char
        match = re.search(pattern, text)
        if match:
            return column[match.start(1)], y
    raise AssertionError(f"{pattern!r} is not on the screen:\n{_screen(page)}")


def _click_cell(page: Page, column: int, row: int) -> None:
    """A real mouse click in the middle of a cell: xterm.js reports it to the app as a
    terminal mouse event, as it would for a user."""
    size = page.evaluate("[window.__tofsSession.terminal.cols, window.__tofsSession.terminal.rows]")
    box = page.locator(".xterm-screen").bounding_box()
    assert box is not None, "the terminal is not on the page"
    cols, rows = int(size[0]), int(size[1])
    width, height = box["width"] / cols, box["height"] / rows
    page.mouse.click(box["x"] + (column + 0.5) * width, box["y"] + (row + 0.5) * height)


def _stop(server: subprocess.Popen[bytes]) -> None:
    """Stop the server and every app process it started (they share its session)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        server.wait(timeout=10)
    # Whatever is left: a server that did not stop, app processes that outlived it.
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGKILL)
    server.wait(timeout=10)
