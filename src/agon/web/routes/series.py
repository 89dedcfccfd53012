"""The public series pages: ``/series`` lists the series the app was started with, and
``/series/{name}`` shows one's standings — every place with its reason, every player's events.

Which series: the files given to ``agon serve --series FILE`` (repeatable) or listed in
``AGON_SERIES``; ``name`` is the file's name without ``.toml`` (:func:`series_slug`). The files are
checked when the app starts and read again on every request, like the events they name, so the
page follows the event files and tournaments as they are played. The routes are thin: the series
is computed by :mod:`agon.services.series` over the pure :mod:`agon.series`.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path as FilePath
from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, Response

from agon.errors import InvalidInput, NotFound
from agon.i18n import N_, format_number
from agon.series import SeriesRow
from agon.services.profiles import visible_profiles
from agon.services.series import (
    SeriesStandings,
    needs_database,
    read_series,
    series_slug,
    series_standings,
)
from agon.web.deps import LangDep, ReaderDep
from agon.web.templating import render, tr

router = APIRouter(include_in_schema=False)

#: A series' name in the address: what :func:`series_slug` makes, at most 64 characters.
SeriesPath = Annotated[str, Path(max_length=64)]

#: Why a row stands where it does (:func:`agon.series.reason`), for the catalogues.
REASONS: dict[str | None, str] = {
    None: N_("first: most counted points"),
    "points": N_("fewer counted points"),
    "name": N_("equal on everything the series lists; ordered by name"),
}
#: The series' tie-breaks (:data:`agon.series.SERIES_TIE_BREAKERS`), for the catalogues.
TIE_BREAKS: dict[str, str] = {
    "best-place": N_("the better best place in a single event"),
    "all-points": N_("the points of every event, counted or not"),
    "events": N_("more events played"),
    "lot": N_("lot drawn from the series' seed"),
}


def series_registry(files: tuple[str, ...]) -> dict[str, FilePath]:
    """The series to show, by address name; each file read and checked once here.

    Raises:
        InvalidInput: an unreadable or malformed file, or two files with the same name.
    """
    out: dict[str, FilePath] = {}
    for name in files:
        path = FilePath(name)
        read_series(path)
        slug = series_slug(path)
        if slug in out:
            raise InvalidInput(f"{path}: another series file is also called {slug!r}")
        out[slug] = path
    return out


@dataclass(frozen=True, slots=True)
class EventLine:
    label: str
    href: str | None
    place: int
    points: str
    counted: bool


@dataclass(frozen=True, slots=True)
class SeriesLine:
    rank: int
    player: str
    href: str | None
    points: str
    qualified: bool
    reason: str
    events: tuple[EventLine, ...]


def _reason(row: SeriesRow, lang: str) -> str:
    if row.decided_by in REASONS:
        return tr(lang, REASONS[row.decided_by])
    criterion = tr(lang, TIE_BREAKS[row.decided_by or ""])
    return tr(lang, N_("equal counted points; decided by %(criterion)s")) % {"criterion": criterion}


def _points(value: Fraction, lang: str) -> str:
    return format_number(value, "points", lang)


def series_lines(
    standings: SeriesStandings, lang: str, public_profiles: Collection[str] = ()
) -> list[SeriesLine]:
    """The rows as the page shows them, in ``lang``; a player whose profile is among
    ``public_profiles`` links to the player page."""
    links = {e.label: f"/p/{e.tournament}" for e in standings.events if e.tournament}
    return [
        SeriesLine(
            rank=row.rank,
            player=str(row.player),
            href=f"/players/{row.player.profile}"
            if row.player.profile in public_profiles
            else None,
            points=_points(row.points, lang),
            qualified=row.qualified,
            reason=_reason(row, lang),
            events=tuple(
                EventLine(e.event, links.get(e.event), e.place, _points(e.points, lang), e.counted)
                for e in row.events
            ),
        )
        for row in standings.rows
    ]


def _path_of(request: Request, name: str) -> FilePath:
    files: dict[str, FilePath] = request.app.state.series_files
    path = files.get(name)
    if path is None:
        raise NotFound(
            f"no series {name!r}",
            msgid=N_("There is no series “%(name)s”."),
            params={"name": name[:64]},
        )
    return path


@router.get("/series", response_class=HTMLResponse)
def series_index(request: Request, lang: LangDep) -> Response:
    files: dict[str, FilePath] = request.app.state.series_files
    listed = [(slug, read_series(path)) for slug, path in files.items()]
    return render(request, "public/series_index.html", lang, listed=listed)


@router.get("/series/{name}", response_class=HTMLResponse)
def series_page(request: Request, name: SeriesPath, session: ReaderDep, lang: LangDep) -> Response:
    path = _path_of(request, name)
    series = read_series(path)
    standings = series_standings(
        session if needs_database(series) else None, path=path, series=series
    )
    shown = visible_profiles(session, (row.player.profile for row in standings.rows))
    return render(
        request,
        "public/series.html",
        lang,
        name=name,
        series=standings.series,
        events=standings.events,
        lines=series_lines(standings, lang, shown),
    )
