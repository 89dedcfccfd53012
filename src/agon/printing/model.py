"""What the printouts print: a round's tables, as the seating code plans them or an event file records them.

The printouts accept any object shaped like the seating contract's ``RoundPlan`` / ``SeatedTable``
(:class:`RoundLike`, :class:`TableLike`), so they do not depend on the seating code. A round read
back from an event file (:func:`round_from_event`) is such an object too, carrying what the file
recorded about each seat's wonder and side, so a director can re-print a past round's sheets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from agon.errors import InvalidInput
from agon.tournament.event import Event


class TableLike(Protocol):
    """A seated table: ``seats[0]`` is the start player; seat k plays the round's ``wonders[k]``."""

    @property
    def seats(self) -> tuple[str, ...]: ...


class RoundLike(Protocol):
    """A round as the seating contract's ``RoundPlan`` describes it."""

    @property
    def number(self) -> int: ...

    @property
    def tables(self) -> Sequence[TableLike]: ...

    @property
    def wonders(self) -> tuple[str, ...]: ...

    @property
    def guilds(self) -> tuple[str, ...]: ...

    @property
    def sides(self) -> Mapping[str, str] | None: ...


@dataclass(frozen=True, slots=True)
class RecordedTable:
    """A table of a round read back from an event file, with each seat's recorded wonder/side."""

    seats: tuple[str, ...]
    seat_wonders: tuple[str | None, ...] = ()
    seat_sides: tuple[str | None, ...] = ()


@dataclass(frozen=True, slots=True)
class RecordedRound:
    """A round read back from an event file, shaped like the seating contract's ``RoundPlan``."""

    number: int
    tables: tuple[RecordedTable, ...]
    wonders: tuple[str, ...] = ()
    guilds: tuple[str, ...] = ()
    sides: Mapping[str, str] | None = field(default=None)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat as printed: position (1-based), player, wonder (id or name) and side if known."""

    number: int
    player: str
    wonder: str | None
    side: str | None

    @property
    def is_start(self) -> bool:
        return self.number == 1


def seats_of(plan: RoundLike, table: TableLike, *, auction: bool = False) -> list[Seat]:
    """The seats of ``table`` with the wonder and side each one plays, as far as they are known.

    A seat's wonder is what the event file recorded for it; otherwise seat k plays the round's
    ``wonders[k]`` (seating contract) — except in auction rulesets (Ludolimpico 2.1), where the
    wonders go to the highest bidders and seats do not map to wonders. The side is the recorded
    one, else the round's drawn side of that wonder, else unknown (players choose).
    """
    recorded_wonders: tuple[str | None, ...] = getattr(table, "seat_wonders", ())
    recorded_sides: tuple[str | None, ...] = getattr(table, "seat_sides", ())
    seats = []
    for k, player in enumerate(table.seats):
        wonder = recorded_wonders[k] if k < len(recorded_wonders) else None
        if wonder is None and not auction and k < len(plan.wonders):
            wonder = plan.wonders[k]
        side = recorded_sides[k] if k < len(recorded_sides) else None
        if side is None and wonder is not None and plan.sides:
            side = plan.sides.get(wonder)
        seats.append(Seat(k + 1, player, wonder, side))
    return seats


def table_guilds(plan: RoundLike, table: TableLike) -> tuple[str, ...]:
    """The guilds a table plays with: the first k+2 of the round's draw for k players (base rules)."""
    return tuple(plan.guilds[: len(table.seats) + 2])


def round_from_event(event: Event, number: int) -> RecordedRound:
    """Round ``number`` (1-based) of an event file as a printable round.

    The seat order is the file's result order (the first seat is the start player). Sides come
    from the seats' recorded ``side``; a round-level draw of sides is not part of the file format.

    Raises:
        InvalidInput: no such round in the file.
    """
    if not 1 <= number <= len(event.rounds):
        have = f"rounds 1 to {len(event.rounds)}" if event.rounds else "no rounds"
        raise InvalidInput(f"event {event.name!r}: no round {number} (the file has {have})")
    rnd = event.rounds[number - 1]
    tables = tuple(
        RecordedTable(
            seats=tuple(r.player for r in table.results),
            seat_wonders=tuple(r.wonder for r in table.results),
            seat_sides=tuple(r.side for r in table.results),
        )
        for table in rnd.tables
    )
    return RecordedRound(number=number, tables=tables, wonders=rnd.wonders, guilds=rnd.guilds)
