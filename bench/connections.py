"""Idle connected players: how much server memory one connected player costs.

    python bench/connections.py [--players 20000] [--hold 30] [--json]

Starts Redis, the database and the server like bench/load.py (or targets ``--url``), registers
``--players`` guests, creates one 4-seat Gaple table per four of them and seats ``--sit`` of each
four (1 by default: a Gaple table deals as soon as two players sit, so with one seated nothing is
dealt and the sockets stay idle; the other three watch the table, authenticated). Then it opens one
authenticated WebSocket per player to its table (``Authorization: Bearer``), waits until every
socket has received its first ``state``, lets the server settle and reads its resident memory:
(RSS with every socket open - RSS before the first socket) / players is the memory per
connection. It holds the sockets
``--hold`` seconds (the server pings them meanwhile), then sends one ``ping`` on every socket and
counts the ``pong``s: "all stayed up" means no socket closed and every one answered.

Sockets are spread over the source addresses 127.0.0.1..127.0.0.N (``--sources``) so the ephemeral
ports of one address never run out. This process and the server it starts raise their open-files
limit as far as the hard limit allows (root without CAP_SYS_RESOURCE cannot go past it); the
report gives both limits, and a warning says when they leave fewer file descriptors than players.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import sys
import time
from pathlib import Path
from typing import Any

import orjson
import psutil
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cli import add_service_args, add_socket_args, run_tool, services_from_args  # noqa: E402
from bench.rest import Api, gather_limited  # noqa: E402
from bench.services import Services, raise_nofile  # noqa: E402
from bench.usage import Usage  # noqa: E402

SEATS = 4
FDS_BESIDES_SOCKETS = 150  # the server's Redis and database pools, listener, logs


class Conns:
    def __init__(self, args: argparse.Namespace, services: Services):
        self.args, self.services = args, services
        self.socks: list[Any] = []
        self.first_state = 0
        self.pongs = 0
        self.closed = 0
        self.failed_connects = 0

    async def setup(self) -> list[tuple[str, str]]:
        """(table id, token) per player, ``--sit`` of each table's players seated."""
        api = Api(self.services.url, concurrency=self.args.concurrency)
        try:
            async with api.ticking():
                tokens = await gather_limited(
                    (api.register(f"Idle {i}") for i in range(self.args.players)),
                    self.args.concurrency,
                )
                groups = [tokens[i : i + SEATS] for i in range(0, len(tokens), SEATS)]
                tids = await gather_limited(
                    (api.create(g[0], "gaple", SEATS, {}) for g in groups), self.args.concurrency
                )
                await gather_limited(
                    (self._sit(api, tid, g) for tid, g in zip(tids, groups)), self.args.concurrency
                )
        finally:
            await api.close()
        return [(tid, tok) for tid, g in zip(tids, groups) for tok in g]

    async def _sit(self, api: Api, tid: str, tokens: list[str]) -> None:
        for s, tok in enumerate(tokens[: self.args.sit]):  # one at a time: each is a CAS
            await api.sit(tok, tid, s)

    async def connect(self, k: int, tid: str, token: str) -> None:
        url = f"{self.services.ws_url(k)}/ws/tables/{tid}"
        src = f"127.0.0.{1 + k % self.args.sources}"
        try:
            ws = await websockets.connect(
                url,
                additional_headers={"Authorization": f"Bearer {token}"},
                ping_interval=None,
                local_addr=(src, 0),
                open_timeout=120,
                compression=None if self.args.no_deflate else "deflate",
            )
        except (OSError, websockets.InvalidHandshake, TimeoutError) as e:
            self.failed_connects += 1
            if self.failed_connects <= 3:
                self._progress(f"connect failed: {e!r}")
            return
        self.socks.append(ws)
        asyncio.create_task(self._reader(ws))

    async def _reader(self, ws) -> None:
        seen_state = False
        try:
            async for raw in ws:
                kind = orjson.loads(raw)["type"]
                if kind == "state" and not seen_state:
                    seen_state = True
                    self.first_state += 1
                elif kind == "pong":
                    self.pongs += 1
                elif kind == "ping":  # the server drops a socket that answers no ping
                    await ws.send('{"type":"pong"}')
        except websockets.ConnectionClosed:
            pass
        self.closed += 1

    async def run(self) -> dict[str, Any]:
        args = self.args
        server = Usage(*self.services.server_pids)
        limits = {
            "generator": resource.getrlimit(resource.RLIMIT_NOFILE)[0],
            "server": server.procs[0].rlimit(psutil.RLIMIT_NOFILE)[0],
        }
        if args.players + FDS_BESIDES_SOCKETS > min(limits.values()):
            self._progress(
                f"warning: open-files limits {limits} leave room for about "
                f"{min(limits.values()) - FDS_BESIDES_SOCKETS} sockets per process"
            )
        t0 = time.monotonic()
        plan = await self.setup()
        setup_s = time.monotonic() - t0
        self._progress(
            f"registered {len(plan)} players at {len(plan) // SEATS} tables "
            f"({args.sit} seated each) in {setup_s:.0f}s"
        )
        await asyncio.sleep(args.settle)
        rss0 = server.rss()
        t1 = time.monotonic()
        cpu0 = server.cpu()
        await gather_limited(
            (self.connect(k, tid, tok) for k, (tid, tok) in enumerate(plan)), args.concurrency * 4
        )
        while self.first_state + self.closed < len(self.socks):
            await asyncio.sleep(0.2)
        connect_s = time.monotonic() - t1
        connect_cpu = server.cpu() - cpu0
        self._progress(
            f"{len(self.socks)} sockets open ({self.failed_connects} refused) and "
            f"{self.first_state} states received in {connect_s:.0f}s; holding "
            f"{args.hold:g}s"
        )
        await asyncio.sleep(args.settle)
        rss1 = server.rss()
        cpu_h0, th0 = server.cpu(), time.monotonic()
        await asyncio.sleep(args.hold)
        idle_cpu = (server.cpu() - cpu_h0) / (time.monotonic() - th0)
        rss2 = server.rss()
        ping = orjson.dumps({"type": "ping"}).decode()
        for ws in self.socks:
            with contextlib.suppress(websockets.ConnectionClosed):
                await ws.send(ping)
        deadline = time.monotonic() + 30
        while self.pongs + self.closed < len(self.socks) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        n = len(self.socks)
        report = {
            "players": len(plan),
            "connected": n,
            "refused": self.failed_connects,
            "seated_per_table": args.sit,
            "setup_s": round(setup_s, 1),
            "connect_s": round(connect_s, 1),
            "server_cpu_s_per_1000_connects": round(1000 * connect_cpu / max(n, 1), 2),
            "server_rss_before_mib": round(rss0 / 2**20, 1),
            "server_rss_connected_mib": round(rss1 / 2**20, 1),
            "server_rss_after_hold_mib": round(rss2 / 2**20, 1),
            "kib_per_connection": round((rss1 - rss0) / 1024 / max(n, 1), 1),
            "kib_per_connection_after_hold": round((rss2 - rss0) / 1024 / max(n, 1), 1),
            "server_idle_cpu_pct": round(100 * idle_cpu, 1),
            "hold_s": args.hold,
            "closed": self.closed,
            "pongs": self.pongs,
            "all_stayed_up": self.failed_connects == 0
            and self.closed == 0
            and self.pongs == n == len(plan),
            "generator_rss_mib": round(Usage().rss() / 2**20, 1),
            "open_files_limits": limits,
        }
        for ws in self.socks:
            with contextlib.suppress(Exception):
                await ws.close()
        return report

    def _progress(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)


