"""Online tournament tables: a round seated at online games, their results journaled by the games.

A director seats a round *online* (``agon round start --online``, the desk's "online" choice):
every table becomes a game of the online game service (:mod:`agon.play`) with the round's draws —
seat k plays the k-th drawn wonder (Bonn 2018, "in der gezogenen Reihenfolge"), or the wonder won
in the table's auction (Ludolimpico 2.1; such a table's game starts once its auction is over),
on the drawn side where the ruleset draws sides (Ludolimpico 2.: "anche il lato"); where the
players choose their side (``[game] wonder_sides = "choice"``, Bonn 2018: "wählen die Teilnehmer
eigenständig eine der beiden Seiten") the game begins with every seat choosing its side at once,
hidden until all have chosen (bots choose by their own policy), and the result records the side
played. Each game's seed is a keyed hash of the tournament's seed, round and table
(:func:`agon.tournament.draws.online_game_seed`): the commitment to the tournament seed covers the
games, and a game's seed, revealed when it ends, tells nothing of the tournament seed.

When a game is over its result — VP, coins, wonder, side and the score-pad breakdown — is recorded
as **confirmed by the game** (action ``online.result``): no score sheet, no typing. The recording
decides under the tournament's lock whether the game's result is already in the journal, so two
workers that both see the end record it once. An undone ``online.result`` is not recorded again by
itself: the director took it back on purpose and enters the table's result by hand.

Bots: with ``bots`` on, a human seat whose player has not been connected for ``grace_minutes``
(never joined, or gone) is handed to a bot (action ``online.bot``). The round clock applies as the
ruleset says: with ``[rounds] time_up = "finish-age"`` (Ludolimpico 1.), when the clock runs out,
each running game is told to end with the age it is in (the game stops there: no further age is
dealt) and the journal records those ages (action ``online.time_up``); once the game has ended
its result is taken as it stands then.

The games themselves live in the game service; this module talks to it through the small
:class:`GameHost` interface (:mod:`agon.services.online_host` adapts :mod:`agon.play` to it), and
only ever *journals decisions*: which game a table plays, which seat a bot took, what the game
scored. Replaying the journal never creates or changes a game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput, NotFound, where
from agon.services.core import (
    Change,
    Ctx,
    as_json,
    get_round_row,
    get_table_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
    utcnow,
)
from agon.services.online_games import (
    CreatedTable,
    GameHost,
    GameOrder,
    SeatKind,
    SeatOrder,
    SeatScore,
)
from agon.store.models import GameTableRow, JournalEntry, ResultRow, RoundRow, TournamentRow
from agon.tournament.draws import GUILD_DATA, WONDERS, online_game_seed
from agon.tournament.event import SCORE_PAD_CATEGORIES
from agon.tournament.limits import check_number

__all__ = ["CreatedTable", "GameHost", "GameOrder", "SeatKind", "SeatOrder", "SeatScore"]

#: The bots a director may choose for empty or abandoned seats (the game service's names).
BOTS = ("random", "heuristic", "search")
#: The longest a director may let a disconnected player's seat wait for them, in minutes.
MAX_GRACE_MINUTES = 240


_HOST: GameHost | None = None


def set_host(host: GameHost | None) -> None:
    """Use ``host`` as the game service (tests, or the web app at start); ``None``: the default."""
    global _HOST
    _HOST = host


def get_host() -> GameHost:
    """The game service: the one set with :func:`set_host`, else :mod:`agon.play` adapted.

    Raises:
        IllegalAction: the online game service is not installed (``web`` extra).
    """
    if _HOST is not None:
        return _HOST
    try:
        from agon.services.online_host import PlayHost
    except ImportError as exc:  # pragma: no cover - the core install without the web extra
        raise IllegalAction(
            f"online play is not available here ({exc}); install agon with the 'web' extra",
            msgid=N_("Online play is not available on this server."),
        ) from None
    host: GameHost = PlayHost()
    return host


# --- the options and the state of an online round ------------------------------------------------


@dataclass(frozen=True, slots=True)
class OnlineOptions:
    """How a round is played online. ``bots``: bots fill empty seats and seats of players gone
    longer than ``grace_minutes``; ``bot``: which bot; ``all_bots``: bots play every seat (a
    demonstration, or a test)."""

    bots: bool = False
    bot: str = "heuristic"
    grace_minutes: int = 5
    all_bots: bool = False

    def check(self) -> None:
        """Raises: InvalidInput: an unknown bot or a grace time out of range."""
        if self.bot not in BOTS:
            raise InvalidInput(
                f"online: unknown bot {self.bot!r} (choose {', '.join(BOTS)})",
                msgid=N_("Unknown bot “%(bot)s”."),
                params={"bot": self.bot},
            )
        grace = self.grace_minutes
        if (
            isinstance(grace, bool)
            or not isinstance(grace, int)
            or not 0 <= grace <= MAX_GRACE_MINUTES
        ):
            raise InvalidInput(
                f"online: the grace time must be 0 to {MAX_GRACE_MINUTES} minutes, got {grace!r}",
                msgid=N_("The grace time must be 0 to %(max)d minutes."),
                params={"max": MAX_GRACE_MINUTES},
            )


@dataclass(frozen=True, slots=True)
class OnlineSeat:
    seat: int
    player: str
    kind: SeatKind
    wonder: str | None
    side: str | None


@dataclass(frozen=True, slots=True)
class OnlineTable:
    """A table of an online round: its game (``None`` while its auction runs) and seats."""

    round: int
    table: int
    game: str | None
    seats: tuple[OnlineSeat, ...]
    recorded: bool
    time_up: bool


@dataclass(frozen=True, slots=True)
class OnlineRound:
    round: int
    options: OnlineOptions
    tables: tuple[OnlineTable, ...]
    time_up: bool


def watch_path(game_id: str) -> str:
    """The public spectator page of a game (no hidden information; see docs/online-play.md)."""
    return f"/play/{game_id}"


def online_info(rnd: RoundRow) -> dict[str, Any] | None:
    """The round's online state as stored in its info (``None``: not an online round)."""
    data = (rnd.info or {}).get("online")
    return data if isinstance(data, dict) else None


