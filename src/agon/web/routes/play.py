"""The online-play JSON API (issue 12), thin over :mod:`agon.play`.

``POST /api/play`` creates a game without login (limited per client address), answering each
human seat's secret token and link once; ``GET /api/play/{id}?token=T`` is the seat's state (no
token: the spectator's public view); ``POST /api/play/{id}/act`` plays an action; ``GET
/api/play/{id}/result`` the scores (and the revealed seed) once the game is over, ``GET
/api/play/{id}/log`` the finished game as a file for ``agon verify``, ``GET
/api/play/{id}/replay`` it step by step with every public state; ``POST /api/play/turns``
(:mod:`agon.web.routes.play_turns`) answers which of the seats a browser holds must act; ``GET
/api/play/{id}/events?token=T`` pushes the state (Server-Sent Events) on every change. A game
with two or more people gets a seed the server draws: a seed in the request is refused (422). These routes need no CSRF token: they
carry their credential (the seat token) in the request itself, never in a cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any, Literal, TypeVar

import orjson
from fastapi import APIRouter, FastAPI, HTTPException, Path, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response, StreamingResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field, ValidationError
from starlette.requests import ClientDisconnect
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon.errors import NotFound
from agon.play import presence
from agon.play.catalog import catalog
from agon.play.clocks import MAX_BOT_DELAY
from agon.play.gamefile import export_game
from agon.play.replays import replay_document
from agon.play.seeds import check_chosen_seed, seed_sha256
from agon.play.service import Forbidden, PlayService
from agon.play.store import SeatSpec, token_hash
from agon.store.db import OUTAGE, database_fault
from agon.web.deps import StateDep, client_key
from agon.web.limits import Version
from agon.web.proxy import ROOT_PATH_KEY, prefixed
from agon.web.streams import TOO_MANY, CountedStream, StreamCounter, stored_seat

router = APIRouter(prefix="/api/play", tags=["play"])
T = TypeVar("T")

#: The characters and the length of a game id in a path (``secrets.token_urlsafe(12)``: 16
#: characters), for :data:`GamePath` and the lean move route (:data:`_GAME_ID`).
_GAME_ID_CHARS, _GAME_ID_MAX = "A-Za-z0-9_-", 40
GamePath = Annotated[
    str, Path(min_length=1, max_length=_GAME_ID_MAX, pattern=rf"^[{_GAME_ID_CHARS}]+$")
]
Token = Annotated[str | None, Query(max_length=100)]
#: Seconds between keep-alive comments on an idle event stream.
KEEPALIVE_SECONDS = 15.0
#: The version in a state's JSON text (its second key, after ``seat``).
_VERSION = re.compile(r'"version":(\d+)')
#: The last message of a seat's stream whose token was revoked (a bot took the seat).
REVOKED = 'event: revoked\ndata: {"detail": "this seat link is no longer valid"}\n\n'


#: A bot's name or level (``agon.games.levels``: the game's own names are checked on creation).
BotName = Literal[
    "random", "heuristic", "search", "mcts", "ismcts", "easy", "medium", "hard", "expert"
]


class SeatIn(BaseModel):
    kind: Literal["human", "bot"]
    name: str | None = Field(default=None, max_length=60)
    bot: BotName | None = None


class PlayIn(BaseModel):
    game: Literal["7w", "ocw"]
    seed: str | None = Field(default=None, max_length=200)
    variant: Literal["base", "trade", "two-card", "leaders"] = "base"
    seats: list[SeatIn] = Field(min_length=2, max_length=7)
    #: a per-turn clock (``agon.play.clocks``: relaxed, normal, fast); none: a casual game
    clock: str | None = Field(default=None, max_length=20)
    #: seconds before a bot's move appears (0: at once)
    bot_delay: float = Field(default=0.0, ge=0, le=MAX_BOT_DELAY, allow_inf_nan=False)


class ActIn(BaseModel):
    token: str | None = Field(default=None, max_length=100)
    action: str = Field(max_length=200)
    version: Version


async def _tracked(
    request: Request, game_id: str, seat: int, chunks: AsyncIterator[str]
) -> AsyncIterator[str]:
    """A seat's event stream, counted as the seat's connection (:mod:`agon.play.presence`):
    opened now, renewed every ``KEEPALIVE_SECONDS`` or so (with the next state or keep-alive),
    closed when the stream ends or the client goes."""
    sessions = service_of(request).sessions
    clock = request.app.state.clock

    def note(change: Callable[..., None]) -> None:
        try:
            with sessions() as session:
                change(session, game_id, seat, clock())
        except Exception as exc:  # the connection's record must never break the game's stream
            fault = database_fault(exc)
            if fault is None:
                logging.getLogger("agon.play").exception("seat presence of game %s", game_id)
            else:  # the database is away: one line per outage, not a traceback per stream
                OUTAGE.failed(fault)

    await run_in_threadpool(note, presence.opened)
    loop = asyncio.get_running_loop()
    renewed = clock()
    try:
        async for chunk in chunks:  # a state or a keep-alive at least every KEEPALIVE_SECONDS
            if (clock() - renewed).total_seconds() >= KEEPALIVE_SECONDS:
                renewed = clock()
                await run_in_threadpool(note, presence.renewed)
            yield chunk
    finally:
        # not awaited: the stream may be ending because its task is cancelled
        with contextlib.suppress(RuntimeError):  # the server is shutting down
            loop.run_in_executor(None, note, presence.closed)


def service_of(request: Request) -> PlayService:
    service: PlayService = request.app.state.play
    return service


def _guard(call: Callable[[], T]) -> T:
    """Run a service call, answering a wrong seat token with 403."""
    try:
        return call()
    except Forbidden as exc:
        raise HTTPException(status_code=403, detail=str(exc)) from None


@router.post("", status_code=201)
def create_game(body: PlayIn, request: Request, state: StateDep) -> dict[str, Any]:
    """Create a game; human seats get their secret token and link (shown only in this answer)."""
    limiter = request.app.state.play_limiter
    if not limiter.reserve(client_key(request, state)):
        raise HTTPException(status_code=429, detail="too many new games from this address")
    if not any(s.kind == "human" for s in body.seats):
        raise HTTPException(status_code=422, detail="a game needs at least one human seat")
    seed = body.seed or None
    check_chosen_seed((s.kind for s in body.seats), seed)  # 422: two or more people
    created = service_of(request).create_game(
        game=body.game,
        variant=body.variant,
        seed=seed,
        seats=[SeatSpec(kind=s.kind, name=s.name, bot=s.bot or "heuristic") for s in body.seats],
        clock=body.clock or None,
        bot_delay=body.bot_delay,
    )
    prefix = str(request.scope.get(ROOT_PATH_KEY, ""))  # behind --root-path the links carry it
    seats = [t.public() for t in created.seats]
    for seat in seats:
        if isinstance(seat.get("url"), str):
            seat["url"] = prefixed(prefix, seat["url"]) if prefix else seat["url"]
    return {"game_id": created.game_id, "seats": seats}


@router.get("/catalog/{game}")
def game_catalog(game: Literal["7w", "ocw"]) -> dict[str, Any]:
    """The game's cards and boards (names, colours, costs, effects, chains) for faces."""
    return catalog(game)


