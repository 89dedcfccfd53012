"""Online play: the per-turn clock's deadline of a game (issue 28; :mod:`agon.play.clocks`).

``play_games.deadline``: when the turn being played times out, for games created with a clock
(``NULL`` otherwise, and once the game is over); indexed, since every server process asks now and
then for the running games whose deadline has passed.

Revision ID: 0013
Revises: 0008
Create Date: 2026-11-28 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("play_games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_play_games_deadline"), ["deadline"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("play_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_play_games_deadline"))
        batch_op.drop_column("deadline")
