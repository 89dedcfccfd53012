"""People and roles (issue 27): accounts, organisations, roles, one-time links, sessions.

``people_accounts``: e-mail, name, Argon2id hash, admin flag. ``people_organisations``: clubs and
federations. ``people_grants``: one role per account and organisation or tournament.
``people_tournaments``: a tournament's organisation. ``people_links``: the SHA-256 of one-time
invitation and password-reset links. ``people_sessions``: open logins (hashes), revocable.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28 01:50:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "people_accounts",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("admin", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_people_accounts")),
        sa.UniqueConstraint("email", name=op.f("uq_people_accounts_email")),
    )
    op.create_table(
        "people_organisations",
        sa.Column("slug", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=120), nullable=False),
        sa.PrimaryKeyConstraint("slug", name=op.f("pk_people_organisations")),
    )
    op.create_table(
        "people_grants",
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=False),
        sa.Column("target", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["people_accounts.id"],
            name=op.f("fk_people_grants_account_id_people_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("account_id", "scope", "target", name=op.f("pk_people_grants")),
    )
    op.create_table(
        "people_tournaments",
        sa.Column("tournament", sa.String(length=64), nullable=False),
        sa.Column("organisation", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["organisation"],
            ["people_organisations.slug"],
            name=op.f("fk_people_tournaments_organisation_people_organisations"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament", name=op.f("pk_people_tournaments")),
    )
    op.create_index(
        op.f("ix_people_tournaments_organisation"),
        "people_tournaments",
        ["organisation"],
        unique=False,
    )
    op.create_table(
        "people_links",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("kind", sa.String(length=8), nullable=False),
        sa.Column("email", sa.String(length=254), nullable=False),
        sa.Column("scope", sa.String(length=16), nullable=True),
        sa.Column("target", sa.String(length=64), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=True),
        sa.Column("invited_by", sa.String(length=80), nullable=True),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.Column("used_at", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_people_links")),
    )
    op.create_table(
        "people_sessions",
        sa.Column("id_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("expires_at", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["people_accounts.id"],
            name=op.f("fk_people_sessions_account_id_people_accounts"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id_hash", name=op.f("pk_people_sessions")),
    )
    op.create_index(
        op.f("ix_people_sessions_account_id"), "people_sessions", ["account_id"], unique=False
    )
    op.create_index(
        op.f("ix_people_sessions_expires_at"), "people_sessions", ["expires_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_people_sessions_expires_at"), table_name="people_sessions")
    op.drop_index(op.f("ix_people_sessions_account_id"), table_name="people_sessions")
    op.drop_table("people_sessions")
    op.drop_table("people_links")
    op.drop_index(op.f("ix_people_tournaments_organisation"), table_name="people_tournaments")
    op.drop_table("people_tournaments")
    op.drop_table("people_grants")
    op.drop_table("people_organisations")
    op.drop_table("people_accounts")
