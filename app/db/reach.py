"""Reaching the database: the sessions type every service takes, and one error for "cannot be
reached right now" (HTTP 503 ``database_unavailable``, docs/api.md "Errors").

Play goes on while the database is down (docs/design.md "Persistence"): what needs it — sign-up,
a buy-in, the wallet, the history — answers :class:`Unavailable` and the client tries again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from datetime import UTC, datetime

from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

Sessions = async_sessionmaker[AsyncSession]
UNREACHABLE = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError, OSError)


class Unavailable(Exception):
    """The database could not be reached; ``message`` says what cannot be done."""

    code = "database_unavailable"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@contextlib.contextmanager
def reachable(what: str) -> Iterator[None]:
    """A database that cannot be reached inside is :class:`Unavailable`, saying that ``what``
    cannot be done right now."""
    try:
        yield
    except UNREACHABLE as err:
        raise Unavailable(f"{what} right now (database unreachable); try again shortly") from err


def iso(dt: datetime | None) -> str | None:
    """A stored time in ISO 8601 UTC (SQLite hands back naive UTC timestamps)."""
    if dt is None:
        return None
    return (dt if dt.tzinfo else dt.replace(tzinfo=UTC)).isoformat()
