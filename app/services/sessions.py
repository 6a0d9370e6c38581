"""Sessions: short-lived access tokens minted from refresh sessions kept in the database.

- **Access token**: a JWT (PyJWT, HS256) with ``sub`` (player id), ``ep`` (the player's
  ``session_epoch`` when it was signed), ``sid`` (its refresh session), ``iat`` and ``exp``
  (``access_token_seconds``). Its header's ``kid`` names the key that signed it: the first of
  ``Settings.signing_keys`` signs, every one of them is accepted (key rotation). The HMAC key is
  the SHA-256 of the configured secret, so a short secret still makes a full-length key.
- **Checking one** (``authenticate``) costs one Redis read, the player's cache
  (``Players.cached``), which carries the epoch; the database answers when Redis lost it. A
  token of an older epoch is refused: logout and a password change bump the epoch
  (``end_all``), so every access token issued before is refused at once, on REST and on the
  sockets, and the sockets already open are told through the hubs' control channel.
- **Refresh session**: a random token (the browser's HttpOnly cookie, sent only to
  ``/api/session``) stored as its SHA-256 in ``auth_session``, valid ``session_days`` for an
  account and ``guest_session_days`` for a guest (who cannot log in again). Decision: refreshing
  does not rotate the refresh token. Tabs share the cookie and refresh at the same moment when
  their access tokens expire together; a rotated token would log the slower tab out, and the
  token never reaches a page's script (HttpOnly, path-scoped) to be stolen from there.
- **Socket ticket**: for clients that cannot send the cookie or a header on a socket, a random
  single-use name for an access token, kept ``ticket_seconds`` in Redis and taken with GETDEL.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import jwt
import orjson
from sqlalchemy import select, update

from app.db import reach
from app.db.models import AuthSession
from app.db.models import Player as PlayerRow
from app.services.players import Players
from app.store.connection import Client
from app.store.keys import Keys

ALGORITHM = "HS256"
SUBJECT = re.compile(r"[1-9][0-9]{0,18}")  # a player id, in decimal
ID_MAX = 2**63 - 1  # the database's ids (player, session) are 64-bit
EPOCH_MAX = 2**31 - 1  # player.session_epoch is a 32-bit integer


class AuthError(Exception):
    """A refused credential (HTTP 401): ``not_signed_in``, ``token_expired`` (the client
    refreshes), ``bad_token`` (forged, malformed or revoked), ``session_ended`` (the refresh
    session is unknown, expired or revoked: sign in again) or ``bad_credentials``."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code, self.message = code, message


class Banned(AuthError):
    """The player is banned (HTTP 403 ``banned``): every request, a refresh or a login is
    refused until an operator unbans them (app/services/admin_players.py)."""

    def __init__(self) -> None:
        super().__init__("banned", "this player is banned")


def refuse_banned(player: dict[str, Any]) -> dict[str, Any]:
    if player.get("banned"):
        raise Banned
    return player


@dataclass(frozen=True)
class Identity:
    """Who an access token speaks for: the cached player (``id``, ``name``, ``kind``,
    ``username``, ``ep``) and the token's expiry (seconds since the epoch)."""

    player: dict[str, Any]
    exp: int


@dataclass(frozen=True)
class Issued:
    """A new refresh session's token and its first access token."""

    access: str
    refresh: str
    refresh_seconds: int


class Keyring:
    """The signing keys: the first signs, all verify; each named by a ``kid``."""

    def __init__(self, secrets_: list[bytes]):
        keys = [hashlib.sha256(b"meja access token\0" + s).digest() for s in secrets_]
        self.kids = [hashlib.sha256(b"meja key id\0" + k).hexdigest()[:12] for k in keys]
        self.by_kid = dict(zip(self.kids, keys, strict=True))

    def sign(self, claims: dict[str, Any]) -> str:
        kid = self.kids[0]
        return jwt.encode(claims, self.by_kid[kid], algorithm=ALGORITHM, headers={"kid": kid})

    def verify(self, token: str) -> dict[str, Any]:
        try:
            key = self.by_kid.get(str(jwt.get_unverified_header(token).get("kid")))
            if key is None:
                raise AuthError("bad_token", "this token was not signed by a key of ours")
            return jwt.decode(
                token,
                key,
                algorithms=[ALGORITHM],
                options={"require": ["sub", "ep", "sid", "iat", "exp"]},
            )
        except jwt.ExpiredSignatureError:
            raise AuthError("token_expired", "the access token expired; refresh it") from None
        except jwt.PyJWTError:
            raise AuthError("bad_token", "the access token is not valid") from None


