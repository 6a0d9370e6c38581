"""Three server processes on a Redis Cluster (3 masters, 3 replicas), started as the image
starts them, with each Gaple table's four sockets spread over all three: the way an operator
runs Meja past one machine (docs/operations/cluster.md, docs/scaling.md).

- Fresh processes: the players sign up, sit and open their sockets all at once, the moment
  the processes are ready, so each process's first subscriptions to a node arrive together.
  Every table plays whole rounds with no turn clock running out: every change made through
  one process reaches the sockets on the others.
- A master killed with SIGKILL mid-play (the one holding slot 0, redis-py's first node, with
  ``MEJA_REDIS_WAIT_REPLICAS=1``; another one without): no 5xx anywhere (REST polled on every
  process meanwhile, and the logs), no turn clock ran out, every table moves again within
  ``cluster-node-timeout`` + 10 s, the tables of the other masters never stop for longer than
  a couple of seconds, and with the setting every acknowledged move is still there.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import uuid

import httpx
import orjson
import pytest
import websockets
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from app.store.keys import Keys
from tests.cluster import NODE_TIMEOUT_MS, LocalCluster
from tests.ops.test_scale_out import Server, migrate, server_env

pytestmark = pytest.mark.slow

PROCESSES = 3
PER_MASTER = 3  # tables per master
MOVE_PAUSE = 0.05  # s: players think a little
STALL = 3.0  # s: the longest a table of a healthy master may go without a new version
# Every player connects from 127.0.0.1: the address is exempt from the per-address limits
# (MEJA_RATE_LIMIT_EXEMPT, as bench/services.py), and the owner's limit on creating tables is
# off (one player opens them all).
NO_ADDRESS_LIMITS = {
    "MEJA_RATE_LIMIT_EXEMPT": '["127.0.0.0/8"]',
    "MEJA_LIMIT_CREATE_TABLE_PLAYER": "",
}


class Seat:
    """One player's socket on one process: plays random legal moves from its own view, asks
    for the next round (O-6), reconnects to its process when closed and resends the command in
    flight (the same id: answered from its first result, as static/js/socket.js does). Keeps
    what a test needs: acks, errors, close codes, timeouts seen, when each version arrived."""

    def __init__(self, server: Server, tid: str, pid: int, token: str, seed: int):
        self.server, self.tid, self.pid, self.token = server, tid, pid, token
        self.rng = random.Random(seed)
        self.latest: dict | None = None
        self.acted_v = -1
        self.pending: tuple[str, int, dict] | None = None
        self.acks: list[tuple[str, int]] = []  # (command id, version)
        self.errors: list[str] = []
        self.closes: list[int | None] = []
        self.timeouts = 0  # "timeout" events seen: a turn clock ran out
        self.arrivals: list[tuple[float, int]] = []  # (monotonic time, version)
        self.ws = None

    async def connect(self) -> None:
        since = f"?v={self.latest['v']}" if self.latest else ""
        deadline = time.monotonic() + 30
        while True:
            try:
                self.ws = await websockets.connect(
                    f"{self.server.ws_url}/ws/tables/{self.tid}{since}",
                    additional_headers={"Authorization": f"Bearer {self.token}"},
                )
                return
            except (OSError, websockets.InvalidStatus):
                assert time.monotonic() < deadline, f"{self.server.name} refused the socket"
                await asyncio.sleep(0.2)

    async def play(self, done) -> None:
        while not (self.latest and done(self.latest)):
            try:
                if self.ws is None:  # closed: back on the same process (1013: after a while)
                    await asyncio.sleep(0.5)
                    await self.connect()
                    if self.pending:
                        await self._send()
                await self._step()
            except websockets.ConnectionClosed as closed:
                self.closes.append(closed.rcvd.code if closed.rcvd else None)
                self.ws = None

    async def _step(self) -> None:
        m = self.latest
        view, table = (m["view"], m["table"]) if m else (None, None)
        mine = view and view["legal"] and view["to_act"] == view["seat"]
        you = table and table.get("you")
        waited = you is not None and table.get("pause") and you not in table["pause"]["ready"]
        if (mine or waited) and m["v"] > self.acted_v and not self.pending:
            await asyncio.sleep(MOVE_PAUSE)
            self.acted_v = m["v"]
            action = {"kind": "ready"} if waited else self.rng.choice(view["legal"])
            self.pending = (uuid.uuid4().hex, m["v"], action)
            await self._send()
        self._take(orjson.loads(await asyncio.wait_for(self.ws.recv(), 60)))

    async def _send(self) -> None:
        cmd, v, action = self.pending
        await self.ws.send(
            orjson.dumps({"type": "act", "cmd": cmd, "v": v, "action": action}).decode()
        )

    def _take(self, msg: dict) -> None:
        if msg["type"] == "state":
            self.arrivals.append((time.monotonic(), msg["v"]))
            self.timeouts += sum(e.get("type") == "timeout" for e in msg.get("events", ()))
            if self.latest is None or msg["v"] >= self.latest["v"]:
                self.latest = msg
        elif msg["type"] == "ack":
            if self.pending and msg["cmd"] == self.pending[0]:
                self.acks.append((msg["cmd"], msg["v"]))
                self.pending = None
        elif msg["type"] == "error":
            self.errors.append(msg["code"])
            if msg["code"] == "redis_unavailable":  # not (yet) safe: resent by the next step
                self.acted_v = -1
                self.pending = None
            else:
                assert msg["code"] == "stale", msg  # only a crossing move may refuse ours
                self.pending = None


async def monitored(host: str, port: int, seconds: float) -> list[str]:
    """The commands clients sent one node for ``seconds`` (MONITOR; scripts' own left out)."""
    node, sent = Redis(host=host, port=port), []
    try:
        async with node.monitor() as m:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(seconds):
                    while True:
                        info = await m.next_command()
                        if info.get("client_type") != "lua":
                            sent.append(info["command"])
    finally:
        await node.aclose()
    return sent


def rounds_played(n: int):
    """The table has dealt round ``n + 1`` (Gaple deals round after round, G-12)."""
    return lambda m: m["table"]["match_no"] > n


class Deployment:
    def __init__(
        self, tmp_path, database, prefix: str, node_timeout_ms=NODE_TIMEOUT_MS, **settings: str
    ):
        self.cluster = LocalCluster(tmp_path, node_timeout_ms=node_timeout_ms)
        self.keys = Keys(prefix)
        self.env = server_env(
            self.cluster.url,
            database,
            prefix,
            tmp_path,
            MEJA_REDIS_MODE="cluster",
            MEJA_LOG_LEVEL="info",
            **NO_ADDRESS_LIMITS,
            **settings,
        )
        self.tmp_path = tmp_path
        self.servers: list[Server] = []
        self.seats: dict[str, list[Seat]] = {}
        self.redis: RedisCluster | None = None

    async def start(self) -> None:
        """The cluster and the one-shot migration at once (neither needs the other), then the
        processes."""
        await asyncio.gather(
            asyncio.to_thread(self.cluster.start), asyncio.to_thread(migrate, self.env)
        )
        self.servers = [Server(f"P{i}", self.env, self.tmp_path).start() for i in range(PROCESSES)]
        await asyncio.gather(*(s.ready() for s in self.servers))
        self.redis = RedisCluster.from_url(self.cluster.url)
        await self.redis.initialize()

    def master_of(self, tid: str) -> int:
        return self.redis.get_node_from_key(self.keys.table(tid)).port

    def slot0_master(self) -> int:
        return self.redis.nodes_manager.slots_cache[0][0].port

    async def tables(self, per_master: int) -> None:
        """Create tables until each master has ``per_master`` of them, then everyone signs up,
        sits and connects at once; seat i of table t on process (i + t) % 3."""
        async with httpx.AsyncClient(base_url=self.servers[0].url, timeout=30) as http:
            owner = (await http.post("/api/players", json={"name": "Pemilik"})).json()
            auth = {"Authorization": f"Bearer {owner['token']}"}
            by_master: dict[int, list[str]] = {}
            while (
                min((len(v) for v in by_master.values()), default=0) < per_master
                or len(by_master) < len(self.cluster.procs) // 2
            ):
                r = await http.post(
                    "/api/tables",
                    headers=auth,
                    json={"game": "gaple", "seats": 4, "options": {"stake": 10}},
                )
                assert r.status_code == 201, r.text
                by_master.setdefault(self.master_of(r.json()["id"]), []).append(r.json()["id"])
        tids = [t for some in by_master.values() for t in some[:per_master]]
        seats = await asyncio.gather(
            *(self._player(t, k, i) for k, t in enumerate(tids) for i in range(4))
        )
        # every socket opens at once (each process's first subscriptions to each node
        # arrive together), then everyone sits
        await asyncio.gather(*(s.connect() for s in seats))
        await asyncio.gather(*(self._sit(s, i % 4) for i, s in enumerate(seats)))
        for k, tid in enumerate(tids):
            self.seats[tid] = list(seats[4 * k : 4 * k + 4])

    async def _player(self, tid: str, k: int, i: int) -> Seat:
        server = self.servers[(i + k) % PROCESSES]
        async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
            r = await http.post("/api/players", json={"name": f"Pemain {k} {i}"})
            assert r.status_code == 201, r.text
            body = r.json()
            return Seat(server, tid, body["player"]["id"], body["token"], seed=k * 4 + i)

    async def _sit(self, seat: Seat, i: int) -> None:
        """Sit; four players sitting at once may cross (``stale``: try again, as the page
        does)."""
        async with httpx.AsyncClient(base_url=seat.server.url, timeout=30) as http:
            auth = {"Authorization": f"Bearer {seat.token}"}
            for attempt in range(20):
                r = await http.post(f"/api/tables/{seat.tid}/seats/{i}", headers=auth)
                if r.status_code != 409 or r.json()["code"] != "stale":
                    break
                await asyncio.sleep(0.05 * (attempt + 1))
            assert r.status_code == 200, r.text

    async def play(self, done, timeout: float) -> None:
        async with asyncio.timeout(timeout):
            await asyncio.gather(*(s.play(done) for seats in self.seats.values() for s in seats))

    def server_errors(self, allowed: frozenset[int] = frozenset()) -> list[str]:
        """Every 5xx answered (but the ``allowed`` statuses) and every unhandled error, from all
        processes' JSON logs."""
        bad = []
        for srv in self.servers:
            for line in srv.log_lines():
                rec = orjson.loads(line)
                status = rec.get("status", 0)
                answered = (
                    rec.get("logger") == "meja.access" and status >= 500 and status not in allowed
                )
                if answered or rec.get("msg") == "unhandled error":
                    bad.append(f"{srv.name}: {line[:300]}")
        return bad

    async def stop(self) -> None:
        for srv in self.servers:
            srv.stop()
        if self.redis is not None:
            await self.redis.aclose()
        self.cluster.stop()


@pytest.fixture
async def deployment(tmp_path, database):
    made: list[Deployment] = []

    async def make(**settings: str) -> Deployment:
        d = Deployment(tmp_path, database, f"test:{uuid.uuid4().hex[:8]}:", **settings)
        made.append(d)
        await d.start()
        return d

    yield make
    for d in made:
        await d.stop()


async def test_a_table_spread_over_three_fresh_processes_plays_without_a_clock_running_out(
    deployment,
):
    d = await deployment(MEJA_TURN_SECONDS="8")
    await d.tables(PER_MASTER)
    await d.play(rounds_played(2), timeout=150)
    seats = [s for some in d.seats.values() for s in some]
    assert sum(s.timeouts for s in seats) == 0, {
        t: [s.timeouts for s in v] for t, v in d.seats.items()
    }
    assert not any(s.closes for s in seats)
    assert d.server_errors() == []
    # at steady play the masters hear no topology chatter: no COMMAND (GETKEYS) and no
    # CLUSTER command from the processes (each costs a round trip to one node: docs/scaling.md)
    playing = asyncio.create_task(d.play(rounds_played(3), timeout=150))
    heard = await asyncio.gather(*(monitored(n.host, n.port, 3.0) for n in d.redis.get_primaries()))
    await playing
    chatter = [c for some in heard for c in some if c.split(" ")[0] in ("COMMAND", "CLUSTER")]
    assert sum(len(some) for some in heard) > 100 and chatter == [], chatter[:5]
    # one pub/sub connection per process and node (the control channel's on one of them)
    for node in d.redis.get_primaries():
        listed = await d.redis.execute_command("CLIENT LIST", "TYPE", "pubsub", target_nodes=node)
        assert len(listed) <= 2 * PROCESSES, (node.name, len(listed))


@pytest.mark.parametrize(
    ("victim", "wait_replicas"), [("slot 0", "1"), ("another", "0")], ids=["slot0-wait", "other"]
)
async def test_a_master_killed_mid_play(deployment, victim, wait_replicas):
    d = await deployment(
        MEJA_REDIS_WAIT_REPLICAS=wait_replicas, MEJA_REDIS_WAIT_MS="500", MEJA_TURN_SECONDS="20"
    )
    await d.tables(PER_MASTER)
    await d.play(rounds_played(1), timeout=120)  # everyone in play, a round behind them
    masters = {d.master_of(t) for t in d.seats}
    port = d.slot0_master() if victim == "slot 0" else max(masters - {d.slot0_master()})
    doomed = [t for t in d.seats if d.master_of(t) == port]
    others = [t for t in d.seats if t not in doomed]

    statuses: list[int] = []
    polling = True

    async def poll_rest() -> None:  # the lobby and the health probe, on every process
        async with httpx.AsyncClient(timeout=10) as http:
            while polling:
                for srv in d.servers:
                    for path in ("/api/tables", "/readyz"):
                        statuses.append((await http.get(f"{srv.url}{path}")).status_code)
                await asyncio.sleep(0.2)

    poller = asyncio.create_task(poll_rest())
    playing = asyncio.create_task(d.play(rounds_played(4), timeout=240))
    await asyncio.sleep(2)
    killed_at = time.monotonic()
    d.cluster.kill(port)
    try:
        await playing
    finally:
        polling = False
        await poller

    # while the cluster elects, a call may answer 503 redis_unavailable (docs/operations/
    # cluster.md "Failover"); never a 500
    assert d.server_errors(allowed=frozenset({503})) == []
    assert statuses and set(statuses) <= {200, 503}, sorted(set(statuses))
    seats = {t: some for t, some in d.seats.items()}
    timeouts = {(t in doomed, t): [s.timeouts for s in some] for t, some in seats.items()}
    assert sum(sum(n) for n in timeouts.values()) == 0, timeouts
    assert not any(s.closes for t in others for s in seats[t])  # only the failed node's
    assert {c for t in doomed for s in seats[t] for c in s.closes} <= {1013}
    for tid, some in seats.items():
        arrivals = sorted(a for s in some for a in s.arrivals)
        after = [at for at, _ in arrivals if at > killed_at]
        assert after and after[0] - killed_at < NODE_TIMEOUT_MS / 1000 + 10, tid
        if tid in others:  # never stalled: the gaps between versions around the kill
            window = [at for at, _ in arrivals if killed_at - 5 < at < killed_at + 20]
            gaps = [b - a for a, b in zip(window, window[1:])]
            assert max(gaps) < STALL, (tid, max(gaps))
    if wait_replicas == "1":  # every acknowledged move is still there, at its version
        store_keys = [
            (d.keys.command(tid, f"{s.pid}:{cmd}"), v)
            for tid, some in seats.items()
            for s in some
            for cmd, v in s.acks
        ]
        for key, v in store_keys:
            assert int(await d.redis.get(key)) == v, key
