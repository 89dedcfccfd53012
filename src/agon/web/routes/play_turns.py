""" "My games" (issue 28): which of the seats a browser holds must act, and the page that asks.

A browser keeps the seat links it has opened (``localStorage``, no account; ``static/mine.js``).
``POST /api/play/turns`` takes their game ids and tokens **in the body** (never in an address, so
no log or referrer carries them) and answers, in the same order, each seat's game, name, whether
it must act now and whether the game is over — never a token; a link that opens no seat answers
``{"valid": false}``. Limited per client address (``AGON_PLAY_TURNS_PER_MINUTE``): guessing tokens
through it is as hopeless as anywhere (192 random bits) and cannot load the server.
``GET /play/mine`` is the page; it asks every few seconds and, with the reader's permission
(asked on a click only), shows a notification when it is their turn while the page is hidden.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from agon.errors import NotFound
from agon.play.service import Forbidden, PlayService
from agon.web.deps import LangDep, StateDep, client_key
from agon.web.templating import render

router = APIRouter()

#: Seats one ask may name.
MAX_SEATS = 50


class HeldSeat(BaseModel):
    game_id: str = Field(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    token: str = Field(min_length=1, max_length=100)


class TurnsIn(BaseModel):
    seats: Annotated[list[HeldSeat], Field(max_length=MAX_SEATS)]


def _turn(service: PlayService, held: HeldSeat) -> dict[str, Any]:
    """One held seat's answer (no token in it)."""
    try:
        seat = service.seat_for(held.game_id, held.token)
        if seat is None:  # pragma: no cover - a token is never empty here
            return {"game_id": held.game_id, "valid": False}
        state = service.seat_state(held.game_id, seat)
    except (Forbidden, NotFound):
        return {"game_id": held.game_id, "valid": False}
    view = state.get("view", {})
    names = view.get("names") or []
    return {
        "game_id": held.game_id,
        "valid": True,
        "game": view.get("game"),
        "seat": seat,
        "name": names[seat] if seat < len(names) else None,
        "to_act": bool(state.get("to_act")) and not state.get("over"),
        "over": bool(state.get("over")),
        "version": state.get("version"),
    }


@router.post("/api/play/turns", tags=["play"])
async def turns(body: TurnsIn, request: Request, state: StateDep) -> dict[str, Any]:
    """Of the seats a browser holds (game id and token each, in the body): which must act now,
    which games are over; in the order asked. 429 beyond the per-address limit."""
    limiter = request.app.state.turns_limiter
    if not await run_in_threadpool(limiter.reserve, client_key(request, state)):
        raise HTTPException(
            status_code=429, detail="too many asks from this address; wait a minute"
        )
    service: PlayService = request.app.state.play

    def answer() -> list[dict[str, Any]]:
        return [_turn(service, held) for held in body.seats]

    return {"seats": await run_in_threadpool(answer)}


@router.get("/play/mine", response_class=HTMLResponse, include_in_schema=False)
def mine(request: Request, lang: LangDep) -> Response:
    """The seats this browser holds (its own list: nothing is stored on the server)."""
    return render(request, "play/mine.html", lang)
