"""Tournaments: create one from a ruleset, look it up, remember the default one."""

from __future__ import annotations

import re
import secrets
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, InvalidInput, NotFound, Text
from agon.services.core import (
    Change,
    Ctx,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
)
from agon.services.schemas import TournamentCreate, TournamentPublic, TournamentUpdate
from agon.store.db import begin_write
from agon.store.models import Setting, TournamentRow
from agon.tournament.limits import PLAYERS_MAX, check_range
from agon.tournament.names import check_name, check_text
from agon.tournament.ruleset import (
    BUILTIN_RULESETS,
    Ruleset,
    load_ruleset,
    parse_ruleset,
    read_ruleset_file,
)

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
DEFAULT_KEY = "default_tournament"


def checkin_deadline(row: TournamentRow) -> datetime | None:
    """When check-in (and the fee, where due) closes: the start minus the ruleset's minutes
    (Ludolimpico 1: fee due 15 minutes before the start); ``None`` without a start time."""
    if row.starts_at is None:
        return None
    return row.starts_at - timedelta(minutes=row.checkin_minutes)


def round_minutes(row: TournamentRow) -> int | None:
    """The round clock's minutes: set for the tournament (``tournament.edit``), else the
    ruleset's (Ludolimpico 1: "una durata di mezz'ora ciascuna")."""
    own = row.info.get("round_minutes")
    return int(own) if own else ruleset_of(row).round_minutes


def to_public(row: TournamentRow) -> TournamentPublic:
    return TournamentPublic(
        slug=row.slug,
        name=row.name,
        ruleset=row.ruleset_ref,
        seed=row.seed,
        min_players=row.min_players,
        max_players=row.max_players,
        players_override=row.players_override,
        starts_at=row.starts_at,
        checkin_deadline=checkin_deadline(row),
        fee_required=row.fee_required,
        info=dict(row.info),
        players=len(row.players),
        rounds=len(row.rounds),
        round_minutes=round_minutes(row),
    )


def create_tournament(
    session: Session, *, data: TournamentCreate, actor: str, now: datetime | None = None
) -> TournamentPublic:
    """Create a tournament from a built-in ruleset or a ruleset file.

    The ruleset's min/max players hold unless ``data`` overrides them explicitly. A ruleset file
    is copied into the database, so the tournament does not depend on the file later. Without a
    seed, a random one is drawn once and recorded (publish its commitment before the event).

    Raises:
        InvalidInput: bad slug, ruleset or limits. Conflict: the slug is taken.
    """
    if not SLUG.match(data.slug):
        raise InvalidInput(
            f"tournament slug {data.slug!r}: use lower-case letters, digits and '-' "
            "(at most 64), e.g. 'bonn-2018'",
            msgid=N_(
                "The short name “%(slug)s”: use lower-case letters, digits and “-” (at most 64), "
                "e.g. bonn-2018."
            ),
            params={"slug": data.slug[:80]},
        )
    if not data.name.strip():
        raise InvalidInput(
            "the tournament's name must not be empty",
            msgid=N_("%(label)s must not be empty."),
            params={"label": Text(N_("Tournament name"))},
        )
    check_name(data.name, what="tournament name", label=N_("Tournament name"))
    for key, value in data.info.items():
        check_text(value, what=f"tournament {key}", max_length=200, label=N_("Tournament details"))
    for key, limit in (("min_players", data.min_players), ("max_players", data.max_players)):
        if limit is not None:
            check_range(
                limit,
                1,
                PLAYERS_MAX,
                key.replace("_", " "),
                label=N_("Fewest players") if key == "min_players" else N_("Most players"),
            )
    ruleset_toml = None
    if data.ruleset not in BUILTIN_RULESETS:
        load_ruleset(data.ruleset)  # validates, raises InvalidInput naming the file
        ruleset_toml = read_ruleset_file(Path(data.ruleset))
    payload: dict[str, Any] = {
        "slug": data.slug,
        "name": data.name.strip(),
        "ruleset": data.ruleset,
        "ruleset_toml": ruleset_toml,
        "seed": data.seed if data.seed is not None else secrets.token_hex(16),
        "min_players": data.min_players,
        "max_players": data.max_players,
        "starts_at": None if data.starts_at is None else data.starts_at.isoformat(),
        "info": dict(data.info),
    }
    record(
        session,
        tournament=data.slug,
        actor=actor,
        action="tournament.create",
        payload=payload,
        now=now,
    )
    return get_tournament(session, slug=data.slug)


