"""Player profiles: make, list and hide them, suggest and link the profile of a tournament's
player, and the public player page (events, places, rating history) — over :mod:`agon.profiles`.

A profile belongs to no tournament, so making, renaming or hiding one is written straight to the
``profiles`` table. Linking a player changes a tournament and goes through its journal:
``player.profile`` sets (or, with no profile, removes) the player's ``profile`` field, so undo
takes it back, a replay restores it, and the event file carries it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from agon.errors import N_, Conflict, InvalidInput, NotFound, Text
from agon.profiles.profiles import (
    Profile,
    ProfileIndex,
    Suggestion,
    check_profile_id,
    check_profile_name,
    check_profile_tag,
    new_profile_id,
    suggest,
)
from agon.services.core import (
    Change,
    Ctx,
    get_player_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
    utcnow,
)
from agon.services.players import to_public
from agon.services.schemas import PlayerPublic
from agon.store.db import begin_write
from agon.store.models import GameTableRow, PlayerRow, RoundRow, TournamentRow
from agon.store.profiles import ProfileRow


@dataclass(frozen=True, slots=True)
class ProfilePublic:
    """A profile as the API and the command line show it."""

    id: str
    name: str
    tag: str
    hidden: bool


@dataclass(frozen=True, slots=True)
class SuggestionPublic:
    """A suggested profile for a player: how alike the names are (0…1), and a same tag."""

    profile: ProfilePublic
    score: float
    same_tag: bool


@dataclass(frozen=True, slots=True)
class EventEntry:
    """One event of a profile's player page: the tournament, the entry's name, its place."""

    tournament: str
    event: str
    player: str
    place: int | None
    players: int


@dataclass(frozen=True, slots=True)
class RatingStep:
    """One rated game of a profile: where, the rank taken, and the rating after it."""

    tournament: str
    event: str
    round: int
    table: int
    final: bool
    rank: int
    seats: int
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """What a player page shows."""

    profile: ProfilePublic
    events: tuple[EventEntry, ...]
    history: tuple[RatingStep, ...]


def _public(row: ProfileRow) -> ProfilePublic:
    return ProfilePublic(id=row.id, name=row.name, tag=row.tag, hidden=row.hidden)


def _domain(row: ProfileRow) -> Profile:
    return Profile(row.id, row.name, row.tag, row.hidden)


def _profile_row(session: Session, profile: str) -> ProfileRow:
    row = session.get(ProfileRow, check_profile_id(profile))
    if row is None:
        raise NotFound(
            f"no player profile {profile!r} (see `agon profile list`)",
            msgid=N_("There is no player profile “%(id)s”."),
            params={"id": profile[:64]},
        )
    return row


def list_profiles(session: Session, *, include_hidden: bool = True) -> list[ProfilePublic]:
    """Every profile, by name."""
    stmt = select(ProfileRow).order_by(ProfileRow.name, ProfileRow.id)
    if not include_hidden:
        stmt = stmt.where(ProfileRow.hidden.is_(False))
    return [_public(r) for r in session.scalars(stmt)]


def get_profile(session: Session, *, profile: str, public: bool = False) -> ProfilePublic:
    """The profile ``profile``; for the ``public`` a hidden profile does not exist.

    Raises:
        InvalidInput: a malformed id; NotFound: no such profile (or hidden, for the public).
    """
    row = _profile_row(session, profile)
    if public and row.hidden:
        raise NotFound(
            f"no player profile {profile!r}",
            msgid=N_("There is no player profile “%(id)s”."),
            params={"id": profile[:64]},
        )
    return _public(row)


def create_profile(session: Session, *, name: str, tag: str | None = None) -> ProfilePublic:
    """A new profile; its id is made from the name (numbered when taken).

    Raises:
        InvalidInput: a name or tag that breaks the naming rule.
    """
    clean, clean_tag = check_profile_name(name), check_profile_tag(tag)
    begin_write(session)  # the ids read below must be the ones the insert sees (SQLite)
    taken = set(session.scalars(select(ProfileRow.id)))
    row = ProfileRow(
        id=new_profile_id(clean, taken),
        name=clean,
        tag=clean_tag,
        hidden=False,
        created_at=utcnow(),
    )
    session.add(row)
    session.commit()
    return _public(row)


def set_hidden(session: Session, *, profile: str, hidden: bool) -> ProfilePublic:
    """Hide a profile's public page (or show it again): hidden, it is 404 for the public and its
    name is not linked from public pages. Ratings and series still count the person."""
    begin_write(session)
    row = _profile_row(session, profile)
    row.hidden = hidden
    session.commit()
    return _public(row)


def _base_and_tag(row: PlayerRow) -> tuple[str, str]:
    tag = row.extra.get("tag")
    tag = tag.strip() if isinstance(tag, str) else ""
    name = row.name
    if tag and name.endswith(f" ({tag})"):
        name = name[: -len(tag) - 3]
    return name.strip(), tag


def suggest_profiles(
    session: Session, *, tournament: str, player: str, limit: int = 5
) -> list[SuggestionPublic]:
    """The profiles most like the player (name similarity, same tag), most alike first.

    Raises:
        NotFound: no such tournament or player.
    """
    t = get_tournament_row(session, tournament)
    name, tag = _base_and_tag(get_player_row(session, t, player))
    profiles = [_domain(r) for r in session.scalars(select(ProfileRow))]
    return [_suggestion(s) for s in suggest(name, tag, profiles, limit=limit)]


def suggest_for_unlinked(
    session: Session, *, tournament: str, limit: int = 5
) -> dict[str, list[SuggestionPublic]]:
    """Suggestions for every player of the tournament not linked yet (the desk's page), the
    profiles prepared once for all of them.

    Raises:
        NotFound: no such tournament.
    """
    t = get_tournament_row(session, tournament)
    index = ProfileIndex(_domain(r) for r in session.scalars(select(ProfileRow)))
    out = {}
    for row in t.players:
        if row.extra.get("profile"):
            continue
        name, tag = _base_and_tag(row)
        out[row.name] = [_suggestion(s) for s in index.suggest(name, tag, limit=limit)]
    return out


def _suggestion(s: Suggestion) -> SuggestionPublic:
    p = s.profile
    return SuggestionPublic(ProfilePublic(p.id, p.name, p.tag, p.hidden), s.score, s.same_tag)


def link_player(
    session: Session, *, tournament: str, player: str, profile: str | None, actor: str
) -> PlayerPublic:
    """Link the tournament's ``player`` to ``profile`` (``None``: unlink), journaled.

    Raises:
        NotFound: no such tournament, player or profile; Conflict: the link is already so, or
            another player of the tournament has that profile.
    """
    t = get_tournament_row(session, tournament)
    get_player_row(session, t, player)
    if profile is not None:
        _profile_row(session, profile)
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.profile",
        payload={"player": player, "profile": profile},
    )
    t = get_tournament_row(session, tournament)
    return to_public(get_player_row(session, t, player), t.sanctions)


def link_new_profile(
    session: Session,
    *,
    tournament: str,
    player: str,
    actor: str,
    name: str | None = None,
    tag: str | None = None,
) -> tuple[ProfilePublic, PlayerPublic]:
    """Make a profile for the player (its name and tag unless given) and link it.

    Raises:
        as :func:`create_profile` and :func:`link_player`.
    """
    t = get_tournament_row(session, tournament)
    row = get_player_row(session, t, player)
    if row.extra.get("profile"):
        raise Conflict(
            f"{player!r} is already linked to profile {row.extra['profile']!r}; unlink first",
            msgid=N_("%(player)s is already linked to a profile."),
            params={"player": player[:80]},
        )
    base, own_tag = _base_and_tag(row)
    made = create_profile(session, name=name or base, tag=own_tag if tag is None else tag)
    return made, link_player(
        session, tournament=tournament, player=player, profile=made.id, actor=actor
    )


@handler("player.profile")
def _apply_profile(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    name, profile = p.get("player"), p.get("profile")
    if not isinstance(name, str):
        raise InvalidInput(
            "player.profile: 'player' must be a name",
            msgid=N_("%(label)s must be text."),
            params={"label": Text(N_("Name"))},
        )
    if profile is not None:
        check_profile_id(profile)
    row = get_player_row(ctx.session, t, name)
    old = row.extra.get("profile")
    if old == profile:
        raise Conflict(
            f"{name!r} is already {'linked to ' + repr(profile) if profile else 'unlinked'}",
            msgid=N_("Nothing to change: %(player)s already has this profile link."),
            params={"player": name[:80]},
        )
    if profile is not None:
        other = next(
            (q.name for q in t.players if q is not row and q.extra.get("profile") == profile),
            None,
        )
        if other is not None:
            raise Conflict(
                f"profile {profile!r} is already linked to {other!r} in this tournament",
                msgid=N_("This profile is already linked to %(player)s in this tournament."),
                params={"player": other[:80]},
            )
    extra = dict(row.extra)
    if profile is None:
        extra.pop("profile", None)
    else:
        extra["profile"] = profile
    row.extra = extra
    return Change({"player": name, "profile": old}, {"player": name, "profile": profile})


# --- the player page ----------------------------------------------------------------------------


def _when(t: TournamentRow) -> datetime:
    """When the tournament was held: its start, else its ``date`` (YYYY-MM-DD), else when it was
    made in this database (an imported event without a date: when it was imported)."""
    if t.starts_at is not None:
        return t.starts_at
    day = (t.info or {}).get("date")
    if isinstance(day, str):
        with contextlib.suppress(ValueError):
            return datetime.combine(date.fromisoformat(day.strip()[:10]), time(), UTC)
    return t.created_at


def _tournaments_oldest_first(session: Session) -> list[TournamentRow]:
    """Every tournament with its players, rounds, tables and results loaded in a few queries
    (one query per table and tournament cost the player page 2 s for 40 tournaments)."""
    rows = list(
        session.scalars(
            select(TournamentRow).options(
                selectinload(TournamentRow.players),
                selectinload(TournamentRow.rounds)
                .selectinload(RoundRow.tables)
                .selectinload(GameTableRow.results),
            )
        )
    )
    return sorted(rows, key=lambda t: (_when(t), t.id))


def profile_links(session: Session) -> dict[tuple[str, str], ProfilePublic]:
    """Every linked player, ``(tournament, player)`` → profile."""
    profiles = {r.id: _public(r) for r in session.scalars(select(ProfileRow))}
    rows = session.execute(
        select(TournamentRow.slug, PlayerRow.name, PlayerRow.extra).join(
            PlayerRow, PlayerRow.tournament_id == TournamentRow.id
        )
    )
    out = {}
    for slug, name, extra in rows:
        linked = profiles.get(str((extra or {}).get("profile", "")))
        if linked is not None:
            out[(slug, name)] = linked
    return out


def visible_profiles(session: Session, ids: Iterable[str]) -> set[str]:
    """Those of ``ids`` whose profile exists and is not hidden (public pages link only these)."""
    wanted = {i for i in ids if i}
    if not wanted:
        return set()
    stmt = select(ProfileRow.id).where(ProfileRow.id.in_(wanted), ProfileRow.hidden.is_(False))
    return set(session.scalars(stmt))


def public_links(session: Session, *, tournament: str) -> dict[str, str]:
    """The tournament's players whose profile page is public: player → profile id."""
    t = get_tournament_row(session, tournament)
    wanted = {p.name: str(p.extra.get("profile")) for p in t.players if p.extra.get("profile")}
    shown = visible_profiles(session, wanted.values())
    return {name: profile for name, profile in wanted.items() if profile in shown}


def player_page(session: Session, *, profile: str, public: bool = True) -> PlayerPage:
    """The profile's events (place of how many) and its rating history over every tournament of
    the database, oldest first (by start, else date, else creation: :func:`_when`), as
    :mod:`agon.ratings` rates them.

    Raises:
        InvalidInput: a malformed id; NotFound: no such profile, or hidden and ``public``.
    """
    from agon.ratings import PlayerKey, games_of, rate
    from agon.series import event_places
    from agon.services.views import event_of_row

    shown = get_profile(session, profile=profile, public=public)
    events: list[EventEntry] = []
    games = []
    tournament_of: dict[int, str] = {}  # a game (its id: games repeat by value) → slug
    for t in _tournaments_oldest_first(session):
        event = event_of_row(t)
        ruleset = ruleset_of(t)
        own = [p.name for p in event.players if p.extra.get("profile") == shown.id]
        event_games = games_of(event, ruleset)
        for g in event_games:
            tournament_of[id(g)] = t.slug
        games.extend(event_games)
        if not own:
            continue
        places = {name: place for name, place, _tied in event_places(event, ruleset)}
        played = any(r.tables for r in event.rounds)
        events.append(
            EventEntry(
                t.slug,
                t.name,
                own[0],
                places.get(own[0]) if played else None,
                len(event.players),
            )
        )
    rated = rate(games)
    key = PlayerKey(shown.name, shown.tag, shown.id)
    history = tuple(
        RatingStep(
            tournament_of.get(id(step.game), ""),
            step.game.event,
            step.game.round,
            step.game.table,
            step.game.final,
            step.rank,
            len(step.game.ranks),
            step.mu,
            step.sigma,
        )
        for step in rated.history.get(key, ())
    )
    return PlayerPage(shown, tuple(events), history)


def profiles_as_json(items: Sequence[ProfilePublic]) -> list[dict[str, Any]]:
    """The profiles as plain values (the command line's ``--json``)."""
    return [{"id": p.id, "name": p.name, "tag": p.tag, "hidden": p.hidden} for p in items]
