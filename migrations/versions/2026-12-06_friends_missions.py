"""Friends and daily missions: ``friend`` (each player's friend list) and ``mission_progress``
(a player's count per daily mission and Asia/Jakarta day, with its reward's transaction).

Revision ID: e41a6c0d2b73
Revises: 5b8e3f1a7c26
Create Date: 2026-12-06 20:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "e41a6c0d2b73"
down_revision = "5b8e3f1a7c26"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "friend",
        sa.Column("player_id", BIG_ID, nullable=False),
        sa.Column("friend_id", BIG_ID, nullable=False),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint("player_id <> friend_id", name=op.f("ck_friend_not_self")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_friend_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["friend_id"], ["player.id"], name=op.f("fk_friend_friend_id_player")
        ),
        sa.PrimaryKeyConstraint("player_id", "friend_id", name=op.f("pk_friend")),
    )
    op.create_table(
        "mission_progress",
        sa.Column("player_id", BIG_ID, nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("mission", sa.String(length=20), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("txn_id", BIG_ID, nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_mission_progress_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["txn_id"], ["ledger_txn.id"], name=op.f("fk_mission_progress_txn_id_ledger_txn")
        ),
        sa.PrimaryKeyConstraint("player_id", "day", "mission", name=op.f("pk_mission_progress")),
    )


def downgrade() -> None:
    op.drop_table("mission_progress")
    op.drop_table("friend")
