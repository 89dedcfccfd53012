"""Online registration before the day: open and close it, register, withdraw, check in at the venue.

Every change is a journal entry (``registration.open``, ``.close``, ``.register``, ``.withdraw``,
``.checkin``), so it is undone and rebuilt like any other; the entry is applied under the
tournament's lock, so two people racing for the last place never both get it. The rules
(capacity, the waiting list's order, the deadline) are :mod:`agon.tournament.registration`.

A registrant's private link carries a random token that is shown once; the journal and the tables
keep its SHA-256 only. Check-in registers the registrant as a player and checks them in, in one
entry (the players' own rules apply: the maximum, names told apart, the fee).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, func, select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput, NotFound
from agon.services import players
from agon.services.core import Change, Ctx, get_tournament_row, handler, record, utcnow
from agon.services.schemas import PlayerCreate, PlayerPublic
from agon.store.models import PlayerRow
from agon.store.registration import RegistrantRow, RegistrationRow
from agon.tournament import registration as rules
from agon.tournament.limits import check_number
from agon.tournament.names import check_name, check_text

#: Who the journal names for a change made by a registrant on the public pages.
PUBLIC_ACTOR = "online registration"
FEE_NOTE_MAX = 500


@dataclass(frozen=True, slots=True)
class RegistrationPublic:
    """A tournament's registration as everyone may see it; ``accepting``: open and before the
    deadline now."""

    tournament: str
    open: bool
    accepting: bool
    capacity: int
    deadline: datetime | None
    fee_note: str
    public_names: str
    taken: int
    waiting: int


@dataclass(frozen=True, slots=True)
class Registrant:
    """One registrant as the desk and the registrant see them (the e-mail is not public)."""

    number: int
    name: str
    tag: str | None
    email: str
    status: str
    position: int | None
    player: str | None
    registered_at: datetime


@dataclass(frozen=True, slots=True)
class PublicEntry:
    """One line of the public list: the name as the tournament shows it, no e-mail."""

    name: str
    status: str
    position: int | None


@dataclass(frozen=True, slots=True)
class Registered:
    """A new registration and its private token (shown once, never stored)."""

    registrant: Registrant
    token: str


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# --- reads --------------------------------------------------------------------------------------


def _settings_row(session: Session, slug: str) -> RegistrationRow:
    row = session.get(RegistrationRow, slug)
    if row is None:
        get_tournament_row(session, slug)  # NotFound for an unknown tournament first
        raise NotFound(
            f"tournament {slug!r}: online registration has not been opened",
            msgid=N_("This tournament has no online registration."),
        )
    return row


def _rows(session: Session, slug: str) -> list[RegistrantRow]:
    return list(
        session.scalars(
            select(RegistrantRow)
            .where(RegistrantRow.tournament == slug)
            .order_by(RegistrantRow.number)
        )
    )


def _entries(rows: Sequence[RegistrantRow]) -> list[rules.Entry]:
    return [rules.Entry(r.number, r.status) for r in rows]  # type: ignore[arg-type]


def _registrant(row: RegistrantRow, entries: Sequence[rules.Entry]) -> Registrant:
    return Registrant(
        number=row.number,
        name=row.name,
        tag=row.tag,
        email=row.email,
        status=row.status,
        position=rules.waiting_position(entries, row.number),
        player=row.player,
        registered_at=row.registered_at,
    )


def get_registration(
    session: Session, *, tournament: str, now: datetime | None = None
) -> RegistrationPublic:
    """The tournament's registration.

    Raises:
        NotFound: no such tournament, or registration was never opened.
    """
    row = _settings_row(session, tournament)
    entries = _entries(_rows(session, tournament))
    try:
        rules.check_open(is_open=row.open, deadline=row.deadline, now=now or utcnow())
        accepting = True
    except IllegalAction:
        accepting = False
    return RegistrationPublic(
        tournament=tournament,
        open=row.open,
        accepting=accepting,
        capacity=row.capacity,
        deadline=row.deadline,
        fee_note=row.fee_note,
        public_names=row.public_names,
        taken=rules.places_taken(entries),
        waiting=sum(1 for e in entries if e.status == "waiting"),
    )


def list_registrants(session: Session, *, tournament: str) -> list[Registrant]:
    """Everyone who registered online, in order, with their e-mail (the desk's list)."""
    _settings_row(session, tournament)
    rows = _rows(session, tournament)
    entries = _entries(rows)
    return [_registrant(r, entries) for r in rows]


def public_list(session: Session, *, tournament: str) -> list[PublicEntry]:
    """The registered and the waiting list as the public sees them: names (or initials) only."""
    mode = _settings_row(session, tournament).public_names
    return [
        PublicEntry(rules.public_name(r.name, mode), r.status, r.position)
        for r in list_registrants(session, tournament=tournament)
        if r.status in ("registered", "waiting", "checked_in")
    ]


def find_by_token(session: Session, *, tournament: str, token: str) -> Registrant:
    """The registrant whose private link carries ``token``.

    Raises:
        NotFound: no registrant of this tournament has that token.
    """
    row = session.scalar(
        select(RegistrantRow).where(
            RegistrantRow.tournament == tournament,
            RegistrantRow.token_hash == token_hash(token),
        )
    )
    if row is None:
        raise NotFound(
            f"tournament {tournament!r}: no registration with this link",
            msgid=N_("This registration link is not known; check that it was copied whole."),
        )
    return _registrant(row, _entries(_rows(session, tournament)))


def to_check_in(session: Session, *, tournament: str) -> list[int]:
    """The numbers of the registered (not waiting, not yet checked in), in order."""
    return [
        r.number
        for r in list_registrants(session, tournament=tournament)
        if r.status == "registered"
    ]


# --- changes ------------------------------------------------------------------------------------


def open_registration(
    session: Session,
    *,
    tournament: str,
    capacity: int,
    deadline: datetime | None,
    fee_note: str,
    public_names: str = "full",
    actor: str,
    now: datetime | None = None,
) -> RegistrationPublic:
    """Open (or reopen, with new settings) the tournament's online registration.

    A larger capacity promotes the waiting list into the new places at once.

    Raises:
        InvalidInput: a capacity below the places taken or above the tournament's maximum, a
        deadline without a time zone, a fee note too long, public names not full/initials.
    """
    if deadline is not None and deadline.tzinfo is None:
        raise InvalidInput(
            "the deadline needs a time zone (e.g. 2026-05-01T18:00+02:00)",
            msgid=N_("The deadline needs a time zone."),
        )
    payload = {
        "capacity": capacity,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "fee_note": fee_note,
        "public_names": public_names,
    }
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="registration.open",
        payload=payload,
        now=now,
    )
    return get_registration(session, tournament=tournament, now=now)


