"""``python -m app migrate [--url URL] [--revision REV] [--downgrade REV]``: apply migrations.

The embedded default (SQLite) calls :func:`upgrade` itself at start-up; with Postgres this is a
separate one-shot step (the compose file runs it before the app replicas).
"""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.ext.asyncio import AsyncEngine

from .session import make_engine

ROOT = Path(__file__).resolve().parents[2]


def alembic_config() -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    return cfg


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    await _run(engine, command.upgrade, revision)


async def downgrade(engine: AsyncEngine, revision: str = "base") -> None:
    await _run(engine, command.downgrade, revision)


async def _run(engine: AsyncEngine, fn, revision: str) -> None:
    cfg = alembic_config()

    def go(sync_conn):
        cfg.attributes["connection"] = sync_conn
        fn(cfg, revision)

    async with engine.begin() as conn:
        await conn.run_sync(go)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app migrate", description=__doc__)
    parser.add_argument("--url", help="database URL (default: DATABASE_URL or embedded SQLite)")
    parser.add_argument("--revision", default="head", help="upgrade to this revision")
    parser.add_argument("--downgrade", metavar="REV", help="downgrade to REV instead")
    args = parser.parse_args(argv)

    async def run() -> None:
        engine = make_engine(args.url)
        try:
            if args.downgrade:
                await downgrade(engine, args.downgrade)
            else:
                await upgrade(engine, args.revision)
        finally:
            await engine.dispose()

    asyncio.run(run())
    print(
        f"database downgraded to {args.downgrade}"
        if args.downgrade
        else f"database migrated to {args.revision}"
    )
    return 0
