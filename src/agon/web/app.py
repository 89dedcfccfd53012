"""The app factory: ``create_app(settings)`` builds a FastAPI app over the service layer.

Nothing is built at import time: the engine, the session factories and the secret come from the
settings handed in (or from the environment, :func:`agon.web.settings.web_settings`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import sys
import time
from collections.abc import AsyncIterator
from http import HTTPStatus
from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DataError
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon import __version__
from agon.errors import AgonError
from agon.i18n import N_
from agon.play.clocks import tick as clock_tick
from agon.play.live import listen, listen_url
from agon.play.service import FinishedGame, PlayService
from agon.services.core import utcnow
from agon.store.db import OUTAGE, Settings, database_fault, make_engine, make_session_factory
from agon.store.migrate import ensure_current
from agon.web import renderproc
from agon.web.attempts import DatabaseLimiter, forget_expired
from agon.web.bodylimit import BodyLimit, BodyTooLarge
from agon.web.deps import CSRF_DETAIL, LoginRequired, csrf_guard, language
from agon.web.errors import status_of
from agon.web.logs import AccessLog
from agon.web.metrics import RequestMetrics, count_journal_writes, worker_stopped
from agon.web.outage import DatabaseOutage
from agon.web.pagecache import CachedPages
from agon.web.proxy import ForwardedProto, HeadAsGet, RootPath
from agon.web.secret import load_secret, secret_file
from agon.web.sessions import DirectorSessions
from agon.web.settings import WebSettings, web_settings
from agon.web.state import WebState, make_reader_engine, watch_commits
from agon.web.streams import StreamCounter
from agon.web.templating import error_text, render, tr, without_cli_hints

SESSION_COOKIE = "agon_session"
#: How long a login lasts (the cookie's and the server-side session's lifetime).
SESSION_SECONDS = 14 * 3600
#: Wrong director passwords a client may try per ten minutes.
LOGIN_ATTEMPTS = 10
#: How often the limits' expired counters are deleted (seconds).
ATTEMPTS_SWEEP_SECONDS = 600.0
#: Processes the bots of online games think in (started when a bot first thinks).
PLAY_BOT_PROCESSES = 2
#: How long after its last read a tournament's version is still asked for in the background.
VERSIONS_WATCHED_SECONDS = 60.0
#: How long a thread may hold the interpreter lock while the event loop waits for it (seconds).
GIL_SWITCH_SECONDS = 0.0005
#: The collector's young-generation threshold while serving (Python's default is 700): between
#: two collections more of a move's short-lived objects are freed by reference counting, so
#: fewer are scanned and promoted, and middle and full collections come rarely (a 200-game
#: run of bench/online_play.py: 0.09 s of collecting against 0.35 s, docs/dev-measurements.md).
GC_YOUNG_THRESHOLD = 10_000
#: No inline script, nothing from other hosts; QR codes and the chart are inline images/SVG.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


class SecurityHeaders:
    """Adds the content security policy and friends to every response (pure ASGI, cheap)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.setdefault("headers", [])
                headers.extend(
                    [
                        (b"content-security-policy", CSP.encode()),
                        (b"x-content-type-options", b"nosniff"),
                        (b"referrer-policy", b"same-origin"),
                        (b"x-frame-options", b"DENY"),
                    ]
                )
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: Set by ``agon serve --workers N`` for its workers (:mod:`agon.web.cli`): a worker started or
#: restarted while the database is away waits for it (one line in the log) instead of dying with a
#: traceback; the single-process server stops at once, as before.
WORKER_ENV = "AGON_SERVE_WORKER"
#: How long a worker waits for the database at its start.
WORKER_DATABASE_WAIT_SECONDS = 120.0


