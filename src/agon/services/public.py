"""What the director's reads and the round's pages show: a round with its tables and results,
and where a tournament stands (its podium). Frozen dataclasses, apart from the services' other
types (:mod:`agon.services.schemas`): ``agon round show`` and ``agon tournament standings``
create only these (issue 30: a dataclass costs a short command about a millisecond to create).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class ResultPublic:
    """One seat's result; ``vp`` and ``coins`` are ``None`` for a player who left during the game
    (``left``): such a game has no score, not a score of 0."""

    seat: int
    player: str
    vp: int | None
    coins: int | None
    bid: int
    wonder: str | None
    side: str | None
    breakdown: Mapping[str, int] | None
    confirmed: bool
    #: left during the game (Ludolimpico 2.5): no score, the table is scored without that seat
    left: bool = False


@dataclass(frozen=True, slots=True)
class TablePublic:
    """A table; ``state`` is ``open`` (no result), ``pending`` (not all confirmed) or ``confirmed``."""

    round: int
    number: int
    seats: tuple[str, ...]
    state: str
    version: int
    results: tuple[ResultPublic, ...]
    auction: tuple[str, ...] | None = None
    #: What looks like a typo in the results (one sentence each); never a refusal.
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundPublic:
    number: int
    final: bool
    status: str
    wonders: tuple[str, ...]
    guilds: tuple[str, ...]
    sides: Mapping[str, str] | None
    tables: tuple[TablePublic, ...]
    info: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PodiumPlace:
    place: int
    player: str
    medal: str | None
    vp: int
    tied: int
    #: The VP bid in the final's auction (Ludolimpico: places go by VP minus the bid).
    bid: int = 0
    #: How the place was earned, for people: "52 net VP (55 VP − 3 bid)", "17.5 points".
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TournamentStatus:
    """Where a tournament stands: rounds closed and in progress, the final, and — once it is
    finished — the winner and the podium; the qualifiers where the ruleset has them."""

    rounds_planned: int
    rounds_closed: int
    round_in_progress: int | None
    has_final: bool
    final_state: str | None
    finished: bool
    podium: tuple[PodiumPlace, ...]
    qualifiers: tuple[str, ...]
    qualifiers_for: str
    caption: str

    @property
    def winner(self) -> str | None:
        return self.podium[0].player if self.finished and self.podium else None
