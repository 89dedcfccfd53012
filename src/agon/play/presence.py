"""Which seats of an online game have a client connected, and since when (issue 12).

A seat is *connected* while at least one event stream of it (``GET /api/play/{id}/events`` with
its token: the seat's page open in a browser) is open, in any server process: each process counts
its streams up and down in the database (``play_presence``). An open stream renews its row at
every keep-alive; a row not renewed for :data:`STALE_SECONDS` (its process died without closing
the stream) no longer counts, and the seat is disconnected since that last renewal.

This is what a tournament director's "a bot takes the seat of a player away longer than …
minutes" measures: the real time since the seat's last client went away (or since the game
began, for a seat nobody ever opened). The spectator's streams are not counted, and only the
games of tournament tables are tracked (:func:`tracked`): a casual game costs no writes.

Every function takes the time ``now`` from its caller: the server passes its clock, tests drive
it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from agon.store.db import begin_write
from agon.store.models import PlayPresenceRow

#: An open stream renews its seat's row at least this often (the event stream's keep-alive is
#: 15 s); after this long without renewal the row counts as disconnected.
STALE_SECONDS = 45.0


def tracked(meta: Mapping[str, Any] | None) -> bool:
    """Whether a game's seats are tracked: a tournament table's game (its ``meta`` names the
    table, see :mod:`agon.services.online_host`)."""
    return bool(meta and meta.get("tournament_table"))


@dataclass(frozen=True, slots=True)
class SeatPresence:
    """A seat's connection: ``connected`` now, ``since`` when it became so (``None``: never
    connected)."""

    seat: int
    connected: bool
    since: datetime | None


def opened(session: Session, game_id: str, seat: int, now: datetime) -> None:
    """A stream of the seat opened (commits)."""
    for _attempt in range(3):
        begin_write(session)
        row = session.get(PlayPresenceRow, (game_id, seat))
        if row is None:
            session.add(
                PlayPresenceRow(game_id=game_id, seat=seat, streams=1, since=now, seen_at=now)
            )
        else:
            live = row.streams > 0 and not _stale(row, now)
            row.since = row.since if live else now
            row.streams = (row.streams if live else 0) + 1
            row.seen_at = now
        try:
            session.commit()
            return
        except IntegrityError:  # another process inserted the row first: update it
            session.rollback()


def closed(session: Session, game_id: str, seat: int, now: datetime) -> None:
    """A stream of the seat closed (commits); the last one makes it disconnected since ``now``."""
    begin_write(session)
    row = session.get(PlayPresenceRow, (game_id, seat))
    if row is not None:
        row.streams = max(0, row.streams - 1)
        if row.streams == 0:
            row.since = now
        row.seen_at = now
    session.commit()


def renewed(session: Session, game_id: str, seat: int, now: datetime) -> None:
    """An open stream of the seat is alive (its keep-alive; commits)."""
    begin_write(session)
    session.execute(
        update(PlayPresenceRow)
        .where(
            PlayPresenceRow.game_id == game_id,
            PlayPresenceRow.seat == seat,
            PlayPresenceRow.streams > 0,
        )
        .values(seen_at=now)
    )
    session.commit()


def _stale(row: PlayPresenceRow, now: datetime) -> bool:
    return now - row.seen_at > timedelta(seconds=STALE_SECONDS)


def _presence(row: PlayPresenceRow | None, seat: int, now: datetime) -> SeatPresence:
    if row is None:
        return SeatPresence(seat, False, None)
    if row.streams > 0 and not _stale(row, now):
        return SeatPresence(seat, True, row.since)
    # gone: since the last stream closed, or since the last sign of life of a dead one
    return SeatPresence(seat, False, row.since if row.streams == 0 else row.seen_at)


def presence(session: Session, game_id: str, seats: int, now: datetime) -> list[SeatPresence]:
    """Every seat's connection, in seat order."""
    rows = {
        r.seat: r
        for r in session.scalars(select(PlayPresenceRow).where(PlayPresenceRow.game_id == game_id))
    }
    return [_presence(rows.get(k), k, now) for k in range(seats)]


def seat_presence(session: Session, game_id: str, seat: int, now: datetime) -> SeatPresence:
    """One seat's connection."""
    return _presence(session.get(PlayPresenceRow, (game_id, seat)), seat, now)
