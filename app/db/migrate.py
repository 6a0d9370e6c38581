"""``python -m app migrate [--url URL] [--revision REV] [--downgrade REV]``: apply migrations;
``python -m app migrate status [--url URL]``: the database's revision and the code's head.

The embedded default (SQLite) calls :func:`upgrade` itself at start-up; with Postgres this is a
separate one-shot step (the compose file runs it before the app replicas). ``status`` answers
"is this database migrated for this build?" before a roll-out, without changing anything.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import click
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
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


@click.group(invoke_without_command=True)
@click.option("--url", help=URL_HELP)
@click.option("--revision", default="head", show_default=True, help="upgrade to this revision")
@click.option("--downgrade", "down_to", metavar="REV", help="downgrade to REV instead")
@click.pass_context
def migrate(ctx: click.Context, url: str | None, revision: str, down_to: str | None) -> None:
    """Apply the database migrations (Alembic); 'migrate status' says where they stand."""
    if ctx.invoked_subcommand is not None:
        return

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


async def current_revisions(engine: AsyncEngine) -> tuple[str, ...]:
    """The revisions the database is at (Alembic's version table); empty when never migrated."""

    def read(sync_conn) -> tuple[str, ...]:
        return MigrationContext.configure(sync_conn).get_current_heads()

    async with engine.connect() as conn:
        return await conn.run_sync(read)


def head_revisions() -> tuple[str, ...]:
    """The newest revisions of migrations/ (one, unless the history has branches)."""
    return tuple(ScriptDirectory.from_config(alembic_config()).get_heads())


@migrate.command()
@click.option("--url", help=URL_HELP)
def status(url: str | None) -> None:
    """Print the database's current revision and the head revision of this build's migrations."""

    async def run() -> tuple[str, ...]:
        engine = make_engine(url)
        try:
            return await current_revisions(engine)
        finally:
            await engine.dispose()

    current, heads = asyncio.run(run()), head_revisions()
    click.echo(f"current: {', '.join(current) or 'none (never migrated)'}")
    click.echo(f"head:    {', '.join(heads)}")
    click.echo("up to date" if set(current) == set(heads) else "behind: run python -m app migrate")
