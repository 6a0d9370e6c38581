"""What Redis did per player action: commands, round trips, and the outbox backlog.

``INFO commandstats`` counts every command, those run inside a Lua script included; those are
not round trips. A short ``MONITOR`` sample tells the two apart (a client's command versus a
script's), and the server's own ``/metrics`` histogram counts round trips per accepted action
(a pipeline is one). The outbox backlog is read from the tables' outbox streams.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from app.store.keys import Keys

SCRIPTS = Path(__file__).resolve().parents[1] / "app" / "store" / "scripts"
HOT = ("hmget", "get", "xrange", "lrange")  # the move path's reads besides the CAS script
TRIPS = "meja_action_redis_round_trips_bucket"


async def redis_stats(redis: Redis | RedisCluster) -> dict[str, Any]:
    """Calls per command (commandstats, script-internal calls included), Redis's CPU, the
    bytes it has read and written on the network (pub/sub deliveries included) and the memory
    it holds (``used_memory``). On a cluster: the masters' together, and under ``replicas``
    the replicas' (what replicating the masters' writes costs them)."""
    if not isinstance(redis, RedisCluster):
        return _stats([await redis.info(s) for s in SECTIONS])
    # The nodes as the cluster lists them now (CLUSTER SLOTS, which redis-py's topology comes
    # from, leaves out a replica that has not replicated a write yet), each asked directly.
    listed = await redis.execute_command("CLUSTER NODES", target_nodes=RedisCluster.RANDOM)
    out: dict[str, list[dict[str, Any]]] = {"master": [], "slave": []}
    for address, node_info in listed.items():  # redis-py's parse: "host:port" -> fields
        role = "master" if "master" in node_info["flags"].split(",") else "slave"
        host, port = address.rsplit(":", 1)
        node = Redis(host=host, port=int(port))
        try:
            out[role].append(_stats([await node.info(s) for s in SECTIONS]))
        finally:
            await node.aclose()
    return {**_summed(out["master"]), "replicas": _summed(out["slave"])}


SECTIONS = ("commandstats", "cpu", "stats", "memory")


def _stats(sections: list[dict[str, Any]]) -> dict[str, Any]:
    stats, cpu, net, memory = sections
    return {
        "calls": {k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()},
        "cpu": cpu["used_cpu_user"] + cpu["used_cpu_sys"],
        "net_in": net["total_net_input_bytes"],
        "net_out": net["total_net_output_bytes"],
        "memory": memory["used_memory"],
    }


def _summed(nodes: list[dict[str, Any]]) -> dict[str, Any]:
    calls: Counter[str] = Counter()
    for n in nodes:
        calls.update(n["calls"])
    return {
        "calls": dict(calls),
        **{k: sum(n[k] for n in nodes) for k in ("cpu", "net_in", "net_out", "memory")},
    }


def stats_delta(a: dict[str, Any], b: dict[str, Any], own: Counter[str]) -> dict[str, int]:
    """Commands between two snapshots, minus the tool's own (INFO, outbox sampling)."""
    out = {k: n - a["calls"].get(k, 0) - own.get(k, 0) for k, n in b["calls"].items()}
    return {k: n for k, n in sorted(out.items(), key=lambda kv: -kv[1]) if n > 0}


def _script_shas() -> dict[str, str]:
    return {hashlib.sha1(p.read_bytes()).hexdigest(): p.stem for p in SCRIPTS.glob("*.lua")}


async def monitor(redis_url: str, seconds: float, db: int) -> tuple[Counter[str], Counter[str]]:
    """Round trips (commands a client sent) and script-internal calls seen by MONITOR for
    ``seconds``, of database ``db`` only. EVALSHA is named after its script (evalsha:cas)."""
    shas = _script_shas()
    sent: Counter[str] = Counter()
    inner: Counter[str] = Counter()
    client = Redis.from_url(redis_url)
    try:
        async with client.monitor() as m:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                try:
                    async with asyncio.timeout(max(0.01, deadline - time.monotonic())):
                        info = await m.next_command()
                except TimeoutError:
                    break
                if info.get("db") != db:
                    continue
                words = info["command"].split(" ", 2)
                name = words[0].lower()
                if name == "evalsha" and len(words) > 1:
                    name = "evalsha:" + shas.get(words[1], "?")
                (inner if info.get("client_type") == "lua" else sent)[name] += 1
    finally:
        await client.aclose()
    return sent, inner


def round_trip_summary(sent: Counter[str], moves: int) -> dict[str, Any]:
    """Round trips per move on the move path (the CAS script plus the reads it may need), and
    the background ones (sweeper, outbox consumer, lobby) separately."""
    cas = sent.get("evalsha:cas", 0)
    hot = cas + sum(sent.get(c, 0) for c in HOT)
    return {
        "moves_in_sample": moves,
        "cas_scripts": cas,
        "move_path_per_move": round(hot / moves, 3) if moves else None,
        "move_path_per_cas": round(hot / cas, 3) if cas else None,
        "all_per_move": round(sum(sent.values()) / moves, 3) if moves else None,
        "sent": dict(sent.most_common()),
    }


async def server_round_trips(url: str) -> dict[str, float] | None:
    """The server's own count of Redis round trips per accepted player action (``/metrics``,
    a cumulative histogram): bucket upper bound -> actions so far. None without metrics."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        r = await http.get("/metrics")
    if r.status_code != 200:
        return None
    out = {}
    for line in r.text.splitlines():
        if line.startswith(TRIPS):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out[le] = float(line.rsplit(" ", 1)[1])
    return out or None


def trips_histogram(
    a: list[dict[str, float] | None], b: list[dict[str, float] | None]
) -> dict[str, Any] | None:
    """Actions by round trips between two scrapes of each serve process, all processes
    together: {"1": n, "2": n, "more": n}, and the actions each process answered."""
    if not a or not all(a) or not all(b):
        return None

    def delta(le: str) -> list[float]:
        return [y.get(le, 0) - x.get(le, 0) for x, y in zip(a, b)]

    one, two, by_process = sum(delta("1.0")), sum(delta("2.0")), delta("+Inf")
    total = sum(by_process)
    return {
        "actions": int(total),
        "actions_by_process": [int(n) for n in by_process],
        "1": int(one),
        "2": int(two - one),
        "more_than_2": int(total - two),
        "share_1": round(one / total, 4) if total else None,
    }


async def outbox_backlog(
    redis: Redis | RedisCluster, prefix: str, tids: list[str]
) -> tuple[int, float, int]:
    """(entries not yet in the database, age in s of the oldest, commands used): acknowledged
    entries are deleted from a table's outbox stream, so what is left is the backlog."""
    if not tids:
        return 0, 0.0, 0
    keys = Keys(prefix)
    async with redis.pipeline(transaction=False) as pipe:
        for tid in tids:
            key = keys.outbox(tid)  # the server's own key (its bucket tag), never a copy of it
            pipe.xlen(key)
            pipe.xrange(key, "-", "+", count=1)
        rows = await pipe.execute()
    now_ms = time.time() * 1000
    entries = sum(rows[0::2])
    oldest = [int(r[0][0].split(b"-")[0]) for r in rows[1::2] if r]
    age = (now_ms - min(oldest)) / 1000 if oldest else 0.0
    return entries, round(max(0.0, age), 3), 2 * len(tids)
