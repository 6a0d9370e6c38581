"""Double-entry ledger: every chip movement is one transaction whose entries sum to zero.

Accounts are strings: ``house`` (the source of grants and of the bots' stacks),
``wallet:<player>`` and ``stack:<table>:<player>`` (chips a player has on a table; a bot's is
``stack:<table>:bot:<seat>``). A transaction carries a unique
idempotency key; :func:`post` inserts it with ``ON CONFLICT DO NOTHING`` and returns None when the
key exists, so the same movement written twice (an outbox entry delivered again, a retried
request) changes nothing — also when two writers race: the second waits for the first's commit
and then sees the conflict.

A wallet leg also updates ``wallet.balance`` (which a CHECK keeps non-negative); callers that
debit a wallet lock the row first (:func:`lock_wallet`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import NamedTuple

from sqlalchemy import Select, insert, select, tuple_, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from .models import LedgerEntry, LedgerTxn, Wallet
from .reach import iso

HOUSE = "house"


def wallet_account(player_id: int) -> str:
    return f"wallet:{player_id}"


def stack_account(table_id: str, who: int | str) -> str:
    """Chips on a table: ``who`` is a player id, or a bot's seat id such as ``bot:2``."""
    return f"stack:{table_id}:{who}"


class Leg(NamedTuple):
    account: str
    player_id: int | None
    amount: int


async def ensure_rows(
    session: AsyncSession, model, unique: tuple[str, ...], rows: list[dict]
) -> dict[tuple, int]:
    """The ids of rows unique by the columns ``unique``, by those columns' values: inserted
    where missing, with one ``INSERT ... ON CONFLICT DO NOTHING RETURNING`` for them all, and
    read where they were there already, with one ``SELECT``."""
    stmt = _insert_ignore(session.get_bind().dialect.name, model, unique, ("id", *unique))
    ids = {tuple(row[1:]): row[0] for row in await session.execute(stmt, rows)}
    present = [v for v in (tuple(row[c] for c in unique) for row in rows) if v not in ids]
    if present:
        cols = [model.__table__.c[c] for c in unique]
        found = await session.execute(select(model.id, *cols).where(tuple_(*cols).in_(present)))
        ids.update({tuple(row[1:]): row[0] for row in found})
    return ids


@cache
def _insert_ignore(
    dialect: str, model, keys: tuple[str, ...], returning: tuple[str, ...] = ("id",)
):
    """The statement, built once and on the table (Core, not the ORM's bulk path): the values go
    as parameters, so SQLAlchemy compiles it once instead of building a cache key for every
    row's values (the outbox writes many)."""
    ins, table = (pg_insert if dialect == "postgresql" else sqlite_insert), model.__table__
    return (
        ins(table)
        .on_conflict_do_nothing(index_elements=list(keys))
        .returning(*(table.c[name] for name in returning))
    )


def defer_inserts(session: AsyncSession) -> None:
    """Collect the rows ``insert_rows`` is given until ``flush_inserts``: one multi-row
    statement per table for a whole batch of outbox entries instead of one per entry. Only rows
    nothing else in the batch refers to go this way (entries, records); the rows that hand out
    ids (transactions, matches, rounds) are inserted at once."""
    session.info["deferred"] = {}


async def flush_inserts(session: AsyncSession) -> None:
    for table, rows in session.info.pop("deferred", {}).items():
        await session.execute(insert(table), rows)


async def insert_rows(session: AsyncSession, table, rows: list[dict]) -> None:
    """Insert rows through the table (Core, not the ORM's bulk path, which cost the outbox a
    fifth of its CPU): now, or at ``flush_inserts`` when the caller deferred them."""
    if not rows:
        return
    deferred = session.info.get("deferred")
    if deferred is None:
        await session.execute(insert(table), rows)
    else:
        deferred.setdefault(table, []).extend(rows)


