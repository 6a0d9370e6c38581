"""The operators' side of players: search, a player's wallet and ledger, roles, bans and chip
adjustments (docs/operations/console.md).

Decisions where the brief is silent:
- A ban takes effect at once: the player's session epoch grows (every access token and every
  open socket is refused, app/services/sessions.py), and every later request, refresh or login
  is answered 403 ``banned``. Refresh sessions are kept, so an unbanned player is signed in
  again by the next refresh.
- A banned player's seats are given up as if they had left (``Tables.leave``): during a match
  the bot plays the seat to its end, then the seat is freed and its stack cashed out to the
  wallet. Their chips stay theirs.
- A chip adjustment is one ledger transaction of kind ``adjust`` between the house and the
  wallet; its key ``adjust:<operator>:<request id>`` comes from the request, so a retried
  click moves chips once. Taking more than the wallet holds is refused (the wallet has a CHECK
  that keeps it non-negative), and chips on tables are out of reach.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger, reach
from app.db.ledger import HOUSE, Leg, wallet_account
from app.db.models import LedgerEntry, Player, Wallet
from app.services import admin_log, money
from app.services.table import doc as D

ROLES = ("player", "admin")


class AdminError(Exception):
    """A refused operator request: HTTP ``status`` and a stable ``code``."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def _player_json(p: Player, balance: int | None) -> dict[str, Any]:
    return {
        "id": p.id,
        "name": p.name,
        "username": p.username,
        "kind": p.kind,
        "role": p.role,
        "banned": p.banned_at is not None,
        "banned_at": reach.iso(p.banned_at),
        "ban_reason": p.ban_reason,
        "balance": balance,
        "created_at": reach.iso(p.created_at),
    }


async def role_of(db: reach.Sessions, pid: int) -> str | None:
    """The player's role as the database has it now (a grant or a revoke counts at once)."""
    with reach.reachable("the console cannot be used"):
        async with db() as session:
            return (
                await session.execute(select(Player.role).where(Player.id == pid))
            ).scalar_one_or_none()


async def set_role(db: reach.Sessions, username: str, role: str) -> Player:
    """``python -m app admin grant|revoke``: the account's role, logged with no operator."""
    async with db.begin() as session:
        row = (
            await session.execute(
                update(Player)
                .where(Player.username == username.casefold())
                .values(role=role)
                .returning(Player)
            )
        ).scalar_one_or_none()
        if row is None:
            raise AdminError(404, "unknown_player", f"no account named {username!r}")
        admin_log.note(session, None, f"role_{role}", f"player:{row.id}", None)
        return row


async def search(db: reach.Sessions, q: str, *, page: int, per_page: int) -> dict[str, Any]:
    """Players whose name or username contains ``q`` (case-insensitively), newest first."""
    q = q.casefold()  # usernames are stored casefolded
    where = or_(
        func.lower(Player.name).contains(q, autoescape=True),
        Player.username.contains(q, autoescape=True),
    )
    with reach.reachable("players cannot be searched"):
        async with db() as session:
            total = (await session.execute(select(func.count()).where(where))).scalar_one()
            rows = await session.execute(
                select(Player, Wallet.balance)
                .outerjoin(Wallet, Wallet.player_id == Player.id)
                .where(where)
                .order_by(Player.id.desc())
                .offset((page - 1) * per_page)
                .limit(per_page)
            )
            items = [_player_json(p, b) for p, b in rows]
    return {"items": items, "page": page, "per_page": per_page, "total": int(total)}


async def detail(db: reach.Sessions, pid: int) -> dict[str, Any]:
    """The player with the wallet as the player sees it (balance, chips on tables)."""
    with reach.reachable("this player cannot be read"):
        async with db() as session:
            row = await session.get(Player, pid)
        if row is None:
            raise AdminError(404, "unknown_player", f"no player {pid}")
        try:
            wallet = (await money.wallet(db, pid, limit=0)).to_json()
        except money.UnknownPlayer:
            wallet = None
    out = _player_json(row, None if wallet is None else wallet["balance"])
    out["wallet"] = wallet
    return out