def _json(text: str) -> Response:
    """A state already serialized by the service (once per version and seat, shared with the
    pushes): no second encoding."""
    return Response(content=text, media_type="application/json")


@router.get("/{game_id}")
def game_state(game_id: GamePath, request: Request, token: Token = None) -> Response:
    """The seat's state (without a token: the spectator's, public information only)."""
    service = service_of(request)
    return _json(_guard(lambda: service.seat_json(game_id, service.seat_for(game_id, token))))


@router.post("/{game_id}/act")
def act(game_id: GamePath, body: ActIn, request: Request) -> Response:
    """Play one of the seat's legal actions, chosen in state ``version``; answers the new state."""
    service = service_of(request)
    return _json(_guard(lambda: service.act_json(game_id, body.token, body.action, body.version)))


class LeanAct:
    """``POST /api/play/{game_id}/act`` — a person's move, the most frequent request of online
    play — answered without FastAPI's per-request machinery (dependency solving, parameter and
    body handling: about a tenth of the server's CPU per move, bench/online_play.py), for a
    request that :data:`act` takes as it is: a game id of its pattern and a JSON body that
    :class:`ActIn` validates (in Python mode, as FastAPI does). Anything else goes to the
    declared route (:func:`act`), whose validation answers it as every route's does; the
    declared route is also what the API's schema shows. The middlewares (body limit, security
    headers, metrics, access log) wrap both alike; the service's errors reach the app's handlers
    as :func:`act`'s do."""

    #: the tests compare the lean answers with the declared route's (``False``: always that one)
    lean = True

    def __init__(self, declared: APIRoute) -> None:
        self.declared = declared

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = b""
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise ClientDisconnect()
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        game_id = str(scope["path_params"].get("game_id", ""))
        move = _lean_move(game_id, scope, body) if self.lean else None
        if move is None:
            await self.declared.handle(scope, _replayed(body, receive), send)
            return
        scope["route"] = self.declared  # the metrics' route template
        service: PlayService = scope["app"].state.play
        try:  # on the loop: no hand-over of the move to a thread and back (about a tenth of
            # the server's CPU per move, bench/online_play.py)
            text = await service.act_json_on_loop(game_id, move.token, move.action, move.version)
        except Forbidden as exc:  # as _guard
            raise HTTPException(status_code=403, detail=str(exc)) from None
        await _json(text)(scope, receive, send)


