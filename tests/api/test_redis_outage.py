"""Redis away, for real: a redis-server of the test's own is killed with SIGKILL mid-test, or
turned into a node that refuses writes the way a failing-over or full one does. Players get
503 ``redis_unavailable`` in the one error body (never a 500), sockets are closed with 1013
``redis_unavailable``, ``/readyz`` says Redis is down, the clock sweeper logs one line and
backs off, a sign-up leaves neither a player nor a grant behind, and everything works again
once Redis is back (app/store/outage.py)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging

import httpx
import pytest
import websockets
from redis.asyncio import Redis
from redis.exceptions import (
    AskError,
    BusyLoadingError,
    ClusterCrossSlotError,
    ClusterDownError,
    ClusterError,
    DataError,
    MasterDownError,
    MaxConnectionsError,
    MovedError,
    NoScriptError,
    OutOfMemoryError,
    ReadOnlyError,
    ResponseError,
    SlotNotCoveredError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy import func, select

from app.db.models import AuthSession, LedgerTxn, Player
from app.services import money
from app.store.outage import REDIS_DOWN
from tests.redis_server import RedisServer
from tests.ws.client import register

NO_SIGN_UP_LIMITS = {
    "limit_signup_address": "",
    "limit_register_address": "",
    "limit_register_player": "",
}


@pytest.fixture
def own_redis(tmp_path):
    server = RedisServer(tmp_path / "redis").start()
    yield server
    server.kill()


def unavailable(r: httpx.Response) -> None:
    """503 ``redis_unavailable`` in the API's one error body, saying when to try again."""
    assert r.status_code == 503, r.text
    body = r.json()
    assert body["code"] == "redis_unavailable" and body["detail"] and body["request_id"], body
    assert r.headers["retry-after"].isdigit()


async def until(check, timeout: float = 20):
    """Wait for ``check()`` (awaited when it is a coroutine) to be truthy (a condition, not a
    sleep); its value."""
    async with asyncio.timeout(timeout):
        while True:
            found = check()
            if inspect.isawaitable(found):
                found = await found
            if found:
                return found
            await asyncio.sleep(0.05)


async def count(srv, model) -> int:
    async with srv.live.db() as session:
        return (await session.execute(select(func.count()).select_from(model))).scalar_one()


async def closed_with(ws) -> tuple[int | None, str | None]:
    """Read until the server closes the socket; its close code and reason."""
    with pytest.raises(websockets.ConnectionClosed):
        async with asyncio.timeout(20):
            while True:
                await ws.recv()
    return ws.close_code, ws.close_reason


async def test_redis_killed_answers_503_closes_sockets_backs_off_and_recovers(
    live_server, own_redis, caplog
):
    srv = await live_server(redis_url=own_redis.url, sweep_interval=0.05)
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        token, auth = await register(http, "Sari")
        r = await http.post(
            "/api/tables", headers=auth, json={"game": "cross", "seats": 2, "sit": {}}
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        url = f"{srv.ws_url}/ws/tables/{tid}"
        bearer = {"Authorization": f"Bearer {token}"}
        playing = await websockets.connect(url, additional_headers=bearer)
        assert (await playing.recv()).startswith('{"type":"state"')

        caplog.set_level(logging.INFO, logger="app.store.clocks")
        own_redis.kill()
        unavailable(await http.get("/api/tables"))
        unavailable(await http.post("/api/tables", headers=auth, json={"game": "cross"}))
        unavailable(await http.post("/api/players", json={"name": "Budi"}))
        r = await http.get("/readyz")
        assert r.status_code == 503 and r.json()["redis"] is False, r.text
        # an open socket whose message needs Redis, and a new one, are closed with 1013 (the
        # open one may be closed already: its presence refresh needs Redis too)
        with contextlib.suppress(websockets.ConnectionClosed):
            await playing.send('{"type":"sync","v":0}')
        assert await closed_with(playing) == (1013, "redis_unavailable")
        fresh = await websockets.connect(url, additional_headers=bearer)
        assert await closed_with(fresh) == (1013, "redis_unavailable")

        # the sweeper (every 0.05 s when well) said so once and now waits longer and longer
        sweeper = srv.live.sweeper
        await until(lambda: sweeper.delay >= 1.6)
        assert sweeper.delay <= sweeper.backoff_max
        lines = sweeper_lines(caplog)
        assert [r.levelname for r in lines] == ["WARNING"], [r.getMessage() for r in lines]
        assert "Redis unavailable" in lines[0].getMessage() and lines[0].exc_info is None

        own_redis.start()  # the same port and its append-only file: the table is still there
        await until(lambda: ready(http))
        await until(lambda: sweeper.delay == sweeper.interval, timeout=15)
        assert [r.getMessage() for r in sweeper_lines(caplog)][1:] == ["clock sweep: Redis is back"]
        r = await until(lambda: lobby(http))
        assert [t["id"] for t in r.json()["items"]] == [tid]
        # what holds its own connection reconnects on its own retry (the pub/sub listener every
        # 0.5 s, app/store/hub.py), not when the lobby answers: a socket opened before then may
        # be answered 1013 and reconnects, as the page does (once in a loaded CI run)
        again = await until(lambda: socket_with_state(url, bearer), timeout=5)
        await again.close()


async def socket_with_state(url: str, headers: dict):
    """A socket to the table that received its state, or None when the server answered
    1013 ``redis_unavailable`` instead."""
    ws = await websockets.connect(url, additional_headers=headers)
    try:
        first = await ws.recv()
    except websockets.ConnectionClosed:
        assert (ws.close_code, ws.close_reason) == (1013, "redis_unavailable")
        return None
    assert first.startswith('{"type":"state"'), first
    return ws


def sweeper_lines(caplog) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "app.store.clocks"]


