"""A player's chosen avatar: ``player.avatar`` (one of app/services/avatars.py's set; NULL,
as every existing player starts: the default derived from the player's id).

Revision ID: 5b8e3f1a7c26
Revises: 7d1c5e2a9b40
Create Date: 2026-12-06 20:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "5b8e3f1a7c26"
down_revision = "7d1c5e2a9b40"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.add_column(sa.Column("avatar", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("player") as batch:
        batch.drop_column("avatar")
