"""What friends keep in Redis (app/store/social.py), on a single server and on the cluster:
who was in the lobby lately, read for many players (keys on many slots) in one pipeline, and a
player's table invites, which expire, are taken once and are capped."""

from __future__ import annotations

import asyncio

from app.store.keys import Keys
from app.store.social import MAX_INVITES, Social


def social(live_redis, live_prefix, invite_seconds: int = 60) -> Social:
    keys = Keys(live_prefix)
    return Social(live_redis, keys, seen_seconds=1, invite_seconds=invite_seconds)


async def test_the_lobby_s_players_are_online_for_a_while_across_slots(live_redis, live_prefix):
    s = social(live_redis, live_prefix)
    await s.saw(3)
    await s.saw(17)
    assert await s.online(list(range(1, 30))) == [p in (3, 17) for p in range(1, 30)]
    await asyncio.sleep(1.1)  # seen_seconds later: gone by itself
    assert await s.online([3, 17]) == [False, False]


async def test_an_invite_is_kept_until_taken_or_expired_and_the_oldest_go_first(
    live_redis, live_prefix
):
    s = social(live_redis, live_prefix, invite_seconds=1)
    first = await s.invite(
        7, {"id": "a1", "from": 1, "name": "Ayu", "table": "T1", "game": "gaple"}
    )
    assert first["expires"] - first["at"] == 1000
    assert [i["id"] for i in await s.invites(7)] == ["a1"]
    assert (await s.take(7, "a1"))["table"] == "T1"
    assert await s.take(7, "a1") is None and await s.invites(7) == []  # taken once
    await s.invite(7, {"id": "a2", "from": 1, "name": "Ayu", "table": "T1", "game": "gaple"})
    await asyncio.sleep(1.1)
    assert await s.invites(7) == []  # expired: not shown, and dropped
    assert await s.take(7, "a2") is None  # dropped from Redis, not only hidden

    many = social(live_redis, live_prefix)
    for n in range(MAX_INVITES + 3):
        await many.invite(8, {"id": f"i{n}", "from": 1, "name": "A", "table": "T", "game": "moon"})
        await asyncio.sleep(0.002)  # distinct times: the oldest are known
    kept = [i["id"] for i in await many.invites(8)]
    assert len(kept) == MAX_INVITES and kept[0] == f"i{MAX_INVITES + 2}" and "i0" not in kept
