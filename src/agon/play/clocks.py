"""Per-turn clocks of online games (docs/online-play.md, "Clocks"): their seconds (data:
``clocks.toml``), the table's ``timeout N`` action, and a natural delay for bot moves.

A game created with a clock stores, in its row, the *deadline* of the turn being played
(``play_games.deadline``): set when the game is created and whenever a turn begins, in the same
transaction as the actions that began it. Any server process that finds a deadline passed plays
the heuristic bot's move for every human seat still to decide, each preceded by the table's
``timeout N`` in the log; the log's hash chain lets only one process append them
(:class:`agon.play.store.Append`), so a seat times out exactly once however many notice.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources

from agon.errors import InvalidInput

#: The longest natural delay before a bot's move appears (seconds; ``bot_delay`` at creation).
MAX_BOT_DELAY = 5.0
#: The bot that plays a timed-out seat's move.
TIMEOUT_BOT = "heuristic"
_TIMEOUT = "timeout "


def parse(text: str) -> dict[str, float]:
    """The clocks of a ``clocks.toml`` text: name → seconds per turn.

    Raises:
        InvalidInput: not TOML, no clocks, or seconds that are not a number from 1 to a day.
    """
    try:
        raw = tomllib.loads(text).get("clocks")
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"clocks.toml: {exc}") from None
    if not isinstance(raw, dict) or not raw:
        raise InvalidInput("clocks.toml: no [clocks] table")
    out: dict[str, float] = {}
    for name, seconds in raw.items():
        if isinstance(seconds, bool) or not isinstance(seconds, int | float):
            raise InvalidInput(f"clocks.toml: clock {name!r} must be seconds, got {seconds!r}")
        if not 1 <= seconds <= 86_400:
            raise InvalidInput(f"clocks.toml: clock {name!r} must be 1 to 86400 seconds")
        out[str(name)] = float(seconds)
    return out


@cache
def clocks() -> dict[str, float]:
    """The clocks of ``clocks.toml`` (name → seconds per turn)."""
    return parse(resources.files("agon.play").joinpath("clocks.toml").read_text("utf-8"))


def seconds(name: str, scale: float = 1.0) -> float:
    """The seconds per turn of clock ``name``, times ``scale`` (the ``AGON_PLAY_CLOCK_SCALE``
    setting: 1 in production; tests make the clocks tiny).

    Raises:
        InvalidInput: an unknown clock.
    """
    known = clocks()
    if name not in known:
        raise InvalidInput(f"unknown clock {name!r} (known: {', '.join(known)})")
    return known[name] * scale


def tick(scale: float = 1.0) -> float:
    """Seconds between two looks of a server at the clocks: a twentieth of the shortest clock,
    from 0.05 to 1 second (a seat times out at most that late)."""
    return max(0.05, min(1.0, min(clocks().values()) * scale / 20))


def timeout_action(seat: int) -> str:
    """The table's log entry that seat ``seat``'s clock ran out (its move follows)."""
    return f"{_TIMEOUT}{seat}"


def timed_out_seat(action: str) -> int | None:
    """The seat of a table's ``timeout N`` entry, else ``None``."""
    if action.startswith(_TIMEOUT) and action[len(_TIMEOUT) :].isdigit():
        return int(action[len(_TIMEOUT) :])
    return None
