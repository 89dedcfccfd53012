"""Rounds at the desk: start a round or the final, the round page and its status, each table's result, auction and confirmation, closing the round, the round clock."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, Response

from agon.errors import AgonError, InvalidInput, NotFound
from agon.i18n import N_
from agon.services import auctions, results, rounds, sync, tournaments, venue
from agon.services.core import get_tournament_row, ruleset_of
from agon.web import floor, printouts, views
from agon.web.deps import DirectorDep, LangDep, SessionDep, StateDep
from agon.web.errors import status_of
from agon.web.forms import (
    auction_action_from_form,
    refused_field,
    results_from_form,
    same_as_stored,
)
from agon.web.limits import MAX_VERSION, RoundPath, TablePath, VersionForm, parse_int
from agon.web.routes.desk.common import FormDep, back, desk_router
from agon.web.security import player_code, table_pin
from agon.web.templating import error_text, render, tr

router = desk_router()

# --- rounds -------------------------------------------------------------------------------------


def parse_tables(text: str) -> list[list[str]]:
    """Hand seating: one table per line, names separated by ``;`` in seat order.

    Raises:
        InvalidInput: no table given.
    """
    tables = [
        [name.strip() for name in line.split(";") if name.strip()]
        for line in text.splitlines()
        if line.strip()
    ]
    if not tables:
        raise InvalidInput(
            "seating by hand: give one table per line, names separated by ';'",
            msgid=N_("Seating by hand: one table per line, names separated by “;”."),
        )
    return tables


@router.post("/{slug}/rounds")
def start_round(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    tables: Annotated[str, Form()] = "",
    online_play: Annotated[str, Form(alias="online")] = "",
    bots: Annotated[str, Form()] = "",
    all_bots: Annotated[str, Form()] = "",
    grace: Annotated[str, Form(max_length=12)] = "5",
) -> Response:
    """Start the next round: seated by the ruleset's method, or by hand when tables are given;
    with "online" every table becomes a game in the browser (:mod:`agon.services.online`)."""
    seated = parse_tables(tables) if tables.strip() else None
    if online_play:
        from agon.services import online

        options = online.OnlineOptions(
            bots=bool(bots),
            all_bots=bool(all_bots),
            grace_minutes=parse_int(
                grace or "5",
                "grace",
                low=0,
                high=online.MAX_GRACE_MINUTES,
                label=N_("Grace minutes"),
            ),
        )
        played = online.start_round_online(
            session,
            tournament=slug,
            actor=actor,
            tables=seated,
            options=options,
            host=request.app.state.online_host,
        )
        rnd = rounds.get_round(session, tournament=slug, number=played.round)
    else:
        rnd = rounds.start_round(session, tournament=slug, actor=actor, tables=seated)
    return back(
        request, f"/desk/{slug}/rounds/{rnd.number}", tr(lang, N_("Round %d started.")) % rnd.number
    )


@router.post("/{slug}/final")
def start_final(
    request: Request,
    slug: str,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    form: FormDep,
) -> Response:
    absent = [k.removeprefix("absent:") for k, v in form.items() if k.startswith("absent:") and v]
    rnd = rounds.start_final(session, tournament=slug, actor=actor, absent=absent)
    return back(
        request, f"/desk/{slug}/rounds/{rnd.number}", tr(lang, N_("The final has started."))
    )


def _round_context(
    request: Request, state: StateDep, session: Any, slug: str, number: int, lang: str
) -> dict[str, Any]:
    t = tournaments.get_tournament(session, slug=slug)
    ruleset = ruleset_of(get_tournament_row(session, slug))
    rnd = views.round_or_404(session, tournament=slug, number=number)
    statuses = views.table_statuses(session, tournament=slug, rnd=rnd)
    counts: dict[str, int] = {}
    for s in statuses:
        counts[s.status] = counts.get(s.status, 0) + 1
    base = printouts.table_url_base(state.settings.public_url, slug)
    from agon.services import online
    from agon.web.roundsetup import round_setup

    views_by_table = (
        {
            s.table.number: auctions.auction_view(
                session, tournament=slug, round_number=number, table=s.table.number
            )
            for s in statuses
        }
        if ruleset.auction
        else {}
    )
    return {
        "online": online.online_round(session, tournament=slug, number=number),
        "online_links": online.seat_links(session, tournament=slug, number=number),
        "player_codes": {
            p: player_code(state.secret_key, slug, p) for s in statuses for p in s.table.seats
        },
        "t": t,
        "synced": sync.synced_copy(session, slug),
        "ruleset": ruleset,
        "rnd": rnd,
        "statuses": statuses,
        "counts": counts,
        "pins": {
            s.table.number: table_pin(state.secret_key, slug, number, s.table.number)
            for s in statuses
        },
        "url_base": base,
        "clock": floor.clock(
            session, tournament=slug, round_number=number, default_minutes=t.round_minutes
        ),
        "kinds": printouts.KINDS,
        "auctions": views_by_table,
        # per table: the guilds in play and each seat's wonder
        "setups": round_setup(rnd, auction=ruleset.auction, views=views_by_table),
        "auction_errors": {},
        "result_errors": {},
        "result_inputs": {},
        "auction_texts": {},
        "auction_inputs": {},
    }


@router.get("/{slug}/rounds/{number}", response_class=HTMLResponse)
def round_page(
    request: Request,
    slug: str,
    number: RoundPath,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    ctx = _round_context(request, state, session, slug, number, lang)
    return render(request, "desk/round.html", lang, **ctx)


@router.get("/{slug}/rounds/{number}/seat-links", response_class=HTMLResponse)
def seat_links_page(
    request: Request,
    slug: str,
    number: RoundPath,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    """The online round's seat links to print and hand out: one card per player with the seat,
    the player's code and the seat link as a QR code (each card is that player's secret)."""
    from agon.services import online

    t = tournaments.get_tournament(session, slug=slug)
    played = online.online_round(session, tournament=slug, number=number)
    if played is None:
        raise NotFound(f"round {number} is not played online")
    links = online.seat_links(session, tournament=slug, number=number)
    cards = [
        {
            "player": s.player,
            "table": tb.table,
            "seat": s.seat + 1,
            "url": links[(tb.table, s.seat)],
            "code": player_code(state.secret_key, slug, s.player),
        }
        for tb in played.tables
        for s in tb.seats
        if (tb.table, s.seat) in links
    ]
    return render(
        request,
        "desk/seat_links.html",
        lang,
        t=t,
        number=number,
        cards=cards,
        base=state.settings.public_url,
        wifi=venue.get_wifi(session, tournament=slug),
    )


@router.get("/{slug}/rounds/{number}/status", response_class=HTMLResponse)
def round_status(
    request: Request,
    slug: str,
    number: RoundPath,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    """The tables' status at a glance (htmx refreshes it)."""
    ctx = _round_context(request, state, session, slug, number, lang)
    return render(request, "desk/_status.html", lang, **ctx)


