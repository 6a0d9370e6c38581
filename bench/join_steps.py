"""Where a join's time goes: one player at a time, each step timed on both sides.

    python bench/join_steps.py [--joins 200] [--logins 5] [--json]

Starts Redis, the database and the server like bench/load.py (same arguments) and, with nothing
else running, makes ``--joins`` joins one after another, as bench/joins.py's burst makes them
(guest sign-up, sit with a buy-in at an empty Gaple chips table, socket open, first state). Per
step it reports the client's time (median and p90) and, from the server's own ``/metrics``
scraped before and after, the server's time per request by route, the database statements and
their time per join, and the Redis round trips (the table store's: the compare-and-set among
them) per join; and the server's CPU per join. Then the password path, which a guest's join
does not take: the Argon2id hash with the settings' costs, in this process, and ``--logins``
password logins over REST (the per-account limit allows 10 a minute).
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.cli import run_tool, services_from_args  # noqa: E402
from bench.load import Client, Load, Table, parser  # noqa: E402
from bench.rest import Api  # noqa: E402
from bench.services import raise_nofile  # noqa: E402
from bench.usage import Usage  # noqa: E402

STEPS = ("signup", "sit", "socket", "first_state")
PREFIXES = ("meja_http_request_seconds_", "meja_db_seconds_", "meja_redis_seconds_")
ROUTES = {"signup": ("POST", "/api/players"), "sit": ("POST", "/api/tables/{tid}/seats/{n}")}


async def scrape(url: str) -> dict[str, float]:
    """The metrics a join moves, as ``name{labels}`` -> value."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        text = (await http.get("/metrics")).text
    out = {}
    for line in text.splitlines():
        if line.startswith(
            ("meja_http_request_seconds_", "meja_db_seconds_", "meja_redis_seconds_")
        ):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def per_join(a: dict[str, float], b: dict[str, float], n: int) -> dict[str, Any]:
    def d(name: str) -> float:
        return b.get(name, 0.0) - a.get(name, 0.0)

    routes = {}
    for step, (method, route) in ROUTES.items():
        labels = f'method="{method}",route="{route}"'
        count = d(f"meja_http_request_seconds_count{{{labels}}}")
        total = d(f"meja_http_request_seconds_sum{{{labels}}}")
        routes[step] = round(1000 * total / count, 2) if count else None
    return {
        "server_ms_by_route": routes,
        "db_statements": round(d("meja_db_seconds_count") / n, 1),
        "db_ms": round(1000 * d("meja_db_seconds_sum") / n, 2),
        "redis_round_trips": round(d("meja_redis_seconds_count") / n, 1),
        "redis_ms": round(1000 * d("meja_redis_seconds_sum") / n, 2),
    }


async def steps(args, load: Load) -> dict[str, Any]:
    svc = load.services
    api = Api(svc.url, concurrency=4)
    times: dict[str, list[float]] = {s: [] for s in STEPS}
    hosts = [await api.register(f"Host {i}") for i in range(-(-args.joins // 4))]
    tids = [await api.create(h, "gaple", 4, {"stake": args.stake}) for h in hosts]
    server = Usage(*svc.server_pids)
    m0, cpu0 = await scrape(svc.url), server.cpu()
    for i in range(args.joins):
        table = Table(tids[i // 4], 4)
        t = time.perf_counter()
        token = await api.register(f"Step {i}")
        t = _took(times["signup"], t)
        await api.sit(token, table.tid, i % 4, args.buy_in)
        t = _took(times["sit"], t)
        c = Client(table, i % 4, token, random.Random(i))
        c.first, c.passive = asyncio.Event(), True
        await load._connect(c, i, i)
        t = _took(times["socket"], t)
        await c.first.wait()
        _took(times["first_state"], t)
        table.clients.append(c)
        load.tables.append(table)
    cpu = (server.cpu() - cpu0) / args.joins
    server_side = per_join(m0, await scrape(svc.url), args.joins)
    logins = await _logins(api, args.logins)
    await api.close()
    load.stopping = True
    return {
        "joins": args.joins,
        "client_ms": {
            s: {"median": _ms(statistics.median(v)), "p90": _ms(_p90(v))} for s, v in times.items()
        },
        **server_side,
        "server_cpu_ms_per_join": round(1000 * cpu, 2),
        "argon2_hash_ms": _argon2_ms(),
        "login_ms": logins,
    }


async def _logins(api: Api, n: int) -> dict[str, Any] | None:
    if n <= 0:
        return None
    name, password = f"bench{random.randrange(10**9)}", "a long bench password"
    await api.call("POST", "/api/accounts", json={"username": name, "password": password})
    took = []
    for _ in range(n):
        t = time.perf_counter()
        await api.call("POST", "/api/session", json={"username": name, "password": password})
        took.append(time.perf_counter() - t)
    return {"median": _ms(statistics.median(took)), "n": n}


def _argon2_ms() -> float:
    """One Argon2id hash with the settings' costs (what a password login verifies)."""
    from argon2 import PasswordHasher

    from app.config import Settings

    s = Settings()
    hasher = PasswordHasher(time_cost=s.password_time_cost, memory_cost=s.password_memory_kib)
    t = time.perf_counter()
    for _ in range(5):
        hasher.hash("a long bench password")
    return _ms((time.perf_counter() - t) / 5)


def _took(into: list[float], since: float) -> float:
    now = time.perf_counter()
    into.append(now - since)
    return now


def _p90(v: list[float]) -> float:
    return sorted(v)[int(0.9 * (len(v) - 1))]


def _ms(x: float) -> float:
    return round(1000 * x, 2)


def report_text(r: dict[str, Any]) -> str:
    c = r["client_ms"]
    return "\n".join(
        [
            f"{r['joins']} joins one at a time (client side, median / p90 ms): "
            + "  ".join(f"{s} {v['median']} / {v['p90']}" for s, v in c.items()),
            f"server time by route (mean ms)  {r['server_ms_by_route']}",
            f"per join                        {r['db_statements']} database statements "
            f"({r['db_ms']} ms), {r['redis_round_trips']} table-store round trips to Redis "
            f"({r['redis_ms']} ms), server CPU {r['server_cpu_ms_per_join']} ms",
            f"password path                   Argon2id hash {r['argon2_hash_ms']} ms; "
            f"login over REST {r['login_ms']}",
        ]
    )


def parse_args(argv: list[str] | None = None):
    p = parser(__doc__)
    p.set_defaults(tables=0)
    p.add_argument("--joins", type=int, default=200)
    p.add_argument("--logins", type=int, default=5)
    p.add_argument("--stake", type=int, default=10)
    p.add_argument("--buy-in", type=int, default=200)
    return p.parse_args(argv)


async def main_async(args) -> dict[str, Any]:
    nofile = raise_nofile(4096 + args.joins * 2)
    services = services_from_args(args, tag="join-steps", nofile=nofile)
    await services.start()
    try:
        load = Load(args, services)
        report = await steps(args, load)
        for t in load.tables:
            for c in t.clients:
                await c.ws.close()
        return report
    finally:
        await services.stop()


def main(argv: list[str] | None = None) -> int:
    run_tool(main_async, parse_args(argv), report_text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
