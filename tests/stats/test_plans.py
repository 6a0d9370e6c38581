"""On Postgres the profile and the boards read through their indexes, never a scan of the
totals (or of the matches): EXPLAIN over a few thousand players' totals."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.dialects import postgresql

from app.services import stats
from tests.db import fixtures

pytestmark = pytest.mark.skipif(not fixtures.ON_PG, reason="query plans are Postgres's")

SEED = """
INSERT INTO player (id, name, kind, session_epoch, created_at)
SELECT i, 'P' || i, CASE WHEN i % 50 = 0 THEN 'bot' ELSE 'guest' END, 0, now()
FROM generate_series(1, 3000) AS i;
INSERT INTO player_stat
SELECT p, g, w, 1 + p % 9, p % 5, p % 300, p % 700, p % 400, p % 6, p % 900, p % 4, p % 3
FROM generate_series(1, 3000) AS p,
     unnest(ARRAY['gaple', 'moon', 'cross', 'mexican_train']) AS g,
     unnest(ARRAY['all', '2026-11-09', '2026-11-16', '2026-11-23', '2026-11-30']) AS w
WHERE w = 'all' OR (p + length(w)) % 3 = 0;
ANALYZE player; ANALYZE player_stat;
"""


def _sql(stmt) -> str:
    return str(stmt.compile(dialect=postgresql.dialect(), compile_kwargs={"literal_binds": True}))


async def _plan(conn, stmt) -> str:
    rows = await conn.execute(text("EXPLAIN " + _sql(stmt)))
    return "\n".join(r[0] for r in rows)


async def test_profile_and_board_queries_use_their_indexes(engine):
    async with engine.begin() as conn:
        for statement in SEED.split(";"):
            if statement.strip():
                await conn.execute(text(statement))
    queries = {
        "player": (stats.profile_queries(1234)[0], "pk_player"),
        "totals": (stats.profile_queries(1234)[1], "pk_player_stat"),
        "daily": (stats.profile_queries(1234)[2], "pk_chip_claim"),
    }
    for game, metric in (
        ("gaple", "net_chips"),
        ("moon", "wins"),
        ("mexican_train", "average_score"),
    ):
        for period in ("all", "2026-11-30"):
            count, page = stats.board_queries(game, period, metric, 3, 7, 20)
            queries[f"{game} {period} total"] = (count, "ix_player_stat_board")
            queries[f"{game} {period} page"] = (page, "ix_player_stat_board")
    async with engine.connect() as conn:
        for name, (stmt, index) in queries.items():
            plan = await _plan(conn, stmt)
            assert index in plan, f"{name}:\n{plan}"
            assert "Seq Scan on player_stat" not in plan, f"{name}:\n{plan}"
