"""Friends (docs/players.md "Friends"): a player's friend list, who of them is online and at
which table, and table invites that show in the invited player's lobby.

- The list is in Postgres (``friend``, one row per friend). Decision: a friend is added, not
  asked: the list is the adder's own (adding someone shows nothing to them), and an invite goes
  only to a player on the inviter's list; an unwanted one is dismissed, or expires by itself.
  At most ``MAX_FRIENDS``.
- Online: seen in the lobby lately (its poll, app/store/social.py) or holding a socket at one of
  their tables (app/store/presence.py). Where: the tables the friend sits at, from their own
  short set (app/store/seated.py), so the list costs a few reads per friend, never a scan.
  Decision: a friend at a private table shows as there, without the table (its address is its
  invitation); an invite shares it.
- Invites: a per-player Redis hash read by the lobby's poll, so an invite sent through any
  process reaches the player's page on any other, on one server or a Redis Cluster. Sending
  one is rate limited per player and address (``limit_invite_*``, the route's); it expires
  after ``invite_seconds``.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from app.db import reach
from app.db.models import Friend, Player
from app.store.presence import Presence
from app.store.seated import Seated
from app.store.social import Social
from app.store.tables import Snapshot, TableStore

from .table import doc as D
from .table.views import TableViews

MAX_FRIENDS = 100


class FriendError(Exception):
    """A refused friends request: HTTP ``status`` and a stable ``code`` (docs/api.md)."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class Friends:
    def __init__(
        self,
        db: reach.Sessions,
        store: TableStore,
        views: TableViews,
        presence: Presence,
        seated: Seated,
        social: Social,
    ):
        self.db, self.store, self.views = db, store, views
        self.presence, self.seated, self.social = presence, seated, social

    async def add(self, pid: int, friend: int) -> dict[str, Any]:
        """Add ``friend`` to the list; ``friend_self``, ``no_such_player``, ``already_friends``
        or ``too_many_friends`` refuse it (nothing written)."""
        if friend == pid:
            raise FriendError(422, "friend_self", "you cannot add yourself as a friend")
        with reach.reachable("friends cannot be changed"):
            async with self.db.begin() as session:
                row = (
                    await session.execute(
                        select(Player.id, Player.name).where(
                            Player.id == friend, Player.kind != "bot"
                        )
                    )
                ).first()
                if row is None:
                    raise FriendError(404, "no_such_player", f"no player {friend}")
                have = (
                    await session.execute(select(func.count()).where(Friend.player_id == pid))
                ).scalar_one()
                if have >= MAX_FRIENDS:
                    raise FriendError(
                        409, "too_many_friends", f"a list holds at most {MAX_FRIENDS} friends"
                    )
                dialect = session.get_bind().dialect.name
                insert = pg_insert if dialect == "postgresql" else sqlite_insert
                added = await session.execute(
                    insert(Friend)
                    .values(player_id=pid, friend_id=friend)
                    .on_conflict_do_nothing()
                    .returning(Friend.friend_id)
                )
                if added.first() is None:
                    raise FriendError(409, "already_friends", f"{row.name} is your friend already")
        return {"id": friend, "name": row.name}

    async def remove(self, pid: int, friend: int) -> None:
        with reach.reachable("friends cannot be changed"):
            async with self.db.begin() as session:
                gone = await session.execute(
                    delete(Friend)
                    .where(Friend.player_id == pid, Friend.friend_id == friend)
                    .returning(Friend.friend_id)
                )
                if gone.first() is None:
                    raise FriendError(404, "not_friends", f"player {friend} is not your friend")

    async def ids(self, pid: int) -> list[tuple[int, str]]:
        with reach.reachable("friends cannot be read"):
            async with self.db() as session:
                rows = await session.execute(
                    select(Player.id, Player.name)
                    .join(Friend, Friend.friend_id == Player.id)
                    .where(Friend.player_id == pid)
                    .order_by(func.lower(Player.name), Player.id)
                )
                return [(r.id, r.name) for r in rows]

    async def is_friend(self, pid: int, friend: int) -> bool:
        with reach.reachable("friends cannot be read"):
            async with self.db() as session:
                found = await session.execute(
                    select(Friend.friend_id).where(
                        Friend.player_id == pid, Friend.friend_id == friend
                    )
                )
                return found.first() is not None

    async def listing(self, pid: int) -> list[dict[str, Any]]:
        """The friends, online ones first: ``online``, and ``table`` (where they sit: the
        table's summary, ``{"private": true}`` alone for a private one, None)."""
        await self.social.saw(pid)  # the lobby asks for this: the player is online
        friends = await self.ids(pid)
        seen = await self.social.online([f for f, _ in friends])
        wheres = await asyncio.gather(*(self._where(fid) for fid, _ in friends))  # at once
        out = [
            {"id": fid, "name": name, "online": in_lobby or present, "table": table}
            for (fid, name), in_lobby, (table, present) in zip(friends, seen, wheres, strict=True)
        ]
        return sorted(out, key=lambda f: not f["online"])

    async def _where(self, fid: int) -> tuple[dict[str, Any] | None, bool]:
        """The newest table the friend sits at (not leaving), and whether they hold a socket
        at any of their tables."""
        tids = await self.seated.tables(fid)
        snaps = [
            s
            for s in await self.store.load_many(tids)
            if (n := D.seat_of(s.doc, fid)) is not None and not D.taken_seat(s.doc, n)["leaving"]
        ]
        present = False
        for snap in snaps:
            if fid in await self.presence.online(snap.tid):
                present = True
                break
        if not snaps:
            return None, present
        newest = max(snaps, key=lambda s: s.doc["created"])
        if newest.doc.get("private"):
            return {"private": True}, present
        return {**self.views.summary(newest), "private": False}, present

    async def invite(self, pid: int, name: str, friend: int, tid: str) -> dict[str, Any]:
        """Invite a friend to the table the player sits at: ``not_friends``, ``invite_not_seated``
        (the player does not sit there) or ``friend_seated`` (they already do) refuse it."""
        if not await self.is_friend(pid, friend):
            raise FriendError(409, "not_friends", f"player {friend} is not your friend")
        snap = await self._load(tid)
        if snap is None or D.seat_of(snap.doc, pid) is None:
            raise FriendError(409, "invite_not_seated", "you can invite only to a table you sit at")
        if D.seat_of(snap.doc, friend) is not None:
            raise FriendError(409, "friend_seated", "your friend sits at this table already")
        return await self.social.invite(
            friend,
            {
                "id": secrets.token_urlsafe(9),
                "from": pid,
                "name": name,
                "table": tid,
                "game": snap.doc["game"],
            },
        )

    async def invites(self, pid: int) -> list[dict[str, Any]]:
        await self.social.saw(pid)
        return await self.social.invites(pid)

    async def accept(self, pid: int, iid: str) -> dict[str, Any]:
        """The invite's table (its summary, for the normal sitting path: the buy-in is asked
        there); the invite is used up. ``no_such_invite``, ``invite_expired`` (410), or the
        table's own ``not_found`` when it closed."""
        invite = await self.social.take(pid, iid)
        if invite is None:
            raise FriendError(404, "no_such_invite", "no such invite")
        if invite["expires"] <= int(time.time() * 1000):
            raise FriendError(410, "invite_expired", "the invite expired")
        snap = await self._load(invite["table"])
        if snap is None:
            raise FriendError(404, "table_gone", "the table of the invite has closed")
        return self.views.summary_for(snap, invite["from"])

    async def _load(self, tid: str) -> Snapshot | None:
        snaps = await self.store.load_many([tid])
        return snaps[0] if snaps else None

    async def decline(self, pid: int, iid: str) -> None:
        if await self.social.take(pid, iid) is None:
            raise FriendError(404, "no_such_invite", "no such invite")
