"""Results per table: enter, correct (optimistic version check), confirm.

A table's result is *pending* until every player at it has confirmed it — the signed score sheet of
the Bonn rules ("von allen Teilnehmern unterschrieben"); the director may confirm on a player's
behalf. A correction names the version it corrects; if someone changed the table meanwhile the
correction is refused with :class:`~agon.errors.Conflict` instead of silently overwriting.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import N_, Conflict, IllegalAction, InvalidInput, Text, where
from agon.services.core import (
    Change,
    Ctx,
    check_version,
    get_table_row,
    get_tournament_row,
    handler,
    record,
    replaying,
    ruleset_of,
)
from agon.services.public import TablePublic
from agon.services.rounds import table_to_public
from agon.services.schemas import ResultIn
from agon.store.models import GameTableRow, ResultRow, TournamentRow
from agon.tournament.auction import Auction
from agon.tournament.draws import WONDERS
from agon.tournament.limits import Limits, check_number, check_range
from agon.tournament.ruleset import Ruleset
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES


def _table_snapshot(row: GameTableRow) -> dict[str, Any]:
    return {
        "state": row.state,
        "version": row.version,
        "results": [
            {
                "player": r.player,
                "vp": r.vp,
                "coins": r.coins,
                "bid": r.bid,
                "wonder": r.wonder,
                "side": r.side,
                "breakdown": r.breakdown,
                "confirmed": r.confirmed,
                **({"left": True} if r.left else {}),
            }
            for r in row.results
        ],
    }


def _check_numbers(round_number: object, table: object) -> None:
    """Round and table numbers are 1…10,000 (:mod:`agon.tournament.limits`)."""
    check_number(round_number, "round", label=N_("Round"))
    check_number(table, "table", label=N_("Table"))


def get_table(session: Session, *, tournament: str, round_number: int, table: int) -> TablePublic:
    t = get_tournament_row(session, tournament)
    return table_to_public(round_number, get_table_row(session, t, round_number, table))


def enter_result(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    table: int,
    results: Sequence[ResultIn],
    actor: str,
    expected_version: int | None = None,
    now: datetime | None = None,
) -> TablePublic:
    """Enter a table's results (first entry), or correct them (``expected_version`` given).

    Every seated player appears exactly once; the breakdown, when given, adds up to the VP.
    The table becomes *pending*; every earlier confirmation is cleared by a correction.

    Raises:
        InvalidInput: a bad or missing result; Conflict: the table already has a result and no
        version was given, or it changed since ``expected_version``; IllegalAction: round closed.
    """
    _check_numbers(round_number, table)
    payload = {
        "round": round_number,
        "table": table,
        "results": [r.as_payload() for r in results],
        "expected_version": expected_version,
    }
    record(
        session, tournament=tournament, actor=actor, action="result.enter", payload=payload, now=now
    )
    return get_table(session, tournament=tournament, round_number=round_number, table=table)


#: The result fields as the score sheet labels them (the web's messages name them).
FIELD_LABELS: dict[str, str] = {
    "vp": N_("VP"),
    "coins": N_("Coins"),
    "bid": N_("Bid"),
    "wonder": N_("Wonder"),
    "side": N_("Side"),
    "breakdown": N_("Score pad"),
}


def _check_left(item: dict[str, Any], place: str) -> None:
    """A player who left during the game (Ludolimpico 2.5) has no score: VP 0, no coins, no
    breakdown, no side; the auction's bid and wonder may be recorded.

    Raises:
        InvalidInput: naming the first score value given.
    """
    if item.get("left") is not True:
        raise InvalidInput(
            f"{place}, field 'left': must be true or absent",
            msgid=N_("%(player)s: “left during the game” is either marked or not."),
            params={"player": item.get("player", "")},
        )
    given = [k for k in ("coins", "side", "breakdown") if item.get(k) is not None] + (
        ["vp"] if item.get("vp", 0) != 0 else []
    )
    if given:
        raise InvalidInput(
            f"{place}, field {given[0]!r}: a player who left during the game (Ludolimpico 2.5) "
            "has no score; give only that the player left (and the auction's bid and wonder)",
            msgid=N_("%(player)s left during the game and has no score."),
            params={"player": item.get("player", "")},
        )


def _check_result(item: dict[str, Any], place: str, auction: bool, limits: Limits) -> None:
    if "left" in item:
        _check_left(item, place)
    for key in ("vp", "coins", "bid"):
        value = item.get(key, 0)
        if key == "coins" and value is None:
            continue  # not given: refused below if the ruleset requires it
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(
                f"{place}, field {key!r}: must be an integer, got {value!r}",
                msgid=N_("%(player)s: %(field)s must be a whole number."),
                params={"player": item.get("player", ""), "field": Text(FIELD_LABELS[key])},
            )
    wonder = item.get("wonder")
    if wonder is not None and wonder not in WONDERS:
        raise InvalidInput(
            f"{place}, field 'wonder': {wonder!r} is not a wonder of the game "
            f"(known: {', '.join(WONDERS)})",
            msgid=N_("%(player)s: “%(wonder)s” is not a wonder of the game."),
            params={"player": item.get("player", ""), "wonder": wonder},
        )
    if (item.get("coins") or 0) < 0 or item.get("bid", 0) < 0:
        raise InvalidInput(
            f"{place}: coins and bid must not be negative",
            msgid=N_("%(player)s: coins and bid must not be negative."),
            params={"player": item.get("player", "")},
        )
    limits.check_result(
        vp=item.get("vp", 0), coins=item.get("coins") or 0, bid=item.get("bid", 0), place=place
    )
    if item.get("bid", 0) and not auction:
        raise InvalidInput(
            f"{place}, field 'bid': this ruleset has no auction",
            msgid=N_("%(player)s: there is no bid, these rules have no wonder auction."),
            params={"player": item.get("player", "")},
        )
    side = item.get("side")
    if side is not None and side not in ("A", "B"):
        raise InvalidInput(
            f"{place}, field 'side': must be 'A' or 'B', got {side!r}",
            msgid=N_("%(player)s: the wonder's side is A or B."),
            params={"player": item.get("player", "")},
        )
    breakdown = item.get("breakdown")
    if breakdown is not None:
        unknown = sorted(set(breakdown) - set(SCORE_PAD_CATEGORIES))
        if unknown:
            raise InvalidInput(
                f"{place}, field 'breakdown': unknown category {unknown[0]!r}",
                msgid=N_("%(player)s: the score pad has no category “%(category)s”."),
                params={"player": item.get("player", ""), "category": unknown[0]},
            )
        from agon.i18n import SCORE_CATEGORIES  # the score pad's labels; only with a breakdown

        for cat, value in breakdown.items():
            check_range(
                value,
                limits.vp_min,
                limits.vp_max,
                f"{place}, field 'breakdown.{cat}'",
                label=SCORE_CATEGORIES[cat],
            )
        total = sum(int(breakdown.get(c, 0)) for c in SCORE_PAD_CATEGORIES)
        if total != item["vp"]:
            raise InvalidInput(
                f"{place}, field 'breakdown': categories add up to {total}, but vp is {item['vp']}",
                msgid=N_("%(player)s: the categories add up to %(total)d, but the VP are %(vp)d."),
                params={"player": item.get("player", ""), "total": total, "vp": item["vp"]},
            )


@handler("result.enter")
def _apply_enter(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    ruleset = ruleset_of(t)
    rnum, tnum = int(p["round"]), int(p["table"])
    row = get_table_row(ctx.session, t, rnum, tnum)
    place = where(("round", rnum), ("table", tnum))
    if row.round.status == "closed":
        raise IllegalAction(
            f"{place}: the round is closed",
            msgid=N_("Round %(round)d is closed."),
            params={"round": rnum},
        )
    expected = p.get("expected_version")
    if expected is None and row.results:
        raise Conflict(
            f"{place}: already has a result (version {row.version}); a correction names the "
            f"version it corrects ({row.version})",
            msgid=N_("This table already has a result; reload the page to correct it."),
        )
    check_version(row, expected, place)
    by_player: dict[str, dict[str, Any]] = {}
    for item in p["results"]:
        name = item.get("player")
        if name not in row.seats:
            raise InvalidInput(
                f"{place}, player {name!r}: not seated at this table "
                f"(seats: {', '.join(row.seats)})",
                msgid=N_("%(player)s is not seated at this table."),
                params={"player": name},
            )
        if name in by_player:
            raise InvalidInput(
                f"{place}, player {name!r}: given twice",
                msgid=N_("%(player)s is given twice."),
                params={"player": name},
            )
        _check_result(
            item,
            where(("round", rnum), ("table", tnum), ("player", name)),
            ruleset.auction,
            ruleset.limits,
        )
        by_player[name] = item
    if by_player and all(item.get("left") for item in by_player.values()):
        raise InvalidInput(
            f"{place}: every player left; a game needs at least one player who finished it",
            msgid=N_("Every player left; a game needs at least one player who finished it."),
        )
    missing = [n for n in row.seats if n not in by_player]
    if missing:
        raise InvalidInput(
            f"{place}, player {missing[0]!r}: no result given",
            msgid=N_("%(player)s: no result given."),
            params={"player": missing[0]},
        )
    _fill_draws(t, row, by_player, place)
    _check_required(ruleset, by_player, row.seats, place)
    before = _table_snapshot(row)
    in_replay = replaying(ctx.session)
    if row.results or not in_replay:  # the old rows' deletes before the new rows' inserts
        row.results.clear()
        ctx.session.flush()
    for seat, name in enumerate(row.seats, start=1):
        item = by_player[name]
        row.results.append(
            ResultRow(
                seat=seat,
                player=name,
                vp=item["vp"],
                coins=item.get("coins") or 0,
                bid=item.get("bid", 0),
                wonder=item.get("wonder"),
                side=item.get("side"),
                breakdown=item.get("breakdown"),
                confirmed=False,
                left=bool(item.get("left")),
            )
        )
    row.state = "pending"
    row.version = ctx.entry_id
    if not in_replay:
        ctx.session.flush()
    return Change(before, _table_snapshot(row))


def _check_required(
    ruleset: Ruleset, by_player: dict[str, dict[str, Any]], seats: Sequence[str], place: str
) -> None:
    """Every field the ruleset requires on the score sheet is there (Bonn 2018: the coins).

    Raises:
        InvalidInput: naming the first player and the field(s) missing.
    """
    for name in seats:
        if by_player[name].get("left"):
            continue  # no score sheet for a game left during play (Ludolimpico 2.5)
        missing = ruleset.missing_fields(by_player[name])
        if missing:
            raise InvalidInput(
                f"{place}, player {name!r}: no {' and no '.join(missing)} given; ruleset "
                f"{ruleset.name!r} requires {', '.join(ruleset.required_fields)} on every sheet",
                msgid=N_(
                    "%(player)s: the score sheet needs “%(field)s” (the rules require it on "
                    "every sheet)."
                ),
                params={"player": name, "field": Text(FIELD_LABELS.get(missing[0], missing[0]))},
            )


def _auction(t: TournamentRow, row: GameTableRow, actions: Sequence[str]) -> Auction:
    """The table's auction replayed from its text actions (Ludolimpico 2.1)."""
    return Auction.replay(
        row.seats,
        row.round.wonders,
        actions,
        seed=t.seed,
        label=f"round {row.round.number} table {row.number}",
    )


