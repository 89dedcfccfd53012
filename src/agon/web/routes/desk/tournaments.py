"""The desk's home and a tournament's overview page: create a tournament, see it at a glance."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response

from agon.errors import InvalidInput
from agon.i18n import N_
from agon.services import exchange, journal, players, rounds, sync, tournaments
from agon.services.core import get_tournament_row, ruleset_of
from agon.services.schemas import (
    DROP_KINDS,
    SANCTION_KINDS,
    TournamentCreate,
)
from agon.tournament.ruleset import BUILTIN_RULESETS, load_ruleset
from agon.web import views
from agon.web.deps import DirectorDep, LangDep, SessionDep
from agon.web.limits import parse_int
from agon.web.routes.desk.common import back, desk_router
from agon.web.templating import render, tr

router = desk_router()

# --- tournaments --------------------------------------------------------------------------------


@router.get("", response_class=HTMLResponse)
def desk_home(request: Request, actor: DirectorDep, session: SessionDep, lang: LangDep) -> Response:
    return render(
        request,
        "desk/index.html",
        lang,
        tournaments=tournaments.list_tournaments(session),
        rulesets=[(name, load_ruleset(name).title_in(lang)) for name in BUILTIN_RULESETS],
    )


@router.post("/tournaments")
def create_tournament(
    request: Request,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    slug: Annotated[str, Form()],
    name: Annotated[str, Form()],
    ruleset: Annotated[str, Form()],
    seed: Annotated[str, Form()] = "",
    date: Annotated[str, Form()] = "",
    location: Annotated[str, Form()] = "",
    starts_at: Annotated[str, Form()] = "",
    min_players: Annotated[str, Form()] = "",
    max_players: Annotated[str, Form()] = "",
) -> Response:
    if ruleset not in BUILTIN_RULESETS:
        raise InvalidInput(
            f"ruleset {ruleset!r}: choose one of {', '.join(BUILTIN_RULESETS)}",
            msgid=N_("Choose a ruleset from the list."),
        )
    start = None
    if starts_at.strip():
        try:
            start = datetime.fromisoformat(starts_at.strip())
        except ValueError:
            raise InvalidInput(
                f"start time {starts_at!r}: use 2026-03-18T10:00+01:00",
                msgid=N_("Start time “%(text)s”: write it as 2026-03-18T10:00+01:00."),
                params={"text": starts_at.strip()[:40]},
            ) from None
    info = {k: v.strip() for k, v in (("date", date), ("location", location)) if v.strip()}
    created = tournaments.create_tournament(
        session,
        data=TournamentCreate(
            slug=slug.strip(),
            name=name,
            ruleset=ruleset,
            seed=seed.strip() or None,
            starts_at=start,
            info=info,
            min_players=_optional_int(min_players, "min_players", N_("Fewest players")),
            max_players=_optional_int(max_players, "max_players", N_("Most players")),
        ),
        actor=actor,
    )
    return back(request, f"/desk/{created.slug}", tr(lang, N_("Tournament created.")))


def _optional_int(text: str, field: str, label: str) -> int | None:
    """A number field left empty is ``None`` (the ruleset's value).

    Raises:
        InvalidInput: not a whole number.
    """
    if not text.strip():
        return None
    return parse_int(text, f"field {field!r}", low=0, label=label)


def _overview(request: Request, session: Any, slug: str, lang: str) -> dict[str, Any]:
    t = tournaments.get_tournament(session, slug=slug)
    row = get_tournament_row(session, slug)
    ruleset = ruleset_of(row)
    listed = rounds.list_rounds(session, tournament=slug)
    entries = journal.list_journal(session, tournament=slug)
    last = next((e for e in reversed(entries) if e.action != "undo" and not e.undone), None)
    played = [r for r in listed if not r.final]
    final_possible = (
        ruleset.finalists > 0
        and not any(r.final for r in listed)
        and len(played) >= ruleset.rounds
        and all(r.status == "closed" for r in played)
    )
    ranked: list[str] = []
    if final_possible:
        ranked = [r.player for r in exchange.standings(session, tournament=slug).rows]
    return {
        "t": t,
        "ruleset": ruleset,
        "ruleset_title": ruleset.title_in(lang),
        "players": players.list_players(session, tournament=slug),
        "rounds": listed,
        "last_entry": last,
        "last_label": views.journal_label(last, lang) if last else "",
        "next_round": len(played) + 1 if len(played) < ruleset.rounds else None,
        "final_possible": final_possible,
        "ranked": ranked[: ruleset.finalists + 3],
        "drop_kinds": tuple(DROP_KINDS),
        "sanction_kinds": SANCTION_KINDS,
        "finished": views.finished_view(session, tournament=slug, lang=lang),
        "synced": sync.synced_copy(session, slug),
    }


@router.get("/{slug}", response_class=HTMLResponse)
def tournament_page(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    return render(request, "desk/tournament.html", lang, **_overview(request, session, slug, lang))
