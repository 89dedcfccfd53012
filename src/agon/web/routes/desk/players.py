"""Registration at the desk: register, import a CSV, check in, fees, drops and sanctions."""

from __future__ import annotations

from typing import Annotated

from fastapi import Form, Request
from fastapi.responses import Response

from agon.i18n import N_
from agon.services import players, rounds
from agon.services.schemas import (
    PlayerCreate,
)
from agon.web.deps import DirectorDep, LangDep, SessionDep
from agon.web.routes.desk.common import back, desk_router
from agon.web.templating import tr

router = desk_router()

# --- players ------------------------------------------------------------------------------------


@router.post("/{slug}/players")
def register(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    name: Annotated[str, Form()],
    tag: Annotated[str, Form()] = "",
    fee_paid: Annotated[bool, Form()] = False,
    check_in: Annotated[bool, Form()] = False,
) -> Response:
    player = players.register_player(
        session,
        tournament=slug,
        data=PlayerCreate(name=name, tag=tag.strip() or None, fee_paid=fee_paid),
        actor=actor,
    )
    if check_in:
        late = bool(rounds.list_rounds(session, tournament=slug))
        players.check_in(session, tournament=slug, player=player.name, actor=actor, late=late)
    return back(
        request, f"/desk/{slug}#players", tr(lang, N_("Player registered: %s")) % player.name
    )


@router.post("/{slug}/players/import")
def import_csv(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    csv_text: Annotated[str, Form()],
) -> Response:
    parsed = players.parse_players_csv(csv_text, origin="CSV")
    added = players.import_players(session, tournament=slug, players=parsed, actor=actor)
    return back(
        request, f"/desk/{slug}#players", tr(lang, N_("Players registered: %d")) % len(added)
    )


@router.post("/{slug}/players/checkin")
def check_in(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form()],
    late: Annotated[bool, Form()] = False,
) -> Response:
    players.check_in(session, tournament=slug, player=player, actor=actor, late=late)
    return back(request, f"/desk/{slug}#players", tr(lang, N_("Checked in: %s")) % player)


@router.post("/{slug}/players/checkin-all")
def check_in_all(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    """Check in every active registered player who has not checked in (one journal entry each).

    Where the ruleset wants the fee first (Ludolimpico 1), the unpaid are left for the desk to
    settle and named, as ``agon player checkin --all`` does; one unpaid player does not stop
    the others' check-in halfway with an error."""
    late = bool(rounds.list_rounds(session, tournament=slug))
    names = players.players_to_check_in(session, tournament=slug)
    for name in names:
        players.check_in(session, tournament=slug, player=name, actor=actor, late=late)
    unpaid = [
        p.name
        for p in players.list_players(session, tournament=slug)
        if p.status == "active" and not p.checked_in
    ]
    if unpaid:
        message = tr(lang, N_("Checked in: %(num)d; the entry fee is still due for: %(players)s"))
        return back(
            request,
            f"/desk/{slug}#players",
            message % {"num": len(names), "players": ", ".join(unpaid)},
            "error",
        )
    return back(request, f"/desk/{slug}#players", tr(lang, N_("Checked in: %s")) % len(names))


@router.post("/{slug}/players/fee")
def fee(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form()],
    paid: Annotated[bool, Form()] = False,
) -> Response:
    players.set_fee(session, tournament=slug, player=player, paid=paid, actor=actor)
    return back(request, f"/desk/{slug}#players", tr(lang, N_("Entry fee recorded: %s")) % player)


@router.post("/{slug}/players/drop")
def drop(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form()],
    kind: Annotated[str, Form()],
    reason: Annotated[str, Form()] = "",
) -> Response:
    players.drop_player(
        session, tournament=slug, player=player, kind=kind, reason=reason, actor=actor
    )
    return back(request, f"/desk/{slug}#players", tr(lang, N_("Status changed: %s")) % player)


@router.post("/{slug}/players/sanction")
def sanction(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form()],
    kind: Annotated[str, Form()],
    reason: Annotated[str, Form()] = "",
) -> Response:
    players.add_sanction(
        session, tournament=slug, player=player, kind=kind, reason=reason, actor=actor
    )
    return back(request, f"/desk/{slug}#players", tr(lang, N_("Recorded for %s")) % player)