def close_registration(
    session: Session, *, tournament: str, actor: str, now: datetime | None = None
) -> RegistrationPublic:
    """Close the online registration (the registrants stay; check-in still works)."""
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="registration.close",
        payload={},
        now=now,
    )
    return get_registration(session, tournament=tournament, now=now)


def register(
    session: Session,
    *,
    tournament: str,
    name: str,
    email: str,
    tag: str | None = None,
    actor: str = PUBLIC_ACTOR,
    now: datetime | None = None,
) -> Registered:
    """Register a person online (or the desk for them, ``actor``): a place if one is free, else
    the end of the waiting list.

    Raises:
        IllegalAction: registration is closed or its deadline has passed; InvalidInput: a bad
        name, tag or e-mail; Conflict: this e-mail or this name is registered already.
    """
    token = secrets.token_urlsafe(24)
    payload = {
        "name": name,
        "tag": tag if tag and tag.strip() else None,
        "email": email,
        "token_hash": token_hash(token),
    }
    entry = record(
        session,
        tournament=tournament,
        actor=actor,
        action="registration.register",
        payload=payload,
        now=now,
    )
    number = int(entry.after["number"])
    mine = next(r for r in list_registrants(session, tournament=tournament) if r.number == number)
    return Registered(mine, token)


def withdraw(
    session: Session,
    *,
    tournament: str,
    token: str | None = None,
    number: int | None = None,
    actor: str = PUBLIC_ACTOR,
    now: datetime | None = None,
) -> Registrant:
    """Withdraw a registrant (by their link's ``token``, or the desk by ``number``); the first on
    the waiting list takes the freed place.

    Raises:
        NotFound: no such registrant; IllegalAction: withdrawn or checked in already.
    """
    if token is not None:
        number = find_by_token(session, tournament=tournament, token=token).number
    if number is None:
        raise InvalidInput("name the registrant", msgid=N_("Name the registrant."))
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="registration.withdraw",
        payload={"number": number},
        now=now,
    )
    return next(r for r in list_registrants(session, tournament=tournament) if r.number == number)


