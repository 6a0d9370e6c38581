"""``create_app(settings)``: the FastAPI app, its routers, static files and its lifespan.

The lifespan opens Redis (embedded unless REDIS_URL is set), builds the services and starts the
two per-process workers: the pub/sub hub and the clock sweeper. Everything lives on
``app.state.live`` so several apps can run in one process (the tests run two instances side by
side on one Redis).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
from collections.abc import Callable
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from .api.deps import install_errors
from .config import Settings, get_settings
from .services.players import Players
from .services.tables import TableService
from .store.clocks import Sweeper
from .store.connection import open_redis
from .store.hub import Hub
from .store.keys import Keys
from .store.tables import TableStore

STATIC = Path(__file__).resolve().parent.parent / "static"


class Live:
    """The process's services, built at start-up."""

    def __init__(self, settings: Settings, redis, seeds: Callable[[str, int], int] | None):
        from .ws.endpoint import deliver

        self.settings = settings
        self.redis = redis
        self.keys = Keys(settings.key_prefix)
        self.store = TableStore(redis, self.keys, stream_len=settings.event_stream_len,
                                command_ttl=settings.command_ttl_seconds)
        self.players = Players(redis, self.keys, settings.signing_key)
        self.tables = TableService(settings, self.store, seeds=seeds)
        self.hub = Hub(redis, self.keys, self.store,
                       lambda tid, msg, socks: deliver(self, tid, msg, socks))
        self.sweeper = Sweeper(redis, self.keys, self.tables.run_clock,
                               interval=settings.sweep_interval,
                               lease=settings.claim_lease_seconds)


def create_app(settings: Settings | None = None, *,
               seeds: Callable[[str, int], int] | None = None) -> FastAPI:
    """``seeds(table_id, match_no) -> seed`` lets tests fix the deals; the public API never
    takes a seed (RULES.md: live seeds come from ``secrets``)."""
    settings = settings or get_settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        async with open_redis(settings) as redis:
            live = Live(settings, redis, seeds)
            app.state.live = live
            await live.hub.start()
            sweeper = asyncio.create_task(live.sweeper.forever())
            try:
                yield
            finally:
                sweeper.cancel()
                for task in (sweeper, *live.tables.tasks):
                    task.cancel()
                await asyncio.gather(sweeper, *live.tables.tasks, return_exceptions=True)
                await live.hub.stop()

    from .api import lobby, ops, players
    from .ws import endpoint

    app = FastAPI(title="Meja", version="0.1.0", lifespan=lifespan,
                  description="Online domino tables: a REST lobby and one WebSocket per table.")
    for module in (players, lobby, ops, endpoint):
        app.include_router(module.router)
    for optional in ("wallet", "history"):  # chips & records' routers, once they exist
        if importlib.util.find_spec(f"app.api.{optional}") is not None:
            app.include_router(importlib.import_module(f"app.api.{optional}").router)
    install_errors(app)
    if STATIC.is_dir():
        app.mount("/", StaticFiles(directory=STATIC, html=True), name="static")
    return app
