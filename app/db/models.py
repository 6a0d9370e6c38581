"""The tables (docs/design.md "Persistence"). Chips are whole numbers (BigInteger).

Money is double entry: a ``ledger_txn`` groups ``ledger_entry`` rows whose amounts sum to zero.
An entry names its *account* as a string — ``house`` (grants come from it, so its balance is
minus everything ever granted), ``wallet:<player>`` and ``stack:<table>:<player>`` (chips a player
has on a table). ``wallet.balance`` is the lockable running balance of the wallet account; the
audit checks it against the ledger. Every transaction has a unique idempotency ``key`` derived
from where the movement happened, so writing the same movement twice is refused by the database.

Records of play: ``match`` (one per table and match number; a Gaple round is one match, G-12),
``match_seat``, ``round``, ``bet`` (one row per payer of a settled Gaple round), ``lewat_payment``
and ``move`` (the action log that ``python -m app replay`` re-runs).
"""

from __future__ import annotations

import secrets
from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import Mapped, mapped_column

from .base import Base, BigId

Chips = BigInteger


def _now():
    return mapped_column(DateTime(timezone=True), server_default=func.now(), nullable=False)


class Player(Base):
    """A guest, an account (a guest with a username and a password) or a bot.

    ``username`` is the login name casefolded (unique, so case-insensitively); the display
    ``name`` is separate. ``session_epoch`` grows when every session of the player ends
    (logout, password change): access tokens carry the epoch they were signed at, and one of an
    older epoch is refused. ``role`` is ``player`` or ``admin`` (the operators' console,
    granted by ``python -m app admin grant``); a player with ``banned_at`` is refused
    everywhere (HTTP 403 ``banned``) until unbanned."""

    __tablename__ = "player"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(10), default="guest")  # guest | account | bot
    username: Mapped[str | None] = mapped_column(String(24), unique=True)
    password_hash: Mapped[str | None] = mapped_column(String(255))
    session_epoch: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    role: Mapped[str] = mapped_column(String(10), default="player", server_default="player")
    banned_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    ban_reason: Mapped[str | None] = mapped_column(String(200))
    # the avatar chosen on the profile (app/services/avatars.py); NULL: derived from the id
    avatar: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = _now()


