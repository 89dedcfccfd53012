"""Tables of people (issue 27): accounts, organisations, roles, one-time links, sessions.

Kept apart from :mod:`agon.store.models` (the tournaments' tables); imported at the end of it, so
``Base.metadata`` is complete wherever the models are. Times are seconds since the epoch.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, ForeignKey, Integer, String, false
from sqlalchemy.orm import Mapped, mapped_column

from agon.store.models import Base


class AccountRow(Base):
    """A person who logs in: e-mail (lower-cased, unique), name (shown in the journal), the
    Argon2id hash of the password (none until one is set), whether the server's admin."""

    __tablename__ = "people_accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    admin: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[int] = mapped_column(BigInteger)


class OrganisationRow(Base):
    """A club or a federation: its tournaments and organisers."""

    __tablename__ = "people_organisations"

    slug: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(120))


class GrantRow(Base):
    """One role of an account: per organisation (organiser) or per tournament (director, referee,
    scorekeeper); one role per account and place (a new grant replaces the old one)."""

    __tablename__ = "people_grants"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("people_accounts.id", ondelete="CASCADE"), primary_key=True
    )
    scope: Mapped[str] = mapped_column(String(16), primary_key=True)
    target: Mapped[str] = mapped_column(String(64), primary_key=True)
    role: Mapped[str] = mapped_column(String(16))


class TournamentOrganisationRow(Base):
    """Which organisation a tournament belongs to (a tournament without a row belongs to none)."""

    __tablename__ = "people_tournaments"

    tournament: Mapped[str] = mapped_column(String(64), primary_key=True)
    organisation: Mapped[str] = mapped_column(
        ForeignKey("people_organisations.slug", ondelete="CASCADE"), index=True
    )


class PersonLinkRow(Base):
    """A one-time link: an invitation to a role (``kind`` "invite": e-mail, scope, target, role)
    or a password reset (``kind`` "reset": the account). Only the SHA-256 of its token is kept."""

    __tablename__ = "people_links"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    email: Mapped[str] = mapped_column(String(254))
    scope: Mapped[str | None] = mapped_column(String(16), nullable=True)
    target: Mapped[str | None] = mapped_column(String(64), nullable=True)
    role: Mapped[str | None] = mapped_column(String(16), nullable=True)
    invited_by: Mapped[str | None] = mapped_column(String(80), nullable=True)
    expires_at: Mapped[int] = mapped_column(BigInteger)
    used_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class PersonSessionRow(Base):
    """An open login of an account (the SHA-256 of the id in the signed cookie): closed on
    logout, on a new password and by ``agon secret rotate``."""

    __tablename__ = "people_sessions"

    id_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("people_accounts.id", ondelete="CASCADE"), index=True
    )
    expires_at: Mapped[int] = mapped_column(BigInteger, index=True)
