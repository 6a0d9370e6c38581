"""What an operator observes of a live server: every metric family after the action that feeds
it, the request id in the header, the error body and every log line of its request, a 500 that
logs its path and id, socket refusals logged with their reason, and the Grafana dashboard
querying only metrics the server exposes (docs/operations/monitoring.md)."""

from __future__ import annotations

import asyncio
import json
import logging
import platform
import re
import tomllib
import uuid

import httpx
import orjson
import pytest
import websockets
from fastapi.routing import APIRoute
from prometheus_client.parser import text_string_to_metric_families

from app import build, logs
from tests.ops.deploy import ROOT
from tests.ops.test_metrics import Sock, scrape, until

DASHBOARD = ROOT / "deploy" / "grafana" / "meja.json"


class Lines(logging.Handler):
    """Every JSON line logged in the process (the app's ``meja.*`` at info), as dicts."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(logs.JsonFormatter())
        self.lines: list[dict] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(orjson.loads(self.format(record)))

    def of(self, rid: str) -> list[dict]:
        return [line for line in self.lines if line.get("request_id") == rid]


@pytest.fixture
def lines():
    root, logger = logging.getLogger(), logging.getLogger("meja")
    handler, level = Lines(), logger.level
    root.addHandler(handler)
    logger.setLevel(logging.INFO)
    yield handler
    root.removeHandler(handler)
    logger.setLevel(level)


async def _guest(http: httpx.AsyncClient, name: str) -> str:
    r = await http.post("/api/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["token"]


async def _exposed(srv) -> set[str]:
    """The names the exposition declares (``# TYPE``) or has samples of."""
    async with httpx.AsyncClient(base_url=srv.url) as http:
        text = (await http.get("/metrics")).text
    declared = set(re.findall(r"^# TYPE (\S+)", text, re.M))
    return declared | {s.name for f in text_string_to_metric_families(text) for s in f.samples}


async def test_request_id_is_in_the_header_the_error_body_and_the_access_line(live_server, lines):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.get("/api/tables/nosuchtable", headers={"X-Request-ID": "edge-7f3a9c21"})
        assert r.status_code == 404 and r.json()["code"] == "not_found"
        assert r.headers["x-request-id"] == r.json()["request_id"] == "edge-7f3a9c21"
        # FastAPI's own 404 (no route), 405 and 422 carry it too; an id that does not look
        # like one (it could forge a log line) is replaced
        for method, path, status in (
            ("GET", "/api/nothing-here", 404),
            ("DELETE", "/api/games", 405),
            ("POST", "/api/players", 422),
        ):
            r = await http.request(method, path, headers={"X-Request-ID": 'x" {"level":"1'})
            assert r.status_code == status, (path, r.text)
            rid = r.headers["x-request-id"]
            assert re.fullmatch(r"[0-9a-f]{32}", rid) and r.json()["request_id"] == rid
    [access] = [line for line in lines.of("edge-7f3a9c21") if line["logger"] == "meja.access"]
    assert access["route"] == "/api/tables/{tid}" and access["path"] == "/api/tables/nosuchtable"
    assert access["status"] == 404 and access["method"] == "GET"
    assert access["client"] == "127.0.0.1" and access["ms"] >= 0
    m = await scrape(srv)
    assert m[("meja_errors_total", (("code", "not_found"), ("via", "rest")))] == 2
    assert m[("meja_errors_total", (("code", "method_not_allowed"), ("via", "rest")))] == 1
    http_404 = (("method", "GET"), ("route", "/api/tables/{tid}"), ("status", "404"))
    assert m[("meja_http_requests_total", http_404)] == 1  # the template, not the raw path
    # a path no route has falls to the static files, under one label
    assert m[("meja_http_request_seconds_count", (("method", "GET"), ("route", "static")))] == 1


async def test_a_500_answers_the_error_body_and_logs_path_id_and_traceback(live_server, lines):
    srv = await live_server()

    async def broken() -> dict:  # fails as a bug would, holding a secret in its message
        raise RuntimeError("cannot reach redis://:s3cret@cache:6379/0")

    srv.app.router.routes.insert(0, APIRoute("/api/broken/{what}", broken))
    async with httpx.AsyncClient(base_url=srv.url) as http:
        r = await http.get("/api/broken/now", headers={"X-Request-ID": "req-500-abcdef"})
    assert r.status_code == 500
    assert r.json() == {
        "detail": "something went wrong on the server; try again",
        "code": "internal_error",
        "request_id": "req-500-abcdef",
    }
    assert r.headers["x-request-id"] == "req-500-abcdef"
    mine = lines.of("req-500-abcdef")
    [error] = [line for line in mine if line["logger"] == "meja.errors"]
    assert error["level"] == "error" and error["path"] == "/api/broken/now"
    assert "Traceback" in error["exc"] and "RuntimeError" in error["exc"]
    assert "s3cret" not in error["exc"]
    [access] = [line for line in mine if line["logger"] == "meja.access"]
    assert access["status"] == 500 and access["route"] == "/api/broken/{what}"
    assert len([line for line in lines.lines if "Traceback" in line.get("exc", "")]) == 1
    m = await scrape(srv)
    assert m[("meja_errors_total", (("code", "internal_error"), ("via", "rest")))] == 1


async def test_every_line_of_a_request_carries_its_id(live_server, lines):
    """Taking a seat logs the table's landmark (``table changed``) inside the request."""
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        auth = {"Authorization": f"Bearer {await _guest(http, 'Ida')}"}
        r = await http.post(
            "/api/tables", headers=auth, json={"game": "gaple", "seats": 2, "options": {}}
        )
        tid = r.json()["id"]
        r = await http.post(
            f"/api/tables/{tid}/seats/0", headers={**auth, "X-Request-ID": "sit-1234abcd"}
        )
    assert r.status_code == 200 and r.headers["x-request-id"] == "sit-1234abcd"
    mine = lines.of("sit-1234abcd")
    assert sorted(line["msg"] for line in mine) == ["request", "table changed"]
    changed = next(line for line in mine if line["msg"] == "table changed")
    assert changed["table"] == tid and "seated" in changed["events"]


async def exercise(srv) -> dict:
    """Feed every family: a REST 429, socket refusals, a socket flood, a move, a dead letter.
    Returns what was done, for the counts."""
    done: dict = {}
    async with httpx.AsyncClient(base_url=srv.url) as http:
        tokens = [await _guest(http, f"P{i}") for i in range(2)]
        statuses = [(await http.post("/api/players", json={"name": "X"})).status_code]
        while statuses[-1] != 429:
            statuses.append((await http.post("/api/players", json={"name": "X"})).status_code)
        done["rest_429"] = statuses.count(429)
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        r = await http.post(
            "/api/tables", headers=auth[0], json={"game": "gaple", "seats": 2, "options": {}}
        )
        tid = done["tid"] = r.json()["id"]
        url = f"{srv.ws_url}/ws/tables/{tid}"
        # refused sockets: a forged token (4401), another site's page (4403)
        async with websockets.connect(
            url, additional_headers={"Authorization": "Bearer forged.token"}
        ) as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 4401
        with pytest.raises(websockets.InvalidStatus):
            await websockets.connect(url, origin="https://elsewhere.example")
        socks = [Sock(await websockets.connect(url, additional_headers=a)) for a in auth]
        for i in range(2):
            r = await http.post(f"/api/tables/{tid}/seats/{i}", headers=auth[i])
            assert r.status_code == 200, r.text
    # a flood: more messages at once than rate_burst allows
    flood = await websockets.connect(url)
    for _ in range(8):
        await flood.send('{"type": "ping"}')
    replies: list[dict] = []
    while len(replies) < 8:  # the answers (states of the table may come in between)
        msg = orjson.loads(await asyncio.wait_for(flood.recv(), 5))
        if msg["type"] in ("pong", "error"):
            replies.append(msg)
    done["socket_429"] = sum(r.get("code") == "rate_limited" for r in replies)
    assert done["socket_429"] >= 1
    await flood.close()
    # one move
    before = await scrape(srv)
    while True:
        for s in socks:
            while s.latest is None or s.latest["view"] is None:
                await s.recv()
        mover = next(s for s in socks if s.latest["view"]["to_act"] == s.latest["view"]["seat"])
        reply = await mover.act(mover.latest["v"], mover.latest["view"]["legal"][0])
        if reply["type"] == "ack":
            break
        assert reply["code"] == "stale", reply
        await asyncio.sleep(0.05)  # a newer version is on its way
    done["redis_before"] = before[("meja_redis_seconds_count", ())]
    for s in socks:
        await s.ws.close()
    # a bad outbox entry is parked as a dead letter
    await srv.live.redis.xadd(srv.live.keys.outbox(tid), {"e": "{not json"})
    await until(lambda: _dead(srv))
    return done


async def _dead(srv) -> bool:
    return (await scrape(srv)).get(("meja_outbox_dead_letters", ())) == 1


async def test_each_metric_family_shows_after_the_action_that_feeds_it(live_server, lines):
    srv = await live_server(limit_signup_address="3/minute", rate_burst=3, rate_per_second=0.5)
    done = await exercise(srv)
    m = await scrape(srv)
    rest_429 = (("code", "rate_limited"), ("via", "rest"))
    assert m[("meja_errors_total", rest_429)] == done["rest_429"]
    signups = (("method", "POST"), ("route", "/api/players"), ("status", "429"))
    assert m[("meja_http_requests_total", signups)] == done["rest_429"]
    socket_429 = (("code", "rate_limited"), ("via", "socket"))
    assert m[("meja_errors_total", socket_429)] == done["socket_429"]
    assert m[("meja_socket_closes_total", (("code", "4401"),))] == 1
    assert m[("meja_socket_closes_total", (("code", "4403"),))] == 1
    assert m[("meja_socket_connects_total", ())] == 3  # the refused ones never count
    await until(lambda: _closed(srv, 3))  # the two players and the flood, closed normally
    assert m[("meja_redis_seconds_count", ())] > done["redis_before"]  # the move's round trip
    assert (
        m[("meja_redis_seconds_bucket", (("le", "+Inf"),))] == m[("meja_redis_seconds_count", ())]
    )
    assert m[("meja_db_seconds_count", ())] > 0  # the guests' rows, the outbox's records
    assert m[("meja_outbox_written_total", (("result", "dead"),))] == 1
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    build_labels = (
        ("commit", build.commit()),
        ("implementation", platform.python_implementation()),
        ("python", platform.python_version()),
        ("version", version),
    )
    assert m[("meja_build_info", build_labels)] == 1
    assert m[("process_resident_memory_bytes", ())] > 0
    assert ("python_gc_collections_total", (("generation", "0"),)) in m
    refused = [line for line in lines.lines if line["msg"] == "socket refused"]
    assert {(line["code"], line["reason"]) for line in refused} == {
        (4401, "bad_token"),
        (4403, "origin not trusted"),
    }
    assert all(line["table"] == done["tid"] and line["client"] == "127.0.0.1" for line in refused)
    assert all(re.fullmatch(r"[0-9a-f]{32}", line["request_id"]) for line in refused)


async def _closed(srv, n: int) -> bool:
    return (await scrape(srv)).get(("meja_socket_closes_total", (("code", "1000"),))) == n


async def test_the_dashboard_queries_only_metrics_the_server_exposes(live_server):
    dashboard = json.loads(DASHBOARD.read_text())
    assert dashboard["title"] and dashboard["uid"]
    exprs = [
        target["expr"]
        for panel in dashboard["panels"]
        for target in panel.get("targets", ())
        if "expr" in target
    ]
    assert len(exprs) >= 10
    queried = {n for e in exprs for n in re.findall(r"\b(?:meja|process|python)_\w+", e)}
    srv = await live_server(limit_signup_address="3/minute", rate_burst=3, rate_per_second=0.5)
    await exercise(srv)
    exposed = await _exposed(srv)
    assert queried - exposed == set()
    wanted = {
        "meja_live_tables",
        "meja_open_sockets",
        "meja_actions_total",
        "meja_action_seconds_bucket",
        "meja_http_requests_total",
        "meja_errors_total",
        "meja_redis_seconds_bucket",
        "meja_db_seconds_bucket",
        "meja_outbox_lag_seconds",
        "meja_outbox_backlog",
        "meja_outbox_dead_letters",
        "meja_socket_closes_total",
    }
    assert wanted <= queried


def test_an_incoming_request_id_is_kept_only_when_it_looks_like_one():
    assert logs.request_id_for("0f8fad5b-d9cb-469f-a165-70867728950e").startswith("0f8fad5b")
    assert logs.request_id_for("nginx.1a2b3c4d") == "nginx.1a2b3c4d"
    for bad in (None, "", "short", "a" * 65, "id with spaces", "x\n{}", "ïd-ünicode-1234"):
        fresh = logs.request_id_for(bad)
        assert fresh != bad and uuid.UUID(fresh)
