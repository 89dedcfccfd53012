"""Online registration (issue 27): the public form, a registrant's private page, the desk's page
and the JSON API, all thin over :mod:`agon.services.registration`.

The form and the API's registration are counted per client address in the database
(:class:`agon.web.attempts.DatabaseLimiter`, ``registrations_per_hour``); CSRF as every form. A
registrant's private link ``/register/<slug>/me/<token>`` shows the status and withdraws; the
token is shown once, after registering, and only its hash is stored. The desk sees e-mails; the
public list shows names or initials, as the tournament sets.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from agon.errors import AgonError, NotFound
from agon.i18n import N_
from agon.services import registration, rounds, tournaments
from agon.services.registration import PublicEntry, Registrant, RegistrationPublic
from agon.services.schemas import PlayerPublic
from agon.web.deps import DirectorDep, LangDep, SessionDep, StateDep, client_key
from agon.web.errors import status_of
from agon.web.limits import Count
from agon.web.routes.desk.common import back
from agon.web.templating import error_text, render, tr

router = APIRouter(include_in_schema=False)
api_router = APIRouter(prefix="/api/tournaments/{slug}/registration", tags=["registration"])

TOO_MANY = N_("Too many registrations from this address; try again in an hour.")
Token = Annotated[str, Field(max_length=100)]


def _limit(request: Request, state: StateDep, lang: str) -> None:
    """Count one registration for the client's address; 429 over the hourly limit."""
    if not request.app.state.registration_limiter.reserve(client_key(request, state)):
        raise HTTPException(429, detail=tr(lang, TOO_MANY))


def private_path(slug: str, token: str) -> str:
    return f"/register/{slug}/me/{token}"


# --- API ----------------------------------------------------------------------------------------


class RegistrationIn(BaseModel):
    """A director opens (or changes) the online registration."""

    capacity: Count
    deadline: datetime | None = None
    fee_note: str = Field(default="", max_length=500)
    public_names: Literal["full", "initials"] = "full"


class RegisterIn(BaseModel):
    name: str = Field(max_length=200)
    email: str = Field(max_length=254)
    tag: str | None = Field(default=None, max_length=100)


class RegistrationOut(BaseModel):
    registration: dict[str, Any]
    registrants: list[dict[str, Any]]


class RegisteredOut(BaseModel):
    """The new registration; ``link`` (with its ``token``) is shown only in this answer."""

    number: int
    status: str
    position: int | None
    token: str
    link: str


class StatusOut(BaseModel):
    number: int
    name: str
    status: str
    position: int | None
    player: str | None


class CheckInIn(BaseModel):
    """The registrants' numbers to check in (empty: everyone registered)."""

    numbers: list[Count] = Field(default=[], max_length=1000)
    late: bool = False
    fee_paid: bool = False


def _settings(r: RegistrationPublic) -> dict[str, Any]:
    return {
        "open": r.open,
        "accepting": r.accepting,
        "capacity": r.capacity,
        "deadline": r.deadline.isoformat() if r.deadline else None,
        "fee_note": r.fee_note,
        "public_names": r.public_names,
        "taken": r.taken,
        "waiting": r.waiting,
    }


def _status(r: Registrant) -> StatusOut:
    return StatusOut(
        number=r.number, name=r.name, status=r.status, position=r.position, player=r.player
    )


def _now(request: Request) -> datetime:
    now: datetime = request.app.state.clock()
    return now


@api_router.get("")
def get_registration(slug: str, request: Request, session: SessionDep) -> RegistrationOut:
    """The registration and the public list (names or initials; no e-mails)."""
    found = registration.get_registration(session, tournament=slug, now=_now(request))
    people = registration.public_list(session, tournament=slug)
    return RegistrationOut(
        registration=_settings(found),
        registrants=[{"name": p.name, "status": p.status, "position": p.position} for p in people],
    )


@api_router.post("", status_code=201)
def register(
    slug: str, body: RegisterIn, request: Request, state: StateDep, session: SessionDep
) -> RegisteredOut:
    """Register online (no login; counted per address). The answer's link is the private one."""
    _limit(request, state, "en")
    done = registration.register(
        session, tournament=slug, name=body.name, email=body.email, tag=body.tag, now=_now(request)
    )
    r = done.registrant
    return RegisteredOut(
        number=r.number,
        status=r.status,
        position=r.position,
        token=done.token,
        link=private_path(slug, done.token),
    )


