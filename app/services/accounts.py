"""Accounts: a username and a password on a player, so the player can come back.

- **Username**: 3-24 ASCII letters, digits and ``_-.``, unique case-insensitively: it is stored
  casefolded in ``player.username`` (the unique index settles a race) -> 409 ``username_taken``.
  Decision: ASCII only, unlike display names, so that no two login names look alike across
  scripts. A brand-new account's display name is the username as typed, checked like every
  display name (a bot's look-alike is refused).
- **Password**: Argon2id (argon2-cffi's ``PasswordHasher``, costs from the settings), at least
  8 characters (422 ``weak_password``), at most 256 (``long_password``), and not one of the
  30,000 most common passwords (``common_password``): the list ships with the ``zxcvbn``
  package (its ``passwords`` frequency list, from leaked-password corpora), compared
  casefolded. A hash made with other costs is redone at the next login.
- **Login** answers 401 ``bad_credentials`` alike for an unknown username and a wrong password,
  and spends the same Argon2 time on both (an unknown username is checked against a hash of a
  random password). Hashing runs in a thread: it takes tens of milliseconds of CPU.
- **Guest upgrade**: a signed-in guest becomes an account on its own row, so its player id,
  wallet, history and seats stay; its guest sessions are revoked and an account session starts
  (its access tokens and sockets stay valid: the epoch does not change).
- **Welcome grant**: registering (new or from a guest) grants ``welcome_grant`` once per account,
  from the house, in the same transaction (``money.grant_welcome_in``, key ``welcome:<player>``).
- **All or nothing**: a sign-up (a guest, an account, a guest saved as one) is one database
  transaction: the player, its wallet, its grants and its refresh session, with the player's
  cache written to Redis last, before the commit. So Redis unreachable (503
  ``redis_unavailable``) rolls everything back: no player, no grant, no half-made account to
  retry around. A commit that fails after the cache write leaves only a cache entry for an id
  that no token names, and it expires. (Decision: ordering, not an idempotent grant made
  later: every grant's key names the player, so a player that is never made is never paid.)
- **Password change** needs the old password, then ends every session of the account
  (``Sessions.end_all_in``, same transaction); the caller starts a new one for this client.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import exc as sa_exc
from sqlalchemy import select, update

from app.db import reach
from app.db.models import Player as PlayerRow
from app.services import money
from app.services.players import BadName, Players, check_name
from app.services.sessions import AuthError, Issued, Sessions, revoke_sessions

USERNAME_MIN, USERNAME_MAX = 3, 24
USERNAME_LIMITS = {"min": USERNAME_MIN, "max": USERNAME_MAX}
USERNAME = re.compile(rf"[A-Za-z0-9_.-]{{{USERNAME_MIN},{USERNAME_MAX}}}")
PASSWORD_MIN, PASSWORD_MAX = 8, 256
PASSWORD_LIMITS = {"min": PASSWORD_MIN, "max": PASSWORD_MAX}


class AccountError(Exception):
    """A refused account request: its HTTP status, stable code and, for a 422, the field and
    the rule's ``limits`` (``{"min", "max"}``) that the client's words show."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        field: str | None = None,
        limits: dict[str, int] | None = None,
    ):
        super().__init__(message)
        self.status, self.code, self.message, self.field = status, code, message, field
        self.limits = limits


def check_username(username: str) -> str:
    if not USERNAME.fullmatch(username):
        raise AccountError(
            422,
            "bad_username",
            "a username has 3 to 24 letters (a-z), digits and _ - . only",
            "username",
            USERNAME_LIMITS,
        )
    return username


def check_password(password: str, field: str = "password") -> str:
    if len(password) < PASSWORD_MIN:
        raise AccountError(
            422,
            "weak_password",
            f"a password has at least {PASSWORD_MIN} characters",
            field,
            PASSWORD_LIMITS,
        )
    if len(password) > PASSWORD_MAX:
        raise AccountError(
            422,
            "long_password",
            f"a password has at most {PASSWORD_MAX} characters",
            field,
            PASSWORD_LIMITS,
        )
    if password.casefold() in common_passwords():
        raise AccountError(
            422, "common_password", "this password is among the most common ones", field
        )
    return password


@lru_cache(maxsize=1)
def common_passwords() -> frozenset[str]:
    """The 30,000 most common passwords (zxcvbn's list, lowercase), loaded on first use."""
    from zxcvbn.frequency_lists import FREQUENCY_LISTS

    return frozenset(FREQUENCY_LISTS["passwords"])


