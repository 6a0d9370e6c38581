"""The migrations build exactly the models' schema, on SQLite and (when configured) Postgres,
and downgrade cleanly; `python -m app migrate` applies them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

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


@pytest.mark.parametrize("backend", BACKENDS)
async def test_matches_stored_before_get_random_public_ids(backend, tmp_path, monkeypatch):
    """The public ids migration gives every match already stored a random id of its own (URLs
    name matches by it) and counts it as public."""
    engine, cleanup = await _engine(backend, tmp_path, monkeypatch)
    try:
        await migrate.upgrade(engine, "3a6d2f9c8b14")
        async with engine.begin() as conn:
            for n in (1, 2, 3):
                await conn.execute(
                    text("INSERT INTO match (table_id, number, game) VALUES ('t1', :n, 'gaple')"),
                    {"n": n},
                )
        await migrate.upgrade(engine)
        async with engine.connect() as conn:
            rows = (await conn.execute(text("SELECT id, public_id, private FROM match"))).all()
        ids = [r.public_id for r in rows]
        assert len(rows) == 3 and len(set(ids)) == 3
        assert all(len(i) == 16 and not i.isdigit() for i in ids)
        assert not any(r.private for r in rows)
    finally:
        await cleanup()
