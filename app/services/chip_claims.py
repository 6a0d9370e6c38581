"""Free chips a player claims: the daily bonus and the bust refill (docs/players.md "Free chips").

Both come from the house, so the audit still balances (granted = wallets + stacks). A claim is
one database transaction: the wallet row locked (``SELECT ... FOR UPDATE``; on SQLite the
``BEGIN IMMEDIATE`` transaction), so one player's claims from any number of tabs or replicas
queue behind each other; then the check, the ledger transaction with its idempotency key and
the claim's ``chip_claim`` row. The unique key and the claim's primary key would refuse a
second grant even without the lock.

Days are calendar days in Asia/Jakarta (WIB, UTC+7, no daylight saving time): a new day, with a
new daily bonus and a new count of refills, begins at 00:00 WIB, which is 17:00 UTC. A request's
day comes from its ``now``, taken once when it arrives: a claim sent at 23:59:59 counts for that
day even when it commits after midnight. Callers pass ``now``; tests choose it.

- Daily (key ``daily:<player>:<YYYY-MM-DD>``, claim seq 0): the streak is yesterday's plus one
  when the player claimed yesterday, else 1 (a missed day starts it again). The amount is
  ``daily_base + daily_step * (streak - 1)``, at most ``daily_max``; the streak keeps counting
  past the cap.
- Refill (key ``refill:<player>:<YYYY-MM-DD>:<n>``, claim seq n from 1): only while the wallet
  plus the chips on tables is below the smallest buy-in any table allows (its lowest stake's
  minimum buy-in, app/services/table/stakes.py), at most
  ``refills_per_day`` times a day.

Decision: the chips on tables are the live truth. While a player sits, the table document in
Redis holds the stack (payments reach the ledger later, through the outbox). For a table where
the ledger holds chips of a player who does not sit there (a cash-out still in the outbox, a
buy-in before its seat is taken), the ledger's stack account is what will come back.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.config import Settings
from app.db import ledger, reach
from app.db.ledger import HOUSE, Leg, wallet_account
from app.db.models import ChipClaim, LedgerEntry, Wallet
from app.services import money
from app.services.catalog import lowest_stake
from app.services.table.doc import seat_of
from app.services.table.stakes import buy_in_limits

JAKARTA = ZoneInfo("Asia/Jakarta")


def jakarta_day(now: datetime) -> date:
    """The calendar day in Asia/Jakarta at the instant ``now`` (an aware datetime)."""
    return now.astimezone(JAKARTA).date()


def next_day_starts(now: datetime) -> datetime:
    """When the Jakarta day after ``now``'s begins, in UTC."""
    return datetime.combine(jakarta_day(now) + timedelta(days=1), time(), JAKARTA).astimezone(UTC)


class ClaimRefused(money.MoneyError):
    """A claim that grants nothing (HTTP 409); ``next_at``: when it may be claimed again."""

    def __init__(self, message: str, next_at: datetime | None = None):
        super().__init__(message)
        self.next_at = next_at


class AlreadyClaimed(ClaimRefused):
    code = "already_claimed"


class NotBust(ClaimRefused):
    code = "not_bust"


class RefillsUsedUp(ClaimRefused):
    code = "refills_used_up"


@dataclass(frozen=True)
class Daily:
    claimable: bool
    streak: int  # the day of the streak today's bonus is (claimed or not)
    amount: int  # today's bonus
    next_at: datetime | None  # when the next one opens; None while today's is open


@dataclass(frozen=True)
class Refill:
    claimable: bool
    bust: bool  # wallet + chips on tables below ``below``
    amount: int
    used: int  # refills claimed today
    per_day: int
    below: int  # the smallest buy-in any table allows
    next_at: datetime | None  # all used: when the next day's open


@dataclass(frozen=True)
class Status:
    day: date
    balance: int
    chips_at_tables: int
    # Of those, the chips on their way to the wallet: a seat left (a cash-out still in the
    # outbox, or a round the bot finishes first). A client asks again shortly while not 0.
    chips_settling: int
    daily: Daily
    refill: Refill

    def to_json(self) -> dict[str, Any]:
        return jsonable(asdict(self))


