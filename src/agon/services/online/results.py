"""Results from the games: a finished game's score sheet recorded as confirmed by the game
(journal action ``online.result``), once, whichever worker sees the end first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from agon.errors import Conflict, IllegalAction, InvalidInput, where
from agon.services.core import (
    Change,
    Ctx,
    get_table_row,
    get_tournament_row,
    handler,
    record,
    ruleset_of,
)
from agon.services.online.opening import _require_online
from agon.services.online.state import _set_online_info, get_host
from agon.services.online_games import (
    GameHost,
    SeatScore,
)
from agon.store.models import GameTableRow, JournalEntry, ResultRow
from agon.tournament.draws import WONDERS
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES

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
