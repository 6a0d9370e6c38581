"""Lanes (app/store/lane.py) on real Redis servers: pipelined calls answered in order, an error
reply for its call only, a hung server timed out, a lost connection handed back to the client
without losing or doubling a move, one lane per cluster node."""

from __future__ import annotations

import asyncio
import signal

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.config import Settings
from app.store.connection import open_redis
from app.store.keys import Keys
from app.store.lane import Lane
from app.store.tables import TableStore
from tests.redis_server import RedisServer

ECHO = "return ARGV[1]"


def lane_of(url: str, timeout: float = 5.0) -> Lane:
    client = Redis.from_url(url)
    pool = client.connection_pool
    kwargs = {**pool.connection_kwargs, "socket_timeout": None, "socket_connect_timeout": 2}
    return Lane(lambda: pool.connection_class(**kwargs), timeout)


@pytest.fixture
def server(tmp_path):
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.proc.send_signal(signal.SIGCONT)
    server.kill()


async def test_calls_in_flight_together_each_get_their_own_reply(server):
    lane = lane_of(server.url)
    try:
        replies = await asyncio.gather(*(lane.call("EVAL", ECHO, 0, f"r{i}") for i in range(300)))
        assert replies == [f"r{i}".encode() for i in range(300)]
    finally:
        await lane.close()


async def test_an_error_reply_answers_its_call_and_the_lane_goes_on(server):
    lane = lane_of(server.url)
    try:
        ok1, bad, ok2 = await asyncio.gather(
            lane.call("EVAL", ECHO, 0, "a"),
            lane.call("EVAL", "return redis.error_reply('NOPE no such thing')", 0),
            lane.call("EVAL", ECHO, 0, "b"),
            return_exceptions=True,
        )
        assert (ok1, ok2) == (b"a", b"b")
        assert isinstance(bad, ResponseError) and "no such thing" in str(bad)
        assert await lane.call("EVAL", ECHO, 0, "c") == b"c"
    finally:
        await lane.close()


async def test_a_hung_server_fails_the_waiting_calls_in_time_and_the_lane_recovers(server):
    """SIGSTOP: the server takes the bytes and never answers. Every waiting call fails with
    redis-py's TimeoutError (a 503 for the API) after the lane's timeout, not never."""
    lane = lane_of(server.url, timeout=0.5)
    try:
        assert await lane.call("EVAL", ECHO, 0, "before") == b"before"
        server.proc.send_signal(signal.SIGSTOP)
        start = asyncio.get_running_loop().time()
        results = await asyncio.gather(
            *(lane.call("EVAL", ECHO, 0, str(i)) for i in range(5)), return_exceptions=True
        )
        waited = asyncio.get_running_loop().time() - start
        assert all(isinstance(r, RedisTimeoutError) for r in results), results
        assert 0.4 < waited < 3
        server.proc.send_signal(signal.SIGCONT)
        assert await lane.call("EVAL", ECHO, 0, "after") == b"after"  # a fresh connection
    finally:
        await lane.close()


async def test_a_lane_cut_mid_move_hands_it_to_the_client_and_it_lands_once(server):
    """The lane's connection is killed while a move waits for its reply (Redis holds it:
    CLIENT PAUSE). The store sends it again through the client's own call; the move is
    written once, and the table is re-read for the sockets (the lane's write might have been
    applied)."""
    async with open_redis(Settings(redis_url=server.url)) as redis:
        store = TableStore(redis, Keys("lane:"), stream_len=10, command_ttl=60)
        unsure: list[str] = []
        store.on_unsure = unsure.append
        try:
            assert (await store.cas("t1", 0, {"n": 0}, events=[])).status == "ok"
            admin = Redis.from_url(server.url)
            lanes = [c for c in await admin.client_list() if c["name"] == "meja-lane"]
            assert len(lanes) == 1
            await admin.client_pause(400, all=False)  # writes wait, reads go on
            move = asyncio.create_task(store.cas("t1", 1, {"n": 1}, events=[], cmd=(7, "m1")))
            await asyncio.sleep(0.1)
            await admin.client_kill_filter(_id=lanes[0]["id"])
            res = await move
            assert (res.status, res.v) == ("ok", 2)
            assert unsure == ["t1"]
            assert (await store.load("t1")).doc == {"n": 1}
            again = await store.cas("t1", 1, {"n": 1}, events=[], cmd=(7, "m1"))
            assert (again.status, again.v) == ("dup", 2)  # the resend is the same move
            await admin.aclose()
        finally:
            await store.close()


async def test_each_cluster_node_has_its_own_lane(live_redis, live_prefix, redis_mode):
    """A Redis Cluster: a lane per node holding tables, so a failing node holds up only its
    own tables' moves (tests/ops/test_failover.py kills one for real)."""
    if redis_mode != "cluster":
        pytest.skip("a Redis Cluster's nodes")
    assert isinstance(live_redis, RedisCluster)
    store = TableStore(live_redis, Keys(live_prefix), stream_len=10, command_ttl=60)
    try:
        nodes = set()
        tids = [f"t{i}" for i in range(40)]
        for tid in tids:
            nodes.add(live_redis.get_node_from_key(store.keys.table(tid)).name)
        results = await asyncio.gather(*(store.cas(t, 0, {"t": t}, events=[]) for t in tids))
        assert all(r.status == "ok" for r in results)
        assert set(store.lanes) == nodes and len(nodes) == 3
    finally:
        await store.close()
