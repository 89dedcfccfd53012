"""The JSON API (OpenAPI at ``/api/openapi.json``): everything the pages do.

Reads are public. Changes need the director's session (``POST /api/login``) or, for a table,
the table's PIN (``POST /api/tables/.../unlock``) — and, like every form, the session's CSRF token
in the ``X-CSRF-Token`` header (``GET /api/session`` tells it). Errors are ``{"detail": ...}``
with 401/403 (login, PIN, CSRF), 404 (unknown), 409 (not now / changed meanwhile), 422 (input).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.orm import Session

from agon.errors import N_, IllegalAction, InvalidInput
from agon.services import exchange, journal, offline, players, results, rounds, tournaments
from agon.services.core import get_tournament_row, ruleset_of
from agon.services.public import RoundPublic, TablePublic
from agon.services.schemas import (
    FinalRanking,
    JournalEntryPublic,
    PlayerCreate,
    PlayerPublic,
    ResultIn,
    TournamentCreate,
    TournamentPublic,
)
from agon.web import floor, printouts, views
from agon.web.deps import (
    DirectorDep,
    LangDep,
    ReaderDep,
    SessionDep,
    StateDep,
    is_director,
)
from agon.web.limits import (
    MAX_NUMBER,
    Count,
    KeyHeader,
    RoundNumber,
    RoundPath,
    SaneInt,
    TablePath,
    Version,
)
from agon.web.routes.table import check_dispute, is_unlocked, unlock
from agon.web.security import table_pin
from agon.web.state import WebState
from agon.web.templating import csrf_token

router = APIRouter(prefix="/api", tags=["api"])
#: A player's name as the API takes it (the services check the naming rule itself).
Name = Annotated[str, Field(max_length=200)]


# --- schemas ------------------------------------------------------------------------------------


class SessionOut(BaseModel):
    director: bool
    csrf_token: str
    tables: list[str]


class LoginIn(BaseModel):
    email: str | None = Field(default=None, max_length=300)
    password: str = Field(max_length=500)


class TournamentIn(BaseModel):
    slug: str = Field(max_length=64, examples=["bonn-2018"])
    name: str = Field(max_length=200)
    ruleset: Literal["bonn-2018", "ludolimpico-2015", "de-championship"]
    seed: str | None = Field(default=None, max_length=200)
    min_players: Count | None = None
    max_players: Count | None = None
    starts_at: datetime | None = None
    date: str | None = Field(default=None, max_length=40)
    location: str | None = Field(default=None, max_length=200)


class PlayerIn(BaseModel):
    name: str = Field(max_length=200)
    tag: str | None = Field(default=None, max_length=100)
    fee_paid: bool = False


class CsvIn(BaseModel):
    csv: str = Field(max_length=200_000, examples=["name,tag\nAnna,Bonn\n"])


class CheckInIn(BaseModel):
    late: bool = False


class FeeIn(BaseModel):
    paid: bool = True


class DropIn(BaseModel):
    kind: Literal["drop", "withdraw", "expel"]
    reason: str = Field(default="", max_length=500)


class SanctionIn(BaseModel):
    kind: Literal["warning", "penalty"]
    reason: str = Field(max_length=500)
    round: RoundNumber | None = None


class RoundIn(BaseModel):
    """Without ``tables`` the round is seated by the ruleset's method."""

    tables: list[list[Name]] | None = Field(default=None, max_length=MAX_NUMBER)


class FinalIn(BaseModel):
    absent: list[Name] = Field(default=[], max_length=1000)


class ResultItem(BaseModel):
    """One player's result; ``left`` (Ludolimpico 2.5): left during the game, no ``vp``."""

    player: Name
    vp: SaneInt | None = None  # required unless left
    left: bool = False
    coins: SaneInt | None = None  # not given: refused where the ruleset requires coins
    bid: SaneInt = 0
    wonder: str | None = Field(default=None, max_length=100)
    side: Literal["A", "B"] | None = None
    breakdown: dict[Annotated[str, Field(max_length=40)], SaneInt] | None = Field(
        default=None, max_length=20
    )


