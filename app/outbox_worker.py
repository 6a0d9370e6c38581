"""``python -m app outbox [--host H] [--port P]``: the outbox consumer on its own, writing chips
and records to the database for every table (app/store/outbox.py).

Every server process runs a consumer by default. A busy deployment runs this command as its
own service instead and sets ``MEJA_OUTBOX_CONSUMER=false`` on the web replicas: the consumer
then has an event loop to itself, so its database round trips do not queue behind thousands of
sockets (bench/README.md). Several of these may run; the consumer group shares the
entries among them.

It is watched as ``serve`` is: the same checks before it starts and the same JSON start-up
line (app/process.py), and over HTTP ``/healthz``, ``/readyz`` and ``/metrics``, the server's
own routes (app/api/ops.py) over the same ``Services`` in which nothing runs but the consumer
(its hub is never started: no socket here)
(``meja_outbox_written_total`` counts what it settled). It listens on the server's settings,
``MEJA_HOST`` and ``PORT``: it is a container of its own wherever it runs apart (compose's
``outbox`` service), so the image's health probe finds it there unchanged; beside a server on
one machine, give it another ``--port``. SIGTERM or Ctrl-C stops reading and settles what this
worker holds, after uvicorn has stopped answering.
"""

from __future__ import annotations

import asyncio
import contextlib

import click
from fastapi import FastAPI

from . import build, logs
from .api import ops
from .api.access import Access
from .config import Settings, get_settings
from .db.session import make_engine, make_sessionmaker
from .main import cancel_all, drain_outbox
from .process import check, run
from .services.wiring import Services
from .store.connection import open_redis


def create_worker_app(settings: Settings) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        engine = make_engine(settings.database_url, settings=settings)
        try:
            async with open_redis(settings) as redis:
                services = Services(
                    settings,
                    redis,
                    make_sessionmaker(engine),
                    deliver=_no_sockets,
                    on_control=lambda message: None,
                )
                services.metrics.watch_database(engine.sync_engine)
                app.state.services = services
                task = asyncio.create_task(services.outbox.run())
                try:
                    yield
                finally:
                    await cancel_all([task])  # as serve: a single cancel can be swallowed
                    await drain_outbox(services.outbox, settings.shutdown_grace)
                    await services.store.close()
        finally:
            await engine.dispose()

    app = FastAPI(title="Meja outbox worker", version=build.version(), lifespan=lifespan)
    app.include_router(ops.router)
    app.add_middleware(Access, settings=settings)  # the probes' access lines and metrics
    return app


async def _no_sockets(tid: str, message: dict, socks: list) -> None:
    """The worker serves no socket, so its hub (never started) delivers nothing."""


@click.command()
@click.option("--host", help="address to listen on  [default: MEJA_HOST, else 127.0.0.1]")
@click.option("--port", type=click.IntRange(1, 65535), help="port  [default: PORT, else 8000]")
def outbox(host: str | None, port: int | None) -> None:
    """Write the outbox to the database, as a worker apart from serve (SIGTERM stops it)."""
    settings = get_settings()
    logs.setup(settings.log_level)
    check(settings)
    app = create_worker_app(settings)
    run(app, settings, host or settings.host, port or settings.port, "Meja outbox worker")
