"""Whole matches of every available game, played by real WebSocket clients (one per seat).

Each client picks among the legal actions of its own view. Afterwards the match is replayed
from its seed and the action log kept in Redis: the outcome the table reports must equal the
ruleset's outcome for the same seed and actions, and no message any seat or spectator received
may show a tile that recipient could not see at that version (O-2).
"""

from __future__ import annotations

import pytest

from app.games import registry
from tests.ws.client import check_replay, finish, match_over, start_match

SHORT = {"mexican_train": {"rounds": 4}}  # a whole match still, just fewer rounds


def seats_for(game: str) -> int:
    rs = registry.get_ruleset(game)
    return max(rs.min_seats, min(4, rs.max_seats))


@pytest.mark.parametrize("game", registry.available())
async def test_o2_full_match_over_websockets_matches_the_rules(live_server, game):
    srv = await live_server(seeds=lambda tid, m: 1000 + m, round_pause=60, rate_per_second=1e4)
    tid, clients, watcher = await start_match(srv, game, seats_for(game), SHORT.get(game))
    await finish(clients, watcher, match_over(1))
    doc = await check_replay(srv, tid, clients, watcher)
    assert doc["status"] == "over"
    for c in clients:
        assert c.latest["table"]["status"] == "over"
        assert c.latest["view"]["over"] is True
        await c.close()
    await watcher.close()
