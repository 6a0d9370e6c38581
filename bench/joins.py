"""The evening rush: a burst of players sitting down while other tables play.

    python bench/joins.py [--tables 500] [--joins 1000] [--within 5] [--json]

Starts Redis, the database and the server like bench/load.py (same arguments), sets up
``--tables`` Gaple tables that play as load.py's do, and opens ``--joins / 4`` empty Gaple chips
tables (stake ``--stake``, made by hosts who do not sit). Then, after ``--warmup``, the burst:
``--joins`` new players arrive evenly spread over ``--within`` seconds, each one

1. signing up as a guest (``POST /api/players``: the player, its starting grant through the
   ledger, its session),
2. sitting with a buy-in of ``--buy-in`` chips at its chosen table and seat
   (``POST /api/tables/{id}/seats/{n}``: the ledger's debit, the compare-and-set),
3. opening its table's socket (the WebSocket handshake, the token checked),
4. and receiving its first ``state``.

A join's time is from its arrival to its first state; each step is timed too (the client's
view: the server's own costs are in bench/README.md "Joins"). The joiners then play like the
others. Reported: joins/s (completed joins over the time from the first arrival to the last
first state), join latency p50/p95/p99/max overall and per step, errors by code, the playing
tables' act latency during the burst (act -> every seat's state, as load.py), CPU of the server
and Redis and the machine's busy and steal shares over the burst. After the burst every joiner's
wallet is read back (grant - buy-in: the buy-in was taken exactly once) and the money audit
(``GET /api/admin/audit``) must balance.

The generator's addresses are exempt from the per-address rate limits by the documented
setting ``MEJA_RATE_LIMIT_EXEMPT`` (bench/services.py); the per-player limits stay on.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psutil  # noqa: E402

from bench.cli import run_tool, services_from_args  # noqa: E402
from bench.load import Client, Load, Table, parser  # noqa: E402
from bench.percentiles import percentiles  # noqa: E402
from bench.rest import Api, gather_limited  # noqa: E402
from bench.services import drop_database, fresh_database, raise_nofile  # noqa: E402
from bench.usage import Usage, Window  # noqa: E402

STEPS = ("signup", "sit", "socket", "first_state")


class Burst:
    """The joiners of one burst: their step times, their errors, their tables."""

    def __init__(self, load: Load, api: Api, args):
        self.load, self.api, self.args = load, api, args
        self.steps: dict[str, list[float]] = {s: [] for s in (*STEPS, "join")}
        self.errors: Counter[str] = Counter()
        self.tokens: list[str] = []
        self.done_at: list[float] = []

    async def open_tables(self) -> list[Table]:
        """The empty chips tables the joiners sit at, each made by a host who does not sit."""
        options = {"stake": self.args.stake}
        n = -(-self.args.joins // 4)

        async def one(i: int) -> Table:
            host = await self.api.register(f"Host {i}")
            tid = await self.api.create(host, "gaple", 4, options)
            return Table(tid, 4)

        return await gather_limited((one(i) for i in range(n)), self.args.concurrency)

    async def join(self, i: int, table: Table, start: float) -> None:
        await asyncio.sleep(max(0.0, start - time.perf_counter()))
        t0 = t = time.perf_counter()
        step = "signup"
        try:
            token = await self.api.register(f"Rush {i}")
            t = self._took(step, t)
            step = "sit"
            await self.api.sit(token, table.tid, i % 4, self.args.buy_in)
            t = self._took(step, t)
            step = "socket"
            c = Client(table, i % 4, token, random.Random(i))
            c.first = first = asyncio.Event()
            c.passive = True  # its table's turns would be counted as the join's cost
            await self.load._connect(c, i, i)
            t = self._took(step, t)
            step = "first_state"
            await asyncio.wait_for(first.wait(), 30)
            self._took(step, t)
        except Exception as e:  # counted by the step it failed at; the run goes on
            self.errors[f"{step}: {_code(e)}"] += 1
            return
        self.steps["join"].append(time.perf_counter() - t0)
        self.done_at.append(time.perf_counter())
        self.tokens.append(token)
        table.clients.append(c)

    def _took(self, step: str, since: float) -> float:
        now = time.perf_counter()
        self.steps[step].append(now - since)
        return now

    async def wallets(self) -> Counter[int]:
        """Every joiner's wallet after the burst, counted by balance."""

        async def one(token: str) -> int:
            return (await self.api.call("GET", "/api/players/me/wallet", token))["balance"]

        return Counter(await gather_limited(map(one, self.tokens), self.args.concurrency))