@handler("tournament.create")
def _apply_create(ctx: Ctx, p: dict[str, Any]) -> Change:
    if ctx.session.scalar(select(TournamentRow.id).where(TournamentRow.slug == p["slug"])):
        raise Conflict(
            f"a tournament {p['slug']!r} exists already",
            msgid=N_("A tournament “%(slug)s” exists already."),
            params={"slug": p["slug"]},
        )
    toml = p.get("ruleset_toml")
    ruleset = parse_ruleset(toml, origin=str(p["ruleset"])) if toml else load_ruleset(p["ruleset"])
    lo = ruleset.min_players if p.get("min_players") is None else int(p["min_players"])
    hi = ruleset.max_players if p.get("max_players") is None else int(p["max_players"])
    if lo < 1 or hi < lo:
        raise InvalidInput(
            f"players: min {lo} and max {hi} do not make a range",
            msgid=N_("Fewest players %(min)d and most players %(max)d do not make a range."),
            params={"min": lo, "max": hi},
        )
    starts_at = datetime.fromisoformat(p["starts_at"]) if p.get("starts_at") else None
    if starts_at is not None and starts_at.tzinfo is None:
        raise InvalidInput(
            f"start time {p['starts_at']!r}: give a time zone, e.g. +01:00",
            msgid=N_("Start time “%(time)s”: give a time zone, e.g. +01:00."),
            params={"time": p["starts_at"]},
        )
    for key, value in p.get("info", {}).items():
        if key not in ("date", "location", "director") or not isinstance(value, str):
            raise InvalidInput(
                f"tournament info {key!r}: only date, location, director (text)",
                msgid=N_("Tournament details are a date, a location and a director (text)."),
            )
    row = TournamentRow(
        slug=p["slug"],
        name=p["name"],
        ruleset_ref=p["ruleset"],
        ruleset_toml=toml,
        seed=p["seed"],
        min_players=lo,
        max_players=hi,
        players_override=(lo, hi) != (ruleset.min_players, ruleset.max_players),
        starts_at=starts_at,
        checkin_minutes=ruleset.checkin_minutes,
        fee_required=ruleset.fee_required,
        info=dict(p.get("info", {})),
        created_at=ctx.at,
    )
    ctx.session.add(row)
    ctx.session.flush()
    return Change(None, {"slug": row.slug, "name": row.name, "ruleset": row.ruleset_ref})


#: Round clock limits (minutes) a director may set.
MAX_ROUND_MINUTES = 600


def edit_tournament(
    session: Session,
    *,
    slug: str,
    data: TournamentUpdate,
    actor: str,
    now: datetime | None = None,
) -> TournamentPublic:
    """Change a tournament after its creation: name, start time, check-in deadline, min/max
    players, round minutes. The journal keeps the values before and after; undo restores them.

    Raises:
        InvalidInput: an empty name, limits that make no range or exclude the players already
        registered, a deadline without a start time, minutes outside 1–600, or nothing to change.
    """
    payload: dict[str, Any] = {}
    if data.name is not None:
        payload["name"] = data.name.strip()
    if data.starts_at is not None:
        payload["starts_at"] = data.starts_at.isoformat()
    if data.checkin_deadline is not None:
        payload["checkin_deadline"] = data.checkin_deadline.isoformat()
    for key in ("min_players", "max_players"):
        limit = getattr(data, key)
        if limit is not None:  # as when it was created: a number the database can hold
            check_range(
                limit,
                1,
                PLAYERS_MAX,
                key.replace("_", " "),
                label=N_("Fewest players") if key == "min_players" else N_("Most players"),
            )
    for key in ("min_players", "max_players", "round_minutes"):
        if getattr(data, key) is not None:
            payload[key] = getattr(data, key)
    if data.clear_round_minutes:
        payload["round_minutes"] = None
    if not payload:
        raise InvalidInput(f"tournament {slug!r}: nothing to change")
    record(
        session, tournament=slug, actor=actor, action="tournament.edit", payload=payload, now=now
    )
    return get_tournament(session, slug=slug)


