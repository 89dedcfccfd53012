"""The sync to a hosted agon (issue 29): sync tokens and the synced copies' mark.

``sync_tokens``: a token issued for one organisation (only its SHA-256 is kept), its label, when it
was made, revoked and last used. ``sync_tournaments``: the tournaments that are synced copies (a
laptop's event pushed here), with their organisation and the token of their first push; an edit
to such a tournament is refused, except the sync's own. No existing table changes.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 05:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sync_tokens",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("revoked_at", sa.BigInteger(), nullable=True),
        sa.Column("used_at", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["organisation"],
            ["people_organisations.slug"],
            name=op.f("fk_sync_tokens_organisation_people_organisations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_sync_tokens")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_sync_tokens_token_hash")),
    )
    op.create_index(
        op.f("ix_sync_tokens_organisation"), "sync_tokens", ["organisation"], unique=False
    )
    op.create_table(
        "sync_tournaments",
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column("first_at", sa.BigInteger(), nullable=False),
        sa.Column("last_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["organisation"],
            ["people_organisations.slug"],
            name=op.f("fk_sync_tournaments_organisation_people_organisations"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["token_id"],
            ["sync_tokens.id"],
            name=op.f("fk_sync_tournaments_token_id_sync_tokens"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("tournament", name=op.f("pk_sync_tournaments")),
    )
    op.create_index(
        op.f("ix_sync_tournaments_organisation"),
        "sync_tournaments",
        ["organisation"],
        unique=False,
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_sync_tournaments_organisation"), table_name="sync_tournaments")
    op.drop_table("sync_tournaments")
    op.drop_index(op.f("ix_sync_tokens_organisation"), table_name="sync_tokens")
    op.drop_table("sync_tokens")
