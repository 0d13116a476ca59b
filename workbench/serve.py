"""``workbench --serve``: the same app in a web browser, through textual-serve.

textual-serve starts one ``workbench`` process per browser tab and relays its terminal
over a websocket, so the browser shows exactly the terminal app, on the same store.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

__all__ = ["serve", "serve_command"]


def serve_command(db: str | Path | None) -> str:
    """The command each browser session runs: this Python, this package, this store."""
    parts = [sys.executable, "-m", "workbench"]
    if db is not None:
        parts += ["--db", str(Path(db).resolve())]
    return shlex.join(parts)


def serve(host: str, port: int, db: str | Path | None) -> int:
    from textual_serve.server import Server

    print(f"Serving the workbench at http://{host}:{port} (Ctrl+C to stop)")
    Server(serve_command(db), host=host, port=port, title="TOFS Workbench").serve()
    return 0