class Costs:
    """CPU seconds of each party (server, Postgres's backends of the run's database, Redis,
    this generator), so a join's cost is told apart from the playing tables' and from
    whatever else the shared machine runs: a window's CPU minus the idle-burst baseline."""

    def __init__(self, svc, database: str):
        self.server, self.me = Usage(*svc.server_pids), Usage()
        self.redis = Usage(svc.redis_pid) if svc.redis_pid else None
        self.database = database

    def _backends(self) -> dict[int, float]:
        out = {}
        for p in psutil.process_iter(["name", "cmdline"]):
            cmd = " ".join(p.info["cmdline"] or ())
            if p.info["name"] == "postgres" and f" {self.database} " in f"{cmd} ":
                with contextlib.suppress(psutil.Error):
                    t = p.cpu_times()
                    out[p.pid] = t.user + t.system
        return out

    def read(self) -> dict[str, Any]:
        return {
            "server": self.server.cpu(),
            "redis": self.redis.cpu() if self.redis else 0.0,
            "generator": self.me.cpu(),
            "postgres": self._backends(),
            "t": time.perf_counter(),
        }

    @staticmethod
    def spent(a: dict[str, Any], b: dict[str, Any]) -> dict[str, float]:
        pg = sum(cpu - a["postgres"].get(pid, 0.0) for pid, cpu in b["postgres"].items())
        out = {k: b[k] - a[k] for k in ("server", "redis", "generator")}
        return {**out, "postgres": pg, "seconds": b["t"] - a["t"]}

    @classmethod
    def per_join(cls, base: dict[str, float], burst: dict[str, float], joins: int):
        """ms of CPU per join: the burst's, less what the same time cost before it."""
        scale = burst["seconds"] / base["seconds"]
        return {
            k: round(1000 * (burst[k] - base[k] * scale) / joins, 2)
            for k in ("server", "postgres", "redis", "generator")
        }


async def _quiet(load: Load) -> None:
    """Every player stops acting and leaves (the server's clocks may still move a turn)."""
    load.stopping = True
    for t in load.tables:
        for c in t.clients:
            with contextlib.suppress(Exception):
                await c.ws.close()


async def _audit(api: Api, token: str, wait: float = 30.0) -> dict[str, Any]:
    """The money audit once the outbox is drained, when it also holds the ledger's stacks in
    play against the live tables' in Redis (app/services/admin_tables.py)."""
    deadline = time.monotonic() + wait
    while True:
        audit = await api.call("GET", "/api/admin/audit", token)
        if audit["outbox_backlog"] == 0 or time.monotonic() > deadline:
            return audit
        await asyncio.sleep(0.5)


def _code(e: Exception) -> str:
    text = str(e)
    if '"code":"' in text:
        return text.split('"code":"', 1)[1].split('"', 1)[0]
    return type(e).__name__


def _ms(values: list[float]) -> dict[str, Any]:
    return {
        **{k: None if x is None else round(x * 1000, 1) for k, x in percentiles(values).items()},
        "n": len(values),
    }


