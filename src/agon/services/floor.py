"""The tournament floor: the round clock and disputed results, journaled like every change.

* **Round clock** (Ludolimpico 1: rounds "della durata di mezz'ora", after which the age being
  played is finished). The director starts it when play begins; it can be paused and resumed.
  Without a limit (Bonn 2018 has none) it counts the time played.
* **Disputes**: a player at a table who finds the entered result wrong says so instead of
  confirming. A dispute belongs to the result's version: once the result is corrected (a new
  version) the old dispute no longer marks the table.

Both go through :func:`~agon.services.core.record` (actions ``clock.start``, ``clock.pause``,
``dispute.open``), so concurrent writers queue on the tournament's lock instead of failing, and
undo, rebuild and verify cover them. Their state lives in two projection tables keyed on the
tournament's slug (``web_round_clocks``, ``web_disputes``), which a replay empties and fills
again (migration ``0003`` put the rows written before into the journal). Payloads hold decisions: the time is the journal entry's, a pause names
whether it pauses or resumes, a dispute's reason is stored as cut.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput
from agon.services.core import (
    Change,
    Ctx,
    get_table_row,
    get_tournament_row,
    handler,
    record,
    utcnow,
)
from agon.store.models import DisputeRow, RoundClockRow

#: Clock limits a director may set, in minutes.
MAX_MINUTES = 600
#: The longest dispute reason kept (longer ones are cut).
MAX_REASON = 500
#: The most results a dispute from a phone's queue may list (a table's seats, with room).
MAX_WANTED = 20


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


@dataclass(frozen=True, slots=True)
class DisputePublic:
    round: int
    table: int
    version: int
    player: str
    reason: str
    at: datetime
    #: A dispute a phone's queued entry became (issue 29): the results it wanted.
    wanted: tuple[dict[str, Any], ...] | None = None


# --- reading ------------------------------------------------------------------------------------


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


def _public(row: DisputeRow) -> DisputePublic:
    return DisputePublic(
        round=row.round,
        table=row.table,
        version=row.version,
        player=row.player,
        reason=row.reason,
        at=row.at,
        wanted=tuple(row.wanted) if isinstance(row.wanted, list) else None,
    )


# --- changing -----------------------------------------------------------------------------------


def _check_minutes(minutes: int | None) -> None:
    if minutes is not None and (
        isinstance(minutes, bool) or not isinstance(minutes, int) or not 1 <= minutes <= MAX_MINUTES
    ):
        raise InvalidInput(
            f"clock: minutes must be 1 to {MAX_MINUTES}, got {minutes!r}",
            msgid=N_("The clock's minutes must be a whole number from 1 to %(max)d."),
            params={"max": MAX_MINUTES},
        )


def _check_round(number: Any) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or number < 1:
        raise InvalidInput(
            f"clock: the round must be a positive whole number, got {number!r}",
            msgid=N_("The clock's round must be a positive whole number."),
        )
    return number


def start_clock(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    minutes: int | None,
    actor: str,
    now: datetime | None = None,
) -> None:
    """(Re)start round ``round_number``'s clock now, with ``minutes`` (``None``: no limit).

    Raises:
        InvalidInput: minutes outside 1..600.
        NotFound: no such tournament.
    """
    _check_minutes(minutes)
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="clock.start",
        payload={"round": _check_round(round_number), "minutes": minutes},
        now=now,
    )


def pause_clock(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    actor: str,
    now: datetime | None = None,
) -> None:
    """Pause a running clock, or resume a paused one (two directors pressing at once: the
    second press finds it done already and changes nothing).

    Raises:
        IllegalAction: the clock has not been started.
    """
    row = session.get(RoundClockRow, (tournament, round_number))
    if row is None:
        raise IllegalAction(
            f"round {round_number}: the clock has not been started",
            msgid=N_("The clock of round %(round)d has not been started."),
            params={"round": round_number},
        )
    pause = row.paused_at is None
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="clock.pause",
        payload={"round": _check_round(round_number), "pause": pause},
        now=now,
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
    actor: str,
    now: datetime | None = None,
) -> DisputePublic:
    """Record that ``player`` disputes version ``version`` of a table's result.

    Raises:
        InvalidInput: no reason given, or the player does not sit at the table.
        NotFound: no such tournament, round or table.
        Conflict: the result is no longer at ``version``.
    """
    reason = reason.strip()
    if not reason:
        raise InvalidInput(
            f"round {round_number}, table {table}: say what is wrong",
            msgid=N_("Round %(round)d, table %(table)d: say what is wrong."),
            params={"round": round_number, "table": table},
        )
    entry = record(
        session,
        tournament=tournament,
        actor=actor,
        action="dispute.open",
        payload={
            "round": round_number,
            "table": table,
            "version": version,
            "player": player,
            "reason": reason[:MAX_REASON],
        },
        now=now,
    )
    return DisputePublic(
        round=round_number,
        table=table,
        version=version,
        player=player,
        reason=reason[:MAX_REASON],
        at=entry.at,
    )


# --- handlers -----------------------------------------------------------------------------------


def _clock_json(row: RoundClockRow | None) -> Any:
    if row is None:
        return None
    return {
        "round": row.round,
        "minutes": row.minutes,
        "started_at": row.started_at.isoformat(),
        "paused_at": row.paused_at and row.paused_at.isoformat(),
    }


@handler("clock.start")
def _start_clock(ctx: Ctx, p: dict[str, Any]) -> Change:
    get_tournament_row(ctx.session, ctx.slug)
    number = _check_round(p.get("round"))
    minutes = p.get("minutes")
    _check_minutes(minutes)
    row = ctx.session.get(RoundClockRow, (ctx.slug, number))
    before = _clock_json(row)
    if row is None:
        row = RoundClockRow(tournament=ctx.slug, round=number, minutes=minutes, started_at=ctx.at)
        ctx.session.add(row)
    else:
        row.minutes, row.started_at, row.paused_at = minutes, ctx.at, None
    ctx.session.flush()
    return Change(before, _clock_json(row))


@handler("clock.pause")
def _pause_clock(ctx: Ctx, p: dict[str, Any]) -> Change:
    get_tournament_row(ctx.session, ctx.slug)
    number = _check_round(p.get("round"))
    pause = p.get("pause")
    if not isinstance(pause, bool):
        raise InvalidInput(
            f"clock: 'pause' must be true or false, got {pause!r}",
            msgid=N_("The clock can only be paused or resumed."),
        )
    row = ctx.session.get(RoundClockRow, (ctx.slug, number))
    if row is None:
        raise IllegalAction(
            f"round {number}: the clock has not been started",
            msgid=N_("The clock of round %(round)d has not been started."),
            params={"round": number},
        )
    before = _clock_json(row)
    if pause and row.paused_at is None:
        row.paused_at = ctx.at
    elif not pause and row.paused_at is not None:
        row.started_at += ctx.at - row.paused_at
        row.paused_at = None
    ctx.session.flush()
    return Change(before, _clock_json(row))


@handler("dispute.open")
def _open_dispute(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    number, table, version = p.get("round"), p.get("table"), p.get("version")
    player, reason, wanted = p.get("player"), p.get("reason"), p.get("wanted")
    if wanted is not None and (
        not isinstance(wanted, list)
        or not 0 < len(wanted) <= MAX_WANTED
        or not all(isinstance(w, dict) and isinstance(w.get("player"), str) for w in wanted)
    ):
        raise InvalidInput(
            f"dispute: 'wanted' must list the results a phone wanted, got {str(wanted)[:80]!r}",
            msgid=N_("A dispute from a phone lists the results it wanted."),
        )
    for label, value in (("round", number), ("table", table), ("version", version)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(
                f"dispute: {label} must be a whole number, got {value!r}",
                msgid=N_("A dispute names its round, table and result version as whole numbers."),
            )
    if not isinstance(player, str) or not isinstance(reason, str) or not reason.strip():
        raise InvalidInput(
            f"round {number}, table {table}: name the player and what is wrong",
            msgid=N_("Name the player and say what is wrong."),
        )
    assert isinstance(number, int) and isinstance(table, int)  # for mypy, checked above
    row = get_table_row(ctx.session, t, number, table)
    place = f"round {number}, table {table}"
    if player not in row.seats and not (wanted is not None and player == ""):
        raise InvalidInput(
            f"{place}: {player!r} does not sit at this table",
            msgid=N_("Round %(round)d, table %(table)d: %(player)s does not sit at this table."),
            params={"round": number, "table": table, "player": player},
        )
    if not row.results or row.state == "confirmed":
        raise IllegalAction(
            f"{place}: there is no unconfirmed result to dispute",
            msgid=N_(
                "Round %(round)d, table %(table)d: there is no unconfirmed result to dispute."
            ),
            params={"round": number, "table": table},
        )
    if version != row.version:
        raise Conflict(
            f"{place}: the result changed meanwhile (you saw version {version}, it is now "
            f"version {row.version}); look at it again",
            msgid=N_("The result changed meanwhile; look at it again before disputing it."),
        )
    dispute_row = DisputeRow(
        tournament=ctx.slug,
        round=number,
        table=table,
        version=version,
        player=player,
        reason=reason[:MAX_REASON],
        at=ctx.at,
        wanted=wanted,
    )
    ctx.session.add(dispute_row)
    ctx.session.flush()
    return Change(None, {"round": number, "table": table, "version": version, "player": player})
