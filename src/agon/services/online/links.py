"""Links: which game and seat a player of an online round opens."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from agon.services.core import (
    get_round_row,
    get_tournament_row,
)
from agon.services.online.state import online_info

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
