"""Fixtures of the operations tests that start real server processes."""

from __future__ import annotations

import pytest

from tests.db.fixtures import new_database


@pytest.fixture
async def database(tmp_path):
    """The URL of a fresh database of the test's own, not migrated (the processes run the
    compose file's migrate command themselves)."""
    url, engine, cleanup = await new_database(tmp_path, migrate=False)
    await engine.dispose()
    yield url
    await cleanup()