def _fill_draws(
    t: TournamentRow, row: GameTableRow, by_player: dict[str, dict[str, Any]], place: str
) -> None:
    """Fill in what the draws already decided: the wonder and bid won in the auction
    (Ludolimpico 2.1), else the wonder of the seat (Bonn: seat k plays the k-th drawn wonder), and
    the drawn side. A value entered that contradicts them is refused.

    Raises:
        InvalidInput: a wonder, bid or side that differs from the auction or the draw.
    """
    won = _auction(t, row, row.auction).results() if row.auction else None
    wonders = row.round.wonders
    sides = row.round.sides or {}
    for seat, name in enumerate(row.seats):
        item = by_player[name] = dict(by_player[name])
        at = f"{place}, player {name!r}"
        if won is not None:
            won_wonder, bid = won[name]
            if item.get("wonder") not in (None, won_wonder):
                raise InvalidInput(
                    f"{at}: won {won_wonder} in the auction, not {item['wonder']}",
                    msgid=N_("%(player)s won %(won)s in the auction, not %(wonder)s."),
                    params={"player": name, "won": won_wonder, "wonder": item["wonder"]},
                )
            if item.get("bid", 0) not in (0, bid):
                raise InvalidInput(
                    f"{at}: bid {bid} in the auction, not {item['bid']}",
                    msgid=N_("%(player)s bid %(won)s in the auction, not %(bid)s."),
                    params={"player": name, "won": bid, "bid": item["bid"]},
                )
            item["wonder"], item["bid"] = won_wonder, bid
        elif item.get("wonder") is None and not ruleset_of(t).auction and seat < len(wonders):
            item["wonder"] = wonders[seat]
        wonder = item.get("wonder")
        if wonder in sides and not item.get("left"):  # a player who left has no side to record
            if item.get("side") not in (None, sides[wonder]):
                raise InvalidInput(
                    f"{at}: side {sides[wonder]} of {wonder} was drawn, not {item['side']}",
                    msgid=N_("%(player)s: side %(drawn)s of %(wonder)s was drawn, not %(side)s."),
                    params={
                        "player": name,
                        "drawn": sides[wonder],
                        "wonder": wonder,
                        "side": item["side"],
                    },
                )
            item["side"] = sides[wonder]