class ResultsIn(BaseModel):
    """A table's results; ``version`` (the table's current one) is required for a correction."""

    results: list[ResultItem] = Field(max_length=100)
    version: Version | None = None


class ConfirmIn(BaseModel):
    """Confirm for ``players`` (the director: empty means everyone) the result ``version``."""

    players: list[Name] = Field(default=[], max_length=100)
    version: Version | None = None


class AuctionIn(BaseModel):
    """The whole auction of a table, one action per item in its text form."""

    actions: list[Annotated[str, Field(max_length=200)]] = Field(
        max_length=500, examples=[["Anna opens babylon 2", "Ben raises 3", "Anna passes"]]
    )


class PinIn(BaseModel):
    pin: str = Field(max_length=12)


class DisputeIn(BaseModel):
    player: Name
    reason: str = Field(max_length=500)
    version: Version


class ClockIn(BaseModel):
    action: Literal["start", "pause"]
    minutes: Count | None = None


class MarkOut(BaseModel):
    """A mark beside a name (:mod:`agon.i18n.marks`): ``kind`` is one of late, dropped,
    withdrawn, expelled, absent-final; ``short`` and ``long`` are its words in ``lang``."""

    kind: str
    short: str
    long: str


class StandingOut(BaseModel):
    rank: int
    player: str
    points: str
    tiebreaks: dict[str, str]
    games: int
    decided_by: str | None
    why: str
    marks: list[MarkOut] = []


class StandingsOut(BaseModel):
    tournament: str
    ruleset: str
    ruleset_title: str
    rounds_played: int
    rows: list[StandingOut]


class SeatOut(BaseModel):
    player: str
    round: int
    table: int
    seat: int
    seats: int
    wonder: str | None
    side: str | None
    left: str
    right: str
    start: bool


class RanksOut(BaseModel):
    rounds: list[int]
    ranks: dict[str, list[int]]


class TableStatusOut(BaseModel):
    table: int
    status: Literal["open", "pending", "disputed", "confirmed"]
    version: int
    confirmed_by: list[str]
    disputes: list[dict[str, str | int]]


class EntrantOut(BaseModel):
    name: str


class PinOut(BaseModel):
    table: int
    pin: str
    url: str


# --- session ------------------------------------------------------------------------------------


def _session_out(request: Request, state: WebState) -> SessionOut:
    return SessionOut(
        director=is_director(request, state),
        csrf_token=csrf_token(request),
        tables=[k for k in request.session.get("tables", []) if isinstance(k, str)],
    )


@router.get("/session")
def get_session(request: Request, state: StateDep) -> SessionOut:
    """Who this session is and its CSRF token (send it as ``X-CSRF-Token`` with every change)."""
    return _session_out(request, state)


# --- public reads -------------------------------------------------------------------------------


def _public(t: TournamentPublic, director: bool) -> TournamentPublic:
    """The tournament as shown: its random seed (it foretells draws to come) to the director only."""
    return t if director else dataclasses.replace(t, seed="")


@router.get("/tournaments")
def list_tournaments(
    request: Request, state: StateDep, session: ReaderDep
) -> list[TournamentPublic]:
    """Every tournament (the ``seed`` is empty unless the director asks)."""
    director = is_director(request, state)
    return [_public(t, director) for t in tournaments.list_tournaments(session)]


@router.get("/tournaments/{slug}")
def get_tournament(
    request: Request, slug: str, state: StateDep, session: ReaderDep
) -> TournamentPublic:
    """One tournament (the ``seed`` is empty unless the director asks)."""
    return _public(tournaments.get_tournament(session, slug=slug), is_director(request, state))


