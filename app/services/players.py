"""Guest players and their signed tokens.

A token is ``<payload>.<signature>``: the payload is base64url JSON ``{"pid": ...}`` and the
signature an HMAC-SHA256 of it under the server's key, so any process can check a token without
a lookup, and a forged or altered one is refused (HTTP 401 / socket close 4401).

With a database (always, in the app) a guest is a ``player`` row with a wallet
(``money.register_player``); without one (tools, some tests) guests are kept in Redis only.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import re
import secrets
import unicodedata
from collections.abc import Iterator
from typing import Any

import orjson
from redis.asyncio import Redis

from app.db.models import Player as PlayerRow
from app.services import money
from app.store.keys import Keys

NAME_MIN, NAME_MAX = 2, 24
NAME_EXTRA = " _-.'"
# Letters of other scripts drawn like the Latin ones of "bot" (after casefolding); NFKC
# already folds the fullwidth and mathematical ones (Ｂｏｔ, 𝐁𝐨𝐭).
LOOK_ALIKE = str.maketrans({"в": "b", "ь": "b", "β": "b", "о": "o", "ο": "o", "т": "t", "τ": "t"})
BOT_LIKE = re.compile(r"b[o0]t(\d|$)")  # bots are "Bot 1", "Bot 2", ... (services/lobby.py)


class BadName(ValueError):
    """A refused display name; ``code``: ``bad_name`` or ``bot_name`` (it imitates a bot)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


def check_name(name: str) -> str:
    """A display name: 2-24 letters, digits, spaces and ``_-.'``, NFKC-normalised (so a
    fullwidth or mathematical letter is stored as the plain one it stands for), that does not
    read as a bot's (``Bot 2``, ``bot2``, ``B0T-2``, Cyrillic ``Вот 2``); BadName otherwise."""
    name = unicodedata.normalize("NFKC", name)
    if any(c.isspace() and c != " " for c in name):
        raise BadName("bad_name", "a name is one line of plain spaces and characters")
    name = " ".join(name.split())
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise BadName("bad_name", f"a name has {NAME_MIN} to {NAME_MAX} characters")
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


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign(key: bytes, pid: Any) -> str:
    payload = _b64(orjson.dumps({"pid": pid}))
    mac = hmac.new(key, payload.encode(), hashlib.sha256).digest()
    return f"{payload}.{_b64(mac)}"


def verify(key: bytes, token: str) -> Any | None:
    """The player id a token carries, or None when it is malformed or not signed by us."""
    try:
        payload, mac = token.split(".")
        good = _b64(hmac.new(key, payload.encode(), hashlib.sha256).digest())
        if not hmac.compare_digest(good, mac):
            return None
        return orjson.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["pid"]
    except (ValueError, KeyError, TypeError):
        return None


class Players:
    def __init__(
        self, redis: Redis, keys: Keys, signing_key: bytes, *, db=None, grant: int | None = None
    ):
        self.redis, self.keys, self.key = redis, keys, signing_key
        self.db, self.grant = db, grant

    async def register(self, name: str) -> tuple[dict, str]:
        """With a database (chips & records): the player row, the wallet and the starting
        grant (``money.register_player``); the id is the database's. Redis caches the name."""
        name = check_name(name)
        pid: int | str
        if self.db is not None:
            with _reachable():
                pid = (await money.register_player(self.db, name, grant=self.grant)).id
        else:
            pid = "g" + secrets.token_hex(8)
        player = {"id": pid, "name": name}
        await self.redis.set(self.keys.player(pid), orjson.dumps(player))
        return player, sign(self.key, pid)

    async def from_token(self, token: str | None) -> dict | None:
        pid = verify(self.key, token) if token else None
        if pid is None:
            return None
        raw = await self.redis.get(self.keys.player(pid))
        if raw is None and self.db is not None and type(pid) is int:
            with _reachable():
                async with self.db() as session:  # Redis lost its cache: the database knows
                    row = await session.get(PlayerRow, pid)
            if row is None:
                return None
            raw = orjson.dumps({"id": row.id, "name": row.name})
            await self.redis.set(self.keys.player(pid), raw)
        return orjson.loads(raw) if raw else None


@contextlib.contextmanager
def _reachable() -> Iterator[None]:
    """A database that cannot be reached is ``money.Unavailable`` (HTTP 503)."""
    try:
        yield
    except money.UNREACHABLE as err:
        raise money.Unavailable(
            "players cannot be registered or looked up right now "
            "(database unreachable); try again shortly"
        ) from err
