"""``GET /api/matches/{id}/replay`` on a real server: a Gaple round played by the bots through
the rules, written through the records writer as the outbox does, answered step by step as the
asking player's seat saw it (O-2: never another seat's hand before the rules show it)."""

from __future__ import annotations

import httpx
import pytest

from tests.played import entry
from tests.stats.records import write
from tests.ws.client import register

OPTIONS = {"stake": 10, "field": "normal", "opener": "random", "stacks": [500, 500, 500]}


@pytest.fixture
async def served(live_server):
    srv = await live_server()
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield srv, client


async def test_a_replay_shows_each_step_as_the_players_seat_saw_it(served):
    srv, http = served
    _, mine = await register(http, "Sari")
    _, other = await register(http, "Tono")
    me = (await http.get("/api/players/me", headers=mine)).json()["id"]
    record, log, hands = entry("gaple", [me, "bot:1", "bot:2"], OPTIONS, 77)
    result = record["result"]
    await write(srv.live.db, record)
    match_id = (await http.get("/api/players/me/matches", headers=mine)).json()["items"][0]["id"]

    r = await http.get(f"/api/matches/{match_id}/replay", headers=mine)
    assert r.status_code == 200, r.text
    assert r.headers["content-encoding"] == "gzip"  # httpx asks for it, and unpacks it
    body = r.json()
    assert (body["game"], body["seat"], len(body["steps"])) == ("gaple", 0, len(log) + 1)
    assert [p["name"] for p in body["players"]] == ["Sari", "Bot 2", "Bot 3"]
    first, last = body["steps"][0], body["steps"][-1]
    assert first["events"] == [{"type": "match_started", "match_no": 1}]
    assert sorted(first["view"]["hand"]) == sorted(hands[0]) and first["view"]["line"] == []
    played_tiles = [mv["action"]["tile"] for mv in log if mv["action"].get("tile")]
    others = {tuple(t) for h in hands[1:] for t in h}
    for k, step in enumerate(body["steps"][1:]):
        assert step["seat"] == log[k]["seat"] and step["v"] == log[k]["v"]
        assert step["view"]["legal"] == []  # watched: nothing to send
        assert not others & {tuple(t) for t in step["view"]["hand"]}
        assert len(step["view"]["line"]) == sum(
            1 for mv in log[: k + 1] if mv["action"].get("tile")
        )
    mine_left = [t for t in hands[0] if t not in played_tiles]
    assert sorted(last["view"]["hand"]) == sorted(mine_left)
    assert last["view"]["over"] and last["view"]["result"]["winner"] == result["winners"][0]
    assert any(e["type"] == "round_over" for e in last["events"])

    # someone who did not sit in the match sees what a spectator saw: no hand at all
    r = await http.get(
        f"/api/matches/{match_id}/replay", headers={**other, "Accept-Encoding": "identity"}
    )
    assert r.status_code == 200 and "content-encoding" not in r.headers
    assert r.json()["seat"] is None and len(r.json()["steps"]) == len(log) + 1
    assert all(s["view"]["hand"] is None for s in r.json()["steps"])


async def test_replay_refusals(served):
    srv, http = served
    async with httpx.AsyncClient(base_url=srv.url) as nobody:
        assert (await nobody.get("/api/matches/1/replay")).json()["code"] == "not_signed_in"
    _, auth = await register(http, "Sari")
    for bad in ("999999", str(2**70), "x"):
        r = await http.get(f"/api/matches/{bad}/replay", headers=auth)
        assert (r.status_code, r.json()["code"]) == (404, "no_such_match")
    r = await http.get("/api/matches/not%20an%20id/replay", headers=auth)
    assert r.status_code == 422 and r.json()["field"] == ["path", "match_id"]
