"""Display names, guests and the players' cache in Redis.

A guest is a ``player`` row with a wallet and its starting grant; accounts are players with a
username and a password. Both are signed up by app/services/accounts.py. Who a request speaks
for is settled by its access token (app/services/sessions.py).
"""

from __future__ import annotations

import re
import unicodedata

import orjson

from app.db import reach
from app.db.models import Player as PlayerRow
from app.services import avatars
from app.store.connection import Client
from app.store.keys import Keys

NAME_MIN, NAME_MAX = 2, 24
NAME_LIMITS = {"min": NAME_MIN, "max": NAME_MAX}
NAME_EXTRA = " _-.'"
# Letters of other scripts drawn like the Latin ones of "bot" (after casefolding); NFKC
# already folds the fullwidth and mathematical ones (Ｂｏｔ, 𝐁𝐨𝐭).
LOOK_ALIKE = str.maketrans({"в": "b", "ь": "b", "β": "b", "о": "o", "ο": "o", "т": "t", "τ": "t"})
BOT_LIKE = re.compile(r"b[o0]t(\d|$)")  # bots are "Bot 1", "Bot 2", ... (services/table/seating.py)


class BadName(ValueError):
    """A refused display name; ``code``: ``name_length`` (with the rule's ``limits``, which the
    client puts in its words), ``bad_name`` (a character) or ``bot_name`` (it imitates a bot)."""

    def __init__(self, code: str, message: str, limits: dict[str, int] | None = None):
        super().__init__(message)
        self.code, self.message, self.limits = code, message, limits


def check_name(name: str) -> str:
    """A display name: 2-24 letters, digits, spaces and ``_-.'``, NFKC-normalised (so a
    fullwidth or mathematical letter is stored as the plain one it stands for), that does not
    read as a bot's (``Bot 2``, ``bot2``, ``B0T-2``, Cyrillic ``Вот 2``); BadName otherwise."""
    name = unicodedata.normalize("NFKC", name)
    if any(c.isspace() and c != " " for c in name):
        raise BadName("bad_name", "a name is one line of plain spaces and characters")
    name = " ".join(name.split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadName("name_length", f"a name has {NAME_MIN} to {NAME_MAX} characters", NAME_LIMITS)
    if not all(c.isalnum() or c in NAME_EXTRA for c in name) or not any(c.isalnum() for c in name):
        raise BadName("bad_name", "a name uses letters, digits, spaces and _ - . ' only")
    if BOT_LIKE.match(_skeleton(name)):
        raise BadName("bot_name", "a name may not look like a bot's (Bot 1, Bot 2, ...)")
    return name


def _skeleton(name: str) -> str:
    """What a name looks like: casefolded, look-alike letters and every script's digits as
    the ASCII ones, separators dropped."""
    folded = name.casefold().translate(LOOK_ALIKE)
    return "".join(
        str(unicodedata.decimal(c)) if unicodedata.decimal(c, None) is not None else c
        for c in folded
        if c not in NAME_EXTRA
    )


class Players:
    """Guests, and the Redis cache of every signed-in player: ``{"id", "name", "kind",
    "username", "ep", "role", "banned", "avatar"}`` (``ep``: the session epoch,
    app/services/sessions.py). The cache expires after ``cache_seconds`` (an access token's
    life), so a cache left behind by a lost write heals by itself; the database is the truth."""

    def __init__(self, redis: Client, keys: Keys, db: reach.Sessions, *, cache_seconds: int):
        self.redis, self.keys, self.db = redis, keys, db
        self.cache_seconds = cache_seconds

    async def cached(self, pid: int) -> dict | None:
        """The player (one Redis read); from the database when Redis lost it."""
        raw = await self.redis.get(self.keys.player(pid))
        if raw is not None:
            return orjson.loads(raw)
        with reach.reachable("players cannot be registered, signed in or looked up"):
            async with self.db() as session:
                row = await session.get(PlayerRow, pid)
        return None if row is None else await self.remember(row)

    async def remember(self, row: PlayerRow) -> dict:
        """The player as cached, written to the cache."""
        player = self.card(row)
        await self.keep(player)
        return player

    @staticmethod
    def card(row: PlayerRow) -> dict:
        """What the cache keeps of a player row."""
        return {
            "id": row.id,
            "name": row.name,
            "kind": row.kind,
            "username": row.username,
            "ep": row.session_epoch or 0,
            "role": row.role or "player",
            "banned": row.banned_at is not None,
            "avatar": avatars.avatar_of(row.id, row.avatar),
        }

    async def keep(self, player: dict) -> None:
        key = self.keys.player(player["id"])
        await self.redis.set(key, orjson.dumps(player), ex=self.cache_seconds)

    async def choose_avatar(self, pid: int, avatar: object) -> dict:
        """The player's avatar from now on (avatars.UnknownAvatar for one not in the set,
        nothing changed); the player as cached."""
        chosen = avatars.check(avatar)
        with reach.reachable("the avatar cannot be saved"):
            async with self.db.begin() as session:
                row = await session.get(PlayerRow, pid)
                if row is None:
                    raise LookupError(pid)
                row.avatar = chosen
        return await self.remember(row)
