"""People on the web (issue 27): log in with an e-mail, organisations, invitations, resets.

The JSON API (``/api/...``) and a few pages (``/people``): the admin creates organisations and
invites their organisers; an organiser creates tournaments in its organisation and invites people
to a tournament role; an admin makes password-reset links. An invitation or a reset is a one-time
link (shown to whoever made it: no mail server is needed). ``POST /api/login`` and ``/api/logout``
live here too: without an e-mail and without any account the director password logs in as before.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, Field

from agon.people.roles import Action, Role, Scope, allowed, may, roles_for
from agon.services import people
from agon.services.people import INVITE_PATH, RESET_PATH, Person
from agon.web import access
from agon.web.deps import SessionDep, StateDep, client_key, language
from agon.web.routes.api import LoginIn, SessionOut, TournamentIn, _session_out
from agon.web.routes.api import create_tournament as api_create_tournament
from agon.web.security import new_token, verify_password
from agon.web.state import WebState

router = APIRouter(prefix="/api", tags=["people"])
Token = Annotated[str, Path(max_length=100)]
Slug = Annotated[str, Path(max_length=64)]


class PersonOut(BaseModel):
    email: str
    name: str
    admin: bool
    roles: list[dict[str, str]]


class OrganisationIn(BaseModel):
    slug: str = Field(max_length=64)
    name: str = Field(max_length=200)


class InviteIn(BaseModel):
    email: str = Field(max_length=300)
    role: str = Field(max_length=40)


class EmailIn(BaseModel):
    email: str = Field(max_length=300)


class LinkOut(BaseModel):
    url: str
    #: whether the link was also mailed (only with ``AGON_SMTP_URL`` set)
    mailed: bool = False


class AcceptIn(BaseModel):
    name: str | None = Field(default=None, max_length=200)
    password: str | None = Field(default=None, max_length=500)


class PasswordIn(BaseModel):
    password: str = Field(max_length=500)


def _mail(state: WebState, email: str, url: str, what: str) -> bool:
    from agon.people.emails import check_email
    from agon.web.mail import mail_link

    return mail_link(state.settings.smtp_url, to=check_email(email), url=url, what=what)


def person_out(person: Person) -> PersonOut:
    return PersonOut(
        email=person.email,
        name=person.name,
        admin=person.admin,
        roles=[
            {"role": g.role.value, "scope": g.scope.value, "target": g.target}
            for g in person.grants
        ],
    )


def logged_in(request: Request, state: WebState) -> Person:
    """The person of this request, else 401 (the API) / the login (pages)."""
    from agon.web.deps import LoginRequired

    person = access.person_of(request, state)
    if person is None:
        raise LoginRequired()
    return person


# --- login --------------------------------------------------------------------------------------


@router.post("/login")
def login(request: Request, body: LoginIn, state: StateDep, session: SessionDep) -> SessionOut:
    """Log in with ``{"email", "password"}`` (an account), or — while the server has no account
    — with ``{"password"}`` alone as the director; the answer carries the new CSRF token. Wrong
    credentials: 401 (the director password: 403, as before); both count against the limit."""
    key = f"login|{client_key(request, state)}"
    if not state.login_limiter.reserve(key):  # counted before the costly check, atomically
        raise HTTPException(429, detail="too many wrong passwords; wait ten minutes")
    if body.email is None and not people.accounts_exist(session):
        if not verify_password(state.settings.director_password_hash, body.password):
            raise HTTPException(403, detail="wrong password")
        state.login_limiter.succeeded(key)
        request.session.clear()
        request.session["director"] = state.director_sessions.open()
        request.session["csrf"] = new_token()
        return _session_out(request, state)
    person = people.authenticate(session, email=body.email or "", password=body.password)
    if person is None:
        raise HTTPException(401, detail="wrong e-mail or password")
    state.login_limiter.succeeded(key)
    access.log_in_person(request, state, session, person)
    return _session_out(request, state)


@router.post("/logout")
def logout(request: Request, state: StateDep, session: SessionDep) -> SessionOut:
    """Log out; the session is closed on the server too (a copy of the cookie stops working)."""
    state.director_sessions.close(request.session.get("director"))
    people.close_session(session, request.session.get(access.PERSON_KEY))
    request.session.clear()
    return _session_out(request, state)


@router.get("/me")
def me(request: Request, state: StateDep) -> PersonOut:
    """Who is logged in, with every role (401 without a person's login)."""
    return person_out(logged_in(request, state))


# --- organisations (the admin; organisers) -------------------------------------------------------


def _require(request: Request, state: WebState, action: Action, organisation: str | None) -> Person:
    person = logged_in(request, state)
    if not may(person.grants, action, organisation=organisation):
        raise access.forbidden(language(request))
    return person


@router.get("/organisations")
def list_organisations(
    request: Request, state: StateDep, session: SessionDep
) -> list[dict[str, object]]:
    """The organisations the person may see (all for the admin) and their tournaments."""
    person = logged_in(request, state)
    return [
        {"slug": o.slug, "name": o.name, "tournaments": people.tournaments_of(session, o.slug)}
        for o in people.list_organisations(session)
        if may(person.grants, Action.CREATE_TOURNAMENT, organisation=o.slug)
    ]


@router.post("/organisations", status_code=201)
def create_organisation(
    request: Request, body: OrganisationIn, state: StateDep, session: SessionDep
) -> dict[str, str]:
    """A new organisation (the admin)."""
    _require(request, state, Action.ADMINISTER, None)
    row = people.create_organisation(session, slug=body.slug, name=body.name)
    return {"slug": row.slug, "name": row.name}


@router.post("/organisations/{org}/organisers", status_code=201)
def invite_organiser(
    request: Request, org: Slug, body: EmailIn, state: StateDep, session: SessionDep
) -> LinkOut:
    """A one-time link that makes ``email`` an organiser of ``org`` (the admin)."""
    person = _require(request, state, Action.GRANT_ORGANISER, org)
    token = people.create_invite(
        session,
        email=body.email,
        role=Role.ORGANISER.value,
        scope=Scope.ORGANISATION,
        target=org,
        invited_by=person.name,
    )
    url = str(request.base_url).rstrip("/") + INVITE_PATH + token
    what = f"{person.name} invites you as an organiser of {org}"
    return LinkOut(url=url, mailed=_mail(state, body.email, url, what))


@router.post("/organisations/{org}/tournaments", status_code=201)
def create_tournament(
    request: Request, org: Slug, body: TournamentIn, state: StateDep, session: SessionDep
) -> object:
    """A new tournament of ``org`` (its organisers, the admin)."""
    person = _require(request, state, Action.CREATE_TOURNAMENT, org)
    people.get_organisation(session, org)
    roles = roles_for(person.grants, organisation=org)
    created = api_create_tournament(body, people.actor_of(person, roles), session)
    people.attach_tournament(session, tournament=created.slug, organisation=org)
    return created


@router.post("/tournaments/{slug}/invitations", status_code=201)
def invite(
    request: Request, slug: Slug, body: InviteIn, state: StateDep, session: SessionDep
) -> LinkOut:
    """A one-time link that gives ``email`` a role (director, referee, scorekeeper) in the
    tournament (its director, its organisation's organisers, the admin)."""
    person = logged_in(request, state)
    if not any(allowed(r, Action.GRANT) for r in access.tournament_roles(state, person, slug)):
        raise access.forbidden(language(request))
    token = people.create_invite(
        session,
        email=body.email,
        role=body.role,
        scope=Scope.TOURNAMENT,
        target=slug,
        invited_by=person.name,
    )
    url = str(request.base_url).rstrip("/") + INVITE_PATH + token
    what = f"{person.name} invites you as {body.role} of the tournament {slug}"
    return LinkOut(url=url, mailed=_mail(state, body.email, url, what))


@router.post("/people/reset-links", status_code=201)
def reset_link(request: Request, body: EmailIn, state: StateDep, session: SessionDep) -> LinkOut:
    """A one-time link that sets a new password for ``email`` (the admin)."""
    _require(request, state, Action.ADMINISTER, None)
    token = people.create_reset(session, email=body.email)
    url = str(request.base_url).rstrip("/") + RESET_PATH + token
    return LinkOut(url=url, mailed=_mail(state, body.email, url, "a new password for agon"))


# --- using a link -------------------------------------------------------------------------------


@router.get("/people/invite/{token}")
def invitation(token: Token, session: SessionDep) -> dict[str, object]:
    """What an invitation offers (it stays unused)."""
    info = people.link_info(session, token=token, kind="invite")
    return {
        "email": info.email,
        "role": info.role,
        "scope": info.scope,
        "target": info.target,
        "invited_by": info.invited_by,
        "has_account": info.has_account,
    }


@router.post("/people/invite/{token}")
def accept(
    request: Request, token: Token, body: AcceptIn, state: StateDep, session: SessionDep
) -> PersonOut:
    """Accept an invitation (a new account needs ``name`` and ``password``); logs the browser
    in as that person."""
    person = people.accept_invite(session, token=token, name=body.name, password=body.password)
    access.log_in_person(request, state, session, person)
    return person_out(person)


@router.post("/people/reset/{token}")
def reset(
    request: Request, token: Token, body: PasswordIn, state: StateDep, session: SessionDep
) -> PersonOut:
    """Set a new password with a reset link (every other login of the account is closed)."""
    person = people.use_reset(session, token=token, password=body.password)
    access.log_in_person(request, state, session, person)
    return person_out(person)