@api_router.get("/me/{token}")
def my_status(slug: str, token: str, session: SessionDep) -> StatusOut:
    """A registrant's status by the token of their private link."""
    return _status(registration.find_by_token(session, tournament=slug, token=token[:100]))


@api_router.post("/me/{token}/withdraw")
def withdraw_me(slug: str, token: str, request: Request, session: SessionDep) -> StatusOut:
    """Withdraw by the private link's token; the first on the waiting list moves up."""
    return _status(
        registration.withdraw(session, tournament=slug, token=token[:100], now=_now(request))
    )


@api_router.put("")
def open_registration(
    slug: str, body: RegistrationIn, request: Request, actor: DirectorDep, session: SessionDep
) -> dict[str, Any]:
    """Open or change the registration (the director)."""
    found = registration.open_registration(
        session,
        tournament=slug,
        capacity=body.capacity,
        deadline=body.deadline,
        fee_note=body.fee_note,
        public_names=body.public_names,
        actor=actor,
        now=_now(request),
    )
    return _settings(found)


@api_router.post("/close")
def close_registration(
    slug: str, request: Request, actor: DirectorDep, session: SessionDep
) -> dict[str, Any]:
    """Close the registration (the director); registrants stay and can be checked in."""
    return _settings(
        registration.close_registration(session, tournament=slug, actor=actor, now=_now(request))
    )


@api_router.get("/registrants")
def list_registrants(slug: str, actor: DirectorDep, session: SessionDep) -> list[dict[str, Any]]:
    """Everyone who registered, with e-mail (the director)."""
    return [
        {
            "number": r.number,
            "name": r.name,
            "tag": r.tag,
            "email": r.email,
            "status": r.status,
            "position": r.position,
            "player": r.player,
        }
        for r in registration.list_registrants(session, tournament=slug)
    ]


@api_router.post("/checkin")
def check_in(
    slug: str, body: CheckInIn, request: Request, actor: DirectorDep, session: SessionDep
) -> list[PlayerPublic]:
    """Check registrants in at the venue: they become players (the director)."""
    numbers = list(body.numbers) or registration.to_check_in(session, tournament=slug)
    if not numbers:
        raise HTTPException(409, detail="nobody registered is left to check in")
    return registration.check_in(
        session,
        tournament=slug,
        numbers=numbers,
        late=body.late,
        fee_paid=body.fee_paid,
        actor=actor,
        now=_now(request),
    )


# --- public pages -------------------------------------------------------------------------------


def _form_page(
    request: Request,
    session: SessionDep,
    lang: str,
    slug: str,
    *,
    status_code: int = 200,
    error: str = "",
    typed: dict[str, str] | None = None,
) -> Response:
    t = tournaments.get_tournament(session, slug=slug)
    found = registration.get_registration(session, tournament=slug, now=_now(request))
    people: list[PublicEntry] = registration.public_list(session, tournament=slug)
    return render(
        request,
        "registration/form.html",
        lang,
        status_code=status_code,
        t=t,
        reg=found,
        people=people,
        error=error,
        typed=typed or {},
    )


@router.get("/register/{slug}", response_class=HTMLResponse)
def form_page(request: Request, slug: str, session: SessionDep, lang: LangDep) -> Response:
    return _form_page(request, session, lang, slug)


@router.post("/register/{slug}")
def register_form(
    request: Request,
    slug: str,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    name: Annotated[str, Form(max_length=200)],
    email: Annotated[str, Form(max_length=254)],
    tag: Annotated[str, Form(max_length=100)] = "",
) -> Response:
    registration.get_registration(session, tournament=slug)  # 404 before counting a try
    _limit(request, state, lang)
    typed = {"name": name, "email": email, "tag": tag}
    try:
        done = registration.register(
            session,
            tournament=slug,
            name=name,
            email=email,
            tag=tag.strip() or None,
            now=_now(request),
        )
    except AgonError as exc:
        return _form_page(
            request,
            session,
            lang,
            slug,
            status_code=status_of(exc),
            error=error_text(exc, lang),
            typed=typed,
        )
    message = tr(lang, N_("You are registered. Keep the link of this page: it is your own."))
    return back(request, private_path(slug, done.token), message)