async def ledger_page(db: reach.Sessions, pid: int, *, page: int, per_page: int) -> dict[str, Any]:
    """The player's ledger entries (wallet and stacks), newest first."""
    with reach.reachable("the ledger cannot be read"):
        async with db() as session:
            if await session.get(Player, pid) is None:
                raise AdminError(404, "unknown_player", f"no player {pid}")
            count = select(func.count()).where(LedgerEntry.player_id == pid)
            total = (await session.execute(count)).scalar_one()
            page_of = ledger.entries_of(pid).offset((page - 1) * per_page).limit(per_page)
            items = ledger.entry_dicts(await session.execute(page_of))
    return {"items": items, "page": page, "per_page": per_page, "total": int(total)}


class PlayerActions:
    """Bans and chip adjustments: the database, the sessions (epoch, sockets) and the tables
    (a banned player's seats)."""

    def __init__(self, db: reach.Sessions, sessions: Any, tables: Any):
        self.db, self.sessions, self.tables = db, sessions, tables

    async def ban(self, admin_id: int, pid: int, reason: str) -> dict[str, Any]:
        if pid == admin_id:
            raise AdminError(409, "ban_self", "an operator cannot ban themselves")
        with reach.reachable("players cannot be banned"):
            async with self.db.begin() as session:
                row = await self._set_ban(session, pid, datetime.now(UTC), reason)
                admin_log.note(session, admin_id, "ban", f"player:{pid}", reason)
        await self.sessions.announce(row)  # cache: banned; open sockets closed
        seats = await self._leave_tables(pid)
        return {**_player_json(row, None), "seats_left": seats}

    async def unban(self, admin_id: int, pid: int, reason: str) -> dict[str, Any]:
        with reach.reachable("players cannot be unbanned"):
            async with self.db.begin() as session:
                row = await self._set_ban(session, pid, None, None)
                admin_log.note(session, admin_id, "unban", f"player:{pid}", reason)
        await self.sessions.players.remember(row)
        return _player_json(row, None)

    async def _set_ban(self, session: AsyncSession, pid: int, at, reason) -> Player:
        """Ban (``at``: now) or unban, once: a second ban or an unban of no ban is refused."""
        values: dict[str, Any] = {"banned_at": at, "ban_reason": reason}
        state = Player.banned_at.is_(None) if at is not None else Player.banned_at.isnot(None)
        if at is not None:
            values["session_epoch"] = Player.session_epoch + 1
        row = (
            await session.execute(
                update(Player)
                .where(Player.id == pid, state)
                .values(**values)
                .returning(Player)
                .execution_options(synchronize_session=False)
            )
        ).scalar_one_or_none()
        if row is not None:
            return row
        if (await session.execute(select(Player.id).where(Player.id == pid))).first() is None:
            raise AdminError(404, "unknown_player", f"no player {pid}")
        code = "already_banned" if at is not None else "not_banned"
        raise AdminError(409, code, f"player {pid} is {'already' if at else 'not'} banned")

    async def _leave_tables(self, pid: int) -> list[dict[str, Any]]:
        """Give up every seat of the player on the live tables (see the module's decisions)."""
        left = []
        store = self.tables.store
        for snap in await store.load_many(await store.live_tables()):
            n = D.seat_of(snap.doc, pid)
            if n is not None and snap.doc["status"] != D.TableStatus.CLOSED:
                await self.tables.leave({"id": pid}, snap.tid, n)
                left.append({"table": snap.tid, "seat": n})
        return left

    async def adjust(
        self, admin_id: int, pid: int, amount: int, reason: str, request_id: str
    ) -> dict[str, Any]:
        """Chips from the house to the wallet (``amount`` > 0) or back; the new balance, and
        whether this request moved them (False: a retry of one that did)."""
        key = f"adjust:{admin_id}:{request_id}"
        with reach.reachable("chips cannot be moved"):
            async with self.db.begin() as session:
                wallet = await ledger.lock_wallet(session, pid)
                if wallet is None:
                    raise AdminError(404, "unknown_player", f"player {pid} has no wallet")
                balance = wallet.balance
                if await ledger.txn_exists(session, key):
                    return {"balance": balance, "moved": False, "key": key}
                if balance + amount < 0:
                    raise AdminError(
                        409,
                        "insufficient_chips",
                        f"the wallet holds {balance} chips; cannot take {-amount}",
                    )
                legs = [Leg(HOUSE, None, -amount), Leg(wallet_account(pid), pid, amount)]
                await ledger.post(session, key, "adjust", legs)
                admin_log.note(
                    session,
                    admin_id,
                    "adjust_chips",
                    f"player:{pid}",
                    reason,
                    {"amount": amount, "key": key},
                )
        return {"balance": balance + amount, "moved": True, "key": key}