#: What :data:`GamePath` takes.
_GAME_ID = re.compile(rf"[{_GAME_ID_CHARS}]{{1,{_GAME_ID_MAX}}}")


def _lean_move(game_id: str, scope: Scope, body: bytes) -> ActIn | None:
    """The move, if the request is one :func:`act` takes as it is; else ``None``."""
    if _GAME_ID.fullmatch(game_id) is None:
        return None
    types = [v for k, v in scope["headers"] if k == b"content-type"]
    if len(types) != 1 or types[0].split(b";")[0].strip().lower() != b"application/json":
        return None
    try:
        # orjson reads UTF-8 only, and no NaN or integer past 64 bits: such a body is the
        # declared route's to answer, as any it does not take (about 3 µs less per move)
        return ActIn.model_validate(orjson.loads(body))
    except (ValueError, ValidationError):  # bad JSON or UTF-8, or not an ActIn
        return None


def _replayed(body: bytes, receive: Receive) -> Receive:
    """``receive`` with the body already read handed out first."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


def _add_lean_act() -> Route:
    """The lean route goes just before the declared one (the router tries them in order)."""
    declared = next(
        r for r in router.routes if isinstance(r, APIRoute) and r.path.endswith("/{game_id}/act")
    )
    lean = Route(declared.path, LeanAct(declared), methods=["POST"], include_in_schema=False)
    router.routes.insert(router.routes.index(declared), lean)
    return lean


#: The lean move's route (:class:`LeanAct`), also taken before the router (:class:`MovesFirst`).
LEAN_ROUTE = _add_lean_act()


class MovesFirst:
    """The app's router with a person's move taken first: a ``POST`` whose path the lean
    move's route (:data:`LEAN_ROUTE`) matches in full goes to that route at once, the scope
    completed as the router completes it; every other request goes to the router.

    The router would pick the same route — the play API comes first in its table and no other
    route matches a path of it (``tests/web/test_route_order.py``) — but only after matching the
    request against the included routers' tables, which cost about a seventh of the server's CPU
    per move (py-spy over ``bench/online_play.py``). It sits where the router does, inside the
    app's exception handlers and every middleware, so the answers are the router's."""

    def __init__(self, app: ASGIApp, router: Any, route: Route = LEAN_ROUTE) -> None:
        self.app = app
        self.router = router
        self.route = route

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "POST" and scope["path"][-4:] == "/act":
            match, child = self.route.matches(scope)
            if match is Match.FULL:
                scope.setdefault("router", self.router)
                scope.update(child)
                await self.route.handle(scope, receive, send)
                return
        await self.app(scope, receive, send)


def take_moves_first(app: FastAPI) -> None:
    """Put :class:`MovesFirst` in front of ``app``'s router (once its routes are included)."""
    app.router.middleware_stack = MovesFirst(app.router.middleware_stack, app.router)


@router.get("/{game_id}/result")
def result(game_id: GamePath, request: Request) -> dict[str, Any]:
    """The scores once the game is over (409 while it runs)."""
    done = service_of(request).result(game_id)
    return {
        "scores": done.scores,
        "seats": done.seats,
        "seed": done.seed,
        "seed_sha256": seed_sha256(done.seed),
    }


@router.get("/{game_id}/log")
def game_log(game_id: GamePath, request: Request) -> dict[str, Any]:
    """The finished game as a file anyone can check with ``agon verify`` (its setup, revealed
    seed, log and scores; docs/online-play.md). 409 while the game runs."""
    with service_of(request).sessions() as session:
        return export_game(session, game_id)


class ReplayStep(BaseModel):
    """One step of a replay: the log entry and the public state that resulted."""

    seq: int = Field(description="the log entry's number, from 1")
    seat: int = Field(description="the seat that acted (-1: the table's own `stop after age N`)")
    action: str = Field(description="the engine's action string, as `apply(seat, action)` takes it")
    state: dict[str, Any] = Field(description="the public view after the action (the spectator's)")


