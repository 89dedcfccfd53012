"""Read views of a tournament's stored rows, without SQLAlchemy: the ruleset, the event, a round,
where the tournament stands.

The functions take the tournament's rows as the ORM loads them (:class:`agon.store.models`) or
as :mod:`agon.store.snapshot` reads them with Python's own ``sqlite3`` — the same attribute
names either way (``row.rounds[k].tables[j].results``). So the services and the director's fast
reads (:mod:`agon.commands.fast_reads`, issue 30: importing SQLAlchemy costs more CPU than the
whole read) compute the very same values, and print the very same text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agon.services.public import (
    PodiumPlace,
    ResultPublic,
    RoundPublic,
    TablePublic,
    TournamentStatus,
)
from agon.tournament.ruleset import Ruleset, load_ruleset, parse_ruleset
from agon.tournament.sanity import Score, table_warnings

if TYPE_CHECKING:  # imported where used: `agon round show` needs neither (issue 30)
    from agon.tournament.event import Event, Result
    from agon.tournament.standings import StandingRow

MEDALS = {1: "gold", 2: "silver", 3: "bronze"}

#: A stored row (an ORM row of :mod:`agon.store.models` or a snapshot of
#: :mod:`agon.store.snapshot`): read by attribute only.
Row = Any


def ruleset_of(row: Row) -> Ruleset:
    """The tournament's ruleset: its own stored TOML text, else the built-in by name."""
    return _ruleset(row.ruleset_ref, row.ruleset_toml)


@functools.lru_cache(maxsize=64)
def _ruleset(ref: str, toml: str | None) -> Ruleset:
    """Parsed once per process: every handler asks, and a replay runs hundreds of handlers."""
    if toml is not None:
        return parse_ruleset(toml, origin=f"ruleset {ref!r}")
    return load_ruleset(ref)


def result_of(r: Row) -> Result:
    """A stored result as the domain's :class:`~agon.tournament.event.Result`."""
    from agon.tournament.event import Result

    return Result(
        player=r.player,
        vp=r.vp,
        coins=r.coins,
        bid=r.bid,
        wonder=r.wonder,
        side=r.side,
        breakdown=None if r.breakdown is None else dict(r.breakdown),
        left=r.left,
    )


def event_of_row(t: Row) -> Event:
    """The tournament as an event: players, and every table that has a result (pending too)."""
    from agon.tournament.event import Event, Player, Round, Table

    rounds = []
    for rnd in t.rounds:
        tables = tuple(
            Table(results=tuple(result_of(r) for r in tb.results))
            for tb in rnd.tables
            if tb.results
        )
        if tables:
            rounds.append(
                Round(
                    tables=tables,
                    wonders=tuple(rnd.wonders),
                    guilds=tuple(rnd.guilds),
                    sides=dict(rnd.sides or {}),
                    final=rnd.final,
                )
            )
    return Event(
        name=t.name,
        ruleset_ref=t.ruleset_ref,
        seed=t.seed,
        players=tuple(Player(p.name, dict(p.extra)) for p in t.players),
        rounds=tuple(rounds),
        info=dict(t.info),
        seed_ratings=seed_ratings_of(t),
    )


def seed_ratings_of(t: Row) -> dict[str, float]:
    """The seeding ratings given when round 1 started (kept in round 1's journal entry)."""
    if not t.rounds:
        return {}
    return {str(k): float(v) for k, v in (t.rounds[0].info.get("seed_ratings") or {}).items()}


def table_to_public(round_number: int, row: Row) -> TablePublic:
    """A stored table with its results and the sanity warnings of its scores."""
    return TablePublic(
        round=round_number,
        number=row.number,
        seats=tuple(row.seats),
        state=row.state,
        version=row.version,
        results=tuple(
            ResultPublic(
                seat=r.seat,
                player=r.player,
                vp=None if r.left else r.vp,
                coins=None if r.left else r.coins,
                bid=r.bid,
                wonder=r.wonder,
                side=r.side,
                breakdown=None if r.breakdown is None else dict(r.breakdown),
                confirmed=r.confirmed,
                left=r.left,
            )
            for r in row.results
        ),
        auction=None if row.auction is None else tuple(row.auction),
        warnings=table_warnings(
            [Score(r.player, r.vp, r.coins) for r in row.results if not r.left]
        ),
    )


