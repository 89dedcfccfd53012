"""Online registration before the day (issue 27).

``registrations``: a tournament's registration (open, capacity, deadline, fee note, public names).
``registrants``: who registered online, in order, with their status and the SHA-256 of their
private link's token. Both are projections of the journal's ``registration.*`` entries.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28 01:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "registrations",
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("capacity", sa.Integer(), nullable=False),
        sa.Column("deadline", sa.DateTime(timezone=True), nullable=True),
        sa.Column("fee_note", sa.Text(), nullable=False),
        sa.Column("public_names", sa.String(length=10), nullable=False),
        sa.PrimaryKeyConstraint("tournament", name=op.f("pk_registrations")),
    )
    op.create_table(
        "registrants",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("tag", sa.String(length=200), nullable=True),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("changed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_registrants")),
        sa.UniqueConstraint("tournament", "number", name=op.f("uq_registrants_tournament")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_registrants_token_hash")),
    )
    op.create_index(op.f("ix_registrants_tournament"), "registrants", ["tournament"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_registrants_tournament"), table_name="registrants")
    op.drop_table("registrants")
    op.drop_table("registrations")
