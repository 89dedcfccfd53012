"""The people's pages (issue 27): ``/people`` — an admin's organisations, organisers and reset
links, an organiser's tournaments and invitations — and the pages a one-time link opens.

Each form posts here, calls :mod:`agon.services.people` (the same as the JSON API of
:mod:`agon.web.routes.people`) and shows the page again, with a new link when one was made.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from agon.i18n import N_
from agon.people.roles import TOURNAMENT_ROLES, Action, Role, Scope, allowed, may, roles_for
from agon.services import people, tournaments
from agon.services.people import INVITE_PATH, RESET_PATH, Person
from agon.web import access
from agon.web.deps import LangDep, SessionDep, StateDep
from agon.web.routes.desk.tournaments import create_tournament as desk_create_tournament
from agon.web.routes.people import logged_in
from agon.web.state import WebState
from agon.web.templating import flash, render, tr

router = APIRouter(prefix="/people", include_in_schema=False)
Token = Annotated[str, Path(max_length=100)]
Slug = Annotated[str, Path(max_length=64)]


def _home(
    request: Request,
    session: Session,
    person: Person,
    lang: str,
    *,
    link: str = "",
    note: str = "",
    mailed: str = "",
) -> Response:
    """The person's page: what the person may run, the forms that fit its roles."""
    from agon.tournament.ruleset import BUILTIN_RULESETS, load_ruleset

    organisations = [
        {"slug": o.slug, "name": o.name, "tournaments": people.tournaments_of(session, o.slug)}
        for o in people.list_organisations(session)
        if may(person.grants, Action.CREATE_TOURNAMENT, organisation=o.slug)
    ]
    run = sorted(
        {g.target for g in person.grants if g.scope is Scope.TOURNAMENT and g.role is Role.DIRECTOR}
        | {t for o in organisations for t in o["tournaments"]}
    )
    return render(
        request,
        "people/home.html",
        lang,
        person=person,
        admin=person.admin,
        organisations=organisations,
        grants=[g for g in person.grants if g.scope is not Scope.SERVER],
        invitable=run,
        roles=[r.value for r in TOURNAMENT_ROLES],
        rulesets=[(name, load_ruleset(name).title_in(lang)) for name in BUILTIN_RULESETS],
        link=link,
        note=note,
        mailed=mailed,
    )


def _mail(state: WebState, email: str, url: str, what: str) -> str:
    """The address the link was mailed to (SMTP configured and the mail sent), else ""."""
    from agon.people.emails import check_email
    from agon.web.mail import mail_link

    to = check_email(email)
    return to if mail_link(state.settings.smtp_url, to=to, url=url, what=what) else ""


def _url(request: Request, path: str, token: str) -> str:
    return str(request.base_url).rstrip("/") + path + token


@router.get("", response_class=HTMLResponse)
def home(request: Request, state: StateDep, session: SessionDep, lang: LangDep) -> Response:
    return _home(request, session, logged_in(request, state), lang)


def _require(
    request: Request, state: WebState, lang: str, action: Action, org: str | None
) -> Person:
    person = logged_in(request, state)
    if not may(person.grants, action, organisation=org):
        raise access.forbidden(lang)
    return person


@router.post("/organisations")
def create_organisation(
    request: Request,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    slug: Annotated[str, Form(max_length=64)],
    name: Annotated[str, Form(max_length=200)],
) -> Response:
    person = _require(request, state, lang, Action.ADMINISTER, None)
    people.create_organisation(session, slug=slug, name=name)
    return _home(request, session, person, lang, note=tr(lang, N_("Organisation created.")))