class Txn(NamedTuple):
    key: str  # the idempotency key
    kind: str
    legs: Sequence[Leg]
    table_id: str | None = None


async def post(
    session: AsyncSession, key: str, kind: str, legs: Sequence[Leg], table_id: str | None = None
) -> int | None:
    """Write one balanced transaction; its id, or None when ``key`` was written before."""
    [txn_id] = await post_many(session, [Txn(key, kind, legs, table_id)])
    return txn_id


async def post_many(session: AsyncSession, txns: Sequence[Txn]) -> list[int | None]:
    """Write balanced transactions with one INSERT (a round's settlements: one statement, not
    one per payer); per transaction its id, or None when its key was written before (or
    earlier in ``txns``)."""
    for t in txns:
        if sum(leg.amount for leg in t.legs) != 0:
            raise ValueError(f"ledger transaction {t.key} does not balance: {t.legs}")
    if not txns:
        return []
    rows = [{"key": t.key, "kind": t.kind, "table_id": t.table_id} for t in txns]
    stmt = _insert_ignore(session.get_bind().dialect.name, LedgerTxn, ("key",), ("id", "key"))
    inserted = await session.execute(stmt, rows)
    ids = {key: txn_id for txn_id, key in inserted}
    out: list[int | None] = []
    for t in txns:
        txn_id = ids.pop(t.key, None)  # popped: a key given twice is written once
        out.append(txn_id)
        if txn_id is not None:
            await _legs(session, txn_id, t.legs)
    return out


async def _legs(session: AsyncSession, txn_id: int, legs: Sequence[Leg]) -> None:
    """A written transaction's entries, and the balances of the wallets it moves."""
    await insert_rows(
        session,
        LedgerEntry.__table__,
        [
            {
                "txn_id": txn_id,
                "account": leg.account,
                "player_id": leg.player_id,
                "amount": leg.amount,
            }
            for leg in legs
        ],
    )
    for leg in legs:
        if leg.account.startswith("wallet:") and leg.amount:
            await session.execute(
                update(Wallet)
                .where(Wallet.player_id == leg.player_id)
                .values(balance=Wallet.balance + leg.amount)
            )


async def lock_wallet(session: AsyncSession, player_id: int) -> Wallet | None:
    """The wallet row under ``SELECT ... FOR UPDATE`` (on SQLite the session's
    ``BEGIN IMMEDIATE`` already serialises writers; FOR UPDATE is not emitted there)."""
    stmt = select(Wallet).where(Wallet.player_id == player_id).with_for_update()
    stmt = stmt.execution_options(populate_existing=True)
    return (await session.execute(stmt)).scalar_one_or_none()


async def txn_exists(session: AsyncSession, key: str) -> bool:
    found = await session.execute(select(LedgerTxn.id).where(LedgerTxn.key == key))
    return found.first() is not None


async def balance_of(session: AsyncSession, player_id: int) -> int | None:
    """The wallet's balance read in ``session`` (None: the player has no wallet)."""
    bal = (
        await session.execute(select(Wallet.balance).where(Wallet.player_id == player_id))
    ).scalar_one_or_none()
    return None if bal is None else int(bal)


def entries_of(player_id: int) -> Select:
    """A player's ledger entries (wallet and stacks) with their transactions, newest first."""
    return (
        select(
            LedgerTxn.key,
            LedgerTxn.kind,
            LedgerTxn.table_id,
            LedgerTxn.created_at,
            LedgerEntry.account,
            LedgerEntry.amount,
        )
        .join(LedgerEntry, LedgerEntry.txn_id == LedgerTxn.id)
        .where(LedgerEntry.player_id == player_id)
        .order_by(LedgerEntry.id.desc())
    )


def entry_dicts(rows) -> list[dict]:
    """The rows of ``entries_of`` as the API shows them."""
    return [
        {"key": k, "kind": kind, "table": t, "at": iso(at), "account": acc, "amount": amt}
        for k, kind, t, at, acc, amt in rows
    ]
