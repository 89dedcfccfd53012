"""What each table of a round plays with, as the desk's round page shows it: the guilds in play
(the first players + 2 of the round's draw) and each seat's wonder and side.

The printouts (:mod:`agon.printing.model`), "Where do I sit?" and ``agon round show`` say the
same from the same draw; this puts it beside each table on the round page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from agon.printing.model import seats_of, table_guilds
from agon.services.auctions import AuctionView
from agon.services.public import RoundPublic, TablePublic


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """Seat ``number`` (1-based; 1 starts): its player, wonder and side (``None``: not known yet,
    e.g. before a wonder auction is over, or the players choose the side)."""

    number: int
    player: str
    wonder: str | None
    side: str | None


@dataclass(frozen=True, slots=True)
class TableSetup:
    """A table's guilds in play (in draw order) and its seats."""

    guilds: tuple[str, ...]
    seats: tuple[SeatSetup, ...]


def table_setup(
    rnd: RoundPublic, table: TablePublic, *, auction: bool, view: AuctionView | None = None
) -> TableSetup:
    """The guilds and the seats' wonders of ``table``.

    A wonder recorded with the result wins; otherwise seat k plays the round's k-th drawn wonder,
    or — with a wonder auction (Ludolimpico 2.1) — the wonder its player won (``view``). The side
    is the recorded one, else the round's drawn side of that wonder.

    >>> rnd = RoundPublic(1, False, "open", ("giza", "rhodes", "ephesus"), tuple("ABCDEFGHIJ"),
    ...                   {"giza": "B"}, (), {})
    >>> table = TablePublic(1, 1, ("Ann", "Bea"), "open", 0, ())
    >>> setup = table_setup(rnd, table, auction=False)
    >>> setup.guilds, [(s.player, s.wonder, s.side) for s in setup.seats]
    (('A', 'B', 'C', 'D'), [('Ann', 'giza', 'B'), ('Bea', 'rhodes', None)])
    """
    recorded = {r.player: r for r in table.results}
    won: Mapping[str, str] = {p: w for p, w, _bid in view.won} if view is not None else {}
    sides = rnd.sides or {}
    seats = []
    for seat in seats_of(rnd, table, auction=auction):
        r = recorded.get(seat.player)
        wonder = (r.wonder if r else None) or (won.get(seat.player) if auction else seat.wonder)
        side = (r.side if r else None) or (sides.get(wonder) if wonder else None)
        seats.append(SeatSetup(seat.number, seat.player, wonder, side))
    return TableSetup(guilds=table_guilds(rnd, table), seats=tuple(seats))


def round_setup(
    rnd: RoundPublic, *, auction: bool, views: Mapping[int, AuctionView | None]
) -> dict[int, TableSetup]:
    """:func:`table_setup` of every table of ``rnd``, by table number."""
    return {
        t.number: table_setup(rnd, t, auction=auction, view=views.get(t.number)) for t in rnd.tables
    }
