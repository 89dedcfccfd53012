"""What the desk keeps and prints: undo, the journal, the PDF printouts and the JSON export."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, Response

from agon.errors import AgonError
from agon.i18n import N_
from agon.services import exchange, journal, tournaments
from agon.web import printouts, views
from agon.web.deps import DirectorDep, LangDep, SessionDep, StateDep
from agon.web.limits import RoundPath
from agon.web.routes.desk.common import back, desk_router
from agon.web.templating import render, tr

router = desk_router()

# --- journal, undo, printouts, export -----------------------------------------------------------


@router.post("/{slug}/undo")
def undo(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    entry = journal.undo(session, tournament=slug, actor=actor)
    by_id = {e.id: e for e in journal.list_journal(session, tournament=slug)}
    undone = by_id.get(entry.undoes or 0)
    label = views.journal_label(undone, lang) if undone else str(entry.payload.get("action", ""))
    target = f"/desk/{slug}"
    try:
        tournaments.get_tournament(session, slug=slug)
    except AgonError:
        target = "/desk"  # the undo removed the tournament's creation
    return back(request, target, tr(lang, N_("Undone: %s")) % label)


@router.get("/{slug}/journal", response_class=HTMLResponse)
def journal_page(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    t = tournaments.get_tournament(session, slug=slug)
    entries = list(reversed(journal.list_journal(session, tournament=slug)))
    by_id = {e.id: e for e in entries}
    labels = {e.id: views.journal_label(e, lang, by_id) for e in entries}
    return render(request, "desk/journal.html", lang, t=t, entries=entries, labels=labels)


def _pdf(data: bytes, filename: str) -> Response:
    return Response(
        data,
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


@router.get("/{slug}/print/standings.pdf")
def print_standings(slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep) -> Response:
    data = printouts.standings_printout(session, tournament=slug, lang=lang)
    return _pdf(data, f"{slug}-standings-{lang}.pdf")


@router.get("/{slug}/print/r{number}/{kind}.pdf")
def print_round(
    slug: str,
    number: RoundPath,
    kind: str,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    data = printouts.round_printout(
        session,
        tournament=slug,
        number=number,
        kind=kind,
        lang=lang,
        public_url=state.settings.public_url,
        secret_key=state.secret_key,
    )
    return _pdf(data, f"{slug}-round{number}-{kind}-{lang}.pdf")


@router.get("/{slug}/export.json")
def export(slug: str, actor: DirectorDep, session: SessionDep) -> Response:
    import json

    doc = exchange.export_event(session, tournament=slug)
    return Response(
        json.dumps(doc, ensure_ascii=False, indent=2),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{slug}.json"'},
    )
