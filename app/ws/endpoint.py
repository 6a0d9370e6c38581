"""The table socket ``/ws/tables/{table_id}``: authenticate, then parse -> service -> answer.

- ``Origin``: a browser's Origin must be one the server trusts (``Settings.trusts_origin``:
  its own, or one of ``allowed_origins``; otherwise the handshake is refused: HTTP 403).
  Clients that send no Origin (not browsers) are not subject to it.
- Who: the browser's HttpOnly access cookie, ``Authorization: Bearer`` (other clients), or
  ``?ticket=`` (a single-use ticket from ``POST /api/ws-ticket``); a URL never carries a
  token. No credential makes the socket a spectator. A refused one is accepted and closed, so
  the client reads the code: 4419 "session expired" for an expired access token (the client
  refreshes and reconnects), 4401 for a forged, unknown or revoked one.
- An open socket is closed with 4419 when its token expires (the ``Watchdog`` checks, every
  tick), and with 4401 at once when every session of its player ends (logout, password change:
  ``revoked`` arrives on the hubs' control channel, app/store/hub.py).
- ``?v=<last seen>`` on connect sends the missed events with the fresh state; then come the
  table's kept chat lines (``chat_log``) and who is connected (``presence``, app/ws/presence.py).
Outgoing messages are serialised once, when queued, and wait as JSON bytes; what one socket may
have waiting is bounded in bytes (``socket_backlog_bytes``), so a client that reads slowly or
never cannot take the server's memory and never holds up the table's fan-out. One that falls
that far behind is closed with 1013 (it reconnects and syncs). A ``sync`` answer (a fresh state
with up to ``event_stream_len`` versions of events, some 50 KiB) is built once per table
version, from-version and seat, and repeated syncs are answered with the same bytes.

No socket outlives its client, so file descriptors cannot be used up:
- a socket whose backlog does not move (one send, or its closing, not done after
  ``send_timeout`` seconds: the client reads nothing) is dropped;
- a client silent for ``ping_interval`` seconds is sent ``{"type": "ping"}`` and dropped when
  it sends nothing within ``ping_timeout`` more (it answers ``{"type": "pong"}``; any message
  counts). An app message, not a protocol ping: an ASGI app never sees protocol pongs (the
  server answers and checks them itself), and uvicorn's own pong deadline ends in a graceful
  close, which waits for the peer to read what is queued: a peer that reads nothing keeps its
  descriptor for good. The deadline must be the app's.
"Dropped" is an abort (TCP reset, ``_transport``): a close frame would wait behind the
backlog. One ``Watchdog`` per process checks the sockets (no timer or task per socket).

Observed (docs/operations/monitoring.md): a refused socket is logged (``socket refused``, with its
close code, reason, table and client address) and counted in ``meja_socket_closes_total``
under its code; an accepted one in ``meja_socket_connects_total``, and its end under the code
the connection closed with (1006: dropped). Every error message a socket is sent, a flood's
``rate_limited`` included, is counted in ``meja_errors_total{via="socket",code}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import MutableMapping
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.config import Settings
from app.db import reach
from app.services.clients import client_address
from app.services.rate_limits import RateLimited
from app.services.sessions import AuthError, Identity
from app.services.table.errors import error_reply
from app.services.wiring import Services
from app.store.hub import Hub
from app.store.outage import REDIS_DOWN
from app.store.tables import NotReplicated

from . import protocol as P
from .presence import PresenceKeeper

router = APIRouter()
log = logging.getLogger("meja.sockets")
PING = orjson.dumps({"type": "ping"})
REFUSED = 4401  # a forged, unknown or revoked credential: reconnecting cannot help
EXPIRED = 4419  # "session expired": refresh the access token, then reconnect
AGAIN = 1013  # "try again later": Redis or the database away; the client reconnects and syncs


class Conn:
    """One socket. Outgoing messages wait in a plain list as JSON bytes; a writer task sends
    them and ends when none is left, so an idle socket holds no task, queue or future (its
    memory matters at 20,000 sockets, bench/README.md). Its deadlines are checked by the
    process's ``Watchdog``."""

    __slots__ = (
        "ws",
        "player",
        "pid",
        "ep",
        "expires",
        "_code",
        "_v",
        "settings",
        "heard",
        "_out",
        "_bytes",
        "_writer",
        "_closing",
        "_sending",
        "_pinged",
    )

    def __init__(self, ws: WebSocket, player: dict | None, settings, exp: int | None = None):
        self.ws = ws
        self.player = player
        self.pid = player["id"] if player else None
        self.ep = player["ep"] if player else None
        # the token's expiry on the loop's clock (None: a spectator, nothing expires)
        loop = asyncio.get_running_loop()
        self.expires = None if exp is None else loop.time() + exp - time.time()
        self._code = 1013  # the close code once closing: too far behind, unless ended
        self._v = -1  # -1 until the first state is sent; the fan-out skips it till then
        self.settings = settings  # the process's (one object for every socket)
        self._out: list[bytes] = []
        self._bytes = 0
        self._writer: asyncio.Task | None = None
        self._closing = False
        self._sending: float | None = None  # when the send in progress began
        self.heard = asyncio.get_running_loop().time()  # the client's last message
        self._pinged = False

    @property
    def last_v(self) -> int:
        """The version of the newest state queued. It only goes up: the fan-out (pub/sub) and
        this socket's own sync answers are built concurrently, and whichever is queued last
        may be the older one."""
        return self._v

    @last_v.setter
    def last_v(self, v: int) -> None:
        self._v = max(self._v, v)

    def push(self, msg: dict[str, Any]) -> None:
        """Queue a message (an answer, or the fan-out's state). A state no newer than the one
        already queued is dropped: its events went out with that one."""
        if msg.get("type") == "state" and msg["v"] <= self._v:
            return
        self.push_json(orjson.dumps(msg))

    def push_json(self, data: bytes) -> None:
        """Queue one message, already serialised (a cached sync answer, a chat line: the same
        bytes for every socket). Past ``socket_backlog_bytes`` waiting, the socket is too far
        behind: the backlog is dropped and the socket closed. A message larger than the limit
        on its own still goes out once nothing else waits."""
        if self._closing:
            return
        if self._out and self._bytes + len(data) > self.settings.socket_backlog_bytes:
            self._out, self._bytes = [], 0
            self._closing = True
        else:
            self._out.append(data)
            self._bytes += len(data)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    def hear(self) -> None:
        """The client sent something: it is alive (the ping deadline starts again)."""
        self.heard = asyncio.get_running_loop().time()
        self._pinged = False

    async def _write(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._out:
                batch, self._out = self._out, []
                for data in batch:
                    if self._closing:  # fell too far behind meanwhile: the rest is dropped
                        break
                    self._sending = loop.time()
                    await self.ws.send_text(data.decode())
                    self._sending = None
                    self._bytes -= len(data)
            if self._closing:
                self._sending = loop.time()
                await self.ws.close(code=self._code)
        except Exception:  # the socket is gone; its receive loop ends the connection
            self._closing = True
            self._out, self._bytes = [], 0
        finally:
            self._sending = None
            self._writer = None

    def end(self, code: int) -> None:
        """Close with ``code`` (the session ended or expired); what waits is dropped."""
        if self._closing:
            return
        self._out, self._bytes = [], 0
        self._closing, self._code = True, code
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    def check(self, now: float) -> None:
        """Drop the socket if its backlog does not move or its client stays silent past its
        ping; ping a client silent for ``ping_interval``; end it once its token expired."""
        s = self.settings
        if self.expires is not None and now >= self.expires:
            return self.end(EXPIRED)
        if self._sending is not None and now - self._sending > s.send_timeout:
            return self._abort()
        silent = now - self.heard
        if silent > s.ping_interval + s.ping_timeout:
            return self._abort()
        if silent > s.ping_interval and not self._pinged:
            self._pinged = True
            self.push_json(PING)

    def _abort(self) -> None:
        self._closing = True
        self._out, self._bytes = [], 0
        transport = _transport(self.ws)
        if transport is not None:
            transport.abort()

    def linger(self) -> None:
        """The socket is done with (closed by either side). A close frame still waiting
        behind a backlog the peer does not read would keep the connection for good: it is
        aborted ``send_timeout`` seconds on, unless gone by then."""
        transport = _transport(self.ws)
        if transport is not None and not transport.is_closing():
            asyncio.get_running_loop().call_later(self.settings.send_timeout, transport.abort)

    async def stop(self) -> None:
        self._closing = True
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer


class Watchdog:
    """Checks every socket of the process (``Conn.check``) every tick, with one timer while
    any is open: a timer per socket cost some 300 bytes each."""

    def __init__(self, hub: Hub, settings: Settings) -> None:
        self.hub, self.settings = hub, settings
        self._timer: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        if self._timer is None:
            s = self.settings
            tick = min(s.send_timeout, s.ping_interval, s.ping_timeout) / 2
            self._timer = asyncio.get_running_loop().call_later(tick, self._sweep)

    def _sweep(self) -> None:
        self._timer = None
        now = asyncio.get_running_loop().time()
        for socks in list(self.hub.sockets.values()):
            for conn in list(socks):
                conn.check(now)
        if self.hub.sockets:
            self.arm()


class Sockets:
    """The socket layer of a process: the services it serves, the hub's callbacks (what a
    table's channel and the control channel say) and its own workers, the watchdog and
    presence (app/ws/presence.py)."""

    def __init__(self, services: Services):
        self.services = services
        self.watchdog = Watchdog(services.hub, services.settings)
        self.keeper = PresenceKeeper(services)

    async def deliver(self, tid: str, message: dict, socks: list[Conn]) -> None:
        """Chat goes to every socket as is; a presence change is read and told; versions go
        through the fan-out."""
        if "chat" in message:
            data = orjson.dumps(message["chat"])
            for s in socks:
                s.push_json(data)
        elif "presence" in message:
            await self.keeper.changed(tid, socks)
        else:
            await self.services.views.fanout(tid, message, socks)

    def revoked(self, message: dict[str, Any]) -> None:
        """Every session of a player ended (logout, password change): its sockets signed at
        an older epoch are closed with 4401."""
        pid, ep = message.get("revoked"), message.get("ep")
        if pid is None or ep is None:
            return
        for socks in list(self.services.hub.sockets.values()):
            for conn in list(socks):
                if conn.pid == pid and conn.ep < ep:
                    conn.end(REFUSED)


def _transport(ws: WebSocket) -> asyncio.Transport | None:
    """The connection's transport, to drop it at once (the peer sees a reset). ASGI has no
    way to: a close frame waits behind the backlog, and asyncio's ``transport.close`` flushes
    first, so for a peer that reads nothing both wait for good. uvicorn's protocol object owns
    the ``receive`` callable it hands the app (Starlette passes it on as is) and holds the
    transport; aborting it ends the receive loop with a disconnect."""
    return getattr(getattr(ws._receive, "__self__", None), "transport", None)


def origin_ok(ws: WebSocket, settings) -> bool:
    origin = ws.headers.get("origin")
    return origin is None or settings.trusts_origin(origin, ws.headers.get("host"))


async def table_socket(ws: WebSocket) -> None:
    tid = ws.path_params["tid"]
    sockets: Sockets = ws.app.state.sockets
    live = sockets.services
    settings = live.settings
    if not origin_ok(ws, settings):
        await _refuse(live, ws, 4403, "origin not trusted", accept=False)
        return
    try:
        who = await _identity(live, ws)
    except reach.Unavailable:  # the player is not cached and the database is down
        await _refuse(live, ws, AGAIN, "database_unavailable")
        return
    except REDIS_DOWN:
        await _refuse(live, ws, AGAIN, "redis_unavailable")
        return
    except AuthError as e:
        await _refuse(live, ws, EXPIRED if e.code == "token_expired" else REFUSED, e.code)
        return
    await ws.accept()
    live.metrics.socket_connects.inc()
    conn = Conn(ws, who.player if who else None, settings, who.exp if who else None)
    code = 1000  # the server ended it (no such table), unless the connection says otherwise
    outage = False  # Redis failed while serving: closed with 1013 ``redis_unavailable``
    present = False
    try:
        sockets.watchdog.arm()
        if await live.hub.join(tid, conn) is None:
            # Sent here, not queued: the writer is cancelled below (conn.stop) and would lose it
            # unless leaving the table happened to yield first (it does not on redis-py < 8).
            reply = error_reply(None, "not_found", f"no table {tid}")
            live.metrics.error("socket", reply["code"])
            await ws.send_text(orjson.dumps(reply).decode())
            return
        await _send_state(live, tid, conn, _version(ws.query_params.get("v")))
        conn.push({"type": "chat_log", "lines": await live.hub.recent_chat(tid)})
        present = True
        await sockets.keeper.arrive(tid, conn)
        code = await _serve(live, tid, conn)
    except WebSocketDisconnect as e:
        code = e.code
    except REDIS_DOWN:  # closed below with 1013 and the reason: the client reconnects later
        code, outage = AGAIN, True
        log.warning("socket closed: Redis unavailable", extra={"table": tid})
    finally:
        live.metrics.socket_closed(code)
        with contextlib.suppress(*REDIS_DOWN):  # unsubscribing needs Redis too
            await live.hub.leave(tid, conn)
        if present:
            with contextlib.suppress(*REDIS_DOWN):  # Redis gone: the member lapses by itself
                await sockets.keeper.depart(tid, conn)
        await conn.stop()
        if outage:
            with contextlib.suppress(Exception):  # the client may be gone already
                await ws.close(code=AGAIN, reason="redis_unavailable")
        conn.linger()


async def _refuse(
    live: Services, ws: WebSocket, code: int, reason: str, *, accept: bool = True
) -> None:
    """Close the handshake with ``code`` (accepted first, so the client reads it; an origin
    refusal is an HTTP 403 instead), logged with its reason and counted."""
    log.info(
        "socket refused",
        extra={
            "table": ws.path_params["tid"],
            "code": code,
            "reason": reason,
            "client": client_address(ws.scope, live.settings.trusted_proxies),
        },
    )
    live.metrics.socket_closed(code)
    if accept:
        await ws.accept()
    await ws.close(code=code, reason=reason if code == AGAIN else None)


def _error(live: Services, conn: Conn, reply: dict[str, Any]) -> None:
    """Send an error message, counted by its code."""
    live.metrics.error("socket", reply["code"])
    conn.push(reply)


async def _identity(live: Services, ws: WebSocket) -> Identity | None:
    """The socket's player: ``?ticket=``, else ``Authorization: Bearer``, else the cookie;
    None (a spectator) when it brings none of them."""
    ticket = ws.query_params.get("ticket")
    if ticket:
        return await live.sessions.redeem(ticket)
    auth = ws.headers.get("authorization", "")
    token = auth[7:].strip() if auth.lower().startswith("bearer ") else None
    token = token or ws.cookies.get(live.settings.cookie_name)
    return await live.sessions.authenticate(token) if token else None


# A plain Starlette route: FastAPI's dependency machinery would keep its exit stacks and
# frames alive for the socket's whole life (a few KiB per idle socket, bench/README.md).
router.add_websocket_route("/ws/tables/{tid}", table_socket)


async def _send_state(live: Services, tid: str, conn: Conn, since: int | None) -> None:
    """A fresh state with the events after ``since`` (connect, ``sync``). The answer is built
    while the fan-out may queue a newer version: then it is built again at that one, so the
    socket's states stay in version order."""
    while True:
        answer = await live.views.sync_answer(tid, conn.pid, since)
        if answer is None:
            return
        v, data = answer
        if v >= conn.last_v:
            break
    conn.push_json(data)
    conn.last_v = v
    if live.store.heard_version(tid) > conn.last_v:  # a version arrived while we were sending
        await _send_state(live, tid, conn, conn.last_v)


async def _serve(live: Services, tid: str, conn: Conn) -> int:
    """Answer the socket's messages until it closes; the close code."""
    settings = live.settings
    limiter = P.RateLimiter(settings.rate_per_second, settings.rate_burst)
    while True:
        raw = await conn.ws.receive()
        if raw["type"] == "websocket.disconnect":
            return int(raw.get("code") or 1005)  # 1005: closed without a code (RFC 6455)
        conn.hear()
        if not limiter.allow():
            _error(live, conn, error_reply(None, "rate_limited", "too many messages; slow down"))
            continue
        await _handle(live, tid, conn, raw)


async def _handle(live: Services, tid: str, conn: Conn, raw: MutableMapping[str, Any]) -> None:
    """One message. Its own function so that the parsed message is freed once answered, not
    kept by every socket until its next message (3,000 of them stayed in the collector's middle
    generation, bench/README.md)."""
    settings = live.settings
    if raw.get("text") is None:  # a binary frame: the protocol is JSON text (protocol.py)
        _error(live, conn, error_reply(None, "bad_message", "messages are JSON in text frames"))
        return
    try:
        msg = P.parse(
            raw["text"], max_bytes=settings.max_message_bytes, chat_max=settings.chat_max_chars
        )
    except P.BadMessage as e:
        _error(live, conn, error_reply(None, "bad_message", str(e)))
        return
    if isinstance(msg, P.Ping):
        conn.push({"type": "pong"})
    elif isinstance(msg, P.Pong):  # the answer to our ping: hearing it was the point
        pass
    elif isinstance(msg, P.Act):
        if conn.pid is None:
            _error(
                live, conn, error_reply(msg.cmd, "not_your_turn", "spectators do not play; sign in")
            )
        else:
            try:
                reply = await live.tables.act(tid, conn.pid, msg.cmd, msg.v, msg.action)
            except NotReplicated as e:  # written, not yet safe: resent, it is answered as first
                reply = error_reply(msg.cmd, "redis_unavailable", str(e))
            if reply["type"] == "error":
                live.metrics.error("socket", reply["code"])
            conn.push(reply)
    elif isinstance(msg, P.Sync):
        await _back(live, tid, conn)
        await _send_state(live, tid, conn, msg.v)
    elif isinstance(msg, P.Chat | P.Quick):
        if conn.pid is None:
            _error(
                live, conn, error_reply(None, "not_your_turn", "spectators do not chat; sign in")
            )
            return
        if isinstance(msg, P.Quick) and msg.id not in P.QUICK_CHAT:
            reply = error_reply(None, "unknown_quick_chat", f"no quick chat {msg.id[:40]!r}")
            _error(live, conn, reply)
            return
        try:  # per player and address, across replicas (docs/api.md "Rate limits")
            await live.limits.hit("chat_burst", player=conn.pid)
        except RateLimited as e:  # a burst: said as such, so the page can say "slower"
            reply = error_reply(None, "chat_too_fast", "too many lines at once; slow down")
            _error(live, conn, {**reply, "retry_after": e.retry_after})
            return
        try:
            address = client_address(conn.ws.scope, settings.trusted_proxies)
            await live.limits.hit("chat", player=conn.pid, address=address)
        except RateLimited as e:
            _error(
                live, conn, {**error_reply(None, e.code, e.message), "retry_after": e.retry_after}
            )
            return
        await _back(live, tid, conn)
        said = {"text": msg.text.strip()} if isinstance(msg, P.Chat) else {"quick": msg.id}
        await live.hub.publish_chat(
            tid,
            {
                "type": "chat",
                "id": uuid.uuid4().hex[:16],  # the client's key: a kept line may come twice
                "name": conn.player["name"] if conn.player else "",
                **said,
                "seat": live.views.seat_of(tid, conn.pid),
                "ts": int(time.time() * 1000),
            },
            keep=settings.chat_history_lines,
            keep_seconds=settings.chat_history_seconds,
        )


async def _back(live: Services, tid: str, conn: Conn) -> None:
    if conn.pid is not None:
        await live.tables.back(tid, conn.pid)


def _version(raw: str | None) -> int | None:
    """``?v=``: a version in ASCII digits; anything else (``²``, ``٣``, 5,000 digits, which
    ``int`` refuses) is ignored and the socket gets a fresh state."""
    if raw and raw.isascii() and raw.isdigit() and len(raw) <= 18:
        return int(raw)
    return None
