"""``python -m app outbox``: the outbox consumer on its own, writing chips and records to the
database for every table (app/store/outbox.py).

Every server process runs a consumer by default. A busy deployment runs this command as its
own service instead and sets ``MEJA_OUTBOX_CONSUMER=false`` on the web replicas: the consumer
then has an event loop to itself, so its database round trips do not queue behind thousands of
sockets (bench/README.md). Several of these may run; the consumer group shares the
entries among them. SIGTERM or Ctrl-C stops reading and settles what this worker holds.
"""

from __future__ import annotations

import asyncio
import signal

import click
import uvloop

from . import logs
from .config import get_settings
from .db.session import make_engine, make_sessionmaker
from .main import cancel_all, drain_outbox, tune_gc
from .services.records import outbox_consumer
from .store.connection import open_redis


async def run(settings) -> None:
    engine = make_engine(settings.database_url, settings=settings)
    try:
        async with open_redis(settings) as redis:
            consumer = outbox_consumer(
                redis,
                make_sessionmaker(engine),
                prefix=settings.key_prefix,
                min_idle_ms=settings.outbox_reclaim_ms,
            )
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGTERM, signal.SIGINT):
                loop.add_signal_handler(sig, stop.set)
            task = asyncio.create_task(consumer.run())
            await stop.wait()
            await cancel_all([task])  # as serve does: a single cancel can be swallowed on 3.11
            await drain_outbox(consumer, settings.shutdown_grace)
    finally:
        await engine.dispose()


@click.command()
def outbox() -> None:
    """Write the outbox to the database, as a worker apart from serve (SIGTERM stops it)."""
    settings = get_settings()
    logs.setup(settings.log_level)
    tune_gc()  # as serve: each batch allocates thousands of short-lived objects
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:  # as uvicorn runs serve
        runner.run(run(settings))
