"""Standings, the event file (export/import) and the CSV standings for series organizers.

The standings of a stored tournament are computed by building its :class:`~agon.tournament.event.Event`
and handing it to :func:`~agon.tournament.standings.compute_standings` — the same code that scores an
event file, so an exported file gives exactly the standings shown here.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event as sa_event
from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput
from agon.services.core import Change, Ctx, get_tournament_row, handler, record, ruleset_of
from agon.services.public import PodiumPlace, TournamentStatus
from agon.services.schemas import FinalRanking, TournamentPublic
from agon.services.tournaments import SLUG, get_tournament
from agon.services.views import (
    MEDALS,
    event_of_row,
    result_of,
    seed_ratings_of,
    status_of_row,
)
from agon.services.views import describe_status as describe_status  # re-exported
from agon.store.models import (
    GameTableRow,
    PlayerRow,
    ResultRow,
    RoundRow,
    SanctionRow,
    TournamentRow,
)
from agon.tournament.draws import commitment
from agon.tournament.event import (
    Event,
    Player,
    Result,
    check_against_ruleset,
    parse_event,
    read_event_data,
)
from agon.tournament.incremental import StandingsKeepers
from agon.tournament.limits import NUMBER_MAX, check_number, check_range
from agon.tournament.ruleset import (
    BUILTIN_RULESETS,
    Ruleset,
    load_ruleset,
    parse_ruleset,
    read_ruleset_file,
)
from agon.tournament.scoring import score_table
from agon.tournament.standings import (
    Standings,
    compute_standings,
    format_value,
    results_digest,
)

_REGISTRATION_KEYS = ("registration", "sanctions")


def event_of(session: Session, *, tournament: str) -> Event:
    """The tournament as an event: players, and every table that has a result (pending ones too)."""
    return event_of_row(get_tournament_row(session, tournament))


_SHARED = "agon.shared_standings"


@contextmanager
def shared_standings(session: Session, keepers: StandingsKeepers | None = None) -> Iterator[None]:
    """Within the block, :func:`standings` of a tournament is computed once for ``session`` and
    handed to every later caller (the standings table, the status and the podium of one page all
    ask for it), by ``keepers`` when given. For a session that only reads: a session with
    changes not yet flushed computes afresh, and any flush forgets what was kept."""
    memo: dict[str, Any] = {"keepers": keepers, "kept": {}}
    before = session.info.get(_SHARED)
    session.info[_SHARED] = memo
    try:
        yield
    finally:
        if before is None:
            session.info.pop(_SHARED, None)
        else:
            session.info[_SHARED] = before


def _forget_shared(session: Session, _context: object) -> None:
    memo = session.info.get(_SHARED)
    if memo is not None:
        memo["kept"].clear()


sa_event.listen(Session, "after_flush", _forget_shared)


def standings(
    session: Session, *, tournament: str, keepers: StandingsKeepers | None = None
) -> Standings:
    """The standings now (qualifying rounds; every entered result counts, pending ones too).

    With ``keepers`` (a server's), only the tables changed since its last call are scored
    (:mod:`agon.tournament.incremental`); the standings are the same. Inside
    :func:`shared_standings` they are computed once per tournament.
    """
    memo: dict[str, Any] | None = session.info.get(_SHARED)
    if memo is not None and not (session.new or session.dirty or session.deleted):
        kept: dict[str, Standings] = memo["kept"]
        found = kept.get(tournament)
        if found is None:
            found = kept[tournament] = _standings(session, tournament, keepers or memo["keepers"])
        return found
    return _standings(session, tournament, keepers)


def _standings(session: Session, tournament: str, keepers: StandingsKeepers | None) -> Standings:
    t = get_tournament_row(session, tournament)
    if keepers is not None:
        return keepers.standings(tournament, event_of_row(t), ruleset_of(t))
    return compute_standings(event_of_row(t), ruleset_of(t))


def export_event(session: Session, *, tournament: str) -> dict[str, Any]:
    """The event file (JSON document) of the tournament; ``agon import`` reads it back.

    Players carry their registration (fee, check-in, status) and sanctions as extra fields.
    Tables without a result are left out (the format has no place for them), and a pending
    result is written like a confirmed one: ``notes`` then says so, one line per round (the
    command line prints them on stderr). ``agon export --journal`` carries the whole event.
    """
    t = get_tournament_row(session, tournament)
    players = []
    for p in t.players:
        entry: dict[str, Any] = {"name": p.name, **p.extra}
        entry["registration"] = {
            "fee_paid": p.fee_paid,
            "checked_in": p.checked_in_at is not None,
            "late": p.late,
            "status": p.status,
            "status_round": p.status_round,
            "status_reason": p.status_reason,
        }
        sanctions = [
            {"kind": s.kind, "round": s.round, "reason": s.reason}
            for s in t.sanctions
            if s.player == p.name
        ]
        if sanctions:
            entry["sanctions"] = sanctions
        players.append(entry)
    rounds = []
    for rnd in t.rounds:
        tables = []
        for tb in rnd.tables:
            if not tb.results:
                continue
            results = []
            for r in tb.results:
                item: dict[str, Any] = {"player": r.player, "vp": r.vp, "coins": r.coins}
                if r.left:  # Ludolimpico 2.5: no score, only that the player left
                    item = {"player": r.player, "left": True}
                if r.bid:
                    item["bid"] = r.bid
                if r.wonder:
                    item["wonder"] = r.wonder
                if r.side:
                    item["side"] = r.side
                if r.breakdown is not None:
                    item["breakdown"] = dict(r.breakdown)
                results.append(item)
            table: dict[str, Any] = {"results": results}
            if tb.auction:
                table["auction"] = list(tb.auction)
            tables.append(table)
        if not tables:
            continue
        out: dict[str, Any] = {"tables": tables}
        if rnd.wonders:
            out["wonders"] = list(rnd.wonders)
        if rnd.guilds:
            out["guilds"] = list(rnd.guilds)
        if rnd.sides:
            out["sides"] = dict(sorted(rnd.sides.items()))
        if rnd.final:
            out["final"] = True
        rounds.append(out)
    doc: dict[str, Any] = {
        "name": t.name,
        "ruleset": t.ruleset_ref,
        "seed": t.seed,
        "commitment": commitment(t.seed),
        "results_digest": results_digest(event_of_row(t).rounds),
        **{k: v for k, v in t.info.items() if k in ("date", "location", "director")},
        "players": players,
        "rounds": rounds,
    }
    ratings = seed_ratings_of(t)
    if ratings:
        doc["seed_ratings"] = dict(sorted(ratings.items()))
    notes = left_out(t)
    if notes:
        doc["notes"] = notes
    return doc


def left_out(t: TournamentRow) -> list[str]:
    """What the event file cannot hold of the tournament, one line per round: an open round,
    its tables without a result (left out) and its pending results (written as results)."""
    notes = []
    for rnd in t.rounds:
        missing = [tb.number for tb in rnd.tables if not tb.results]
        pending = [tb.number for tb in rnd.tables if tb.results and tb.state != "confirmed"]
        if rnd.status == "closed" and not missing and not pending:
            continue
        parts = [f"round {rnd.number} is {'closed' if rnd.status == 'closed' else 'open'}"]
        if missing:
            parts.append(f"table(s) {_numbers(missing)} without a result are left out")
        if pending:
            parts.append(
                f"the pending (unconfirmed) result of table(s) {_numbers(pending)} is written "
                "as a result"
            )
        notes.append(
            "; ".join(parts) + "; the event file holds results only: to move the event, "
            "use 'agon export --journal'"
        )
    return notes


def _numbers(numbers: list[int]) -> str:
    return ", ".join(str(n) for n in numbers)


def import_event(
    session: Session,
    *,
    slug: str,
    path: str | Path,
    actor: str,
    now: datetime | None = None,
) -> TournamentPublic:
    """Create tournament ``slug`` from an event file: players, rounds, results (confirmed, closed).

    Raises:
        InvalidInput: the file's first problem (see :func:`agon.tournament.event.load_event`);
        Conflict: the slug is taken.
    """
    path = Path(path)
    data = read_event_data(path)
    event = parse_event(data, origin=str(path))
    toml = None
    if event.ruleset_ref not in BUILTIN_RULESETS:
        try:
            ruleset = load_ruleset(event.ruleset_ref, base_dir=path.parent)
        except InvalidInput as exc:
            raise InvalidInput(f"{path}: field 'ruleset': {exc}") from None
        candidate = path.parent / event.ruleset_ref
        source = candidate if candidate.is_file() else Path(event.ruleset_ref)
        toml = read_ruleset_file(source)
        del ruleset
    if not SLUG.match(slug):
        raise InvalidInput(f"tournament slug {slug!r}: use lower-case letters, digits and '-'")
    record(
        session,
        tournament=slug,
        actor=actor,
        action="tournament.import",
        payload={"slug": slug, "origin": str(path), "event": data, "ruleset_toml": toml},
        now=now,
    )
    return get_tournament(session, slug=slug)


def _check_required_fields(data: Any, ruleset: Ruleset, origin: str) -> None:
    """Every result of the file gives the fields the ruleset requires (Bonn 2018: the coins).

    Raises:
        InvalidInput: naming the round, table, player and missing field.
    """
    for r, rnd in enumerate(data.get("rounds") or [], start=1):
        for t, table in enumerate(rnd.get("tables") or [], start=1):
            for item in table.get("results") or []:
                if isinstance(item, dict) and item.get("left") is True:
                    continue  # left during the game: no score sheet (Ludolimpico 2.5)
                missing = ruleset.missing_fields(item)
                if missing:
                    raise InvalidInput(
                        f"{origin}: round {r}, table {t}, player {item.get('player')!r}: no "
                        f"{' and no '.join(missing)} given; ruleset {ruleset.name!r} requires "
                        f"{', '.join(ruleset.required_fields)} on every sheet"
                    )


@handler("tournament.import")
def _apply_import(ctx: Ctx, p: dict[str, Any]) -> Change:
    if ctx.session.scalar(select(TournamentRow.id).where(TournamentRow.slug == p["slug"])):
        raise Conflict(
            f"a tournament {p['slug']!r} exists already",
            msgid=N_("A tournament “%(slug)s” exists already."),
            params={"slug": p["slug"]},
        )
    origin = str(p.get("origin", "<import>"))
    event = parse_event(p["event"], origin=origin)
    toml = p.get("ruleset_toml")
    ruleset = parse_ruleset(toml, origin=origin) if toml else load_ruleset(event.ruleset_ref)
    check_against_ruleset(event, ruleset, origin=origin)
    _check_required_fields(p["event"], ruleset, origin)
    t = TournamentRow(
        slug=p["slug"],
        name=event.name,
        ruleset_ref=event.ruleset_ref,
        ruleset_toml=toml,
        seed=event.seed,
        min_players=min(ruleset.min_players, len(event.players)),
        max_players=max(ruleset.max_players, len(event.players)),
        players_override=not (ruleset.min_players <= len(event.players) <= ruleset.max_players),
        starts_at=None,
        checkin_minutes=ruleset.checkin_minutes,
        fee_required=ruleset.fee_required,
        info=dict(event.info),
        created_at=ctx.at,
    )
    for player in event.players:
        extra = {k: v for k, v in player.extra.items() if k not in _REGISTRATION_KEYS}
        reg = _registration(player, origin)
        t.players.append(
            PlayerRow(
                name=player.name,
                extra=extra,
                fee_paid=reg["fee_paid"],
                checked_in_at=ctx.at if reg["checked_in"] else None,
                late=reg["late"],
                status=reg["status"],
                status_round=reg["status_round"],
                status_reason=reg["status_reason"],
                registered_at=ctx.at,
            )
        )
        for s in _sanctions(player, origin):
            t.sanctions.append(
                SanctionRow(
                    player=player.name,
                    kind=s["kind"],
                    round=s["round"],
                    reason=s["reason"],
                    at=ctx.at,
                )
            )
    for number, rnd in enumerate(event.rounds, start=1):
        sides = dict(rnd.sides) or None
        row = RoundRow(
            number=number,
            final=rnd.final,
            status="closed",
            wonders=list(rnd.wonders),
            guilds=list(rnd.guilds),
            sides=sides,
            info={"seed_ratings": dict(event.seed_ratings)}
            if number == 1 and event.seed_ratings
            else {},
            started_at=ctx.at,
            closed_at=ctx.at,
        )
        for i, table in enumerate(rnd.tables, start=1):
            tb = GameTableRow(
                number=i,
                seats=[r.player for r in table.results],
                state="confirmed",
                version=ctx.entry_id,
            )
            for seat, r in enumerate(table.results, start=1):
                tb.results.append(
                    ResultRow(
                        seat=seat,
                        player=r.player,
                        vp=r.vp,
                        coins=r.coins,
                        bid=r.bid,
                        wonder=r.wonder,
                        side=r.side,
                        breakdown=None if r.breakdown is None else dict(r.breakdown),
                        confirmed=True,
                        left=r.left,
                    )
                )
            row.tables.append(tb)
        t.rounds.append(row)
    ctx.session.add(t)
    ctx.session.flush()
    return Change(
        None, {"slug": t.slug, "players": len(event.players), "rounds": len(event.rounds)}
    )


_REGISTRATION_DEFAULTS: dict[str, Any] = {
    "fee_paid": True,
    "checked_in": True,
    "late": False,
    "status": "active",
    "status_round": None,
    "status_reason": "",
}
_STATUSES = ("active", "dropped", "withdrawn", "expelled")


def _registration(player: Player, origin: str) -> dict[str, Any]:
    """The ``registration`` extra field of an imported player, every value of its right type.

    Raises:
        InvalidInput: an unknown key or a value of the wrong type, naming player and field.
    """
    at = f"{origin}: player {player.name!r}, field 'registration'"
    reg = player.extra.get("registration")
    if reg is None:
        return dict(_REGISTRATION_DEFAULTS)
    if not isinstance(reg, dict):
        raise InvalidInput(f"{at}: must be an object")
    unknown = sorted(set(reg) - set(_REGISTRATION_DEFAULTS))
    if unknown:
        raise InvalidInput(f"{at}: unknown key {unknown[0]!r}")
    out = dict(_REGISTRATION_DEFAULTS)
    for key in ("fee_paid", "checked_in", "late"):
        value = reg.get(key, out[key])
        if not isinstance(value, bool):
            raise InvalidInput(f"{at}.{key}: must be true or false, got {value!r}")
        out[key] = value
    status = reg.get("status", "active")
    if status not in _STATUSES:
        raise InvalidInput(f"{at}.status: unknown status {status!r} ({', '.join(_STATUSES)})")
    out["status"] = status
    if reg.get("status_round") is not None:
        out["status_round"] = check_range(reg["status_round"], 0, NUMBER_MAX, f"{at}.status_round")
    reason = reg.get("status_reason", "")
    if not isinstance(reason, str):
        raise InvalidInput(f"{at}.status_reason: must be text, got {reason!r}")
    out["status_reason"] = reason
    return out


def _sanctions(player: Player, origin: str) -> list[dict[str, Any]]:
    """The ``sanctions`` extra field of an imported player: kind, round (or none), reason.

    Raises:
        InvalidInput: not a list of such objects, naming the player and the sanction.
    """
    items = player.extra.get("sanctions")
    if items is None:
        return []
    at = f"{origin}: player {player.name!r}, field 'sanctions'"
    if not isinstance(items, list):
        raise InvalidInput(f"{at}: must be a list")
    out = []
    for i, s in enumerate(items, start=1):
        if not isinstance(s, dict) or s.get("kind") not in ("warning", "penalty"):
            raise InvalidInput(f"{at}[{i}]: must be an object with kind 'warning' or 'penalty'")
        rnd = s.get("round")
        if rnd is not None:
            check_number(rnd, f"{at}[{i}].round")
        reason = s.get("reason", "")
        if not isinstance(reason, str):
            raise InvalidInput(f"{at}[{i}].reason: must be text, got {reason!r}")
        out.append({"kind": s["kind"], "round": rnd, "reason": reason})
    return out


def standings_csv(session: Session, *, tournament: str) -> str:
    """The standings as CSV for national-series organizers: rank, player, tag, points, the
    ruleset's tie-breaks, games."""
    result = standings(session, tournament=tournament)
    t = get_tournament_row(session, tournament)
    tags = {p.name: str(p.extra.get("tag", "")) for p in t.players}
    criteria = list(result.rows[0].tiebreaks) if result.rows else []
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["rank", "player", "tag", "points", *criteria, "games"])
    for row in result.rows:
        writer.writerow(
            [
                row.rank,
                row.player,
                tags.get(row.player, ""),
                format_value(row.totals.points, "points"),
                *(format_value(row.tiebreaks[c], c) for c in criteria),
                row.totals.games,
            ]
        )
    return out.getvalue()


