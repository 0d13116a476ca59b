"""``workbench --serve``: the same app in a web browser, through textual-serve.

textual-serve starts one ``workbench`` process per browser tab and relays its terminal
over a websocket, so the browser shows exactly the terminal app, on the same store.

**Safe by default.**  A session can edit the knowledge store, and any web page open in
the user's browser can make requests to ``127.0.0.1``; textual-serve on its own checks
nothing.  So the server here (:class:`GuardedServer`) adds:

* **A token.**  Each start makes a random one (:func:`secrets.token_urlsafe`) and prints
  the URL that carries it (``/?token=...``).  The page, the websocket and downloads are
  refused with 403 without it; the page puts it into the websocket URL it opens
  (``/ws/<token>``) and into a cookie (HttpOnly, SameSite=Strict, named after the port),
  so a reload or a download from that page needs nothing more.
* **The websocket's Origin must be the served address** (for a loopback host any
  loopback name: 127.0.0.1, localhost, [::1]), so a foreign page cannot drive a session
  even with the token; a missing Origin is refused too.
* **A limit on concurrent sessions** (:data:`DEFAULT_MAX_SESSIONS`, ``--max-sessions``):
  each is a workbench process, and the next one is refused with close code 1013 ("try
  again later") and a line the browser's terminal shows.
* **A warning** on stderr when ``--host`` is not a loopback address: then the token is
  all that stands between the network and the store.
"""

from __future__ import annotations

import errno
import ipaddress
import secrets
import shlex
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import web
from textual_serve.server import Server

__all__ = [
    "DEFAULT_MAX_SESSIONS",
    "GuardedServer",
    "is_loopback",
    "serve",
    "serve_command",
    "served_url",
]

DEFAULT_MAX_SESSIONS = 4
"""Concurrent browser sessions (one workbench process each) unless ``--max-sessions``."""

TOO_MANY_SESSIONS = 1013
"""The websocket close code for a session over the limit: RFC 6455's "try again later"."""


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

_INDEX_CONTEXT: Callable[[Server, web.Request], Awaitable[dict[str, Any]]] = (
    Server.handle_index.__wrapped__  # type: ignore[attr-defined]
)
"""textual-serve's page context, before its template decorator renders it: the guarded
page changes one value of it."""


def serve_command(db: str | Path | None, exports: str | Path | None = None) -> str:
    """The command each browser session runs: this Python, this package, this store."""
    parts = [sys.executable, "-m", "workbench"]
    if db is not None:
        parts += ["--db", str(Path(db).resolve())]
    if exports is not None:
        parts += ["--exports", str(Path(exports).resolve())]
    return shlex.join(parts)


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (in use, not an address here), or
    None: asked before starting, so the user reads one line instead of a traceback."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        return f"cannot serve on {host}: {exc.strerror}"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is in use; choose another with --port"
            return f"cannot serve on {host}:{port}: {exc.strerror}"
    return None


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only: a loopback address, or a name
    every address of which is one (``localhost``).  An unknown name is not."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except (socket.gaierror, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(
        ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in addresses
    )


