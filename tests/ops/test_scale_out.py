"""Scale-out for real: two server processes, started with the Dockerfile's own command
(``python -m app serve``, uvicorn, each on its ``PORT``) after the compose file's migrate
command, share one Redis and one database. B runs from a copy of exactly the files the image
contains, so the image lacks nothing the server needs. Four players, two on each process, play
a Domino Cross match (to 20 points, a short one); mid-match process A gets SIGTERM. Its sockets
are closed with 1012 ("service restart"), its players reconnect to B and the match finishes
there, with every action applied once. Afterwards the outbox has reached the database, A
drained and exited within its grace period, and both processes' logs are JSON lines that show
table ids and versions but no token, secret or tile.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import subprocess
import time
import urllib.request
import uuid

import httpx
import orjson
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families
from redis.asyncio import Redis

from app.store.keys import Keys
from app.store.tables import TableStore
from tests.ops.deploy import ROOT, dockerfile_exec, image_tree, local
from tests.ws.client import states_by_version

SECRET = "ops-scale-out-" + uuid.uuid4().hex
MOVE_PAUSE = 0.08  # players think a little, so the SIGTERM surely lands mid-match


class Server:
    def __init__(self, name: str, env: dict, tmp_path, cwd=ROOT):
        self.name, self.cwd = name, cwd
        self.port = _free_port()
        self.env = {**env, "PORT": str(self.port)}
        self.err_path = tmp_path / f"{name}.log"
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        self.err = open(self.err_path, "w")  # noqa: SIM115 - closed in stop()
        # The image's CMD, run here: `python -m app serve`, PORT from the environment.
        self.proc = subprocess.Popen(
            local(dockerfile_exec("CMD")),
            cwd=self.cwd,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self.err,
        )
        return self

    async def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                async with httpx.AsyncClient() as http:
                    if (await http.get(f"{self.url}/readyz", timeout=2)).status_code == 200:
                        return
            except httpx.HTTPError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"server {self.name} did not start:\n{self.err_path.read_text()}")
            await asyncio.sleep(0.2)

    def probe(self, path: str = "/healthz") -> int:
        """The image's HEALTHCHECK command against this process."""
        argv = local(dockerfile_exec("HEALTHCHECK"))[:-1] + [path]
        return subprocess.run(
            argv, cwd=self.cwd, env=self.env, capture_output=True, timeout=30
        ).returncode

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.err.close()

    def log_lines(self) -> list[str]:
        return [line for line in self.err_path.read_text().splitlines() if line.strip()]


class Player:
    """One seat's socket. Plays random legal moves from its own view; when its server closes
    the socket it reconnects to ``fallback`` and resends the command it had in flight, as
    static/js/socket.js does: the same id, so the server answers with its first result (an
    ack, if the closing process applied it before the close) or applies it now, once."""

    def __init__(self, seat: int, token: str, tid: str, server: Server):
        self.seat, self.token, self.tid, self.server = seat, token, tid, server
        self.rng = random.Random(seat)
        self.latest: dict | None = None
        self.acted_v = -1
        self.pending: tuple[int, str, dict] | None = None
        self.closes: list[int | None] = []
        self.acks: dict[str, list[int]] = {}  # server name -> versions acked there

    async def connect(self, server: Server, since: int | None = None) -> Player:
        self.server = server
        query = f"?v={since}" if since is not None else ""
        self.ws = await websockets.connect(
            f"{server.ws_url}/ws/tables/{self.tid}{query}",
            additional_headers={"Authorization": f"Bearer {self.token}"},
        )
        return self

    async def play(self, fallback: Server, over, timeout: float = 90) -> None:
        async with asyncio.timeout(timeout):
            while not (self.latest and over(self.latest)):
                try:
                    await self._step()
                except websockets.ConnectionClosed as closed:
                    self.closes.append(closed.rcvd.code if closed.rcvd else None)
                    await self.connect(fallback, since=self.latest["v"] if self.latest else None)
                    if self.pending:
                        await self._send_pending()

    async def _step(self) -> None:
        view = self.latest and self.latest["view"]
        table = self.latest and self.latest["table"]
        pause = table and table.get("pause")
        mine = view and view["legal"] and view["to_act"] == view["seat"]
        waited = pause and table["you"] not in pause["ready"]  # O-6: ask for the next round
        if (mine or waited) and self.latest["v"] > self.acted_v and not self.pending:
            await asyncio.sleep(MOVE_PAUSE)
            self.acted_v = self.latest["v"]
            action = {"kind": "ready"} if waited else self.rng.choice(view["legal"])
            self.pending = (self.acted_v, uuid.uuid4().hex, action)
            await self._send_pending()
        self._take(orjson.loads(await asyncio.wait_for(self.ws.recv(), 30)))

    async def _send_pending(self) -> None:
        v, cmd, action = self.pending
        await self.ws.send(
            orjson.dumps({"type": "act", "cmd": cmd, "v": v, "action": action}).decode()
        )

    def _take(self, msg: dict) -> None:
        if msg["type"] == "state" and (self.latest is None or msg["v"] >= self.latest["v"]):
            self.latest = msg
        elif msg["type"] == "ack":
            self.acks.setdefault(self.server.name, []).append(msg["v"])
            if self.pending and msg["cmd"] == self.pending[1]:
                self.pending = None
        elif msg["type"] == "error":
            assert msg["code"] == "stale", msg  # only a crossing move may refuse ours
            self.pending = None


