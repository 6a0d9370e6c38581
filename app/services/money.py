"""Chips between wallets and tables (docs/design.md "Money").

Every function takes an ``async_sessionmaker`` and runs one database transaction of its own:

- :func:`register_player` creates the player, the wallet and the starting grant from the house.
- :func:`buy_in` moves chips from the wallet to the player's stack on a table. It locks the wallet
  row (``SELECT ... FOR UPDATE``; on SQLite the ``BEGIN IMMEDIATE`` transaction serialises) and
  refuses an overdraft with :class:`InsufficientChips`, and records the buy-in as pending
  (``buy_in`` row) in the same transaction; only after it commits does the caller take the seat
  in Redis. :func:`settle_buy_in` then marks it seated, or refunds it (``refund:<buy-in key>``),
  exactly once: the caller does it when it knows the outcome, and the reconciler
  (app/services/table/buy_ins.py) for a buy-in left pending by a crash or a lost connection.
- :func:`cash_out` returns a stack to the wallet. Tables normally do this through the outbox (an
  entry of kind ``cash_out`` written by the same compare-and-set that frees the seat), so the
  cash-out lands after every payment of that stack and survives a database outage.
- :func:`audit`: grants = wallets + stacks in play, every transaction balanced, nothing negative.

Idempotency keys (unique per movement): ``grant:<player>``, ``welcome:<player>`` (an account's
welcome grant, :func:`grant_welcome`), ``buy_in:<table>:<seat>:<sit>``,
``cash_out:<table>:<seat>:<sit>`` (``<sit>`` is the table version at which the seat was taken).
Calling a function again with a key already written changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import CursorResult, String, cast, func, literal, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db import ledger
from app.db.ledger import HOUSE, Leg, stack_account, wallet_account
from app.db.models import BuyIn, LedgerEntry, LedgerTxn, Player, Wallet
from app.db.reach import Sessions, reachable

DEFAULT_STARTING_BALANCE = 1_000


class MoneyError(Exception):
    code = "money_error"

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InsufficientChips(MoneyError):
    code = "insufficient_chips"


class BadBuyIn(MoneyError):
    code = "bad_buy_in"


class UnknownPlayer(MoneyError):
    code = "unknown_player"


def starting_balance() -> int:
    from app.config import get_settings

    return int(getattr(get_settings(), "starting_balance", DEFAULT_STARTING_BALANCE))


async def register_player(
    db: Sessions, name: str, *, kind: str = "guest", grant: int | None = None
) -> Player:
    """A new player with a wallet holding the starting grant (one ledger transaction)."""
    async with db.begin() as session:
        return await register_player_in(session, Player(name=name[:40], kind=kind), grant)


async def register_player_in(session: AsyncSession, player: Player, grant: int | None) -> Player:
    """Insert ``player`` with its wallet and the starting grant, in the caller's transaction."""
    grant = starting_balance() if grant is None else grant
    session.add(player)
    await session.flush()
    session.add(Wallet(player_id=player.id, balance=0))
    await session.flush()
    await _grant(session, f"grant:{player.id}", "grant", player.id, grant)
    return player


async def grant_welcome(db: Sessions, player_id: int, amount: int) -> bool:
    """The welcome grant of an account (key ``welcome:<player>``): once per player, however
    often or concurrently it is asked for. False when it was granted before."""
    async with db.begin() as session:
        return await grant_welcome_in(session, player_id, amount)


async def grant_welcome_in(session: AsyncSession, player_id: int, amount: int) -> bool:
    """``grant_welcome`` in the caller's transaction (the account's own, app/services/accounts)."""
    return await _grant(session, f"welcome:{player_id}", "welcome", player_id, amount)


async def _grant(session: AsyncSession, key: str, kind: str, player_id: int, amount: int) -> bool:
    legs = [Leg(HOUSE, None, -amount), Leg(wallet_account(player_id), player_id, amount)]
    return await ledger.post(session, key, kind, legs) is not None


def buy_in_key(table_id: str, seat: int, sit: int) -> str:
    return f"buy_in:{table_id}:{seat}:{sit}"


def cash_out_key(table_id: str, seat: int, sit: int) -> str:
    return f"cash_out:{table_id}:{seat}:{sit}"