def _authority(host: str, port: int) -> str:
    """``host:port`` as a URL writes it (an IPv6 address in brackets)."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{host}:{port}"


def served_url(host: str, port: int, token: str) -> str:
    """The URL to open: the served address with the token."""
    return f"http://{_authority(host, port)}/?token={token}"


def allowed_origins(host: str, port: int) -> frozenset[str]:
    """The Origins a websocket may come from: pages of this server.  A loopback server
    answers to each loopback name, as the browser may have been pointed at any of them."""
    names = {host}
    if is_loopback(host):
        names |= {"127.0.0.1", "localhost", "::1"}
    return frozenset(f"http://{_authority(name, port)}" for name in names)


class GuardedServer(Server):
    """textual-serve's server behind a token, an Origin check and a session limit."""

    def __init__(
        self,
        command: str,
        host: str,
        port: int,
        *,
        token: str | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        title: str = "TOFS Workbench",
    ) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.token = token or secrets.token_urlsafe(24)
        self.max_sessions = max_sessions
        self.sessions = 0
        self.origins = allowed_origins(host, port)
        self.cookie = f"workbench_token_{port}"  # cookies are per host, not per port

    @property
    def url(self) -> str:
        return served_url(self.host, self.port, self.token)

    async def on_startup(self, app: web.Application) -> None:
        """Quiet: :func:`serve` has printed the one line a user needs (the URL)."""

    async def _make_app(self) -> web.Application:
        app: web.Application = await super()._make_app()
        app.middlewares.append(self._guard)
        app.router.add_get("/ws/{token}", self.handle_websocket, name="websocket_token")
        return app

    def _token_of(self, request: web.Request) -> str:
        return (
            request.match_info.get("token")
            or request.query.get("token")
            or request.cookies.get(self.cookie)
            or ""
        )

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every request but the static files (textual-serve's own scripts and styles)
        needs the token; a websocket also an Origin of this server."""
        if request.path.startswith("/static/"):
            return await handler(request)
        if not secrets.compare_digest(self._token_of(request), self.token):
            raise web.HTTPForbidden(
                text="This workbench needs the URL with its token, as "
                "`workbench --serve` printed it.\n"
            )
        if request.path.startswith("/ws"):
            origin = request.headers.get("Origin", "")
            if origin not in self.origins:
                raise web.HTTPForbidden(
                    text=f"Origin {origin or '(none)'} is not this workbench's page.\n"
                )
        response = await handler(request)
        if request.path == "/":
            response.set_cookie(self.cookie, self.token, httponly=True, samesite="Strict", path="/")
            response.headers["Referrer-Policy"] = "no-referrer"
            response.headers["Cache-Control"] = "no-store"
        return response

    @aiohttp_jinja2.template("app_index.html")
    async def handle_index(self, request: web.Request) -> dict[str, Any]:
        """textual-serve's page, its websocket URL carrying the token in its path (the
        page's script appends ``?width=..``, so the path is where it can go), on the
        host the browser asked for (its cookie and Origin are of that host)."""
        context: dict[str, Any] = await _INDEX_CONTEXT(self, request)
        context["app_websocket_url"] = f"ws://{request.host}/ws/{self.token}"
        return context

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if self.sessions >= self.max_sessions:
            return await self._refuse(request)
        self.sessions += 1
        try:
            response: web.WebSocketResponse = await super().handle_websocket(request)
            return response
        finally:
            self.sessions -= 1

    async def _refuse(self, request: web.Request) -> web.WebSocketResponse:
        """Over the limit: opened only to say so where the user looks (the page's
        terminal) and closed with "try again later"."""
        n = self.max_sessions
        why = (
            f"workbench: {n} session{'s are' if n != 1 else ' is'} open, the most "
            "this server allows (--max-sessions); close one and reload."
        )
        websocket = web.WebSocketResponse()
        await websocket.prepare(request)
        await websocket.send_bytes(f"\r\n{why}\r\n".encode())
        await websocket.close(code=TOO_MANY_SESSIONS, message=why.encode()[:120])
        return websocket


def serve(
    host: str,
    port: int,
    db: str | Path | None,
    exports: str | Path | None = None,
    max_sessions: int = DEFAULT_MAX_SESSIONS,
) -> int:
    if not is_loopback(host):
        print(
            f"workbench: warning: {host} is not a loopback address: anyone who can reach "
            "it and has the URL with its token can use and edit this store",
            file=sys.stderr,
        )
    problem = port_problem(host, port)
    if problem is not None:
        print(f"workbench: error: {problem}", file=sys.stderr)
        return 1
    server = GuardedServer(serve_command(db, exports), host, port, max_sessions=max_sessions)
    print(f"Serving the workbench at {server.url} (Ctrl+C to stop)", flush=True)
    server.serve()
    return 0
