"""One container of the image, as compose runs the app: compose's one-shot migration first,
then the image's own CMD with an init process. Its HEALTHCHECK passes, it answers /healthz,
/readyz and the page with its scripts, every process in it runs as the image's non-root user,
four players play a Gaple round over its socket, and on SIGTERM it tells their sockets to go
elsewhere (1012), drains its outbox into the database and exits.
"""

from __future__ import annotations

import asyncio
import re

import httpx
import orjson
import websockets
from sqlalchemy import text

from app.db.session import make_engine
from tests.image.podman import COMPOSE, GRACE
from tests.ops.test_scale_out import Player
from tests.ws.client import register

# The real user id of every process in the container, as `python -c` prints it.
UIDS = """
import glob
statuses = [open(f).read() for f in glob.glob("/proc/[0-9]*/status")]
print(sorted({s.split("Uid:")[1].split()[0] for s in statuses}))
"""


async def test_the_image_migrates_serves_plays_a_round_and_drains(podman, image_env):
    podman.run_once(image_env, *COMPOSE["migrate"]["command"])
    srv = podman.start("serve", image_env)  # the image's CMD
    await srv.ready()
    done = srv.healthcheck()
    assert done.returncode == 0, done.stdout + done.stderr
    done = srv.exec("python", "-c", UIDS)  # the server, the init process and this one
    assert done.stdout.strip() == "['10001']", done.stdout + done.stderr

    async with httpx.AsyncClient(base_url=srv.url, timeout=10) as http:
        for path in ("/healthz", "/readyz"):
            assert (await http.get(path)).status_code == 200, path
        page = await http.get("/")
        assert page.status_code == 200 and "<html" in page.text.lower()
        scripts = re.findall(r'src="(/[^"]+\.js)"', page.text)
        assert scripts
        for src in scripts:
            assert (await http.get(src)).status_code == 200, src

        creds = [await register(http, f"Image {i}") for i in range(4)]
        r = await http.post(
            "/api/tables",
            headers=creds[0][1],
            json={"game": "gaple", "seats": 4, "options": {"stake": 10}},
        )
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        players = [await Player(i, tok, tid, srv).connect(srv) for i, (tok, _) in enumerate(creds)]
        for i, (_, headers) in enumerate(creds):
            r = await http.post(
                f"/api/tables/{tid}/seats/{i}", headers=headers, json={"buy_in": 300}
            )
            assert r.status_code == 200, r.text

    def round_over(m: dict) -> bool:
        return bool(m["table"].get("pause")) or m["table"]["status"] == "over"

    await asyncio.gather(*(p.play(srv, round_over) for p in players))

    # SIGTERM right after the round: its records may still be in the outbox, which the drain
    # writes before the process exits.
    stopping = asyncio.create_task(asyncio.to_thread(srv.stop, GRACE))
    closes = await asyncio.gather(*(close_code(p.ws) for p in players))
    exit_code = await stopping
    logs = srv.logs()
    assert closes == [1012] * 4, logs[-3000:]
    assert exit_code in (0, 143), logs[-3000:]  # 143: uvicorn re-raises SIGTERM once drained
    msgs = [orjson.loads(line)["msg"] for line in logs.splitlines() if line.startswith("{")]
    order = [msgs.index(m) for m in ("Shutting down", "outbox drained")]
    assert order == sorted(order), msgs[-8:]

    engine = make_engine(image_env["DATABASE_URL"])
    try:
        async with engine.connect() as conn:
            assert (await conn.execute(text("SELECT count(*) FROM round"))).scalar() == 1
    finally:
        await engine.dispose()


async def close_code(ws) -> int | None:
    """Reads the socket until the server closes it: the code it closed with."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), GRACE + 30)
    except websockets.ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
