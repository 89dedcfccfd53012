"""Seating a round online: every table becomes a game of the game service, with the round's
draws or the table's auction (journal actions ``online.open`` and ``online.game``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput, where
from agon.services.core import (
    Change,
    Ctx,
    get_round_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
)
from agon.services.online.state import (
    OnlineOptions,
    OnlineRound,
    _set_online_info,
    get_host,
    online_info,
    online_round,
)
from agon.services.online_games import (
    GameHost,
    GameOrder,
    SeatKind,
    SeatOrder,
)
from agon.store.models import GameTableRow, RoundRow, TournamentRow
from agon.tournament.draws import GUILD_DATA, online_game_seed
from agon.tournament.limits import check_number

# --- seating a round online ----------------------------------------------------------------------

#: The options of :func:`seat_online` and :func:`start_round_online` when none are given (frozen).
DEFAULT_OPTIONS = OnlineOptions()


def _game_order(
    t: TournamentRow, rnd: RoundRow, row: GameTableRow, options: OnlineOptions
) -> tuple[GameOrder, dict[str, Any]] | None:
    """The game of a table by the ruleset's draws, and its journal item; ``None`` while the
    table's wonder auction is not over (Ludolimpico 2.1: the wonders are the table's to win)."""
    ruleset = ruleset_of(t)
    n = len(row.seats)
    wonders: list[str] | None
    if ruleset.auction and len(rnd.wonders) > n:
        if row.auction is None:
            return None
        from agon.services.results import _auction

        won = _auction(t, row, row.auction).results()
        wonders = [won[p][0] for p in row.seats]
    elif len(rnd.wonders) >= n:
        wonders = list(rnd.wonders[:n])
    else:
        wonders = None  # seated by hand without a draw: the game draws from its seed
    sides: list[str] | None = None
    choose = ruleset.wonder_sides == "choice"
    if wonders is not None and not choose:
        drawn = rnd.sides or {}
        sides = [drawn.get(w, "A") for w in wonders]
    kind: SeatKind = "bot" if options.all_bots else "human"
    seats = tuple(SeatOrder(player=p, kind=kind, bot=options.bot) for p in row.seats)
    order = GameOrder(
        label=f"{t.slug} round {rnd.number} table {row.number}",
        seed=online_game_seed(t.seed, rnd.number, row.number),
        seats=seats,
        wonders=None if wonders is None else tuple(wonders),
        sides=None if sides is None else tuple(sides),
        guilds=_guild_names(rnd.guilds) if len(rnd.guilds) >= n + 2 else None,
        choose_sides=choose,
        tournament=t.slug,
        round=rnd.number,
        table=row.number,
    )
    item = {
        "table": row.number,
        "kinds": [s.kind for s in seats],
        "wonders": wonders,
        "sides": sides,
    }
    return order, item


def _guild_names(ids: Sequence[str]) -> tuple[str, ...]:
    """The round's guild draw by the cards' English names (what the game's card data reads)."""
    names = {g.id: g.names["en"] for g in GUILD_DATA}
    return tuple(names.get(g, g) for g in ids)


def _check_game_count(t: TournamentRow, row: GameTableRow) -> None:
    if not 3 <= len(row.seats) <= 7:
        raise InvalidInput(
            f"{where(('round', row.round.number), ('table', row.number))}: an online 7 Wonders "
            f"game seats 3 to 7 players, this table has {len(row.seats)}",
            msgid=N_("An online game seats 3 to 7 players; table %(table)d has %(count)d."),
            params={"table": row.number, "count": len(row.seats)},
        )


def seat_online(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    actor: str,
    options: OnlineOptions = DEFAULT_OPTIONS,
    host: GameHost | None = None,
    now: datetime | None = None,
) -> OnlineRound:
    """Seat round ``round_number`` online: each table gets its game (auction tables once their
    auction is over), with the options given. One journal entry, ``online.open``.

    Raises:
        IllegalAction: the round is closed, has results, or is online already;
        InvalidInput: bad options, or a table the game cannot seat.
    """
    options.check()
    check_number(round_number, "round", label=N_("Round"))
    games = host or get_host()
    t = get_tournament_row(session, tournament)
    rnd = get_round_row(session, t, round_number)
    _check_can_open(rnd)
    for row in rnd.tables:
        _check_game_count(t, row)
    seating = [list(row.seats) for row in rnd.tables]
    # The games are created before the journal entry, outside the tournament's lock (the game
    # service writes with its own transactions); the entry then checks that the round is still
    # as it was. If it is not (another director was quicker), the games made here stay unused.
    orders = [made for row in rnd.tables if (made := _game_order(t, rnd, row, options))]
    session.rollback()
    tables = []
    for order, item in orders:
        created = games.create(session, order)
        item["game"], item["links"] = created.game, list(created.links)
        tables.append(item)

    def decide(session: Session) -> dict[str, Any]:
        now_t = get_tournament_row(session, tournament)
        now_rnd = get_round_row(session, now_t, round_number)
        _check_can_open(now_rnd)
        if [list(row.seats) for row in now_rnd.tables] != seating:
            raise Conflict(
                f"round {round_number} was seated anew meanwhile; try again",
                msgid=N_("Round %(round)d was seated anew meanwhile; try again."),
                params={"round": round_number},
            )
        return {"round": round_number, "options": _options_json(options), "tables": tables}

    record(
        session, tournament=tournament, actor=actor, action="online.open", payload=decide, now=now
    )
    result = online_round(session, tournament=tournament, number=round_number)
    assert result is not None
    return result


def _options_json(options: OnlineOptions) -> dict[str, Any]:
    return {
        "bots": options.bots,
        "bot": options.bot,
        "grace_minutes": options.grace_minutes,
        "all_bots": options.all_bots,
    }


def _check_can_open(rnd: RoundRow) -> None:
    if rnd.status == "closed":
        raise IllegalAction(
            f"round {rnd.number} is closed",
            msgid=N_("Round %(round)d is closed."),
            params={"round": rnd.number},
        )
    if online_info(rnd) is not None:
        raise IllegalAction(
            f"round {rnd.number} is played online already",
            msgid=N_("Round %(round)d is played online already."),
            params={"round": rnd.number},
        )
    entered = [tb.number for tb in rnd.tables if tb.results]
    if entered:
        raise IllegalAction(
            f"round {rnd.number}: table {entered[0]} has a result already; a round goes online "
            "before any result is entered",
            msgid=N_("A round goes online before any result is entered."),
        )


def start_round_online(
    session: Session,
    *,
    tournament: str,
    actor: str,
    tables: Sequence[Sequence[str]] | None = None,
    options: OnlineOptions = DEFAULT_OPTIONS,
    host: GameHost | None = None,
    now: datetime | None = None,
    ratings: Mapping[str, float] | None = None,
) -> OnlineRound:
    """Start the next round (:func:`agon.services.rounds.start_round`, with seeding ``ratings``
    for a Swiss round 1), seat it online and start its clock when the tournament has one (the
    games begin at once).

    Three journal entries (``round.start``, ``online.open``, ``clock.start``); if the games cannot
    be created the round stays started as a table round and the error says why.

    Raises:
        what :func:`~agon.services.rounds.start_round` and :func:`seat_online` raise.
    """
    from agon.services import floor, rounds, tournaments

    options.check()
    games = host or get_host()
    rnd = rounds.start_round(
        session, tournament=tournament, actor=actor, tables=tables, now=now, ratings=ratings
    )
    seated = seat_online(
        session,
        tournament=tournament,
        round_number=rnd.number,
        actor=actor,
        options=options,
        host=games,
        now=now,
    )
    minutes = tournaments.get_tournament(session, slug=tournament).round_minutes
    if minutes is not None:
        floor.start_clock(
            session,
            tournament=tournament,
            round_number=rnd.number,
            minutes=minutes,
            actor=actor,
            now=now,
        )
    return seated


@handler("online.open")
def _apply_open(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnd = get_round_row(ctx.session, t, int(p["round"]), share=True)
    _check_can_open(rnd)
    options = OnlineOptions(**p["options"])
    options.check()
    numbers = {row.number for row in rnd.tables}
    tables: dict[str, Any] = {}
    for item in p["tables"]:
        if int(item["table"]) not in numbers:
            raise InvalidInput(f"online: round {rnd.number} has no table {item['table']}")
        tables[str(int(item["table"]))] = _game_item(item)
    _set_online_info(rnd, {"options": _options_json(options), "tables": tables, "time_up": False})
    ctx.session.flush()
    return Change(None, {"round": rnd.number, "games": {k: v["game"] for k, v in tables.items()}})


def _game_item(item: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "game": str(item["game"]),
        "kinds": list(item["kinds"]),
        "wonders": item.get("wonders"),
        "sides": item.get("sides"),
        "links": list(item.get("links") or [None] * len(item["kinds"])),
        "recorded": False,
        "time_up": False,
    }


@handler("online.game")
def _apply_game(ctx: Ctx, p: dict[str, Any]) -> Change:
    """A table whose auction just ended gets its game (Ludolimpico 2.1)."""
    t = get_tournament_row(ctx.session, ctx.slug)
    rnd = get_round_row(ctx.session, t, int(p["round"]), share=True)
    data = _require_online(rnd)
    for item in p["tables"]:
        key = str(int(item["table"]))
        if key in data["tables"]:
            raise Conflict(f"round {rnd.number}, table {key}: has its game already")
        data["tables"][key] = _game_item(item)
    _set_online_info(rnd, data)
    ctx.session.flush()
    return Change(None, {"round": rnd.number, "games": [i["game"] for i in p["tables"]]})


def _require_online(rnd: RoundRow) -> dict[str, Any]:
    data = online_info(rnd)
    if data is None:
        raise IllegalAction(
            f"round {rnd.number} is not played online",
            msgid=N_("Round %(round)d is not played online."),
            params={"round": rnd.number},
        )
    return {**data, "tables": {k: dict(v) for k, v in data["tables"].items()}}
