"""Load generator: real players on real sockets against a real server, Redis and database.

    python bench/load.py [--tables 750] [--game gaple] [--think 1.0] [--seconds 60] [--json]

It starts Redis (a private ``redis-server`` unless ``--redis-url``), migrates the database
(Postgres ``meja_bench`` unless ``--database-url``/DATABASE_URL) and starts the server with
``python -m app serve`` (or targets ``--url``). Then, per table: registers one guest per seat,
creates the table, connects one WebSocket per seat and sits everyone, which deals. Every client
acts from its own view only: when its view says it is to act, it waits the think time
(``--think`` seconds, uniformly 0.5x-1.5x) and sends one of its view's legal actions.

Reported for the measurement window (after ``--warmup``):
- actions/s: acts acknowledged;
- latency: from a client sending ``act`` until every client at that table has received the
  ``state`` of the version it created (p50/p95/p99/max), measured in this one process so there
  is one clock;
- errors by code (any refusal, including ``stale``, and dropped sockets);
- CPU (% of one core) of the server, of this generator and of Redis, the machine's busy share
  and load average (the machine is shared), the server's memory;
- Redis: commands per action (``INFO commandstats``, script-internal calls included); round trips
  per accepted act as the server counts them itself (its ``/metrics`` histogram: a pipeline is
  one round trip); and the commands clients sent, told apart from script-internal ones by a
  ``MONITOR`` sample taken after the window (``--monitor-seconds``);
- outbox lag: entries not yet written to the database and the age of the oldest, sampled during
  the run, and how long the backlog takes to drain once the load stops.
A progress line every ``--every`` seconds on stderr; ``--json`` prints the report as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import random
import sys
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import websockets
from websockets.asyncio.client import ClientConnection

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cli import add_service_args, add_socket_args, run_tool, services_from_args  # noqa: E402
from bench.percentiles import percentiles  # noqa: E402
from bench.redis_counts import (  # noqa: E402
    monitor,
    outbox_backlog,
    redis_stats,
    round_trip_summary,
    server_round_trips,
    stats_delta,
    trips_histogram,
)
from bench.rest import Api, gather_limited  # noqa: E402
from bench.services import Services, raise_nofile  # noqa: E402
from bench.usage import Usage, Window  # noqa: E402

SEATS = {"gaple": 4, "moon": 4, "cross": 4, "mexican_train": 4}


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.window_start = 0.0
        self.latencies: list[float] = []  # seconds, acts sent inside the window
        self.interval: list[float] = []  # latencies since the last progress line
        self.acks = 0
        self.acks_total = 0
        self.errors: Counter = Counter()
        self.errors_total: Counter = Counter()

    def error(self, code: str) -> None:
        self.errors_total[code] += 1
        if self.measuring:
            self.errors[code] += 1


class Table:
    """One table's seats; ``pending`` holds, per version an act will create, the send time and
    how many of the table's clients have yet to receive a state at least that new."""

    def __init__(self, tid: str, n: int):
        self.tid, self.n = tid, n
        self.clients: list[Client] = []
        self.pending: dict[int, list] = {}


class Client:
    def __init__(self, table: Table, seat: int, token: str, rng: random.Random):
        self.table, self.seat, self.token, self.rng = table, seat, token, rng
        self.ws: ClientConnection  # set once connected (Load._connect)
        self.last_v = -1
        self.acted_v = -1
        self.cmd_v: dict[str, int] = {}
        self.first: asyncio.Event | None = None  # set by its first state (bench/joins.py)
        self.passive = False  # watches without acting (bench/joins.py's joiners)