async def ready(http: httpx.AsyncClient) -> bool:
    return (await http.get("/readyz")).status_code == 200


async def lobby(http: httpx.AsyncClient) -> httpx.Response | None:
    r = await http.get("/api/tables")
    return r if r.status_code == 200 else None


async def test_a_sign_up_that_cannot_reach_redis_leaves_no_player_and_no_grant(
    live_server, own_redis
):
    """The rate limits are off, so the sign-up's first Redis call is the player's cache: it
    comes after the database writes, inside their transaction, and its failure undoes them."""
    srv = await live_server(redis_url=own_redis.url, **NO_SIGN_UP_LIMITS)
    own_redis.kill()
    async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
        unavailable(await http.post("/api/players", json={"name": "Sari"}))
        account = {"username": "budi", "password": "kopi-tubruk-77"}
        unavailable(await http.post("/api/accounts", json=account))
        assert "set-cookie" not in (await http.post("/api/players", json={"name": "Ayu"})).headers
        assert [await count(srv, m) for m in (Player, LedgerTxn, AuthSession)] == [0, 0, 0]

        own_redis.start()
        await until(lambda: ready(http))
        r = await until(lambda: signed_up(http, account))
        me = r.json()["player"]
    assert [await count(srv, m) for m in (Player, LedgerTxn, AuthSession)] == [1, 2, 1]
    view = await money.wallet(srv.live.db, me["id"])
    assert view.balance == srv.settings.starting_balance + srv.settings.welcome_grant


async def signed_up(http: httpx.AsyncClient, account: dict) -> httpx.Response | None:
    r = await http.post("/api/accounts", json=account)
    return r if r.status_code == 201 else None


async def refusing(mode: str, tmp_path) -> tuple[str, list[RedisServer]]:
    """A real redis-server that refuses the app's writes as ``mode`` says; (url, servers)."""
    node = RedisServer(tmp_path / "node", *CLUSTER_NODE if mode != "oom" else ()).start()
    servers = [node]
    admin = Redis.from_url(node.url)
    if mode == "oom":  # full, with noeviction: "OOM command not allowed"
        await admin.config_set("maxmemory-policy", "noeviction")
        await admin.config_set("maxmemory", "1")
    elif mode == "moved":  # every slot is another node's: "MOVED <slot> <host:port>"
        owner = RedisServer(tmp_path / "owner", *CLUSTER_NODE).start()
        servers.append(owner)
        other = Redis.from_url(owner.url)
        await other.execute_command("CLUSTER", "ADDSLOTSRANGE", 0, 16383)
        await admin.execute_command("CLUSTER", "MEET", "127.0.0.1", owner.port)
        await until(lambda: cluster_ok(admin))
        await other.aclose()
    # "clusterdown": a Cluster node that serves no slot, "CLUSTERDOWN Hash slot not served"
    await admin.aclose()
    return node.url, servers


CLUSTER_NODE = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")


async def cluster_ok(admin: Redis) -> bool:
    info = (await admin.execute_command("CLUSTER", "INFO")).decode()
    return "cluster_state:ok" in info


async def replica_of_another(tmp_path) -> tuple[str, list[RedisServer]]:
    """A node being failed over away from: a replica, so every write is READONLY."""
    primary = RedisServer(tmp_path / "primary").start()
    replica = RedisServer(tmp_path / "replica").start()
    admin = Redis.from_url(replica.url)
    await admin.execute_command("REPLICAOF", "127.0.0.1", primary.port)
    await until(lambda: linked(admin))
    await admin.aclose()
    return replica.url, [primary, replica]


async def linked(admin: Redis) -> bool:
    return (await admin.info("replication")).get("master_link_status") == "up"


@pytest.mark.parametrize("mode", ["readonly", "oom", "clusterdown", "moved"])
async def test_a_node_that_refuses_writes_answers_503_never_500(live_server, tmp_path, mode):
    """READONLY (a replica mid-failover), OOM (full), CLUSTERDOWN and MOVED from real servers:
    each is 503 ``redis_unavailable``; before, each was a ResponseError and a 500."""
    if mode == "readonly":
        url, servers = await replica_of_another(tmp_path)
    else:
        url, servers = await refusing(mode, tmp_path)
    try:
        srv = await live_server(redis_url=url)
        async with httpx.AsyncClient(base_url=srv.url, timeout=30) as http:
            unavailable(await http.post("/api/players", json={"name": "Sari"}))
        assert await count(srv, Player) == 0
    finally:
        for server in servers:
            server.kill()


OUTAGES = [
    RedisConnectionError,
    RedisTimeoutError,
    BusyLoadingError,
    MaxConnectionsError,
    ClusterError,
    ClusterDownError,
    MasterDownError,
    MovedError,
    AskError,
    TryAgainError,
    SlotNotCoveredError,
    ReadOnlyError,
    OutOfMemoryError,
]


def test_the_one_mapping_covers_redis_py_cluster_and_failover_errors():
    """What redis-py raises for a node that is down, failing over or resharding (the Cluster
    client follows MOVED and ASK itself and raises them, or ClusterError, once its retries are
    spent) is an outage; a script's own error or a cross-slot command is a bug (500)."""
    assert [e for e in OUTAGES if not issubclass(e, REDIS_DOWN)] == []
    bugs = [ResponseError, NoScriptError, DataError, ClusterCrossSlotError]
    assert [e for e in bugs if issubclass(e, REDIS_DOWN)] == []