def _set_online_info(rnd: RoundRow, data: dict[str, Any] | None) -> None:
    info = dict(rnd.info or {})
    if data is None:
        info.pop("online", None)
    else:
        info["online"] = as_json(data)
    rnd.info = info  # a new dict: the JSON column notices the change


def online_round(session: Session, *, tournament: str, number: int) -> OnlineRound | None:
    """Round ``number`` as played online (``None``: it is not).

    Raises:
        NotFound: no such tournament or round.
    """
    t = get_tournament_row(session, tournament)
    rnd = get_round_row(session, t, number)
    data = online_info(rnd)
    if data is None:
        return None
    return _online_round(rnd, data)


def _online_round(rnd: RoundRow, data: dict[str, Any]) -> OnlineRound:
    options = OnlineOptions(**data["options"])
    tables = []
    for row in rnd.tables:
        game = data["tables"].get(str(row.number))
        kinds = game["kinds"] if game else ["human"] * len(row.seats)
        wonders = game["wonders"] if game and game["wonders"] else [None] * len(row.seats)
        sides = game["sides"] if game and game["sides"] else [None] * len(row.seats)
        seats = tuple(
            OnlineSeat(
                seat=k,
                player=p,
                kind="bot" if kinds[k] == "bot" else "human",
                wonder=wonders[k],
                side=sides[k],
            )
            for k, p in enumerate(row.seats)
        )
        tables.append(
            OnlineTable(
                round=rnd.number,
                table=row.number,
                game=game["game"] if game else None,
                seats=seats,
                recorded=bool(game and game.get("recorded")),
                time_up=bool(game and game.get("time_up")),
            )
        )
    return OnlineRound(
        round=rnd.number, options=options, tables=tuple(tables), time_up=bool(data.get("time_up"))
    )


# --- seating a round online ----------------------------------------------------------------------


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
    options: OnlineOptions = OnlineOptions(),
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
    options: OnlineOptions = OnlineOptions(),
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


# --- results from the games ----------------------------------------------------------------------


class _AlreadyRecorded(Exception):
    """Raised under the lock when the game's result is in the journal already (nothing to do)."""


def _recorded_games(session: Session, slug: str) -> set[str]:
    """Games whose result was ever journaled (undone ones too: not recorded again by itself)."""
    return {
        str(e.payload.get("game"))
        for e in session.scalars(
            select(JournalEntry).where(
                JournalEntry.tournament == slug, JournalEntry.action == "online.result"
            )
        )
    }