async def rush(args, load: Load, admin_token: str) -> dict[str, Any]:
    svc = load.services
    # httpx's pool scans every connection for every request: a pool as large as the burst cost
    # the generator more CPU than the server spent on the joins (bench/README.md "Joins")
    api = Api(svc.url, concurrency=args.connections)
    burst = Burst(load, api, args)
    try:
        await load.setup()
        tables = await burst.open_tables()
        load._progress(
            f"{len(load.tables)} tables playing, {len(tables)} open for the burst; "
            f"warming up {args.warmup:g}s"
        )
        await asyncio.sleep(args.warmup / 2)
        costs = Costs(svc, svc.database_url.rsplit("/", 1)[-1].split("?")[0])
        c0 = costs.read()
        await asyncio.sleep(args.warmup / 2)
        c1 = costs.read()
        load.stats.latencies.clear()
        load.stats.measuring = True
        window = Window(Usage(*svc.server_pids), svc.redis_pid, svc.worker_pid)
        t0 = time.perf_counter() + 0.05
        gap = args.within / args.joins
        await asyncio.gather(
            *(burst.join(i, tables[i // 4], t0 + i * gap) for i in range(args.joins))
        )
        usage = window.result()
        c2 = costs.read()
        load.stats.measuring = False
        acts = _ms(load.stats.latencies)
        span = (max(burst.done_at) - t0) if burst.done_at else None
        load.tables.extend(tables)
        await asyncio.sleep(args.settle)
        balances = await burst.wallets()
        await _quiet(load)
        audit = await _audit(api, admin_token)
    finally:
        await _quiet(load)
        await api.close()
    return {
        "tables_playing": args.tables,
        "joins": args.joins,
        "within_s": args.within,
        "server_processes": len(svc.urls),
        "joined": len(burst.done_at),
        "joins_per_s": round(len(burst.done_at) / span, 1) if span else None,
        "last_join_s": round(span, 2) if span else None,
        "join_ms": _ms(burst.steps["join"]),
        "steps_ms": {s: _ms(burst.steps[s]) for s in STEPS},
        "errors": dict(burst.errors),
        "cpu_ms_per_join": Costs.per_join(
            Costs.spent(c0, c1), Costs.spent(c1, c2), max(1, len(burst.done_at))
        ),
        "acts_during_burst_ms": acts,
        "act_errors": dict(load.stats.errors),
        **usage,
        "wallets_after": {str(k): n for k, n in balances.most_common()},
        "audit_ok": audit.get("ok"),
        "audit": audit,
    }


def report_text(r: dict[str, Any]) -> str:
    j, a = r["join_ms"], r["acts_during_burst_ms"]
    steps = "  ".join(f"{s} p50 {v['p50']} p99 {v['p99']}" for s, v in r["steps_ms"].items())
    return "\n".join(
        [
            f"{r['joins']} joins within {r['within_s']}s while {r['tables_playing']} tables play "
            f"({r['server_processes']} server process(es))",
            f"joined             {r['joined']}, {r['joins_per_s']} joins/s "
            f"(last first state {r['last_join_s']}s after the first arrival)",
            f"join -> 1st state  p50 {j['p50']} ms  p95 {j['p95']} ms  p99 {j['p99']} ms  "
            f"max {j['max']} ms",
            f"steps (ms)         {steps}",
            f"join errors        {r['errors'] or 0}",
            f"CPU ms per join    {r['cpu_ms_per_join']} (the burst's less the same time before it)",
            f"acts meanwhile     p50 {a['p50']} ms  p99 {a['p99']} ms  max {a['max']} ms "
            f"(n={a['n']}), errors {r['act_errors'] or 0}",
            f"CPU (% of a core)  server {r['server_cpu_pct']}  redis {r['redis_cpu_pct']}  "
            f"generator {r['generator_cpu_pct']}  machine busy {r['machine_busy_pct']}% "
            f"(steal {r['machine_steal_pct']}%) of {r['cores']} cores",
            f"wallets after      {r['wallets_after']}",
            f"money audit        ok={r['audit_ok']}",
        ]
    )


def parse_args(argv: list[str] | None = None):
    p = parser(__doc__)
    p.set_defaults(tables=500, warmup=10.0, concurrency=32)
    p.add_argument("--joins", type=int, default=1000)
    p.add_argument("--connections", type=int, default=100, help="the joiners' HTTP connections")
    p.add_argument("--within", type=float, default=5.0, help="s over which the joins arrive")
    p.add_argument("--stake", type=int, default=10, help="the burst's tables' stake")
    p.add_argument("--buy-in", type=int, default=200, help="each joiner's buy-in, chips")
    p.add_argument("--settle", type=float, default=3.0, help="s before the wallets are read")
    return p.parse_args(argv)


async def main_async(args) -> dict[str, Any]:
    nofile = raise_nofile(max(4096, (args.tables * 4 + args.joins) * 2 + 1024))
    admin_token = secrets.token_urlsafe(24)
    env = {
        "MEJA_ROUND_PAUSE": str(args.round_pause),
        "MEJA_RATE_PER_SECOND": "10",
        "MEJA_ADMIN_TOKEN": admin_token,
    }
    args.database_url = fresh_database(args.database_url, "joins")  # the audit reads it whole
    services = services_from_args(
        args, tag="joins", nofile=nofile, env=env, outbox_worker=args.outbox_worker
    )
    await services.start()
    try:
        report = await rush(args, Load(args, services), admin_token)
        report["server_log_dir"] = str(services.log_dir)
        return report
    finally:
        await services.stop()
        await drop_database(args.database_url)


def main(argv: list[str] | None = None) -> int:
    report = run_tool(main_async, parse_args(argv), report_text)
    return 0 if report["audit_ok"] and not report["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
