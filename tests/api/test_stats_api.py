"""``GET /api/players/{id}/profile`` and ``GET /api/leaderboards/{game}`` on a real server,
over records written through the records writer."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest

from app.services import avatars
from tests.stats.records import gaple, match, write
from tests.ws.client import register


@pytest.fixture
async def served(live_server):
    srv = await live_server(leaderboard_min_matches=2)
    async with httpx.AsyncClient(base_url=srv.url) as client:
        yield srv, client


async def test_profile_and_board_answer_from_the_records(served):
    srv, http = served
    _, auth = await register(http, "Sari")
    me = (await http.get("/api/players/me", headers=auth)).json()["id"]
    now = datetime.now(UTC)
    await write(
        srv.live.db,
        gaple([me, "bot:1", "bot:2"], 0, 4, [(1, 0, 10)], now, stake=25),
        *(match("mexican_train", [me, "bot:1"], [0], [12, 40], now) for _ in range(2)),
    )
    r = await http.get(f"/api/players/{me}/profile")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["chips"] == {"won": 210, "lost": 0, "net": 210}
    assert (body["best_multiplier"], body["biggest_pot"], body["daily_streak"]) == (4, 200, 0)
    assert body["games"][0] == {"game": "gaple", "played": 1, "won": 1}
    r = await http.get("/api/leaderboards/mexican_train", params={"period": "all"})
    assert r.status_code == 200, r.text
    board = r.json()
    assert (board["total"], board["min_matches"], board["metric"]) == (1, 2, "average_score")
    assert board["items"] == [
        {
            "rank": 1,
            "player_id": me,
            "name": "Sari",
            "avatar": avatars.default_for(me),  # never chosen: the one derived from the id
            "played": 2,
            "won": 2,
            "value": 12.0,
        }
    ]
    week = (await http.get("/api/leaderboards/gaple")).json()
    assert (week["period"], week["items"][0]["value"], week["page"]) == ("week", 210, 1)


@pytest.mark.asyncio(loop_scope="class")
class TestRefusedOnOneServer:
    """Unknown players and games (404) and bad board parameters (422) on one server."""

    server_settings = {"leaderboard_min_matches": 2}

    @pytest.fixture
    def served(self, class_server, class_http):
        return class_server, class_http

    @pytest.mark.parametrize(
        ("path", "code"),
        [
            ("/api/players/999999/profile", "no_such_player"),
            ("/api/leaderboards/poker", "no_such_game"),
        ],
    )
    async def test_unknown_players_and_games_are_404(self, served, path, code):
        r = await served[1].get(path)
        assert (r.status_code, r.json()["code"]) == (404, code)
        assert r.json()["detail"]

    @pytest.mark.parametrize(
        ("params", "field"),
        [
            ({"period": "month"}, "period"),
            ({"page": "0"}, "page"),
            ({"per_page": "101"}, "per_page"),
            ({"per_page": "x"}, "per_page"),
        ],
    )
    async def test_bad_board_parameters_are_422_naming_the_field(self, served, params, field):
        r = await served[1].get("/api/leaderboards/cross", params=params)
        assert r.status_code == 422, r.text
        assert r.json()["field"] == ["query", field]