def report_text(r: dict[str, Any]) -> str:
    return "\n".join(
        [
            f"{r['connected']} of {r['players']} players connected ({r['refused']} refused), "
            f"{r['seated_per_table']} seated per 4-seat table, connect {r['connect_s']}s",
            f"server memory      {r['server_rss_before_mib']} MiB before -> "
            f"{r['server_rss_connected_mib']} MiB connected -> "
            f"{r['server_rss_after_hold_mib']} MiB "
            f"after {r['hold_s']}s",
            f"per connection     {r['kib_per_connection']} KiB "
            f"({r['kib_per_connection_after_hold']} KiB after the hold)",
            f"server CPU         {r['server_cpu_s_per_1000_connects']} s per 1000 connects; "
            f"{r['server_idle_cpu_pct']}% of a core while idle",
            f"all stayed up      {r['all_stayed_up']} (closed {r['closed']}, pongs {r['pongs']})",
        ]
    )


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--players", type=int, default=20_000)
    p.add_argument(
        "--sit",
        type=int,
        default=1,
        choices=range(SEATS),
        help="players seated per 4-seat table (Gaple deals once two sit)",
    )
    p.add_argument("--hold", type=float, default=30.0)
    p.add_argument("--settle", type=float, default=3.0)
    p.add_argument("--concurrency", type=int, default=32)
    add_socket_args(p)
    add_service_args(p)
    p.add_argument("--json", action="store_true")
    return p.parse_args(argv)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    nofile = raise_nofile(args.players * 2 + 4096)
    services = services_from_args(args, tag="conns", nofile=nofile)
    await services.start()
    try:
        report = await Conns(args, services).run()
        report["server_log_dir"] = str(services.log_dir)
        return report
    finally:
        await services.stop()


def main(argv: list[str] | None = None) -> int:
    report = run_tool(main_async, parse_args(argv), report_text)
    return 0 if report["all_stayed_up"] else 1


if __name__ == "__main__":
    sys.exit(main())