def _podium_detail(ruleset: Ruleset, result: Result | None) -> str:
    """The score a final's place went by: net VP where the auction is paid in VP (Ludolimpico
    2.1: "Punti Partita", VP minus the bid), else the VP."""
    if result is None:
        return ""
    if ruleset.placing_score == "vp-minus-bid":
        return f"{result.vp - result.bid} net VP ({result.vp} VP − {result.bid} bid)"
    return f"{result.vp} VP"


def final_ranking(session: Session, *, tournament: str) -> FinalRanking:
    """The final's own ranking (medals for places 1–3), then the others by the standings.

    A ruleset without a final (Bonn, the German championship: ``finalists = 0``) has its podium
    in the standings after the last round: the top three places (a shared place shown as such,
    so a tie may put more than three people on it), then the others by their ranks.

    Raises:
        IllegalAction: no final yet, or its result is not confirmed; without a final: the
            qualifying rounds are not all closed yet.
    """
    t = get_tournament_row(session, tournament)
    if ruleset_of(t).finalists == 0:
        return _standings_podium(session, tournament)
    final = next((r for r in t.rounds if r.final), None)
    if final is None:
        raise IllegalAction(
            f"tournament {tournament!r}: the final has not been started",
            msgid=N_("The final has not been started."),
        )
    table = final.tables[0]
    if table.state != "confirmed":
        raise IllegalAction(
            f"tournament {tournament!r}: the final's result is {table.state}",
            msgid=N_("The final's result is not confirmed yet."),
        )
    ruleset = ruleset_of(t)
    scored = score_table(ruleset, [result_of(r) for r in table.results])
    places = tuple(
        PodiumPlace(
            place=seat.place or 0,
            player=seat.player,
            medal=MEDALS.get(seat.place or 0),
            vp=seat.result.vp if seat.result else 0,
            tied=seat.tied,
            bid=seat.result.bid if seat.result else 0,
            detail=_podium_detail(ruleset, seat.result),
        )
        for seat in scored.seats
        if seat.player is not None
    )
    finalists = {p.player for p in places}
    rest = [
        row.player
        for row in standings(session, tournament=tournament).rows
        if row.player not in finalists
    ]
    return FinalRanking(
        final=places,
        others=tuple((len(places) + i, name) for i, name in enumerate(rest, start=1)),
    )


