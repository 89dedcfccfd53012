"""The table face: a table's players enter and confirm their result on a phone.

The score sheet's QR code opens ``/t/<tournament>/r<round>/t<table>``; the sheet's PIN unlocks
that one table for the phone's session (and no other). Wrong PINs are counted per phone and table
(:class:`agon.web.security.AttemptLimiter`). Once every player has confirmed, the table is closed
to the phones; the director can still correct it.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from agon.errors import AgonError, Conflict, IllegalAction, InvalidInput
from agon.i18n import N_
from agon.services import auctions, offline, results, rounds, tournaments
from agon.services.public import TablePublic
from agon.tournament.score_pad import SCORE_PAD_CATEGORIES
from agon.web import floor, views
from agon.web.deps import LangDep, SessionDep, StateDep, client_key, language
from agon.web.errors import status_of
from agon.web.forms import (
    SYMBOLS,
    auction_action_from_form,
    pads_typed,
    refused_field,
    results_from_form,
    same_as_stored,
)
from agon.web.limits import MAX_VERSION, RoundPath, TablePath, VersionForm, parse_int
from agon.web.security import table_pin, tokens_match
from agon.web.state import WebState
from agon.web.templating import error_text, flash, render, tr

router = APIRouter(include_in_schema=False)
PATH = "/t/{slug}/r{number}/t{table}"
MAX_UNLOCKED = 12


def table_key(slug: str, number: int, table: int) -> str:
    return f"{slug}/{number}/{table}"


def is_unlocked(request: Request, slug: str, number: int, table: int) -> bool:
    unlocked = request.session.get("tables", [])
    return isinstance(unlocked, list) and table_key(slug, number, table) in unlocked


def require_table(request: Request, slug: str, number: int, table: int) -> None:
    """Refuse a change to a table this phone has not unlocked with its PIN.

    Raises:
        HTTPException: 403, with the way out: open the table's page and type the PIN.
    """
    if not is_unlocked(request, slug, number, table):
        raise HTTPException(403, detail=tr(language(request), N_("Type the table's PIN first.")))


def unlock(request: Request, state: WebState, slug: str, number: int, table: int, pin: str) -> bool:
    """Check ``pin`` for the table (counting wrong tries); on success remember it in the session."""
    client = client_key(request, state)
    key = f"{client}|{table_key(slug, number, table)}"
    # counted before the check, atomically, per table and per address over all tables
    if not state.pin_limiter.reserve(key, address=client):
        raise HTTPException(
            429,
            detail=tr(
                language(request), N_("Too many wrong PINs; wait ten minutes, or ask the director.")
            ),
        )
    expected = table_pin(state.secret_key, slug, number, table)
    if not tokens_match(expected, pin.strip()):
        return False
    state.pin_limiter.succeeded(key, address=client)
    unlocked = [k for k in request.session.get("tables", []) if isinstance(k, str)]
    keep = [k for k in unlocked if k != table_key(slug, number, table)][-(MAX_UNLOCKED - 1) :]
    request.session["tables"] = [*keep, table_key(slug, number, table)]
    return True


def online_context(
    request: Request, session: SessionDep, slug: str, number: int, table: int
) -> dict[str, Any]:
    """The table's online game (if its round is played online): the watch link, the round clock,
    and the seat link of the player this browser proved to be ("Where do I sit?" with their code)
    — never another player's."""
    from agon.services import online
    from agon.services.core import get_tournament_row, ruleset_of
    from agon.web.routes.public import known_player

    played = online.online_round(session, tournament=slug, number=number)
    mine = next((tb for tb in played.tables if tb.table == table), None) if played else None
    if mine is None:
        return {"online_table": None}
    me = known_player(request, slug)
    link = online.seat_link(session, tournament=slug, player=me) if me else None
    row = get_tournament_row(session, slug)
    # who is connected: only while the game is played (before it exists — a Ludolimpico table
    # during its auction — and once its result is recorded there is nobody to show)
    shown: list[tuple[str, str]] = []
    if mine.game is not None and not mine.recorded:
        from agon.play import presence

        now = request.app.state.clock()
        here = [p.connected for p in presence.presence(session, mine.game, len(mine.seats), now)]
        shown = [
            (s.player, "bot" if s.kind == "bot" else "online" if on else "offline")
            for s, on in zip(mine.seats, here, strict=True)
        ]
    return {
        "online_presence": shown,
        "online_table": mine,
        "my_link": link if link is not None and link.table == table else None,
        "online_clock": floor.clock(
            session,
            tournament=slug,
            round_number=number,
            default_minutes=tournaments.round_minutes(row),
        ),
        "finish_age": ruleset_of(row).time_up == "finish-age",
    }