class ReplayOut(BaseModel):
    """A finished game step by step (docs/online-play.md, "Replays")."""

    format: str = Field(description='"agon-replay/1"')
    game_id: str
    game: str
    variant: str
    seed: str = Field(description="the game's seed, revealed now that it is over")
    seed_sha256: str = Field(description="its SHA-256: the commitment every state carried")
    setup: dict[str, Any]
    seats: list[dict[str, Any]]
    tournament: dict[str, Any] | None
    scores: Any
    initial: dict[str, Any] = Field(description="the public view before the first step")
    steps: list[ReplayStep]


@router.get("/{game_id}/replay", response_model=ReplayOut)
def game_replay(game_id: GamePath, request: Request) -> dict[str, Any]:
    """The finished game step by step (docs/online-play.md, "Replays"): its setup, the revealed
    seed and its ``seed_sha256`` commitment, and every step — ``seq``, ``seat``, ``action`` and
    the public ``state`` that resulted. 409 while the game runs, 404 for no such game."""
    with service_of(request).sessions() as session:
        return replay_document(session, game_id)


@router.get("/{game_id}/events", include_in_schema=False)
async def events(
    game_id: GamePath, request: Request, state: StateDep, token: Token = None
) -> Response:
    """Server-Sent Events: ``event: state`` with the seat's state (as GET) on every change.

    At most ``AGON_STREAMS_PER_ADDRESS`` open per client address in this process (429 beyond,
    :mod:`agon.web.streams`); a seat's stream ends once its token is revoked (a bot took it)."""
    counter: StreamCounter = request.app.state.streams
    address = client_key(request, state)
    if not counter.acquire(address):
        return JSONResponse({"detail": TOO_MANY}, status_code=429)
    try:
        response = await _events(game_id, request, token, lambda: counter.release(address))
    except BaseException:
        counter.release(address)
        raise
    return response


async def _events(
    game_id: str, request: Request, token: str | None, on_close: Callable[[], None]
) -> StreamingResponse:
    service = service_of(request)
    known = _guard(lambda: service.try_seat_and_meta(game_id, token))  # in memory: on the loop
    if known is None:
        seat = await run_in_threadpool(_guard, lambda: service.seat_for(game_id, token))
        track = seat is not None and presence.tracked(
            await run_in_threadpool(service.meta, game_id)
        )
    else:
        seat, meta = known
        track = seat is not None and presence.tracked(meta)
    digest = token_hash(token) if token else ""  # asked at every push: hashed once

    def revoked_here() -> bool:
        """Is the seat's token no longer the seat's in this process (loads the game)?"""
        try:
            return service.seat_for(game_id, token) != seat
        except (Forbidden, NotFound):
            return True

    def revoked_anywhere() -> bool:
        """... or in the database (another worker gave the seat to a bot)?"""
        return revoked_here() or stored_seat(service.sessions, game_id, str(token)) != seat

    async def revoked(*, in_database: bool) -> bool:
        if seat is None or token is None:  # a spectator: nothing to revoke
            return False
        if in_database:  # at a keep-alive: one read per stream and keep-alive period
            return await run_in_threadpool(revoked_anywhere)
        held = service.holds_seat(game_id, digest, seat)  # at a push: on the loop, no thread
        return (await run_in_threadpool(revoked_here)) if held is None else not held

    async def stream() -> AsyncIterator[str]:
        last = -1
        async for version in service.watch(game_id, idle=KEEPALIVE_SECONDS):
            if version is None:
                if await revoked(in_database=True):
                    yield REVOKED
                    return
                yield ": keep-alive\n\n"
                continue
            if version <= last:
                continue
            if await revoked(in_database=False):
                yield REVOKED
                return
            # the state's JSON text is made once per version and seat (the act's answer made it
            # already for the acting seat): on the loop when it need not wait for the game's lock
            now = service.try_seat_json(game_id, seat)
            if now is None:
                try:
                    now = await run_in_threadpool(service.seat_json, game_id, seat)
                except NotFound:
                    return
            shown = _VERSION.search(now)
            last = int(shown.group(1)) if shown else version
            yield f"event: state\nid: {last}\ndata: {now}\n\n"

    return CountedStream(
        _tracked(request, game_id, seat, stream()) if track and seat is not None else stream(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
        on_close=on_close,
    )