@router.post("/{slug}/rounds/{number}/tables/{table}/result")
def enter_result(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    form: FormDep,
) -> Response:
    current = results.get_table(session, tournament=slug, round_number=number, table=table)
    auction = tournaments.tournament_ruleset(session, slug=slug).auction
    try:
        entered = results_from_form(form, current.seats, auction=auction)
    except InvalidInput as exc:
        return _refused_result(request, state, session, slug, number, table, lang, exc, form)
    version = (
        parse_int(form["version"], "version", low=0, high=MAX_VERSION, label=N_("Version"))
        if current.results and form.get("version", "").strip()
        else None
    )
    if same_as_stored(entered, current):
        # a second tap on "Save" (or the same numbers again): nothing to change
        if form.get("confirm") and current.state != "confirmed":
            results.confirm_result(
                session,
                tournament=slug,
                round_number=number,
                table=table,
                actor=actor,
                expected_version=current.version,
            )
        return back(
            request,
            f"/desk/{slug}/rounds/{number}#table-{table}",
            tr(lang, N_("Table %d saved.")) % table,
        )
    if current.results and version is None:
        raise InvalidInput(
            f"round {number}, table {table}: correction without version",
            msgid=N_("Reload the page and try again."),
        )
    try:
        results.enter_result(
            session,
            tournament=slug,
            round_number=number,
            table=table,
            results=entered,
            actor=actor,
            expected_version=version,
        )
    except InvalidInput as exc:
        return _refused_result(request, state, session, slug, number, table, lang, exc, form)
    if form.get("confirm"):
        results.confirm_result(
            session, tournament=slug, round_number=number, table=table, actor=actor
        )
    return back(
        request,
        f"/desk/{slug}/rounds/{number}#table-{table}",
        tr(lang, N_("Table %d saved.")) % table,
    )


