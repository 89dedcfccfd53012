"""Seating a round by the ruleset's method: the bridge to :mod:`agon.tournament.seating`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import IllegalAction
from agon.store.models import TournamentRow


@dataclass(frozen=True, slots=True)
class SeatingDecision:
    tables: tuple[tuple[str, ...], ...]
    wonders: tuple[str, ...] = ()
    guilds: tuple[str, ...] = ()
    sides: Mapping[str, str] | None = None
    info: dict[str, Any] = field(default_factory=dict)


def seat_next_round(session: Session, *, tournament: TournamentRow, number: int) -> SeatingDecision:
    """Seat round ``number`` by the ruleset's method.

    Raises:
        IllegalAction: automatic seating is not available in this build; seat by hand.
    """
    raise IllegalAction(
        "automatic seating is not available yet; seat the round by hand with --table"
    )
