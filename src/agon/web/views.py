"""What the pages and the API show, computed from the services (no rules of their own here).

Standings come from :func:`agon.services.exchange.standings`; the rank over the rounds from the
same standings computed on the first 1, 2, … qualifying rounds; the explanation of each place from
:func:`agon.i18n.explain.explain_in`; who sits where from the latest round's seating.
"""

from __future__ import annotations

import dataclasses
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from agon.errors import AgonError, NotFound
from agon.i18n import N_, criterion_label, format_number, translator, wonder_name
from agon.i18n.explain import explain_in, left_notes_in
from agon.i18n.marks import Mark, MarkText, legend, marks_in, registration_marks
from agon.printing.model import seats_of
from agon.services import exchange, rounds, tournaments
from agon.services.core import get_tournament_row, ruleset_of
from agon.services.public import ResultPublic, RoundPublic, TablePublic
from agon.services.schemas import JournalEntryPublic
from agon.store.models import GameTableRow, RoundRow, TournamentRow
from agon.tournament.auction import AuctionAction
from agon.tournament.event import Result
from agon.tournament.incremental import StandingsKeepers
from agon.tournament.ruleset import Ruleset
from agon.tournament.scoring import score_table
from agon.tournament.standings import Standings, compute_standings
from agon.web import floor


@dataclass(frozen=True, slots=True)
class StandingLine:
    rank: int
    player: str
    points: str
    tiebreaks: tuple[str, ...]
    games: int
    decided_by: str
    why: str
    #: games left during play (Ludolimpico 2.5), one sentence each
    notes: tuple[str, ...] = ()
    #: late entry, dropped / withdrawn / expelled, absent from the final (:mod:`agon.i18n.marks`)
    marks: tuple[MarkText, ...] = ()


@dataclass(frozen=True, slots=True)
class StandingsView:
    slug: str
    name: str
    ruleset_title: str
    criteria: tuple[str, ...]
    criteria_long: tuple[str, ...]
    rounds_played: int
    lines: tuple[StandingLine, ...]
    #: The qualifying round under way, whose entered results already count (None: none).
    round_in_progress: int | None = None
    #: The ruleset has a final, which the standings do not count (its own ranking decides).
    has_final: bool = False
    #: What the marks beside the names mean: one of each kind used.
    legend: tuple[MarkText, ...] = ()


def shown_tiebreaks(standings: Standings) -> tuple[str, ...]:
    return tuple(c for c in standings.ruleset.standings_tie_breakers if c != "lot")


def preload(session: Session, tournament: str) -> list[TournamentRow]:
    """Load the tournament's players, rounds, tables and results in a few queries.

    The services walk these relationships one by one (a query per table); loading them up front
    into the session makes those walks free. Changes nothing: a performance hint only. Keep the
    returned rows while the services run: the session holds its objects only weakly.
    """
    return session.scalars(
        select(TournamentRow)
        .where(TournamentRow.slug == tournament)
        .options(
            selectinload(TournamentRow.players),
            selectinload(TournamentRow.sanctions),
            selectinload(TournamentRow.rounds)
            .selectinload(RoundRow.tables)
            .selectinload(GameTableRow.results),
        )
    ).all()  # type: ignore[return-value]  # a Sequence, a list at run time


