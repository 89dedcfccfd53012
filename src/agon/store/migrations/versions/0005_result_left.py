"""A result may record that its player left during the game (Ludolimpico 2.5).

``results.left`` is true for a player who withdrew or was expelled mid-game: he has no score for
that game (VP and coins 0, no breakdown, no side) and the table is scored without him. Existing
results are complete games: false.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-23 03:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "results",
        sa.Column("left", sa.Boolean(), nullable=False, server_default=sa.false()),
    )


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_column("left")
