"""The round clock as a game shows it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import NotFound
from agon.services.core import (
    get_tournament_row,
    ruleset_of,
)

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
