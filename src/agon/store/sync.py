"""Tables of the sync to a hosted agon (issue 29): the organisers' sync tokens and the synced copies.

A sync token lets a laptop push one organisation's events to this (the hosted) database; only the
SHA-256 of the token is kept. A synced copy is a tournament whose journal comes from a laptop: it
is kept apart from the projection (which a replay drops and builds again), so a tournament stays
a read-only copy through every rebuild. Times are seconds since the epoch.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from agon.store.models import Base


class SyncTokenRow(Base):
    """A token issued to an organiser: for one organisation, with a label, revocable."""

    __tablename__ = "sync_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    organisation: Mapped[str] = mapped_column(
        ForeignKey("people_organisations.slug", ondelete="CASCADE"), index=True
    )
    label: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[int] = mapped_column(BigInteger)
    revoked_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    used_at: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class SyncedTournamentRow(Base):
    """A tournament that is a synced copy: its origin (the organisation, the token of its first
    push) and when it was last pushed to. Its edits are refused here, except the sync's own."""

    __tablename__ = "sync_tournaments"

    tournament: Mapped[str] = mapped_column(String(64), primary_key=True)
    organisation: Mapped[str] = mapped_column(
        ForeignKey("people_organisations.slug", ondelete="CASCADE"), index=True
    )
    token_id: Mapped[int | None] = mapped_column(
        ForeignKey("sync_tokens.id", ondelete="SET NULL"), nullable=True
    )
    first_at: Mapped[int] = mapped_column(BigInteger)
    last_at: Mapped[int] = mapped_column(BigInteger)
