"""Whole matches of every available game, played by real WebSocket clients (one per seat).

Each client picks among the legal actions of its own view. Afterwards the match is replayed
from its seed and the action log kept in Redis: the outcome the table reports must equal the
ruleset's outcome for the same seed and actions, and no message any seat or spectator received
may show a tile that recipient could not see at that version (O-2).
"""

from __future__ import annotations

import asyncio

import orjson
import pytest

from app.games import registry
from tests.ws.client import (
    audit_messages,
    check_replay,
    finish,
    match_over,
    start_match,
    states_by_version,
)

SHORT = {"mexican_train": {"rounds": 4}}  # a whole match still, just fewer rounds


def seats_for(game: str) -> int:
    rs = registry.get_ruleset(game)
    return max(rs.min_seats, min(4, rs.max_seats))


class Published:
    """Every payload published on the table channels, audited like a spectator's messages."""

    def __init__(self, pubsub=None):
        self.pubsub, self.payloads = pubsub, []
        self.task = asyncio.create_task(self._collect()) if pubsub else None

    async def _collect(self):
        async for msg in self.pubsub.listen():
            if msg["type"] == "pmessage":
                self.payloads.append(orjson.loads(msg["data"]))

    async def check(self, srv, tid: str) -> None:
        await asyncio.sleep(0.1)
        if self.task is not None:
            self.task.cancel()
            await self.pubsub.aclose()
        doc = (await srv.live.store.load(tid)).doc
        log = await srv.live.store.action_log(tid, 1)
        rs, states = states_by_version(
            doc["game"], doc["match_options"], len(doc["players"]), doc["seed"], log
        )
        versions = [p for p in self.payloads if "presence" not in p]
        assert all(p == {"t": p["t"], "presence": True} for p in self.payloads if p not in versions)
        # no view, no state ("o" names the process that wrote it)
        assert all(set(p) - {"o"} == {"t", "v", "e"} for p in versions)
        as_spectator = [
            {"type": "state", "v": p["v"], "view": {"seat": None}, "events": p["e"]}
            for p in versions
            if p["t"] == tid
        ]
        assert audit_messages(rs, states, as_spectator, "pub/sub") > 10


async def listen(srv) -> Published:
    """What is published on the table channels. A change is published only when another
    process watches its table: the test says it does, for every table the server watches.
    Shard channels (a cluster) have no patterns: there, what the hub hears of them and
    dispatches from its own writes (every version of a table it has sockets for)."""
    hub = srv.live.hub
    if hub.sharded:
        published, dispatch = Published(), hub._dispatch

        def heard(message):
            if "chat" not in message:
                published.payloads.append(message)
            dispatch(message)

        hub._dispatch = heard
        return published
    store, watching = srv.live.store, srv.live.store.watching

    async def also_the_test(tids, watched=True):
        await watching(tids, watched)
        for tid in tids:
            await srv.live.redis.sadd(store.keys.watchers(tid), "the-test")

    store.watching = also_the_test
    pubsub = srv.live.redis.pubsub()
    await pubsub.psubscribe(f"{srv.settings.key_prefix}t:*")
    return Published(pubsub)


@pytest.mark.parametrize("game", registry.available())
async def test_o2_full_match_over_websockets_matches_the_rules(live_server, game):
    srv = await live_server(seeds=lambda tid, m: 1000 + m, round_pause=60, rate_per_second=1e4)
    published = await listen(srv)
    tid, clients, watcher = await start_match(srv, game, seats_for(game), SHORT.get(game))
    await finish(clients, watcher, match_over(1))
    doc = await check_replay(srv, tid, clients, watcher)
    await published.check(srv, tid)
    assert doc["status"] == "over"
    for c in clients:
        assert c.latest["table"]["status"] == "over"
        assert c.latest["view"]["over"] is True
        await c.close()
    await watcher.close()