@router.get("/tournaments/{slug}/standings")
def standings(slug: str, state: StateDep, session: ReaderDep, lang: LangDep) -> StandingsOut:
    """The standings with each tie-break and why each player is below the one above (in ``lang``)."""
    from agon.web.state import journal_version

    version = journal_version(session, slug)

    def make() -> StandingsOut:
        table = exchange.standings(session, tournament=slug, keepers=state.standings)
        view = views.standings_view(session, tournament=slug, lang=lang, keepers=state.standings)
        shown = views.shown_tiebreaks(table)
        return StandingsOut(
            tournament=slug,
            ruleset=table.ruleset.name,
            ruleset_title=view.ruleset_title,
            rounds_played=view.rounds_played,
            rows=[
                StandingOut(
                    rank=row.rank,
                    player=row.player,
                    points=line.points,
                    tiebreaks=dict(zip(shown, line.tiebreaks, strict=True)),
                    games=row.totals.games,
                    decided_by=row.decided_by,
                    why=line.why,
                    marks=[MarkOut(kind=m.kind, short=m.short, long=m.long) for m in line.marks],
                )
                for row, line in zip(table.rows, view.lines, strict=True)
            ],
        )

    return state.cache.get_or_make(("standings-api", slug, lang), version, make)


@router.get("/tournaments/{slug}/entrants")
def list_entrants(slug: str, session: ReaderDep) -> list[EntrantOut]:
    """The registered players' names (public; everything else about them is the director's)."""
    return [EntrantOut(name=p.name) for p in players.list_players(session, tournament=slug)]


@router.get("/tournaments/{slug}/players")
def list_players(slug: str, actor: DirectorDep, session: SessionDep) -> list[PlayerPublic]:
    """Every registration with its extra fields, fee, status, reasons and sanctions (director)."""
    return players.list_players(session, tournament=slug)


@router.get("/tournaments/{slug}/rounds")
def list_rounds(slug: str, session: ReaderDep) -> list[RoundPublic]:
    return rounds.list_rounds(session, tournament=slug)


@router.get("/tournaments/{slug}/rounds/{number}")
def get_round(slug: str, number: RoundPath, session: ReaderDep) -> RoundPublic:
    return views.round_or_404(session, tournament=slug, number=number)


@router.get("/tournaments/{slug}/rounds/{number}/status")
def round_status(
    request: Request, slug: str, number: RoundPath, state: StateDep, session: ReaderDep
) -> list[TableStatusOut]:
    """Each table's status: open, pending, disputed or confirmed (a dispute's reason: director)."""
    rnd = views.round_or_404(session, tournament=slug, number=number)
    director = is_director(request, state)
    return [
        TableStatusOut(
            table=s.table.number,
            status=s.status,  # type: ignore[arg-type]
            version=s.table.version,
            confirmed_by=list(s.confirmed_by),
            disputes=[_dispute_out(d.player, d.version, d.reason, director) for d in s.disputes],
        )
        for s in views.table_statuses(session, tournament=slug, rnd=rnd)
    ]


def _dispute_out(player: str, version: int, reason: str, director: bool) -> dict[str, str | int]:
    """A dispute as the status shows it: its reason only to the director."""
    out: dict[str, str | int] = {"player": player, "version": version}
    if director:
        out["reason"] = reason
    return out


@router.get("/tournaments/{slug}/rounds/{number}/tables/{table}")
def get_table(slug: str, number: RoundPath, table: TablePath, session: ReaderDep) -> TablePublic:
    return results.get_table(session, tournament=slug, round_number=number, table=table)


@router.get("/tournaments/{slug}/seat")
def where_do_i_sit(
    slug: str, session: ReaderDep, name: Annotated[str, Query(max_length=100)]
) -> list[SeatOut]:
    """Where the players whose name matches sit in the latest round."""
    auction = ruleset_of(get_tournament_row(session, slug)).auction
    return [
        SeatOut(**{f: getattr(s, f) for f in SeatOut.model_fields})
        for s in views.find_seat(session, tournament=slug, query=name, auction=auction)
    ]


@router.get("/tournaments/{slug}/ranks")
def ranks(slug: str, session: ReaderDep) -> RanksOut:
    """Each player's rank after each qualifying round (the rank chart's data)."""
    history = views.rank_history(session, tournament=slug)
    return RanksOut(
        rounds=list(history.rounds), ranks={p: list(r) for p, r in history.ranks.items()}
    )


@router.get("/tournaments/{slug}/clock")
def get_clock(slug: str, session: ReaderDep) -> floor.ClockPublic | None:
    """The latest round's clock (``null`` before round 1)."""
    minutes = tournaments.round_minutes(get_tournament_row(session, slug))
    latest = views.latest_round(session, tournament=slug)
    if latest is None:
        return None
    return floor.clock(
        session, tournament=slug, round_number=latest.number, default_minutes=minutes
    )


