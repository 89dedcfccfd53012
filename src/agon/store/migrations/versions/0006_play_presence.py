"""Online play: which seats have a client connected (an open event stream), and since when.

One row per game and seat that ever connected: ``streams`` open now (over every server process),
``since`` when the seat last became connected or disconnected, ``seen_at`` the last sign of life
of an open stream (its keep-alive): a stream whose process died stops counting once it is stale.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 06:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_presence",
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("streams", sa.Integer(), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seen_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["play_games.id"],
            name=op.f("fk_play_presence_game_id_play_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_play_presence")),
    )


def downgrade() -> None:
    op.drop_table("play_presence")
