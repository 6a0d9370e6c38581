"""The load tools run end to end at a tiny scale against real services (a private
redis-server, the database from DATABASE_URL or SQLite, the real server process).

These check that the tools work and report what they promise; they never assert timings
(CONTRIBUTING.md: speed is measured by bench/, not asserted in tests).
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import orjson
import psutil

ROOT = Path(__file__).resolve().parents[2]


def run_tool(script: str, *args: str, tmp_path: Path) -> dict:
    db = os.environ.get("DATABASE_URL") or f"sqlite+aiosqlite:///{tmp_path}/bench.db"
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), "--json", "--database-url", db, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode in (0, 1), out.stderr[-3000:]
    return orjson.loads(out.stdout)


def test_load_plays_tables_and_reports_every_figure(tmp_path):
    r = run_tool(
        "load.py",
        "--tables",
        "2",
        "--think",
        "0.05",
        "--warmup",
        "1",
        "--seconds",
        "3",
        "--every",
        "1",
        "--monitor-seconds",
        "1",
        "--drain-timeout",
        "20",
        tmp_path=tmp_path,
    )
    assert r["sockets"] == 8
    assert r["actions"] > 0 and r["errors"] == {}
    assert r["latency_ms"]["n"] > 0
    assert set(r["latency_ms"]) >= {"p50", "p95", "p99", "max"}
    assert r["server_cpu_pct"] is not None and r["generator_cpu_pct"] is not None
    trips = r["redis"]["round_trips"]
    assert trips["cas_scripts"] > 0 and trips["move_path_per_cas"] >= 1
    assert r["redis"]["commands_per_action"] > 0
    assert r["redis"]["server_round_trips_per_action"]["actions"] > 0
    # the capacity model's per-move figures (docs/scaling.md): a move sends its document in
    assert r["redis"]["bytes_in_per_action"] > 1000 and r["redis"]["bytes_out_per_action"] > 0
    assert r["redis"]["memory_per_table_kib"] > 0
    assert r["outbox"]["drained"] is True


def test_load_spreads_the_sockets_over_two_serve_processes_and_the_outbox_worker_writes(tmp_path):
    """Two serve processes and the outbox worker (``--outbox-worker``) in one run: neither
    option changes what the other does."""
    r = run_tool(
        "load.py",
        *("--tables", "2", "--think", "0.05", "--warmup", "1", "--seconds", "3"),
        *("--every", "1", "--monitor-seconds", "0", "--drain-timeout", "20", "--servers", "2"),
        "--outbox-worker",
        tmp_path=tmp_path,
    )
    assert r["server_processes"] == 2 and r["sockets"] == 8
    assert r["actions"] > 0 and r["errors"] == {}
    # each table's four players sit on both processes (round robin, as behind the proxy), so
    # both answer acts
    by_process = r["redis"]["server_round_trips_per_action"]["actions_by_process"]
    assert len(by_process) == 2 and min(by_process) > 0
    # the worker's CPU is reported and it wrote every record
    assert r["outbox_worker_cpu_pct"] is not None and r["outbox_worker_cpu_pct"] > 0
    assert r["outbox"]["drained"] and r["outbox"]["after_stop_entries"] == 0


def test_connections_hold_idle_players_and_answer_pings(tmp_path):
    r = run_tool(
        "connections.py", "--players", "12", "--hold", "1", "--settle", "0.5", tmp_path=tmp_path
    )
    assert r["connected"] == 12 and r["refused"] == 0
    assert r["all_stayed_up"] is True and r["pongs"] == 12
    assert r["kib_per_connection"] is not None


def test_redis_node_runs_the_cas_shaped_script_and_reports_its_cpu():
    out = subprocess.run(
        ["bash", str(ROOT / "bench" / "redis_node.sh"), "2000", "5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    cpu = re.search(r"redis CPU per call: ([0-9.]+) us", out.stdout)
    assert cpu and float(cpu.group(1)) > 0, out.stdout
    assert '"GET","' in out.stdout


def test_lane_compares_the_client_cpu_of_both_calls(spare_redis):
    out = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "lane.py"),
            "--redis-url",
            spare_redis,
            "--calls",
            "400",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    rows = re.findall(r"^\s+(\d) \|\s+([0-9.]+) \|\s+([0-9.]+)$", out.stdout, re.M)
    assert [r[0] for r in rows] == ["1", "2", "4"], out.stdout
    assert all(float(r[1]) > 0 and float(r[2]) > 0 for r in rows)


async def test_the_outbox_backlog_reads_the_servers_own_streams(redis_url_or_socket, prefix):
    """load.py's outbox lag is read from the streams the server writes (bucket-tagged keys):
    an entry waiting there is counted, with its age."""
    from app.store.keys import Keys
    from bench.redis_counts import outbox_backlog
    from tests.conftest import redis_client

    client = redis_client(redis_url_or_socket["url"], redis_url_or_socket["mode"])
    try:
        assert await outbox_backlog(client, prefix, ["t1", "t2"]) == (0, 0.0, 4)
        await client.xadd(Keys(prefix).outbox("t2"), {"e": "{}"})
        entries, age, _ = await outbox_backlog(client, prefix, ["t1", "t2"])
        assert entries == 1 and 0 <= age < 60
    finally:
        await client.aclose()


def test_joins_times_a_burst_and_checks_every_buy_in(tmp_path):
    r = run_tool(
        "joins.py",
        *("--tables", "2", "--joins", "8", "--within", "0.5", "--warmup", "1"),
        *("--think", "0.05", "--settle", "0.5", "--buy-in", "150"),
        tmp_path=tmp_path,
    )
    assert r["joined"] == 8 and r["errors"] == {}
    assert set(r["steps_ms"]) == {"signup", "sit", "socket", "first_state"}
    assert r["join_ms"]["n"] == 8 and r["joins_per_s"] > 0
    # the starting grant less one buy-in each: taken once, and the audit balances
    assert r["wallets_after"] == {"850": 8} and r["audit_ok"] is True


def test_join_steps_reports_the_server_side_of_each_step(tmp_path):
    r = run_tool("join_steps.py", "--joins", "4", "--logins", "1", tmp_path=tmp_path)
    assert set(r["client_ms"]) == {"signup", "sit", "socket", "first_state"}
    assert all(v is not None for v in r["server_ms_by_route"].values())
    assert r["db_statements"] > 0 and r["redis_round_trips"] > 0
    assert r["argon2_hash_ms"] > 0 and r["login_ms"]["n"] == 1


def test_reconnect_kills_a_process_and_every_dropped_player_comes_back(tmp_path):
    r = run_tool(
        "reconnect.py",
        *("--players", "16", "--spread", "1", "--after", "1", "--warmup", "1"),
        *("--think", "0.2", "--timeout", "30"),
        tmp_path=tmp_path,
    )
    # the process holding the more sockets is killed, and each socket it held drops
    assert r["players"] == 16 == sum(r["held"]) and r["dropped"] == max(r["held"]) > 0
    assert r["back"] == r["dropped"] and r["all_back_s"] is not None
    assert r["moves_lost"] == 0


def test_a_tool_whose_start_fails_leaves_no_redis_server_behind(tmp_path):
    """The database refuses (nothing listens on its port) after the tool has started its
    private redis-server: the tool fails, and that server goes with it."""
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--json", "--tables", "1"]
        + ["--database-url", "postgresql://postgres@127.0.0.1:1/nowhere"],
        cwd=ROOT,
        env={**os.environ, "TMPDIR": str(tmp_path)},  # the tool's work directory
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0 and "ConnectionRefusedError" in out.stderr
    (started,) = tmp_path.glob("meja-load-*/redis.log")  # it had started one
    left = []  # redis-server changes its directory to its --dir, the tool's work directory
    for proc in psutil.process_iter(["name"]):
        with contextlib.suppress(psutil.Error):
            if proc.info["name"] == "redis-server" and proc.cwd() == str(started.parent):
                left.append(proc.pid)
    assert left == []


def test_frames_reports_the_server_cpu_of_each_kind_of_frame():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "frames.py"), "--json", "--frames", "300"]
        + ["--impl", "websockets-sansio", "--impl", "websockets"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    r = orjson.loads(out.stdout)
    assert set(r) == {"websockets-sansio", "websockets"}
    for rows in r.values():
        assert len(rows) == 7 and all(us > 0 for us in rows.values()), rows