@router.get("/tournaments/{slug}/final")
def final(slug: str, session: ReaderDep) -> FinalRanking:
    """The final's ranking (409 until the final's result is confirmed); a ruleset without a
    final (Bonn): the top three of the final standings (409 until the last round is closed)."""
    return exchange.final_ranking(session, tournament=slug)


# --- director -----------------------------------------------------------------------------------


@router.post("/tournaments", status_code=201)
def create_tournament(
    body: TournamentIn, actor: DirectorDep, session: SessionDep
) -> TournamentPublic:
    info = {k: v for k, v in (("date", body.date), ("location", body.location)) if v}
    return tournaments.create_tournament(
        session,
        data=TournamentCreate(
            slug=body.slug,
            name=body.name,
            ruleset=body.ruleset,
            seed=body.seed,
            min_players=body.min_players,
            max_players=body.max_players,
            starts_at=body.starts_at,
            info=info,
        ),
        actor=actor,
    )


@router.post("/tournaments/{slug}/players", status_code=201)
def register(slug: str, body: PlayerIn, actor: DirectorDep, session: SessionDep) -> PlayerPublic:
    return players.register_player(
        session,
        tournament=slug,
        data=PlayerCreate(name=body.name, tag=body.tag, fee_paid=body.fee_paid),
        actor=actor,
    )


@router.post("/tournaments/{slug}/players/import", status_code=201)
def import_players(
    slug: str, body: CsvIn, actor: DirectorDep, session: SessionDep
) -> list[PlayerPublic]:
    parsed = players.parse_players_csv(body.csv, origin="CSV")
    return players.import_players(session, tournament=slug, players=parsed, actor=actor)


@router.post("/tournaments/{slug}/players/{name}/checkin")
def check_in(
    slug: str, name: str, body: CheckInIn, actor: DirectorDep, session: SessionDep
) -> PlayerPublic:
    return players.check_in(session, tournament=slug, player=name, actor=actor, late=body.late)


@router.post("/tournaments/{slug}/players/{name}/fee")
def fee(slug: str, name: str, body: FeeIn, actor: DirectorDep, session: SessionDep) -> PlayerPublic:
    return players.set_fee(session, tournament=slug, player=name, paid=body.paid, actor=actor)


@router.post("/tournaments/{slug}/players/{name}/drop")
def drop(
    slug: str, name: str, body: DropIn, actor: DirectorDep, session: SessionDep
) -> PlayerPublic:
    return players.drop_player(
        session, tournament=slug, player=name, kind=body.kind, reason=body.reason, actor=actor
    )


@router.post("/tournaments/{slug}/players/{name}/sanctions")
def sanction(
    slug: str, name: str, body: SanctionIn, actor: DirectorDep, session: SessionDep
) -> PlayerPublic:
    return players.add_sanction(
        session,
        tournament=slug,
        player=name,
        kind=body.kind,
        reason=body.reason,
        round_number=body.round,
        actor=actor,
    )


@router.post("/tournaments/{slug}/rounds", status_code=201)
def start_round(slug: str, body: RoundIn, actor: DirectorDep, session: SessionDep) -> RoundPublic:
    return rounds.start_round(session, tournament=slug, actor=actor, tables=body.tables)


@router.post("/tournaments/{slug}/rounds/{number}/close")
def close_round(
    slug: str, number: RoundPath, actor: DirectorDep, session: SessionDep
) -> RoundPublic:
    return rounds.close_round(session, tournament=slug, number=number, actor=actor)


@router.post("/tournaments/{slug}/final", status_code=201)
def start_final(slug: str, body: FinalIn, actor: DirectorDep, session: SessionDep) -> RoundPublic:
    return rounds.start_final(session, tournament=slug, actor=actor, absent=body.absent)


