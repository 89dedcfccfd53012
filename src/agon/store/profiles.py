"""Player profiles: one person across the events of this database (:mod:`agon.profiles`).

A profile is not part of any tournament: it is made, renamed and hidden directly, not through a
tournament's journal. What links a tournament's player to a profile is the player's ``profile``
field (the player row's extra data), set by the journaled ``player.profile`` change, so that an
event file carries its links and a replay restores them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, String, false
from sqlalchemy.orm import Mapped, mapped_column

from agon.store.models import Base, UTCDateTime


class ProfileRow(Base):
    """A player profile: its stable id (used in addresses), display name, optional tag (club or
    city) and whether its public page is hidden."""

    __tablename__ = "profiles"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    tag: Mapped[str] = mapped_column(String(100), default="")
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
