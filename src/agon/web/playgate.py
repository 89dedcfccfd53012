"""The pages' one door to the online game service (:class:`agon.play.service.PlayService`).

The service is synchronous (it talks to the database and takes a game's lock), so every call runs
in a worker thread, never on the event loop. The lobby's create goes through the same service
and the same per-address limit as ``POST /api/play``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any
from urllib.parse import quote

from fastapi import HTTPException, Request

from agon.errors import NotFound
from agon.i18n import N_
from agon.play import presence
from agon.play.service import Forbidden, PlayService
from agon.play.store import SeatSpec
from agon.play.story import Turn
from agon.services import online
from agon.services.online import GameClock
from agon.store.db import OUTAGE, database_fault
from agon.web.storyview import StoryCache
from agon.web.templating import tr

WRONG_TOKEN = N_("This seat link is not valid (a wrong or outdated token).")
#: Game ids are short tokens; anything longer is nobody's game.
MAX_ID = 64


def service(request: Request) -> PlayService:
    """The process's play service (built with the app, ``app.state.play``)."""
    play: PlayService = request.app.state.play
    return play


def _check_id(game_id: str) -> None:
    if not game_id or len(game_id) > MAX_ID:
        raise NotFound(f"no online game {game_id[:MAX_ID]!r}")


def events_url(game_id: str, token: str | None) -> str:
    """The server-sent events of a game, for a seat (its token) or a spectator."""
    base = f"/api/play/{quote(game_id, safe='')}/events"
    return f"{base}?token={quote(token, safe='')}" if token else base


async def create(
    request: Request, body: dict[str, Any], *, client: str, lang: str
) -> dict[str, Any]:
    """Create a game from the lobby (the body of ``POST /api/play``); the seats as the API
    answers them (``seat``, ``name``, ``kind``, ``token`` and ``url`` for humans).

    Raises:
        InvalidInput: what the service refuses.  HTTPException: 429 over the address's limit.
    """
    limiter = getattr(request.app.state, "play_limiter", None)
    if limiter is not None and not await asyncio.to_thread(limiter.reserve, client):
        raise HTTPException(
            429, detail=tr(lang, N_("Too many games created from here; wait a few minutes."))
        )
    seats = [SeatSpec(kind=s["kind"], name=s.get("name"), bot=s.get("bot")) for s in body["seats"]]
    created = await asyncio.to_thread(
        service(request).create_game,
        game=body["game"],
        seats=seats,
        variant=body["variant"],
        seed=body["seed"],
        clock=body.get("clock"),
        bot_delay=body.get("bot_delay", 0.0),
    )
    return {"game_id": created.game_id, "seats": [s.public() for s in created.seats]}


async def seat_state(request: Request, game_id: str, token: str, lang: str) -> dict[str, Any]:
    """A seat's state (``GET /api/play/{id}?token=``).

    Raises:
        NotFound; HTTPException 403 for a wrong or missing token.
    """
    _check_id(game_id)
    if not token:
        raise HTTPException(403, detail=tr(lang, N_("Open this page with your seat link.")))
    try:
        result: dict[str, Any] = await asyncio.to_thread(service(request).state, game_id, token)
    except Forbidden:
        raise HTTPException(403, detail=tr(lang, WRONG_TOKEN)) from None
    return result


async def public_state(request: Request, game_id: str) -> dict[str, Any]:
    """The spectator's state: public information only.

    Raises:
        NotFound.
    """
    _check_id(game_id)
    result: dict[str, Any] = await asyncio.to_thread(service(request).state, game_id, None)
    return result


async def table_extras(
    request: Request, game_id: str, seats: int
) -> tuple[list[bool] | None, GameClock | None]:
    """What a tournament table's game page shows besides the game: per seat whether a client of
    it is connected now (:mod:`agon.play.presence`), and the round clock (``None``: no time
    limit). ``(None, None)`` for a game that is no tournament table's (no database read)."""
    now = request.app.state.clock()

    def read() -> tuple[list[bool] | None, GameClock | None]:
        meta = service(request).meta(game_id)
        if not presence.tracked(meta):
            return None, None
        with service(request).sessions() as session:
            here = [p.connected for p in presence.presence(session, game_id, seats, now)]
            return here, online.game_clock(session, meta, now=now)

    return await asyncio.to_thread(read)


async def act(
    request: Request, game_id: str, token: str, action: str, version: int, lang: str
) -> dict[str, Any]:
    """A seat's move; the new state.

    Raises:
        NotFound; HTTPException 403 (token); Conflict (409: stale, not this seat's turn);
        InvalidInput (422: not legal).
    """
    _check_id(game_id)
    try:
        result: dict[str, Any] = await asyncio.to_thread(
            service(request).act, game_id, token, action, version
        )
    except Forbidden:
        raise HTTPException(403, detail=tr(lang, WRONG_TOKEN)) from None
    return result


#: The stories of this process's games (:mod:`agon.web.storyview`), by the length of their logs.
STORIES = StoryCache()


async def story(request: Request, game_id: str) -> tuple[Turn, ...]:
    """The table's story so far (:mod:`agon.play.story`), told from the game's log.

    Raises:
        NotFound.
    """
    _check_id(game_id)
    play = service(request)
    try:
        return await asyncio.to_thread(STORIES.get, game_id, lambda: play.log_of(game_id))
    except NotFound:
        raise
    except Exception as exc:  # the story is told beside the game: it must never break the table
        fault = database_fault(exc)
        if fault is None:
            logging.getLogger("agon.play").exception("the story of game %s", game_id)
        else:  # the database is away: one line per outage, not a traceback per page
            OUTAGE.failed(fault)
        return ()
