"""Offline phones (issue 29): idempotency keys, and what a phone's queued entry wanted.

``request_keys``: one row per idempotency key a phone or an API client sent with a change — the
journal entry it made and the answer it got (the same key again gets that answer, nothing new is
written). ``web_disputes.wanted``: the results a phone's queued entry wanted when the table's
result had changed meanwhile and the entry became a dispute (``NULL`` for a player's dispute).

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "request_keys",
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("scope", sa.String(length=200), nullable=False),
        sa.Column("entry", sa.Integer(), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key", name=op.f("pk_request_keys")),
    )
    op.create_index(
        op.f("ix_request_keys_tournament"), "request_keys", ["tournament"], unique=False
    )
    op.add_column("web_disputes", sa.Column("wanted", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.drop_column("web_disputes", "wanted")
    op.drop_index(op.f("ix_request_keys_tournament"), table_name="request_keys")
    op.drop_table("request_keys")