def _standings_podium(session: Session, tournament: str) -> FinalRanking:
    """The podium of a tournament without a final: :func:`tournament_status`'s, once finished."""
    status = tournament_status(session, slug=tournament)
    if not status.finished:
        raise IllegalAction(
            f"tournament {tournament!r}: not finished ({status.rounds_closed} of "
            f"{status.rounds_planned} round(s) closed); its podium is the standings after the "
            "last round",
            msgid=N_("The tournament is not finished yet."),
        )
    on_podium = {p.player for p in status.podium}
    rows = standings(session, tournament=tournament).rows
    return FinalRanking(
        final=status.podium,
        others=tuple((r.rank, r.player) for r in rows if r.player not in on_podium),
    )


def tournament_status(session: Session, *, slug: str) -> TournamentStatus:
    """Where the tournament stands, for captions and the end of the day: qualifying rounds
    closed (of the ruleset's count) and in progress, the final's state, and once finished the
    winner and the podium — the final's own ranking where there is one (Ludolimpico 1: "I
    migliori 5 ... accederanno alla finale"; places by VP minus the bid), else the standings
    after the last round (Bonn: "Die Rangfolge nach dem Ende der vierten Partie bestimmen den
    Turniersieg und die Platzierungen"). The qualifiers: the finalists once the qualifying rounds
    are closed, or the ruleset's ``qualifiers`` best once the tournament is finished.

    Raises:
        NotFound: no such tournament.
    """
    row = get_tournament_row(session, slug)
    rows = standings(session, tournament=slug).rows if row.players else ()
    return status_of_row(row, rows, lambda: final_ranking(session, tournament=slug).final)