def round_to_public(row: Row) -> RoundPublic:
    """A stored round with its tables."""
    return RoundPublic(
        number=row.number,
        final=row.final,
        status=row.status,
        wonders=tuple(row.wonders),
        guilds=tuple(row.guilds),
        sides=None if row.sides is None else dict(row.sides),
        tables=tuple(table_to_public(row.number, t) for t in row.tables),
        info=dict(row.info),
    )


def final_state_of(row: Row) -> str | None:
    """The final's state (``closed``, else its table's state); ``None`` without a final."""
    final = next((r for r in row.rounds if r.final), None)
    if final is None:
        return None
    return "closed" if final.status == "closed" else str(final.tables[0].state)


def needs_final_ranking(row: Row) -> bool:
    """Whether :func:`status_of_row` asks for the final's own ranking (the podium of a final
    that is confirmed or closed)."""
    return ruleset_of(row).finalists > 0 and final_state_of(row) in ("confirmed", "closed")


def status_of_row(
    row: Row,
    rows: tuple[StandingRow, ...] | list[StandingRow],
    final_podium: Callable[[], tuple[PodiumPlace, ...]],
) -> TournamentStatus:
    """Where the tournament ``row`` stands (:func:`agon.services.exchange.tournament_status`),
    given its standings ``rows`` (empty without players) and ``final_podium``, the final's own
    ranking, asked for only where :func:`needs_final_ranking`."""
    from agon.tournament.standings import format_value

    ruleset = ruleset_of(row)
    qualifying = [r for r in row.rounds if not r.final]
    closed = sum(r.status == "closed" for r in qualifying)
    in_progress = next((r.number for r in qualifying if r.status != "closed"), None)
    final = next((r for r in row.rounds if r.final), None)
    final_state = final_state_of(row)
    qualifying_done = closed >= ruleset.rounds and in_progress is None
    has_final = ruleset.finalists > 0
    finished = final_state == "closed" if has_final else qualifying_done
    podium: tuple[PodiumPlace, ...] = ()
    if has_final and final_state in ("confirmed", "closed"):
        podium = tuple(p for p in final_podium() if p.place <= 3)
    elif not has_final and finished:
        podium = tuple(
            PodiumPlace(
                place=r.rank,
                player=r.player,
                medal=MEDALS.get(r.rank),
                vp=r.totals.vp,
                tied=sum(o.rank == r.rank for o in rows),
                detail=f"{format_value(r.totals.points, 'points')} points",
            )
            for r in rows
            if r.rank <= 3
        )
    qualifiers: tuple[str, ...] = ()
    qualifiers_for = ""
    if has_final and final is not None:
        qualifiers, qualifiers_for = tuple(final.tables[0].seats), "the final"
    elif has_final and qualifying_done:
        qualifiers = tuple(r.player for r in rows[: ruleset.finalists])
        qualifiers_for = "the final"
    elif ruleset.qualifiers and finished:
        qualifiers = tuple(r.player for r in rows[: ruleset.qualifiers])
        qualifiers_for = ruleset.qualifiers_for or "the next stage"
    caption = f"standings after {closed} of {ruleset.rounds} round(s)"
    if in_progress is not None:
        caption += f"; round {in_progress} in progress (its entered results count)"
    if has_final:
        caption += "; the final is not counted (its own ranking decides the podium)"
    if finished:
        caption += "; finished"
    return TournamentStatus(
        rounds_planned=ruleset.rounds,
        rounds_closed=closed,
        round_in_progress=in_progress,
        has_final=has_final,
        final_state=final_state,
        finished=finished,
        podium=podium,
        qualifiers=qualifiers,
        qualifiers_for=qualifiers_for,
        caption=caption,
    )


def describe_status(status: TournamentStatus) -> list[str]:
    """The end of the day in plain lines: finished, winner, podium, qualifiers (English)."""
    lines = []
    if status.finished and status.podium:
        lines.append(f"finished: winner {status.podium[0].player}")
        for p in status.podium:
            tie = f" (shared by {p.tied})" if p.tied > 1 else ""
            lines.append(f"  {p.place}. {p.player}  {p.detail}{tie}  {p.medal or ''}".rstrip())
    elif status.podium:
        lines.append("podium (the final is not closed yet):")
        lines.extend(f"  {p.place}. {p.player}  {p.detail}" for p in status.podium)
    if status.qualifiers:
        lines.append(f"qualified for {status.qualifiers_for}: " + ", ".join(status.qualifiers))
    return lines
