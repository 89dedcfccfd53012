"""The web's limits shared by every server process and kept across restarts, and one-time
director login links (issue 26).

``web_attempts``: a counter per kind (login, pin, pin-address, code, play) and key (a hash of the
client address and what it tried) for the window that ends at ``expires_at`` (epoch seconds).
``web_login_links``: the SHA-256 of a link's token, its expiry and its use (``agon desk link``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27 23:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "web_attempts",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("count", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("kind", "key", name=op.f("pk_web_attempts")),
    )
    op.create_index(
        op.f("ix_web_attempts_expires_at"), "web_attempts", ["expires_at"], unique=False
    )
    op.create_table(
        "web_login_links",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("used_at", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_web_login_links")),
    )


def downgrade() -> None:
    op.drop_table("web_login_links")
    op.drop_index(op.f("ix_web_attempts_expires_at"), table_name="web_attempts")
    op.drop_table("web_attempts")
