"""Prometheus metrics and the game log line, one registry per app (served by app/api/ops.py).

A leaf: it imports nothing of the app. Services report into it (``action``, ``record_change``);
the store reports its round trips, with their duration, through the ``on_trip`` callback it is
given (``round_trip``); the REST access middleware (app/api/access.py) reports each request and
the error handlers each error answer (``error``); the socket endpoint its connects and closes;
the database engine its statements (``watch_database``, SQLAlchemy's cursor events). What
another part owns is read through callbacks it registers: per-process numbers collected at scrape
(``read_at_scrape``: the hub's open sockets, the outbox consumer's counts) and the shared ones
read from Redis before a scrape (``on_scrape``, app/services/wiring.py).

Each app instance has its own ``CollectorRegistry`` (tests run two apps in one process). Scrape
every replica on its own (the proxy does not serve ``/metrics``); sum across replicas in queries.

Per process: ``meja_open_sockets``, ``meja_actions_total{game,by}`` (by: player, bot, timeout),
``meja_action_seconds{game}`` (a player's action from receipt to its answer),
``meja_action_redis_round_trips`` (per accepted player action; the design holds it to 1-2),
``meja_action_refusals_total{code}``, ``meja_timeouts_total{game}`` (O-3 timeouts this process
applied), ``meja_outbox_written_total{result}`` (this process's consumer),
``meja_dependency_up{dependency}`` (redis, database: 1 when the last probe answered),
``meja_http_requests_total{method,route,status}`` and ``meja_http_request_seconds{method,route}``
(by route template, never the raw path: bounded labels), ``meja_socket_connects_total``,
``meja_socket_closes_total{code}`` (the close code, whichever side closed; a refused handshake
counts its code), ``meja_errors_total{via,code}`` (every error answer: ``rest`` or ``socket``,
``rate_limited`` floods included), ``meja_redis_seconds`` (each round trip of the table store),
``meja_db_seconds`` (each database statement),
``meja_build_info{version,commit,python,implementation}`` (app/build.py), and the default
``process_*``, ``python_gc_*`` and ``python_info`` collectors.
Shared state, read from Redis at scrape time (the same value on every replica; use ``max``):
``meja_live_tables``, ``meja_outbox_backlog`` (entries not yet in the database),
``meja_outbox_lag_seconds`` (age of the oldest entry not yet in the database),
``meja_outbox_dead_letters`` (entries parked in ``<prefix>outbox:dead``, app/store/outbox.py,
waiting for an operator). Per process (use ``sum``): ``meja_outbox_pending`` (entries this
process's consumer has read and not yet written).

A scrape costs the same Redis commands however many tables are live: 64 ZCARDs of the live
registry's buckets, and the outbox's per-bucket counters, which the scripts that add and remove
entries keep (64 GETs, 64 one-member ZRANGEs, one XLEN: ``OutboxConsumer.totals``), two
pipelines in all. Nothing is read per table or per stream: at 5,000 tables that had made a
scrape cost 0.5-0.7 s (bench/README.md).
"""

from __future__ import annotations

import contextvars
import logging
import platform
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    GCCollector,
    Histogram,
    Info,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client import generate_latest as _generate
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

log = logging.getLogger("meja.tables")
LANDMARKS = frozenset(
    {
        "created",
        "seated",
        "left",
        "leaving",
        "removed",
        "away",
        "back",
        "timeout",
        "match_started",
        "round_over",
        "table_over",
        "table_closed",
        "rematch",
    }
)
# The player action being served in this task (None outside an action).
_ACTION: contextvars.ContextVar[Action | None] = contextvars.ContextVar("meja_action", default=None)
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
# A Redis round trip or a statement on a local network: tenths of a millisecond when healthy.
IO_BUCKETS = (0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)


class Children(dict):
    """A labelled metric's children by label values, each looked up from the metric once:
    ``labels`` checks the values and takes a lock at every call, which more than doubled the
    cost of counting a move (bench/README.md). For the action path's metrics, whose label
    values are few (games, who acted, refusal codes)."""

    def __init__(self, metric: Any) -> None:
        super().__init__()
        self.metric = metric

    def __missing__(self, values: tuple[str, ...]) -> Any:
        child = self[values] = self.metric.labels(*values)
        return child


