"""The journal's public face: list it, undo the last change, rebuild the state, verify it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, IllegalAction
from agon.services import chain
from agon.services.core import (
    as_json,
    check_writable,
    effective_entries,
    entries,
    replay,
    utcnow,
)
from agon.services.schemas import JournalEntryPublic
from agon.store.db import begin_write, lock_tournament
from agon.store.models import DisputeRow, JournalEntry, RoundClockRow, TournamentRow
from agon.store.registration import RegistrantRow, RegistrationRow


def list_journal(session: Session, *, tournament: str) -> list[JournalEntryPublic]:
    """Every entry of the tournament's journal, oldest first, with whether it was undone."""
    journal = entries(session, tournament)
    undone = {e.undoes for e in journal if e.undoes is not None}
    return [
        JournalEntryPublic(
            id=e.id,
            at=e.at,
            actor=e.actor,
            action=e.action,
            payload=dict(e.payload),
            undoes=e.undoes,
            undone=e.id in undone,
        )
        for e in journal
    ]


def undo(
    session: Session, *, tournament: str, actor: str, now: datetime | None = None
) -> JournalEntryPublic:
    """Revert the last change that is not undone; the undo is itself a journal entry.

    Raises:
        IllegalAction: nothing left to undo.
    """
    begin_write(session)
    try:
        _lock(session, tournament)
        check_writable(session, tournament)
        journal = entries(session, tournament)
        effective = effective_entries(journal)
        if not effective:
            raise IllegalAction(
                f"tournament {tournament!r}: nothing to undo", msgid=N_("Nothing to undo.")
            )
        target = effective[-1]
        entry = JournalEntry(
            tournament=tournament,
            at=now or utcnow(),
            actor=actor,
            action="undo",
            payload={"undoes": target.id, "action": target.action},
            before=target.after,
            after=target.before,
            undoes=target.id,
        )
        chain.seal(session, entry)  # appended to the chain: an undo never rewrites an entry
        session.add(entry)
        session.flush()
        replay(session, tournament, [*journal, entry])  # the journal as read, plus the undo
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return JournalEntryPublic(
        id=entry.id,
        at=entry.at,
        actor=entry.actor,
        action=entry.action,
        payload=dict(entry.payload),
        undoes=entry.undoes,
        undone=False,
    )


def _lock(session: Session, tournament: str) -> None:
    """Take the tournament's write lock (see :func:`agon.store.db.lock_tournament`): writers in
    flight finish first, and the undo entry's id comes after every committed entry."""
    lock_tournament(session, tournament)


def rebuild(session: Session, *, tournament: str) -> int:
    """Rebuild the tournament's state from its journal; returns the entries applied."""
    begin_write(session)
    try:
        _lock(session, tournament)
        applied = replay(session, tournament)
        session.commit()
    except BaseException:
        session.rollback()
        raise
    return applied


def tournament_slugs(session: Session) -> list[str]:
    """Every tournament that has a journal (also those whose creation was undone)."""
    return list(
        session.scalars(
            select(JournalEntry.tournament).distinct().order_by(JournalEntry.tournament)
        )
    )


def snapshot(session: Session, *, tournament: str) -> Any:
    """The whole state of a tournament as plain JSON, without surrogate ids (for comparisons)."""
    t = session.scalar(select(TournamentRow).where(TournamentRow.slug == tournament))
    if t is None:
        return None
    state = _snapshot(session, t, tournament)
    online = _registration_snapshot(session, tournament)
    if online is not None:  # only then: the digests of events without one stay as they were
        state["registration"] = online
    return as_json(state)


def _registration_snapshot(session: Session, tournament: str) -> Any:
    """Online registration's settings and registrants (issue 27), or ``None`` without one."""
    settings = session.get(RegistrationRow, tournament)
    if settings is None:
        return None
    people = session.scalars(
        select(RegistrantRow)
        .where(RegistrantRow.tournament == tournament)
        .order_by(RegistrantRow.number)
    )
    return {
        "open": settings.open,
        "capacity": settings.capacity,
        "deadline": settings.deadline and settings.deadline.isoformat(),
        "fee_note": settings.fee_note,
        "public_names": settings.public_names,
        "registrants": [
            [
                r.number,
                r.name,
                r.tag,
                r.email,
                r.token_hash,
                r.status,
                r.registered_at.isoformat(),
                r.changed_at.isoformat(),
                r.player,
            ]
            for r in people
        ],
    }


def _snapshot(session: Session, t: TournamentRow, tournament: str) -> dict[str, Any]:
    return dict(
        {
            "tournament": {
                c: getattr(t, c)
                if not isinstance(getattr(t, c), datetime)
                else getattr(t, c).isoformat()
                for c in (
                    "slug",
                    "name",
                    "ruleset_ref",
                    "ruleset_toml",
                    "seed",
                    "min_players",
                    "max_players",
                    "players_override",
                    "starts_at",
                    "checkin_minutes",
                    "fee_required",
                    "info",
                    "created_at",
                )
            },
            "players": [
                {
                    "name": p.name,
                    "extra": p.extra,
                    "fee_paid": p.fee_paid,
                    "checked_in_at": p.checked_in_at and p.checked_in_at.isoformat(),
                    "late": p.late,
                    "status": p.status,
                    "status_round": p.status_round,
                    "status_reason": p.status_reason,
                    "registered_at": p.registered_at.isoformat(),
                }
                for p in t.players
            ],
            "sanctions": [
                [s.player, s.kind, s.round, s.reason, s.at.isoformat()] for s in t.sanctions
            ],
            "rounds": [
                {
                    "number": r.number,
                    "final": r.final,
                    "status": r.status,
                    "wonders": r.wonders,
                    "guilds": r.guilds,
                    "sides": r.sides,
                    "info": r.info,
                    "started_at": r.started_at.isoformat(),
                    "closed_at": r.closed_at and r.closed_at.isoformat(),
                    "tables": [
                        {
                            "number": tb.number,
                            "seats": tb.seats,
                            "state": tb.state,
                            "version": tb.version,
                            "auction": tb.auction,
                            "results": [
                                [
                                    x.seat,
                                    x.player,
                                    x.vp,
                                    x.coins,
                                    x.bid,
                                    x.wonder,
                                    x.side,
                                    x.breakdown,
                                    x.confirmed,
                                ]
                                for x in tb.results
                            ],
                        }
                        for tb in r.tables
                    ],
                }
                for r in t.rounds
            ],
            "clocks": [
                [
                    c.round,
                    c.minutes,
                    c.started_at.isoformat(),
                    c.paused_at and c.paused_at.isoformat(),
                ]
                for c in session.scalars(
                    select(RoundClockRow)
                    .where(RoundClockRow.tournament == tournament)
                    .order_by(RoundClockRow.round)
                )
            ],
            "disputes": [
                [d.round, d.table, d.version, d.player, d.reason, d.at.isoformat()]
                for d in session.scalars(
                    select(DisputeRow)
                    .where(DisputeRow.tournament == tournament)
                    .order_by(DisputeRow.id)
                )
            ],
        }
    )


def verify(session: Session, *, tournament: str) -> bool:
    """Does the stored state equal the state rebuilt from the journal? Changes nothing."""
    begin_write(session)
    try:
        _lock(session, tournament)  # no change may land between the two snapshots
        live = snapshot(session, tournament=tournament)
        replay(session, tournament)
        session.expire_all()
        rebuilt = snapshot(session, tournament=tournament)
    finally:
        session.rollback()
    return bool(live == rebuilt)
