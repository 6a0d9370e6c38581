"""docs/rules.md O-6: the pause between two rounds, and the ``ready`` that ends it sooner.

Through the service layer (the path the socket takes): a round's end holds the table (no move,
no clock but the pause's, no forced move), ``{"kind": "ready"}`` is version-checked, answered
with a precise code when it cannot apply, changes nothing when repeated, and deals the next
round at once when every seated human asked.
"""

from __future__ import annotations

import uuid

from app.config import Settings
from app.games import registry
from app.services.table import doc as D
from tests.services.helpers import humans, table_with

READY = {"kind": "ready"}


async def act(srv, tid: str, pid, action: dict, v: int | None = None) -> dict:
    snap = await srv.live.store.load(tid)
    return await srv.live.tables.act(tid, pid, uuid.uuid4().hex, snap.v if v is None else v, action)


async def play_round(srv, tid: str, players: dict) -> None:
    """Both humans play their first legal move until the table pauses."""
    for _ in range(500):
        snap = await srv.live.store.load(tid)
        if snap.doc.get("pause"):
            return
        n = snap.doc["clock"]["seat"]
        view = srv.live.views.view(snap, n)
        reply = await act(srv, tid, players[n], view["legal"][0])
        assert reply["type"] == "ack", reply
    raise AssertionError("the round never ended")


async def test_o6_a_round_of_a_match_pauses_until_every_human_is_ready(live_server):
    srv = await live_server(seeds=lambda t, m: 41, round_pause=60)
    (a, _), (b, _), (c, _) = await humans(srv, 3)
    tid = await table_with(srv, "cross", [a, b], options={"target": 500})
    await play_round(srv, tid, {0: a["id"], 1: b["id"]})
    snap = await srv.live.store.load(tid)
    doc, v = snap.doc, snap.v
    assert doc["status"] == "playing" and doc["pause"]["ready"] == []
    assert doc["clock"]["kind"] == "next" and doc["clock"]["at"] == doc["pause"]["until"]
    assert all(srv.live.views.view(snap, n)["legal"] == [] for n in (0, 1))
    log = await srv.live.store.action_log(tid, 1)
    assert log[-1]["by"] == "player"  # the next round's forced moves wait for the pause's end

    # a move is refused while the table pauses; so is a ready from someone not seated
    refused = await act(srv, tid, a["id"], {"kind": "draw"})
    assert refused["type"] == "error" and refused["code"] == "between_rounds"
    stranger = await act(srv, tid, c["id"], READY)
    assert (stranger["type"], stranger["code"]) == ("error", "not_seated")
    stale = await act(srv, tid, a["id"], READY, v=v - 1)
    assert (stale["type"], stale["code"]) == ("error", "stale")
    assert (await srv.live.store.load(tid)).v == v  # none of them changed anything

    first = await act(srv, tid, a["id"], READY)
    assert first == {"type": "ack", "cmd": first["cmd"], "v": v + 1}
    again = await act(srv, tid, a["id"], READY)  # asking twice changes nothing
    assert again["type"] == "ack" and again["v"] == v + 1
    snap = await srv.live.store.load(tid)
    assert snap.v == v + 1 and snap.doc["pause"]["ready"] == [0]
    assert snap.doc["pause"]["until"] == doc["pause"]["until"]  # a ready does not move the end

    last = await act(srv, tid, b["id"], READY)
    assert last["type"] == "ack"
    snap = await srv.live.store.load(tid)
    assert snap.doc["pause"] is None and snap.doc["clock"]["kind"] in ("turn", "bot")
    late = await act(srv, tid, a["id"], READY)
    assert (late["type"], late["code"]) == ("error", "not_between_rounds")


async def test_o6_g12_a_chips_round_is_dealt_at_the_pause_end_or_when_all_are_ready(live_server):
    srv = await live_server(seeds=lambda t, m: 7 + m, round_pause=60)
    (a, _), (b, _), (c, _) = await humans(srv, 3)
    tid = await table_with(srv, "gaple", [a, b], options={"stake": 10}, seats=3)
    await play_round(srv, tid, {0: a["id"], 1: b["id"]})
    snap = await srv.live.store.load(tid)
    assert snap.doc["status"] == "over" and snap.doc["match_no"] == 1
    assert snap.doc["clock"]["at"] == snap.doc["pause"]["until"]
    # someone sitting down during the pause does not cut it short (it used to deal at once)
    await srv.live.tables.sit(c, tid, 2, None)
    snap = await srv.live.store.load(tid)
    assert snap.doc["status"] == "over" and snap.doc["pause"]["ready"] == []
    for p in (a, b):
        assert (await act(srv, tid, p["id"], READY))["type"] == "ack"
    assert (await srv.live.store.load(tid)).doc["status"] == "over"  # c is awaited too
    assert (await act(srv, tid, c["id"], READY))["type"] == "ack"
    snap = await srv.live.store.load(tid)
    assert snap.doc["status"] == "playing" and snap.doc["match_no"] == 2
    assert snap.doc["players"] == [0, 1, 2] and snap.doc["pause"] is None


def test_o6_a_chips_table_that_cannot_deal_again_drops_its_pause():
    doc = D.new_doc(registry.get_ruleset("gaple"), "t", 2, {"stake": 10}, 20, 0)
    doc["seats"] = [D.make_seat(1, "A", bot=False, stack=100, sit=1), None]
    doc["status"], doc["pause"] = "over", {"until": None, "ready": []}
    D.time_pause(doc, 1000, 15)
    assert doc["pause"] is None  # nobody to deal to: no countdown to show
    doc["seats"][1] = D.make_seat(2, "B", bot=False, stack=100, sit=1)
    doc["pause"] = {"until": None, "ready": []}
    D.time_pause(doc, 1000, 15)
    assert doc["pause"] == {"until": 16_000, "ready": []}


def test_o6_the_default_pause_gives_time_to_read_a_gaple_result():
    """Nine payment lines and four hands: about fifteen seconds (a ready ends it sooner)."""
    assert Settings().round_pause == 15.0
