"""Starting a process, as an operator meets it: a bad URL or an unreachable Redis is one line
naming the setting and exit 2, ``--help`` answers whatever the settings, ``--version`` and
``migrate status`` say what runs; every line a process logs is JSON from its first (the
start-up line, with the version and the commit); the probes answer HEAD; and the outbox worker
is watched as the server is (probes, metrics, the start-up line)."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import tomllib
import uuid

import httpx
import orjson
import pytest
from alembic.script import ScriptDirectory
from click.testing import CliRunner
from prometheus_client.parser import text_string_to_metric_families

from app import build
from app.__main__ import cli
from app.config import get_settings
from app.db.migrate import alembic_config
from app.store.keys import Keys, bucket_of
from tests.conftest import redis_client
from tests.ops.deploy import ROOT, dockerfile_exec, image_tree, local

KEY = "ops-startup-key-" + uuid.uuid4().hex
PYPROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


@pytest.fixture(autouse=True)
def fresh_settings():
    """Each test reads the settings (and the build) from its own environment."""
    for cached in (get_settings, build.version, build.commit):
        cached.cache_clear()
    yield
    for cached in (get_settings, build.version, build.commit):
        cached.cache_clear()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_app(*args: str, env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def one_line(done: subprocess.CompletedProcess) -> str:
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr  # no traceback
    return lines[0]


# The three commands share one check (app/process.py): each malformed URL goes through one of
# them in turn, so every command meets a bad DATABASE_URL and a bad REDIS_URL.
@pytest.mark.parametrize(
    ("command", "env", "line"),
    [
        ("serve", {"DATABASE_URL": "notaurl"}, "DATABASE_URL: not a database URL"),
        (
            "outbox",
            {"DATABASE_URL": "postgresql://meja@db:five/meja"},
            "DATABASE_URL: the port is not",
        ),
        (
            "migrate",
            {"DATABASE_URL": "mysql://meja:hunter2-pw@db/meja"},
            "DATABASE_URL: mysql is not",
        ),
        ("serve", {"REDIS_URL": "redis://redis:6379/zero"}, "REDIS_URL: the database (the path)"),
        ("outbox", {"REDIS_URL": "notaurl"}, "REDIS_URL: not a Redis URL"),
        ("migrate", {"REDIS_URL": "redis://redis:six/0"}, "REDIS_URL: the port is not"),
    ],
)
def test_a_malformed_url_is_one_line_naming_it(tmp_path, command, env, line):
    done = run_app(command, env={"MEJA_DATA_DIR": str(tmp_path), "MEJA_SECRET_KEY": KEY, **env})
    assert one_line(done).startswith(f"refusing to start: {line}")
    assert "hunter2" not in done.stderr  # a URL is never printed: it may hold the password


@pytest.mark.parametrize("command", ["serve", "outbox"])
def test_redis_unreachable_at_start_up_is_one_line_naming_it(tmp_path, command):
    env = {
        "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
        "DATABASE_URL": f"sqlite:///{tmp_path}/m.db",
        "MEJA_SECRET_KEY": KEY,
        "MEJA_DATA_DIR": str(tmp_path),
    }
    done = run_app(command, "--port", str(free_port()), env=env)
    assert one_line(done).startswith("refusing to start: REDIS_URL: cannot use Redis")


def test_the_outbox_worker_refuses_an_example_database_password(tmp_path):
    env = {
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "DATABASE_URL": "postgresql://meja@127.0.0.1:1/meja",
        "MEJA_DATABASE_PASSWORD": "change-me",
        "MEJA_SECRET_KEY": KEY,
        "MEJA_DATA_DIR": str(tmp_path),
    }
    line = one_line(run_app("outbox", env=env))
    assert line.startswith("refusing to start: the database password")


BAD = {"PORT": "99999", "DATABASE_URL": "notaurl", "REDIS_URL": "nope", "MEJA_LOG_LEVEL": "x"}
COMMANDS = [
    [],
    ["serve"],
    ["outbox"],
    ["migrate"],
    ["migrate", "status"],
    ["simulate"],
    ["replay"],
    ["admin"],
    ["admin", "grant"],
    ["admin", "revoke"],
]


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "python -m app")
def test_help_answers_whatever_the_settings(path):
    result = CliRunner().invoke(cli, [*path, "--help"], env=BAD, prog_name="python -m app")
    assert result.exit_code == 0, result.output
    assert f"Usage: {' '.join(['python -m app', *path])}" in result.output


@pytest.mark.parametrize("path", [["migrate", "status"], ["admin", "grant", "someone"]])
def test_a_bad_setting_still_stops_a_command_once_its_arguments_are_read(path):
    result = CliRunner().invoke(cli, path, env={"PORT": "99999"}, prog_name="python -m app")
    assert result.exit_code == 2
    assert "refusing to start: PORT='99999'" in result.output


def test_version_names_the_package_version_and_the_commit():
    result = CliRunner().invoke(cli, ["--version"], env={**BAD, "MEJA_GIT_COMMIT": "4f1c8d2b"})
    assert result.exit_code == 0, result.output
    assert result.output == f"meja {PYPROJECT_VERSION} (commit 4f1c8d2b)\n"


def test_a_checkout_names_its_head_commit(monkeypatch):
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    monkeypatch.delenv("MEJA_GIT_COMMIT", raising=False)
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True, check=False
    )
    assert build.commit() == (head.stdout.strip() if head.returncode == 0 else "unknown")


def test_the_image_reads_its_version_from_the_pyproject_it_carries(tmp_path, monkeypatch):
    """The image does not install the package: no metadata, so the version comes from the
    pyproject.toml the Dockerfile copies beside app/."""
    from importlib.metadata import PackageNotFoundError

    tree = image_tree(tmp_path)
    assert (tree / "pyproject.toml").exists()

    def not_installed(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr(build, "installed_version", not_installed)
    monkeypatch.setattr(build, "ROOT", tree)
    assert build.version() == PYPROJECT_VERSION


def test_migrate_status_names_the_current_and_the_head_revision(tmp_path):
    url = f"sqlite:///{tmp_path}/m.db"
    [head] = ScriptDirectory.from_config(alembic_config()).get_heads()
    runner = CliRunner()
    before = runner.invoke(cli, ["migrate", "status", "--url", url])
    assert before.exit_code == 0, before.output
    assert before.output.splitlines() == [
        "current: none (never migrated)",
        f"head:    {head}",
        "behind: run python -m app migrate",
    ]
    assert runner.invoke(cli, ["migrate", "--url", url]).exit_code == 0
    after = runner.invoke(cli, ["migrate", "status", "--url", url])
    assert after.output.splitlines() == [f"current: {head}", f"head:    {head}", "up to date"]


async def test_the_probes_answer_head(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        for path in ("/healthz", "/readyz"):
            reply = await http.head(path)
            assert reply.status_code == 200, path
            assert reply.content == b""


async def test_build_info_names_the_version_and_the_commit(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        info = _build_info((await http.get("/metrics")).text)
    assert info["version"] == PYPROJECT_VERSION
    assert info["commit"] == build.commit() and info["commit"]


def _build_info(exposition: str) -> dict[str, str]:
    for family in text_string_to_metric_families(exposition):
        for sample in family.samples:
            if sample.name == "meja_build_info":
                return sample.labels
    raise AssertionError("no meja_build_info")


class Process:
    """``python -m app <command>`` on a free port, its stderr kept."""

    def __init__(self, command: list[str], env: dict[str, str], tmp_path):
        self.port = free_port()
        self.env = {**os.environ, **env, "PORT": str(self.port)}
        self.url = f"http://127.0.0.1:{self.port}"
        self.err_path = tmp_path / f"{command[-1]}.log"
        with open(self.err_path, "w") as err:
            self.proc = subprocess.Popen(
                local(command), cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=err
            )

    async def ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(base_url=self.url) as http:
            while True:
                try:
                    if (await http.get("/readyz", timeout=2)).status_code == 200:
                        return
                except httpx.HTTPError:
                    pass
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"did not start:\n{self.err_path.read_text()}")
                await asyncio.sleep(0.2)

    def stop(self) -> list[dict]:
        """SIGTERM, then every line it wrote, each parsed as JSON (a plain line fails)."""
        self.proc.send_signal(signal.SIGTERM)
        assert self.proc.wait(30) in (0, -signal.SIGTERM)
        return [orjson.loads(line) for line in self.err_path.read_text().splitlines() if line]

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def _env(tmp_path, redis_url: str, prefix: str, database: str) -> dict[str, str]:
    return {
        "REDIS_URL": redis_url,
        "MEJA_KEY_PREFIX": prefix,
        "DATABASE_URL": database,
        "MEJA_SECRET_KEY": KEY,
        "MEJA_DATA_DIR": str(tmp_path),
        "MEJA_GIT_COMMIT": "4f1c8d2b",
    }


def _start_up_line(lines: list[dict], what: str, port: int) -> None:
    first = lines[0]
    assert first["logger"] == "meja.start", first
    assert first["msg"] == f"{what} on http://127.0.0.1:{port}"
    assert (first["version"], first["commit"]) == (PYPROJECT_VERSION, "4f1c8d2b")


async def test_every_line_serve_writes_is_json_from_the_first(
    tmp_path, live_redis_url, live_prefix, live_database
):
    server = Process(
        dockerfile_exec("CMD"), _env(tmp_path, live_redis_url, live_prefix, live_database), tmp_path
    )
    try:
        await server.ready()
        lines = server.stop()
    finally:
        server.kill()
    _start_up_line(lines, "Meja", server.port)


async def test_the_outbox_worker_has_probes_metrics_and_a_start_up_line(
    tmp_path, live_redis_url, live_prefix, live_database
):
    """The compose service's command and its health probe (the image's, on the same PORT);
    the worker's metrics count the entry it settled (a malformed one: a dead letter)."""
    env = _env(tmp_path, live_redis_url, live_prefix, live_database)
    worker = Process(["python", "-m", "app", "outbox"], env, tmp_path)
    try:
        await worker.ready()
        async with httpx.AsyncClient(base_url=worker.url) as http:
            assert (await http.head("/healthz")).status_code == 200
            assert (await http.head("/readyz")).status_code == 200
            probe = local(dockerfile_exec("HEALTHCHECK"))[:-1] + ["/readyz"]
            assert subprocess.run(probe, cwd=ROOT, env=worker.env, timeout=30).returncode == 0
            keys, tid = Keys(live_prefix), "startup" + uuid.uuid4().hex[:8]
            redis = redis_client(live_redis_url, "single")
            await redis.xadd(keys.outbox(tid), {"e": "{not json"})
            await redis.sadd(keys.outboxes(bucket_of(tid)), tid)
            await redis.aclose()
            deadline = time.monotonic() + 30
            while True:
                metrics = (await http.get("/metrics")).text
                if 'meja_outbox_written_total{result="dead"} 1.0' in metrics:
                    break
                assert time.monotonic() < deadline, metrics
                await asyncio.sleep(0.2)
            assert _build_info(metrics)["commit"] == "4f1c8d2b"
            assert 'meja_dependency_up{dependency="database"} 1.0' in metrics
        lines = worker.stop()
    finally:
        worker.kill()
    _start_up_line(lines, "Meja outbox worker", worker.port)
    assert any(line["msg"] == "outbox drained" for line in lines)