def standings_view(
    session: Session,
    *,
    tournament: str,
    lang: str,
    keepers: StandingsKeepers | None = None,
    preloaded: bool = False,
) -> StandingsView:
    """The standings with every tie-break, in ``lang``, and why each row is below the one above
    (kept incrementally by ``keepers`` when given, see :func:`exchange.standings`;
    ``preloaded``: the caller holds :func:`preload`'s rows)."""
    _loaded = [] if preloaded else preload(session, tournament)  # held until the function returns
    t = tournaments.get_tournament(session, slug=tournament)
    table = exchange.standings(session, tournament=tournament, keepers=keepers)
    shown = shown_tiebreaks(table)
    marks = tournament_marks(get_tournament_row(session, tournament))
    lines = []
    above = None
    for row in table.rows:
        why = explain_in(table, above, row.player, lang) if above is not None else ""
        lines.append(
            StandingLine(
                rank=row.rank,
                player=row.player,
                points=format_number(row.totals.points, "points", lang),
                tiebreaks=tuple(format_number(row.tiebreaks[c], c, lang) for c in shown),
                games=row.totals.games,
                decided_by=criterion_label(row.decided_by, lang, short=True)
                if row.decided_by
                else "",
                why=why,
                notes=tuple(left_notes_in(row, lang, table.ruleset.left_rule)),
                marks=marks_in(marks.get(row.player, ()), lang),
            )
        )
        above = row.player
    qualifying = [r for r in get_tournament_row(session, tournament).rounds if not r.final]
    played = sum(1 for r in qualifying if r.status == "closed")
    in_progress = next((r.number for r in qualifying if r.status != "closed"), None)
    return StandingsView(
        slug=t.slug,
        name=t.name,
        ruleset_title=table.ruleset.title_in(lang),
        criteria=tuple(criterion_label(c, lang, short=True) for c in shown),
        criteria_long=tuple(criterion_label(c, lang) for c in ("points", *shown)),
        rounds_played=played,
        lines=tuple(lines),
        round_in_progress=in_progress,
        has_final=table.ruleset.finalists > 0,
        legend=tuple(legend(line.marks for line in lines)),
    )


def tournament_marks(t: TournamentRow) -> dict[str, list[Mark]]:
    """Each player's marks for the standings: a late entry (from the first round they were
    seated in), dropped / withdrawn / expelled (after the rounds then started), absent from the
    final (a qualifier replaced by the next in the standings). The games a player left during
    play have sentences of their own (:func:`agon.i18n.explain.left_notes_in`)."""
    first: dict[str, int] = {}
    for rnd in t.rounds:
        if rnd.final:
            continue
        for tb in rnd.tables:
            for name in tb.seats:
                first.setdefault(name, rnd.number)
    out: dict[str, list[Mark]] = {}
    active = set()
    for p in t.players:
        if p.status == "active":
            active.add(p.name)
        marks = registration_marks(
            status=p.status, status_round=p.status_round, late=p.late, first_round=first.get(p.name)
        )
        if marks:
            out[p.name] = marks
    final = next((r for r in t.rounds if r.final), None)
    replaced = final.info.get("replaced") if final is not None else None
    if isinstance(replaced, Mapping):
        for name in replaced:
            if name in active:  # one who left the tournament has that mark already
                out.setdefault(str(name), []).append(Mark("absent-final"))
    return out


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One seat of a table's results as the round's page shows it: ``vp``/``coins`` ``None``
    for a player who withdrew during the game; ``points`` the tournament points the game gave
    (the final: the place), empty where the game gave none."""

    seat: int
    player: str
    vp: int | None
    coins: int | None
    bid: int
    left: bool
    points: str


@dataclass(frozen=True, slots=True)
class TableResults:
    """A table's results with what each seat earned, and the virtual players' score (tables
    filled up with virtual players, Bonn 2018 / Ludolimpico 4), one sentence each."""

    lines: tuple[ResultLine, ...]
    virtual: tuple[str, ...] = ()


def table_results(
    table: TablePublic, ruleset: Ruleset, lang: str, *, final: bool = False
) -> TableResults:
    """The results of ``table`` with each player's tournament points from this game (in the
    final: the place, since the final's own ranking decides) and the virtual players' score."""
    gettext = translator(lang).gettext
    scored = score_table(ruleset, [_as_result(r) for r in table.results])
    by_player = {s.player: s for s in scored.seats if s.player is not None}
    lines = []
    for r in table.results:
        seat = by_player.get(r.player)
        if seat is None:
            points = ""
        elif final:
            points = str(seat.place or "")
        else:
            points = format_number(seat.rank_points, "points", lang)
        lines.append(
            ResultLine(r.seat, r.player, r.vp, r.coins, r.bid, r.left, points if not r.left else "")
        )
    what = gettext(N_("net VP") if ruleset.placing_score == "vp-minus-bid" else N_("VP"))
    # the virtual seats of a table score alike: one sentence, with how many (Bonn: 2 at a table
    # of three)
    alike: dict[tuple[Fraction, int], int] = {}
    for s in scored.seats:
        if s.player is None:
            key = (s.placing, s.place or 0)
            alike[key] = alike.get(key, 0) + 1
    virtual = [
        translator(lang).ngettext(
            "Virtual player: %(score)s %(what)s, place %(place)d",
            "%(num)d virtual players: %(score)s %(what)s each, place %(place)d",
            count,
        )
        % {"num": count, "score": format_number(score, "vp", lang), "what": what, "place": place}
        for (score, place), count in alike.items()
    ]
    return TableResults(lines=tuple(lines), virtual=tuple(virtual))


def _as_result(r: ResultPublic) -> Result:
    return Result(
        player=r.player,
        vp=r.vp or 0,
        coins=r.coins or 0,
        bid=r.bid,
        wonder=r.wonder,
        side=r.side,
        left=r.left,
    )


def round_results(rnd: RoundPublic, ruleset: Ruleset, lang: str) -> dict[int, TableResults]:
    """:func:`table_results` of every table of ``rnd`` that has results, by table number."""
    return {
        t.number: table_results(t, ruleset, lang, final=rnd.final) for t in rnd.tables if t.results
    }


@dataclass(frozen=True, slots=True)
class RankHistory:
    """Each player's rank after each qualifying round that has results (``None``: not ranked)."""

    rounds: tuple[int, ...]
    players: tuple[str, ...]
    ranks: dict[str, tuple[int, ...]]


