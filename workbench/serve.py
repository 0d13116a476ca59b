"""``workbench --serve``: the same app in a web browser, through textual-serve.

textual-serve starts one ``workbench`` process per browser tab and relays its terminal
over a websocket, so the browser shows exactly the terminal app, on the same store.
"""

from __future__ import annotations

import errno
import shlex
import socket
import sys
from pathlib import Path

__all__ = ["serve", "serve_command"]


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


def serve(host: str, port: int, db: str | Path | None, exports: str | Path | None = None) -> int:
    problem = port_problem(host, port)
    if problem is not None:
        print(f"workbench: error: {problem}", file=sys.stderr)
        return 1
    from textual_serve.server import Server

    print(f"Serving the workbench at http://{host}:{port} (Ctrl+C to stop)")
    Server(serve_command(db, exports), host=host, port=port, title="TOFS Workbench").serve()
    return 0
