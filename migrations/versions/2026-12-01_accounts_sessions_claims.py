"""Accounts, refresh sessions and chip claims: players who come back.

Revision ID: b7e31f0c9a26
Revises: 9c2d41b7e5a3
Create Date: 2026-12-01 15:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "b7e31f0c9a26"
down_revision = "9c2d41b7e5a3"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("username", sa.String(length=24), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.String(length=255), nullable=True))
        batch.add_column(
            sa.Column("session_epoch", sa.Integer(), server_default="0", nullable=False)
        )
        batch.create_unique_constraint(op.f("uq_player_username"), ["username"])
    op.create_table(
        "auth_session",
        sa.Column("id", BIG_ID, nullable=False),
        sa.Column("player_id", BIG_ID, nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_auth_session_player_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_auth_session")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_auth_session_token_hash")),
    )
    op.create_index(op.f("ix_auth_session_player_id"), "auth_session", ["player_id"])
    op.create_table(
        "chip_claim",
        sa.Column("player_id", BIG_ID, nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("streak", sa.Integer(), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("txn_id", BIG_ID, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_chip_claim_player_id_player")),
        sa.ForeignKeyConstraint(["txn_id"], ["ledger_txn.id"],
                                name=op.f("fk_chip_claim_txn_id_ledger_txn")),
        sa.PrimaryKeyConstraint("player_id", "kind", "day", "seq", name=op.f("pk_chip_claim")),
    )


def downgrade() -> None:
    op.drop_table("chip_claim")
    op.drop_index(op.f("ix_auth_session_player_id"), table_name="auth_session")
    op.drop_table("auth_session")
    with op.batch_alter_table("player") as batch:
        batch.drop_constraint(op.f("uq_player_username"), type_="unique")
        batch.drop_column("session_epoch")
        batch.drop_column("password_hash")
        batch.drop_column("username")
