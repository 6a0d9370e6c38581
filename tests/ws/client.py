"""A test player: one real WebSocket client per seat, plus helpers to set tables up over REST.

``SeatClient.play`` acts whenever its own view says it is its turn, choosing at random (seeded)
among the legal actions in that view, and keeps every message it received for the audits.
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
import uuid
from typing import Any

import httpx
import orjson
import websockets

from app.games import registry
from tests.games.playout import ROUND_END_EVENTS, tiles_in


async def register(http: httpx.AsyncClient, name: str) -> tuple[str, dict]:
    r = await http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["token"], {"Authorization": f"Bearer {r.json()['token']}"}


async def sit_at_new_chips_table(
    http: httpx.AsyncClient, headers: dict, seats: int = 4, buy_in: int = 300
) -> str:
    """A new Gaple table at stake 10 with this player in seat 0 (a buy-in of ``buy_in``)."""
    tid = (
        await http.post(
            "/api/tables",
            headers=headers,
            json={"game": "gaple", "seats": seats, "options": {"stake": 10}},
        )
    ).json()["id"]
    r = await http.post(f"/api/tables/{tid}/seats/0", headers=headers, json={"buy_in": buy_in})
    assert r.status_code == 200, r.text
    return tid


async def start_match(
    srv, game: str, n: int, options: dict | None = None, spectator=True, spread=None
):
    """A table of ``n`` real clients (and a spectator), all connected before the deal; with
    ``spread`` (a list of servers) client ``i`` connects to ``spread[i % len(spread)]``."""
    spread = spread or [srv]
    async with httpx.AsyncClient(base_url=srv.url) as http:
        creds = [await register(http, f"Player {i}") for i in range(n)]
        r = await http.post(
            "/api/tables",
            headers=creds[0][1],
            json={"game": game, "seats": n, "options": options or {}},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        clients = [
            await SeatClient(spread[i % len(spread)].ws_url, tid, tok, seed=i).connect()
            for i, (tok, _) in enumerate(creds)
        ]
        watcher = await SeatClient(srv.ws_url, tid, None).connect() if spectator else None
        for i, (_, headers) in enumerate(creds):
            r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=headers)
            assert r.status_code == 200, r.text
    return tid, clients, watcher


class SeatClient:
    def __init__(self, ws_url: str, tid: str, token: str | None, seed: int = 0):
        self.ws_url, self.tid, self.token = ws_url, tid, token
        self.rng = random.Random(seed)
        self.messages: list[dict[str, Any]] = []
        self.latest: dict[str, Any] | None = None
        self.acted_v = -1
        self.ws = None

    async def connect(self, since: int | None = None, **kw) -> SeatClient:
        """The token goes in ``Authorization: Bearer`` (never in the URL)."""
        query = f"?v={since}" if since is not None else ""
        url = f"{self.ws_url}/ws/tables/{self.tid}{query}"
        if self.token:
            kw["additional_headers"] = {"Authorization": f"Bearer {self.token}"}
        self.ws = await websockets.connect(url, **kw)
        return self

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def send(self, msg: dict | str | bytes) -> None:
        """A dict as JSON text; str as is (a text frame); bytes as a binary frame."""
        await self.ws.send(msg if isinstance(msg, str | bytes) else orjson.dumps(msg).decode())

    async def recv(self, timeout: float = 10) -> dict:
        msg = orjson.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        while msg["type"] == "ping":  # the server's: answered as the browser client does
            await self.send({"type": "pong"})
            msg = orjson.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.messages.append(msg)
        if msg["type"] == "state" and (self.latest is None or msg["v"] >= self.latest["v"]):
            self.latest = msg
        return msg

    async def until(self, pred, timeout: float = 10) -> dict:
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.recv(timeout)
                if pred(msg):
                    return msg

    def my_turn(self) -> bool:
        m = self.latest
        view = m and m["view"]
        return bool(
            view and view["legal"] and view["to_act"] == view["seat"] and m["v"] > self.acted_v
        )

    def paused(self) -> bool:
        """Between two rounds, and this seat has not asked for the next one yet."""
        m = self.latest
        pause = m and m["table"].get("pause")
        you = m and m["table"].get("you")
        return bool(
            pause and you is not None and you not in pause["ready"] and m["v"] > self.acted_v
        )

    async def act(self, action: dict, v: int | None = None, cmd: str | None = None) -> str:
        cmd = cmd or uuid.uuid4().hex
        await self.send(
            {"type": "act", "cmd": cmd, "v": self.latest["v"] if v is None else v, "action": action}
        )
        return cmd

    async def play(self, done, timeout: float = 60) -> None:
        """Play random legal moves until ``done(state message)``; any refusal but ``stale``
        (someone else's move crossed ours) fails the test."""
        async with asyncio.timeout(timeout):
            while not (self.latest and done(self.latest)):
                if self.paused():  # O-6: ask for the next round, as the page's button does
                    self.acted_v = self.latest["v"]
                    await self.act({"kind": "ready"})
                elif self.my_turn():
                    self.acted_v = self.latest["v"]
                    await self.act(self.rng.choice(self.latest["view"]["legal"]))
                msg = await self.recv(timeout)
                assert msg["type"] != "error" or msg["code"] == "stale", msg


def match_over(match_no: int = 1):
    return lambda m: (
        m["type"] == "state"
        and m["table"]["status"] == "over"
        and m["table"]["match_no"] == match_no
    )


def states_by_version(doc_result_game: str, options: dict, n: int, seed: int, log: list[dict]):
    """(rules, [state after the deal and after each version's entries]) for audits."""
    rs = registry.get_ruleset(doc_result_game)
    state = rs.new_state(options, n, seed)
    states = {0: state}
    for entry in log:
        state = rs.apply(state, entry["seat"], rs.parse_action(entry["action"])).state
        states[entry["v"]] = state
    return rs, states


def audit_messages(rs, states: dict, messages: list[dict], who: str) -> int:
    """O-2: no message shows a tile its recipient may not see at that version. Events up to a
    round's end belong to that finished round (its tiles are dealt again afterwards, and the
    round-end event may show its hands); the rest of every message is checked against the
    state at the message's version. Returns how many messages with a view were checked."""
    versions = sorted(states)
    checked = 0
    for msg in messages:
        if msg["type"] != "state" or msg["view"] is None:
            assert msg["type"] == "chat" or not list(tiles_in(msg)), (who, msg)
            continue
        at = max(x for x in versions if x <= msg["v"])
        hidden = rs.hidden_tiles(states[at], msg["view"]["seat"])
        visible = {**msg, "events": _current_round(msg["events"])}
        leaked = set(tiles_in(visible)) & hidden
        assert not leaked, f"{who} saw hidden tiles {sorted(leaked)} at v{msg['v']}: {msg}"
        checked += 1
    return checked


async def finish(clients, watcher, done, timeout=90):
    async def watch():  # states only: chat_log and presence come too
        await watcher.until(lambda m: m["type"] == "state" and done(m), timeout)

    await asyncio.gather(*(c.play(done, timeout) for c in clients), *([watch()] if watcher else []))


async def check_replay(srv, tid: str, clients, watcher, match_no: int = 1) -> dict:
    store = srv.live.store
    snap = await store.load(tid)
    doc = snap.doc
    log = await store.action_log(tid, match_no)
    rs, states = states_by_version(
        doc["game"], doc["match_options"], len(doc["players"]), doc["seed"], log
    )
    final = states[max(states)]
    result = {k: v for k, v in doc["result"].items() if k != "winner_seat"}
    assert result == rs.outcome(final).to_json()
    for i, c in enumerate(clients):
        assert audit_messages(rs, states, c.messages, f"seat {i}") > 0
    if watcher:
        assert audit_messages(rs, states, watcher.messages, "spectator") > 0
    return doc


def _current_round(events: list[dict]) -> list[dict]:
    ends = [i for i, e in enumerate(events) if e.get("type") in ROUND_END_EVENTS]
    return events[ends[-1] + 1 :] if ends else events


class DeafClient:
    """A table socket that never reads once connected: a raw TCP connection with a small
    receive buffer that does the WebSocket handshake and then only writes (masked text
    frames). Client libraries keep reading control frames (or whole buffers) behind the
    application's back; this one lets the server's answers pile up for good."""

    def __init__(self, port: int, path: str):
        self.port, self.path = port, path

    async def connect(self) -> DeafClient:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.port))
        self.reader, self.writer = await asyncio.open_connection(sock=sock, limit=4096)
        key = base64.b64encode(os.urandom(16)).decode()
        self.writer.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
                "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
            ).encode()
        )
        head = await self.reader.readuntil(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 101"), head
        return self

    async def send(self, text: str) -> None:
        """One text frame; ConnectionError once the server dropped the connection."""
        data, mask = text.encode(), os.urandom(4)
        n = len(data)
        head = (
            bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + n.to_bytes(2, "big")
        )
        self.writer.write(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        await self.writer.drain()

    def close(self) -> None:
        self.writer.transport.abort()
