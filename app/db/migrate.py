"""``python -m app migrate [--url URL] [--revision REV] [--downgrade REV]``: apply migrations.

The embedded default (SQLite) calls :func:`upgrade` itself at start-up; with Postgres this is a
separate one-shot step (the compose file runs it before the app replicas).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
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


URL_HELP = "database URL  [default: DATABASE_URL, else the embedded SQLite file]"


@click.command()
@click.option("--url", help=URL_HELP)
@click.option("--revision", default="head", show_default=True, help="upgrade to this revision")
@click.option("--downgrade", "down_to", metavar="REV", help="downgrade to REV instead")
def migrate(url: str | None, revision: str, down_to: str | None) -> None:
    """Apply the database migrations (Alembic)."""

    async def run() -> None:
        engine = make_engine(url)
        try:
            if down_to:
                await downgrade(engine, down_to)
            else:
                await upgrade(engine, revision)
        finally:
            await engine.dispose()

    asyncio.run(run())
    click.echo(
        f"database downgraded to {down_to}" if down_to else f"database migrated to {revision}"
    )
