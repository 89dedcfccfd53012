"""Bots for absent players, the round clock's end, and the sweep that applies both (journal
actions ``online.bot`` and ``online.time_up``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import Conflict, InvalidInput, NotFound
from agon.services.core import (
    Change,
    Ctx,
    get_round_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
    utcnow,
)
from agon.services.online.opening import _game_order, _require_online
from agon.services.online.results import record_game_result
from agon.services.online.state import (
    OnlineOptions,
    OnlineSeat,
    OnlineTable,
    _set_online_info,
    get_host,
    online_info,
    online_round,
)
from agon.services.online_games import (
    GameHost,
)
from agon.store.models import JournalEntry, RoundRow, TournamentRow

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
