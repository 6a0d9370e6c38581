"""``create_app(settings)``: the FastAPI app, its routers, static files and its lifespan.

The lifespan opens the database (the embedded SQLite default is migrated on start) and Redis
(embedded unless REDIS_URL is set), builds the services and starts the per-process workers: the
pub/sub hub, the clock sweeper and (unless ``outbox_consumer`` is off, when ``python -m app
outbox`` runs apart) the outbox consumer (chips & records to the database).
The services live on ``app.state.services`` (app/services/wiring.py) and the socket layer
on ``app.state.sockets`` (app/ws/endpoint.py), so several apps can run in one process (the tests run
two instances side by side on one Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from . import build
from .api.access import Access
from .api.bodies import BodyLimit
from .api.deps import answers, install_errors
from .api.origin import OriginCheck
from .config import Settings, get_settings
from .db import migrate
from .db.session import is_sqlite, make_engine, make_sessionmaker
from .services.wiring import Seeds, Services
from .store.connection import open_redis
from .store.outbox import OutboxConsumer
from .ws.endpoint import Sockets

STATIC = Path(__file__).resolve().parent.parent / "static"


def create_app(settings: Settings | None = None, *, seeds: Seeds | None = None) -> FastAPI:
    """``seeds(table_id, match_no) -> seed`` lets tests fix the deals; the public API never
    takes a seed (docs/rules.md: live seeds come from ``secrets``)."""
    settings = settings or get_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        engine = make_engine(settings.database_url, settings=settings)
        if is_sqlite(engine):  # the embedded default migrates itself; Postgres: app migrate
            await migrate.upgrade(engine)
        async with open_redis(settings) as redis:
            services = Services(
                settings,
                redis,
                make_sessionmaker(engine),
                deliver=lambda tid, message, socks: sockets.deliver(tid, message, socks),
                on_control=lambda message: sockets.revoked(message),
                seeds=seeds,
            )
            sockets = Sockets(services)
            services.metrics.watch_database(engine.sync_engine)
            app.state.services, app.state.sockets = services, sockets
            await services.hub.start()
            workers = [
                asyncio.create_task(services.sweeper.forever()),
                asyncio.create_task(services.buy_ins.forever()),
                asyncio.create_task(sockets.keeper.forever()),
            ]
            if settings.outbox_consumer:
                workers.append(asyncio.create_task(services.outbox.run()))
            try:
                yield
            finally:
                await cancel_all([*workers, *services.writer.tasks])
                if settings.outbox_consumer:
                    await drain_outbox(services.outbox, settings.shutdown_grace)
                await services.hub.stop()
                await services.store.close()
        await engine.dispose()

    from .api import (
        accounts,
        admin,
        chips,
        games,
        history,
        lobby,
        ops,
        players,
        session,
        social,
        stats,
        wallet,
    )
    from .ws import endpoint

    app = FastAPI(
        title="Meja",
        version=build.version(),
        lifespan=lifespan,
        description="Online domino tables: a REST lobby and one WebSocket per table.",
    )
    modules = [players, accounts, session, games, lobby, ops, wallet, chips, history, stats]
    modules += [social, admin]
    for module in modules:
        app.include_router(module.router, responses=answers(413))
    app.include_router(endpoint.router)
    app.include_router(admin.page)
    install_errors(app)
    app.add_middleware(BodyLimit, settings=settings)  # inside the Origin check: refused unread
    app.add_middleware(OriginCheck, settings=settings)
    app.add_middleware(Access, settings=settings)  # outermost: every answer has its request id
    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app


async def drain_outbox(consumer: OutboxConsumer, grace: float) -> None:
    """Shutdown (SIGTERM: after uvicorn finished the actions in flight, or in the outbox
    worker): the consumer loop was cancelled; settle the entries this consumer had read and
    those still waiting, so none waits ``outbox_reclaim_ms`` for another replica to reclaim
    it. A database outage leaves them to the other replicas (they stay in Redis)."""
    log = logging.getLogger("meja.shutdown")
    task = asyncio.create_task(consumer.run_once(block_ms=1))
    await asyncio.wait([task], timeout=grace)
    if task.done() and not task.cancelled() and task.exception() is None:
        log.info("outbox drained", extra={"entries": task.result()})
        return
    error = repr(task.exception()) if task.done() and not task.cancelled() else "timed out"
    await cancel_all([task])
    log.warning("outbox not drained; other replicas will reclaim it", extra={"error": error})


async def cancel_all(tasks: list[asyncio.Task], timeout: float = 5.0) -> None:
    """Cancel the workers and wait for them, cancelling again while one is still running: on
    Python 3.11 ``asyncio.wait_for`` (used inside redis-py) can swallow a cancellation that
    arrives as its inner call completes, and a single cancel then left the shutdown hanging."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    pending = [t for t in tasks if not t.done()]
    while pending and loop.time() < deadline:
        for task in pending:
            task.cancel()
        _, still = await asyncio.wait(pending, timeout=0.1)
        pending = list(still)
    if pending:
        logging.getLogger("meja.shutdown").warning(
            "workers did not stop", extra={"tasks": [t.get_name() for t in pending]}
        )


def tune_gc() -> None:
    """Freeze the start-up objects, collect the young generation every 2,000 allocations
    (default 700), the middle one every 100 young passes and the full heap rarely: serve's
    and the outbox worker's collector (app/serve.py says why).

    The young threshold counts allocations net of what was freed, old objects included (a
    move's new snapshot frees the table's previous one), so the young generation holds many
    times the threshold when it is scanned: at 10,000 it held 44,000-80,000 objects at 1,000
    tables and each young pass took 22-40 ms, the tail of a move's latency. The middle
    generation keeps its share of the allocations (2,000 x 100, as 10,000 x 20 before):
    scanned more often, it is the longer pause (bench/README.md "The durable write alone")."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(2_000, 100, 100)
