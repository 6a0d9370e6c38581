"""The hub on a real Redis (one server and the cluster): a process's own change reaches its
sockets from the script's reply, once; another process's from its publication."""

from __future__ import annotations

import asyncio

import orjson
import pytest

from app.store.hub import Hub
from app.store.keys import Keys
from app.store.tables import NotReplicated, TableStore


@pytest.fixture
async def hub(live_redis, live_prefix):
    keys = Keys(live_prefix)
    store = TableStore(live_redis, keys, stream_len=10, command_ttl=60, wait_ms=50)
    got: list[dict] = []

    async def deliver(tid, message, socks):
        got.append(message)

    hub = Hub(live_redis, keys, store, deliver)
    hub.got = got
    await hub.start()
    await hub.join("t1", object())  # a socket of this process watches the table
    yield hub
    await hub.stop()
    await store.close()


def another_process(hub: Hub) -> TableStore:
    other = TableStore(hub.redis, hub.keys, stream_len=10, command_ttl=60)
    other.origin, other.sharded = "another-process", hub.sharded
    return other


async def test_its_own_change_is_dispatched_from_the_reply_and_its_echo_skipped(hub):
    await hub.store.cas("t1", 0, {"a": 1}, events=[{"type": "created"}])
    other = another_process(hub)
    await other.cas("t1", 1, {"a": 2}, events=[{"type": "moved"}])
    await other.close()
    await asyncio.sleep(0.3)  # room for the echo of the first, had it not been skipped
    assert hub.got == [
        {"t": "t1", "v": 1, "e": [{"type": "created"}]},
        {"t": "t1", "v": 2, "o": "another-process", "e": [{"type": "moved"}]},
    ]


async def test_a_change_written_without_its_acknowledgement_is_read_again(hub, redis_mode):
    if redis_mode == "single":
        pytest.skip("one server here has no replica, so WAIT is skipped (test_cluster.py)")
    hub.store.wait_replicas = 5  # more than the test cluster's masters have: never enough
    with pytest.raises(NotReplicated):
        await hub.store.cas("t1", 0, {"a": 1}, events=[{"type": "created"}])
    await asyncio.sleep(0.3)
    # its echo was ours (skipped): the table's version read again, the fan-out reads the events
    assert hub.got == [{"t": "t1", "v": 1}]


async def test_a_change_is_published_only_while_another_process_watches_its_table(hub, redis_mode):
    """A table whose sockets are all on its writer's process (the proxy sends a table's
    sockets to one replica) costs no publication; another process that watches it gets every
    change from then on, until it stops watching."""
    if redis_mode == "cluster":
        pytest.skip("a plain subscription (a cluster's are shard channels)")
    pubsub = hub.redis.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(hub.keys.channel("t1"))

    async def published() -> list[int]:
        out = []
        while (msg := await pubsub.get_message(timeout=0.3)) is not None:
            out.append(orjson.loads(msg["data"])["v"])
        return out

    other = another_process(hub)
    await hub.store.cas("t1", 0, {"a": 1}, events=[])
    assert await published() == []  # only its writer watches it
    await other.watching(["t1"])
    await hub.store.cas("t1", 1, {"a": 2}, events=[])
    assert await published() == [2]
    await other.watching(["t1"], False)
    await hub.store.cas("t1", 2, {"a": 3}, events=[])
    assert await published() == []
    assert hub.got == [{"t": "t1", "v": v, "e": []} for v in (1, 2, 3)]  # all dispatched here
    await pubsub.aclose()
    await other.close()
