"""Pending buy-ins: a wallet's debit is seated or refunded exactly once, whatever dies when.

Revision ID: 9c2d41b7e5a3
Revises: 4f8b08a8c07e
Create Date: 2026-12-01 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "9c2d41b7e5a3"
down_revision = "4f8b08a8c07e"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "buy_in",
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("player_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
                  nullable=False),
        sa.Column("table_id", sa.String(length=64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
        sa.Column("resolved_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_buy_in_player_id_player")),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_buy_in")),
    )
    op.create_index("ix_buy_in_pending", "buy_in", ["status", "created_at"])


def downgrade() -> None:
    op.drop_index("ix_buy_in_pending", table_name="buy_in")
    op.drop_table("buy_in")
