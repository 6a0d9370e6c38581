"""Ledger (double entry) and the records of finished matches.

Revision ID: 4f8b08a8c07e
Revises: (none)
Create Date: 2026-11-29 18:55:17.172202
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "4f8b08a8c07e"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_txn",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_txn")),
        sa.UniqueConstraint("key", name=op.f("uq_ledger_txn_key")),
    )
    op.create_table(
        "match",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("options", sa.JSON(), nullable=True),
        sa.Column("seed", sa.String(length=80), nullable=True),
        sa.Column("n_seats", sa.Integer(), nullable=True),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
        sa.UniqueConstraint("table_id", "number", name=op.f("uq_match_table_id_number")),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
    )
    op.create_table(
        "ledger_entry",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("txn_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("account", sa.String(length=120), nullable=False),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_ledger_entry_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"], ["ledger_txn.id"], name=op.f("fk_ledger_entry_txn_id_ledger_txn")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_ledger_entry")),
    )
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_entry_account", ["account"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_entry_player_id"), ["player_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_entry_txn_id"), ["txn_id"], unique=False)

    op.create_table(
        "match_seat",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("match_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("score", sa.BigInteger(), nullable=True),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_match_seat_match_id_match")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_match_seat_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match_seat")),
        sa.UniqueConstraint("match_id", "seat", name=op.f("uq_match_seat_match_id_seat")),
    )
    with op.batch_alter_table("match_seat", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_match_seat_player_id"), ["player_id"], unique=False)

    op.create_table(
        "move",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("match_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_move_match_id_match")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_move")),
        sa.UniqueConstraint("match_id", "seq", name=op.f("uq_move_match_id_seq")),
    )
    op.create_table(
        "round",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("match_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=True),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("ending", sa.String(length=20), nullable=True),
        sa.Column("multiplier", sa.Integer(), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], name=op.f("fk_round_match_id_match")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_round")),
        sa.UniqueConstraint("match_id", "number", name=op.f("uq_round_match_id_number")),
    )
    op.create_table(
        "wallet",
        sa.Column(
            "player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False
        ),
        sa.Column("balance", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("balance >= 0", name=op.f("ck_wallet_balance_not_negative")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_wallet_player_id_player")
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_wallet")),
    )
    op.create_table(
        "bet",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("round_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("txn_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("payer_seat", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("payee_seat", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("stake", sa.BigInteger(), nullable=False),
        sa.Column("field", sa.String(length=10), nullable=False),
        sa.Column("multiplier", sa.Integer(), nullable=False),
        sa.Column("pips", sa.Integer(), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("shortfall", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount >= 0 AND shortfall >= 0", name=op.f("ck_bet_not_negative")),
        sa.ForeignKeyConstraint(["payee_id"], ["player.id"], name=op.f("fk_bet_payee_id_player")),
        sa.ForeignKeyConstraint(["payer_id"], ["player.id"], name=op.f("fk_bet_payer_id_player")),
        sa.ForeignKeyConstraint(["round_id"], ["round.id"], name=op.f("fk_bet_round_id_round")),
        sa.ForeignKeyConstraint(
            ["txn_id"], ["ledger_txn.id"], name=op.f("fk_bet_txn_id_ledger_txn")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_bet")),
        sa.UniqueConstraint("round_id", "payer_seat", name=op.f("uq_bet_round_id_payer_seat")),
    )
    op.create_table(
        "lewat_payment",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("round_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("txn_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("version", sa.BigInteger(), nullable=False),
        sa.Column("payer_seat", sa.Integer(), nullable=False),
        sa.Column("payer_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("payee_seat", sa.Integer(), nullable=False),
        sa.Column("payee_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("shortfall", sa.BigInteger(), nullable=False),
        sa.CheckConstraint(
            "amount >= 0 AND shortfall >= 0", name=op.f("ck_lewat_payment_not_negative")
        ),
        sa.ForeignKeyConstraint(
            ["payee_id"], ["player.id"], name=op.f("fk_lewat_payment_payee_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["payer_id"], ["player.id"], name=op.f("fk_lewat_payment_payer_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"], ["round.id"], name=op.f("fk_lewat_payment_round_id_round")
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"], ["ledger_txn.id"], name=op.f("fk_lewat_payment_txn_id_ledger_txn")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_lewat_payment")),
        sa.UniqueConstraint(
            "round_id",
            "version",
            "payer_seat",
            name=op.f("uq_lewat_payment_round_id_version_payer_seat"),
        ),
    )


def downgrade() -> None:

    op.drop_table("lewat_payment")
    op.drop_table("bet")
    op.drop_table("wallet")
    op.drop_table("round")
    op.drop_table("move")
    with op.batch_alter_table("match_seat", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_match_seat_player_id"))

    op.drop_table("match_seat")
    with op.batch_alter_table("ledger_entry", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_entry_txn_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_entry_player_id"))
        batch_op.drop_index("ix_ledger_entry_account")

    op.drop_table("ledger_entry")
    op.drop_table("player")
    op.drop_table("match")
    op.drop_table("ledger_txn")
