"""The migrations build exactly the models' schema, on SQLite and (when configured) Postgres,
and downgrade cleanly; `python -m app migrate` applies them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.db import migrate
from app.db.models import Base
from tests.db import fixtures

BACKENDS = ["sqlite"] + (["postgres"] if fixtures.ON_PG else [])


async def _engine(backend, tmp_path, monkeypatch):
    monkeypatch.setattr(fixtures, "ON_PG", backend == "postgres")
    return await fixtures.new_engine(tmp_path, migrate=False)


def _diff(sync_conn):
    ctx = MigrationContext.configure(sync_conn, opts={"compare_type": True})
    return compare_metadata(ctx, Base.metadata)


def _tables(sync_conn):
    return set(inspect(sync_conn).get_table_names())


@pytest.mark.parametrize("backend", BACKENDS)
async def test_migrations_match_models_and_downgrade(backend, tmp_path, monkeypatch):
    engine, cleanup = await _engine(backend, tmp_path, monkeypatch)
    try:
        await migrate.upgrade(engine)
        async with engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
            assert await conn.run_sync(_tables) == set(Base.metadata.tables) | {"alembic_version"}
        await migrate.downgrade(engine, "base")
        async with engine.connect() as conn:
            assert await conn.run_sync(_tables) == {"alembic_version"}
        await migrate.upgrade(engine)
        async with engine.connect() as conn:
            assert await conn.run_sync(_diff) == []
    finally:
        await cleanup()


def test_python_m_app_migrate_creates_the_schema(tmp_path):
    url = f"sqlite:///{tmp_path}/cli.db"
    done = subprocess.run(
        [sys.executable, "-m", "app", "migrate", "--url", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    import sqlite3

    names = {
        r[0]
        for r in sqlite3.connect(tmp_path / "cli.db").execute(
            "select name from sqlite_master where type='table'"
        )
    }
    assert set(Base.metadata.tables) <= names