@dataclass(frozen=True)
class Claim:
    kind: str  # daily | refill
    day: date
    seq: int
    streak: int
    amount: int
    balance: int  # the wallet after it

    def to_json(self) -> dict[str, Any]:
        return jsonable(asdict(self))


def jsonable(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: jsonable(v) for k, v in data.items()}
    if isinstance(data, datetime):
        return data.isoformat()
    return data.isoformat() if isinstance(data, date) else data


class ChipClaims:
    """The daily bonus and the refill of one process (``store``: the live tables, read for the
    stacks of a player who sits)."""

    def __init__(self, db: reach.Sessions, store: Any, settings: Settings):
        self.db, self.store, self.settings = db, store, settings

    def daily_amount(self, streak: int) -> int:
        s = self.settings
        return min(s.daily_base + s.daily_step * (streak - 1), s.daily_max)

    async def status(self, player_id: int, now: datetime) -> Status:
        with reach.reachable("chips cannot be claimed"):
            async with self.db() as session:
                # the chips on tables before the wallet: a cash-out committed between the two
                # reads then shows as still settling (the page asks again shortly), never as
                # settled into a wallet read before it
                at_tables = await self._chips_at_tables(session, player_id)
                balance = (
                    await session.execute(
                        select(Wallet.balance).where(Wallet.player_id == player_id)
                    )
                ).scalar_one_or_none()
                if balance is None:
                    raise money.UnknownPlayer(f"player {player_id} has no wallet")
                return await self._status(session, player_id, int(balance), at_tables, now)

    async def claim_daily(self, player_id: int, now: datetime) -> Claim:
        """Today's bonus, once a day; AlreadyClaimed (with the next day's start) otherwise."""
        today = jakarta_day(now)
        with reach.reachable("chips cannot be claimed"):
            async with self.db.begin() as session:
                balance = (await self._locked_wallet(session, player_id)).balance
                daily = await self._daily(session, player_id, today, now)
                if not daily.claimable:
                    raise AlreadyClaimed(
                        f"today's bonus was claimed; the next one opens at {daily.next_at}",
                        daily.next_at,
                    )
                key = f"daily:{player_id}:{today.isoformat()}"
                await self._grant(
                    session, player_id, key, "daily", today, 0, daily.streak, daily.amount
                )
                return Claim("daily", today, 0, daily.streak, daily.amount, balance + daily.amount)

    async def claim_refill(self, player_id: int, now: datetime) -> Claim:
        """A refill while bust, ``refills_per_day`` times a day; NotBust or RefillsUsedUp."""
        today = jakarta_day(now)
        with reach.reachable("chips cannot be claimed"):
            async with self.db.begin() as session:
                balance = (await self._locked_wallet(session, player_id)).balance
                held = balance + (await self._chips_at_tables(session, player_id))[0]
                refill = await self._refill(session, player_id, held, today, now)
                if not refill.bust:
                    raise NotBust(
                        f"a refill is for a player with fewer than {refill.below} chips "
                        "in the wallet and on the tables together"
                    )
                if not refill.claimable:
                    raise RefillsUsedUp(
                        f"all {refill.per_day} refills of today are used; the next day's open "
                        f"at {refill.next_at}",
                        refill.next_at,
                    )
                n = refill.used + 1
                key = f"refill:{player_id}:{today.isoformat()}:{n}"
                await self._grant(session, player_id, key, "refill", today, n, 0, refill.amount)
                return Claim("refill", today, n, 0, refill.amount, balance + refill.amount)

    async def _locked_wallet(self, session: AsyncSession, player_id: int) -> Wallet:
        wallet = await ledger.lock_wallet(session, player_id)
        if wallet is None:
            raise money.UnknownPlayer(f"player {player_id} has no wallet")
        return wallet

    async def _grant(
        self,
        session: AsyncSession,
        player_id: int,
        key: str,
        kind: str,
        day: date,
        seq: int,
        streak: int,
        amount: int,
    ) -> None:
        legs = [Leg(HOUSE, None, -amount), Leg(wallet_account(player_id), player_id, amount)]
        txn_id = await ledger.post(session, key, kind, legs)
        if txn_id is None:  # the key exists: the lock makes this unreachable, the key backs it
            raise AlreadyClaimed(f"{key} was granted before")
        session.add(
            ChipClaim(
                player_id=player_id,
                kind=kind,
                day=day,
                seq=seq,
                streak=streak,
                amount=amount,
                txn_id=txn_id,
            )
        )

    async def _status(
        self,
        session: AsyncSession,
        player_id: int,
        balance: int,
        chips_at_tables: tuple[int, int],
        now: datetime,
    ) -> Status:
        today = jakarta_day(now)
        daily = await self._daily(session, player_id, today, now)
        at_tables, settling = chips_at_tables
        refill = await self._refill(session, player_id, balance + at_tables, today, now)
        return Status(today, balance, at_tables, settling, daily, refill)

    async def _daily(
        self, session: AsyncSession, player_id: int, today: date, now: datetime
    ) -> Daily:
        last = (
            await session.execute(
                select(ChipClaim.day, ChipClaim.streak, ChipClaim.amount)
                .where(
                    ChipClaim.player_id == player_id,
                    ChipClaim.kind == "daily",
                    ChipClaim.day <= today,
                )
                .order_by(ChipClaim.day.desc())
                .limit(1)
            )
        ).first()
        if last is not None and last.day == today:
            return Daily(False, last.streak, int(last.amount), next_day_starts(now))
        yesterday = today - timedelta(days=1)
        streak = last.streak + 1 if last is not None and last.day == yesterday else 1
        return Daily(True, streak, self.daily_amount(streak), None)

    async def _refill(
        self, session: AsyncSession, player_id: int, held: int, today: date, now: datetime
    ) -> Refill:
        """``held``: the wallet and the chips on tables together."""
        used = (
            await session.execute(
                select(func.count()).where(
                    ChipClaim.player_id == player_id,
                    ChipClaim.kind == "refill",
                    ChipClaim.day == today,
                )
            )
        ).scalar_one()
        below = buy_in_limits(lowest_stake(), self.settings).low  # the smallest buy-in anywhere
        per_day = self.settings.refills_per_day
        bust = held < below
        left = used < per_day
        return Refill(
            claimable=bust and left,
            bust=bust,
            amount=self.settings.refill_amount,
            used=used,
            per_day=per_day,
            below=below,
            next_at=None if left else next_day_starts(now),
        )

    async def _chips_at_tables(self, session: AsyncSession, player_id: int) -> tuple[int, int]:
        """The player's chips on tables: the seat's stack in Redis where the player sits, the
        ledger's stack account elsewhere (see the module's Decision); and the part of them on
        its way back to the wallet (settling): those of tables left, a seat still being
        played to the end of its round by the bot."""
        rows = await session.execute(
            select(LedgerEntry.account, func.sum(LedgerEntry.amount))
            .where(LedgerEntry.player_id == player_id, LedgerEntry.account.like("stack:%"))
            .group_by(LedgerEntry.account)
        )
        in_ledger = {account.split(":")[1]: int(total) for account, total in rows if total}
        if not in_ledger:
            return 0, 0
        live = {snap.tid: snap.doc for snap in await self.store.load_many(list(in_ledger))}
        total = settling = 0
        for tid, amount in in_ledger.items():
            doc = live.get(tid)
            seat = seat_of(doc, player_id) if doc is not None else None
            stack = amount if doc is None or seat is None else doc["seats"][seat]["stack"] or 0
            if doc is None or seat is None or doc["seats"][seat]["leaving"]:
                settling += stack  # cashed out when the bot has finished the round (O-3)
            total += stack
        return total, settling
