"""``/metrics`` (Prometheus text) counts what a real match on a live server did; ``/readyz``
answers 503 when the database cannot be reached while ``/healthz`` still says alive."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid

import httpx
import orjson
import websockets
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from app.metrics import Metrics
from app.services.wiring import consumer_numbers, shared_numbers
from app.store.keys import Keys
from app.store.outbox import OutboxConsumer
from app.store.tables import TableStore
from tests.monitor import monitored


async def scrape(srv) -> dict[tuple[str, tuple], float]:
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.get("/metrics")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for f in text_string_to_metric_families(r.text)
        for s in f.samples
    }


async def until(check, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while not (got := await check()):
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.1)
    return got


class Sock:
    def __init__(self, ws):
        self.ws, self.latest = ws, None

    async def recv(self) -> dict:
        msg = orjson.loads(await asyncio.wait_for(self.ws.recv(), 10))
        if msg["type"] == "state":
            self.latest = msg
        return msg

    async def act(self, v: int, action: dict) -> dict:
        cmd = uuid.uuid4().hex
        await self.ws.send(
            orjson.dumps({"type": "act", "cmd": cmd, "v": v, "action": action}).decode()
        )
        while True:
            msg = await self.recv()
            if msg.get("cmd") == cmd:
                return msg


async def test_metrics_count_sockets_actions_round_trips_refusals_and_timeouts(live_server):
    srv = await live_server(rate_per_second=1e4)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        tokens = []
        for i in range(2):
            r = await http.post("/api/players", json={"name": f"M{i}"})
            tokens.append(r.json()["token"])
        r = await http.post(
            "/api/tables",
            headers={"Authorization": f"Bearer {tokens[0]}"},
            json={"game": "gaple", "seats": 2, "options": {}, "turn_seconds": 2},
        )
        tid = r.json()["id"]
        socks = [
            Sock(
                await websockets.connect(
                    f"{srv.ws_url}/ws/tables/{tid}",
                    additional_headers={"Authorization": f"Bearer {t}"},
                )
            )
            for t in tokens
        ]
        watcher = await websockets.connect(f"{srv.ws_url}/ws/tables/{tid}")
        for i, t in enumerate(tokens):
            r = await http.post(
                f"/api/tables/{tid}/seats/{i}", headers={"Authorization": f"Bearer {t}"}
            )
            assert r.status_code == 200, r.text

    async def to_act() -> Sock | None:
        for s in socks:
            while s.latest is None or s.latest["view"] is None:
                await s.recv()
        v = max(s.latest["v"] for s in socks)
        for s in socks:
            while s.latest["v"] < v:
                await s.recv()
        return next(
            (
                s
                for s in socks
                if s.latest["view"]["to_act"] == s.latest["view"]["seat"]
                and s.latest["view"]["legal"]
            ),
            None,
        )

    acked = stale = 0
    while acked < 4:
        s = await to_act()
        v = s.latest["v"]
        reply = await s.act(v, s.latest["view"]["legal"][0])
        if reply["type"] == "ack":
            acked += 1
        else:  # a version (e.g. the deal's clock) was on its way: wait for it, then again
            assert reply["code"] == "stale", reply
            stale += 1
            while s.latest["v"] <= v:
                await s.recv()
    s = await to_act()
    reply = await s.act(s.latest["v"] - 1, s.latest["view"]["legal"][0])
    assert reply["code"] == "stale"
    stale += 1

    m = await scrape(srv)
    assert m[("meja_open_sockets", ())] == 3
    assert m[("meja_live_tables", ())] >= 1
    assert m[("meja_actions_total", (("by", "player"), ("game", "gaple")))] == acked
    assert m[("meja_action_seconds_count", (("game", "gaple"),))] == acked + stale
    assert m[("meja_action_refusals_total", (("code", "stale"),))] == stale
    trips = m[("meja_action_redis_round_trips_count", ())]
    assert trips == acked
    assert m[("meja_action_redis_round_trips_bucket", (("le", "2.0"),))] == trips  # DESIGN: <= 2
    for name in ("meja_outbox_backlog", "meja_outbox_pending", "meja_outbox_lag_seconds"):
        assert m[(name, ())] >= 0

    # Nobody moves: the turn clock (2 s) runs out and a timeout is applied and counted.
    await until(lambda: _timeouts(srv), timeout=30)
    # The consumer writes the match's outbox entries: the backlog drains to zero.
    await until(lambda: _backlog_empty(srv), timeout=30)
    for s in socks:
        await s.ws.close()
    await watcher.close()
    await until(lambda: _sockets(srv, 0))


async def _timeouts(srv) -> bool:
    return (await scrape(srv)).get(("meja_timeouts_total", (("game", "gaple"),)), 0) >= 1


async def _backlog_empty(srv) -> bool:
    m = await scrape(srv)
    return m[("meja_outbox_backlog", ())] == 0 and m[("meja_outbox_pending", ())] == 0


async def _sockets(srv, n: int) -> bool:
    return (await scrape(srv))[("meja_open_sockets", ())] == n


async def test_readyz_stays_200_and_says_degraded_when_the_database_is_unreachable(live_server):
    """Tables are served from Redis; the records wait in the outbox. A replica is not pulled
    from the load balancer for a database outage, and the metrics say what is down."""
    srv = await live_server(database_url="postgresql://postgres@127.0.0.1:1/nowhere")
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.get("/readyz")
        assert r.status_code == 200
        assert r.json() == {
            "ready": True,
            "redis": True,
            "database": False,
            "degraded": ["database"],
        }
        assert (await http.get("/healthz")).status_code == 200
    m = await scrape(srv)
    assert m[("meja_dependency_up", (("dependency", "database"),))] == 0
    assert m[("meja_dependency_up", (("dependency", "redis"),))] == 1


async def test_readyz_is_503_when_redis_is_unreachable(live_server, spare_redis):
    """Without Redis no table can be served: not ready."""
    srv = await live_server(redis_url=spare_redis)
    admin = Redis.from_url(spare_redis)
    with contextlib.suppress(RedisConnectionError):  # the server goes away mid-answer
        await admin.shutdown(nosave=True)
    await admin.aclose()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.get("/readyz")
    assert r.status_code == 503
    assert r.json()["ready"] is False and r.json()["degraded"] == ["redis"]


async def test_readyz_is_200_with_redis_and_database(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.get("/readyz")
    assert r.status_code == 200
    assert r.json() == {"ready": True, "redis": True, "database": True, "degraded": []}


async def test_a_scrape_sends_the_same_redis_commands_for_10_and_200_live_tables(spare_redis):
    """A scrape reads per-bucket counters, never a table or a stream: its commands do not grow
    with the tables, and its outbox numbers are exact (they match the streams themselves)."""
    redis = Redis.from_url(spare_redis)
    store = TableStore(redis, Keys("m:"), stream_len=50, command_ttl=60)

    async def write(entries: list[dict]) -> list[bool]:  # the database's side is not the point
        return [True] * len(entries)

    consumer = OutboxConsumer(redis, write, prefix="m:")
    metrics = Metrics()
    metrics.on_scrape(shared_numbers(metrics, store, consumer))
    metrics.read_at_scrape(consumer_numbers(consumer))
    value = metrics.registry.get_sample_value
    made, sent = 0, {}
    try:
        for n in (10, 200):
            for t in range(made, n):  # each table with two outbox entries
                entries = [orjson.dumps({"key": f"k{t}:{i}"}).decode() for i in (1, 2)]
                res = await store.cas(f"t{t}", 0, {"n": t}, events=[], live="+1", outbox=entries)
                assert res.status == "ok"
            made = n
            _, ran = await monitored(spare_redis, metrics.refresh)
            sent[n] = ran.names()
            assert not any("XLEN" in c and "outbox:dead" not in c for c in ran.sent)
            assert value("meja_live_tables") == n
            assert value("meja_outbox_backlog") == 2 * n == await consumer.backlog()
            assert value("meja_outbox_lag_seconds") > 0
        assert sent[10] == sent[200], (len(sent[10]), len(sent[200]))

        while await consumer.run_once(block_ms=10):
            pass
        await metrics.refresh()
        assert await consumer.backlog() == 0
        for name in ("meja_outbox_backlog", "meja_outbox_lag_seconds", "meja_outbox_pending"):
            assert value(name) == 0, name
    finally:
        await store.close()
        await redis.aclose()
