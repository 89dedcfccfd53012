"""The venue's Wi-Fi network at the desk: set it, see its QR code, forget it
(:mod:`agon.services.venue`; printed on the table cards and the seat-link cards)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response

from agon.i18n import N_
from agon.services import tournaments, venue
from agon.tournament.wifi import parse_network
from agon.web.deps import DirectorDep, LangDep, SessionDep
from agon.web.routes.desk.common import back, desk_router
from agon.web.templating import render, tr

router = desk_router()


@router.get("/{slug}/venue", response_class=HTMLResponse)
def venue_page(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    """The venue network's form and, once set, its QR code as the phones will scan it."""
    t = tournaments.get_tournament(session, slug=slug)
    return render(
        request, "desk/venue.html", lang, t=t, wifi=venue.get_wifi(session, tournament=slug)
    )


@router.post("/{slug}/venue")
def venue_set(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    ssid: Annotated[str, Form(max_length=200)],
    password: Annotated[str, Form(max_length=200)] = "",
    security: Annotated[Literal["WPA", "WEP", "nopass"], Form()] = "WPA",
    hidden: Annotated[bool, Form()] = False,
) -> Response:
    network = parse_network(
        ssid=ssid,
        password=password or None,
        security=security,
        hidden=hidden,
    )
    venue.set_wifi(session, tournament=slug, network=network)
    return back(request, f"/desk/{slug}/venue", tr(lang, N_("The venue's Wi-Fi is saved.")))


@router.post("/{slug}/venue/clear")
def venue_clear(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    venue.clear_wifi(session, tournament=slug)
    return back(request, f"/desk/{slug}/venue", tr(lang, N_("The venue's Wi-Fi is forgotten.")))
