"""``--serve`` is safe by default: a token, an Origin check, a session limit, a warning.

Raw HTTP and websocket requests, as a foreign page or a script would send them, to a
server on 127.0.0.1 and a free port.  Most tests run :class:`GuardedServer` in the test's
own event loop with a stand-in app (a few lines of Python that speak textual-serve's
protocol: its prelude, one data packet, then wait for "quit"), so that counting sessions
up to the limit does not start five workbenches on a shared machine; one test starts the
real ``workbench --serve`` and a real session through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import WSMsgType
from aiohttp.test_utils import TestServer

from workbench.cli import main
from workbench.serve import (
    DEFAULT_MAX_SESSIONS,
    TOO_MANY_SESSIONS,
    GuardedServer,
    allowed_origins,
    is_loopback,
    served_url,
)

ROOT = Path(__file__).resolve().parents[1]
TOKEN = "test-token-0123456789"

STAND_IN_APP = r"""
import sys
out, inp = sys.stdout.buffer, sys.stdin.buffer
out.write(b"__GANGLION__\n")
out.write(b"D" + (5).to_bytes(4, "big") + b"hello")
out.flush()
while True:
    head = inp.read(5)
    if len(head) < 5:
        break
    body = inp.read(int.from_bytes(head[1:], "big"))
    if head[:1] == b"M" and b'"quit"' in body:
        break
"""
"""Stands in for a workbench session: textual-serve's prelude, "hello" as terminal
output, then it waits for the "quit" textual-serve sends when the browser goes."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def guarded(max_sessions: int = DEFAULT_MAX_SESSIONS) -> AsyncIterator[str]:
    """A guarded server with the stand-in app; yields its base URL."""
    port = _free_port()
    command = shlex.join([sys.executable, "-c", STAND_IN_APP])
    server = GuardedServer(command, "127.0.0.1", port, token=TOKEN, max_sessions=max_sessions)
    test_server = TestServer(await server._make_app(), host="127.0.0.1", port=port)
    await test_server.start_server()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        deadline = time.monotonic() + 30
        while server.sessions and time.monotonic() < deadline:  # their apps quit first
            await asyncio.sleep(0.05)
        await asyncio.wait_for(test_server.close(), 30)


def _origin(base: str) -> dict[str, str]:
    return {"Origin": base}


async def _hello(ws: aiohttp.ClientWebSocketResponse) -> bytes:
    """The first terminal output of the session (the stand-in app's "hello")."""
    message = await ws.receive(timeout=30)
    assert message.type == WSMsgType.BINARY, message
    return bytes(message.data)


async def test_the_page_needs_the_token() -> None:
    jar = aiohttp.CookieJar(unsafe=True)  # keep cookies of an IP address, as browsers do
    async with guarded() as base, aiohttp.ClientSession(cookie_jar=jar) as http:
        port = base.rsplit(":", 1)[1]
        async with http.get(f"{base}/") as r:
            assert r.status == 403
            assert "URL with its token" in await r.text()
        async with http.get(f"{base}/?token=wrong") as r:
            assert r.status == 403
        async with http.get(f"{base}/?token={TOKEN}") as r:
            assert r.status == 200
            page = await r.text()
            assert "TOFS Workbench" in page
            # The page's websocket carries the token; a cookie carries it for reloads.
            assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws/{TOKEN}"' in page
            cookie = r.cookies[f"workbench_token_{port}"]
            assert cookie.value == TOKEN and cookie["httponly"] and cookie["samesite"] == "Strict"
            assert r.headers["Referrer-Policy"] == "no-referrer"
        async with http.get(f"{base}/") as r:  # the same browser, its cookie: allowed
            assert r.status == 200
        async with http.get(f"{base}/static/js/textual.js") as r:  # textual-serve's script
            assert r.status == 200


async def test_a_websocket_needs_the_token_and_this_servers_origin() -> None:
    async with guarded() as base, aiohttp.ClientSession() as http:
        ws_base = base.replace("http:", "ws:")
        for url, headers in [
            (f"{ws_base}/ws", _origin(base)),  # no token
            (f"{ws_base}/ws/wrong", _origin(base)),
            (f"{ws_base}/ws/{TOKEN}", {"Origin": "http://evil.example"}),  # a foreign page
            (f"{ws_base}/ws/{TOKEN}", {"Origin": "http://127.0.0.1:1"}),  # another port
            (f"{ws_base}/ws/{TOKEN}", {}),  # no Origin at all
        ]:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(url, headers=headers)
            assert refused.value.status == 403, url
        for url, headers in [
            (f"{ws_base}/ws/{TOKEN}", _origin(base)),
            (f"{ws_base}/ws?token={TOKEN}", _origin(base)),
            (f"{ws_base}/ws/{TOKEN}", {"Origin": base.replace("127.0.0.1", "localhost")}),
        ]:
            ws = await http.ws_connect(url, headers=headers)  # 101: the session starts
            try:
                assert await _hello(ws) == b"hello"
            finally:
                await ws.close()


