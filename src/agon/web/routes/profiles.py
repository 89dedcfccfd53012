"""Player profiles on the web: the public player page (``/players/{id}``: events, places and the
rating history drawn as an SVG plot with a table beside it), the desk's profile page of a
tournament (``/desk/{slug}/profiles``: link each player to a suggested or new profile), and their
JSON API (``/api/profiles…``). Thin over :mod:`agon.services.profiles`.

A hidden profile's page is 404 for the public (the director still sees it), and public pages do
not link its name.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Path, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

from agon.i18n import N_
from agon.profiles.plot import PlotPoint, rating_plot
from agon.services import players, profiles
from agon.services.profiles import PlayerPage, ProfilePublic, SuggestionPublic
from agon.services.schemas import PlayerPublic
from agon.web.deps import DirectorDep, LangDep, ReaderDep, SessionDep, StateDep, is_director
from agon.web.routes.desk.common import back, desk_router
from agon.web.templating import render, tr

api = APIRouter(prefix="/api", tags=["profiles"])
pages = APIRouter(include_in_schema=False)
desk = desk_router()

#: A profile's id in an address (the service checks its form).
ProfilePath = Annotated[str, Path(max_length=64)]


class ProfileIn(BaseModel):
    name: str = Field(max_length=200)
    tag: str | None = Field(default=None, max_length=100)


class HiddenIn(BaseModel):
    hidden: bool = True


class LinkIn(BaseModel):
    """``profile``: the profile's id, or null to unlink."""

    profile: str | None = Field(max_length=64)


class NewLinkIn(BaseModel):
    """A new profile for the player: its name and tag, else the player's own."""

    name: str | None = Field(default=None, max_length=200)
    tag: str | None = Field(default=None, max_length=100)


class RatingStepOut(BaseModel):
    tournament: str
    event: str
    round: int
    table: int
    final: bool
    rank: int
    seats: int
    mu: float
    sigma: float
    ordinal: float


class EventOut(BaseModel):
    tournament: str
    event: str
    player: str
    place: int | None
    players: int


class PlayerPageOut(BaseModel):
    profile: ProfilePublic
    events: list[EventOut]
    history: list[RatingStepOut]


class NewLinkOut(BaseModel):
    profile: ProfilePublic
    player: PlayerPublic


def _page_out(page: PlayerPage) -> PlayerPageOut:
    return PlayerPageOut(
        profile=page.profile,
        events=[
            EventOut(
                tournament=e.tournament,
                event=e.event,
                player=e.player,
                place=e.place,
                players=e.players,
            )
            for e in page.events
        ],
        history=[
            RatingStepOut(
                tournament=h.tournament,
                event=h.event,
                round=h.round,
                table=h.table,
                final=h.final,
                rank=h.rank,
                seats=h.seats,
                mu=round(h.mu, 6),
                sigma=round(h.sigma, 6),
                ordinal=round(h.ordinal, 6),
            )
            for h in page.history
        ],
    )


# --- JSON API -----------------------------------------------------------------------------------


@api.get("/profiles")
def list_profiles(request: Request, state: StateDep, session: ReaderDep) -> list[ProfilePublic]:
    """Every profile for the director; the public sees the profiles that are not hidden."""
    return profiles.list_profiles(session, include_hidden=is_director(request, state))


@api.get("/profiles/{profile}")
def get_profile(
    request: Request, profile: ProfilePath, state: StateDep, session: ReaderDep
) -> PlayerPageOut:
    """A profile's player page: its events with places, and its rating history."""
    page = profiles.player_page(session, profile=profile, public=not is_director(request, state))
    return _page_out(page)


@api.post("/profiles", status_code=201)
def create_profile(body: ProfileIn, actor: DirectorDep, session: SessionDep) -> ProfilePublic:
    return profiles.create_profile(session, name=body.name, tag=body.tag)


