"""``make bench``: a short run of each benchmark, summed up in one table.

    python bench/suite.py [--tables 50] [--players 2000] [--seconds 10]

Runs bench/engine.py (rules engine, no I/O), bench/load.py (real players on real sockets
against the real server, Redis and database) and bench/connections.py (idle connected
players), each in its own process, and prints their headline figures in one table. The full
sizes (750 tables, 20,000 players) are in bench/README.md; this is the quick look.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import orjson

HERE = Path(__file__).resolve().parent


def run(args: list[str]) -> str:
    out = subprocess.run([sys.executable, *args], cwd=HERE.parent, capture_output=True, text=True)
    if out.returncode not in (0, 1):
        sys.exit(f"{' '.join(args)} failed:\n{out.stderr[-3000:]}")
    return out.stdout


def engine_rows(seconds: float) -> list[tuple[str, str, str]]:
    rows = []
    for line in run([str(HERE / "engine.py"), "--seconds", str(seconds)]).splitlines()[1:]:
        name, _, actions = line.rsplit(None, 2)
        rows.append((f"engine {name}", "actions/s (one core, no I/O)", actions))
    return rows


def load_rows(tables: int, seconds: float) -> list[tuple[str, str, str]]:
    r = orjson.loads(
        run(
            [
                str(HERE / "load.py"),
                "--json",
                "--tables",
                str(tables),
                "--warmup",
                "3",
                "--seconds",
                str(seconds),
                "--every",
                "5",
                "--monitor-seconds",
                "2",
            ]
        )
    )
    lat, red, trips = r["latency_ms"], r["redis"], r["redis"]["round_trips"] or {}
    name = f"load {r['tables']} {r['game']} tables"
    return [
        (name, f"players (think {r['think_s']}s)", str(r["sockets"])),
        ("", "actions/s", f"{r['actions_per_s']:.0f}"),
        ("", "act -> everyone p50 / p99 / max ms", f"{lat['p50']} / {lat['p99']} / {lat['max']}"),
        ("", "errors", str(sum(r["errors"].values()))),
        (
            "",
            "CPU % of a core: server / generator / redis",
            f"{r['server_cpu_pct']} / {r['generator_cpu_pct']} / {r['redis_cpu_pct']}",
        ),
        (
            "",
            "acts by Redis round trips: 1 / 2 / more",
            _trips(red["server_round_trips_per_action"]),
        ),
        ("", "client commands per CAS (reads + CAS)", str(trips.get("move_path_per_cas"))),
        ("", "Redis commands per action (all)", str(red["commands_per_action"])),
        (
            "",
            "outbox max lag s (drained after stop)",
            f"{r['outbox']['lag_max_s']} ({r['outbox']['drained']})",
        ),
        (
            "",
            "machine busy % (both cores, shared), steal %",
            f"{r['machine_busy_pct']}, {r['machine_steal_pct']}",
        ),
    ]


def _trips(h: dict | None) -> str:
    return f"{h['1']} / {h['2']} / {h['more_than_2']}" if h else "-"


def connection_rows(players: int) -> list[tuple[str, str, str]]:
    r = orjson.loads(
        run([str(HERE / "connections.py"), "--json", "--players", str(players), "--hold", "5"])
    )
    return [
        (
            f"connections {r['players']} idle",
            "KiB per connection (server RSS)",
            str(r["kib_per_connection"]),
        ),
        ("", "all stayed up", str(r["all_stayed_up"])),
    ]


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--players", type=int, default=2000)
    p.add_argument("--seconds", type=float, default=10.0)
    args = p.parse_args()
    rows = [
        *engine_rows(1.0),
        *load_rows(args.tables, args.seconds),
        *connection_rows(args.players),
    ]
    w0, w1 = (max(len(r[i]) for r in rows) for i in (0, 1))
    print(f"{'benchmark':<{w0}}  {'figure':<{w1}}  value")
    for a, b, c in rows:
        print(f"{a:<{w0}}  {b:<{w1}}  {c}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