def _migrated(engine: Engine) -> None:
    """:func:`ensure_current`; in a worker of several, patient while the database is away."""
    if os.environ.get(WORKER_ENV) != "1":
        ensure_current(engine)
        return
    started, said = time.monotonic(), False
    while True:
        try:
            ensure_current(engine)
            return
        except Exception as exc:
            fault = database_fault(exc)
            if fault is None or time.monotonic() - started > WORKER_DATABASE_WAIT_SECONDS:
                raise
            if not said:
                logging.getLogger("agon.store").warning(
                    "worker %d: waiting for the database: %s", os.getpid(), fault
                )
                said = True
            time.sleep(0.5)


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """Build the app: migrate the database, open the engines, mount pages, API and static files."""
    settings = settings or web_settings()
    from agon.web.routes.series import series_registry

    series_files = series_registry(settings.series_files)  # a bad file stops here, nothing open
    engine = make_engine(
        Settings(database_url=settings.database_url, busy_timeout_ms=settings.busy_timeout_ms)
    )
    _migrated(engine)
    sessions = make_session_factory(engine)
    # the limits' counters have an engine (a pool) of their own: a route that holds a session
    # of the main pool while it counts a try never waits for a second connection of that pool
    limits = make_engine(
        Settings(database_url=settings.database_url, busy_timeout_ms=settings.busy_timeout_ms)
    )
    readers = make_session_factory(
        make_reader_engine(settings.database_url, engine, settings.busy_timeout_ms)
    )
    secret = load_secret(
        environment_key=settings.secret_key,
        path=secret_file(settings.database_url, settings.secret_file),
        engine=engine,
        sessions=sessions,
    )
    state = WebState(
        settings=settings,
        engine=engine,
        sessions=sessions,
        readers=readers,
        secret_key=secret,
        # counted in the database: shared by every worker, kept across restarts (issue 26)
        pin_limiter=DatabaseLimiter(
            limits,
            "pin",
            limit=settings.pin_attempts,
            window_seconds=settings.pin_window_seconds,
            per_address=settings.pin_attempts_per_address,
        ),
        login_limiter=DatabaseLimiter(limits, "login", limit=LOGIN_ATTEMPTS, window_seconds=600),
        director_sessions=DirectorSessions(
            writer=sessions, reader=readers, max_age=SESSION_SECONDS
        ),
    )
    if settings.render_process and renderproc.usable(settings.database_url):
        # started when a kept page is first rendered for a reader (issue 30); the writes then
        # render the pages they change there, not holding this interpreter's lock
        state.renderer = renderproc.RenderProcess(settings.database_url, settings.busy_timeout_ms)
    play = PlayService(
        sessions,
        bot_processes=PLAY_BOT_PROCESSES,
        clock_scale=settings.play_clock_scale,
        commit_delay=settings.play_commit_delay_ms / 1000,
        commit_siblings=settings.play_commit_siblings,
    )
    from agon.services import online
    from agon.services.online_host import PlayHost

    online_host = PlayHost(play)

    def sweep_online() -> None:
        """Tournament tables played online: record finished games' results, bots for absent
        players, the round clock (:func:`agon.services.online.sweep_all`)."""
        try:
            with sessions() as session:
                online.sweep_all(session, host=online_host, now=app.state.clock())
        except Exception as exc:  # a failed sweep is retried on the next tick; never stop
            fault = database_fault(exc)
            if fault is None:
                logging.getLogger("agon.online").exception("online tables: sweep failed")
            else:  # one line per outage, however many ticks it lasts
                OUTAGE.failed(fault)
        else:
            OUTAGE.recovered()

    def sweep_after(done: FinishedGame) -> None:
        """A tournament table's game has ended: its result is recorded now, not at the next
        sweep. A game of the play API alone (no tournament in its meta) is no table's: the sweep
        would read every tournament for nothing (about 0.5-1 ms of CPU a finished game, in a
        thread; bench/online_play.py)."""
        if isinstance(done.meta, dict) and done.meta.get("tournament") is not None:
            sweep_online()

    play.on_finish(sweep_after)

    async def refresh_versions_forever() -> None:
        """The versions of the tournaments read lately, asked again twice per memo lifetime."""
        from agon.web.routes.public import refresh_versions

        while True:
            await asyncio.sleep(state.versions.ttl / 2)
            slugs = state.versions.asked_lately(VERSIONS_WATCHED_SECONDS)
            if not slugs:
                continue
            try:
                await asyncio.to_thread(refresh_versions, state, slugs)
            except Exception as exc:  # retried on the next tick; never stop the server
                fault = database_fault(exc)
                if fault is None:
                    logging.getLogger("agon.web").exception("refreshing the versions failed")
                else:
                    OUTAGE.failed(fault)

    async def forget_attempts_forever() -> None:
        """The limits' counters whose window is over are deleted now and then."""
        while True:
            try:
                await asyncio.to_thread(forget_expired, limits)
            except Exception as exc:  # retried later; never stop the server
                fault = database_fault(exc)
                if fault is None:
                    logging.getLogger("agon.web").exception("forgetting old attempts failed")
                else:  # the database is away: said once by the outage, not on every sweep
                    OUTAGE.failed(fault)
            await asyncio.sleep(ATTEMPTS_SWEEP_SECONDS)

    async def sweep_clocks_forever() -> None:
        """The online games' turn clocks (:meth:`PlayService.sweep_clocks`), checked every
        :func:`agon.play.clocks.tick` seconds."""
        while True:
            try:
                await asyncio.to_thread(play.sweep_clocks)
            except Exception as exc:  # retried on the next tick; never stop the server
                fault = database_fault(exc)
                if fault is None:
                    logging.getLogger("agon.play").exception("the turn clocks' sweep failed")
                else:  # the database is away: said once by the outage, not on every tick
                    OUTAGE.failed(fault)
            await asyncio.sleep(clock_tick(settings.play_clock_scale))

    async def sweep_online_forever() -> None:
        while True:
            await asyncio.to_thread(sweep_online)
            await asyncio.sleep(settings.online_sweep_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        """Online play: resume the running games' bots; on PostgreSQL listen for other workers'
        moves (:mod:`agon.play.live`)."""
        conninfo = listen_url(settings.database_url)
        # What is loaded by now (the code, the game data, the app) lives as long as the server:
        # the collector leaves it alone until shutdown, so a full collection scans only what came
        # later (scanning the whole heap paused every request for 0.2-1 s, bench/online_play.py).
        gc.freeze()
        thresholds = gc.get_threshold()
        gc.set_threshold(max(thresholds[0], GC_YOUNG_THRESHOLD), *thresholds[1:])
        # A result entered (and the pages it renders ahead) runs in a worker thread for 10-30 ms
        # of CPU; meanwhile the event loop, which answers the phones, waits for the interpreter
        # lock up to the switch interval each time it wakes (5 ms by default). A short interval
        # hands it back sooner (bench/web_gil_switch.py: the loop wakes late by 5-16 ms p50 at
        # 5 ms, 0.7-0.8 ms at 0.5 ms); the write loses a few switches' worth of time.
        switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(switch_interval, GIL_SWITCH_SECONDS))
        listener = asyncio.create_task(listen(play, conninfo)) if conninfo else None
        resume = asyncio.create_task(asyncio.to_thread(play.resume_all))
        sweeper = asyncio.create_task(sweep_online_forever())
        turn_clocks = asyncio.create_task(sweep_clocks_forever())
        versions = asyncio.create_task(refresh_versions_forever())
        attempts = asyncio.create_task(forget_attempts_forever())
        try:
            yield
        finally:
            for task in (listener, resume, sweeper, turn_clocks, versions, attempts):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await task
            await asyncio.to_thread(play.close)
            if state.renderer is not None:
                await asyncio.to_thread(state.renderer.close)
            limits.dispose()
            worker_stopped()
            sys.setswitchinterval(switch_interval)
            gc.set_threshold(*thresholds)
            gc.unfreeze()

    app = FastAPI(
        title="agon",
        summary="Tournament desk, table results and live standings for 7 Wonders tournaments.",
        version=__version__,
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        dependencies=[Depends(csrf_guard)],
        lifespan=lifespan,
        # FastAPI's own OpenTelemetry bridge asks for the global providers on every request and
        # every response (a few per cent of the server's CPU per move, bench/online_play.py);
        # agon measures itself with its Prometheus metrics (docs/web.md) and configures
        # no OpenTelemetry provider
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    from agon.web.routes.public import prerender, refresh_versions

    watch_commits(sessions, state.versions, before_advance=lambda found: prerender(state, found))
    app.state.web = state
    app.state.play = play
    app.state.online_host = online_host
    #: the server's time source (the round clock, seat connections); tests set their own
    app.state.clock = utcnow
    app.state.play_limiter = DatabaseLimiter(
        limits, "play", limit=settings.play_games_per_hour, window_seconds=3600
    )
    app.state.registration_limiter = DatabaseLimiter(
        limits, "register", limit=settings.registrations_per_hour, window_seconds=3600
    )
    app.state.turns_limiter = DatabaseLimiter(
        limits, "turns", limit=settings.play_turns_per_minute, window_seconds=60
    )
    app.state.streams = StreamCounter(settings.streams_per_address)
    # innermost first: the kept pages are answered inside the session and header middleware
    app.add_middleware(CachedPages, state=state, refresh=refresh_versions)
    # a database that is away: 503 + Retry-After, also for what the page cache asks of it
    app.add_middleware(DatabaseOutage)
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret,
        session_cookie=SESSION_COOKIE,
        max_age=SESSION_SECONDS,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    app.add_middleware(SecurityHeaders)
    # outermost: a body over its limit is refused before anything reads it (issue 26)
    app.add_middleware(
        BodyLimit, limit=settings.max_body_bytes, import_limit=settings.max_import_bytes
    )
    # what a proxy and a monitor see (issue 27): the prefix (links rewritten inside HEAD's body
    # strip, so HEAD's length is GET's), the scheme of a trusted proxy, HEAD, then the clock
    if settings.root_path:
        app.add_middleware(RootPath, prefix=settings.root_path)
    app.add_middleware(ForwardedProto, trusted=settings.trusted_proxies)
    app.add_middleware(HeadAsGet)
    app.add_middleware(RequestMetrics, routes_of=lambda: app)
    if settings.access_log:
        app.add_middleware(AccessLog, trusted=settings.trusted_proxies)
    count_journal_writes()
    app.mount("/static", StaticFiles(packages=[("agon.web", "static")]), name="static")

    from agon.web.routes import (
        api,
        desk,
        health,
        people,
        people_pages,
        profiles,
        public,
        registration,
        series,
        table,
    )
    from agon.web.routes import play as play_routes
    from agon.web.routes import sync as sync_routes

    app.state.series_files = series_files
    # The online-play API first: the router tries the routes in order, and a phone's move and
    # its event stream are the most frequent requests by far (the whole table before them cost
    # about 0.3 ms per move, bench/online_play.py). No other route matches an /api/play path
    # (tests/web/test_route_order.py), so the order changes no answer.
    app.include_router(play_routes.router)
    app.include_router(health.router)
    app.include_router(people.router)  # the login and the people's API (issue 27)
    app.include_router(people_pages.router)
    app.include_router(registration.api_router)
    app.include_router(api.router)
    app.include_router(sync_routes.router)  # a laptop's event pushed here (issue 29)
    app.include_router(public.router)
    app.include_router(series.router)
    app.include_router(registration.router)
    app.include_router(desk.router)
    app.include_router(profiles.api)
    app.include_router(profiles.pages)
    app.include_router(profiles.desk)
    app.include_router(table.router)
    from agon.web.routes import play_pages, play_replay, play_turns

    app.include_router(play_turns.router)  # before play_pages: /play/mine is no game
    app.include_router(play_pages.router)
    app.include_router(play_replay.router)
    _install_error_handlers(app)
    play_routes.take_moves_first(app)  # a person's move: no search of the route table
    return app


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def back_link(request: Request) -> str:
    """Where the error page's "back" goes: the referring page of this site, else the start."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc == request.url.netloc and referer.path.startswith("/"):
        return referer.path + (f"?{referer.query}" if referer.query else "")
    return "/"


#: What a page says for an HTTP error that carries only the status's English phrase (a path that
#: does not exist, a method a page does not take) or the CSRF guard's English detail.
HTTP_ERROR_TEXTS = {
    404: N_("This page does not exist."),
    405: N_("This page does not take that kind of request."),
}
TOO_LARGE = N_("This request is too large: at most %d bytes are accepted here.")
CSRF_EXPIRED = N_("This form has expired: reload the page and send it again.")


def http_error_text(exc: HTTPException, lang: str) -> str:
    """The error page's message for ``exc`` in ``lang``: a detail the route already wrote in the
    reader's language is kept; the framework's English phrases are replaced by catalogue texts."""
    detail = str(exc.detail)
    if detail == CSRF_DETAIL:
        return tr(lang, CSRF_EXPIRED)
    if isinstance(exc, BodyTooLarge):
        return tr(lang, TOO_LARGE) % exc.limit
    try:
        phrase = HTTPStatus(exc.status_code).phrase
    except ValueError:
        phrase = ""
    if detail == phrase:
        return tr(lang, HTTP_ERROR_TEXTS.get(exc.status_code, N_("The request was refused.")))
    return detail


def _error_page(request: Request, status: int, message: str) -> Response:
    return render(
        request,
        "error.html",
        language(request),
        status_code=status,
        status=status,
        message=message,
        back=back_link(request),
    )


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(AgonError)
    async def agon_error(request: Request, exc: AgonError) -> Response:
        status = status_of(exc)
        if _is_api(request):
            return JSONResponse({"detail": without_cli_hints(str(exc))}, status_code=status)
        return _error_page(request, status, error_text(exc, language(request)))

    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, exc: LoginRequired) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": "log in as the director first"}, status_code=401)
        return RedirectResponse(f"/desk/login?next={request.url.path}", status_code=303)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if _is_api(request) or exc.status_code < 400:
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        return _error_page(request, exc.status_code, http_error_text(exc, language(request)))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        # The input itself is not echoed: it may be huge, binary, or not JSON at all.
        errors = [
            {
                "loc": [str(p)[:64] for p in e.get("loc", ())],
                "msg": str(e.get("msg", ""))[:200],
                "type": str(e.get("type", "")),
            }
            for e in exc.errors()
        ]
        if _is_api(request):
            return JSONResponse({"detail": errors}, status_code=422)
        fields = ", ".join(dict.fromkeys(".".join(e["loc"][1:]) or e["loc"][0] for e in errors))
        message = tr(language(request), N_("Missing or out-of-range input: %s")) % fields
        return _error_page(request, 422, message)

    @app.exception_handler(OverflowError)
    @app.exception_handler(DataError)
    async def out_of_range(request: Request, exc: Exception) -> Response:
        """A safety net: a value the database cannot store is the client's error, not a 500."""
        message = "a value is out of range or malformed"
        if _is_api(request):
            return JSONResponse({"detail": message}, status_code=422)
        return _error_page(
            request, 422, tr(language(request), N_("A value is out of range or malformed."))
        )
