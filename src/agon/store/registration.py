"""Online registration's tables (issue 27): a tournament's registration settings and its
registrants. Projection tables like the others: keyed on the tournament's slug, filled by the
journal's ``registration.*`` entries and rebuilt from them (:mod:`agon.services.registration`).

A registrant's private link carries a random token; only its SHA-256 is stored here.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from agon.store.models import Base, UTCDateTime


class RegistrationRow(Base):
    """A tournament's online registration: open or closed, its capacity, deadline, fee note and
    how the public list shows names (``full`` or ``initials``)."""

    __tablename__ = "registrations"

    tournament: Mapped[str] = mapped_column(String(64), primary_key=True)
    open: Mapped[bool] = mapped_column(Boolean)
    capacity: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    fee_note: Mapped[str] = mapped_column(Text)
    public_names: Mapped[str] = mapped_column(String(10))


class RegistrantRow(Base):
    """One person who registered online: ``number`` is the order of registration (the waiting
    list's order); ``status`` registered, waiting, withdrawn or checked_in (then ``player`` is the
    name they play under)."""

    __tablename__ = "registrants"
    __table_args__ = (
        UniqueConstraint("tournament", "number"),
        UniqueConstraint("token_hash"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament: Mapped[str] = mapped_column(String(64), index=True)
    number: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(200))
    tag: Mapped[str | None] = mapped_column(String(200), nullable=True)
    email: Mapped[str] = mapped_column(String(254))
    token_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(12))
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime)
    changed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    player: Mapped[str | None] = mapped_column(String(200), nullable=True)