def _editable(row: TournamentRow) -> dict[str, Any]:
    return {
        "name": row.name,
        "starts_at": None if row.starts_at is None else row.starts_at.isoformat(),
        "checkin_minutes": row.checkin_minutes,
        "min_players": row.min_players,
        "max_players": row.max_players,
        "round_minutes": row.info.get("round_minutes"),
    }


@handler("tournament.edit")
def _apply_edit(ctx: Ctx, p: dict[str, Any]) -> Change:
    row = get_tournament_row(ctx.session, ctx.slug, lock=True)
    before = _editable(row)
    place = f"tournament {row.slug!r}"
    if "name" in p:
        if not str(p["name"]).strip():
            raise InvalidInput(f"{place}: the name must not be empty")
        row.name = str(p["name"]).strip()
    if "starts_at" in p:
        starts_at = datetime.fromisoformat(p["starts_at"])
        if starts_at.tzinfo is None:
            raise InvalidInput(f"{place}: start time {p['starts_at']!r}: give a time zone")
        row.starts_at = starts_at
    if "checkin_deadline" in p:
        deadline = datetime.fromisoformat(p["checkin_deadline"])
        if deadline.tzinfo is None:
            raise InvalidInput(f"{place}: deadline {p['checkin_deadline']!r}: give a time zone")
        if row.starts_at is None:
            raise InvalidInput(f"{place}: a check-in deadline needs a start time (--starts-at)")
        minutes = (row.starts_at - deadline).total_seconds() / 60
        if minutes != int(minutes):
            raise InvalidInput(f"{place}: give the deadline in whole minutes")
        row.checkin_minutes = int(minutes)
    ruleset = ruleset_of(row)
    lo = int(p.get("min_players", row.min_players))
    hi = int(p.get("max_players", row.max_players))
    if lo < 1 or hi < lo:
        raise InvalidInput(f"{place}: players: min {lo} and max {hi} do not make a range")
    if len(row.players) > hi:
        raise InvalidInput(f"{place}: {len(row.players)} players are registered, more than {hi}")
    row.min_players, row.max_players = lo, hi
    row.players_override = (lo, hi) != (ruleset.min_players, ruleset.max_players)
    if "round_minutes" in p:
        minutes_given = p["round_minutes"]
        info = dict(row.info)
        if minutes_given is None:
            info.pop("round_minutes", None)
        else:
            if isinstance(minutes_given, bool) or not isinstance(minutes_given, int):
                raise InvalidInput(f"{place}: round minutes must be a whole number")
            if not 1 <= minutes_given <= MAX_ROUND_MINUTES:
                raise InvalidInput(
                    f"{place}: round minutes must be 1 to {MAX_ROUND_MINUTES}, got {minutes_given}"
                )
            info["round_minutes"] = str(minutes_given)
        row.info = info
    ctx.session.flush()
    return Change(before, _editable(row))


def get_tournament(session: Session, *, slug: str) -> TournamentPublic:
    """The tournament ``slug``. Raises: NotFound."""
    return to_public(get_tournament_row(session, slug))


def list_tournaments(session: Session) -> list[TournamentPublic]:
    return [to_public(r) for r in session.scalars(select(TournamentRow).order_by(TournamentRow.id))]


def set_default_tournament(session: Session, *, slug: str) -> None:
    """Remember ``slug`` as the tournament commands use without ``-t`` (a local preference)."""
    begin_write(session)
    get_tournament_row(session, slug)
    setting = session.get(Setting, DEFAULT_KEY)
    if setting is None:
        session.add(Setting(key=DEFAULT_KEY, value=slug))
    else:
        setting.value = slug
    session.commit()


def default_tournament(session: Session) -> str:
    """The remembered default tournament, else the only one.

    Raises:
        NotFound: none remembered and not exactly one tournament in the database.
    """
    setting = session.get(Setting, DEFAULT_KEY)
    if setting is not None:
        return setting.value
    slugs = list(session.scalars(select(TournamentRow.slug)))
    if len(slugs) == 1:
        return slugs[0]
    raise NotFound(
        "which tournament? give -t SLUG or remember one with 'agon tournament use SLUG' "
        f"(known: {', '.join(sorted(slugs)) or 'none yet'})"
    )


def tournament_ruleset(session: Session, *, slug: str) -> Ruleset:
    """The tournament's :class:`~agon.tournament.ruleset.Ruleset`."""
    return ruleset_of(get_tournament_row(session, slug))
