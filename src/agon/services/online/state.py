"""The options and the state of an online round (kept in the round's row), the bots a director
may choose, and the game service in use (:func:`set_host`, :func:`get_host`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from agon.errors import N_, IllegalAction, InvalidInput
from agon.services.core import (
    as_json,
    get_round_row,
    get_tournament_row,
)
from agon.services.online_games import (
    GameHost,
    SeatKind,
)
from agon.store.models import RoundRow

#: The bots a director may choose for empty or abandoned seats (the game service's names).
BOTS = ("random", "heuristic", "search")
#: The longest a director may let a disconnected player's seat wait for them, in minutes.
MAX_GRACE_MINUTES = 240


_HOST: GameHost | None = None


def set_host(host: GameHost | None) -> None:
    """Use ``host`` as the game service (tests, or the web app at start); ``None``: the default."""
    global _HOST
    _HOST = host


def get_host() -> GameHost:
    """The game service: the one set with :func:`set_host`, else :mod:`agon.play` adapted.

    Raises:
        IllegalAction: the online game service is not installed (``web`` extra).
    """
    if _HOST is not None:
        return _HOST
    try:
        from agon.services.online_host import PlayHost
    except ImportError as exc:  # pragma: no cover - the core install without the web extra
        raise IllegalAction(
            f"online play is not available here ({exc}); install agon with the 'web' extra",
            msgid=N_("Online play is not available on this server."),
        ) from None
    host: GameHost = PlayHost()
    return host


# --- the options and the state of an online round ------------------------------------------------


@dataclass(frozen=True, slots=True)
class OnlineOptions:
    """How a round is played online. ``bots``: bots fill empty seats and seats of players gone
    longer than ``grace_minutes``; ``bot``: which bot; ``all_bots``: bots play every seat (a
    demonstration, or a test)."""

    bots: bool = False
    bot: str = "heuristic"
    grace_minutes: int = 5
    all_bots: bool = False

    def check(self) -> None:
        """Raises: InvalidInput: an unknown bot or a grace time out of range."""
        if self.bot not in BOTS:
            raise InvalidInput(
                f"online: unknown bot {self.bot!r} (choose {', '.join(BOTS)})",
                msgid=N_("Unknown bot “%(bot)s”."),
                params={"bot": self.bot},
            )
        grace = self.grace_minutes
        if (
            isinstance(grace, bool)
            or not isinstance(grace, int)
            or not 0 <= grace <= MAX_GRACE_MINUTES
        ):
            raise InvalidInput(
                f"online: the grace time must be 0 to {MAX_GRACE_MINUTES} minutes, got {grace!r}",
                msgid=N_("The grace time must be 0 to %(max)d minutes."),
                params={"max": MAX_GRACE_MINUTES},
            )


@dataclass(frozen=True, slots=True)
class OnlineSeat:
    seat: int
    player: str
    kind: SeatKind
    wonder: str | None
    side: str | None


@dataclass(frozen=True, slots=True)
class OnlineTable:
    """A table of an online round: its game (``None`` while its auction runs) and seats."""

    round: int
    table: int
    game: str | None
    seats: tuple[OnlineSeat, ...]
    recorded: bool
    time_up: bool


@dataclass(frozen=True, slots=True)
class OnlineRound:
    round: int
    options: OnlineOptions
    tables: tuple[OnlineTable, ...]
    time_up: bool


def watch_path(game_id: str) -> str:
    """The public spectator page of a game (no hidden information; see docs/online-play.md)."""
    return f"/play/{game_id}"


def online_info(rnd: RoundRow) -> dict[str, Any] | None:
    """The round's online state as stored in its info (``None``: not an online round)."""
    data = (rnd.info or {}).get("online")
    return data if isinstance(data, dict) else None


def _set_online_info(rnd: RoundRow, data: dict[str, Any] | None) -> None:
    info = dict(rnd.info or {})
    if data is None:
        info.pop("online", None)
    else:
        info["online"] = as_json(data)
    rnd.info = info  # a new dict: the JSON column notices the change


def online_round(session: Session, *, tournament: str, number: int) -> OnlineRound | None:
    """Round ``number`` as played online (``None``: it is not).

    Raises:
        NotFound: no such tournament or round.
    """
    t = get_tournament_row(session, tournament)
    rnd = get_round_row(session, t, number)
    data = online_info(rnd)
    if data is None:
        return None
    return _online_round(rnd, data)


def _online_round(rnd: RoundRow, data: dict[str, Any]) -> OnlineRound:
    options = OnlineOptions(**data["options"])
    tables = []
    for row in rnd.tables:
        game = data["tables"].get(str(row.number))
        kinds = game["kinds"] if game else ["human"] * len(row.seats)
        wonders = game["wonders"] if game and game["wonders"] else [None] * len(row.seats)
        sides = game["sides"] if game and game["sides"] else [None] * len(row.seats)
        seats = tuple(
            OnlineSeat(
                seat=k,
                player=p,
                kind="bot" if kinds[k] == "bot" else "human",
                wonder=wonders[k],
                side=sides[k],
            )
            for k, p in enumerate(row.seats)
        )
        tables.append(
            OnlineTable(
                round=rnd.number,
                table=row.number,
                game=game["game"] if game else None,
                seats=seats,
                recorded=bool(game and game.get("recorded")),
                time_up=bool(game and game.get("time_up")),
            )
        )
    return OnlineRound(
        round=rnd.number, options=options, tables=tuple(tables), time_up=bool(data.get("time_up"))
    )