def result_payload(row: GameTableRow, game_id: str, scores: Sequence[SeatScore]) -> dict[str, Any]:
    """The ``online.result`` payload of a table from its game's scores (seat order)."""
    if len(scores) != len(row.seats):
        raise InvalidInput(
            f"round {row.round.number}, table {row.number}: the game scored {len(scores)} seats, "
            f"the table has {len(row.seats)}"
        )
    return {
        "round": row.round.number,
        "table": row.number,
        "game": game_id,
        "results": [
            {
                "player": player,
                "vp": s.vp,
                "coins": s.coins,
                "wonder": s.wonder,
                "side": s.side,
                "breakdown": {c: int(s.breakdown.get(c, 0)) for c in SCORE_PAD_CATEGORIES},
            }
            for player, s in zip(row.seats, scores, strict=True)
        ],
    }


def record_game_result(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    table: int,
    host: GameHost | None = None,
    actor: str = "online game",
    now: datetime | None = None,
) -> bool:
    """Record the result of the table's game if it is over and not recorded yet; returns whether
    this call recorded it. Safe to call from several workers at once: exactly one records it.

    Raises:
        NotFound: no such round or table; IllegalAction: the round is not online.
    """
    games = host or get_host()

    def decide(session: Session) -> dict[str, Any]:
        t = get_tournament_row(session, tournament)
        row = get_table_row(session, t, round_number, table)
        data = _require_online(row.round)
        item = data["tables"].get(str(table))
        if item is None or row.results or row.round.status == "closed":
            raise _AlreadyRecorded
        game_id = str(item["game"])
        if game_id in _recorded_games(session, tournament):
            raise _AlreadyRecorded
        scores = games.outcome(session, game_id)
        last_age = item.get("last_age")
        # the clock ran out (Ludolimpico 1.): once the age being played then is over, score now
        if (
            scores is None
            and last_age is not None
            and games.current_age(session, game_id) > int(last_age)
        ):
            scores = games.score_now(session, game_id)
        if scores is None:
            raise _AlreadyRecorded  # still running
        payload = result_payload(row, game_id, scores)
        if last_age is not None and scores is not None:
            payload["after_age"] = int(last_age)
        return payload

    try:
        record(
            session,
            tournament=tournament,
            actor=actor,
            action="online.result",
            payload=decide,
            now=now,
        )
    except _AlreadyRecorded:
        return False
    return True


@handler("online.result")
def _apply_result(ctx: Ctx, p: dict[str, Any]) -> Change:
    from agon.services.results import _check_required, _check_result, _fill_draws, _table_snapshot

    t = get_tournament_row(ctx.session, ctx.slug)
    ruleset = ruleset_of(t)
    rnum, tnum = int(p["round"]), int(p["table"])
    row = get_table_row(ctx.session, t, rnum, tnum)
    place = where(("round", rnum), ("table", tnum))
    data = _require_online(row.round)
    item = data["tables"].get(str(tnum))
    if item is None or item["game"] != p["game"]:
        raise InvalidInput(f"{place}: does not play game {p['game']!r}")
    if row.round.status == "closed":
        raise IllegalAction(f"{place}: the round is closed")
    if row.results:
        raise Conflict(f"{place}: has a result already (version {row.version})")
    by_player: dict[str, dict[str, Any]] = {}
    for res in p["results"]:
        name = res.get("player")
        if name not in row.seats or name in by_player:
            raise InvalidInput(f"{place}, player {name!r}: not seated at this table, or twice")
        if res.get("wonder") is not None and res["wonder"] not in WONDERS:
            raise InvalidInput(f"{place}, player {name!r}: unknown wonder {res['wonder']!r}")
        _check_result(
            res, where(("round", rnum), ("table", tnum), ("player", name)), False, ruleset.limits
        )
        by_player[name] = dict(res)
    if set(by_player) != set(row.seats):
        raise InvalidInput(f"{place}: the game's result must name every seated player")
    _fill_draws(t, row, by_player, place)
    _check_required(ruleset, by_player, row.seats, place)
    before = _table_snapshot(row)
    for seat, name in enumerate(row.seats, start=1):
        res = by_player[name]
        row.results.append(
            ResultRow(
                seat=seat,
                player=name,
                vp=res["vp"],
                coins=res["coins"],
                bid=res.get("bid", 0),
                wonder=res.get("wonder"),
                side=res.get("side"),
                breakdown=res.get("breakdown"),
                confirmed=True,  # confirmed by the game: no score sheet to sign
            )
        )
    row.state = "confirmed"
    row.version = ctx.entry_id
    item["recorded"] = True
    _set_online_info(row.round, data)
    ctx.session.flush()
    return Change(before, _table_snapshot(row))