def _table(session: SessionDep, slug: str, number: int, table: int) -> TablePublic:
    return results.get_table(session, tournament=slug, round_number=number, table=table)


@router.get(PATH, response_class=HTMLResponse)
def table_page(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    if not is_unlocked(request, slug, number, table):
        t = tournaments.get_tournament(session, slug=slug)
        current = _table(session, slug, number, table)
        return render(
            request,
            "table/pin.html",
            lang,
            t=t,
            number=number,
            table=current,
            **online_context(request, session, slug, number, table),
        )
    return sheet(request, session, lang, slug, number, table)


def sheet(
    request: Request,
    session: SessionDep,
    lang: str,
    slug: str,
    number: int,
    table: int,
    *,
    status_code: int = 200,
    auction_error: str = "",
    auction_input: dict[str, str] | None = None,
    refused: AgonError | None = None,
    result_input: dict[str, str] | None = None,
) -> Response:
    """The table's page: its auction (Ludolimpico), its result, the confirmations.

    ``refused`` (with the form as typed, ``result_input``): the result form's refusal, shown at
    the field it names (marked ``aria-invalid``), the typed values kept.
    """
    t = tournaments.get_tournament(session, slug=slug)
    current = _table(session, slug, number, table)
    rnd = views.round_or_404(session, tournament=slug, number=number)
    status = next(
        s
        for s in views.table_statuses(session, tournament=slug, rnd=rnd)
        if s.table.number == table
    )
    ruleset = tournaments.tournament_ruleset(session, slug=slug)
    view = auctions.auction_view(session, tournament=slug, round_number=number, table=table)
    seat, field = refused_field(refused, current.seats) if refused else (None, None)
    shown = ("vp", "coins", "bid", *SCORE_PAD_CATEGORIES, *SYMBOLS, "wild")
    if field is not None and field.rsplit("-", 1)[0] not in shown:
        field = None  # a field the phone has no input for (the side): the refusal at the seat
    return render(
        request,
        "table/sheet.html",
        lang,
        status_code=status_code,
        t=t,
        rnd=rnd,
        table=current,
        status=status,
        auction=ruleset.auction,
        av=view,
        auction_error=auction_error,
        auction_input=auction_input or {},
        result_error=error_text(refused, lang) if refused else "",
        result_input=result_input or {},
        error_seat=seat,
        error_field=field,
        pads_open=pads_typed(result_input or {}, len(current.seats)),
        categories=SCORE_PAD_CATEGORIES,
        symbols=SYMBOLS,
        **online_context(request, session, slug, number, table),
        editable=rnd.status != "closed"
        and current.state != "confirmed"
        and (view is None or view.finished),
    )


@router.post(PATH + "/pin")
def enter_pin(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
    pin: Annotated[str, Form(max_length=12)],
) -> Response:
    current = _table(session, slug, number, table)
    if not unlock(request, state, slug, number, table, pin):
        # the PIN page again, the refusal at the PIN as typed
        return render(
            request,
            "table/pin.html",
            lang,
            status_code=403,
            t=tournaments.get_tournament(session, slug=slug),
            number=number,
            table=current,
            pin_error=tr(lang, N_("Wrong PIN for this table.")),
            pin_typed=pin,
            **online_context(request, session, slug, number, table),
        )
    return RedirectResponse(f"/t/{slug}/r{number}/t{table}", status_code=303)


async def form_data(request: Request) -> dict[str, str]:
    form = await request.form()
    return {k: v for k, v in form.items() if isinstance(v, str)}


@router.post(PATH + "/result")
def enter_result(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    session: SessionDep,
    lang: LangDep,
    form: Annotated[dict[str, str], Depends(form_data)],
) -> Response:
    """Enter the table's result, or correct it while not everyone has confirmed.

    With an idempotency key (form field ``key`` or header ``Idempotency-Key``; the page's script
    makes one per entry) the entry is made once however often it arrives; ``queued=1`` (kept on
    the phone while offline) turns a version conflict into a dispute. A request that asks for
    JSON (the phone's queue) gets ``{"outcome", "message"}`` instead of the page.
    """
    if wants_json(request) and not is_unlocked(request, slug, number, table):
        return locked_json(lang)
    require_table(request, slug, number, table)
    key = entry_key(request, form)
    try:
        return _enter_result(request, session, lang, slug, number, table, form, key)
    except AgonError as exc:
        if not wants_json(request):
            raise
        session.rollback()
        return refused_json(exc, lang)


def entry_key(request: Request, form: dict[str, str]) -> str | None:
    """The entry's idempotency key, from the form or the ``Idempotency-Key`` header."""
    key = form.get("key") or request.headers.get("idempotency-key") or ""
    return key.strip() or None


def wants_json(request: Request) -> bool:
    """The phone's queue asks for JSON (``Accept: application/json``), a form for the page."""
    return "application/json" in request.headers.get("accept", "")


def locked_json(lang: str) -> Response:
    """The phone's queue, when the table is not (or no longer) unlocked for this phone: the
    entry stays on the phone until the PIN is typed again."""
    return JSONResponse(
        {"outcome": "locked", "message": tr(lang, N_("Type the table's PIN first."))},
        status_code=403,
    )


def refused_json(exc: AgonError, lang: str) -> Response:
    return JSONResponse(
        {"outcome": "refused", "message": error_text(exc, lang)}, status_code=status_of(exc)
    )


def sent(
    request: Request,
    lang: str,
    slug: str,
    number: int,
    table: int,
    message: str,
    outcome: str = "sent",
) -> Response:
    """The answer to a change: JSON for the phone's queue (``outcome``: ``sent``, or
    ``dispute`` for a queued result that became one), else the page again with a flash."""
    if wants_json(request):
        return JSONResponse({"outcome": outcome, "message": message})
    flash(request, message, "ok" if outcome == "sent" else "error")
    return RedirectResponse(f"/t/{slug}/r{number}/t{table}", status_code=303)


def _enter_result(
    request: Request,
    session: SessionDep,
    lang: str,
    slug: str,
    number: int,
    table: int,
    form: dict[str, str],
    key: str | None,
) -> Response:
    saved = tr(lang, N_("Result saved. Now every player confirms it."))
    queued = key is not None and form.get("queued") == "1"
    current = _table(session, slug, number, table)
    if current.state == "confirmed":
        raise IllegalAction(
            f"round {number}, table {table}: everyone has confirmed; ask the director to correct it",
            msgid=N_("Everyone has confirmed this table; ask the director to correct it."),
        )
    auction = tournaments.tournament_ruleset(session, slug=slug).auction
    try:
        entered = results_from_form(form, current.seats, auction=auction)
    except InvalidInput as exc:
        if wants_json(request):
            raise
        return refused_result(request, session, lang, slug, number, table, exc, form)
    if same_as_stored(entered, current):  # a second tap on "Save": already saved
        return sent(request, lang, slug, number, table, saved)
    version = None
    if current.results and not (queued and not form.get("version")):
        try:
            version = parse_int(
                form.get("version", ""), "version", low=0, high=MAX_VERSION, label=N_("Version")
            )
        except InvalidInput:
            raise Conflict(
                f"round {number}, table {table}: reload the page and try again",
                msgid=N_("Reload the page and try again."),
            ) from None
    try:
        if key is None:
            results.enter_result(
                session,
                tournament=slug,
                round_number=number,
                table=table,
                results=entered,
                actor=f"table {table} (phone)",
                expected_version=version,
            )
        else:
            once = offline.enter_result_once(
                session,
                key=key,
                tournament=slug,
                round_number=number,
                table=table,
                results=entered,
                actor=f"table {table} (phone)",
                expected_version=version,
                queued=queued,
            )
            if once.answer["outcome"] == "dispute":
                return sent(request, lang, slug, number, table, tr(lang, DISPUTED), "dispute")
    except InvalidInput as exc:
        if wants_json(request):
            raise
        return refused_result(request, session, lang, slug, number, table, exc, form)
    return sent(request, lang, slug, number, table, saved)


#: What the phone says when its queued result became a dispute.
DISPUTED = N_(
    "The table's result changed while this phone was offline; your entry did not overwrite it. "
    "The director sees it as a dispute and decides."
)


def refused_result(
    request: Request,
    session: SessionDep,
    lang: str,
    slug: str,
    number: int,
    table: int,
    exc: InvalidInput,
    form: dict[str, str],
) -> Response:
    """The sheet again after a refused result: the reason at the field it names, what was
    typed kept (a conflict or a closed table still answers with the error page)."""
    session.rollback()
    return sheet(
        request,
        session,
        lang,
        slug,
        number,
        table,
        status_code=status_of(exc),
        refused=exc,
        result_input=form,
    )


@router.post(PATH + "/confirm")
def confirm(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form()],
    version: VersionForm,
    key: Annotated[str, Form(max_length=64)] = "",
) -> Response:
    """One player confirms the result version they saw (their signature on the sheet); with
    an idempotency key (``key`` or the ``Idempotency-Key`` header) exactly once."""
    if wants_json(request) and not is_unlocked(request, slug, number, table):
        return locked_json(lang)
    require_table(request, slug, number, table)
    given = (key or request.headers.get("idempotency-key") or "").strip() or None
    try:
        if given is None:
            results.confirm_result(
                session,
                tournament=slug,
                round_number=number,
                table=table,
                actor=f"{player} (phone, table {table})",
                players=[player],
                expected_version=version,
            )
        else:
            offline.confirm_once(
                session,
                key=given,
                tournament=slug,
                round_number=number,
                table=table,
                player=player,
                actor=f"{player} (phone, table {table})",
                expected_version=version,
            )
    except AgonError as exc:
        if not wants_json(request):
            raise
        session.rollback()
        return refused_json(exc, lang)
    return sent(request, lang, slug, number, table, tr(lang, N_("Confirmed: %s")) % player)


