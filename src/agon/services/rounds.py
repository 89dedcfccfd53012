"""Rounds: start one (seated by the ruleset's method or by the director), close it, the final.

A round's journal entry holds its tables and draws as decided when it started, so a replay never
draws again. A round cannot close while a table is open or pending (Bonn: the signed score sheet).
Finals (Ludolimpico 1): the best ``finalists`` of the standings qualify; an absent finalist is
replaced by the next in the standings; the final's own ranking decides the podium.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import N_, IllegalAction, InvalidInput
from agon.services.core import (
    Change,
    Ctx,
    get_round_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
)
from agon.services.players import eligible_players
from agon.services.public import RoundPublic
from agon.services.views import round_to_public
from agon.services.views import table_to_public as table_to_public  # re-exported
from agon.store.models import GameTableRow, RoundRow, TournamentRow
from agon.tournament.draws import draw_guilds, draw_sides, draw_wonders


def get_round(session: Session, *, tournament: str, number: int | None = None) -> RoundPublic:
    """Round ``number``, or the latest round. Raises: NotFound."""
    t = get_tournament_row(session, tournament)
    if number is None:
        if not t.rounds:
            raise InvalidInput(
                f"tournament {tournament!r}: no round has been started",
                msgid=N_("No round has been started."),
            )
        return round_to_public(t.rounds[-1])
    return round_to_public(get_round_row(session, t, number))


def list_rounds(session: Session, *, tournament: str) -> list[RoundPublic]:
    return [round_to_public(r) for r in get_tournament_row(session, tournament).rounds]


def start_round(
    session: Session,
    *,
    tournament: str,
    actor: str,
    tables: Sequence[Sequence[str]] | None = None,
    wonders: Sequence[str] = (),
    guilds: Sequence[str] = (),
    sides: Mapping[str, str] | None = None,
    ratings: Mapping[str, float] | None = None,
    now: datetime | None = None,
) -> RoundPublic:
    """Start the next qualifying round.

    ``tables`` seats it by hand (seat order, the first seat starts); without it the round is seated
    by the ruleset's method (:mod:`agon.services.seating`). Only eligible players are seated:
    active, checked in, fee paid where due.

    ``ratings`` (round 1 only) seed the event by rating: a rating list keyed by player as
    :mod:`agon.ratings` names them (name and tag, ``"Jan Müller (Köln)"``), e.g. the ordinals of
    ``agon rating --json``. The registered players' ratings are kept in round 1's journal entry:
    a Swiss round 1 spreads the strongest over the tables, and the standings (and with them the
    final) take the rating where the ruleset's tie-breaks would reach the lot.

    Raises:
        IllegalAction: the previous round is still open, all rounds are played, too few players,
            ratings after round 1;
        InvalidInput: tables that do not seat every eligible player exactly once in allowed sizes,
            ratings that name no registered player or cannot change anything in this ruleset.
    """

    def decide(session: Session) -> dict[str, Any]:  # under the tournament's lock (see record)
        t = get_tournament_row(session, tournament)
        _check_previous_closed(t)  # before the seating search: a refusal costs nothing
        number = len(t.rounds) + 1
        seats, draw = tables, (wonders, guilds, sides)
        info: dict[str, Any] = {}
        seeded = None if ratings is None else _seed_ratings(t, number, ratings)
        if seats is None:
            from agon.services.seating import seat_next_round

            _check_can_seat(t, number)  # before the seating search: a clear refusal

            plan = seat_next_round(session, tournament=t, number=number, ratings=seeded)
            seats, draw, info = plan.tables, (plan.wonders, plan.guilds, plan.sides), plan.info
        if seeded is not None:
            info = {**info, "seed_ratings": seeded}
        return {
            "number": number,
            "final": False,
            "tables": [list(table) for table in seats],
            "wonders": list(draw[0]),
            "guilds": list(draw[1]),
            "sides": None if draw[2] is None else dict(draw[2]),
            "info": info,
        }

    entry = record(
        session, tournament=tournament, actor=actor, action="round.start", payload=decide, now=now
    )
    return get_round(session, tournament=tournament, number=int(entry.payload["number"]))


#: A rating list's key for a player profile's rating (``profile:ID``), beside the names.
PROFILE_KEY = "profile:"

#: The largest seeding rating (in size) an event file holds (:mod:`agon.tournament.event`).
RATING_MAX = 1e6


def _seed_ratings(t: TournamentRow, number: int, ratings: Mapping[str, float]) -> dict[str, float]:
    """The registered players' ratings out of a rating list: a player linked to a profile by the
    entry ``profile:ID`` when the list has one, else by name and tag."""
    from agon.ratings import player_key

    ruleset = ruleset_of(t)
    if number != 1:
        raise IllegalAction(
            f"tournament {t.slug!r}: seeding ratings are given when round 1 starts "
            f"(round {number} is next)",
            msgid=N_("Seeding ratings are given when round 1 starts."),
        )
    if ruleset.seating != "swiss" and ruleset.finalists <= 0:
        raise InvalidInput(
            f"ruleset {ruleset.name!r} seats by a schedule planned from the seed and has no "
            "final: seeding ratings would change nothing"
        )
    seeded = {}
    for p in t.players:
        key = player_key(p.name, p.extra)
        by_profile = f"{PROFILE_KEY}{key.profile}" if key.profile else None
        if by_profile is not None and by_profile in ratings:
            seeded[p.name] = round(float(ratings[by_profile]), 6)
        elif str(key) in ratings:
            seeded[p.name] = round(float(ratings[str(key)]), 6)
    if not seeded:
        raise InvalidInput(
            f"tournament {t.slug!r}: the ratings name none of the registered players (players "
            "are matched by name and tag)"
        )
    return seeded


def _check_previous_closed(t: TournamentRow) -> None:
    for rnd in t.rounds:
        if rnd.status != "closed":
            raise IllegalAction(
                f"tournament {t.slug!r}: round {rnd.number} is still open; close it first",
                msgid=N_("Round %(round)d is still open; close it first."),
                params={"round": rnd.number},
            )


def _check_can_seat(t: TournamentRow, number: int) -> None:
    """Refuse a qualifying round ``number`` that cannot be seated: all rounds started, fewer
    players checked in than round 1 needs, nobody to seat (checked before the seating search, and
    again when the round is recorded).

    Raises:
        IllegalAction: with a message id (the desk shows it in its language).
    """
    ruleset = ruleset_of(t)
    if number > ruleset.rounds:
        raise IllegalAction(
            f"tournament {t.slug!r}: all {ruleset.rounds} qualifying rounds have been started"
            + ("; start the final" if ruleset.finalists else ""),
            msgid=N_("All %(rounds)d qualifying rounds have been started.")
            if not ruleset.finalists
            else N_("All %(rounds)d qualifying rounds have been started; start the final."),
            params={"rounds": ruleset.rounds},
        )
    eligible = eligible_players(t)
    if not eligible:
        needed = t.min_players if number == 1 else min(ruleset.table_sizes)
        raise IllegalAction(
            f"tournament {t.slug!r}: round {number}: no players are checked in; at least "
            f"{needed} are needed",
            msgid=N_("No players are checked in; at least %(min)d are needed."),
            params={"min": needed},
        )
    if number == 1 and len(eligible) < t.min_players:
        raise IllegalAction(
            f"tournament {t.slug!r}: {len(eligible)} players are checked in, ruleset "
            f"{ruleset.name!r} needs at least {t.min_players} (create the tournament with "
            "--min-players to override)",
            msgid=N_(
                "%(count)d players are checked in; the rules need at least %(min)d. Check in "
                "more players (or lower the minimum in the tournament's settings)."
            ),
            params={"count": len(eligible), "min": t.min_players},
        )


@handler("round.start")
def _apply_start(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug, lock=True)
    ruleset = ruleset_of(t)
    number = int(p["number"])
    final = bool(p.get("final"))
    _check_previous_closed(t)
    if number != len(t.rounds) + 1:
        raise IllegalAction(
            f"tournament {t.slug!r}: the next round is {len(t.rounds) + 1}",
            msgid=N_("The next round is round %(round)d; look again and retry."),
            params={"round": len(t.rounds) + 1},
        )
    if any(r.final for r in t.rounds):
        raise IllegalAction(
            f"tournament {t.slug!r}: the final has been played",
            msgid=N_("The final has been played."),
        )
    seed_ratings = (p.get("info") or {}).get("seed_ratings")
    if seed_ratings is not None:
        known = {pl.name for pl in t.players}
        if number != 1 or final:
            raise InvalidInput(
                f"round {number}: seeding ratings belong to round 1",
                msgid=N_("Seeding ratings are given when round 1 starts."),
            )
        if not isinstance(seed_ratings, dict) or not all(
            name in known
            and isinstance(v, int | float)
            and not isinstance(v, bool)
            and math.isfinite(v)
            and abs(v) <= RATING_MAX
            for name, v in seed_ratings.items()
        ):
            raise InvalidInput(
                f"round {number}: seeding ratings must map players to numbers within "
                f"±{RATING_MAX:g}",
                msgid=N_("Seeding ratings must give registered players numbers within ±%(max)s."),
                params={"max": f"{RATING_MAX:g}"},
            )
    tables: list[list[str]] = p["tables"]
    if not tables or any(not table for table in tables):
        raise InvalidInput(
            f"round {number}: give at least one table, none empty",
            msgid=N_("Give at least one table, none of them empty."),
        )
    seated = [name for table in tables for name in table]
    twice = sorted({n for n in seated if seated.count(n) > 1})
    if twice:
        raise InvalidInput(
            f"round {number}: player {twice[0]!r} is seated twice",
            msgid=N_("%(player)s is seated twice."),
            params={"player": twice[0]},
        )
    if final:
        if ruleset.finalists <= 0:
            raise IllegalAction(
                f"ruleset {ruleset.name!r} has no final", msgid=N_("These rules have no final.")
            )
        if len(tables) != 1 or len(tables[0]) != min(ruleset.finalists, len(seated)):
            raise InvalidInput(
                f"the final is one table of {ruleset.finalists}",
                msgid=N_("The final is one table of %(count)d players."),
                params={"count": ruleset.finalists},
            )
        status = {pl.name: pl.status for pl in t.players}
        for name in seated:
            if status.get(name) != "active":
                raise InvalidInput(
                    f"final: player {name!r} is not an active player",
                    msgid=N_("%(player)s cannot play the final: no longer an active player."),
                    params={"player": name},
                )
    else:
        _check_can_seat(t, number)
        eligible = eligible_players(t)
        unknown = [n for n in seated if n not in eligible]
        if unknown:
            raise InvalidInput(
                f"round {number}: player {unknown[0]!r} cannot be seated (not registered, not "
                "checked in, fee unpaid, or dropped)",
                msgid=N_(
                    "%(player)s cannot be seated (not registered, not checked in, fee unpaid, "
                    "or dropped)."
                ),
                params={"player": unknown[0]},
            )
        missing = [n for n in eligible if n not in seated]
        if missing:
            raise InvalidInput(
                f"round {number}: player {missing[0]!r} is not seated",
                msgid=N_("%(player)s is checked in but not seated."),
                params={"player": missing[0]},
            )
        for i, table in enumerate(tables, start=1):
            if len(table) not in ruleset.table_sizes:
                raise InvalidInput(
                    f"round {number}, table {i}: {len(table)} players, ruleset {ruleset.name!r} "
                    f"allows {', '.join(map(str, sorted(ruleset.table_sizes)))}",
                    msgid=N_("Table %(table)d has %(count)d players; the rules allow %(sizes)s."),
                    params={
                        "table": i,
                        "count": len(table),
                        "sizes": ", ".join(map(str, sorted(ruleset.table_sizes))),
                    },
                )
    rnd = RoundRow(
        number=number,
        final=final,
        status="open",
        wonders=list(p.get("wonders") or []),
        guilds=list(p.get("guilds") or []),
        sides=p.get("sides"),
        info=dict(p.get("info") or {}),
        started_at=ctx.at,
    )
    for i, table in enumerate(tables, start=1):
        rnd.tables.append(GameTableRow(number=i, seats=list(table), state="open", version=0))
    t.rounds.append(rnd)
    ctx.session.flush()
    return Change(None, {"round": number, "final": final, "tables": tables})


def close_round(
    session: Session,
    *,
    tournament: str,
    actor: str,
    number: int | None = None,
    now: datetime | None = None,
) -> RoundPublic:
    """Close a round once every table's result is confirmed.

    Raises:
        IllegalAction: a table is open (no result) or pending (not confirmed by everyone).
    """
    if number is None:
        number = get_round(session, tournament=tournament).number
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="round.close",
        payload={"number": number},
        now=now,
    )
    return get_round(session, tournament=tournament, number=number)


@handler("round.close")
def _apply_close(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnd = get_round_row(ctx.session, t, int(p["number"]), lock=True)
    if rnd.status == "closed":
        raise IllegalAction(
            f"round {rnd.number} is closed already",
            msgid=N_("Round %(round)d is closed already."),
            params={"round": rnd.number},
        )
    waiting = [tb for tb in rnd.tables if tb.state != "confirmed"]
    if waiting:
        described = ", ".join(f"table {tb.number} ({tb.state})" for tb in waiting)
        raise IllegalAction(
            f"round {rnd.number} cannot close: {described}",
            msgid=N_(
                "Round %(round)d cannot close yet: not every table is confirmed (%(tables)s)."
            ),
            params={"round": rnd.number, "tables": ", ".join(str(tb.number) for tb in waiting)},
        )
    rnd.status = "closed"
    rnd.closed_at = ctx.at
    return Change({"status": "open"}, {"status": "closed"})


def start_final(
    session: Session,
    *,
    tournament: str,
    actor: str,
    absent: Sequence[str] = (),
    wonders: Sequence[str] = (),
    guilds: Sequence[str] = (),
    sides: Mapping[str, str] | None = None,
    now: datetime | None = None,
) -> RoundPublic:
    """Seat the final: the best ``finalists`` of the standings, absent ones replaced by the next.

    Seats follow the standings (the best player is the start player). The final's draws come from
    the tournament's seed like every round's (wonders: one per finalist, one more with an auction).

    Raises:
        IllegalAction: no final in this ruleset, qualifying rounds not all played and closed.
        InvalidInput: an absent name that is not a player.
    """
    from agon.services.exchange import standings

    t = get_tournament_row(session, tournament)
    ruleset = ruleset_of(t)
    if ruleset.finalists <= 0:
        raise IllegalAction(
            f"ruleset {ruleset.name!r} has no final",
            msgid=N_("This tournament's rules have no final."),
        )
    played = [r for r in t.rounds if not r.final]
    if len(played) < ruleset.rounds or any(r.status != "closed" for r in played):
        raise IllegalAction(
            f"tournament {tournament!r}: the final comes after {ruleset.rounds} closed "
            f"qualifying rounds ({len(played)} started)",
            msgid=N_("The final comes after %(rounds)d closed qualifying rounds."),
            params={"rounds": ruleset.rounds},
        )
    names = {p.name: p for p in t.players}
    for name in absent:
        if name not in names:
            raise InvalidInput(
                f"absent finalist {name!r} is not a player",
                msgid=N_("%(player)s is not a player of this tournament."),
                params={"player": name},
            )
    ranked = [row.player for row in standings(session, tournament=tournament).rows]
    present = [n for n in ranked if n not in absent and names[n].status == "active"]
    finalists = present[: ruleset.finalists]
    replaced = {
        a: r
        for a, r in zip(
            [n for n in ranked[: ruleset.finalists] if n not in finalists],
            [n for n in finalists if n not in ranked[: ruleset.finalists]],
            strict=False,
        )
    }
    number = len(t.rounds) + 1
    if not wonders:
        count = len(finalists) + (1 if ruleset.auction else 0)
        wonders = draw_wonders(t.seed, number, count)
        guilds = draw_guilds(t.seed, number)
        sides = draw_sides(t.seed, ruleset, number)
    payload = {
        "number": number,
        "final": True,
        "tables": [finalists],
        "wonders": list(wonders),
        "guilds": list(guilds),
        "sides": None if sides is None else dict(sides),
        "info": {"replaced": replaced},
    }
    record(
        session, tournament=tournament, actor=actor, action="round.start", payload=payload, now=now
    )
    return get_round(session, tournament=tournament, number=number)