def _mine(session: SessionDep, slug: str, token: str) -> Registrant:
    if len(token) > 100:
        raise NotFound("no registration with this link")
    return registration.find_by_token(session, tournament=slug, token=token)


@router.get("/register/{slug}/me/{token}", response_class=HTMLResponse)
def my_page(
    request: Request, slug: str, token: str, session: SessionDep, lang: LangDep
) -> Response:
    me = _mine(session, slug, token)
    t = tournaments.get_tournament(session, slug=slug)
    found = registration.get_registration(session, tournament=slug, now=_now(request))
    response = render(
        request, "registration/mine.html", lang, t=t, reg=found, me=me, link=str(request.url)
    )
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@router.post("/register/{slug}/me/{token}/withdraw")
def withdraw_form(
    request: Request, slug: str, token: str, session: SessionDep, lang: LangDep
) -> Response:
    me = _mine(session, slug, token)
    registration.withdraw(session, tournament=slug, number=me.number, now=_now(request))
    return back(request, private_path(slug, token), tr(lang, N_("Your registration is withdrawn.")))


# --- the desk -----------------------------------------------------------------------------------


@router.get("/desk/{slug}/registration", response_class=HTMLResponse)
def desk_page(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    t = tournaments.get_tournament(session, slug=slug)
    try:
        found: RegistrationPublic | None = registration.get_registration(
            session, tournament=slug, now=_now(request)
        )
        people = registration.list_registrants(session, tournament=slug)
    except NotFound:
        found, people = None, []
    return render(request, "registration/desk.html", lang, t=t, reg=found, people=people)


@router.post("/desk/{slug}/registration/open")
def desk_open(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    capacity: Annotated[int, Form(ge=1, le=10_000)],
    deadline: Annotated[str, Form(max_length=40)] = "",
    fee_note: Annotated[str, Form(max_length=500)] = "",
    public_names: Annotated[Literal["full", "initials"], Form()] = "full",
) -> Response:
    when = None
    if deadline.strip():
        try:
            when = datetime.fromisoformat(deadline.strip())
        except ValueError:
            raise HTTPException(
                422, detail=tr(lang, N_("The deadline must be a date and time with a time zone."))
            ) from None
        if when.tzinfo is None:  # the form's datetime-local: the time as the server's UTC
            when = when.replace(tzinfo=UTC)
    registration.open_registration(
        session,
        tournament=slug,
        capacity=capacity,
        deadline=when,
        fee_note=fee_note,
        public_names=public_names,
        actor=actor,
        now=_now(request),
    )
    return back(request, f"/desk/{slug}/registration", tr(lang, N_("Online registration is open.")))


@router.post("/desk/{slug}/registration/close")
def desk_close(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    registration.close_registration(session, tournament=slug, actor=actor, now=_now(request))
    return back(
        request, f"/desk/{slug}/registration", tr(lang, N_("Online registration is closed."))
    )


@router.post("/desk/{slug}/registration/checkin")
def desk_check_in(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    number: Annotated[int | None, Form(ge=1, le=1_000_000)] = None,
    fee_paid: Annotated[bool, Form()] = False,
) -> Response:
    """Check in one registrant (``number``) or, without it, everyone registered."""
    numbers = [number] if number is not None else registration.to_check_in(session, tournament=slug)
    if not numbers:
        return back(
            request,
            f"/desk/{slug}/registration",
            tr(lang, N_("Nobody registered is left to check in.")),
            "error",
        )
    late = bool(rounds.list_rounds(session, tournament=slug))
    done = registration.check_in(
        session,
        tournament=slug,
        numbers=numbers,
        late=late,
        fee_paid=fee_paid,
        actor=actor,
        now=_now(request),
    )
    names = ", ".join(p.name for p in done)
    return back(request, f"/desk/{slug}/registration", tr(lang, N_("Checked in: %s")) % names)
