"""Roles, bans and the operators' log: ``player.role`` (``player`` | ``admin``),
``player.banned_at`` / ``player.ban_reason``, and ``admin_action`` (who did what to whom, why
and when; docs/operations/console.md).

Revision ID: 3a6d2f9c8b14
Revises: 5e9a7c3d1f20
Create Date: 2026-12-01 16:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "3a6d2f9c8b14"
down_revision = "5e9a7c3d1f20"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(
            sa.Column("role", sa.String(length=10), server_default="player", nullable=False)
        )
        batch.add_column(sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("ban_reason", sa.String(length=200), nullable=True))
    op.create_table(
        "admin_action",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("admin_id", BIG_ID, nullable=True),
        sa.Column("action", sa.String(length=30), nullable=False),
        sa.Column("target", sa.String(length=120), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=True),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), server_default=sa.func.now(),
                  nullable=False),
        sa.ForeignKeyConstraint(["admin_id"], ["player.id"],
                                name=op.f("fk_admin_action_admin_id_player")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_admin_action")),
    )
    op.create_index("ix_admin_action_created_at", "admin_action", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_admin_action_created_at", table_name="admin_action")
    op.drop_table("admin_action")
    with op.batch_alter_table("player") as batch:
        batch.drop_column("ban_reason")
        batch.drop_column("banned_at")
        batch.drop_column("role")