@router.post(PATH + "/dispute")
def dispute(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    session: SessionDep,
    lang: LangDep,
    player: Annotated[str, Form()],
    version: VersionForm,
    reason: Annotated[str, Form(max_length=500)] = "",
) -> Response:
    """A player says the entered result is wrong: the director sees the table as disputed."""
    require_table(request, slug, number, table)
    current = _table(session, slug, number, table)
    check_dispute(current, player, version, number)
    floor.dispute(
        session,
        tournament=slug,
        round_number=number,
        table=table,
        version=version,
        player=player,
        reason=reason,
    )
    flash(request, tr(lang, N_("The director has been told.")))
    return RedirectResponse(f"/t/{slug}/r{number}/t{table}", status_code=303)


def check_dispute(current: TablePublic, player: str, version: int, number: int) -> None:
    """A dispute names a seated player and the current, not yet confirmed result.

    Raises:
        InvalidInput: not seated; Conflict: another version; IllegalAction: nothing to dispute.
    """
    place = f"round {number}, table {current.number}"
    if player not in current.seats:
        raise InvalidInput(
            f"{place}, player {player!r}: not seated at this table",
            msgid=N_("%(player)s is not seated at this table."),
            params={"player": player},
        )
    if not current.results or current.state == "confirmed":
        raise IllegalAction(
            f"{place}: there is no unconfirmed result to dispute",
            msgid=N_("There is no unconfirmed result to dispute."),
        )
    if version != current.version:
        raise Conflict(
            f"{place}: the result changed meanwhile; look at it again",
            msgid=N_("The result changed meanwhile; look at it again."),
        )


@router.post(PATH + "/auction")
def auction_action(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    session: SessionDep,
    lang: LangDep,
    form: Annotated[dict[str, str], Depends(form_data)],
) -> Response:
    """One auction action from the table's phone (Ludolimpico 2.1): the player whose turn it is
    opens, raises or passes. A refusal shows the page again with what was typed and the reason."""
    require_table(request, slug, number, table)
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
            actor=f"{form.get('player', '')} (phone, table {table})",
            seen=seen,
        )
    except AgonError as exc:
        session.rollback()
        return sheet(
            request,
            session,
            lang,
            slug,
            number,
            table,
            status_code=status_of(exc),
            auction_error=error_text(exc, lang),
            auction_input=form,
        )
    sides = rounds.get_round(session, tournament=slug, number=number).sides
    flash(request, tr(lang, N_("Recorded: %s")) % views.auction_sentence(text, lang, sides))
    return RedirectResponse(f"/t/{slug}/r{number}/t{table}#auction", status_code=303)
