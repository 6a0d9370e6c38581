"""A process dies behind the proxy: its players' sockets all come back at once.

    python bench/reconnect.py [--players 5000] [--spread 10] [--think 8] [--json]

Starts Redis, the database and two ``serve`` processes like bench/load.py, and in front of them
Debian's nginx with deploy/nginx.conf (as tests/ops/test_proxy.py runs it: a table's sockets
hash to one process). Sets up ``--players / 4`` Gaple tables whose players play as load.py's do
(``--think``), every socket through nginx. After ``--warmup`` it SIGKILLs the server process
holding the more sockets (each one's ``meja_open_sockets``: the proxy hashes tables, so with few
tables all may sit on one process, and killing the other would drop none). Every client whose
socket dropped reconnects through nginx after a delay drawn uniformly within ``--spread``
seconds (a reconnecting herd, spread as a jittered backoff spreads it), asking with ``?v=`` for
what it missed; a refused handshake (nginx's 502/504, a server's 5xx) is counted by status and
tried again a second later.

Reported: the sockets dropped, the time from the kill until every dropped client has a state
again (per client p50/p99/max, and the last one), refused handshakes by status, and moves lost:
a client whose first state after coming back is older than a version its table's acks confirmed
before the kill (the move was acknowledged, so it must be there). Then the tables play on for
``--after`` seconds and the acts acknowledged meanwhile are counted.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets
from prometheus_client.parser import text_string_to_metric_families
from websockets.exceptions import InvalidStatus

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cli import run_tool, services_from_args  # noqa: E402
from bench.load import Client, Load, parser  # noqa: E402
from bench.percentiles import percentiles  # noqa: E402
from bench.services import raise_nofile, workdir  # noqa: E402
from bench.usage import Usage, Window  # noqa: E402
from tests.ops.test_proxy import Proxy  # noqa: E402


async def open_sockets(url: str) -> float:
    """The sockets a server process holds, from its own ``/metrics``."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        text = (await http.get("/metrics")).text
    families = text_string_to_metric_families(text)
    return next(s.value for f in families for s in f.samples if s.name == "meja_open_sockets")


class Herd(Load):
    """load.py's players, through the proxy, who come back when their socket drops."""

    def __init__(self, args, services, proxy: Proxy):
        super().__init__(args, services)
        self.proxy = proxy
        self.killed_at: float | None = None
        self.acked: dict[str, int] = {}  # table id -> the newest version an ack confirmed
        self.at_kill: dict[str, int] = {}
        self.back: list[float] = []
        self.dropped = 0
        self.held: list[int] = []
        self.refused: Counter[str] = Counter()
        self.lost: list[tuple[str, int, int]] = []

    async def _connect(self, c: Client, k: int, table: int, v: int | None = None) -> None:
        query = "" if v is None else f"?v={v}"
        c.ws = await websockets.connect(
            f"{self.proxy.ws_url}/ws/tables/{c.table.tid}{query}",
            additional_headers={"Authorization": f"Bearer {c.token}"},
            ping_interval=None,
            max_size=2**20,
            local_addr=(f"127.0.0.{1 + k % self.args.sources}", 0),
            compression=None if self.args.no_deflate else "deflate",
            open_timeout=60,
        )
        asyncio.create_task(self._reader(c))

    def _on_message(self, c: Client, msg: dict[str, Any]) -> None:
        if msg["type"] == "ack" and msg.get("v") is not None:
            tid = c.table.tid
            self.acked[tid] = max(self.acked.get(tid, -1), msg["v"])
        super()._on_message(c, msg)

    async def _reader(self, c: Client) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for raw in c.ws:
                self._on_message(c, orjson.loads(raw))
        if self.stopping:
            return
        if self.killed_at is None:
            self.stats.error(f"socket_closed:{c.ws.close_code}")
            return
        self.dropped += 1
        asyncio.create_task(self._come_back(c))

    async def _come_back(self, c: Client) -> None:
        await asyncio.sleep(random.uniform(0, self.args.spread))
        k = random.randrange(self.args.sources)  # its source address
        c.first = first = asyncio.Event()
        while not self.stopping:
            try:
                await self._connect(c, k, 0, c.last_v)
                break
            except InvalidStatus as e:
                self.refused[str(e.response.status_code)] += 1
            except (OSError, TimeoutError, websockets.InvalidHandshake) as e:
                self.refused[type(e).__name__] += 1
            await asyncio.sleep(1.0)
        await first.wait()  # (never set when the run ends first: the task is dropped)
        assert self.killed_at is not None
        self.back.append(time.perf_counter() - self.killed_at)
        confirmed = self.at_kill.get(c.table.tid, -1)
        if c.last_v < confirmed:
            self.lost.append((c.table.tid, confirmed, c.last_v))

    async def rush(self) -> dict[str, Any]:
        args, svc = self.args, self.services
        await self.setup()
        sockets = sum(t.n for t in self.tables)
        self._progress(f"{len(self.tables)} tables, {sockets} sockets; warming up {args.warmup:g}s")
        await asyncio.sleep(args.warmup)
        held = await asyncio.gather(*(open_sockets(url) for url in svc.urls))
        victim, survivor = svc.server_pids if held[0] >= held[1] else svc.server_pids[::-1]
        self.held = [round(n) for n in held]
        window = Window(Usage(survivor), svc.redis_pid)
        self.at_kill = dict(self.acked)
        self.killed_at = time.perf_counter()
        os.kill(victim, signal.SIGKILL)
        deadline = self.killed_at + args.spread + args.timeout
        await asyncio.sleep(1.0)  # every dropped socket has seen its close
        while len(self.back) < self.dropped and time.perf_counter() < deadline:
            await asyncio.sleep(0.25)
        all_back = (
            (time.perf_counter() - self.killed_at) if len(self.back) == self.dropped else None
        )
        usage = window.result()  # from the kill until all are back (or the deadline)
        acks0 = self.stats.acks_total
        await asyncio.sleep(args.after)
        acks_after = self.stats.acks_total - acks0
        self.stopping = True
        for t in self.tables:
            for c in t.clients:
                with contextlib.suppress(Exception):
                    await c.ws.close()
        return {
            "players": sockets,
            "tables": len(self.tables),
            "spread_s": args.spread,
            "held": self.held,  # sockets per process just before the kill
            "dropped": self.dropped,
            "back": len(self.back),
            "all_back_s": None if all_back is None else round(all_back, 2),
            "back_ms": {
                k: None if x is None else round(1000 * x) for k, x in percentiles(self.back).items()
            },
            "refused": dict(self.refused),
            "moves_lost": len(self.lost),
            "lost_examples": self.lost[:5],
            "errors_before_kill": dict(self.stats.errors_total),
            "acts_after": acks_after,
            "after_s": args.after,
            "recovery": {
                k: usage[k]
                for k in ("server_cpu_pct", "redis_cpu_pct", "generator_cpu_pct")
                + ("machine_busy_pct", "machine_steal_pct", "loadavg_start", "loadavg_end")
            },
        }