def rank_history(session: Session, *, tournament: str) -> RankHistory:
    """The standings after round 1, after rounds 1–2, …: the data of the rank chart."""
    _loaded = preload(session, tournament)  # held until the function returns
    row = get_tournament_row(session, tournament)
    ruleset = ruleset_of(row)
    event = exchange.event_of(session, tournament=tournament)
    qualifying = tuple(r for r in event.rounds if not r.final)
    numbers = tuple(
        r.number for r in row.rounds if not r.final and any(t.results for t in r.tables)
    )
    ranks: dict[str, list[int]] = {}
    final_order: list[str] = []
    for k in range(1, len(qualifying) + 1):
        table = compute_standings(dataclasses.replace(event, rounds=qualifying[:k]), ruleset)
        for line in table.rows:
            ranks.setdefault(line.player, []).append(line.rank)
        final_order = [line.player for line in table.rows]
    return RankHistory(
        rounds=numbers[: len(qualifying)],
        players=tuple(final_order),
        ranks={p: tuple(r) for p, r in ranks.items()},
    )


@dataclass(frozen=True, slots=True)
class ChartLine:
    player: str
    points: str
    label_x: float
    label_y: float
    rank: int
    highlight: bool


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    rounds: tuple[tuple[int, float], ...]
    ranks: tuple[tuple[int, float], ...]
    lines: tuple[ChartLine, ...]
    left: int
    top: int
    bottom: int


