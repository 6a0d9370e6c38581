"""A table's readable name and a player's default avatar are derived, never stored: the same
input gives the same answer on every replica (docs/players.md "Tables", "Your avatar")."""

from __future__ import annotations

import re
import secrets

from app.services import avatars
from app.services.table.names import FLOWERS, table_name


def test_a_table_name_is_a_flower_and_a_number_the_same_for_the_same_id():
    tid = secrets.token_urlsafe(12)
    name = table_name(tid)
    assert name == table_name(tid)
    flower, number = re.fullmatch(r"(\w+) (\d+)", name).groups()  # type: ignore[union-attr]
    assert flower in FLOWERS and 1 <= int(number) <= 99
    names = {table_name(secrets.token_urlsafe(12)) for _ in range(200)}
    assert len(names) > 180  # 2,376 names: two tables rarely share one


def test_a_default_avatar_follows_the_id_and_neighbours_differ():
    firsts = [avatars.default_for(pid) for pid in range(1, 13)]
    assert sorted(firsts) == sorted(avatars.AVATARS)  # twelve players in a row: twelve faces
    assert avatars.default_for(7) == avatars.default_for(7)
    assert avatars.default_for("bot:2") == avatars.default_for(True) == avatars.BOT
    assert avatars.avatar_of(7, None) == avatars.default_for(7)
    assert avatars.avatar_of(7, "owl") == "owl"
    assert avatars.avatar_of(7, "gone") == avatars.default_for(7)  # a retired id falls back