class AdminAction(Base):
    """One thing an operator did, with who, to what and why (app/services/admin_log.py).
    ``admin_id`` is None for the command line (``python -m app admin``)."""

    __tablename__ = "admin_action"
    __table_args__ = (Index("ix_admin_action_created_at", "created_at"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    admin_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    action: Mapped[str] = mapped_column(String(30))
    target: Mapped[str] = mapped_column(String(120))
    reason: Mapped[str | None] = mapped_column(String(200))
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = _now()


class AuthSession(Base):
    """A refresh session: the long-lived credential behind the browser's cookie, stored as
    the SHA-256 of its random token. It mints short-lived access tokens until it expires or is
    revoked."""

    __tablename__ = "auth_session"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = _now()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class ChipClaim(Base):
    """A daily bonus or a bust refill, one row per claim beside its ledger transaction:
    ``day`` is the calendar day in Asia/Jakarta, ``seq`` the refill's number that day (0 for
    the daily bonus), ``streak`` the consecutive days of daily bonuses up to this one."""

    __tablename__ = "chip_claim"
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)  # daily | refill
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    amount: Mapped[int] = mapped_column(Chips)
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txn.id"))
    created_at: Mapped[datetime] = _now()


class Wallet(Base):
    __tablename__ = "wallet"
    __table_args__ = (CheckConstraint("balance >= 0", name="balance_not_negative"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    balance: Mapped[int] = mapped_column(Chips, default=0)


class LedgerTxn(Base):
    __tablename__ = "ledger_txn"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    kind: Mapped[str] = mapped_column(String(20))  # grant buy_in cash_out lewat settlement
    table_id: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = _now()


class LedgerEntry(Base):
    __tablename__ = "ledger_entry"
    __table_args__ = (Index("ix_ledger_entry_account", "account"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txn.id"), index=True)
    account: Mapped[str] = mapped_column(String(120))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    amount: Mapped[int] = mapped_column(Chips)


def new_public_id() -> str:
    """A random id for URLs: 96 bits, so ids cannot be walked or guessed."""
    return secrets.token_urlsafe(12)


class Match(Base):
    """``public_id`` names the match in URLs (``GET /api/matches/{id}``), never the sequential
    ``id``; ``private``: played at a private table, so only its players and operators read it."""

    __tablename__ = "match"
    __table_args__ = (UniqueConstraint("table_id", "number"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    public_id: Mapped[str] = mapped_column(String(24), unique=True, default=new_public_id)
    private: Mapped[bool] = mapped_column(default=False, server_default=false())
    table_id: Mapped[str] = mapped_column(String(64))
    number: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(String(20))
    options: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    seed: Mapped[str | None] = mapped_column(String(80))  # decimal: seeds may exceed 64 bits
    n_seats: Mapped[int | None] = mapped_column(Integer)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class MatchSeat(Base):
    __tablename__ = "match_seat"
    __table_args__ = (UniqueConstraint("match_id", "seat"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"))
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"), index=True)
    score: Mapped[int | None] = mapped_column(Chips)
    winner: Mapped[bool] = mapped_column(default=False)


class Round(Base):
    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("match_id", "number"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"))
    number: Mapped[int] = mapped_column(Integer)
    version: Mapped[int | None] = mapped_column(BigInteger)  # table version that ended it
    winner: Mapped[int | None] = mapped_column(Integer)
    ending: Mapped[str | None] = mapped_column(String(20))
    multiplier: Mapped[int | None] = mapped_column(Integer)
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class Bet(Base):
    __tablename__ = "bet"
    __table_args__ = (
        UniqueConstraint("round_id", "payer_seat"),
        CheckConstraint("amount >= 0 AND shortfall >= 0", name="not_negative"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"))
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txn.id"))
    payer_seat: Mapped[int] = mapped_column(Integer)
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    payee_seat: Mapped[int] = mapped_column(Integer)
    payee_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    stake: Mapped[int] = mapped_column(Chips)
    field: Mapped[str] = mapped_column(String(10))  # normal | bet
    multiplier: Mapped[int] = mapped_column(Integer)
    pips: Mapped[int | None] = mapped_column(Integer)  # only on a bet field (G-10)
    amount: Mapped[int] = mapped_column(Chips)
    shortfall: Mapped[int] = mapped_column(Chips)


class LewatPayment(Base):
    __tablename__ = "lewat_payment"
    __table_args__ = (
        # one change may apply several forced passes (O-4), each by a different seat
        UniqueConstraint("round_id", "version", "payer_seat"),
        CheckConstraint("amount >= 0 AND shortfall >= 0", name="not_negative"),
    )
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("round.id"))
    txn_id: Mapped[int] = mapped_column(ForeignKey("ledger_txn.id"))
    version: Mapped[int] = mapped_column(BigInteger)
    payer_seat: Mapped[int] = mapped_column(Integer)
    payer_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    payee_seat: Mapped[int] = mapped_column(Integer)
    payee_id: Mapped[int | None] = mapped_column(ForeignKey("player.id"))
    amount: Mapped[int] = mapped_column(Chips)
    shortfall: Mapped[int] = mapped_column(Chips)


class Move(Base):
    __tablename__ = "move"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id"))
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    version: Mapped[int | None] = mapped_column(BigInteger)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)


class BuyIn(Base):
    """A buy-in between the wallet's debit and the seat (docs/design.md "Money"): written with the
    debit, then ``seated`` or ``refunded`` exactly once (app/services/table/buy_ins.py)."""

    __tablename__ = "buy_in"
    __table_args__ = (Index("ix_buy_in_pending", "status", "created_at"),)
    key: Mapped[str] = mapped_column(String(200), primary_key=True)  # the debit's ledger key
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"))
    table_id: Mapped[str] = mapped_column(String(64))
    seat: Mapped[int] = mapped_column(Integer)
    amount: Mapped[int] = mapped_column(Chips)
    status: Mapped[str] = mapped_column(String(10), default="pending")  # | seated | refunded
    created_at: Mapped[datetime] = _now()
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class PlayerStat(Base):
    """A player's running totals in one game over one period: ``period`` is ``all`` or the
    Monday (Asia/Jakarta, ISO date) that starts a week. The records writer adds each finished
    match (and each Moon round) to both of its rows in the transaction that stores the
    record, so the profile and the leaderboards read a few rows instead of every match
    (app/services/stats_write.py)."""

    __tablename__ = "player_stat"
    __table_args__ = (Index("ix_player_stat_board", "game", "period"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    period: Mapped[str] = mapped_column(String(10), primary_key=True)
    played: Mapped[int] = mapped_column(Integer, default=0)
    won: Mapped[int] = mapped_column(Integer, default=0)
    score_sum: Mapped[int] = mapped_column(Chips, default=0)  # match scores (Mexican Train)
    chips_won: Mapped[int] = mapped_column(Chips, default=0)  # Gaple: Lewat + settlements
    chips_lost: Mapped[int] = mapped_column(Chips, default=0)
    best_multiplier: Mapped[int] = mapped_column(Integer, default=0)  # 0: no round won
    biggest_pot: Mapped[int] = mapped_column(Chips, default=0)
    contracts_bid: Mapped[int] = mapped_column(Integer, default=0)  # Moon: rounds declared
    contracts_made: Mapped[int] = mapped_column(Integer, default=0)


class Friend(Base):
    """One player's friend list, one row per friend (app/services/friends.py): ``player_id``
    added ``friend_id``. Decision: a friend is added, not asked (no request to accept), so a
    list is the adder's own; invites go only to players on it."""

    __tablename__ = "friend"
    __table_args__ = (CheckConstraint("player_id <> friend_id", name="not_self"),)
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    friend_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    created_at: Mapped[datetime] = _now()


class MissionProgress(Base):
    """A player's progress on one daily mission (app/services/missions.py): ``day`` is the
    calendar day in Asia/Jakarta, ``count`` grows as the records writer stores finished rounds,
    ``txn_id`` is the reward's ledger transaction once the goal is reached (paid once: its
    key is ``mission:<player>:<day>:<mission>``)."""

    __tablename__ = "mission_progress"
    player_id: Mapped[int] = mapped_column(ForeignKey("player.id"), primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    mission: Mapped[str] = mapped_column(String(20), primary_key=True)
    count: Mapped[int] = mapped_column(Integer, default=0)
    txn_id: Mapped[int | None] = mapped_column(ForeignKey("ledger_txn.id"), nullable=True)