async def buy_in(
    db: Sessions,
    player_id: int,
    table_id: str,
    seat: int,
    amount: int,
    *,
    key: str,
    minimum: int = 1,
    maximum: int | None = None,
) -> int:
    """Move ``amount`` chips from the wallet to the player's stack on the table.

    Returns the wallet balance after it. A key written before is a no-op (the balance is
    returned unchanged), so a retried request never takes the buy-in twice.
    """
    if type(amount) is not int or amount < minimum or (maximum is not None and amount > maximum):
        upper = f" and {maximum}" if maximum is not None else ""
        raise BadBuyIn(f"the buy-in must be between {minimum}{upper} chips")
    with reachable("chips cannot be moved"):
        return await _buy_in(db, player_id, table_id, seat, amount, key)


async def _buy_in(
    db: Sessions, player_id: int, table_id: str, seat: int, amount: int, key: str
) -> int:
    async with db.begin() as session:
        wallet = await ledger.lock_wallet(session, player_id)
        if wallet is None:
            raise UnknownPlayer(f"player {player_id} has no wallet")
        if await ledger.txn_exists(session, key):
            return wallet.balance
        balance = wallet.balance
        if balance < amount:
            raise InsufficientChips(
                f"you have {balance} chips in your wallet; the buy-in is {amount}"
            )
        await ledger.post(
            session,
            key,
            "buy_in",
            [
                Leg(wallet_account(player_id), player_id, -amount),
                Leg(stack_account(table_id, player_id), player_id, amount),
            ],
            table_id,
        )
        session.add(
            BuyIn(
                key=key,
                player_id=player_id,
                table_id=table_id,
                seat=seat,
                amount=amount,
                status="pending",
            )
        )
        return balance - amount


async def settle_buy_in(db: Sessions, key: str, *, seated: bool) -> bool:
    """Resolve a pending buy-in: ``seated`` (its chips are the seat's stack now) or refunded to
    the wallet. Exactly once: only a pending buy-in changes (False otherwise), and the refund is
    keyed ``refund:<key>`` besides."""
    with reachable("chips cannot be moved"):
        async with db.begin() as session:
            if seated:
                return await mark_seated_in(session, key)
            done: CursorResult = await session.execute(  # type: ignore[assignment]
                update(BuyIn)
                .where(BuyIn.key == key, BuyIn.status == "pending")
                .values(status="refunded", resolved_at=func.now())
                .returning(BuyIn.player_id, BuyIn.table_id, BuyIn.amount)
            )
            row = done.first()
            if row is None:
                return False
            await cash_out_in(session, row.player_id, row.table_id, row.amount, key="refund:" + key)
            return True


async def mark_seated_in(session: AsyncSession, key: str) -> bool:
    """The pending buy-in ``key`` is a seat's stack now; False if it was resolved before."""
    done: CursorResult = await session.execute(  # type: ignore[assignment]
        update(BuyIn)
        .where(BuyIn.key == key, BuyIn.status == "pending")
        .values(status="seated", resolved_at=func.now())
    )
    return done.rowcount > 0


async def pending_buy_ins(db: Sessions, *, older_than: datetime, limit: int = 100) -> list[BuyIn]:
    """Buy-ins still pending since before ``older_than``, oldest first."""
    async with db() as session:
        rows = await session.execute(
            select(BuyIn)
            .where(BuyIn.status == "pending", BuyIn.created_at < older_than)
            .order_by(BuyIn.created_at)
            .limit(limit)
        )
        return list(rows.scalars())


async def cash_out(
    db: Sessions, player_id: int, table_id: str, seat: int, amount: int, *, key: str
) -> bool:
    """Return ``amount`` chips from the player's stack to the wallet; False if already done."""
    async with db.begin() as session:
        return await cash_out_in(session, player_id, table_id, amount, key=key)


async def cash_out_in(
    session: AsyncSession, player_id: int, table_id: str, amount: int, *, key: str
) -> bool:
    if amount < 0:
        raise ValueError("a cash-out is never negative")
    txn = await ledger.post(
        session,
        key,
        "cash_out",
        [
            Leg(stack_account(table_id, player_id), player_id, -amount),
            Leg(wallet_account(player_id), player_id, amount),
        ],
        table_id,
    )
    return txn is not None