class Accounts:
    def __init__(self, db: reach.Sessions, players: Players, sessions: Sessions, settings):
        self.db, self.players, self.sessions = db, players, sessions
        self.hasher = PasswordHasher(
            time_cost=settings.password_time_cost, memory_cost=settings.password_memory_kib
        )
        self.grant, self.welcome = settings.starting_balance, settings.welcome_grant
        self._dummy: str | None = None

    async def _hash(self, password: str) -> str:
        return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, hashed: str, password: str) -> bool:
        try:
            return await asyncio.to_thread(self.hasher.verify, hashed, password)
        except (VerificationError, InvalidHashError):
            return False

    async def guest(self, name: str) -> tuple[dict, Issued]:
        """A new guest with its starting grant, signed in: the cached player, its session."""
        name = check_name(name)
        with reach.reachable("players cannot be registered, signed in or looked up"):
            async with self.db.begin() as session:
                row = PlayerRow(name=name, kind="guest")
                await money.register_player_in(session, row, self.grant)
                return await self._sign_in(session, row)

    async def _sign_in(self, session, row: PlayerRow) -> tuple[dict, Issued]:
        """The end of a sign-up, in its transaction: the refresh session, then the player's
        cache in Redis; an unreachable Redis raises here and the whole sign-up rolls back."""
        player = self.players.card(row)
        issued = await self.sessions.start_in(session, player)
        await self.players.keep(player)
        return player, issued

    async def register(
        self, username: str, password: str, guest: dict | None
    ) -> tuple[dict, Issued]:
        """A new account, or the signed-in ``guest`` turned into one, signed in: the cached
        player and its new session (a guest's earlier sessions end)."""
        check_username(username)
        check_password(password)
        name = None
        if guest is None:
            try:
                name = check_name(username)
            except BadName as e:
                raise AccountError(422, e.code, e.message, "username", e.limits) from None
        hashed = await self._hash(password)
        try:
            with reach.reachable("accounts cannot be used"):
                async with self.db.begin() as session:
                    if guest is None:
                        row = PlayerRow(
                            name=name,
                            kind="account",
                            username=username.casefold(),
                            password_hash=hashed,
                        )
                        await money.register_player_in(session, row, self.grant)
                    else:
                        row = await self._upgrade(session, guest["id"], username, hashed)
                    await money.grant_welcome_in(session, row.id, self.welcome)
                    return await self._sign_in(session, row)
        except sa_exc.IntegrityError:
            raise AccountError(409, "username_taken", "this username is taken") from None

    async def _upgrade(self, session, pid: int, username: str, hashed: str) -> PlayerRow:
        row = (
            await session.execute(
                update(PlayerRow)
                .where(PlayerRow.id == pid, PlayerRow.kind == "guest")
                .values(kind="account", username=username.casefold(), password_hash=hashed)
                .returning(PlayerRow)
            )
        ).scalar_one_or_none()
        if row is None:
            raise AccountError(409, "already_registered", "you are signed in to an account")
        await revoke_sessions(session, pid)
        return row

    async def login(self, username: str, password: str) -> dict:
        """The account's cached player; ``bad_credentials`` for an unknown username and a
        wrong password alike, after the same Argon2 work."""
        with reach.reachable("accounts cannot be used"):
            async with self.db() as session:
                row = (
                    await session.execute(
                        select(PlayerRow).where(PlayerRow.username == username.casefold())
                    )
                ).scalar_one_or_none()
        hashed = row.password_hash if row is not None else None
        ok = await self._verify(hashed or await self._dummy_hash(), password)
        if row is None or not hashed or not ok:
            raise AuthError("bad_credentials", "the username or the password is wrong")
        if self.hasher.check_needs_rehash(hashed):
            rehashed = await self._hash(password)
            with reach.reachable("accounts cannot be used"):
                async with self.db.begin() as session:
                    await session.execute(
                        update(PlayerRow)
                        .where(PlayerRow.id == row.id)
                        .values(password_hash=rehashed)
                    )
        return await self.players.remember(row)

    async def _dummy_hash(self) -> str:
        """A hash of a random password with the current costs, for unknown usernames."""
        if self._dummy is None:
            self._dummy = await self._hash(secrets.token_urlsafe(16))
        return self._dummy

    async def change_password(self, player: dict, old: str, new: str) -> dict:
        """The new password, and every session of the account ended (the caller starts a new
        one for this client)."""
        check_password(new, "new_password")
        if player["kind"] != "account":
            raise AccountError(403, "not_an_account", "a guest has no password; register first")
        with reach.reachable("accounts cannot be used"):
            async with self.db() as session:
                hashed = (
                    await session.execute(
                        select(PlayerRow.password_hash).where(PlayerRow.id == player["id"])
                    )
                ).scalar_one()
        if not hashed or not await self._verify(hashed, old):
            raise AccountError(403, "wrong_password", "the current password is wrong")
        rehashed = await self._hash(new)
        with reach.reachable("accounts cannot be used"):
            async with self.db.begin() as session:
                await session.execute(
                    update(PlayerRow)
                    .where(PlayerRow.id == player["id"])
                    .values(password_hash=rehashed)
                )
                row = await self.sessions.end_all_in(session, player["id"])
        return await self.sessions.announce(row)
