"""Whole matches of every available game, played by real WebSocket clients (one per seat).

Each client picks among the legal actions of its own view. Afterwards the match is replayed
from its seed and the action log kept in Redis: the outcome the table reports must equal the
ruleset's outcome for the same seed and actions, and no message any seat or spectator received
may show a tile that recipient could not see at that version (O-2).
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from app.games import registry
from tests.ws.client import SeatClient, audit_messages, match_over, register, states_by_version

SHORT = {"mexican_train": {"rounds": 4}}  # a whole match still, just fewer rounds


def seats_for(game: str) -> int:
    rs = registry.get_ruleset(game)
    return max(rs.min_seats, min(4, rs.max_seats))


async def start_match(srv, game: str, n: int, options: dict | None = None, spectator=True):
    """A table of ``n`` real clients (and a spectator), all connected before the deal."""
    async with httpx.AsyncClient(base_url=srv.url) as http:
        creds = [await register(http, f"Player {i}") for i in range(n)]
        r = await http.post("/api/tables", headers=creds[0][1],
                            json={"game": game, "seats": n, "options": options or {}})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        clients = [await SeatClient(srv.ws_url, tid, tok, seed=i).connect()
                   for i, (tok, _) in enumerate(creds)]
        watcher = await SeatClient(srv.ws_url, tid, None).connect() if spectator else None
        for i, (_, headers) in enumerate(creds):
            r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=headers)
            assert r.status_code == 200, r.text
    return tid, clients, watcher


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