def rank_chart(history: RankHistory, *, highlight: str = "") -> Chart:
    """Coordinates of an SVG line chart: rounds left to right, rank 1 at the top."""
    n = max(1, len(history.players))
    left, top, step_y, step_x, label_w = 36, 24, 18, 90, 170
    rounds_n = max(1, len(history.rounds))
    width = left + step_x * max(1, rounds_n - 1) + label_w
    height = top + step_y * (n - 1) + 30
    xs = [left + step_x * i for i in range(rounds_n)]

    def y(rank: int) -> float:
        return float(top + step_y * (rank - 1))

    lines = []
    needle = fold(highlight)
    for player in history.players:
        ranks = history.ranks.get(player, ())
        pts = " ".join(f"{xs[i]},{y(r)}" for i, r in enumerate(ranks))
        last = ranks[-1] if ranks else n
        lines.append(
            ChartLine(
                player=player,
                points=pts,
                label_x=float(xs[len(ranks) - 1] + 8 if ranks else left),
                label_y=y(last) + 4,
                rank=last,
                highlight=bool(needle) and needle in fold(player),
            )
        )
    return Chart(
        width=width,
        height=height,
        rounds=tuple((num, float(xs[i])) for i, num in enumerate(history.rounds)),
        ranks=tuple((r, y(r)) for r in range(1, n + 1)),
        lines=tuple(lines),
        left=left,
        top=top,
        bottom=height - 8,
    )


def fold(text: str) -> str:
    """Case- and accent-blind form of a name for searching (``Jürgen`` finds ``jurgen``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


@dataclass(frozen=True, slots=True)
class SeatFound:
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


def latest_round(session: Session, *, tournament: str) -> RoundPublic | None:
    listed = rounds.list_rounds(session, tournament=tournament)
    return listed[-1] if listed else None


def find_seat(session: Session, *, tournament: str, query: str, auction: bool) -> list[SeatFound]:
    """Where the players whose name contains ``query`` sit in the latest round."""
    rnd = latest_round(session, tournament=tournament)
    needle = fold(query)
    if rnd is None or not needle:
        return []
    exact = any(fold(name) == needle for table in rnd.tables for name in table.seats)
    found = []
    for table in rnd.tables:
        seats = seats_of(rnd, table, auction=auction)
        for seat in seats:
            if (fold(seat.player) == needle) if exact else (needle in fold(seat.player)):
                k = seat.number - 1
                found.append(
                    SeatFound(
                        player=seat.player,
                        round=rnd.number,
                        table=table.number,
                        seat=seat.number,
                        seats=len(seats),
                        wonder=seat.wonder,
                        side=seat.side,
                        left=table.seats[k - 1] if len(seats) > 1 else "",
                        right=table.seats[(k + 1) % len(seats)] if len(seats) > 1 else "",
                        start=seat.is_start,
                    )
                )
    return found


@dataclass(frozen=True, slots=True)
class TableStatus:
    """A table as the director sees it: ``status`` is open, pending, disputed or confirmed."""

    table: TablePublic
    status: str
    disputes: tuple[floor.DisputePublic, ...]
    confirmed_by: tuple[str, ...]


def table_statuses(session: Session, *, tournament: str, rnd: RoundPublic) -> list[TableStatus]:
    """The round's tables with their status; a pending table with a dispute is *disputed*."""
    versions = {t.number: t.version for t in rnd.tables}
    open_disputes = floor.disputes(
        session, tournament=tournament, round_number=rnd.number, versions=versions
    )
    out = []
    for t in rnd.tables:
        d = tuple(open_disputes.get(t.number, ()))
        status = "disputed" if t.state == "pending" and d else t.state
        out.append(
            TableStatus(
                table=t,
                status=status,
                disputes=d,
                confirmed_by=tuple(r.player for r in t.results if r.confirmed),
            )
        )
    return out


def round_or_404(session: Session, *, tournament: str, number: int) -> RoundPublic:
    """Round ``number``. Raises: NotFound."""
    for rnd in rounds.list_rounds(session, tournament=tournament):
        if rnd.number == number:
            return rnd
    raise NotFound(
        f"tournament {tournament!r}: round {number} has not been started",
        msgid=N_("Round %(round)d has not been started."),
        params={"round": number},
    )


