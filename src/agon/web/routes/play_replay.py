"""The replay page of a finished online game (issue 28; docs/online-play.md, "Replays").

``GET /play/{id}/replay?step=N&seat=S`` shows the game as it stood after step ``N`` of its log
(0: before the first move; no step: the end), from seat ``S``'s point of view — its hand too, the
game being over — or, without a seat, as the spectators saw it. Links (and the keyboard's arrow
keys, ``static/replay.js``) step forwards and back; the address is the position, to share. The
table's story up to the step is beside the board. While the game runs the page says that its
replay comes at its end (409): its hands are nobody's to see yet.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from agon.i18n import N_
from agon.play.gamefile import GameNotOver
from agon.play.replays import Position, replay_position
from agon.play.story import story
from agon.web import playgate
from agon.web.deps import LangDep
from agon.web.endview import end_of_state
from agon.web.routes.play_pages import GAMES
from agon.web.storyview import action_label, story_context
from agon.web.tableview import table_context
from agon.web.templating import render, tr

router = APIRouter(include_in_schema=False)


def _position(request: Request, game_id: str, step: int | None) -> Position:
    with playgate.service(request).sessions() as session:
        return replay_position(session, game_id, step)


def _url(game_id: str, step: int, seat: int | None) -> str:
    base = f"/play/{quote(game_id, safe='')}/replay?step={step}"
    return base + (f"&seat={seat}" if seat is not None else "")


@router.get("/play/{game_id}/replay", response_class=HTMLResponse)
async def replay_page(
    request: Request,
    game_id: str,
    lang: LangDep,
    step: Annotated[int | None, Query(ge=0, le=1_000_000)] = None,
    seat: Annotated[int | None, Query(ge=0, le=6)] = None,
) -> Response:
    """A finished game at one step, from one seat's point of view (or the spectators')."""
    if not game_id or len(game_id) > playgate.MAX_ID:
        return render(request, "play/replay.html", lang, status_code=404, missing=True)
    try:
        pos = await asyncio.to_thread(_position, request, game_id, step)
    except GameNotOver:
        return render(
            request,
            "play/replay.html",
            lang,
            status_code=409,
            running=True,
            game_id=game_id,
            title=tr(lang, N_("Replay")),
        )
    if seat is not None and seat >= len(pos.names):
        seat = None
    state = pos.state(seat)
    game = pos.setup.game
    t = table_context(state, lang, game)
    turns = await asyncio.to_thread(story, pos.setup, pos.log)
    entry: dict[str, Any] | None = None
    if pos.step > 0:
        _seq, who, action = pos.log[pos.step - 1]
        entry = {
            "name": pos.names[who] if 0 <= who < len(pos.names) else None,
            "action": action_label(game, action, lang, pos.names),
        }
    return render(
        request,
        "play/replay.html",
        lang,
        t=t,
        game_id=game_id,
        title=tr(lang, GAMES.get(game, game)),
        step=pos.step,
        steps=pos.steps,
        seat=seat,
        entry=entry,
        names=pos.names,
        first_url=_url(game_id, 0, seat),
        prev_url=_url(game_id, max(0, pos.step - 1), seat),
        next_url=_url(game_id, min(pos.steps, pos.step + 1), seat),
        last_url=_url(game_id, pos.steps, seat),
        seat_urls=[(None, _url(game_id, pos.step, None))]
        + [(i, _url(game_id, pos.step, i)) for i in range(len(pos.names))],
        story=story_context(turns, t["names"], lang, upto=pos.step),
        end=end_of_state(state, lang, game),
        replay_url=None,
        watch=True,
        version=pos.step,
        token="",
    )
