"""PDF printouts of a stored tournament, made by :mod:`agon.printing` (WeasyPrint).

The round's tables come from the service layer (:class:`~agon.services.public.RoundPublic` is
shaped like the seating contract's ``RoundPlan``), the event's name and players from its event
view. Score sheets carry each table's URL as a QR code and its PIN; table cards the venue's Wi-Fi
(:mod:`agon.services.venue`) when the director set one.
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from agon.errors import InvalidInput
from agon.i18n.marks import event_marks
from agon.printing import render as printing
from agon.services import exchange, tournaments, venue
from agon.services.core import get_tournament_row
from agon.web import views
from agon.web.security import pin_seed

KINDS = ("seating-by-name", "seating-by-table", "table-cards", "score-sheets")


def table_url_base(public_url: str, tournament: str) -> str:
    """The URL before ``/r<round>/t<table>`` of a table's page (what the QR code holds)."""
    return f"{public_url.rstrip('/')}/t/{tournament}"


def round_printout(
    session: Session,
    *,
    tournament: str,
    number: int,
    kind: str,
    lang: str,
    public_url: str,
    secret_key: str,
) -> bytes:
    """A round's seating list, table cards or score sheets as PDF.

    Raises:
        InvalidInput: unknown printout kind; NotFound: no such tournament or round.
    """
    if kind not in KINDS:
        raise InvalidInput(f"printout {kind!r}: choose one of {', '.join(KINDS)}")
    event = exchange.event_of(session, tournament=tournament)
    ruleset = tournaments.tournament_ruleset(session, slug=tournament)
    plan = views.round_or_404(session, tournament=tournament, number=number)
    if kind == "seating-by-name":
        html = printing.seating_by_name_html(event, ruleset, plan, lang=lang)
    elif kind == "seating-by-table":
        html = printing.seating_by_table_html(event, ruleset, plan, lang=lang)
    elif kind == "table-cards":
        wifi = venue.get_wifi(session, tournament=tournament)
        html = printing.table_cards_html(event, ruleset, plan, lang=lang, wifi=wifi)
    else:
        links = printing.links_for(
            plan,
            url_base=table_url_base(public_url, tournament),
            seed=pin_seed(secret_key, tournament),
        )
        html = printing.score_sheets_html(event, ruleset, plan, lang=lang, links=links)
    return printing.to_pdf(html)


def standings_printout(session: Session, *, tournament: str, lang: str) -> bytes:
    """The standings with what decided every place, as PDF (with the marks of the web page's
    standings and the games left during play)."""
    return printing.to_pdf(standings_printout_html(session, tournament=tournament, lang=lang))


def standings_printout_html(session: Session, *, tournament: str, lang: str) -> str:
    """The HTML of :func:`standings_printout`."""
    event = exchange.event_of(session, tournament=tournament)
    table = exchange.standings(session, tournament=tournament)
    played = sum(1 for r in event.rounds if not r.final)
    marks = views.tournament_marks(get_tournament_row(session, tournament))
    for name, left in event_marks(event.players, event.rounds).items():
        marks.setdefault(name, []).extend(left)  # the event's own: the games left during play
    return printing.standings_html(event, table, lang=lang, after_round=played, marks=marks)