def _results(body: ResultsIn) -> list[ResultIn]:
    """The results as the services take them.

    Raises:
        InvalidInput: a player with neither VP nor ``left``.
    """
    out = []
    for r in body.results:
        if r.vp is None and not r.left:
            raise InvalidInput(
                f"player {r.player!r}, field 'vp': missing",
                msgid=N_("%(player)s: %(field)s is missing."),
                params={"player": r.player, "field": "VP"},
            )
        out.append(
            ResultIn(
                player=r.player,
                vp=r.vp or 0,
                coins=r.coins,
                bid=r.bid,
                wonder=r.wonder,
                side=r.side,
                breakdown=r.breakdown,
                left=r.left,
            )
        )
    return out


@router.post(
    "/tournaments/{slug}/rounds/{number}/tables/{table}/result", response_model=TablePublic
)
def enter_result(
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: ResultsIn,
    actor: DirectorDep,
    session: SessionDep,
    idempotency_key: KeyHeader = None,
) -> Any:
    """Enter a table's result, or correct it (give the ``version`` you corrected).

    With an ``Idempotency-Key`` header (8 to 64 letters, digits, ``-``, ``_``) the entry is made
    once: the same key again answers what the first request got and changes nothing."""
    return _enter_once(session, slug, number, table, body, actor, idempotency_key)


def _enter_once(
    session: Session, slug: str, number: int, table: int, body: ResultsIn, actor: str, key: Any
) -> Any:
    """The entry, once per idempotency ``key`` if given (the first answer again, as JSON)."""
    args: dict[str, Any] = dict(tournament=slug, round_number=number, table=table, actor=actor)
    args.update(results=_results(body), expected_version=body.version)
    if key is None:
        return results.enter_result(session, **args)
    return JSONResponse(offline.enter_result_once(session, key=key, **args).answer["table"])


@router.post("/tournaments/{slug}/rounds/{number}/tables/{table}/auction")
def auction(
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: AuctionIn,
    actor: DirectorDep,
    session: SessionDep,
) -> TablePublic:
    """Record a table's wonder auction (Ludolimpico 2.1); the wonders and bids won are then
    filled into the table's results."""
    return results.record_auction(
        session,
        tournament=slug,
        round_number=number,
        table=table,
        actions=body.actions,
        actor=actor,
    )


@router.post("/tournaments/{slug}/rounds/{number}/tables/{table}/confirm")
def confirm(
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: ConfirmIn,
    actor: DirectorDep,
    session: SessionDep,
) -> TablePublic:
    return results.confirm_result(
        session,
        tournament=slug,
        round_number=number,
        table=table,
        actor=actor,
        players=body.players,
        expected_version=body.version,
    )


@router.get("/tournaments/{slug}/rounds/{number}/pins")
def pins(
    slug: str, number: RoundPath, actor: DirectorDep, state: StateDep, session: SessionDep
) -> list[PinOut]:
    """Every table's PIN and URL (what the score sheets print)."""
    from agon.web.printouts import table_url_base

    rnd = views.round_or_404(session, tournament=slug, number=number)
    base = table_url_base(state.settings.public_url, slug)
    return [
        PinOut(
            table=t.number,
            pin=table_pin(state.secret_key, slug, number, t.number),
            url=f"{base}/r{number}/t{t.number}",
        )
        for t in rnd.tables
    ]


@router.post("/tournaments/{slug}/rounds/{number}/clock")
def clock(
    slug: str, number: RoundPath, body: ClockIn, actor: DirectorDep, session: SessionDep
) -> floor.ClockPublic:
    views.round_or_404(session, tournament=slug, number=number)
    if body.action == "start":
        floor.start_clock(
            session, tournament=slug, round_number=number, minutes=body.minutes, actor=actor
        )
    else:
        floor.pause_clock(session, tournament=slug, round_number=number, actor=actor)
    minutes = tournaments.round_minutes(get_tournament_row(session, slug))
    return floor.clock(session, tournament=slug, round_number=number, default_minutes=minutes)


PDF: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/pdf": {}}, "description": "an A4 PDF"}
}


@router.get("/tournaments/{slug}/print/standings.pdf", response_class=Response, responses=PDF)
def print_standings(slug: str, actor: DirectorDep, session: SessionDep, lang: LangDep) -> Response:
    """The standings as a PDF printout, in ``lang``."""
    data = printouts.standings_printout(session, tournament=slug, lang=lang)
    return Response(data, media_type="application/pdf")