# --- bots for absent players, the clock, and the sweep -------------------------------------------


@handler("online.bot")
def _apply_bot(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnd = get_round_row(ctx.session, t, int(p["round"]), share=True)
    data = _require_online(rnd)
    item = data["tables"].get(str(int(p["table"])))
    seat = int(p["seat"])
    if item is None or not 0 <= seat < len(item["kinds"]):
        raise NotFound(f"round {rnd.number}, table {p['table']}: no online seat {seat + 1}")
    if item["kinds"][seat] == "bot":
        raise Conflict(f"round {rnd.number}, table {p['table']}: a bot plays seat {seat + 1}")
    kinds = list(item["kinds"])
    kinds[seat] = "bot"
    item["kinds"] = kinds
    _set_online_info(rnd, data)
    ctx.session.flush()
    return Change({"seat": seat + 1, "kind": "human"}, {"seat": seat + 1, "kind": "bot"})


@handler("online.time_up")
def _apply_time_up(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnd = get_round_row(ctx.session, t, int(p["round"]), share=True)
    data = _require_online(rnd)
    if data.get("time_up"):
        raise Conflict(f"round {rnd.number}: the time is up already")
    data["time_up"] = True
    for key, age in dict(p["ages"]).items():
        if str(key) not in data["tables"] or isinstance(age, bool) or not isinstance(age, int):
            raise InvalidInput(f"round {rnd.number}: time up at table {key!r}, age {age!r}")
        data["tables"][str(key)]["time_up"] = True
        data["tables"][str(key)]["last_age"] = age
    _set_online_info(rnd, data)
    ctx.session.flush()
    return Change({"time_up": False}, {"time_up": True, "ages": p["ages"]})


@dataclass(slots=True)
class SweepReport:
    """What one sweep did: games started, results recorded, seats handed to bots, clocks ended."""

    games: list[tuple[int, int]] = field(default_factory=list)
    results: list[tuple[int, int]] = field(default_factory=list)
    bots: list[tuple[int, int, str]] = field(default_factory=list)
    time_up: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.games or self.results or self.bots or self.time_up)


def _open_online_rounds(session: Session, slug: str) -> list[RoundRow]:
    t = get_tournament_row(session, slug)
    return [r for r in t.rounds if r.status == "open" and online_info(r) is not None]


def sweep(
    session: Session,
    *,
    tournament: str,
    host: GameHost | None = None,
    actor: str = "online game",
    now: datetime | None = None,
) -> SweepReport:
    """Bring the tournament's online rounds up to date with their games: start the games of
    tables whose auction just ended, end the games at the end of the age when the clock ran out
    (``time_up = "finish-age"``), hand seats of absent players to bots (when allowed), and record
    the results of finished games. Each step is its own journal entry; calling it twice, or from
    two workers, records nothing twice.
    """
    games = host or get_host()
    report = SweepReport()
    now = now or utcnow()
    rounds = [r.number for r in _open_online_rounds(session, tournament)]
    session.rollback()  # end the read: every change below takes the lock itself
    for number in rounds:
        if _start_waiting_games(session, tournament, number, games, actor, now):
            report.games.extend((number, tb) for tb in _last_games(session, tournament, number))
        if _time_up(session, tournament, number, games, actor, now):
            report.time_up.append(number)
        report.bots.extend(_hand_absent_to_bots(session, tournament, number, games, actor, now))
        rnd = online_round(session, tournament=tournament, number=number)
        assert rnd is not None
        for table in rnd.tables:
            if (
                table.game is not None
                and not table.recorded
                and record_game_result(
                    session,
                    tournament=tournament,
                    round_number=number,
                    table=table.table,
                    host=games,
                    actor=actor,
                    now=now,
                )
            ):
                report.results.append((number, table.table))
    return report


def sweep_all(
    session: Session, *, host: GameHost | None = None, now: datetime | None = None
) -> SweepReport:
    """:func:`sweep` every tournament that has an open online round (what ``agon serve`` runs
    every few seconds, and whenever a game ends)."""
    slugs = [
        t.slug
        for t in session.scalars(select(TournamentRow).order_by(TournamentRow.slug))
        if any(r.status == "open" and online_info(r) is not None for r in t.rounds)
    ]
    session.rollback()
    total = SweepReport()
    for slug in slugs:
        done = sweep(session, tournament=slug, host=host, now=now)
        total.games += done.games
        total.results += done.results
        total.bots += done.bots
        total.time_up += done.time_up
    return total


def _last_games(session: Session, slug: str, number: int) -> list[int]:
    entry = session.scalar(
        select(JournalEntry)
        .where(JournalEntry.tournament == slug, JournalEntry.action == "online.game")
        .order_by(JournalEntry.id.desc())
    )
    return [] if entry is None else [int(i["table"]) for i in entry.payload["tables"]]


class _Nothing(Exception):
    """Raised under the lock when a sweep step finds nothing to do."""


def _locked_step(
    session: Session,
    slug: str,
    action: str,
    actor: str,
    now: datetime,
    decide: Callable[[Session], dict[str, Any]],
) -> bool:
    try:
        record(session, tournament=slug, actor=actor, action=action, payload=decide, now=now)
    except _Nothing:
        return False
    return True


def _start_waiting_games(
    session: Session, slug: str, number: int, games: GameHost, actor: str, now: datetime
) -> bool:
    """Create the games of tables whose auction is over (outside the lock), then journal them;
    a table that got its game meanwhile (another worker) is left out of the entry."""
    t = get_tournament_row(session, slug)
    rnd = get_round_row(session, t, number)
    data = online_info(rnd)
    if data is None or rnd.status != "open":
        return False
    options = OnlineOptions(**data["options"])
    orders = [
        made
        for row in rnd.tables
        if str(row.number) not in data["tables"]
        and not row.results
        and (made := _game_order(t, rnd, row, options))
    ]
    session.rollback()
    if not orders:
        return False
    made_tables = []
    for order, item in orders:
        created = games.create(session, order)
        item["game"], item["links"] = created.game, list(created.links)
        made_tables.append(item)

    def decide(session: Session) -> dict[str, Any]:
        current = online_info(get_round_row(session, get_tournament_row(session, slug), number))
        known = (current or {}).get("tables", {})
        fresh = [item for item in made_tables if str(item["table"]) not in known]
        if not fresh:
            raise _Nothing
        return {"round": number, "tables": fresh}

    return _locked_step(session, slug, "online.game", actor, now, decide)


def _time_up(
    session: Session, slug: str, number: int, games: GameHost, actor: str, now: datetime
) -> bool:
    """When the clock has run out and the ruleset finishes the age (Ludolimpico 1.), tell the
    running games to stop after their current age, then journal it (once)."""
    from agon.services import floor, tournaments

    t = get_tournament_row(session, slug)
    if ruleset_of(t).time_up != "finish-age":
        return False
    data = online_info(get_round_row(session, t, number))
    if data is None or data.get("time_up"):
        return False
    clock = floor.clock(
        session,
        tournament=slug,
        round_number=number,
        default_minutes=tournaments.round_minutes(t),
        now=now,
    )
    if clock.state != "over":
        return False
    # each running game finishes the age it is in and stops there (no further age is dealt):
    # the game itself ends, and its result is taken as it stands then
    running = [
        (key, item["game"])
        for key, item in data["tables"].items()
        if not item.get("recorded") and games.outcome(session, item["game"]) is None
    ]
    session.rollback()
    ages = {
        key: age
        for key, game in running
        if (age := games.stop_after_age(session, game)) is not None
    }
    session.rollback()

    def decide(session: Session) -> dict[str, Any]:
        current = online_info(get_round_row(session, get_tournament_row(session, slug), number))
        if current is None or current.get("time_up"):
            raise _Nothing
        return {"round": number, "ages": ages}

    return _locked_step(session, slug, "online.time_up", actor, now, decide)


def _hand_absent_to_bots(
    session: Session, slug: str, number: int, games: GameHost, actor: str, now: datetime
) -> list[tuple[int, int, str]]:
    rnd = online_round(session, tournament=slug, number=number)
    assert rnd is not None
    session.rollback()
    if not rnd.options.bots:
        return []
    handed = []
    for table in rnd.tables:
        if table.game is None or table.recorded:
            continue
        for seat in table.seats:
            if seat.kind == "human" and _bot_step(
                session, slug, table, seat, rnd.options, games, actor, now
            ):
                handed.append((number, table.table, seat.player))
    return handed


def _bot_step(
    session: Session,
    slug: str,
    table: OnlineTable,
    seat: OnlineSeat,
    options: OnlineOptions,
    games: GameHost,
    actor: str,
    now: datetime,
) -> bool:
    """Hand ``seat`` to a bot if its player has been away for the grace time: the game first
    (outside the lock; handing a seat over twice is harmless), then the journal, once."""
    game_id, k = table.game, seat.seat
    assert game_id is not None
    idle = games.idle_seconds(session, game_id, k, now)
    session.rollback()
    if idle < options.grace_minutes * 60:
        return False
    games.hand_to_bot(session, game_id, k, options.bot)

    def decide(session: Session) -> dict[str, Any]:
        t = get_tournament_row(session, slug)
        current = online_info(get_round_row(session, t, table.round)) or {}
        item = current.get("tables", {}).get(str(table.table))
        if item is None or item["kinds"][k] != "human":
            raise _Nothing
        return {
            "round": table.round,
            "table": table.table,
            "seat": k,
            "player": seat.player,
            "idle_seconds": int(idle),
        }

    return _locked_step(session, slug, "online.bot", actor, now, decide)


# --- the round clock at a game --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameClock:
    """The round clock as a tournament table's game shows it: ``remaining_seconds`` (``None``:
    no time limit), ``state`` (``stopped``, ``running``, ``paused``, ``over``), and whether the
    current age is finished when the time is up (``[rounds] time_up = "finish-age"``)."""

    round: int
    state: str
    remaining_seconds: int | None
    finish_age: bool


def game_clock(
    session: Session, meta: Mapping[str, Any] | None, *, now: datetime | None = None
) -> GameClock | None:
    """The round clock of the tournament table a game plays (``meta``: the game's, as the game
    service keeps it); ``None`` for a game that is no tournament table's, or a round without a
    time limit."""
    from agon.services import floor, tournaments

    meta = meta or {}
    slug, number = meta.get("tournament"), meta.get("round")
    if not isinstance(slug, str) or not slug or not isinstance(number, int) or number < 1:
        return None
    try:
        t = get_tournament_row(session, slug)
        clock = floor.clock(
            session,
            tournament=slug,
            round_number=number,
            default_minutes=tournaments.round_minutes(t),
            now=now,
        )
    except NotFound:
        return None
    if clock.remaining_seconds is None:
        return None
    return GameClock(
        round=number,
        state=clock.state,
        remaining_seconds=clock.remaining_seconds,
        finish_age=ruleset_of(t).time_up == "finish-age",
    )


# --- links ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatLink:
    round: int
    table: int
    seat: int
    player: str
    url: str


def seat_link(session: Session, *, tournament: str, player: str) -> SeatLink | None:
    """The player's seat link in the open online round (``None``: no online seat, or a bot plays
    it). It holds the seat's secret: show it to that player only.
    """
    t = get_tournament_row(session, tournament)
    for rnd in reversed(t.rounds):
        data = online_info(rnd)
        if data is None or rnd.status != "open":
            return None
        for row in rnd.tables:
            item = data["tables"].get(str(row.number))
            if player in row.seats and item is not None and not item.get("recorded"):
                k = row.seats.index(player)
                url = item["links"][k]
                if url is None or item["kinds"][k] != "human":
                    return None
                return SeatLink(
                    round=rnd.number, table=row.number, seat=k + 1, player=player, url=url
                )
        return None
    return None


def seat_links(session: Session, *, tournament: str, number: int) -> dict[tuple[int, int], str]:
    """Every human seat's link of round ``number`` by (table, seat from 0), for the director
    (who hands each player their own)."""
    t = get_tournament_row(session, tournament)
    rnd = get_round_row(session, t, number)
    data = online_info(rnd)
    out: dict[tuple[int, int], str] = {}
    for key, item in (data or {}).get("tables", {}).items():
        for k, url in enumerate(item.get("links") or []):
            if url is not None and item["kinds"][k] == "human":
                out[(int(key), k)] = str(url)
    return out
