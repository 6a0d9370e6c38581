"""Alembic environment (async). Run through ``python -m app migrate`` (app/db/migrate.py),
which hands over an open connection; the plain ``alembic`` command works too and then connects
to the configured DATABASE_URL itself. ``render_as_batch`` lets the same migrations alter
tables on SQLite."""

from __future__ import annotations

import asyncio

from alembic import context

from app.db.models import Base
from app.db.session import make_engine

target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_online() -> None:
    engine = make_engine(context.config.get_main_option("sqlalchemy.url") or None)
    try:
        async with engine.connect() as conn:
            await conn.run_sync(_run)
    finally:
        await engine.dispose()


connection = context.config.attributes.get("connection")
if context.is_offline_mode():
    raise SystemExit("offline (SQL script) migrations are not supported; use python -m app migrate")
elif connection is not None:
    _run(connection)
else:
    asyncio.run(_run_online())
