"""Tournaments: create one from a ruleset, look it up, remember the default one."""

from __future__ import annotations

import re
import secrets
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import Conflict, InvalidInput, NotFound
from agon.services.core import (
    Change,
    Ctx,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
)
from agon.services.schemas import TournamentCreate, TournamentPublic
from agon.store.db import begin_write
from agon.store.models import Setting, TournamentRow
from agon.tournament.limits import PLAYERS_MAX, check_range
from agon.tournament.names import check_name, check_text
from agon.tournament.ruleset import BUILTIN_RULESETS, Ruleset, load_ruleset, parse_ruleset

SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")
DEFAULT_KEY = "default_tournament"


def checkin_deadline(row: TournamentRow) -> datetime | None:
    """When check-in (and the fee, where due) closes: the start minus the ruleset's minutes
    (Ludolimpico 1: fee due 15 minutes before the start); ``None`` without a start time."""
    if row.starts_at is None:
        return None
    return row.starts_at - timedelta(minutes=row.checkin_minutes)


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
            "(at most 64), e.g. 'bonn-2018'"
        )
    if not data.name.strip():
        raise InvalidInput("the tournament's name must not be empty")
    check_name(data.name, what="tournament name")
    for key, value in data.info.items():
        check_text(value, what=f"tournament {key}", max_length=200)
    for key, limit in (("min_players", data.min_players), ("max_players", data.max_players)):
        if limit is not None:
            check_range(limit, 1, PLAYERS_MAX, key.replace("_", " "))
    ruleset_toml = None
    if data.ruleset not in BUILTIN_RULESETS:
        load_ruleset(data.ruleset)  # validates, raises InvalidInput naming the file
        ruleset_toml = Path(data.ruleset).read_text(encoding="utf-8")
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
        raise Conflict(f"a tournament {p['slug']!r} exists already")
    toml = p.get("ruleset_toml")
    ruleset = parse_ruleset(toml, origin=str(p["ruleset"])) if toml else load_ruleset(p["ruleset"])
    lo = ruleset.min_players if p.get("min_players") is None else int(p["min_players"])
    hi = ruleset.max_players if p.get("max_players") is None else int(p["max_players"])
    if lo < 1 or hi < lo:
        raise InvalidInput(f"players: min {lo} and max {hi} do not make a range")
    starts_at = datetime.fromisoformat(p["starts_at"]) if p.get("starts_at") else None
    if starts_at is not None and starts_at.tzinfo is None:
        raise InvalidInput(f"start time {p['starts_at']!r}: give a time zone, e.g. +01:00")
    for key, value in p.get("info", {}).items():
        if key not in ("date", "location", "director") or not isinstance(value, str):
            raise InvalidInput(f"tournament info {key!r}: only date, location, director (text)")
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