def report_text(r: dict[str, Any]) -> str:
    b = r["back_ms"]
    return "\n".join(
        [
            f"{r['players']} players at {r['tables']} tables on 2 processes behind nginx; "
            f"one process SIGKILLed, its clients back within a {r['spread_s']}s spread",
            f"dropped            {r['dropped']} sockets; back {r['back']} "
            f"(all back {r['all_back_s']}s after the kill)",
            f"back after kill    p50 {b['p50']} ms  p99 {b['p99']} ms  max {b['max']} ms",
            f"refused handshakes {r['refused'] or 0}",
            f"moves lost         {r['moves_lost']} {r['lost_examples'] or ''}",
            f"acts afterwards    {r['acts_after']} in {r['after_s']}s",
            f"while coming back  {r['recovery']} (CPU: % of a core; the surviving server)",
        ]
    )


def parse_args(argv: list[str] | None = None):
    p = parser(__doc__)
    p.set_defaults(servers=2, think=8.0, warmup=10.0, concurrency=32)
    p.add_argument("--players", type=int, default=5000)
    p.add_argument("--spread", type=float, default=10.0, help="s over which clients come back")
    p.add_argument("--timeout", type=float, default=20.0, help="s past the spread to wait")
    p.add_argument("--after", type=float, default=10.0, help="s of play counted afterwards")
    args = p.parse_args(argv)
    args.tables = -(-args.players // 4)
    return args


async def main_async(args) -> dict[str, Any]:
    nofile = raise_nofile(max(4096, args.players * 3 + 1024))
    env = {"MEJA_ROUND_PAUSE": str(args.round_pause), "MEJA_RATE_PER_SECOND": "10"}
    services = services_from_args(args, tag="reconnect", nofile=nofile, env=env)
    await services.start()
    ports = [int(u.rsplit(":", 1)[1]) for u in services.urls]
    proxy = Proxy(workdir("reconnect-nginx"), ports, connections=4 * args.players + 1024)
    try:
        report = await Herd(args, services, await proxy.start()).rush()
        report["server_log_dir"] = str(services.log_dir)
        return report
    finally:
        proxy.stop()
        with contextlib.suppress(ProcessLookupError):
            await services.stop()


def main(argv: list[str] | None = None) -> int:
    report = run_tool(main_async, parse_args(argv), report_text)
    ok = report["back"] == report["dropped"] and not report["moves_lost"]
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