def check_in(
    session: Session,
    *,
    tournament: str,
    numbers: Sequence[int],
    actor: str,
    late: bool = False,
    fee_paid: bool = False,
    now: datetime | None = None,
) -> list[PlayerPublic]:
    """Turn registrants into players, checked in (all of them or, on any problem, none).

    Raises:
        NotFound: no such registrant; IllegalAction: one is waiting, withdrawn or checked in, or
        the players' rules refuse (the fee due, check-in closed without ``late``).
    """
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="registration.checkin",
        payload={"numbers": list(numbers), "late": late, "fee_paid": fee_paid},
        now=now,
    )
    found = {r.number: r.player for r in list_registrants(session, tournament=tournament)}
    return players.get_players(
        session, tournament=tournament, names=[str(found[n]) for n in numbers]
    )


# --- handlers -----------------------------------------------------------------------------------


def _promote(ctx: Ctx, rows: Sequence[RegistrantRow], capacity: int) -> list[int]:
    promoted = rules.to_promote(_entries(rows), capacity)
    for row in rows:
        if row.number in promoted:
            row.status = "registered"
            row.changed_at = ctx.at
    return promoted


def _settings_json(row: RegistrationRow | None) -> dict[str, Any] | None:
    if row is None:
        return None
    return {
        "open": row.open,
        "capacity": row.capacity,
        "deadline": row.deadline.isoformat() if row.deadline else None,
        "fee_note": row.fee_note,
        "public_names": row.public_names,
    }


def _deadline(value: object) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise InvalidInput(
            f"deadline {str(value)[:40]!r}: not a date and time with a time zone",
            msgid=N_("The deadline must be a date and time with a time zone."),
        )
    return parsed


@handler("registration.open")
def _apply_open(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug, lock=True)
    rows = _rows(ctx.session, ctx.slug)
    capacity = rules.check_capacity(
        p.get("capacity"), taken=rules.places_taken(_entries(rows)), maximum=t.max_players
    )
    fee_note = check_text(
        p.get("fee_note", ""), what="fee note", max_length=FEE_NOTE_MAX, label=N_("Fee note")
    ).strip()
    public_names = rules.check_public_names(p.get("public_names", "full"))
    deadline = _deadline(p.get("deadline"))
    row = ctx.session.get(RegistrationRow, ctx.slug)
    before = _settings_json(row)
    if row is None:
        row = RegistrationRow(tournament=ctx.slug)
        ctx.session.add(row)
    row.open = True
    row.capacity = capacity
    row.deadline = deadline
    row.fee_note = fee_note
    row.public_names = public_names
    promoted = _promote(ctx, rows, capacity)
    ctx.session.flush()
    return Change(before, {**(_settings_json(row) or {}), "promoted": promoted})


@handler("registration.close")
def _apply_close(ctx: Ctx, p: dict[str, Any]) -> Change:
    get_tournament_row(ctx.session, ctx.slug, lock=True)
    row = _settings_row(ctx.session, ctx.slug)
    before = row.open
    row.open = False
    return Change({"open": before}, {"open": False})


