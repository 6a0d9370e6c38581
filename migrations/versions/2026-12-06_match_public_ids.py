"""Match ids for URLs: ``match.public_id`` (random, unique; ``GET /api/matches/{id}`` takes it,
so sequential ids can no longer be walked) and ``match.private`` (played at a private table:
readable by its players and operators only).

Matches stored before get a random public id each, in batches. Whether their table was private
was never recorded, so they count as public (``private`` false); their new ids cannot be
guessed from the old ones.

Revision ID: 7d1c5e2a9b40
Revises: 3a6d2f9c8b14
Create Date: 2026-12-06 10:00:00
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "7d1c5e2a9b40"
down_revision = "3a6d2f9c8b14"
branch_labels = None
depends_on = None

BATCH = 5_000


def upgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.add_column(sa.Column("public_id", sa.String(length=24), nullable=True))
        batch.add_column(
            sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    match = sa.table("match", sa.column("id", sa.BigInteger), sa.column("public_id", sa.String))
    bind = op.get_bind()
    while (
        ids := bind.execute(sa.select(match.c.id).where(match.c.public_id.is_(None)).limit(BATCH))
        .scalars()
        .all()
    ):
        bind.execute(
            match.update().where(match.c.id == sa.bindparam("row")),
            [{"row": i, "public_id": secrets.token_urlsafe(12)} for i in ids],
        )
    with op.batch_alter_table("match") as batch:
        batch.alter_column("public_id", existing_type=sa.String(length=24), nullable=False)
        batch.create_unique_constraint(op.f("uq_match_public_id"), ["public_id"])


def downgrade() -> None:
    with op.batch_alter_table("match") as batch:
        batch.drop_constraint(op.f("uq_match_public_id"), type_="unique")
        batch.drop_column("private")
        batch.drop_column("public_id")
