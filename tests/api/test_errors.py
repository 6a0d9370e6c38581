"""Bad input and outages are answered with a clear status and code, never a 500 or a
traceback: numbers beyond 64 bits, non-ASCII digits, a database that cannot be reached."""

from __future__ import annotations

import asyncio
import re
import socket

import httpx
import pytest
import websockets
from redis.asyncio import Redis

from app.api.deps import ErrorBody
from app.main import create_app
from tests.ws.client import register


def closed_port() -> int:
    """A local port where nothing listens (bound then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def outage(live_server, live_settings):
    """A server whose database is unreachable (nothing listens at its address); a player
    registered before (while it answered, on a healthy server sharing the Redis)."""
    healthy = await live_server()
    async with httpx.AsyncClient(base_url=healthy.url) as http:
        token, auth = await register(http, "Before Outage")
    srv = await live_server(
        database_url=f"postgresql+asyncpg://postgres@127.0.0.1:{closed_port()}/test"
    )
    async with httpx.AsyncClient(base_url=srv.url) as http:
        yield srv, http, token, auth


async def test_a_database_outage_is_503_database_unavailable(outage, live_redis_url, live_prefix):
    srv, http, token, auth = outage
    calls = [
        ("POST", "/api/players", {"json": {"name": "During Outage"}}),
        ("GET", "/api/players/me/wallet", {"headers": auth}),
        ("GET", "/api/players/me/chips", {"headers": auth}),
        ("POST", "/api/players/me/daily", {"headers": auth}),
        ("POST", "/api/players/me/refill", {"headers": auth}),
        ("GET", "/api/players/me/matches", {"headers": auth}),
        ("GET", "/api/matches/5", {}),
        ("GET", "/api/players/5/profile", {}),
        ("GET", "/api/leaderboards/gaple", {}),
        ("POST", "/api/quick-join", {"headers": auth, "json": {"game": "gaple"}}),
    ]
    for method, path, kw in calls:
        r = await http.request(method, path, **kw)
        assert r.status_code == 503, (path, r.status_code, r.text)
        assert r.json()["code"] == "database_unavailable", path
        assert r.json()["detail"] and r.headers["retry-after"]
    # a signed-in player whose Redis entry is gone is looked up in the database: down too
    redis = Redis.from_url(live_redis_url)
    await redis.delete(*[k async for k in redis.scan_iter(match=f"{live_prefix}player:*")])
    await redis.aclose()
    r = await http.get("/api/players/me", headers=auth)
    assert (r.status_code, r.json()["code"]) == (503, "database_unavailable")
    async with websockets.connect(
        f"{srv.ws_url}/ws/tables/any", additional_headers={"Authorization": f"Bearer {token}"}
    ) as ws:
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)
    assert ws.close_code == 1013  # try again later


async def test_numbers_beyond_64_bits_are_refused_not_500(live_server):
    srv = await live_server()
    huge = str(2**64 + 5)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Big Numbers")
        for path in (f"/api/matches/{huge}", "/api/matches/0", f"/api/matches/-{huge}"):
            r = await http.get(path)
            assert (r.status_code, r.json()["code"]) == (404, "no_such_match"), (path, r.text)
        r = await http.get(f"/api/players/me/matches?page={huge}", headers=auth)
        assert r.status_code == 422 and r.json()["field"] == ["query", "page"]
        r = await http.get("/api/players/me/matches?page=10000", headers=auth)
        assert (r.status_code, r.json()["items"], r.json()["total"]) == (200, [], 0)


async def test_every_page_size_id_and_number_in_a_url_has_bounds(live_server):
    """A page past 10,000, an id or a stake past 64 bits, a seat past the largest table: 422
    naming the parameter, before Redis (whose range offsets are 64-bit) or the database."""
    srv = await live_server()
    huge = str(10**20)
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Bounds")
        tid = await http.post("/api/tables", headers=auth, json={"game": "cross", "seats": 2})
        tid = tid.json()["id"]
        calls = [
            (f"/api/tables?page={huge}", ["query", "page"]),
            ("/api/tables?page=10001", ["query", "page"]),
            ("/api/tables?per_page=101", ["query", "per_page"]),
            (f"/api/tables?stake={huge}", ["query", "stake"]),
            (f"/api/leaderboards/gaple?page={huge}", ["query", "page"]),
            (f"/api/players/{huge}/profile", ["path", "player_id"]),
            (f"/api/players/{2**63}/profile", ["path", "player_id"]),
            ("/api/players/0/profile", ["path", "player_id"]),
            (f"/api/tables/{'x' * 41}", ["path", "tid"]),
            ("/api/tables/a.b", ["path", "tid"]),
        ]
        for path, field in calls:
            r = await http.get(path, headers=auth)
            assert (r.status_code, r.json()["field"]) == (422, field), (path, r.text)
        for n in (huge, "8", "-1"):
            r = await http.post(f"/api/tables/{tid}/seats/{n}", headers=auth, json={})
            assert (r.status_code, r.json()["field"]) == (422, ["path", "n"]), (n, r.text)
        r = await http.get("/api/tables?page=10000", headers=auth)
        assert (r.status_code, r.json()["items"]) == (200, [])


async def test_every_body_route_parses_strict_json(live_settings):
    """Every operation that takes a body refuses NaN with 422 ``json_invalid`` before anything
    else (app/api/bodies.py: every router's routes parse with orjson)."""
    app = create_app(live_settings)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://meja") as http:
        checked = 0
        for path, ops in app.openapi()["paths"].items():
            for method, op in ops.items():
                if "requestBody" not in op:
                    continue
                url = re.sub(r"{[^}]+}", "1", path)
                r = await http.request(
                    method, url, content=b'{"a": NaN}', headers={"Content-Type": "application/json"}
                )
                assert (r.status_code, r.json()["code"]) == (422, "json_invalid"), (method, path)
                checked += 1
    assert checked >= 10


async def test_every_refusal_has_the_one_error_body(live_server):
    """FastAPI's own 422, 404 and 405, a field a service refuses, a 401 and a 409: the same
    shape (``ErrorBody``), with a code the clients translate and the request's id."""
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as http:
        _, auth = await register(http, "Ani")
        table = {"game": "cross", "seats": 2}
        tid = (await http.post("/api/tables", headers=auth, json=table)).json()["id"]
        await http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={})
        answers = {
            "missing field": await http.post("/api/players", json={}),
            "service field": await http.post("/api/players", json={"name": "Bot 2"}),
            "unknown path": await http.get("/api/no-such-route"),
            "method": await http.put("/api/games"),
            "no token": await http.get("/api/players/me", headers={"Authorization": "Bearer x"}),
            "taken seat": await http.post(f"/api/tables/{tid}/seats/0", headers=auth, json={}),
        }
    codes = {}
    for what, r in answers.items():
        assert 400 <= r.status_code < 500, (what, r.text)
        body = ErrorBody.model_validate(r.json())
        assert body.detail and body.request_id == r.headers["x-request-id"], what
        codes[what] = (r.status_code, body.code, body.field)
    assert codes["missing field"] == (422, "missing", ["body", "name"])
    assert codes["service field"] == (422, "bot_name", ["body", "name"])
    assert codes["unknown path"][:2] == (404, "not_found")
    assert codes["method"][:2] == (405, "method_not_allowed")
    assert codes["no token"][:2] == (401, "bad_token")
    assert codes["taken seat"][0] == 409


