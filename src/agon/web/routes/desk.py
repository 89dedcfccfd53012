"""The director's desk: log in, create and run tournaments end to end (forms, PRG, CSRF).

Each form posts to a route that calls one service function and redirects back with a message;
a service error is shown on an error page with its 4xx status (see :mod:`agon.web.app`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Path, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from agon.errors import AgonError, InvalidInput, NotFound
from agon.i18n import N_
from agon.services import auctions, exchange, journal, players, results, rounds, tournaments
from agon.services.core import get_tournament_row, ruleset_of
from agon.services.preview import PlannedEntry, dry_run
from agon.services.schemas import (
    DROP_KINDS,
    SANCTION_KINDS,
    JournalEntryPublic,
    PlayerCreate,
    TournamentCreate,
)
from agon.tournament.ruleset import BUILTIN_RULESETS, load_ruleset
from agon.web import floor, printouts, views
from agon.web.deps import DirectorDep, LangDep, SessionDep, StateDep, client_key
from agon.web.errors import status_of
from agon.web.forms import (
    auction_action_from_form,
    refused_field,
    results_from_form,
    same_as_stored,
)
from agon.web.limits import MAX_NUMBER, MAX_VERSION, RoundPath, TablePath, VersionForm, parse_int
from agon.web.loginlinks import LinkState, consume
from agon.web.security import new_token, player_code, table_pin, verify_password
from agon.web.templating import error_text, flash, render, tr

router = APIRouter(prefix="/desk", include_in_schema=False)


async def form_data(request: Request) -> dict[str, str]:
    """Every text field of the submitted form (for forms with one field per seat)."""
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


FormDep = Annotated[dict[str, str], Depends(form_data)]


def back(request: Request, url: str, message: str, kind: str = "ok") -> RedirectResponse:
    flash(request, message, kind)
    return RedirectResponse(url, status_code=303)


# --- login --------------------------------------------------------------------------------------


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, state: StateDep, lang: LangDep, next: str = "/desk") -> Response:
    return render(
        request,
        "desk/login.html",
        lang,
        next=next if next.startswith("/desk") else "/desk",
        configured=state.settings.director_password_hash is not None,
    )


@router.post("/login")
def login(
    request: Request,
    state: StateDep,
    lang: LangDep,
    password: Annotated[str, Form(max_length=500)],
    next: Annotated[str, Form()] = "/desk",
) -> Response:
    key = f"login|{client_key(request, state)}"
    if not state.login_limiter.reserve(key):  # counted before the costly check, atomically
        return render(
            request,
            "error.html",
            lang,
            status_code=429,
            status=429,
            message=tr(lang, N_("Too many wrong passwords; wait ten minutes.")),
            back="/desk/login",
        )
    if not verify_password(state.settings.director_password_hash, password):
        return render(
            request,
            "error.html",
            lang,
            status_code=403,
            status=403,
            message=tr(lang, N_("Wrong password.")),
            back="/desk/login",
        )
    state.login_limiter.succeeded(key)
    request.session.clear()
    request.session["director"] = state.director_sessions.open()
    request.session["csrf"] = new_token()
    return RedirectResponse(next if next.startswith("/desk") else "/desk", status_code=303)


#: What an unusable login link says (``agon desk link``), and its status.
LINK_REFUSED = {
    LinkState.USED: (
        410,
        N_("This login link has been used already. Run “agon desk link” again for a new one."),
    ),
    LinkState.EXPIRED: (
        410,
        N_("This login link has expired. Run “agon desk link” again for a new one."),
    ),
    LinkState.UNKNOWN: (
        404,
        N_("This login link is not valid. Run “agon desk link” on the server for a new one."),
    ),
}


@router.get("/link/{token}", response_class=HTMLResponse)
def login_link(
    request: Request,
    state: StateDep,
    lang: LangDep,
    token: Annotated[str, Path(max_length=100)],
) -> Response:
    """A one-time login link from ``agon desk link``: the browser is the director's from now
    on (no password, no web limit); a used, expired or unknown link gets a 4xx page."""
    found = consume(state.engine, token)
    if found is not LinkState.OK:
        status, message = LINK_REFUSED[found]
        return render(
            request,
            "error.html",
            lang,
            status_code=status,
            status=status,
            message=tr(lang, message),
            back="/desk/login",
        )
    request.session.clear()
    request.session["director"] = state.director_sessions.open()
    request.session["csrf"] = new_token()
    return RedirectResponse("/desk", status_code=303)


@router.post("/logout")
def logout(request: Request, state: StateDep) -> Response:
    """Log out: the session is closed on the server too, so a copy of the cookie is worthless."""
    state.director_sessions.close(request.session.get("director"))
    request.session.clear()
    return RedirectResponse("/", status_code=303)


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
    }


@router.get("/{slug}", response_class=HTMLResponse)
def tournament_page(
    request: Request, slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep
) -> Response:
    return render(request, "desk/tournament.html", lang, **_overview(request, session, slug, lang))


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
        tr(lang, N_("Recorded: %s")) % views.auction_sentence(text, lang),
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