async def test_sessions_beyond_the_limit_are_refused_until_one_closes() -> None:
    assert DEFAULT_MAX_SESSIONS == 4
    async with guarded() as base, aiohttp.ClientSession() as http:
        url = f"{base.replace('http:', 'ws:')}/ws/{TOKEN}"
        open_ = [await http.ws_connect(url, headers=_origin(base)) for _ in range(4)]
        try:
            for ws in open_:
                assert await _hello(ws) == b"hello"
            fifth = await http.ws_connect(url, headers=_origin(base))
            said = await fifth.receive(timeout=30)
            assert said.type == WSMsgType.BINARY
            assert b"4 sessions are open, the most this server allows" in said.data
            closed = await fifth.receive(timeout=30)
            assert closed.type == WSMsgType.CLOSE and closed.data == TOO_MANY_SESSIONS
            await fifth.close()
            await open_.pop().close()
            deadline = time.monotonic() + 30
            while True:  # the closed session is counted out once its app has quit
                again = await http.ws_connect(url, headers=_origin(base))
                message = await again.receive(timeout=30)
                if message.type == WSMsgType.BINARY and message.data == b"hello":
                    open_.append(again)
                    break
                await again.close()
                assert time.monotonic() < deadline, "a closed session was never counted out"
                await asyncio.sleep(0.1)
        finally:
            for ws in open_:
                await ws.close()


def test_loopback_hosts_and_the_origins_they_allow() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.0.2.1")
    assert not is_loopback("no-such-host.invalid")
    assert allowed_origins("127.0.0.1", 8000) == {
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "http://[::1]:8000",
    }
    assert allowed_origins("192.0.2.1", 8000) == {"http://192.0.2.1:8000"}
    assert served_url("::1", 8000, "t") == "http://[::1]:8000/?token=t"


def test_a_host_that_is_not_loopback_is_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    """192.0.2.1 (TEST-NET-1) is no address of this machine, so nothing is served: the
    warning comes first, then the one-line reason it cannot serve there."""
    assert main(["--serve", "--host", "192.0.2.1", "--port", str(_free_port())]) == 1
    warning, error = capsys.readouterr().err.splitlines()
    assert warning.startswith("workbench: warning: 192.0.2.1 is not a loopback address")
    assert error.startswith("workbench: error: cannot serve on 192.0.2.1:")


def test_max_sessions_must_be_at_least_one(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--serve", "--max-sessions", "0"])
    assert stopped.value.code == 1
    assert "--max-sessions" in capsys.readouterr().err


def test_the_real_server_prints_a_token_url_and_serves_a_real_session(tmp_path: Path) -> None:
    """``workbench --serve --max-sessions 1``: the printed URL's token opens a workbench
    session (its screen arrives over the websocket); a second session is refused."""
    port = _free_port()
    env = dict(os.environ, WORKBENCH_DB=str(tmp_path / "kb.db"))
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [
                sys.executable,
                *("-m", "workbench", "--serve", "--port", str(port)),
                "--max-sessions",
                "1",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # so the cleanup reaches the session it starts
        )
    try:
        deadline = time.monotonic() + 90
        url = ""
        while not url:
            assert server.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            found = re.search(r"Serving the workbench at (\S+) ", log.read_text())
            url = found.group(1) if found else ""
            time.sleep(0.2)
        token = url.split("token=", 1)[1]
        assert url == f"http://127.0.0.1:{port}/?token={token}" and len(token) >= 32
        asyncio.run(_real_session(port, token, deadline))
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


async def _real_session(port: int, token: str, deadline: float) -> None:
    base = f"http://127.0.0.1:{port}"
    async with aiohttp.ClientSession() as http:
        while True:  # the server prints its URL just before it listens
            try:
                async with http.get(f"{base}/") as r:
                    assert r.status == 403
                break
            except aiohttp.ClientConnectionError:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.2)
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}", headers=_origin("null"))
        assert refused.value.status == 403
        ws = await http.ws_connect(f"ws://127.0.0.1:{port}/ws/{token}", headers=_origin(base))
        try:
            screen = b""
            while b"TOFS Workbench" not in screen:  # the app draws its title
                left = deadline - time.monotonic()
                assert left > 0, screen[-2000:]
                message = await ws.receive(timeout=left)
                assert message.type in (WSMsgType.BINARY, WSMsgType.TEXT), message
                if message.type == WSMsgType.BINARY:
                    screen += message.data
            second = await http.ws_connect(
                f"ws://127.0.0.1:{port}/ws/{token}", headers=_origin(base)
            )
            said = await second.receive(timeout=30)
            assert b"1 session is open, the most this server allows" in said.data
            await second.close()
        finally:
            await ws.close()
