"""Confirmation steps: a change shown as its dry run (the journal entries it would make) before it is made."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.i18n import N_
from agon.services import journal, players, rounds, tournaments
from agon.services.preview import PlannedEntry, dry_run
from agon.services.schemas import (
    JournalEntryPublic,
)
from agon.web import views
from agon.web.deps import DirectorDep, LangDep, SessionDep
from agon.web.limits import MAX_NUMBER, parse_int
from agon.web.routes.desk.common import FormDep, desk_router
from agon.web.routes.desk.rounds import parse_tables
from agon.web.templating import render, tr

router = desk_router()

# --- confirmation steps (dry runs) ---------------------------------------------------------------

#: What the desk asks before it acts: the question, the route that acts, the button.
CONFIRM_STEPS: dict[str, tuple[str, str]] = {
    "start": (N_("Start the round?"), N_("Yes, start the round")),
    "final": (N_("Start the final?"), N_("Yes, start the final")),
    "close": (N_("Close the round?"), N_("Yes, close the round")),
    "undo": (N_("Undo the last change?"), N_("Yes, undo it")),
    "drop": (N_("Change this player's status?"), N_("Yes, change the status")),
}


@dataclass(frozen=True, slots=True)
class ConfirmTable:
    """A table as the confirmation page shows it: its number and who sits where."""

    number: int
    seats: tuple[str, ...]


def _planned(entry: PlannedEntry, actor: str, now: datetime) -> JournalEntryPublic:
    return JournalEntryPublic(
        id=0,
        at=now,
        actor=actor,
        action=entry.action,
        payload=entry.payload,
        undoes=None,
        undone=False,
    )


@router.post("/{slug}/confirm/{step}", response_class=HTMLResponse)
def confirm_step(
    request: Request,
    slug: str,
    step: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    form: FormDep,
) -> Response:
    """The confirmation step before a round start or close, an undo, a status change (drop,
    withdrawal, expulsion) or the final: the change is run as a dry run
    (:func:`agon.services.preview.dry_run`) and the page shows what it would do, with a button that
    posts the same form to the route that does it. A change that would be refused is refused here,
    with the same message, before anything is asked."""
    if step not in CONFIRM_STEPS:
        raise InvalidInput(
            f"confirm: unknown step {step!r} (known: {', '.join(CONFIRM_STEPS)})",
            msgid=N_("This page does not exist."),
        )
    fields = {k: v for k, v in form.items() if k != "csrf_token"}
    change: Callable[[], object]
    if step == "start":
        text = fields.get("tables", "")
        seated = parse_tables(text) if text.strip() else None
        target = f"/desk/{slug}/rounds"

        def change() -> object:
            return rounds.start_round(session, tournament=slug, actor=actor, tables=seated)

    elif step == "final":
        absent = [
            k.removeprefix("absent:") for k, v in fields.items() if k.startswith("absent:") and v
        ]
        target = f"/desk/{slug}/final"

        def change() -> object:
            return rounds.start_final(session, tournament=slug, actor=actor, absent=absent)

    elif step == "close":
        number = parse_int(
            fields.get("round", ""), "round", low=1, high=MAX_NUMBER, label=N_("Round")
        )
        target = f"/desk/{slug}/rounds/{number}/close"

        def change() -> object:
            return rounds.close_round(session, tournament=slug, number=number, actor=actor)

    elif step == "undo":
        target = f"/desk/{slug}/undo"

        def change() -> object:
            return journal.undo(session, tournament=slug, actor=actor)

    else:
        player, kind = fields.get("player", ""), fields.get("kind", "")
        reason = fields.get("reason", "")
        target = f"/desk/{slug}/players/drop"

        def change() -> object:
            return players.drop_player(
                session, tournament=slug, player=player, kind=kind, reason=reason, actor=actor
            )

    def seating(sess: Session) -> tuple[ConfirmTable, ...]:
        if step not in ("start", "final"):
            return ()
        rnd = rounds.get_round(sess, tournament=slug)
        return tuple(ConfirmTable(t.number, tuple(t.seats)) for t in rnd.tables)

    shown = dry_run(session, change, inspect=seating)
    by_id = {e.id: e for e in journal.list_journal(session, tournament=slug)}
    now = datetime.now(UTC)
    changes = [views.journal_label(_planned(e, actor, now), lang, by_id) for e in shown.entries]
    if step == "start" and fields.get("online"):  # seated online by the real route, not the dry run
        changes.append(tr(lang, N_("The tables would be played online.")))
    question, button = CONFIRM_STEPS[step]
    return render(
        request,
        "desk/confirm.html",
        lang,
        t=tournaments.get_tournament(session, slug=slug),
        question=tr(lang, question),
        button=tr(lang, button),
        changes=changes,
        tables=shown.view or (),
        target=target,
        fields=fields,
        cancel=f"/desk/{slug}/rounds/{fields['round']}" if step == "close" else f"/desk/{slug}",
    )