def auction_sentence(text: str, lang: str, sides: Mapping[str, str] | None = None) -> str:
    """An auction action (``"Anna opens babylon 2"``) as a sentence in ``lang``; with the
    round's drawn ``sides`` the wonder is named with its side ("Babylon B"), as the desk lists it."""
    try:
        a = AuctionAction.parse(text)
    except AgonError:
        return text
    tr = translator(lang)
    if a.verb == "opens":
        wonder = str(a.wonder)
        side = (sides or {}).get(wonder)
        return tr.gettext("%(player)s opens %(wonder)s with %(bid)d VP") % {
            "player": a.player,
            "wonder": wonder_name(wonder, lang) + (f" {side}" if side else ""),
            "bid": a.bid,
        }
    if a.verb == "raises":
        return tr.gettext("%(player)s raises to %(bid)d VP") % {"player": a.player, "bid": a.bid}
    return tr.gettext("%(player)s passes") % {"player": a.player}


def _table_place(p: Mapping[str, Any]) -> dict[str, Any]:
    return {"round": int(p.get("round", 0)), "table": int(p.get("table", 0))}


def journal_label(
    entry: JournalEntryPublic, lang: str, by_id: Mapping[int, JournalEntryPublic] | None = None
) -> str:
    """What a journal entry did, as a sentence in ``lang`` (the journal page, the undo button)."""
    tr = translator(lang)
    p = entry.payload
    a = entry.action
    names = p.get("players")
    if a == "undo":
        target = (by_id or {}).get(int(p.get("undoes", 0)))
        what = journal_label(target, lang, by_id) if target else str(p.get("action", ""))
        return tr.gettext("Undone: %(change)s") % {"change": what}
    if a == "tournament.create":
        return tr.gettext("Tournament created: %(name)s") % {"name": p.get("name", "")}
    if a == "tournament.import":
        return tr.gettext("Event file imported")
    if a == "player.register":
        regs = list(names or [])
        if len(regs) == 1 and isinstance(regs[0], Mapping):
            return tr.gettext("%(player)s registered") % {"player": regs[0].get("name", "")}
        return tr.ngettext("%(num)d player registered", "%(num)d players registered", len(regs)) % {
            "num": len(regs)
        }
    if a == "player.fee":
        msg = (
            N_("%(player)s paid the entry fee") if p.get("paid") else N_("%(player)s: fee not paid")
        )
        return tr.gettext(msg) % {"player": p.get("player", "")}
    if a == "player.checkin":
        if isinstance(names, list):
            return tr.ngettext(
                "%(num)d player checked in", "%(num)d players checked in", len(names)
            ) % {"num": len(names)}
        msg = N_("%(player)s checked in late") if p.get("late") else N_("%(player)s checked in")
        return tr.gettext(msg) % {"player": p.get("player", "")}
    if a == "player.drop":
        msg = {
            "withdraw": N_("%(player)s withdrew"),
            "expel": N_("%(player)s was expelled"),
        }.get(str(p.get("kind")), N_("%(player)s dropped out"))
        return tr.gettext(msg) % {"player": p.get("player", "")}
    if a == "player.sanction":
        msg = (
            N_("Penalty for %(player)s: %(reason)s")
            if p.get("kind") == "penalty"
            else N_("Warning for %(player)s: %(reason)s")
        )
        return tr.gettext(msg) % {"player": p.get("player", ""), "reason": p.get("reason", "")}
    if a == "player.profile":
        if p.get("profile"):
            return tr.gettext("%(player)s linked to the player profile %(profile)s") % {
                "player": p.get("player", ""),
                "profile": p.get("profile", ""),
            }
        return tr.gettext("%(player)s: player profile unlinked") % {"player": p.get("player", "")}
    if a == "round.start":
        if p.get("final"):
            return tr.gettext("The final started")
        return tr.gettext("Round %(round)d started") % {"round": int(p.get("number", 0))}
    if a == "round.close":
        return tr.gettext("Round %(round)d closed") % {"round": int(p.get("number", 0))}
    if a == "result.enter":
        msg = (
            N_("Result corrected: round %(round)d, table %(table)d")
            if p.get("expected_version") is not None
            else N_("Result entered: round %(round)d, table %(table)d")
        )
        return tr.gettext(msg) % _table_place(p)
    if a == "result.confirm":
        if names:
            return tr.gettext("%(players)s confirmed: round %(round)d, table %(table)d") % {
                "players": ", ".join(str(n) for n in names),
                **_table_place(p),
            }
        return tr.gettext("Confirmed for all: round %(round)d, table %(table)d") % _table_place(p)
    if a == "table.auction":
        return tr.gettext("Auction recorded: round %(round)d, table %(table)d") % _table_place(p)
    if a == "table.auction.act":
        return tr.gettext("Round %(round)d, table %(table)d: %(action)s") % {
            **_table_place(p),
            "action": auction_sentence(str(p.get("action", "")), lang),
        }
    if a.startswith("registration."):
        return _registration_label(a, p, tr)
    return a  # an action this face does not know yet: its name


