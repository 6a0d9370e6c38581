"""The process's services, built once at start-up and typed through: routes and sockets reach
every service through :class:`Services` (docs/design.md "Layers"), so the types and the
layers hold from the route down. The socket layer's own workers (the watchdog, presence) are
app/ws/endpoint.py's ``Sockets``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from typing import Any

from app import build
from app.config import Settings
from app.db.reach import Sessions
from app.metrics import Metric, Metrics, counter, gauge
from app.services.accounts import Accounts
from app.services.admin_tables import AdminTables
from app.services.chip_claims import ChipClaims
from app.services.friends import Friends
from app.services.health import Health
from app.services.missions import Missions
from app.services.players import Players
from app.services.rate_limits import RateLimits
from app.services.records import outbox_consumer
from app.services.sessions import Sessions as PlayerSessions
from app.services.table.buy_ins import BuyInReconciler
from app.services.table.rooms import Rooms
from app.services.table.service import Tables
from app.services.table.views import TableViews
from app.services.table.write import TableWriter
from app.store.clocks import Sweeper
from app.store.connection import Client
from app.store.hub import Deliver, Hub
from app.store.keys import Keys
from app.store.limits import moving_window
from app.store.outbox import DeadLetters, OutboxConsumer
from app.store.presence import Presence
from app.store.seated import Seated
from app.store.social import Social
from app.store.tables import TableStore

Seeds = Callable[[str, int], int]


class Services:
    """``deliver`` and ``on_control`` are the socket layer's (the hub hands them what a table's
    channel and the control channel say); ``seeds`` fixes the deals in tests."""

    def __init__(
        self,
        settings: Settings,
        redis: Client,
        db: Sessions,
        *,
        deliver: Deliver,
        on_control: Callable[[dict[str, Any]], None],
        seeds: Seeds | None = None,
    ):
        self.settings, self.redis, self.db = settings, redis, db
        self.keys = Keys(settings.key_prefix)
        self.metrics = Metrics(build.version(), build.commit())
        self.store = TableStore(
            redis,
            self.keys,
            stream_len=settings.event_stream_len,
            command_ttl=settings.command_ttl_seconds,
            on_trip=self.metrics.round_trip,
            wait_replicas=settings.redis_wait_replicas,
            wait_ms=settings.redis_wait_ms,
        )
        self.health = Health(redis, db, self.metrics)
        self.players = Players(redis, self.keys, db, cache_seconds=settings.access_token_seconds)
        self.claims = ChipClaims(db, self.store, settings)
        self.limits = RateLimits(
            moving_window(redis, self.keys), settings.rate_limits, settings.rate_limit_exempt
        )
        self.sessions = PlayerSessions(redis, self.keys, db, self.players, settings)
        self.accounts = Accounts(db, self.players, self.sessions, settings)
        self.writer = TableWriter(
            settings,
            self.store,
            metrics=self.metrics,
            seeds=seeds,
            chips=True,
            wake=lambda tid, v: self.tables.run_clock(tid, v),
        )
        self.views = TableViews(self.store)
        self.tables = Tables(self.writer, self.views, db=db)
        self.buy_ins = BuyInReconciler(
            db,
            self.writer,
            timeout=settings.buy_in_timeout_seconds,
            every=settings.buy_in_check_seconds,
        )
        self.outbox = outbox_consumer(
            redis, db, prefix=settings.key_prefix, min_idle_ms=settings.outbox_reclaim_ms
        )
        self.admin = AdminTables(
            db,
            self.store,
            self.writer,
            self.views,
            self.outbox,
            DeadLetters(redis, settings.key_prefix),
            self.metrics,
        )
        self.hub = Hub(redis, self.keys, self.store, deliver, on_control=on_control)
        self.presence = Presence(self.store, settings.presence_seconds)
        self.rooms = Rooms(settings, self.store, self.presence, db)
        self.friends = Friends(
            db,
            self.store,
            self.views,
            self.presence,
            Seated(redis, self.keys),
            Social(
                redis,
                self.keys,
                seen_seconds=settings.lobby_seen_seconds,
                invite_seconds=settings.invite_seconds,
            ),
        )
        self.missions = Missions(db)
        self.sweeper = Sweeper(
            redis,
            self.keys,
            self.tables.run_clock,
            interval=settings.sweep_interval,
            lease=settings.claim_lease_seconds,
            repair_every=settings.clock_repair_seconds,
        )
        self.metrics.read_at_scrape(socket_numbers(self.hub))
        self.metrics.read_at_scrape(consumer_numbers(self.outbox))
        self.metrics.on_scrape(shared_numbers(self.metrics, self.store, self.outbox))


def socket_numbers(hub: Hub) -> Callable[[], Iterator[Metric]]:
    """This process's open sockets, for ``Metrics.read_at_scrape``."""

    def collect() -> Iterator[Metric]:
        open_sockets = sum(len(s) for s in hub.sockets.values())
        yield gauge("meja_open_sockets", "WebSockets open on this process", open_sockets)

    return collect


def consumer_numbers(consumer: OutboxConsumer) -> Callable[[], Iterator[Metric]]:
    """What this process's outbox consumer holds and has settled, for ``read_at_scrape``."""

    def collect() -> Iterator[Metric]:
        yield gauge(
            "meja_outbox_pending",
            "Outbox entries this process's consumer has read and not yet written",
            len(consumer.held),
        )
        settled = {
            "applied": consumer.applied,
            "duplicate": consumer.duplicates,
            "dead": consumer.dead,
        }
        yield counter(
            "meja_outbox_written",
            "Outbox entries this process's consumer settled",
            "result",
            settled,
        )

    return collect


def shared_numbers(
    metrics: Metrics, store: TableStore, consumer: OutboxConsumer
) -> Callable[[], Awaitable[None]]:
    """The shared numbers read from Redis before a scrape (``Metrics.on_scrape``): two
    pipelines of per-bucket reads, never one per table (app/metrics.py)."""

    async def read() -> None:
        backlog, oldest_ms, dead = await consumer.totals()
        metrics.shared(await store.live_count(), backlog, oldest_ms, dead)

    return read