def _refused_result(
    request: Request,
    state: StateDep,
    session: Any,
    slug: str,
    number: int,
    table: int,
    lang: str,
    exc: InvalidInput,
    form: dict[str, str],
) -> Response:
    """The round page again after a refused result: the reason at the field (or seat) it names
    on that table's card, what was typed kept."""
    session.rollback()
    ctx = _round_context(request, state, session, slug, number, lang)
    seats = next(s.table.seats for s in ctx["statuses"] if s.table.number == table)
    seat, field = refused_field(exc, seats)
    if field is not None and field.rsplit("-", 1)[0] not in ("vp", "coins", "bid"):
        field = None  # no number field of the card (the wonder, the side): at the seat's name
    message = error_text(exc, lang)
    if seat is not None and seats[seat - 1] not in message:
        message = f"{seats[seat - 1]}: {message}"
    ctx["result_errors"] = {table: {"seat": seat, "field": field, "message": message}}
    ctx["result_inputs"] = {table: form}
    return render(request, "desk/round.html", lang, status_code=status_of(exc), **ctx)


@router.post("/{slug}/rounds/{number}/tables/{table}/auction")
def auction(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    actions: Annotated[str, Form()],
) -> Response:
    """Record a table's wonder auction (Ludolimpico 2.1), one action per line as written.

    A refusal shows the round page again with the lines as typed and the reason at the table.
    """
    lines = [line.strip() for line in actions.splitlines() if line.strip()]
    try:
        results.record_auction(
            session, tournament=slug, round_number=number, table=table, actions=lines, actor=actor
        )
    except AgonError as exc:
        session.rollback()
        ctx = _round_context(request, state, session, slug, number, lang)
        ctx["auction_errors"] = {table: error_text(exc, lang)}
        ctx["auction_texts"] = {table: actions}
        return render(request, "desk/round.html", lang, status_code=status_of(exc), **ctx)
    return back(
        request,
        f"/desk/{slug}/rounds/{number}#table-{table}",
        tr(lang, N_("Auction recorded at table %d.")) % table,
    )


@router.post("/{slug}/rounds/{number}/tables/{table}/auction/act")
def auction_act(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    form: FormDep,
) -> Response:
    """One auction action at a table (the desk steps the auction like the table's phone)."""
    try:
        text = auction_action_from_form(form)
        seen = (
            parse_int(form["seen"], "seen", low=0, high=MAX_VERSION, label=N_("Version"))
            if form.get("seen")
            else None
        )
        auctions.act(
            session,
            tournament=slug,
            round_number=number,
            table=table,
            action=text,
            actor=actor,
            seen=seen,
        )
    except AgonError as exc:
        session.rollback()
        ctx = _round_context(request, state, session, slug, number, lang)
        ctx["auction_errors"] = {table: error_text(exc, lang)}
        ctx["auction_inputs"] = {table: form}
        return render(request, "desk/round.html", lang, status_code=status_of(exc), **ctx)
    return back(
        request,
        f"/desk/{slug}/rounds/{number}#table-{table}",
        tr(lang, N_("Recorded: %s"))
        % views.auction_sentence(
            text, lang, rounds.get_round(session, tournament=slug, number=number).sides
        ),
    )


@router.post("/{slug}/rounds/{number}/tables/{table}/confirm")
def confirm(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    version: VersionForm,
) -> Response:
    """Confirm the result on every player's behalf (the director checked the paper sheet)."""
    results.confirm_result(
        session,
        tournament=slug,
        round_number=number,
        table=table,
        actor=actor,
        expected_version=version,
    )
    return back(
        request,
        f"/desk/{slug}/rounds/{number}#table-{table}",
        tr(lang, N_("Table %d confirmed.")) % table,
    )


@router.post("/{slug}/rounds/{number}/close")
def close_round(
    request: Request,
    slug: str,
    number: RoundPath,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    rounds.close_round(session, tournament=slug, number=number, actor=actor)
    return back(request, f"/desk/{slug}", tr(lang, N_("Round %d closed.")) % number)


@router.post("/{slug}/rounds/{number}/clock")
def clock(
    request: Request,
    slug: str,
    number: RoundPath,
    actor: DirectorDep,
    session: SessionDep,
    lang: LangDep,
    action: Annotated[str, Form()],
    minutes: Annotated[str, Form()] = "",
) -> Response:
    views.round_or_404(session, tournament=slug, number=number)
    if action == "start":
        limit = (
            parse_int(minutes, "clock: minutes", low=0, label=N_("Minutes"))
            if minutes.strip()
            else None
        )
        floor.start_clock(session, tournament=slug, round_number=number, minutes=limit, actor=actor)
    elif action == "pause":
        floor.pause_clock(session, tournament=slug, round_number=number, actor=actor)
    else:
        raise InvalidInput(
            f"clock: unknown action {action!r}", msgid=N_("Start or pause the clock.")
        )
    return back(request, f"/desk/{slug}/rounds/{number}#clock", tr(lang, N_("Clock updated.")))
