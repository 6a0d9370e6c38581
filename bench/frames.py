"""The server's CPU per WebSocket frame, for each of uvicorn's implementations.

    python bench/frames.py [--frames 20000] [--impl websockets-sansio ...] [--json]

A move costs Meja a frame in (the act) and frames out (the actor's ack, every seat's state).
This measures those frames alone: for each implementation a uvicorn process (uvloop, no
compression, as app/process.py runs it) serves a FastAPI app whose one socket route, a plain
Starlette route as Meja's, sends or receives ``--frames`` frames on command; the figure is that
process's own CPU time (``time.process_time``) per frame, so this client's work is not in it.
Rows: an ack (60 bytes) and a state (1,500 bytes) sent as text the way app/ws/endpoint.py sends
them (bytes from orjson, decoded to a str); the state as a binary frame instead (what writing
the bytes as they are would save); the state queued on Meja's own socket object as the fan-out
queues it (its writer task started and ended for it); an ack and a state in one text frame
(what sharing a frame would save against the two); and an act (80 bytes) received.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import orjson
import uvicorn
from fastapi import FastAPI
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.ws.endpoint import Conn  # noqa: E402
from bench.services import _free_port  # noqa: E402

IMPLS = ("websockets-sansio", "websockets", "wsproto")
ACK, STATE, ACT = 60, 1500, 80
# (row, what the server does, frames a round, bytes a frame, how they are sent)
ROWS = (
    ("ack, text", "send", 1, ACK, "text"),
    ("state, text", "send", 1, STATE, "text"),
    ("state, binary", "send", 1, STATE, "bytes"),
    ("state, text, through Meja's socket queue", "send", 1, STATE, "conn"),
    ("ack + state, two text frames", "send", 2, 0, "text"),
    ("ack + state, one text frame", "send", 1, ACK + STATE, "text"),
    ("act, received", "recv", 1, ACT, "text"),
)


def payload(size: int) -> bytes:
    """JSON-shaped ASCII of ``size`` bytes."""
    return (b'{"type":"state","x":"' + b"a" * size)[: size - 2] + b'"}'


async def frames_socket(ws: WebSocket) -> None:
    """Commands, one a text frame: ``send N SIZE text|bytes|conn`` (SIZE 0: an ack, a state
    each round), ``recv N``; each answered ``done SECONDS``, this process's CPU for the work."""
    await ws.accept()
    conn = Conn(ws, None, SimpleNamespace(socket_backlog_bytes=1 << 20))
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            what, n, *rest = (await ws.receive_text()).split()
            start = time.process_time()
            if what == "recv":
                for _ in range(int(n)):
                    await ws.receive()
            else:
                size, how = int(rest[0]), rest[1]
                datas = [payload(ACK), payload(STATE)] if size == 0 else [payload(size)]
                for _ in range(int(n)):
                    for data in datas:
                        if how == "bytes":
                            await ws.send_bytes(data)
                        elif how == "conn":
                            await through_conn(conn, data)
                        else:
                            await ws.send_text(data.decode())
            await ws.send_text(f"done {time.process_time() - start}")


async def through_conn(conn: Conn, data: bytes) -> None:
    """One frame as the fan-out sends a state: queued on the socket, whose writer task starts,
    sends it and ends (an idle socket holds no task, app/ws/endpoint.py)."""
    conn.push_json(data)
    await asyncio.sleep(0)  # the writer's turn: it sends the frame and ends, unless paused


def serve(impl: str, port: int) -> None:
    app = FastAPI()
    app.router.add_websocket_route("/frames", frames_socket)
    uvicorn.run(
        app, host="127.0.0.1", port=port, ws=impl, ws_per_message_deflate=False, log_level="warning"
    )


async def measure(port: int, frames: int) -> dict[str, float]:
    """Microseconds of the server's CPU a frame (both, for the row of two), by row."""
    out = {}
    async with connect(f"ws://127.0.0.1:{port}/frames", compression=None, max_size=None) as ws:
        for row, what, per_round, size, how in ROWS:
            rounds = frames // per_round
            if what == "recv":
                await ws.send(f"recv {rounds}")
                act = payload(size).decode()
                for _ in range(rounds):
                    await ws.send(act)
            else:
                await ws.send(f"send {rounds} {size} {how}")
            async for msg in ws:
                if isinstance(msg, str) and msg.startswith("done "):
                    out[row] = float(msg.split()[1]) / rounds * 1e6
                    break
    return out


def run(impl: str, frames: int) -> dict[str, float]:
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, __file__, "--serve", impl, "--port", str(port)],
        cwd=Path(__file__).resolve().parents[1],
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port)):
                break
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{impl}: the server did not start")
            time.sleep(0.1)
        return asyncio.run(measure(port, frames))
    finally:
        proc.terminate()
        proc.wait(10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--frames", type=int, default=20000, help="frames a row")
    p.add_argument("--impl", action="append", choices=IMPLS, help="default: every one installed")
    p.add_argument("--json", action="store_true", help="the figures as JSON, by implementation")
    p.add_argument("--serve", choices=IMPLS, help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.serve:
        serve(a.serve, a.port)
        return
    impls = a.impl or [i for i in IMPLS if i != "wsproto" or importlib.util.find_spec("wsproto")]
    results = {impl: run(impl, a.frames) for impl in impls}
    if a.json:
        print(orjson.dumps(results).decode())
        return
    print("server CPU, µs a frame (the pair: both) | " + " | ".join(impls))
    for row, *_ in ROWS:
        print(f"{row} | " + " | ".join(f"{results[i][row]:.1f}" for i in impls))


if __name__ == "__main__":
    main()