@handler("registration.register")
def _apply_register(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug, lock=True)
    settings = _settings_row(ctx.session, ctx.slug)
    rules.check_open(is_open=settings.open, deadline=settings.deadline, now=ctx.at)
    name = check_name(p.get("name"), what="name", label=N_("Name"))
    tag_given = p.get("tag")
    tag = check_name(tag_given, what="club", label=N_("Club")) if tag_given is not None else None
    email = rules.check_email(p.get("email"))
    digest = p.get("token_hash")
    if not isinstance(digest, str) or len(digest) != 64:
        raise InvalidInput("the link's token hash is missing", msgid=N_("The link is missing."))
    key = PlayerCreate(name=name, tag=tag).key
    # counts and lookups in the database, not every registrant loaded: a replay applies one
    # registration entry per registrant, and loading them all each time made it quadratic
    mine = RegistrantRow.tournament == ctx.slug
    active = and_(mine, RegistrantRow.status != "withdrawn")
    taken, waiting, last = ctx.session.execute(
        select(
            func.count().filter(RegistrantRow.status.in_(sorted(rules.TAKING_A_PLACE))),
            func.count().filter(RegistrantRow.status == "waiting"),
            func.max(RegistrantRow.number),
        ).where(mine)
    ).one()
    same_email = select(RegistrantRow.id).where(
        active, func.lower(RegistrantRow.email) == email.lower()
    )
    if ctx.session.scalar(same_email.limit(1)) is not None:
        raise Conflict(
            f"tournament {t.slug!r}: the e-mail {email!r} is registered already",
            msgid=N_(
                "This e-mail is registered already; your private link shows your registration."
            ),
        )
    same_tag = RegistrantRow.tag == tag if tag is not None else RegistrantRow.tag.is_(None)
    same_name = select(RegistrantRow.id).where(active, RegistrantRow.name == name, same_tag)
    a_player = select(PlayerRow.id).where(PlayerRow.tournament_id == t.id, PlayerRow.name == key)
    if (
        ctx.session.scalar(same_name.limit(1)) is not None
        or ctx.session.scalar(a_player.limit(1)) is not None
    ):
        raise Conflict(
            f"tournament {t.slug!r}: {key!r} is registered already; add a club or city",
            msgid=N_("%(player)s is registered already; add your club or city to tell you apart."),
            params={"player": key},
        )
    number = int(last or 0) + 1
    status = rules.status_for_counts(
        taken=int(taken), waiting=int(waiting), capacity=settings.capacity
    )
    ctx.session.add(
        RegistrantRow(
            tournament=ctx.slug,
            number=number,
            name=name,
            tag=tag,
            email=email,
            token_hash=digest,
            status=status,
            registered_at=ctx.at,
            changed_at=ctx.at,
        )
    )
    ctx.session.flush()
    return Change(None, {"number": number, "name": key, "status": status})


def _registrant_row(ctx: Ctx, rows: Sequence[RegistrantRow], number: object) -> RegistrantRow:
    check_number(number, "registrant", label=N_("Registrant"))
    row = next((r for r in rows if r.number == number), None)
    if row is None:
        raise NotFound(
            f"tournament {ctx.slug!r}: no registrant #{number}",
            msgid=N_("There is no registrant #%(number)d."),
            params={"number": number},
        )
    return row


@handler("registration.withdraw")
def _apply_withdraw(ctx: Ctx, p: dict[str, Any]) -> Change:
    get_tournament_row(ctx.session, ctx.slug, lock=True)
    settings = _settings_row(ctx.session, ctx.slug)
    rows = _rows(ctx.session, ctx.slug)
    row = _registrant_row(ctx, rows, p.get("number"))
    if row.status not in ("registered", "waiting"):
        raise IllegalAction(
            f"registrant #{row.number} is {row.status.replace('_', ' ')} already",
            msgid=N_("This registration cannot be withdrawn: it is withdrawn or checked in."),
        )
    before = row.status
    row.status = "withdrawn"
    row.changed_at = ctx.at
    promoted = _promote(ctx, rows, settings.capacity)
    return Change({"status": before}, {"status": "withdrawn", "promoted": promoted})


@handler("registration.checkin")
def _apply_checkin(ctx: Ctx, p: dict[str, Any]) -> Change:
    get_tournament_row(ctx.session, ctx.slug, lock=True)
    _settings_row(ctx.session, ctx.slug)
    rows = _rows(ctx.session, ctx.slug)
    numbers = p.get("numbers")
    if not isinstance(numbers, list) or not numbers:
        raise InvalidInput("name the registrants to check in", msgid=N_("Name the registrants."))
    if len(set(map(str, numbers))) != len(numbers):
        raise InvalidInput(
            "a registrant is listed twice", msgid=N_("A registrant is listed twice.")
        )
    chosen = [_registrant_row(ctx, rows, n) for n in numbers]
    for row in chosen:
        if row.status != "registered":
            raise IllegalAction(
                f"registrant #{row.number} ({row.name}) is {row.status.replace('_', ' ')}; only "
                "the registered are checked in",
                msgid=N_("%(player)s is not registered (waiting, withdrawn or checked in)."),
                params={"player": row.name},
            )
    created = [
        PlayerCreate(name=r.name, tag=r.tag, fee_paid=bool(p.get("fee_paid"))) for r in chosen
    ]
    items = [
        {"name": c.key, "extra": {"tag": c.tag} if c.tag else {}, "fee_paid": c.fee_paid}
        for c in created
    ]
    players.apply_register(ctx, {"players": items})
    players.apply_checkin(ctx, {"players": [c.key for c in created], "late": bool(p.get("late"))})
    for row, c in zip(chosen, created, strict=True):
        row.status = "checked_in"
        row.player = c.key
        row.changed_at = ctx.at
    return Change(None, {"players": [c.key for c in created]})
