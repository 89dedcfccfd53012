"""The tournament floor as the web app uses it: the round clock and disputed tables.

A thin face over :mod:`agon.services.floor`, where both are journaled changes (so concurrent
presses queue instead of failing, and undo, rebuild and verify cover them). The web app's callers
that have no actor of their own (the demo) are recorded as the director.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from agon.services import floor as service
from agon.services.floor import MAX_MINUTES, ClockPublic, DisputePublic, clock, disputes

__all__ = [
    "MAX_MINUTES",
    "ClockPublic",
    "DisputePublic",
    "clock",
    "dispute",
    "disputes",
    "pause_clock",
    "start_clock",
]

#: Who a clock change is recorded as when the caller names nobody.
DIRECTOR = "director"


def start_clock(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    minutes: int | None,
    actor: str = DIRECTOR,
    now: datetime | None = None,
) -> None:
    """(Re)start round ``round_number``'s clock now, with ``minutes`` (``None``: no limit)."""
    service.start_clock(
        session,
        tournament=tournament,
        round_number=round_number,
        minutes=minutes,
        actor=actor,
        now=now,
    )


def pause_clock(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    actor: str = DIRECTOR,
    now: datetime | None = None,
) -> None:
    """Pause a running clock, or resume a paused one."""
    service.pause_clock(
        session, tournament=tournament, round_number=round_number, actor=actor, now=now
    )


def dispute(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    table: int,
    version: int,
    player: str,
    reason: str,
    now: datetime | None = None,
) -> DisputePublic:
    """Record that ``player`` (at the table, on their phone) disputes version ``version``."""
    return service.dispute(
        session,
        tournament=tournament,
        round_number=round_number,
        table=table,
        version=version,
        player=player,
        reason=reason,
        actor=f"{player} (phone, table {table})",
        now=now,
    )
