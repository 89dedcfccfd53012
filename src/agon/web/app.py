"""The app factory: ``create_app(settings)`` builds a FastAPI app over the service layer.

Nothing is built at import time: the engine, the session factories and the secret come from the
settings handed in (or from the environment, :func:`agon.web.settings.web_settings`).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.orm import Session, sessionmaker
from starlette.exceptions import HTTPException
from starlette.middleware.sessions import SessionMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from agon import __version__
from agon.errors import AgonError, Conflict, IllegalAction, InvalidInput, NotFound
from agon.store.db import Settings, make_engine, make_session_factory
from agon.store.migrate import ensure_current
from agon.store.models import Setting
from agon.web.deps import LoginRequired, csrf_guard, language
from agon.web.security import AttemptLimiter, new_token
from agon.web.settings import WebSettings, web_settings
from agon.web.state import WebState, make_reader_engine, watch_commits
from agon.web.templating import render

SECRET_SETTING = "web_secret_key"
SESSION_COOKIE = "agon_session"
#: No inline script, nothing from other hosts; QR codes and the chart are inline images/SVG.
CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def status_of(exc: AgonError) -> int:
    """The HTTP status of a service error (style guide 5: one handler maps them to 4xx)."""
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Conflict | IllegalAction):
        return 409
    if isinstance(exc, InvalidInput):
        return 422
    return 400


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


def _stored_secret(sessions: sessionmaker[Session]) -> str:
    """The secret key kept in the database (made on first start), so PINs survive restarts."""
    with sessions() as session:
        row = session.get(Setting, SECRET_SETTING)
        if row is None:
            row = Setting(key=SECRET_SETTING, value=new_token())
            session.add(row)
            session.commit()
        return row.value


def create_app(settings: WebSettings | None = None) -> FastAPI:
    """Build the app: migrate the database, open the engines, mount pages, API and static files."""
    settings = settings or web_settings()
    engine = make_engine(
        Settings(database_url=settings.database_url, busy_timeout_ms=settings.busy_timeout_ms)
    )
    ensure_current(engine)
    sessions = make_session_factory(engine)
    readers = make_session_factory(
        make_reader_engine(settings.database_url, engine, settings.busy_timeout_ms)
    )
    secret = settings.secret_key or _stored_secret(sessions)
    state = WebState(
        settings=settings,
        engine=engine,
        sessions=sessions,
        readers=readers,
        secret_key=secret,
        pin_limiter=AttemptLimiter(
            limit=settings.pin_attempts, window_seconds=settings.pin_window_seconds
        ),
        login_limiter=AttemptLimiter(limit=10, window_seconds=600),
    )
    app = FastAPI(
        title="agon",
        summary="Tournament desk, table results and live standings for 7 Wonders tournaments.",
        version=__version__,
        openapi_url="/api/openapi.json",
        docs_url=None,
        redoc_url=None,
        dependencies=[Depends(csrf_guard)],
    )
    watch_commits(sessions, state.versions)
    app.state.web = state
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret,
        session_cookie=SESSION_COOKIE,
        max_age=14 * 3600,
        same_site="lax",
        https_only=settings.secure_cookies,
    )
    app.add_middleware(SecurityHeaders)
    app.mount("/static", StaticFiles(packages=[("agon.web", "static")]), name="static")

    from agon.web.routes import api, desk, public, table

    app.include_router(api.router)
    app.include_router(public.router)
    app.include_router(desk.router)
    app.include_router(table.router)
    _install_error_handlers(app)
    return app


def _is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def back_link(request: Request) -> str:
    """Where the error page's "back" goes: the referring page of this site, else the start."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc == request.url.netloc and referer.path.startswith("/"):
        return referer.path + (f"?{referer.query}" if referer.query else "")
    return "/"


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
            return JSONResponse({"detail": str(exc)}, status_code=status)
        return _error_page(request, status, str(exc))

    @app.exception_handler(LoginRequired)
    async def login_required(request: Request, exc: LoginRequired) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": "log in as the director first"}, status_code=401)
        return RedirectResponse(f"/desk/login?next={request.url.path}", status_code=303)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        if _is_api(request) or exc.status_code < 400:
            return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)
        return _error_page(request, exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, exc: RequestValidationError) -> Response:
        if _is_api(request):
            return JSONResponse({"detail": exc.errors()}, status_code=422)
        fields = ", ".join(".".join(str(p) for p in e["loc"][1:]) for e in exc.errors())
        return _error_page(request, 422, f"missing or malformed: {fields}")