@dataclass(frozen=True)
class WalletView:
    balance: int
    at_tables: dict[str, int]
    recent: list[dict]

    def to_json(self) -> dict:
        return {
            "balance": self.balance,
            "at_tables": self.at_tables,
            "chips_at_tables": sum(self.at_tables.values()),
            "recent": self.recent,
        }


async def balance(db: Sessions, player_id: int) -> int:
    """The wallet's balance now (unlocked: a buy-in checks it again under its lock)."""
    with reachable("the wallet cannot be read"):
        async with db() as session:
            return await _balance_in(session, player_id)


async def _balance_in(session: AsyncSession, player_id: int) -> int:
    """The wallet's balance read in ``session``; ``UnknownPlayer`` without a wallet."""
    bal = await ledger.balance_of(session, player_id)
    if bal is None:
        raise UnknownPlayer(f"player {player_id} has no wallet")
    return bal


async def wallet(db: Sessions, player_id: int, *, limit: int = 20) -> WalletView:
    """The balance, the chips on each table (as the ledger knows them) and recent lines."""
    async with db() as session:
        bal = await _balance_in(session, player_id)
        stacks = await session.execute(
            select(LedgerEntry.account, func.sum(LedgerEntry.amount))
            .where(LedgerEntry.player_id == player_id, LedgerEntry.account.like("stack:%"))
            .group_by(LedgerEntry.account)
        )
        at_tables = {acc.split(":")[1]: int(total) for acc, total in stacks if total}
        rows = await session.execute(ledger.entries_of(player_id).limit(limit))
        recent = [
            {**e, "account": "wallet" if e["account"].startswith("wallet:") else "stack"}
            for e in ledger.entry_dicts(rows)
        ]
    return WalletView(int(bal), at_tables, recent)


async def audit(db: Sessions) -> dict:
    """The money invariants (docs/design.md "Money"); ``ok`` is True when all of them hold."""
    async with db() as session:

        async def scalar(stmt) -> int:
            return int((await session.execute(stmt)).scalar_one() or 0)

        total = func.coalesce(func.sum(LedgerEntry.amount), 0)
        house = await scalar(select(total).where(LedgerEntry.account == HOUSE))
        wallets = await scalar(select(func.coalesce(func.sum(Wallet.balance), 0)))
        wallets_ledger = await scalar(select(total).where(LedgerEntry.account.like("wallet:%")))
        stacks = await scalar(select(total).where(LedgerEntry.account.like("stack:%")))
        unbalanced = (
            (
                await session.execute(
                    select(LedgerTxn.key)
                    .join(LedgerEntry, LedgerEntry.txn_id == LedgerTxn.id)
                    .group_by(LedgerTxn.key)
                    .having(func.sum(LedgerEntry.amount) != 0)
                )
            )
            .scalars()
            .all()
        )
        negative_wallets = await scalar(select(func.count()).where(Wallet.balance < 0))
        negative_stacks = (
            (
                await session.execute(
                    select(LedgerEntry.account)
                    .where(LedgerEntry.account.like("stack:%"))
                    .group_by(LedgerEntry.account)
                    .having(func.sum(LedgerEntry.amount) < 0)
                )
            )
            .scalars()
            .all()
        )
        account = literal("wallet:") + cast(Wallet.player_id, String)
        wallet_mismatch = (
            (
                await session.execute(
                    select(Wallet.player_id)
                    .outerjoin(LedgerEntry, LedgerEntry.account == account)
                    .group_by(Wallet.player_id, Wallet.balance)
                    .having(Wallet.balance != func.coalesce(func.sum(LedgerEntry.amount), 0))
                )
            )
            .scalars()
            .all()
        )
    granted = -house
    ok = (
        granted == wallets + stacks
        and wallets == wallets_ledger
        and not unbalanced
        and not negative_wallets
        and not negative_stacks
        and not wallet_mismatch
    )
    return {
        "ok": ok,
        "granted": granted,
        "wallets": wallets,
        "stacks_in_play": stacks,
        "unbalanced_txns": list(unbalanced),
        "negative_wallets": negative_wallets,
        "negative_stacks": list(negative_stacks),
        "wallets_not_matching_ledger": list(wallet_mismatch),
    }