@router.post("/organisations/{org}/organisers")
def invite_organiser(
    request: Request,
    org: Slug,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    email: Annotated[str, Form(max_length=300)],
) -> Response:
    person = _require(request, state, lang, Action.GRANT_ORGANISER, org)
    token = people.create_invite(
        session,
        email=email,
        role=Role.ORGANISER.value,
        scope=Scope.ORGANISATION,
        target=org,
        invited_by=person.name,
    )
    url = _url(request, INVITE_PATH, token)
    what = f"{person.name} invites you as an organiser of {org}"
    return _home(request, session, person, lang, link=url, mailed=_mail(state, email, url, what))


@router.post("/organisations/{org}/tournaments")
def create_tournament(
    request: Request,
    org: Slug,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    slug: Annotated[str, Form(max_length=64)],
    name: Annotated[str, Form(max_length=200)],
    ruleset: Annotated[str, Form(max_length=40)],
) -> Response:
    person = _require(request, state, lang, Action.CREATE_TOURNAMENT, org)
    people.get_organisation(session, org)
    actor = people.actor_of(person, roles_for(person.grants, organisation=org))
    done = desk_create_tournament(request, actor, session, lang, slug, name, ruleset)
    people.attach_tournament(session, tournament=slug.strip(), organisation=org)
    return done


@router.post("/invitations")
def invite(
    request: Request,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    tournament: Annotated[str, Form(max_length=64)],
    email: Annotated[str, Form(max_length=300)],
    role: Annotated[str, Form(max_length=40)],
) -> Response:
    person = logged_in(request, state)
    slug = tournament.strip()
    tournaments.get_tournament(session, slug=slug)
    if not any(allowed(r, Action.GRANT) for r in access.tournament_roles(state, person, slug)):
        raise access.forbidden(lang)
    token = people.create_invite(
        session, email=email, role=role, scope=Scope.TOURNAMENT, target=slug, invited_by=person.name
    )
    url = _url(request, INVITE_PATH, token)
    what = f"{person.name} invites you as {role.strip()} of the tournament {slug}"
    return _home(request, session, person, lang, link=url, mailed=_mail(state, email, url, what))


@router.post("/reset-links")
def reset_link(
    request: Request,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    email: Annotated[str, Form(max_length=300)],
) -> Response:
    person = _require(request, state, lang, Action.ADMINISTER, None)
    token = people.create_reset(session, email=email)
    url = _url(request, RESET_PATH, token)
    what = "a new password for agon"
    return _home(request, session, person, lang, link=url, mailed=_mail(state, email, url, what))


# --- the pages a link opens ---------------------------------------------------------------------


def _link_page(request: Request, lang: str, template: str, **context: Any) -> Response:
    return render(request, template, lang, **context)


@router.get("/invite/{token}", response_class=HTMLResponse)
def invitation(request: Request, token: Token, session: SessionDep, lang: LangDep) -> Response:
    info = people.link_info(session, token=token, kind="invite")
    return _link_page(request, lang, "people/invite.html", info=info, token=token)


@router.post("/invite/{token}")
def accept(
    request: Request,
    token: Token,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    name: Annotated[str, Form(max_length=200)] = "",
    password: Annotated[str, Form(max_length=500)] = "",
) -> Response:
    person = people.accept_invite(
        session, token=token, name=name or None, password=password or None
    )
    access.log_in_person(request, state, session, person)
    flash(request, tr(lang, N_("Welcome, %s.")) % person.name)
    return RedirectResponse("/people", status_code=303)


@router.get("/reset/{token}", response_class=HTMLResponse)
def reset_page(request: Request, token: Token, session: SessionDep, lang: LangDep) -> Response:
    info = people.link_info(session, token=token, kind="reset")
    return _link_page(request, lang, "people/reset.html", info=info, token=token)


@router.post("/reset/{token}")
def reset(
    request: Request,
    token: Token,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    password: Annotated[str, Form(max_length=500)],
) -> Response:
    person = people.use_reset(session, token=token, password=password)
    access.log_in_person(request, state, session, person)
    flash(request, tr(lang, N_("Your new password is set.")))
    return RedirectResponse("/people", status_code=303)