@api.post("/profiles/{profile}/hidden")
def hide_profile(
    profile: ProfilePath, body: HiddenIn, actor: DirectorDep, session: SessionDep
) -> ProfilePublic:
    return profiles.set_hidden(session, profile=profile, hidden=body.hidden)


@api.get("/tournaments/{slug}/players/{name}/profile-suggestions")
def suggestions(
    slug: str, name: str, actor: DirectorDep, session: SessionDep
) -> list[SuggestionPublic]:
    return profiles.suggest_profiles(session, tournament=slug, player=name)


@api.post("/tournaments/{slug}/players/{name}/profile")
def link(
    slug: str, name: str, body: LinkIn, actor: DirectorDep, session: SessionDep
) -> PlayerPublic:
    """Link the player to a profile (``null``: unlink); journaled, so undo takes it back."""
    return profiles.link_player(
        session, tournament=slug, player=name, profile=body.profile, actor=actor
    )


@api.post("/tournaments/{slug}/players/{name}/profile/new", status_code=201)
def link_new(
    slug: str, name: str, body: NewLinkIn, actor: DirectorDep, session: SessionDep
) -> NewLinkOut:
    made, player = profiles.link_new_profile(
        session, tournament=slug, player=name, actor=actor, name=body.name, tag=body.tag
    )
    return NewLinkOut(profile=made, player=player)


# --- the public player page ---------------------------------------------------------------------


@pages.get("/players/{profile}", response_class=HTMLResponse)
def player_page(
    request: Request, profile: ProfilePath, state: StateDep, session: ReaderDep, lang: LangDep
) -> Response:
    page = profiles.player_page(session, profile=profile, public=not is_director(request, state))
    plot = rating_plot([PlotPoint(h.event, h.mu, h.ordinal) for h in page.history])
    return render(request, "public/player.html", lang, page=page, plot=plot)


# --- the desk -----------------------------------------------------------------------------------


@desk.get("/{slug}/profiles", response_class=HTMLResponse)
def desk_profiles(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    from agon.services.tournaments import get_tournament

    t = get_tournament(session, slug=slug)
    known = {p.id: p for p in profiles.list_profiles(session)}
    suggested = profiles.suggest_for_unlinked(session, tournament=slug)
    rows = [
        (p, known.get(str(p.extra.get("profile", ""))), suggested.get(p.name, []))
        for p in players.list_players(session, tournament=slug)
    ]
    return render(
        request, "desk/profiles.html", lang, t=t, rows=rows, profiles=list(known.values())
    )


@desk.post("/{slug}/profiles/link")
def desk_link(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form(max_length=200)],
    profile: Annotated[str, Form(max_length=64)],
) -> Response:
    profiles.link_player(session, tournament=slug, player=player, profile=profile, actor=actor)
    return back(request, f"/desk/{slug}/profiles", tr(lang, N_("Linked: %s")) % player)


@desk.post("/{slug}/profiles/new")
def desk_new(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form(max_length=200)],
) -> Response:
    profiles.link_new_profile(session, tournament=slug, player=player, actor=actor)
    return back(request, f"/desk/{slug}/profiles", tr(lang, N_("Linked: %s")) % player)


@desk.post("/{slug}/profiles/unlink")
def desk_unlink(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form(max_length=200)],
) -> Response:
    profiles.link_player(session, tournament=slug, player=player, profile=None, actor=actor)
    return back(request, f"/desk/{slug}/profiles", tr(lang, N_("Unlinked: %s")) % player)


@desk.post("/{slug}/profiles/hide")
def desk_hide(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    profile: Annotated[str, Form(max_length=64)],
    hidden: Annotated[bool, Form()] = True,
) -> Response:
    made = profiles.set_hidden(session, profile=profile, hidden=hidden)
    message = N_("Page hidden: %s") if hidden else N_("Page public again: %s")
    return back(request, f"/desk/{slug}/profiles", tr(lang, message) % made.name)
