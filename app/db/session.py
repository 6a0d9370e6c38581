"""Engines and sessions for Postgres (asyncpg) and SQLite (aiosqlite) from one URL.

A plain ``postgresql://`` URL is given the asyncpg driver, ``sqlite:///`` aiosqlite. An optional
``schema`` (or ``?search_path=<schema>`` in the URL) puts every table in a Postgres schema, which
is how tests share one database without colliding.

Postgres: the pool's size, overflow, timeout and recycle come from the settings
(``database_pool_*``). With ``database_pgbouncer`` (PgBouncer in transaction mode) every
statement is an anonymous prepared statement, parsed again when it runs: asyncpg's statement
cache off (``statement_cache_size=0``), SQLAlchemy's too (``prepared_statement_cache_size=0``)
and no statement named (SQLAlchemy's asyncpg notes, "Prepared Statement Name with PGBouncer").
A named statement lives on the server connection it was prepared on, which the pooler then
hands to another client: "prepared statement __asyncpg_stmt_1__ already exists". PgBouncer
before 1.20 refuses a ``search_path`` startup parameter, so a schema behind it is the role's
or the database's default, not ``?search_path=``.

SQLite: every transaction starts with ``BEGIN IMMEDIATE``, so a transaction that reads a wallet
and then debits it holds the write lock from its first statement: writers serialise (waiting up
to the busy timeout) instead of failing with "database is locked" on the upgrade. That is
SQLite's equivalent of Postgres's ``SELECT ... FOR UPDATE`` on the wallet row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncEngine,
    AsyncSession,
    async_sessionmaker,
    create_async_engine,
)

from app.config import Settings, get_settings

DEFAULT_URL = "sqlite+aiosqlite:///./var/meja.db"
BUSY_TIMEOUT_MS = 30_000


def normalize_url(url: str | None) -> str:
    """The async form of a database URL (None: the embedded SQLite default)."""
    url = url or DEFAULT_URL
    for plain, driver in (
        ("postgresql://", "postgresql+asyncpg://"),
        ("postgres://", "postgresql+asyncpg://"),
        ("sqlite://", "sqlite+aiosqlite://"),
    ):
        if url.startswith(plain):
            return driver + url[len(plain) :]
    return url


def configured_url() -> str:
    """DATABASE_URL (or MEJA_DATABASE_URL) from the settings; the embedded SQLite default."""
    return normalize_url(get_settings().database_url)


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(
    url: str | None = None, *, schema: str | None = None, settings: Settings | None = None, **kw
) -> AsyncEngine:
    """An engine for ``url`` (the configured one by default); Postgres's pool as ``settings``
    (the process's by default) say."""
    url = normalize_url(url or configured_url())
    parsed = make_url(url)
    kw = {"json_serializer": _json_text, "json_deserializer": orjson.loads} | kw
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **kw)
        _sqlite_pragmas(engine)
        return engine
    in_url = parsed.query.get("search_path")  # ...?search_path=<schema> in a URL
    schema = schema or (in_url if isinstance(in_url, str) else None)
    parsed = parsed.difference_update_query(["search_path"])
    connect_args: dict[str, Any] = {"server_settings": {"search_path": schema}} if schema else {}
    settings = settings or get_settings()
    if settings.database_pgbouncer:
        connect_args |= {
            "statement_cache_size": 0,
            "prepared_statement_cache_size": 0,
            "prepared_statement_name_func": _anonymous,
        }
    pool = {
        "pool_size": settings.database_pool_size,
        "max_overflow": settings.database_max_overflow,
        "pool_timeout": settings.database_pool_timeout,
        "pool_recycle": settings.database_pool_recycle,
    }
    return create_async_engine(parsed, connect_args=connect_args, pool_pre_ping=True, **(pool | kw))


def _json_text(value: Any) -> str:
    """JSON columns (records, details, options) written with orjson rather than the standard
    library's encoder, which took a share of the outbox consumer's CPU; keys that are not
    strings become strings, as ``json.dumps`` made them."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def _anonymous() -> str:
    """The unnamed prepared statement: replaced by the next one, never left on a server."""
    return ""


def _sqlite_pragmas(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # we emit BEGIN ourselves, below
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cur.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def make_sessionmaker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)
