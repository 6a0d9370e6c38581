"""No socket outlives its client: one that answers no ping and one whose backlog does not move
(it reads nothing) are dropped, so file descriptors cannot be used up."""

from __future__ import annotations

import asyncio
import contextlib
import time

import httpx
import orjson
import psutil
import websockets

from tests.ws.client import DeafClient, SeatClient, register, start_match
from tests.ws.test_sync_chat import play_some


async def _table(srv) -> str:
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Host Player")
        return (
            await http.post("/api/tables", headers=auth, json={"game": "cross", "seats": 2})
        ).json()["id"]


def server_sockets(srv) -> int:
    """Connections the server holds open (this process runs it: its side of them)."""
    return sum(
        1
        for c in psutil.Process().net_connections("tcp")
        if c.laddr.port == srv.port and c.status != psutil.CONN_LISTEN
    )


async def _until_held(srv, n: int, timeout: float = 10) -> float:
    """Seconds until the server holds ``n`` connections (and watches ``n`` sockets)."""
    start = time.monotonic()
    async with asyncio.timeout(timeout):
        while server_sockets(srv) != n or sum(map(len, srv.live.hub.sockets.values())) != n:
            await asyncio.sleep(0.05)
    return time.monotonic() - start


async def test_a_client_that_answers_no_ping_is_dropped(live_server):
    srv = await live_server(ping_interval=0.4, ping_timeout=0.4)
    tid = await _table(srv)
    answers = await SeatClient(srv.ws_url, tid, None).connect()  # pongs, like the browser
    listening = asyncio.create_task(answers.until(lambda m: False, timeout=4))
    mute = await websockets.connect(
        f"{srv.ws_url}/ws/tables/{tid}", ping_interval=None, close_timeout=1
    )
    deaf = await DeafClient(srv.port, f"/ws/tables/{tid}").connect()  # reads, sends nothing
    assert [orjson.loads(await mute.recv())["type"] for _ in range(3)] == [
        "state",
        "chat_log",
        "presence",
    ]
    assert orjson.loads(await asyncio.wait_for(mute.recv(), 3)) == {"type": "ping"}
    with contextlib.suppress(websockets.ConnectionClosed):
        await asyncio.wait_for(mute.recv(), 3)
        raise AssertionError("the socket stayed open after its ping went unanswered")
    assert await _until_held(srv, 1) < 3  # the deaf one is gone too
    with contextlib.suppress(TimeoutError):  # the answering one stays, pinged again and again
        await listening
    assert server_sockets(srv) == len(srv.live.hub.sockets[tid]) == 1
    assert [m["type"] for m in answers.messages] == ["state", "chat_log", "presence"]
    await answers.send({"type": "ping"})
    assert (await answers.recv())["type"] == "pong"
    await answers.close()
    with contextlib.suppress(websockets.ConnectionClosed):  # reset by the server
        await mute.close()
    deaf.close()


async def test_a_socket_whose_backlog_does_not_move_is_dropped(live_server):
    srv = await live_server(
        seeds=lambda t, m: 34,
        send_timeout=0.5,
        ping_interval=60,
        rate_per_second=1e5,
        rate_burst=100_000,
    )
    tid, clients, watcher = await start_match(srv, "moon", 4)
    for c in (*clients, watcher):
        await c.until(lambda m: m["type"] == "state" and m["view"] is not None)
    await play_some(clients, 12)  # sync answers of some KiB each
    for c in (*clients, watcher):
        await c.close()
    await _until_held(srv, 0)
    deaf = await DeafClient(srv.port, f"/ws/tables/{tid}").connect()
    sync = orjson.dumps({"type": "sync", "v": 1}).decode()
    with contextlib.suppress(ConnectionError):
        for _ in range(3000):  # past what the socket buffers take, then past 1 MiB
            await deaf.send(sync)
    assert await _until_held(srv, 0) < 3
    deaf.close()
