"""Compose's stack with its ``outbox`` profile, brought up by hand with podman from
docker-compose.yml's own commands: the migration once, then ``deploy.replicas`` app containers
and the outbox worker (each with ``init``, compose's /readyz health check, its stop signal and
grace; ``MEJA_OUTBOX_CONSUMER=false``, as the profile asks of .env), and nginx in front with
deploy/nginx.conf. Four players play a Domino Cross match through nginx, all on the replica
the table hashes to; mid-match that replica is stopped as compose stops it. Its sockets close
with 1012, reconnect through nginx to the other replica, the match finishes with every action
applied once, and the worker writes it to every player's history.

What differs from ``docker compose up`` (docs/operations/deploy.md "How the image is tested"): every
container is on the host's network, so the services are 127.0.0.1 ports rather than compose's DNS
names; Postgres and Redis are this machine's (a Redis of the run's own), not the postgres and redis
images; nginx is Debian's, in front of fixed ports (tests/ops/test_proxy.py's derived file),
since its ``resolve`` needs nginx 1.27.3; and the worker's ``cpu_shares`` is not applied.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx

from tests.image.podman import COMPOSE, GRACE
from tests.ops.test_proxy import Proxy
from tests.ops.test_scale_out import Player, _until, finished_once, metric_values
from tests.ws.client import register


def service_options(service: dict) -> tuple[str, ...]:
    """``podman run`` options for a compose service's health check and stop signal (its
    ``init`` is Podman.start's ``--init``)."""
    health = service["healthcheck"]["test"]
    assert health[0] == "CMD" and service["init"] is True
    return ("--health-cmd", json.dumps(health[1:]), "--stop-signal", service["stop_signal"])


async def test_compose_stack_keeps_a_match_through_a_replicas_stop(
    podman, image_env, tmp_path, live_redis_url, live_prefix
):
    app, outbox = COMPOSE["app"], COMPOSE["outbox"]
    assert "outbox" in outbox["profiles"]
    env = {**image_env, "MEJA_TRUSTED_PROXIES": '["127.0.0.1"]', "MEJA_OUTBOX_CONSUMER": "false"}

    podman.run_once(env, *COMPOSE["migrate"]["command"])  # depends_on: completed successfully
    replicas = [
        podman.start(f"app{i}", env, *app["command"], options=service_options(app))
        for i in range(app["deploy"]["replicas"])
    ]
    worker = podman.start("outbox", env, *outbox["command"], options=service_options(outbox))
    await asyncio.gather(*(c.ready() for c in (*replicas, worker)))
    for c in (*replicas, worker):  # what compose waits for before it starts the proxy
        done = c.healthcheck()
        assert done.returncode == 0, done.stdout + done.stderr
    (tmp_path / "nginx").mkdir()
    proxy = Proxy(tmp_path / "nginx", [r.port for r in replicas])
    await proxy.start()
    try:
        async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:
            assert (await http.get("/")).status_code == 200
            creds = [await register(http, f"Stack {i}") for i in range(4)]
            r = await http.post(
                "/api/tables",
                headers=creds[0][1],
                json={"game": "cross", "seats": 4, "options": {"target": 20}},
            )
            assert r.status_code == 201, r.text
            tid = r.json()["id"]
            players = [
                await Player(i, tok, tid, proxy).connect(proxy) for i, (tok, _) in enumerate(creds)
            ]

            def open_sockets() -> list[float]:
                return [metric_values(r)["meja_open_sockets"] for r in replicas]

            await _until(lambda: sorted(open_sockets()) == [0, 4], "not all on one replica")
            doomed, other = replicas if open_sockets()[0] else replicas[::-1]
            for i, (_, headers) in enumerate(creds):
                r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=headers)
                assert r.status_code == 200, r.text

        def over(m: dict) -> bool:
            return m["table"]["status"] == "over" and m["table"]["match_no"] == 1

        stopped: dict = {}

        async def stop_mid_match() -> None:
            first_v = None
            while True:
                seen = [p.latest["v"] for p in players if p.latest and p.latest["view"]]
                assert not any(over(p.latest) for p in players if p.latest), "ended too soon"
                first_v = first_v or (min(seen) if seen else None)
                if seen and max(seen) >= first_v + 3:  # three moves into the match
                    break
                await asyncio.sleep(0.02)
            stopped["v"] = max(p.latest["v"] for p in players if p.latest)
            stopped["exit"] = await asyncio.to_thread(doomed.stop, GRACE)

        await asyncio.gather(stop_mid_match(), *(p.play(proxy, over) for p in players))
        assert stopped["exit"] in (0, 143), doomed.logs()[-3000:]
        assert [p.closes for p in players] == [[1012]] * 4, proxy.error_log()
        assert metric_values(other)["meja_open_sockets"] == 4
        await finished_once(live_redis_url, live_prefix, tid, stopped["v"])

        # The worker, the one consumer of the outbox here, writes the match to the histories.
        async with httpx.AsyncClient(base_url=proxy.url, timeout=10) as http:

            async def in_history(headers: dict) -> bool:
                r = await http.get("/api/players/me/matches", headers=headers)
                return [m["table"] for m in r.json()["items"]] == [tid]

            for _, headers in creds:
                await _eventually(lambda h=headers: in_history(h), "match not in a history")
        for p in players:
            await p.ws.close()
    finally:
        proxy.stop()
    assert worker.stop(GRACE) in (0, 143), worker.logs()[-3000:]
    assert '"outbox drained"' in worker.logs()  # what it had read, written before it exits


async def _eventually(check, message: str, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < deadline, message
        await asyncio.sleep(0.3)
