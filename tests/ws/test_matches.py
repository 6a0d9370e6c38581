"""Whole matches of every available game, played by real WebSocket clients (one per seat).

Each client picks among the legal actions of its own view. Afterwards the match is replayed
from its seed and the action log kept in Redis: the outcome the table reports must equal the
ruleset's outcome for the same seed and actions, and no message any seat or spectator received
may show a tile that recipient could not see at that version (O-2).
"""

from __future__ import annotations

import asyncio

import pytest

from app.games import registry
from tests.ws.client import audit_messages, match_over, start_match, states_by_version

SHORT = {"mexican_train": {"rounds": 4}}  # a whole match still, just fewer rounds


def seats_for(game: str) -> int:
    rs = registry.get_ruleset(game)
    return max(rs.min_seats, min(4, rs.max_seats))


async def finish(clients, watcher, done, timeout=90):
    async def watch():
        await watcher.until(done, timeout)

    await asyncio.gather(*(c.play(done, timeout) for c in clients),
                         *([watch()] if watcher else []))


async def check_replay(srv, tid: str, clients, watcher, match_no: int = 1) -> dict:
    store = srv.live.store
    snap = await store.load(tid)
    doc = snap.doc
    log = await store.action_log(tid, match_no)
    rs, states = states_by_version(doc["game"], doc["match_options"], len(doc["players"]),
                                   doc["seed"], log)
    final = states[max(states)]
    result = {k: v for k, v in doc["result"].items() if k != "winner_seat"}
    assert result == rs.outcome(final).to_json()
    for i, c in enumerate(clients):
        assert audit_messages(rs, states, c.messages, f"seat {i}") > 0
    if watcher:
        assert audit_messages(rs, states, watcher.messages, "spectator") > 0
    return doc


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