async def test_two_processes_share_a_match_and_one_drains_on_sigterm(
    tmp_path, live_redis_url, live_prefix, database
):
    env = server_env(
        live_redis_url,
        database,
        live_prefix,
        tmp_path,
        MEJA_LOG_LEVEL="info",
        MEJA_OUTBOX_RECLAIM_MS="60000",
    )
    # B runs from the image's file layout (only what the Dockerfile copies), like the one-shot
    # migration of the compose file; A from the source tree.
    image = image_tree(tmp_path / "image")
    migrate(env, image)
    a = Server("A", env, tmp_path).start()
    b = Server("B", env, tmp_path, cwd=image).start()
    tokens: list[str] = []
    try:
        await asyncio.gather(a.ready(), b.ready())
        assert await asyncio.to_thread(a.probe) == 0
        assert await asyncio.to_thread(b.probe, "/readyz") == 0
        async with httpx.AsyncClient(base_url=b.url) as http:  # the image has the client
            page = await http.get("/")
            assert page.status_code == 200 and "<html" in page.text.lower()

        # Players register and sit through both processes; seats 0, 2 play on A, 1, 3 on B.
        homes = [a, b, a, b]
        for i, srv in enumerate(homes):
            async with httpx.AsyncClient(base_url=srv.url) as http:
                r = await http.post("/api/players", json={"name": f"Ops {i}"})
                assert r.status_code == 201, r.text
                tokens.append(r.json()["token"])
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        async with httpx.AsyncClient(base_url=a.url) as http:
            r = await http.post(
                "/api/tables",
                headers=auth[0],
                json={"game": "cross", "seats": 4, "options": {"target": 20}},
            )
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
        players = [await Player(i, tokens[i], tid, srv).connect(srv) for i, srv in enumerate(homes)]
        for i, srv in enumerate(homes):
            async with httpx.AsyncClient(base_url=srv.url) as http:
                r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=auth[i])
                assert r.status_code == 200, r.text

        def over(m: dict) -> bool:
            return m["table"]["status"] == "over" and m["table"]["match_no"] == 1

        def dealt(m: dict) -> bool:
            return m["view"] is not None and not m["view"]["over"]

        killed_at: dict[str, int] = {}

        async def terminate_a_mid_match() -> None:
            first_v = None
            while True:
                seen = [p.latest["v"] for p in players if p.latest and dealt(p.latest)]
                assert not any(over(p.latest) for p in players if p.latest), "ended too soon"
                first_v = first_v or (min(seen) if seen else None)
                if seen and max(seen) >= first_v + 3:  # three moves into the match
                    break
                await asyncio.sleep(0.02)
            latest = max((p.latest for p in players), key=lambda m: m["v"])
            assert not latest["view"]["over"]
            killed_at["v"] = latest["v"]
            a.proc.send_signal(signal.SIGTERM)

        started = time.monotonic()
        await asyncio.gather(terminate_a_mid_match(), *(p.play(b, over) for p in players))
        exit_code = await asyncio.to_thread(a.proc.wait, 30)

        # A drained and exited within its grace (uvicorn re-raises the SIGTERM once its
        # shutdown is complete, so the status is "terminated by SIGTERM", 143 in a container;
        # the log below shows the whole drain ran); its sockets were told to go (1012).
        assert exit_code in (0, -signal.SIGTERM), a.err_path.read_text()[-3000:]
        assert time.monotonic() - started < 60
        for p in players:
            assert p.closes == ([1012] if p.seat in (0, 2) else []), (p.seat, p.closes)
            assert p.server is b
        assert sum(len(p.acks.get("B", [])) for p in players if p.seat in (0, 2)) > 0
        assert await asyncio.to_thread(a.probe) == 1  # the health probe sees it gone

        # The match finished on B exactly as the rules say, each action applied once.
        snap = await finished_once(live_redis_url, live_prefix, tid, killed_at["v"])
        for p in players:
            assert p.latest["v"] == snap.v

        # The outbox reached the database through B: the match is in every player's history.
        await _until(lambda: _outbox_empty(b), "B's outbox backlog did not reach 0")
        async with httpx.AsyncClient(base_url=b.url) as http:
            for i in range(4):
                r = await http.get("/api/players/me/matches", headers=auth[i])
                assert r.status_code == 200, r.text
                assert [m["table"] for m in r.json()["items"]] == [tid]
    finally:
        a.stop()
        b.stop()

    _check_logs(a, tid, tokens, shutdown=True)
    _check_logs(b, tid, tokens, shutdown=False)


