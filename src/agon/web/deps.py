"""FastAPI dependencies: the app's state, database sessions, language, director, CSRF."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, HTTPException, Request
from sqlalchemy.orm import Session

from agon.i18n import LANGUAGES, choose_language
from agon.web import access
from agon.web.security import CSRF_FIELD, CSRF_HEADER, client_address, tokens_match
from agon.web.state import WebState

LANG_COOKIE = "agon_lang"
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def get_state(request: Request) -> WebState:
    """The app's state. ``async`` (it does not block): FastAPI runs a plain ``def`` dependency
    in its thread pool, a thread hop per request that cost more than serving a cached page."""
    state: WebState = request.app.state.web
    return state


StateDep = Annotated[WebState, Depends(get_state)]


def writer_session(state: StateDep) -> Iterator[Session]:
    """A session for changes (and reads that must see them)."""
    with state.sessions() as session:
        yield session


def reader_session(state: StateDep) -> Iterator[Session]:
    """A read-only session for the public face."""
    with state.readers() as session:
        yield session


SessionDep = Annotated[Session, Depends(writer_session)]
ReaderDep = Annotated[Session, Depends(reader_session)]


def language(request: Request) -> str:
    """``?lang=`` first, then the language cookie, then the browser's Accept-Language."""
    asked = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE)
    if asked in LANGUAGES:
        return asked
    return choose_language(request.headers.get("accept-language"))


async def _language_dep(request: Request) -> str:
    """:func:`language` as a dependency, in the event loop (no thread hop, see :func:`get_state`)."""
    return language(request)


LangDep = Annotated[str, Depends(_language_dep)]


def client_key(request: Request, state: WebState) -> str:
    """The client the login and PIN limits count (``X-Forwarded-For`` only from a configured
    proxy, :func:`agon.web.security.client_address`)."""
    return client_address(
        request.client.host if request.client else None,
        request.headers.get("x-forwarded-for"),
        state.settings.trusted_proxies,
    )


class LoginRequired(Exception):
    """Raised by :func:`require_director`; pages redirect to the login, the API answers 401."""


def is_director(request: Request, state: WebState) -> bool:
    """Does this request carry an open director session (not logged out, not expired), or a
    person's login with some role (issue 27)? With accounts, the director password's sessions
    no longer count."""
    if access.person_of(request, state) is not None:
        return True
    valid = state.director_sessions.valid(request.session.get("director"))
    return valid and not access.accounts_exist(state)


def require_director(request: Request, state: StateDep) -> str:
    """The journal's actor: "director (web)" for the director password, else the person's name
    and role once the person's role allows what the request asks (:mod:`agon.web.access`).

    Raises:
        LoginRequired: nobody is logged in, or the session was closed (logout, new secret).
        HTTPException: 403, the person's role does not allow it.
    """
    person = access.person_of(request, state)
    if person is not None:
        return access.authorise(request, state, person, language(request))
    if not is_director(request, state):
        raise LoginRequired()
    return "director (web)"


DirectorDep = Annotated[str, Depends(require_director)]


#: The CSRF guard's refusal as the API says it (the pages say it in the reader's language).
CSRF_DETAIL = "missing or wrong CSRF token"


async def csrf_guard(request: Request) -> None:
    """Refuse (403) any unsafe request whose CSRF token is missing or wrong.

    The token comes from the ``X-CSRF-Token`` header (htmx, the JSON API) or the form field
    ``csrf_token``; it must equal the one in the signed session cookie. The online-play API
    (``/api/play``) and the sync API (``/api/sync``) are exempt: their credential is in the
    request (a seat token, a sync token), not a cookie.
    """
    if request.method not in UNSAFE_METHODS:
        return
    path = request.url.path
    if path == "/api/play" or path.startswith(("/api/play/", "/api/sync/")):
        return
    given = request.headers.get(CSRF_HEADER)
    if given is None and request.headers.get("content-type", "").startswith(
        ("application/x-www-form-urlencoded", "multipart/form-data")
    ):
        form = await request.form()
        value = form.get(CSRF_FIELD)
        given = value if isinstance(value, str) else None
    if not tokens_match(request.session.get("csrf"), given):
        raise HTTPException(status_code=403, detail=CSRF_DETAIL)
