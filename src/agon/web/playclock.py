"""A seat's page's per-turn clock (issue 28; :mod:`agon.play.clocks`): the seconds left of the
turn being played and the seats whose clock ran out, from a state of the online game service."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any


def turn_clock(state: Mapping[str, Any], names: Sequence[str], now: datetime) -> dict[str, Any]:
    """``{"remaining": whole seconds or None, "timed_out": [(name, times), ...]}``; the remaining
    time is ``None`` for a game without a clock or one that is over."""
    clock = state.get("clock")
    remaining = None
    if isinstance(clock, Mapping) and isinstance(clock.get("deadline"), str):
        deadline = datetime.fromisoformat(clock["deadline"])
        remaining = max(0, round((deadline - now).total_seconds()))
    counts = state.get("timeouts")
    timed_out = []
    if isinstance(counts, list):
        timed_out = [(names[s], n) for s, n in enumerate(counts) if n and s < len(names)]
    return {"remaining": remaining, "timed_out": timed_out}