def test_openapi_declares_the_error_answers_and_the_credentials(live_settings):
    """Each route of the REST API that can refuse (it takes input or a player) lists the error
    answers it may give, all ``ErrorBody``, and the routes that need a player name the Bearer
    token and the cookie."""
    spec = create_app(live_settings).openapi()
    assert set(spec["components"]["securitySchemes"]) == {"HTTPBearer", "APIKeyCookie"}
    error_ref = "#/components/schemas/ErrorBody"
    for path, ops in spec["paths"].items():
        if not path.startswith("/api/"):
            continue
        for method, op in ops.items():
            errors = {s: a for s, a in op["responses"].items() if s[0] in "45"}
            takes = op.get("parameters") or op.get("requestBody") or op.get("security")
            assert errors or not takes, (method, path)
            for answer in errors.values():
                assert answer["content"]["application/json"]["schema"]["$ref"] == error_ref
    me = spec["paths"]["/api/players/me"]["get"]
    assert me["security"] == [{"HTTPBearer": []}, {"APIKeyCookie": []}]


def test_every_route_declares_what_it_answers(live_settings):
    """A response model on every route that answers JSON: no bare ``dict`` in the document."""
    spec = create_app(live_settings).openapi()
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            ok = next((a for s, a in op["responses"].items() if s[0] == "2"), {})
            schema = ok.get("content", {}).get("application/json", {}).get("schema")
            if schema is None:  # 204, or a redirect
                continue
            named = schema.get("$ref") or schema.get("items", {}).get("$ref")
            assert named or schema.get("properties"), (method, path, schema)