class Load:
    def __init__(self, args: argparse.Namespace, services: Services):
        self.args, self.services = args, services
        self.stats = Stats()
        self.tables: list[Table] = []
        self.loop = asyncio.get_running_loop()
        self.stopping = False
        self.outbox_samples: list[tuple[int, float]] = []
        self.own: Counter[str] = Counter()  # commands this tool sent to Redis itself

    # --- set-up ----------------------------------------------------------------------------------
    async def setup(self) -> None:
        api = Api(self.services.url, concurrency=self.args.concurrency)
        try:
            async with api.ticking():
                await gather_limited(
                    (self._table(api, i) for i in range(self.args.tables)), self.args.concurrency
                )
        finally:
            await api.close()

    async def _table(self, api: Api, i: int) -> None:
        n = self.args.seats or SEATS.get(self.args.game, 4)
        tokens = await asyncio.gather(*(api.register(f"B{i} S{s}") for s in range(n)))
        tid = await api.create(tokens[0], self.args.game, n, orjson.loads(self.args.options))
        table = Table(tid, n)
        for s, tok in enumerate(tokens):
            c = Client(table, s, tok, random.Random(i * 100 + s))
            await self._connect(c, len(self.tables) * n + s, i)
            table.clients.append(c)
        self.tables.append(table)
        for s, tok in enumerate(tokens):
            await api.sit(tok, tid, s)

    async def _connect(self, c: Client, k: int, table: int) -> None:
        """The ``k``-th socket, of the ``table``-th table: on the server the proxy would pick
        (round robin per socket, or by table with ``--by-table``)."""
        # Meja reads the token from the Bearer header; the peers' bare server
        # (shared/peers/bare, targeted with --url) only from ``?token=``, which Meja ignores.
        query = f"?token={c.token}" if self.args.url else ""
        server = table if self.args.by_table else k
        url = f"{self.services.ws_url(server)}/ws/tables/{c.table.tid}{query}"
        src = f"127.0.0.{1 + k % self.args.sources}"
        c.ws = await websockets.connect(
            url,
            additional_headers={"Authorization": f"Bearer {c.token}"},
            ping_interval=None,
            max_size=2**20,
            local_addr=(src, 0),
            compression=None if self.args.no_deflate else "deflate",
            open_timeout=60,
        )
        asyncio.create_task(self._reader(c))

    # --- playing ---------------------------------------------------------------------------------
    async def _reader(self, c: Client) -> None:
        try:
            async for raw in c.ws:
                self._on_message(c, orjson.loads(raw))
        except websockets.ConnectionClosed:
            pass
        if not self.stopping:
            self.stats.error("socket_closed")

    def _on_message(self, c: Client, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "state":
            self._on_state(c, msg)
        elif kind == "ack":
            c.cmd_v.pop(msg["cmd"], None)
            self.stats.acks_total += 1
            if self.stats.measuring:
                self.stats.acks += 1
        elif kind == "ping":  # the server's check of a silent client (a browser answers it)
            self.loop.create_task(self._send(c, '{"type":"pong"}'))
        elif kind == "error":
            self.stats.error(msg.get("code") or "error")
            vn = c.cmd_v.pop(msg.get("cmd", ""), None)
            if vn is not None:
                c.table.pending.pop(vn, None)

    def _on_state(self, c: Client, msg: dict[str, Any]) -> None:
        v, table = msg["v"], c.table
        if c.first is not None:  # a first state, even one with nothing new (a reconnect)
            c.first.set()
            c.first = None
        if v <= c.last_v:
            return
        if table.pending:
            now = time.perf_counter()
            for vn in [vn for vn in table.pending if c.last_v < vn <= v]:
                p = table.pending[vn]
                p[1] -= 1
                if p[1] == 0:
                    del table.pending[vn]
                    if p[2]:
                        self.stats.latencies.append(now - p[0])
                        self.stats.interval.append(now - p[0])
        c.last_v = v
        view = msg["view"]
        if (
            view
            and view["legal"]
            and view["to_act"] == view["seat"]
            and v > c.acted_v
            and not self.stopping
            and not c.passive
        ):
            c.acted_v = v
            delay = self.args.think * (0.5 + c.rng.random())
            self.loop.call_later(delay, self._act, c, v, c.rng.choice(view["legal"]))

    def _act(self, c: Client, v: int, action: dict) -> None:
        if self.stopping or c.last_v != v:
            return  # the table moved on meanwhile (a timeout); the new state decides
        cmd = uuid.uuid4().hex
        c.cmd_v[cmd] = v + 1
        c.table.pending[v + 1] = [time.perf_counter(), c.table.n, self.stats.measuring]
        text = orjson.dumps({"type": "act", "cmd": cmd, "v": v, "action": action}).decode()
        self.loop.create_task(self._send(c, text))

    async def _send(self, c: Client, text: str) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await c.ws.send(text)

    # --- measuring -------------------------------------------------------------------------------
    async def run(self) -> dict[str, Any]:
        args, svc = self.args, self.services
        server = Usage(*svc.server_pids)
        redis = svc.redis()
        db = 0 if svc.cluster else redis.connection_pool.connection_kwargs.get("db", 0)
        rss_idle = server.rss()
        empty = await redis_stats(redis)  # the memory before any table
        self.own["info"] += 4
        t_setup = time.monotonic()
        await self.setup()
        setup_s = time.monotonic() - t_setup
        # The generator's own collector pauses (100-150 ms full collections of 3,000 clients'
        # objects) would be counted as the server's latency: freeze the set-up, as serve does.
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 20, 100)
        self._progress(
            f"set up {len(self.tables)} tables, "
            f"{sum(t.n for t in self.tables)} sockets in {setup_s:.1f}s; "
            f"warming up {args.warmup:g}s"
        )
        await asyncio.sleep(args.warmup)
        stats0 = await redis_stats(redis)
        self.own["info"] += 4
        trips0 = await asyncio.gather(*map(server_round_trips, svc.urls))
        window = Window(server, svc.redis_pid, svc.worker_pid)
        self.stats.measuring, self.stats.window_start = True, time.monotonic()
        self.stats.errors.clear()
        await self._watch(redis, window)
        self.stats.measuring = False
        result = window.result()
        stats1 = await redis_stats(redis)
        self.own["info"] += 4
        trips1 = await asyncio.gather(*map(server_round_trips, svc.urls))
        acks = self.stats.acks
        commands = stats_delta(stats0, stats1, self.own)
        cas_stats = commands.get("evalsha", 0)
        # (MONITOR watches one server: on a cluster the server's own count stands alone)
        sample = args.monitor_seconds > 0 and not svc.cluster
        trips = await self._round_trips(db) if sample else None
        self.stopping = True
        drain = await self._drain(redis)
        await redis.aclose()
        lat = {
            k: (None if x is None else round(x * 1000, 2))
            for k, x in percentiles(self.stats.latencies).items()
        }
        return {
            "game": args.game,
            "tables": len(self.tables),
            "sockets": sum(t.n for t in self.tables),
            "server_processes": len(svc.urls),
            "think_s": args.think,
            "setup_s": round(setup_s, 1),
            **result,
            "server_rss_idle_mib": round(rss_idle / 2**20, 1),
            "actions": acks,
            "actions_per_s": round(acks / result["seconds"], 1),
            "latency_ms": {**lat, "n": len(self.stats.latencies)},
            "errors": dict(self.stats.errors),
            "errors_total_run": dict(self.stats.errors_total),
            "redis": {
                "commands_per_action": round(sum(commands.values()) / acks, 2) if acks else None,
                "cas_scripts_per_action": round(cas_stats / acks, 3) if acks else None,
                "per_action": {k: round(n / acks, 3) for k, n in commands.items()} if acks else {},
                "round_trips": trips,
                "server_round_trips_per_action": trips_histogram(trips0, trips1),
                "redis_cpu_pct": round(
                    100 * (stats1["cpu"] - stats0["cpu"]) / result["seconds"], 1
                ),
                # Per action: network bytes in and out (the pub/sub fan-out included);
                # memory per table at the window's end (streams and command ids still
                # growing towards their caps: docs/operations/monitoring.md)
                "bytes_in_per_action": round((stats1["net_in"] - stats0["net_in"]) / acks)
                if acks
                else None,
                "bytes_out_per_action": round((stats1["net_out"] - stats0["net_out"]) / acks)
                if acks
                else None,
                "memory_per_table_kib": round(
                    (stats1["memory"] - empty["memory"]) / 1024 / max(1, len(self.tables)), 1
                ),
                **_cpu_per_action(stats0, stats1, acks),
                **({"replicas": _replicas(stats0, stats1, acks)} if "replicas" in stats1 else {}),
            },
            "outbox": {
                "backlog_max_entries": max((e for e, _ in self.outbox_samples), default=0),
                "lag_max_s": max((a for _, a in self.outbox_samples), default=0.0),
                "lag_last_s": self.outbox_samples[-1][1] if self.outbox_samples else 0.0,
                **drain,
            },
        }

    async def _watch(self, redis, window: Window) -> None:
        """The window itself: a progress line every ``--every`` s, outbox samples."""
        args, s = self.args, self.stats
        end = time.monotonic() + args.seconds
        last_t, last_acks = time.monotonic(), 0
        sample = [t.tid for t in self.tables[:: max(1, len(self.tables) // 50)]]
        server, me = window.server, window.me
        last_cpu = (server.cpu(), me.cpu())
        while (now := time.monotonic()) < end:
            await asyncio.sleep(min(args.every, end - now))
            entries, age, used = await outbox_backlog(redis, self.services.prefix, sample)
            self.own["xlen"] += used // 2
            self.own["xrange"] += used // 2
            self.outbox_samples.append((entries, age))
            t, cpu = time.monotonic(), (server.cpu(), me.cpu())
            lat = percentiles(s.interval)
            s.interval = []
            rate = (s.acks - last_acks) / (t - last_t)
            ms = {k: "-" if x is None else f"{x * 1000:.1f}" for k, x in lat.items()}
            self._progress(
                f"t={t - s.window_start:5.0f}s  {rate:6.0f} act/s  p50 {ms['p50']}ms "
                f"p99 {ms['p99']}ms max {ms['max']}ms  errors {sum(s.errors.values())}  "
                f"server {100 * (cpu[0] - last_cpu[0]) / (t - last_t):3.0f}%  "
                f"generator {100 * (cpu[1] - last_cpu[1]) / (t - last_t):3.0f}%  "
                f"outbox {entries} ({age:.1f}s, sampled)"
            )
            last_t, last_acks, last_cpu = t, s.acks, cpu

    async def _round_trips(self, db: int) -> dict[str, Any]:
        acks0 = self.stats.acks_total
        sent, inner = await monitor(self.services.redis_url, self.args.monitor_seconds, db)
        acks = self.stats.acks_total - acks0
        out = round_trip_summary(sent, acks)
        out["script_internal"] = dict(inner.most_common())
        return out

    async def _drain(self, redis) -> dict[str, Any]:
        """Stop acting and close the sockets, then time the outbox backlog down to zero."""
        for t in self.tables:
            for c in t.clients:
                with contextlib.suppress(Exception):
                    await c.ws.close()
        tids = [t.tid for t in self.tables]
        t0 = time.monotonic()
        entries = 0
        while time.monotonic() - t0 < self.args.drain_timeout:
            entries, _, _ = await outbox_backlog(redis, self.services.prefix, tids)
            if entries == 0:
                break
            await asyncio.sleep(0.5)
        return {
            "after_stop_entries": entries,
            "drain_s": round(time.monotonic() - t0, 2),
            "drained": entries == 0,
        }

    def _progress(self, line: str) -> None:
        print(line, file=sys.stderr, flush=True)


def _cpu_per_action(a: dict[str, Any], b: dict[str, Any], acks: int) -> dict[str, Any]:
    """Redis's CPU per action, in µs (all masters together on a cluster)."""
    return {"cpu_us_per_action": round(1e6 * (b["cpu"] - a["cpu"]) / acks, 1) if acks else None}


def _replicas(a: dict[str, Any], b: dict[str, Any], acks: int) -> dict[str, Any]:
    """What the cluster's replicas did per action (their replication stream): commands, bytes
    in and CPU; told apart from the masters', which are the move's own cost."""
    a, b = a["replicas"], b["replicas"]
    calls = sum(b["calls"].values()) - sum(a["calls"].values())
    return {
        "commands_per_action": round(calls / acks, 2) if acks else None,
        "bytes_in_per_action": round((b["net_in"] - a["net_in"]) / acks) if acks else None,
        **_cpu_per_action(a, b, acks),
    }


def report_text(r: dict[str, Any]) -> str:
    lat, red, ob = r["latency_ms"], r["redis"], r["outbox"]
    rt = red["round_trips"] or {}
    n = r["server_processes"]
    processes = f" ({n} processes together)" if n > 1 else ""
    return "\n".join(
        [
            f"{r['tables']} {r['game']} tables, {r['sockets']} players, think {r['think_s']}s, "
            f"window {r['seconds']}s (set-up {r['setup_s']}s)",
            f"actions/s          {r['actions_per_s']}  ({r['actions']} acknowledged)",
            f"act -> everyone    p50 {lat['p50']} ms  p95 {lat['p95']} ms  p99 {lat['p99']} ms  "
            f"max {lat['max']} ms  (n={lat['n']})",
            f"errors             {r['errors'] or 0}",
            f"CPU (% of a core)  server {r['server_cpu_pct']}{processes}  "
            f"generator {r['generator_cpu_pct']}  "
            f"redis {r['redis_cpu_pct']}  outbox worker {r['outbox_worker_cpu_pct']}  "
            f"machine busy {r['machine_busy_pct']}% (steal {r['machine_steal_pct']}%) of "
            f"{r['cores']} cores  load {r['loadavg_start']} -> {r['loadavg_end']}",
            f"server memory      {r['server_rss_mib']} MiB (idle {r['server_rss_idle_mib']} MiB)",
            f"redis              {red['commands_per_action']} commands/action "
            "(script calls incl.), "
            f"{red['cas_scripts_per_action']} CAS scripts/action",
            f"redis bytes        {red['bytes_in_per_action']} in, {red['bytes_out_per_action']} "
            f"out per action; {red['memory_per_table_kib']} KiB per table; "
            f"CPU {red['cpu_us_per_action']} µs per action",
            f"cluster replicas   {red.get('replicas', '-')} (per action: their replication)",
            f"round trips        {red['server_round_trips_per_action']} (accepted acts by Redis "
            f"round trips, the server's own count)",
            f"client commands    {rt.get('move_path_per_cas')} reads+CAS per CAS; "
            f"{rt.get('all_per_move')} per move from every client (MONITOR: {rt.get('sent')})",
            f"outbox             max backlog {ob['backlog_max_entries']} entries, max lag "
            f"{ob['lag_max_s']}s (sampled tables); drained {ob['drained']} in {ob['drain_s']}s",
        ]
    )


def parser(description: str | None = __doc__) -> argparse.ArgumentParser:
    """The playing tables' arguments (bench/joins.py adds its burst's to them)."""
    p = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", type=int, default=750)
    p.add_argument("--game", default="gaple")
    p.add_argument("--seats", type=int, default=None, help="default 4")
    p.add_argument("--options", default="{}", help="table options, JSON")
    p.add_argument(
        "--think",
        type=float,
        default=1.0,
        help="mean think time per turn in s (4 seats: each acts about every 4x)",
    )
    p.add_argument("--seconds", type=float, default=60.0, help="measurement window")
    p.add_argument("--warmup", type=float, default=10.0)
    p.add_argument("--every", type=float, default=5.0, help="progress line period")
    p.add_argument(
        "--monitor-seconds",
        type=float,
        default=3.0,
        help="MONITOR sample after the window for round trips (0: skip)",
    )
    p.add_argument("--drain-timeout", type=float, default=60.0)
    p.add_argument(
        "--round-pause",
        type=float,
        default=1.0,
        help="server's pause between rounds (MEJA_ROUND_PAUSE)",
    )
    p.add_argument("--concurrency", type=int, default=16, help="tables set up at once")
    add_socket_args(p)
    add_service_args(p)
    p.add_argument(
        "--by-table",
        action="store_true",
        help="with --servers: all of a table's sockets on one process (the proxy hashing the "
        "table's path) instead of round robin per socket",
    )
    p.add_argument(
        "--outbox-worker",
        action="store_true",
        help="run the outbox consumer as its own process (python -m app outbox)",
    )
    p.add_argument("--json", action="store_true")
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return parser().parse_args(argv)


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    nofile = raise_nofile(max(4096, args.tables * 8 * 2 + 1024))
    env = {"MEJA_ROUND_PAUSE": str(args.round_pause), "MEJA_RATE_PER_SECOND": "10"}
    services = services_from_args(
        args, tag="load", nofile=nofile, env=env, outbox_worker=args.outbox_worker
    )
    await services.start()
    try:
        load = Load(args, services)
        report = await load.run()
        report["server_log_dir"] = str(services.log_dir)
        return report
    finally:
        await services.stop()


def main(argv: list[str] | None = None) -> int:
    run_tool(main_async, parse_args(argv), report_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