def _registration_label(a: str, p: Mapping[str, Any], tr: Any) -> str:
    """Online registration's journal entries (issue 27) as sentences."""
    if a == "registration.open":
        return str(tr.gettext("Online registration opened: %(num)d places")) % {
            "num": int(p.get("capacity", 0))
        }
    if a == "registration.close":
        return str(tr.gettext("Online registration closed"))
    if a == "registration.register":
        return str(tr.gettext("Registered online: %(player)s")) % {"player": p.get("name", "")}
    if a == "registration.withdraw":
        return str(tr.gettext("Online registration #%(num)d withdrawn")) % {
            "num": int(p.get("number", 0))
        }
    numbers = p.get("numbers")
    count = len(numbers) if isinstance(numbers, list) else 0
    return str(
        tr.ngettext(
            "%(num)d online registration checked in",
            "%(num)d online registrations checked in",
            count,
        )
    ) % {"num": count}


@dataclass(frozen=True, slots=True)
class FinishedPlace:
    """One podium place as a finished tournament's pages show it, in the page's language."""

    place: int
    player: str
    medal: str | None
    detail: str


@dataclass(frozen=True, slots=True)
class FinishedView:
    """The end of the day on the web: the winner, the podium and the qualifiers (issue 11: "a
    finished tournament says so"); the command line prints the same (``describe_status``)."""

    winner: str
    podium: tuple[FinishedPlace, ...]
    qualifiers: str


def finished_view(session: Session, *, tournament: str, lang: str) -> FinishedView | None:
    """The tournament's end in ``lang``, or ``None`` while it is not finished."""
    status = exchange.tournament_status(session, slug=tournament)
    if not status.finished or not status.podium:
        return None
    gettext = translator(lang).gettext
    points = (
        {}
        if status.has_final
        else {
            r.player: r.totals.points
            for r in exchange.standings(session, tournament=tournament).rows
        }
    )
    # where there is a final, its whole ranking (places 1-5, medals for the top three)
    shown = exchange.final_ranking(session, tournament=tournament).final if status.has_final else ()
    places = []
    for p in shown or status.podium:
        if p.player in points:
            detail = gettext(N_("%(points)s points")) % {
                "points": format_number(points[p.player], "points", lang)
            }
        else:
            detail = gettext(N_("%(net)d net VP (%(vp)d VP − %(bid)d bid)")) % {
                "net": p.vp - p.bid,
                "vp": p.vp,
                "bid": p.bid,
            }
        if p.tied > 1:
            detail += " · " + gettext(N_("shared by %(num)d")) % {"num": p.tied}
        places.append(FinishedPlace(p.place, p.player, p.medal, detail))
    qualifiers = ""
    if status.qualifiers:
        names = ", ".join(status.qualifiers)
        if status.has_final:
            qualifiers = gettext(N_("Qualified for the final: %(players)s")) % {"players": names}
        else:
            qualifiers = gettext(N_("Qualified: %(players)s")) % {"players": names}
            if status.qualifiers_for:
                qualifiers += f" ({status.qualifiers_for})"
    return FinishedView(winner=status.podium[0].player, podium=tuple(places), qualifiers=qualifiers)