class Action:
    """One player action being timed (``with metrics.action() as probe``): the service sets its
    game and reply when it knows them. A class, not a generator: every move enters one."""

    __slots__ = ("trips", "game", "reply", "_done", "_token", "_start")

    def __init__(self, done: Callable[[Action, float], None]) -> None:
        self.trips = 0
        self.game = "unknown"
        self.reply: dict[str, Any] = {}
        self._done = done

    def __enter__(self) -> Action:
        self._token = _ACTION.set(self)
        self._start = time.perf_counter()
        return self

    def __exit__(self, error: type[BaseException] | None, *rest: object) -> None:
        _ACTION.reset(self._token)
        if error is None:  # an action that raised has no answer to count
            self._done(self, time.perf_counter() - self._start)


class Metrics:
    def __init__(self, version: str = "unknown", commit: str = "unknown") -> None:
        self.registry = r = CollectorRegistry()
        self._refreshers: list[Callable[[], Awaitable[None]]] = []
        ProcessCollector(registry=r)
        GCCollector(registry=r)
        PlatformCollector(registry=r)
        Info("meja_build", "The running build", registry=r).info(
            {
                "version": version,
                "commit": commit,
                "python": platform.python_version(),
                "implementation": platform.python_implementation(),
            }
        )
        self.http_requests = Counter(
            "meja_http_requests",
            "HTTP requests answered, by route template and status",
            ["method", "route", "status"],
            registry=r,
        )
        self.http_seconds = Histogram(
            "meja_http_request_seconds",
            "HTTP requests from receipt to the end of the answer",
            ["method", "route"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.socket_connects = Counter("meja_socket_connects", "Table sockets accepted", registry=r)
        self.socket_closes = Counter(
            "meja_socket_closes",
            "Table sockets closed or refused, by close code",
            ["code"],
            registry=r,
        )
        self.errors = Counter(
            "meja_errors",
            "Error answers, by where (rest, socket) and code",
            ["via", "code"],
            registry=r,
        )
        self.redis_seconds = Histogram(
            "meja_redis_seconds",
            "Round trips of the table store to Redis",
            buckets=IO_BUCKETS,
            registry=r,
        )
        self.db_seconds = Histogram(
            "meja_db_seconds", "Database statements", buckets=IO_BUCKETS, registry=r
        )
        self.outbox_dead = Gauge(
            "meja_outbox_dead_letters",
            "Outbox entries parked as dead letters, waiting for an operator",
            registry=r,
        )
        self.actions = Counter(
            "meja_actions", "Actions applied, by game and by whom", ["game", "by"], registry=r
        )
        self.action_seconds = Histogram(
            "meja_action_seconds",
            "A player's action from receipt to its answer",
            ["game"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.round_trips = Histogram(
            "meja_action_redis_round_trips",
            "Redis round trips per accepted player action",
            buckets=(1, 2, 3, 4, 6, 10),
            registry=r,
        )
        self.refusals = Counter(
            "meja_action_refusals", "Player actions answered with an error", ["code"], registry=r
        )
        self.timeouts = Counter(
            "meja_timeouts", "Turn timeouts applied by this process (O-3)", ["game"], registry=r
        )
        self._actions, self._action_seconds = Children(self.actions), Children(self.action_seconds)
        self._refusals, self._timeouts = Children(self.refusals), Children(self.timeouts)
        self.up = Gauge(
            "meja_dependency_up",
            "Whether this process reached Redis / the database at its last probe (/readyz, "
            "/metrics)",
            ["dependency"],
            registry=r,
        )
        self.live_tables = Gauge(
            "meja_live_tables", "Tables in the live registry (all replicas)", registry=r
        )
        self.outbox_backlog = Gauge(
            "meja_outbox_backlog", "Outbox entries not yet written to the database", registry=r
        )
        self.outbox_lag = Gauge(
            "meja_outbox_lag_seconds",
            "Age of the oldest outbox entry not yet in the database",
            registry=r,
        )

    def read_at_scrape(self, collector: Callable[[], Iterable[Metric]]) -> None:
        """Per-process numbers another part owns (the hub's sockets, the consumer's counts),
        collected when scraped: ``collector`` yields metric families (``gauge``,
        ``counter``)."""
        self.registry.register(_Callback(collector))

    def on_scrape(self, refresh: Callable[[], Awaitable[None]]) -> None:
        """``refresh`` reads the shared numbers from Redis before each scrape (``refresh``)."""
        self._refreshers.append(refresh)

    def exposition(self) -> bytes:
        return _generate(self.registry)

    def round_trip(self, seconds: float) -> None:
        """The table store's ``on_trip``: one Redis round trip, counted for the current action
        (if any) and timed."""
        action = _ACTION.get()
        if action is not None:
            action.trips += 1
        self.redis_seconds.observe(seconds)

    def error(self, via: str, code: str) -> None:
        self.errors.labels(via, code).inc()

    def socket_closed(self, code: int) -> None:
        self.socket_closes.labels(str(code)).inc()

    def watch_database(self, engine: Any) -> None:
        """Time every statement of ``engine`` (a sync Engine: ``AsyncEngine.sync_engine``)
        with SQLAlchemy's cursor events (docs: "Core Events", ``before_cursor_execute``)."""
        from sqlalchemy import event

        def before(conn, cursor, statement, params, context, many) -> None:
            conn.info["meja_started"] = time.perf_counter()

        def after(conn, cursor, statement, params, context, many) -> None:
            started = conn.info.pop("meja_started", None)
            if started is not None:
                self.db_seconds.observe(time.perf_counter() - started)

        event.listen(engine, "before_cursor_execute", before)
        event.listen(engine, "after_cursor_execute", after)

    # --- the action path -----------------------------------------------------------------------
    def action(self) -> Action:
        """Time a player's action from receipt to its answer and count its Redis round trips;
        the caller fills in ``game`` and ``reply``."""
        return Action(self._action_done)

    def _action_done(self, action: Action, seconds: float) -> None:
        self._action_seconds[(action.game,)].observe(seconds)
        if action.reply.get("type") == "ack":
            self.round_trips.observe(action.trips)
        else:
            self._refusals[(action.reply.get("code", "error"),)].inc()

    def record_change(self, tid: str, v: int, ch: Any) -> None:
        """After a successful compare-and-set: count its actions and timeouts and write the game
        log line. Only action kinds and event types are logged: their contents may hold tiles.
        The line is ``info`` for a table's landmarks (seats, deals, rounds and matches ending,
        timeouts) and ``debug`` for a plain move: an info line per move cost a twentieth of a
        busy server's CPU (bench/README.md) and made more log than anyone reads."""
        game = ch.doc["game"]
        for entry in ch.log:
            self._actions[game, entry["by"]].inc()
        types = [e.get("type") for e in ch.events]
        if "timeout" in types:
            self._timeouts[(game,)].inc(types.count("timeout"))
        level = logging.INFO if LANDMARKS.intersection(types) else logging.DEBUG
        if not log.isEnabledFor(level):
            return
        log.log(
            level,
            "table changed",
            extra={
                "table": tid,
                "v": v,
                "game": game,
                "match": ch.doc.get("match_no"),
                "status": ch.doc.get("status"),
                "events": types,
                "actions": [
                    {"seat": e["seat"], "kind": e["action"].get("kind"), "by": e["by"]}
                    for e in ch.log
                ],
            },
        )

    # --- scrape --------------------------------------------------------------------------------
    async def refresh(self) -> None:
        """Read the shared numbers (the callbacks given to ``on_scrape``)."""
        for refresh in self._refreshers:
            await refresh()

    def shared(self, live_tables: int, backlog: int, oldest_ms: int | None, dead: int) -> None:
        """The shared numbers as a scrape read them (the same on every replica)."""
        self.live_tables.set(live_tables)
        self.outbox_dead.set(dead)
        self.outbox_backlog.set(backlog)
        self.outbox_lag.set(0 if oldest_ms is None else max(0.0, time.time() - oldest_ms / 1000))


def gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    family = GaugeMetricFamily(name, documentation)
    family.add_metric([], value)
    return family


def counter(
    name: str, documentation: str, label: str, values: Mapping[str, float]
) -> CounterMetricFamily:
    family = CounterMetricFamily(name, documentation, labels=[label])
    for key, n in values.items():
        family.add_metric([key], n)
    return family


class _Callback:
    """A collector whose families come from a callback (prometheus_client's custom
    collectors: anything with ``collect``)."""

    def __init__(self, collect: Callable[[], Iterable[Metric]]):
        self.collect = collect
