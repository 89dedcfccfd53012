"""Online play (issue 12): games and their action logs.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 03:10:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "play_games",
        sa.Column("id", sa.String(length=40), nullable=False),
        sa.Column("game", sa.String(length=8), nullable=False),
        sa.Column("variant", sa.String(length=20), nullable=False),
        sa.Column("seed", sa.String(length=200), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("over", sa.Boolean(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("scores", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_games")),
    )
    with op.batch_alter_table("play_games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_play_games_over"), ["over"], unique=False)
    op.create_table(
        "play_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("game_id", sa.String(length=40), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(length=200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["play_games.id"],
            name=op.f("fk_play_actions_game_id_play_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_play_actions")),
        sa.UniqueConstraint("game_id", "seq", name=op.f("uq_play_actions_game_id")),
    )


def downgrade() -> None:
    op.drop_table("play_actions")
    with op.batch_alter_table("play_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_play_games_over"))
    op.drop_table("play_games")