@router.get(
    "/tournaments/{slug}/rounds/{number}/print/{kind}.pdf", response_class=Response, responses=PDF
)
def print_round(
    slug: str,
    number: RoundPath,
    kind: Literal["seating-by-name", "seating-by-table", "table-cards", "score-sheets"],
    actor: DirectorDep,
    state: StateDep,
    session: SessionDep,
    lang: LangDep,
) -> Response:
    """A round's seating list, table cards or score sheets (with QR codes and PINs) as PDF."""
    data = printouts.round_printout(
        session,
        tournament=slug,
        number=number,
        kind=kind,
        lang=lang,
        public_url=state.settings.public_url,
        secret_key=state.secret_key,
    )
    return Response(data, media_type="application/pdf")


@router.post("/tournaments/{slug}/undo")
def undo(slug: str, actor: DirectorDep, session: SessionDep) -> JournalEntryPublic:
    """Revert the last change that is not undone."""
    return journal.undo(session, tournament=slug, actor=actor)


@router.get("/tournaments/{slug}/journal")
def list_journal(slug: str, actor: DirectorDep, session: SessionDep) -> list[JournalEntryPublic]:
    return journal.list_journal(session, tournament=slug)


# --- tables (PIN) -------------------------------------------------------------------------------


def _require_table(request: Request, slug: str, number: int, table: int) -> None:
    if not is_unlocked(request, slug, number, table):
        raise HTTPException(403, detail=f"round {number}, table {table}: unlock it with its PIN")


@router.post("/tables/{slug}/{number}/{table}/unlock")
def unlock_table(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: PinIn,
    state: StateDep,
    session: SessionDep,
) -> SessionOut:
    """Unlock one table for this session with the PIN from its score sheet."""
    results.get_table(session, tournament=slug, round_number=number, table=table)
    if not unlock(request, state, slug, number, table, body.pin):
        raise HTTPException(403, detail=f"round {number}, table {table}: wrong PIN")
    return _session_out(request, state)


@router.post("/tables/{slug}/{number}/{table}/result", response_model=TablePublic)
def table_result(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: ResultsIn,
    session: SessionDep,
    idempotency_key: KeyHeader = None,
) -> Any:
    """The table enters (or, before everyone confirmed, corrects) its result (with an
    ``Idempotency-Key`` header: once, as the director's entry)."""
    _require_table(request, slug, number, table)
    current = results.get_table(session, tournament=slug, round_number=number, table=table)
    if current.state == "confirmed":
        raise IllegalAction(f"round {number}, table {table}: confirmed; ask the director")
    return _enter_once(
        session, slug, number, table, body, f"table {table} (phone)", idempotency_key
    )


@router.post("/tables/{slug}/{number}/{table}/confirm")
def table_confirm(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: ConfirmIn,
    session: SessionDep,
) -> TablePublic:
    """Players at the table confirm the result ``version`` they saw (name at least one)."""
    _require_table(request, slug, number, table)
    if not body.players or body.version is None:
        raise HTTPException(422, detail="name the confirming players and the version they saw")
    return results.confirm_result(
        session,
        tournament=slug,
        round_number=number,
        table=table,
        actor=f"{', '.join(body.players)} (phone, table {table})",
        players=body.players,
        expected_version=body.version,
    )


@router.post("/tables/{slug}/{number}/{table}/dispute", status_code=201)
def table_dispute(
    request: Request,
    slug: str,
    number: RoundPath,
    table: TablePath,
    body: DisputeIn,
    session: SessionDep,
) -> floor.DisputePublic:
    """A player disputes the entered result; the director sees the table as disputed."""
    _require_table(request, slug, number, table)
    current = results.get_table(session, tournament=slug, round_number=number, table=table)
    check_dispute(current, body.player, body.version, number)
    return floor.dispute(
        session,
        tournament=slug,
        round_number=number,
        table=table,
        version=body.version,
        player=body.player,
        reason=body.reason,
    )