def record_auction(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    table: int,
    actions: Sequence[str],
    actor: str,
    now: datetime | None = None,
) -> TablePublic:
    """Record a table's whole wonder auction (Ludolimpico 2.1), e.g. ``"Anna opens babylon 2"``.

    The wonders and bids won are then filled into the table's results.

    Raises:
        IllegalAction: no auction in this ruleset, an illegal action, an unfinished auction, or the
        table already has results; InvalidInput: an action that cannot be read.
    """
    _check_numbers(round_number, table)
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="table.auction",
        payload={"round": round_number, "table": table, "actions": list(actions)},
        now=now,
    )
    return get_table(session, tournament=tournament, round_number=round_number, table=table)


@handler("table.auction")
def _apply_auction(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnum, tnum = int(p["round"]), int(p["table"])
    row = get_table_row(ctx.session, t, rnum, tnum)
    place = where(("round", rnum), ("table", tnum))
    if not ruleset_of(t).auction:
        raise IllegalAction(
            f"{place}: ruleset {t.ruleset_ref!r} has no wonder auction",
            msgid=N_("These rules have no wonder auction."),
        )
    if row.round.status == "closed" or row.results:
        raise IllegalAction(
            f"{place}: the auction comes before the results",
            msgid=N_("The auction comes before the results."),
        )
    auction = _auction(t, row, [str(a) for a in p["actions"]])
    bid_max = ruleset_of(t).limits.bid_max
    for action in auction.history:
        if action.bid is not None and action.bid > bid_max:
            raise InvalidInput(
                f"{place}: auction {str(action)!r}: field 'bid': {action.bid} is out of range "
                f"0…{bid_max}",
                msgid=N_("Auction “%(action)s”: the bid must be from 0 to %(max)d."),
                params={"action": str(action), "max": bid_max},
            )
    if not auction.finished:
        raise IllegalAction(
            f"{place}: the auction is not finished: {auction.to_act} is to act",
            msgid=N_("The auction is not finished: %(player)s is to act."),
            params={"player": auction.to_act},
        )
    before = row.auction
    row.auction = [str(a) for a in auction.history]
    row.version = ctx.entry_id
    return Change(before, {"auction": row.auction, "won": dict(auction.results())})


def confirm_result(
    session: Session,
    *,
    tournament: str,
    round_number: int,
    table: int,
    actor: str,
    players: Sequence[str] = (),
    expected_version: int | None = None,
    now: datetime | None = None,
) -> TablePublic:
    """Confirm a table's result for ``players`` (all seated players when empty: the director
    confirms on everyone's behalf). With ``expected_version`` the confirmation only counts for
    the version the player saw.

    Raises:
        IllegalAction: no result yet; Conflict: the result changed since it was read.
    """
    _check_numbers(round_number, table)
    payload = {
        "round": round_number,
        "table": table,
        "players": list(players),
        "expected_version": expected_version,
    }
    record(
        session,
        tournament=tournament,
        actor=actor,
        action="result.confirm",
        payload=payload,
        now=now,
    )
    return get_table(session, tournament=tournament, round_number=round_number, table=table)


@handler("result.confirm")
def _apply_confirm(ctx: Ctx, p: dict[str, Any]) -> Change:
    t = get_tournament_row(ctx.session, ctx.slug)
    rnum, tnum = int(p["round"]), int(p["table"])
    row = get_table_row(ctx.session, t, rnum, tnum)
    place = where(("round", rnum), ("table", tnum))
    if not row.results:
        raise IllegalAction(
            f"{place}: no result to confirm yet", msgid=N_("There is no result to confirm yet.")
        )
    check_version(row, p.get("expected_version"), place)
    names = p.get("players") or list(row.seats)
    for name in names:
        if name not in row.seats:
            raise InvalidInput(
                f"{place}, player {name!r}: not seated at this table",
                msgid=N_("%(player)s is not seated at this table."),
                params={"player": name},
            )
    before = _table_snapshot(row)
    for result in row.results:
        if result.player in names:
            result.confirmed = True
    if all(r.confirmed for r in row.results):
        row.state = "confirmed"
    return Change(before, _table_snapshot(row))
