"""The table socket ``/ws/tables/{table_id}``: authenticate, then parse -> service -> answer.

- ``Origin``: a browser's Origin must be the server's own or one of ``allowed_origins``
  (otherwise the handshake is refused: HTTP 403). Clients that send no Origin (not
  browsers) are not subject to it.
- Token: ``?token=`` (browsers cannot set headers on a socket) or the HttpOnly cookie. A bad or
  forged token is refused the same way; no token makes the socket a spectator.
- ``?v=<last seen>`` on connect sends the missed events with the fresh state.
Outgoing messages go through a bounded queue per socket, so a slow client never holds up the
table's fan-out; one that falls too far behind is closed (it reconnects and syncs).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from app.services.table_errors import error_reply

from . import protocol as P

router = APIRouter()
QUEUE = 256


class Conn:
    """One socket. Outgoing messages wait in a plain list; a writer task sends them and ends
    when none is left, so an idle socket holds no task, queue or future (its memory matters at
    20,000 sockets, issue 10)."""

    __slots__ = ("ws", "player", "pid", "last_v", "_out", "_writer", "_closing")

    def __init__(self, ws: WebSocket, player: dict | None):
        self.ws = ws
        self.player = player
        self.pid = player["id"] if player else None
        self.last_v = -1  # -1 until the first state is sent; the fan-out skips it till then
        self._out: list[dict[str, Any]] = []
        self._writer: asyncio.Task | None = None
        self._closing = False

    def push(self, msg: dict[str, Any]) -> None:
        if self._closing:
            return
        if len(self._out) >= QUEUE:  # too far behind: drop the backlog and close
            self._out = []
            self._closing = True
        else:
            self._out.append(msg)
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write())

    async def _write(self) -> None:
        try:
            while self._out:
                batch, self._out = self._out, []
                for msg in batch:
                    if self._closing:  # fell too far behind meanwhile: the rest is dropped
                        break
                    await self.ws.send_text(orjson.dumps(msg).decode())
            if self._closing:
                await self.ws.close(code=1013)
        except Exception:  # the socket is gone; its receive loop ends the connection
            self._closing = True
            self._out = []
        finally:
            self._writer = None

    async def stop(self) -> None:
        self._closing = True
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(BaseException):
                await writer


def origin_ok(ws: WebSocket, allowed: list[str]) -> bool:
    origin = ws.headers.get("origin")
    if origin is None or origin in allowed:
        return True
    return urlsplit(origin).netloc == ws.headers.get("host")


async def table_socket(ws: WebSocket) -> None:
    tid = ws.path_params["tid"]
    live = ws.app.state.live
    settings = live.settings
    if not origin_ok(ws, settings.allowed_origins):
        await ws.close(code=4403)
        return
    token = ws.query_params.get("token") or ws.cookies.get(settings.cookie_name)
    player = await live.players.from_token(token) if token else None
    if token and player is None:
        await ws.close(code=4401)
        return
    await ws.accept()
    conn = Conn(ws, player)
    try:
        if await live.hub.join(tid, conn) is None:
            conn.push({"type": "error", "cmd": None, "code": "not_found",
                       "message": f"no table {tid}"})
            return
        since = ws.query_params.get("v")
        await _send_state(live, tid, conn, int(since) if since and since.isdigit() else None)
        await _serve(live, tid, conn)
    except WebSocketDisconnect:
        pass
    finally:
        await live.hub.leave(tid, conn)
        await conn.stop()



# A plain Starlette route: FastAPI's dependency machinery would keep its exit stacks and
# frames alive for the socket's whole life (a few KiB per idle socket, issue 10).
router.add_websocket_route("/ws/tables/{tid}", table_socket)

async def _send_state(live, tid: str, conn: Conn, since: int | None) -> None:
    msg = await live.views.sync_message(tid, conn.pid, since)
    conn.push(msg)
    conn.last_v = msg["v"]
    if live.store.heard_version(tid) > conn.last_v:  # a version arrived while we were sending
        await _send_state(live, tid, conn, conn.last_v)


async def _serve(live, tid: str, conn: Conn) -> None:
    settings = live.settings
    limiter = P.RateLimiter(settings.rate_per_second, settings.rate_burst)
    while True:
        raw = await conn.ws.receive()
        if raw["type"] == "websocket.disconnect":
            return
        if not limiter.allow():
            conn.push(error_reply(None, "rate_limited", "too many messages; slow down"))
            continue
        await _handle(live, tid, conn, raw)


async def _handle(live, tid: str, conn: Conn, raw: dict) -> None:
    """One message. Its own function so that the parsed message is freed once answered, not
    kept by every socket until its next message (3,000 of them stayed in the collector's middle
    generation, issue 10)."""
    settings = live.settings
    data = raw.get("text") if raw.get("text") is not None else raw.get("bytes") or b""
    try:
        msg = P.parse(data, max_bytes=settings.max_message_bytes,
                      chat_max=settings.chat_max_chars)
    except P.BadMessage as e:
        conn.push(error_reply(None, "bad_message", str(e)))
        return
    if isinstance(msg, P.Ping):
        conn.push({"type": "pong"})
    elif isinstance(msg, P.Act):
        if conn.pid is None:
            conn.push(error_reply(msg.cmd, "not_your_turn", "spectators do not play; sign in"))
        else:
            conn.push(await live.moves.act(tid, conn.pid, msg.cmd, msg.v, msg.action))
    elif isinstance(msg, P.Sync):
        await _back(live, tid, conn)
        await _send_state(live, tid, conn, msg.v)
    elif isinstance(msg, P.Chat):
        if conn.pid is None:
            conn.push(error_reply(None, "not_your_turn", "spectators do not chat; sign in"))
            return
        await _back(live, tid, conn)
        await live.hub.publish_chat(tid, {
            "type": "chat", "name": conn.player["name"], "text": msg.text.strip(),
            "seat": live.views.seat_of(tid, conn.pid), "ts": int(time.time() * 1000)})


async def _back(live, tid: str, conn: Conn) -> None:
    if conn.pid is not None:
        await live.moves.back(tid, conn.pid)




async def deliver(live, tid: str, message: dict, socks: list[Conn]) -> None:
    """The hub's callback: chat goes to every socket as is; versions go through the fan-out."""
    if "chat" in message:
        for s in socks:
            s.push(message["chat"])
    else:
        await live.views.fanout(tid, message, socks)
