"""Player statistics: running totals per player, game and week (and all time).

Revision ID: 5e9a7c3d1f20
Revises: b7e31f0c9a26
Create Date: 2026-12-01 16:00:00

Only records written from now on are counted: the totals are kept by the records writer
(app/services/stats_write.py), and matches stored before this revision are not added up.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "5e9a7c3d1f20"
down_revision = "b7e31f0c9a26"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "player_stat",
        sa.Column("player_id", BIG_ID, nullable=False),
        sa.Column("game", sa.String(length=20), nullable=False),
        sa.Column("period", sa.String(length=10), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("score_sum", sa.BigInteger(), nullable=False),
        sa.Column("chips_won", sa.BigInteger(), nullable=False),
        sa.Column("chips_lost", sa.BigInteger(), nullable=False),
        sa.Column("best_multiplier", sa.Integer(), nullable=False),
        sa.Column("biggest_pot", sa.BigInteger(), nullable=False),
        sa.Column("contracts_bid", sa.Integer(), nullable=False),
        sa.Column("contracts_made", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name=op.f("fk_player_stat_player_id_player")),
        sa.PrimaryKeyConstraint("player_id", "game", "period", name=op.f("pk_player_stat")),
    )
    op.create_index("ix_player_stat_board", "player_stat", ["game", "period"])


def downgrade() -> None:
    op.drop_index("ix_player_stat_board", table_name="player_stat")
    op.drop_table("player_stat")
