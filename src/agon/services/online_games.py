"""The interface between online tournament tables (:mod:`agon.services.online`) and the online
game service: what a table's game is created from, what a game answers at its end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from sqlalchemy.orm import Session

SeatKind = Literal["human", "bot"]


# --- what the game service is asked and answers --------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatOrder:
    """One seat of an online table: the player, and whether a bot plays it from the start."""

    player: str
    kind: SeatKind
    bot: str = "heuristic"


@dataclass(frozen=True, slots=True)
class GameOrder:
    """A tournament table's game as the game service must create it (7 Wonders, base game).

    ``wonders``/``sides`` per seat (``None``: the game draws them from its seed), ``guilds``: the
    round's central guild draw (a table of k uses the first k + 2), ``label`` names the table;
    ``choose_sides``: the game begins with every seat choosing its wonder's side (Bonn 2018), and
    ``sides`` is then ``None``.
    """

    label: str
    seed: str
    seats: tuple[SeatOrder, ...]
    wonders: tuple[str, ...] | None
    sides: tuple[str, ...] | None
    guilds: tuple[str, ...] | None
    choose_sides: bool = False
    #: where the table is: the tournament, round and table number (its game shows the round clock)
    tournament: str = ""
    round: int = 0
    table: int = 0


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's end of game: VP, coins in the treasury, wonder id, side, score-pad breakdown."""

    vp: int
    coins: int
    wonder: str | None
    side: str | None
    breakdown: Mapping[str, int]


@dataclass(frozen=True, slots=True)
class CreatedTable:
    """A created game: its id and each seat's secret link (``None`` for a bot's seat)."""

    game: str
    links: tuple[str | None, ...]


class GameHost(Protocol):
    """What this module needs of the online game service (every call in the caller's session)."""

    def create(self, session: Session, order: GameOrder) -> CreatedTable:
        """Create the game; returns its id and the seats' links (shown only to their players)."""
        ...

    def outcome(self, session: Session, game_id: str) -> tuple[SeatScore, ...] | None:
        """The game's scores in seat order once it is over, else ``None``."""
        ...

    def idle_seconds(self, session: Session, game_id: str, seat: int, now: datetime) -> float:
        """How long the seat's player has not been connected (since the game began if never)."""
        ...

    def hand_to_bot(self, session: Session, game_id: str, seat: int, bot: str) -> None:
        """From now on ``bot`` plays the seat."""
        ...

    def current_age(self, session: Session, game_id: str) -> int:
        """The age being played (7 Wonders: 1–3; 0 while the sides are chosen)."""
        ...

    def stop_after_age(self, session: Session, game_id: str) -> int | None:
        """The round clock ran out: the game ends with the end of the age being played (no
        further age is dealt); returns that age (the same on a second call), ``None`` if the
        game is over already."""
        ...

    def score_now(self, session: Session, game_id: str) -> tuple[SeatScore, ...]:
        """Every seat's score as the game stands now (a game stopped by the round clock)."""
        ...
