"""Online play: the per-turn clock's deadline of a game (issue 28; :mod:`agon.play.clocks`).

``play_games.deadline``: when the turn being played times out, for games created with a clock
(``NULL`` otherwise, and once the game is over); indexed, since every server process asks now and
then for the running games whose deadline has passed.

Revision ID: 0013
Revises: 0011
Create Date: 2026-11-28 02:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("play_games", sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    op.create_index(op.f("ix_play_games_deadline"), "play_games", ["deadline"], unique=False)


def downgrade() -> None:
    # Not in batch mode: on SQLite a batch rebuild of ``play_games`` would drop and re-create the
    # table, and the cascade would take every game's stored log with it. SQLite 3.35 and later
    # drop a column in place.
    op.drop_index(op.f("ix_play_games_deadline"), table_name="play_games")
    op.drop_column("play_games", "deadline")