def _check_logs(srv: Server, tid: str, tokens: list[str], *, shutdown: bool) -> None:
    lines = srv.log_lines()
    records = []
    for line in lines:
        for secret in (SECRET, *tokens):
            assert secret not in line, f"{srv.name} logged a secret: {line}"
        assert not re.search(r"\[\s*\d+\s*,\s*\d+\s*\]", line), f"a tile in a log line: {line}"
        records.append(orjson.loads(line))  # every line is one JSON object
    game = [r for r in records if r["msg"] == "table changed"]
    assert game, f"{srv.name} logged no game line"
    for r in game:
        assert r["table"] == tid and isinstance(r["v"], int) and r["v"] > 0
    sockets = [r["msg"] for r in records if "/ws/tables/" in r["msg"]]  # uvicorn's lines
    assert sockets and not any("token=" in m or "ticket=" in m for m in sockets)
    if shutdown:  # stop accepting, then the lifespan's drain, then the end
        msgs = [r["msg"] for r in records]
        order = [
            msgs.index(m)
            for m in ("Shutting down", "outbox drained", "Application shutdown complete.")
        ]
        assert order == sorted(order), msgs[-8:]


def metric_values(srv: Server) -> dict[str, float]:
    """The process's own ``/metrics``, sample name -> value (labels dropped: the last wins)."""
    with urllib.request.urlopen(f"{srv.url}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}


def _outbox_empty(srv: Server) -> bool:
    values = metric_values(srv)
    return values["meja_outbox_backlog"] == 0 and values["meja_outbox_pending"] == 0


async def _until(check, message: str, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while not await asyncio.to_thread(check):
        assert time.monotonic() < deadline, message
        await asyncio.sleep(0.3)


def _free_port() -> int:
    import socket

    with contextlib.closing(socket.socket()) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def finished_once(redis_url: str, prefix: str, tid: str, after: int):
    """The table's match is over past version ``after``, its result is what the rules make of
    its action log, and no player's action was applied twice; its snapshot."""
    redis = Redis.from_url(redis_url)
    store = TableStore(redis, Keys(prefix), stream_len=500, command_ttl=60)
    snap = await store.load(tid)
    log = await store.action_log(tid, 1)
    await redis.aclose()
    doc = snap.doc
    assert doc["status"] == "over" and snap.v > after
    rs, states = states_by_version(
        doc["game"], doc["match_options"], len(doc["players"]), doc["seed"], log
    )
    result = {k: v for k, v in doc["result"].items() if k != "winner_seat"}
    assert result == rs.outcome(states[max(states)]).to_json()
    player_moves = [e for e in log if e["by"] == "player"]
    assert len({e["v"] for e in player_moves}) == len(player_moves)
    return snap


def server_env(redis_url: str, database: str, prefix: str, data, **settings: str) -> dict:
    """The environment of the server processes these tests start (``settings`` on top)."""
    return {
        **os.environ,
        "REDIS_URL": redis_url,
        "DATABASE_URL": database,
        "MEJA_KEY_PREFIX": prefix,
        "MEJA_SECRET_KEY": SECRET,
        "MEJA_DATA_DIR": str(data),
        "MEJA_RATE_PER_SECOND": "1000",
        "MEJA_RATE_BURST": "1000",
        "MEJA_ROUND_PAUSE": "60",
        "MEJA_SHUTDOWN_GRACE": "10",
        **settings,
    }


def migrate(env: dict, cwd=ROOT) -> None:
    """The compose file's one-shot migration, run as it runs there."""
    done = subprocess.run(
        local(["python", "-m", "app", "migrate"]),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