def player_of(claims: dict[str, Any]) -> int:
    """The player id of verified claims; ``bad_token`` for claims of a shape this server never
    signs: a signature says who made a token, not that its values fit (a player id beyond 64
    bits would reach the database)."""
    sub, ep, sid = claims["sub"], claims["ep"], claims["sid"]
    if (
        isinstance(sub, str)
        and SUBJECT.fullmatch(sub)
        and int(sub) <= ID_MAX
        and type(ep) is int
        and 0 <= ep <= EPOCH_MAX
        and type(sid) is int
        and 0 < sid <= ID_MAX
    ):
        return int(sub)
    raise AuthError("bad_token", "the access token is not valid")


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Sessions:
    def __init__(self, redis: Client, keys: Keys, db: reach.Sessions, players: Players, settings):
        self.redis, self.keys, self.db, self.players = redis, keys, db, players
        self.keyring = Keyring(settings.signing_keys)
        self.access_seconds = settings.access_token_seconds
        self.ticket_seconds = settings.ticket_seconds
        self.days = {"account": settings.session_days, "guest": settings.guest_session_days}

    def access_token(self, player: dict[str, Any], sid: int) -> str:
        now = int(time.time())
        claims = {"sub": str(player["id"]), "ep": player["ep"], "sid": sid, "iat": now}
        return self.keyring.sign({**claims, "exp": now + self.access_seconds})

    async def start(self, player: dict[str, Any]) -> Issued:
        """A new refresh session for the (cached) player and its first access token; a
        banned player gets none."""
        refuse_banned(player)
        with reach.reachable("sessions cannot be started or checked"):
            async with self.db.begin() as session:
                return await self.start_in(session, player)

    async def start_in(self, session, player: dict[str, Any]) -> Issued:
        """``start`` inside the caller's transaction (a sign-up's, app/services/accounts.py)."""
        refresh = secrets.token_urlsafe(32)
        seconds = int(self.days[player["kind"]] * 86400)
        row = AuthSession(
            player_id=player["id"],
            token_hash=token_hash(refresh),
            expires_at=datetime.now(UTC) + timedelta(seconds=seconds),
        )
        session.add(row)
        await session.flush()
        return Issued(self.access_token(player, row.id), refresh, seconds)

    async def refresh(self, refresh: str | None) -> tuple[dict[str, Any], Issued]:
        """A new access token from a live refresh session (``session_ended`` otherwise); the
        refresh token stays, with the time it has left."""
        if not refresh:
            raise AuthError("session_ended", "no session to refresh; sign in")
        with reach.reachable("sessions cannot be started or checked"):
            async with self.db() as session:
                found = (
                    await session.execute(
                        select(AuthSession, PlayerRow)
                        .join(PlayerRow, PlayerRow.id == AuthSession.player_id)
                        .where(AuthSession.token_hash == token_hash(refresh))
                    )
                ).first()
        left = 0 if found is None else _seconds_left(found[0].expires_at)
        if found is None or found[0].revoked_at is not None or left <= 0:
            raise AuthError("session_ended", "this session has ended; sign in again")
        player = refuse_banned(await self.players.remember(found[1]))
        return player, Issued(self.access_token(player, found[0].id), refresh, left)

    async def authenticate(self, token: str | None) -> Identity:
        """The player an access token speaks for; AuthError when it is missing, expired,
        forged or revoked (signed at an older epoch than the player's)."""
        if not token:
            raise AuthError("not_signed_in", "sign in first (a player token is required)")
        claims = self.keyring.verify(token)
        pid = player_of(claims)
        player = await self.players.cached(pid)
        if player is not None:
            refuse_banned(player)
        if player is None or player["ep"] != claims["ep"]:
            raise AuthError("bad_token", "this session has ended; sign in again")
        return Identity(player, int(claims["exp"]))

    async def end_all(self, pid: int) -> dict[str, Any]:
        """Every session of the player ends (logout); the player, cached at its new epoch."""
        with reach.reachable("sessions cannot be started or checked"):
            async with self.db.begin() as session:
                row = await self.end_all_in(session, pid)
        return await self.announce(row)

    async def end_all_in(self, session, pid: int) -> PlayerRow:
        """Inside the caller's transaction: every refresh session revoked and the epoch
        grown, so every access token issued so far is refused."""
        await revoke_sessions(session, pid)
        return (
            await session.execute(
                update(PlayerRow)
                .where(PlayerRow.id == pid)
                .values(session_epoch=PlayerRow.session_epoch + 1)
                .returning(PlayerRow)
            )
        ).scalar_one()

    async def announce(self, row: PlayerRow) -> dict[str, Any]:
        """After ``end_all_in`` committed: the cache takes the new epoch and every process's
        hub closes the player's open sockets (``revoked`` on the control channel)."""
        player = await self.players.remember(row)
        message = orjson.dumps({"revoked": row.id, "ep": player["ep"]})
        await self.redis.publish(self.keys.control, message)
        return player

    async def ticket(self, token: str) -> tuple[str, int]:
        """A single-use socket ticket for this (checked) access token; (ticket, seconds)."""
        ticket = secrets.token_urlsafe(24)
        await self.redis.set(self.keys.ticket(ticket), token, ex=self.ticket_seconds)
        return ticket, self.ticket_seconds

    async def redeem(self, ticket: str) -> Identity:
        """The identity a ticket was issued for; it is gone afterwards (GETDEL)."""
        token = await self.redis.getdel(self.keys.ticket(ticket))
        if token is None:
            raise AuthError("bad_token", "this socket ticket is unknown, used or expired")
        return await self.authenticate(token.decode() if isinstance(token, bytes) else token)


async def revoke_sessions(session, pid: int) -> None:
    """Revoke the player's live refresh sessions (inside the caller's transaction)."""
    await session.execute(
        update(AuthSession)
        .where(AuthSession.player_id == pid, AuthSession.revoked_at.is_(None))
        .values(revoked_at=datetime.now(UTC))
    )


def _seconds_left(at: datetime) -> int:
    """Until ``at`` (SQLite hands back naive UTC timestamps)."""
    return int(((at if at.tzinfo else at.replace(tzinfo=UTC)) - datetime.now(UTC)).total_seconds())
