"""The tournament floor of the web app: round clocks and disputed results.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 03:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_round_clocks",
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("minutes", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("paused_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("tournament", "round", name=op.f("pk_web_round_clocks")),
    )
    op.create_table(
        "web_disputes",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_web_disputes")),
    )
    with op.batch_alter_table("web_disputes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_web_disputes_tournament"), ["tournament"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("web_disputes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_web_disputes_tournament"))
    op.drop_table("web_disputes")
    op.drop_table("web_round_clocks")
