"""Player profiles across events (issue 27, "Players across events").

``profiles``: a profile's stable id (its address), display name, optional tag and whether its
public page is hidden. A tournament's player is linked to a profile by its ``profile`` field in the
player's extra data (journaled as ``player.profile``), so no other table changes.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 01:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "profiles",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("tag", sa.String(length=100), nullable=False),
        sa.Column("hidden", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_profiles")),
    )


def downgrade() -> None:
    op.drop_table("profiles")
