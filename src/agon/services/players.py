"""Players: registration (one by one or from CSV), entry fee, check-in, drops, warnings, penalties.

Check-in closes at the tournament's deadline (start minus the ruleset's minutes; Ludolimpico 1:
the fee is due 15 minutes before the start "pena l'esclusione"). A player who checks in later is a
*late entry* (``late=True``) and is seated from the next round started. Withdrawals and expulsions
(Ludolimpico 2.5) and drops keep the player's past results; they are not seated again.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput, Text
from agon.services.core import (
    Change,
    Ctx,
    get_player_row,
    get_tournament_row,
    handler,
    record,
    rounds_started,
)
from agon.services.schemas import (
    DROP_KINDS,
    SANCTION_KINDS,
    PlayerCreate,
    PlayerPublic,
    SanctionPublic,
)
from agon.services.tournaments import checkin_deadline
from agon.store.models import PlayerRow, SanctionRow, TournamentRow
from agon.tournament.limits import check_number
from agon.tournament.names import check_name, check_text
from agon.tournament.safeload import check_document

_TRUE = {"1", "yes", "y", "true", "paid", "ja", "si", "sì", "x"}
_FALSE = {"", "0", "no", "n", "false", "unpaid", "nein"}


def to_public(row: PlayerRow, sanctions: Sequence[SanctionRow] = ()) -> PlayerPublic:
    return PlayerPublic(
        name=row.name,
        extra=dict(row.extra),
        fee_paid=row.fee_paid,
        checked_in=row.checked_in_at is not None,
        late=row.late,
        status=row.status,
        status_round=row.status_round,
        status_reason=row.status_reason,
        sanctions=tuple(
            SanctionPublic(kind=s.kind, round=s.round, reason=s.reason, at=s.at)
            for s in sanctions
            if s.player == row.name
        ),
    )


def _registration_payload(data: PlayerCreate) -> dict[str, Any]:
    if isinstance(data.name, str) and not data.name.strip():
        raise InvalidInput(
            "the player's name must not be empty", msgid=N_("The player's name must not be empty.")
        )
    check_name(data.name, what="player name", label=N_("Player name"))
    if data.tag is not None:
        if isinstance(data.tag, str) and not data.tag.strip():
            raise InvalidInput(
                f"player {data.name!r}: the distinguishing tag must not be empty",
                msgid=N_("%(label)s must not be empty."),
                params={"label": Text(N_("Tag"))},
            )
        check_name(data.tag, what=f"player {data.name.strip()!r}: tag", label=N_("Tag"))
    if not isinstance(data.extra, Mapping):
        raise InvalidInput(
            f"player {data.name!r}: extra data must be an object of fields",
            msgid=N_("A player's extra data must be an object of fields."),
        )
    check_document(dict(data.extra), origin=f"player {data.name.strip()!r}: extra data")
    extra = dict(data.extra)
    if data.tag:
        extra.setdefault("tag", data.tag.strip())
    return {"name": data.key, "extra": extra, "fee_paid": data.fee_paid}


def register_player(
    session: Session,
    *,
    tournament: str,
    data: PlayerCreate,
    actor: str,
    now: datetime | None = None,
) -> PlayerPublic:
    """Register one player. After round 1 has started this is a late entry.

    Raises:
        Conflict: the name is taken (give a distinguishing ``tag``); InvalidInput: the ruleset's
        maximum is reached.
    """
    payload = {"players": [_registration_payload(data)]}
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.register",
        payload=payload,
        now=now,
    )
    return get_player(session, tournament=tournament, name=data.key)


def parse_players_csv(text: str, *, origin: str = "<csv>") -> list[PlayerCreate]:
    """Players from CSV with a header: ``name`` (required), optional ``tag`` (club, city, id —
    tells apart equal names), ``fee_paid`` (yes/no), any other column kept as extra data.

    Raises:
        InvalidInput: naming the line, e.g. a repeated name without a tag to tell them apart.
    """
    try:
        return _parse_players_csv(text, origin)
    except csv.Error as exc:
        raise InvalidInput(
            f"{origin}: not a readable CSV file: {exc}",
            msgid=N_("This is not a readable CSV file."),
        ) from None


def _parse_players_csv(text: str, origin: str) -> list[PlayerCreate]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    if reader.fieldnames is None or "name" not in [f.strip().lower() for f in reader.fieldnames]:
        raise InvalidInput(
            f"{origin}: the first line must be a header with a 'name' column",
            msgid=N_("The first line must be a header with a “name” column."),
        )
    players: list[PlayerCreate] = []
    seen: dict[str, int] = {}
    lines_of: dict[str, list[tuple[int, bool]]] = {}
    for line, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items()}
        name = row.pop("name", "")
        if not name:
            raise InvalidInput(
                f"{origin}: line {line}: empty name",
                msgid=N_("Line %(line)d: the name is empty."),
                params={"line": line},
            )
        tag = row.pop("tag", "") or None
        try:
            check_name(name, what="name")
            if tag is not None:
                check_name(tag, what="tag", label=N_("Tag"))
        except InvalidInput as exc:
            raise InvalidInput(
                f"{origin}: line {line}: {exc}",
                msgid=N_("Line %(line)d: %(error)s"),
                params={"line": line, "error": exc},
            ) from None
        paid_text = row.pop("fee_paid", "").lower()
        if paid_text not in _TRUE | _FALSE:
            raise InvalidInput(
                f"{origin}: line {line}: fee_paid {paid_text!r} is not yes/no",
                msgid=N_("Line %(line)d: fee_paid “%(text)s” is not yes or no."),
                params={"line": line, "text": paid_text[:40]},
            )
        player = PlayerCreate(
            name=name,
            tag=tag,
            extra={k: v for k, v in row.items() if v},
            fee_paid=paid_text in _TRUE,
        )
        if player.key in seen:
            raise InvalidInput(
                f"{origin}: line {line}: player {player.key!r} is also on line {seen[player.key]}; "
                "add a distinguishing 'tag' column (club, city…) to both",
                msgid=N_(
                    "Line %(line)d: %(player)s is also on line %(other)d; add a “tag” column "
                    "(club, city…) to tell them apart."
                ),
                params={"line": line, "player": player.key, "other": seen[player.key]},
            )
        seen[player.key] = line
        lines_of.setdefault(player.name.strip(), []).append((line, tag is not None))
        players.append(player)
    for name, lines in lines_of.items():
        untagged = [line for line, tagged in lines if not tagged]
        if len(lines) > 1 and untagged:
            others = ", ".join(str(line) for line, _ in lines)
            raise InvalidInput(
                f"{origin}: line {untagged[0]}: player {name!r} appears on lines {others}; "
                "give each of them a distinguishing 'tag' (club, city…)",
                msgid=N_(
                    "Line %(line)d: %(player)s appears on lines %(lines)s; give each of them a "
                    "“tag” (club, city…)."
                ),
                params={"line": untagged[0], "player": name, "lines": others},
            )
    if not players:
        raise InvalidInput(f"{origin}: no players", msgid=N_("The list holds no players."))
    return players


def import_players(
    session: Session,
    *,
    tournament: str,
    players: Sequence[PlayerCreate],
    actor: str,
    now: datetime | None = None,
) -> list[PlayerPublic]:
    """Register many players at once: all of them or, on any problem, none."""
    payload = {"players": [_registration_payload(p) for p in players]}
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.register",
        payload=payload,
        now=now,
    )
    return get_players(session, tournament=tournament, names=[p.key for p in players])


def _base_name(name: str, extra: Mapping[str, Any]) -> str:
    """The name without its distinguishing ``" (tag)"``."""
    tag = extra.get("tag")
    if isinstance(tag, str) and tag and name.endswith(f" ({tag})"):
        return name[: -len(tag) - 3]
    return name


@handler("player.register")
def _apply_register(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug, lock=True)
    existing = {p.name for p in t.players}
    bases = {_base_name(p.name, p.extra): p.name for p in t.players}
    late = rounds_started(ctx.session, t) > 0
    if len(existing) + len(p["players"]) > t.max_players:
        raise InvalidInput(
            f"tournament {t.slug!r}: at most {t.max_players} players "
            f"({len(existing)} registered, {len(p['players'])} more asked); create the tournament "
            "with --max-players to override",
            msgid=N_("At most %(max)d players (%(registered)d registered, %(more)d more asked)."),
            params={"max": t.max_players, "registered": len(existing), "more": len(p["players"])},
        )
    for item in p["players"]:
        name = item["name"]
        if name in existing:
            raise Conflict(
                f"tournament {t.slug!r}: player {name!r} is registered already; register the new "
                "one with a distinguishing --tag (club, city…)",
                msgid=N_(
                    "%(player)s is registered already; register the new one with a club or city "
                    "to tell them apart."
                ),
                params={"player": name},
            )
        base = _base_name(name, item.get("extra") or {})
        if base in bases and (base == name or base == bases[base]):
            raise Conflict(
                f"tournament {t.slug!r}: {name!r} and {bases[base]!r} share the name {base!r}; "
                "give both a distinguishing --tag (club, city…)",
                msgid=N_(
                    "%(player)s and %(other)s share the name %(name)s; give both a club or city "
                    "to tell them apart."
                ),
                params={"player": name, "other": bases[base], "name": base},
            )
        existing.add(name)
        bases[base] = name
        t.players.append(
            PlayerRow(
                name=name,
                extra=item.get("extra") or {},
                fee_paid=bool(item.get("fee_paid")),
                late=late,
                registered_at=ctx.at,
            )
        )
    ctx.session.flush()
    return Change(None, {"players": [i["name"] for i in p["players"]], "late": late})


def set_fee(
    session: Session,
    *,
    tournament: str,
    player: str,
    paid: bool,
    actor: str,
    now: datetime | None = None,
) -> PlayerPublic:
    """Record the entry fee as paid (or not)."""
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.fee",
        payload={"player": player, "paid": paid},
        now=now,
    )
    return get_player(session, tournament=tournament, name=player)


@handler("player.fee")
def _apply_fee(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    row = get_player_row(ctx.session, t, p["player"])
    before = row.fee_paid
    row.fee_paid = bool(p["paid"])
    return Change({"fee_paid": before}, {"fee_paid": row.fee_paid})


def check_in(
    session: Session,
    *,
    tournament: str,
    player: str,
    actor: str,
    late: bool = False,
    now: datetime | None = None,
) -> PlayerPublic:
    """Check a player in. After the deadline only as a late entry (``late=True``).

    Raises:
        IllegalAction: the deadline has passed and ``late`` is not set, or the fee is due and unpaid.
    """
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.checkin",
        payload={"player": player, "late": late},
        now=now,
    )
    return get_player(session, tournament=tournament, name=player)


@handler("player.checkin")
def _apply_checkin(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    names = p["players"] if "players" in p else [p["player"]]
    if len(set(names)) != len(names):
        twice = sorted(n for n in names if names.count(n) > 1)[0]
        raise InvalidInput(
            f"player {twice!r} is listed twice",
            msgid=N_("%(player)s is listed twice."),
            params={"player": twice},
        )
    deadline = checkin_deadline(t)
    late = rounds_started(ctx.session, t) > 0 or (deadline is not None and ctx.at > deadline)
    rows = [get_player_row(ctx.session, t, name) for name in names]
    for row in rows:
        if row.status != "active":
            raise IllegalAction(
                f"player {row.name!r} is {row.status}; cannot check in",
                msgid=N_("%(player)s has left the tournament and cannot check in."),
                params={"player": row.name},
            )
        if row.checked_in_at is not None:
            raise IllegalAction(
                f"player {row.name!r} is checked in already",
                msgid=N_("%(player)s is checked in already."),
                params={"player": row.name},
            )
        if t.fee_required and not row.fee_paid:
            raise IllegalAction(
                f"player {row.name!r}: the entry fee is due before check-in (record it with "
                "'agon player fee')",
                msgid=N_("%(player)s: the entry fee is due before check-in; mark it paid first."),
                params={"player": row.name},
            )
        if late and not p.get("late"):
            when = (
                f"the deadline {deadline:%Y-%m-%d %H:%M %Z} has passed"
                if deadline
                else "round 1 has started"
            )
            raise IllegalAction(
                f"player {row.name!r}: {when}; check in as a late entry (--late) to seat them "
                "from the next round",
                msgid=N_(
                    "%(player)s: check-in is closed; check in as a late entry, seated from the "
                    "next round."
                ),
                params={"player": row.name},
            )
    for row in rows:
        row.checked_in_at = ctx.at
        row.late = row.late or late
    return Change({"checked_in": [], "players": names}, {"checked_in": names, "late": late})


def check_in_players(
    session: Session,
    *,
    tournament: str,
    players: Sequence[str],
    actor: str,
    late: bool = False,
    now: datetime | None = None,
) -> list[PlayerPublic]:
    """Check several players in at once: all of them or, on any problem, none.

    Raises:
        IllegalAction / NotFound: as :func:`check_in`, naming the first player concerned.
    """
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.checkin",
        payload={"players": list(players), "late": late},
        now=now,
    )
    return get_players(session, tournament=tournament, names=players)


def drop_player(
    session: Session,
    *,
    tournament: str,
    player: str,
    kind: str,
    reason: str,
    actor: str,
    now: datetime | None = None,
) -> PlayerPublic:
    """Drop, withdraw or expel a player (Ludolimpico 2.5); they are not seated again.

    Raises:
        InvalidInput: unknown kind; IllegalAction: the player is not active.
    """
    if kind not in DROP_KINDS:
        raise InvalidInput(
            f"kind {kind!r}: use one of {', '.join(DROP_KINDS)}",
            msgid=N_("Choose drop, withdrawal or expulsion from the list."),
        )
    check_text(reason, what="reason", label=N_("Reason"))
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.drop",
        payload={"player": player, "kind": kind, "reason": reason},
        now=now,
    )
    return get_player(session, tournament=tournament, name=player)


@handler("player.drop")
def _apply_drop(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    row = get_player_row(ctx.session, t, p["player"])
    if row.status != "active":
        raise IllegalAction(
            f"player {row.name!r} is {row.status} already",
            msgid=N_("%(player)s has left the tournament already."),
            params={"player": row.name},
        )
    if p["kind"] not in DROP_KINDS:
        raise InvalidInput(
            f"kind {p['kind']!r}: use one of {', '.join(DROP_KINDS)}",
            msgid=N_("Choose drop, withdrawal or expulsion from the list."),
        )
    row.status = DROP_KINDS[p["kind"]]
    row.status_round = rounds_started(ctx.session, t)
    row.status_reason = str(p.get("reason", ""))
    return Change({"status": "active"}, {"status": row.status, "after_round": row.status_round})


def add_sanction(
    session: Session,
    *,
    tournament: str,
    player: str,
    kind: str,
    reason: str,
    actor: str,
    round_number: int | None = None,
    now: datetime | None = None,
) -> PlayerPublic:
    """Record a warning or a penalty (Ludolimpico 2.3/2.4: the director decides which).

    Raises:
        InvalidInput: unknown kind or empty reason.
    """
    check_text(reason, what="reason", label=N_("Reason"))
    if round_number is not None:
        check_number(round_number, "round", label=N_("Round"))
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.sanction",
        payload={"player": player, "kind": kind, "reason": reason, "round": round_number},
        now=now,
    )
    return get_player(session, tournament=tournament, name=player)


@handler("player.sanction")
def _apply_sanction(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    row = get_player_row(ctx.session, t, p["player"])
    if p["kind"] not in SANCTION_KINDS:
        raise InvalidInput(
            f"sanction {p['kind']!r}: use one of {', '.join(SANCTION_KINDS)}",
            msgid=N_("Choose a warning or a penalty from the list."),
        )
    if not str(p.get("reason", "")).strip():
        raise InvalidInput(
            f"player {row.name!r}: a {p['kind']} needs a reason",
            msgid=N_("%(player)s: a warning or penalty needs a reason."),
            params={"player": row.name},
        )
    rnd = p.get("round")
    if rnd is None:
        rnd = rounds_started(ctx.session, t) or None
    t.sanctions.append(
        SanctionRow(
            player=row.name,
            kind=p["kind"],
            round=rnd,
            reason=str(p["reason"]).strip(),
            at=ctx.at,
        )
    )
    return Change(None, {"player": row.name, "kind": p["kind"], "round": rnd})


def get_player(session: Session, *, tournament: str, name: str) -> PlayerPublic:
    t = get_tournament_row(session, tournament)
    return to_public(get_player_row(session, t, name), t.sanctions)


def get_players(session: Session, *, tournament: str, names: Sequence[str]) -> list[PlayerPublic]:
    """:func:`get_player` of each of ``names``, in order, reading the tournament and its players
    once (what the changes of many players at once return).

    Raises:
        NotFound: as :func:`get_player`, for the first name not registered.
    """
    t = get_tournament_row(session, tournament)
    by_name = {row.name: row for row in t.players}
    return [
        to_public(
            by_name[name] if name in by_name else get_player_row(session, t, name), t.sanctions
        )
        for name in names
    ]


def list_players(session: Session, *, tournament: str) -> list[PlayerPublic]:
    t = get_tournament_row(session, tournament)
    return [to_public(p, t.sanctions) for p in t.players]


def eligible_players(t: TournamentRow) -> list[str]:
    """Who may be seated in the next round: active, checked in, and paid where the fee is due."""
    return [
        p.name
        for p in t.players
        if p.status == "active"
        and p.checked_in_at is not None
        and (p.fee_paid or not t.fee_required)
    ]


# --- the director's tools: rename and tag, fees and check-in of many ----------------------------


def rename_player(
    session: Session,
    *,
    tournament: str,
    player: str,
    actor: str,
    name: str | None = None,
    tag: str | None = None,
    now: datetime | None = None,
) -> PlayerPublic:
    """Rename ``player`` and/or give them a distinguishing ``tag`` (club, city…): *Jan Müller*
    becomes *Jan Müller (Köln)*, so a second *Jan Müller* can register. Past tables, results,
    auctions, sanctions and the planned schedule follow the new name.

    Raises:
        NotFound: no such player; Conflict: the new name is taken; InvalidInput: nothing to
        change or an empty name or tag.
    """
    if name is None and tag is None:
        raise InvalidInput(f"player {player!r}: give a new name, a tag or both")
    t = get_tournament_row(session, tournament)
    new = _new_name(player, name, tag, get_player_row(session, t, player).extra)
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.rename",
        payload={"player": player, "name": name, "tag": tag},
        now=now,
    )
    return get_player(session, tournament=tournament, name=new)


def _new_name(old: str, name: str | None, tag: str | None, extra: Mapping[str, Any]) -> str:
    base = (name if name is not None else _base_name(old, extra)).strip()
    new_tag = tag if tag is not None else extra.get("tag")
    return PlayerCreate(name=base, tag=new_tag or None).key


def _replace_name(value: Any, old: str, new: str) -> Any:
    """``value`` (JSON) with every string equal to ``old`` replaced by ``new``."""
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_replace_name(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _replace_name(v, old, new) for k, v in value.items()}
    return value


@handler("player.rename")
def _apply_rename(ctx: Ctx, p: dict[str, Any]) -> Change:
    from agon.store.models import DisputeRow

    t = get_tournament_row(ctx.session, ctx.slug, lock=True)
    row = get_player_row(ctx.session, t, p["player"])
    old = row.name
    name, tag = p.get("name"), p.get("tag")
    if name is not None and not str(name).strip():
        raise InvalidInput(f"player {old!r}: the new name must not be empty")
    if tag is not None and not str(tag).strip():
        raise InvalidInput(f"player {old!r}: the tag must not be empty")
    new = _new_name(old, name, tag, row.extra)
    if new == old:
        raise InvalidInput(f"player {old!r}: the name would not change")
    if any(other.name == new for other in t.players):
        raise Conflict(f"tournament {t.slug!r}: player {new!r} is registered already")
    extra = dict(row.extra)
    if tag is not None:
        extra["tag"] = str(tag).strip()
    elif name is not None and extra.get("tag") and not new.endswith(f" ({extra['tag']})"):
        extra.pop("tag")
    row.name, row.extra = new, extra
    for sanction in t.sanctions:
        if sanction.player == old:
            sanction.player = new
    for rnd in t.rounds:
        rnd.info = _replace_name(dict(rnd.info), old, new)
        for table in rnd.tables:
            if old in table.seats:
                table.seats = [new if s == old else s for s in table.seats]
            if table.auction:
                table.auction = [
                    new + a[len(old) :] if a.startswith(old + " ") else a for a in table.auction
                ]
            for result in table.results:
                if result.player == old:
                    result.player = new
    for dispute in ctx.session.scalars(
        select(DisputeRow).where(DisputeRow.tournament == t.slug, DisputeRow.player == old)
    ):
        dispute.player = new
    ctx.session.flush()
    return Change({"name": old}, {"name": new, "tag": extra.get("tag")})


def set_fees(
    session: Session,
    *,
    tournament: str,
    players: Sequence[str],
    paid: bool,
    actor: str,
    now: datetime | None = None,
) -> list[PlayerPublic]:
    """Record the entry fee of several players at once (one journal entry): all or none.

    Raises:
        NotFound: a name that is not registered (nothing is recorded then).
    """
    if not players:
        raise InvalidInput("name at least one player")
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="player.fees",
        payload={"players": list(players), "paid": paid},
        now=now,
    )
    return get_players(session, tournament=tournament, names=players)


@handler("player.fees")
def _apply_fees(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    names = list(p["players"])
    if len(set(names)) != len(names):
        twice = sorted(n for n in names if names.count(n) > 1)[0]
        raise InvalidInput(
            f"player {twice!r} is listed twice",
            msgid=N_("%(player)s is listed twice."),
            params={"player": twice},
        )
    rows = [get_player_row(ctx.session, t, name) for name in names]
    before = {r.name: r.fee_paid for r in rows}
    for r in rows:
        r.fee_paid = bool(p["paid"])
    return Change(before, {r.name: r.fee_paid for r in rows})


def players_to_check_in(session: Session, *, tournament: str) -> list[str]:
    """Everyone ``agon player checkin --all`` checks in: active, not yet checked in, and paid
    where the ruleset wants the fee first (the unpaid are left for the desk to settle)."""
    t = get_tournament_row(session, tournament)
    return [
        p.name
        for p in t.players
        if p.status == "active" and p.checked_in_at is None and (p.fee_paid or not t.fee_required)
    ]


#: The handlers of registration and check-in, applied again by online registration's check-in
#: (:mod:`agon.services.registration`) within its own journal entry.
apply_register = _apply_register
apply_checkin = _apply_checkin
