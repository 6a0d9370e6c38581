"""A Redis Cluster master killed under play: how long its tables stop, and whether the others do.

    python bench/failover.py [--victim slot0|other] [--node-timeout-ms 5000]
                             [--wait-replicas 0|1] [--per-master 3] [--json]

The deployment of tests/ops/test_cluster_processes.py, measured instead of bounded: a private
Redis Cluster (3 masters, 3 replicas, ``cluster-require-full-coverage no``, the given
``cluster-node-timeout``), three ``serve`` processes, ``--per-master`` Gaple tables on each
master with each table's four sockets on all three processes, players acting 50 ms after
their turn comes. After a round, one master is SIGKILLed (the one holding slot 0, redis-py's
first node, or another) and play goes on for ``--seconds``. Reported:

- ``stall_s``: per table of the killed master, the longest wait between two versions its
  players received from 5 s before the kill to 30 s after (players act 0.05 s after their
  turn comes, so this is the failover: detection, promotion, re-subscription);
- ``other_longest_gap_s``: the same, longest over the tables of the other masters;
- ``closes``, ``errors`` (socket error codes), ``timeouts`` (turn clocks that ran out) and
  ``http_5xx`` (every process's access log).

Postgres (``DATABASE_URL``'s server) gets a database of the run's own.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.services import DEFAULT_DB, _create_database  # noqa: E402
from tests.ops.test_cluster_processes import Deployment, rounds_played  # noqa: E402


async def main_async(args: argparse.Namespace) -> dict:
    base = (args.database_url or DEFAULT_DB).rsplit("/", 1)[0]
    database = f"{base}/meja_failover_{uuid.uuid4().hex[:8]}"
    await _create_database(database)
    d = Deployment(
        Path(tempfile.mkdtemp(prefix="meja-failover-")),
        database,
        f"bench:{uuid.uuid4().hex[:8]}:",
        node_timeout_ms=args.node_timeout_ms,
        MEJA_REDIS_WAIT_REPLICAS=str(args.wait_replicas),
        MEJA_REDIS_WAIT_MS="500",
    )
    try:
        await d.start()
        await d.tables(args.per_master)
        await d.play(rounds_played(1), timeout=180)
        slot0 = d.slot0_master()
        masters = {d.master_of(t) for t in d.seats}
        port = slot0 if args.victim == "slot0" else max(masters - {slot0})
        playing = asyncio.create_task(d.play(lambda m: False, timeout=args.seconds + 5))
        await asyncio.sleep(5)
        killed_at = time.monotonic()
        d.cluster.kill(port)
        with contextlib.suppress(TimeoutError):  # the window is over
            await playing
        return report(d, port, slot0, killed_at)
    finally:
        await d.stop()


def report(d: Deployment, port: int, slot0: int, killed_at: float) -> dict:
    stalls, gaps = [], []
    closes: Counter = Counter()
    errors: Counter = Counter()
    for tid, seats in d.seats.items():
        for s in seats:
            closes.update(str(c) for c in s.closes)
            errors.update(s.errors)
        window = sorted(
            at for s in seats for at, _ in s.arrivals if killed_at - 5 < at < killed_at + 30
        )
        gap = max((b - a for a, b in zip(window, window[1:])), default=None)
        (stalls if d.master_of(tid) == port else gaps).append(gap)
    return {
        "victim": "slot0" if port == slot0 else "other",
        "node_timeout_ms": d.cluster.node_timeout_ms,
        "tables": len(d.seats),
        "stall_s": [round(g, 2) for g in stalls if g is not None],
        "stall_s_median": round(statistics.median(stalls), 2) if None not in stalls else None,
        "other_longest_gap_s": round(max(gaps), 2) if None not in gaps else None,
        "closes": dict(closes),
        "errors": dict(errors),
        "timeouts": sum(s.timeouts for seats in d.seats.values() for s in seats),
        "http_5xx": len(d.server_errors()),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--victim", choices=("slot0", "other"), default="slot0")
    p.add_argument("--node-timeout-ms", type=int, default=5000)
    p.add_argument("--wait-replicas", type=int, default=0)
    p.add_argument("--per-master", type=int, default=3)
    p.add_argument("--seconds", type=float, default=40.0, help="play after the first round")
    p.add_argument("--database-url", help=f"a server for the run's database (default {DEFAULT_DB})")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    result = asyncio.run(main_async(args))
    print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() if args.json else result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
