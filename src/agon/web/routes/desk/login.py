"""The desk's door: the login form, a one-time login link (``agon desk link``), logout."""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from agon.i18n import N_
from agon.services import people
from agon.web import access
from agon.web.deps import LangDep, StateDep, client_key
from agon.web.loginlinks import LinkState, consume
from agon.web.routes.desk.common import desk_router
from agon.web.security import new_token, verify_password
from agon.web.state import WebState
from agon.web.templating import render, tr

router = desk_router()

# --- login --------------------------------------------------------------------------------------


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, state: StateDep, lang: LangDep, next: str = "/desk") -> Response:
    return render(
        request,
        "desk/login.html",
        lang,
        next=next if next.startswith(("/desk", "/people")) else "/desk",
        configured=state.settings.director_password_hash is not None,
        accounts=access.accounts_exist(state),
    )


@router.post("/login")
def login(
    request: Request,
    state: StateDep,
    lang: LangDep,
    password: Annotated[str, Form(max_length=500)],
    next: Annotated[str, Form()] = "/desk",
    email: Annotated[str, Form(max_length=300)] = "",
) -> Response:
    key = f"login|{client_key(request, state)}"
    if not state.login_limiter.reserve(key):  # counted before the costly check, atomically
        return render(
            request,
            "error.html",
            lang,
            status_code=429,
            status=429,
            message=tr(lang, N_("Too many wrong passwords; wait ten minutes.")),
            back="/desk/login",
        )
    if email or access.accounts_exist(state):  # a person logs in (issue 27)
        return _person_login(request, state, lang, key, email, password, next)
    if not verify_password(state.settings.director_password_hash, password):
        return render(
            request,
            "error.html",
            lang,
            status_code=403,
            status=403,
            message=tr(lang, N_("Wrong password.")),
            back="/desk/login",
        )
    state.login_limiter.succeeded(key)
    request.session.clear()
    request.session["director"] = state.director_sessions.open()
    request.session["csrf"] = new_token()
    return RedirectResponse(next if next.startswith("/desk") else "/desk", status_code=303)


def _person_login(
    request: Request, state: WebState, lang: str, key: str, email: str, password: str, next: str
) -> Response:
    """Log in with an e-mail and a password; wrong ones: 401, counted like the director's."""
    with state.sessions() as session:
        person = people.authenticate(session, email=email, password=password)
        if person is None:
            return render(
                request,
                "error.html",
                lang,
                status_code=401,
                status=401,
                message=tr(lang, N_("Wrong e-mail or password.")),
                back="/desk/login",
            )
        state.login_limiter.succeeded(key)
        access.log_in_person(request, state, session, person)
    return RedirectResponse(next if next.startswith(("/desk", "/people")) else "/desk", 303)


#: What an unusable login link says (``agon desk link``), and its status.
LINK_REFUSED = {
    LinkState.USED: (
        410,
        N_("This login link has been used already. Run “agon desk link” again for a new one."),
    ),
    LinkState.EXPIRED: (
        410,
        N_("This login link has expired. Run “agon desk link” again for a new one."),
    ),
    LinkState.UNKNOWN: (
        404,
        N_("This login link is not valid. Run “agon desk link” on the server for a new one."),
    ),
}


@router.get("/link/{token:path}", response_class=HTMLResponse)
def login_link(
    request: Request,
    state: StateDep,
    lang: LangDep,
    token: Annotated[str, Path(max_length=100)],
) -> Response:
    """A one-time login link from ``agon desk link``: the browser is the director's from now
    on (no password, no web limit); a used, expired or unknown link gets a 4xx page — whatever
    its text, a slash (``%2F``) included: the token is the rest of the path, so a garbled link
    never falls through to another route (``/desk/link//`` was redirected to the login form)."""
    found = consume(state.engine, token)
    if found is not LinkState.OK:
        status, message = LINK_REFUSED[found]
        return render(
            request,
            "error.html",
            lang,
            status_code=status,
            status=status,
            message=tr(lang, message),
            back="/desk/login",
        )
    request.session.clear()
    request.session["director"] = state.director_sessions.open()
    request.session["csrf"] = new_token()
    return RedirectResponse("/desk", status_code=303)


@router.post("/logout")
def logout(request: Request, state: StateDep) -> Response:
    """Log out: the session is closed on the server too, so a copy of the cookie is worthless."""
    state.director_sessions.close(request.session.get("director"))
    with state.sessions() as session:
        people.close_session(session, request.session.get(access.PERSON_KEY))
    request.session.clear()
    return RedirectResponse("/", status_code=303)
