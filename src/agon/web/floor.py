"""The tournament floor: the round clock and disputed tables.

Both are state the web app adds on top of the journal-backed service layer, in two tables of its
own (``web_round_clocks``, ``web_disputes``: models in :mod:`agon.store.models`, created by the
migration ``0002``; they are not part of the journal, so ``undo`` does not touch them).

* **Round clock** (Ludolimpico 1: rounds "della durata di mezz'ora", after which the age being
  played is finished). The director starts it when play begins; it can be paused and resumed.
  Without a limit (Bonn 2018 has none) it counts the time played.
* **Disputes**: a player at a table who finds the entered result wrong says so instead of
  confirming. A dispute belongs to the result's version: once the result is corrected (a new
  version) the old dispute no longer marks the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import IllegalAction, InvalidInput
from agon.services.core import utcnow
from agon.store.models import DisputeRow, RoundClockRow

#: Clock limits a director may set, in minutes.
MAX_MINUTES = 600


@dataclass(frozen=True, slots=True)
class ClockPublic:
    """A round's clock at ``now``; ``state`` is ``stopped``, ``running``, ``paused`` or ``over``."""

    round: int
    state: str
    minutes: int | None
    started_at: datetime | None
    ends_at: datetime | None
    elapsed_seconds: int
    remaining_seconds: int | None


def clock(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    default_minutes: int | None,
    now: datetime | None = None,
) -> ClockPublic:
    """The clock of round ``round_number`` (``stopped`` with the default limit if never started)."""
    now = now or utcnow()
    row = session.get(RoundClockRow, (tournament, round_number))
    if row is None:
        return ClockPublic(
            round=round_number,
            state="stopped",
            minutes=default_minutes,
            started_at=None,
            ends_at=None,
            elapsed_seconds=0,
            remaining_seconds=None if default_minutes is None else default_minutes * 60,
        )
    until = row.paused_at or now
    elapsed = max(0, int((until - row.started_at).total_seconds()))
    remaining = None if row.minutes is None else max(0, row.minutes * 60 - elapsed)
    if row.paused_at is not None:
        state = "paused"
    elif remaining == 0:
        state = "over"
    else:
        state = "running"
    ends_at = None
    if row.minutes is not None and row.paused_at is None:
        ends_at = row.started_at + timedelta(minutes=row.minutes)
    return ClockPublic(
        round=round_number,
        state=state,
        minutes=row.minutes,
        started_at=row.started_at,
        ends_at=ends_at,
        elapsed_seconds=elapsed,
        remaining_seconds=remaining,
    )


def _check_minutes(minutes: int | None) -> None:
    if minutes is not None and not 1 <= minutes <= MAX_MINUTES:
        raise InvalidInput(f"clock: minutes must be 1 to {MAX_MINUTES}, got {minutes}")


def start_clock(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    minutes: int | None,
    now: datetime | None = None,
) -> None:
    """(Re)start round ``round_number``'s clock now, with ``minutes`` (``None``: no limit).

    Raises:
        InvalidInput: minutes outside 1..600.
    """
    _check_minutes(minutes)
    now = now or utcnow()
    row = session.get(RoundClockRow, (tournament, round_number))
    if row is None:
        session.add(
            RoundClockRow(
                tournament=tournament, round=round_number, minutes=minutes, started_at=now
            )
        )
    else:
        row.minutes, row.started_at, row.paused_at = minutes, now, None
    session.commit()


def pause_clock(
    session: Session, *, tournament: str, round_number: int, now: datetime | None = None
) -> None:
    """Pause a running clock, or resume a paused one.

    Raises:
        IllegalAction: the clock has not been started.
    """
    now = now or utcnow()
    row = session.get(RoundClockRow, (tournament, round_number))
    if row is None:
        raise IllegalAction(f"round {round_number}: the clock has not been started")
    if row.paused_at is None:
        row.paused_at = now
    else:
        row.started_at += now - row.paused_at
        row.paused_at = None
    session.commit()


@dataclass(frozen=True, slots=True)
class DisputePublic:
    round: int
    table: int
    version: int
    player: str
    reason: str
    at: datetime


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
    """Record that ``player`` disputes version ``version`` of a table's result.

    The caller has checked that the player sits at the table and that the version is current.

    Raises:
        InvalidInput: no reason given.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidInput(f"round {round_number}, table {table}: say what is wrong")
    row = DisputeRow(
        tournament=tournament,
        round=round_number,
        table=table,
        version=version,
        player=player,
        reason=reason[:500],
        at=now or utcnow(),
    )
    session.add(row)
    session.commit()
    return _public(row)


def _public(row: DisputeRow) -> DisputePublic:
    return DisputePublic(
        round=row.round,
        table=row.table,
        version=row.version,
        player=row.player,
        reason=row.reason,
        at=row.at,
    )


def disputes(
    session: Session, *, tournament: str, round_number: int, versions: dict[int, int]
) -> dict[int, list[DisputePublic]]:
    """The disputes of the round's tables that concern their current version (``versions``:
    table number -> current version)."""
    rows = session.scalars(
        select(DisputeRow)
        .where(DisputeRow.tournament == tournament, DisputeRow.round == round_number)
        .order_by(DisputeRow.id)
    )
    out: dict[int, list[DisputePublic]] = {}
    for row in rows:
        if versions.get(row.table) == row.version:
            out.setdefault(row.table, []).append(_public(row))
    return out
