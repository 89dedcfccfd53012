"""Series across events: read a series file, load its events (files or stored tournaments), and
compute the standings with :mod:`agon.series` (pure). ``agon series`` and the web's series pages
are both faces of this module.

An event file is read relative to the series file on every call, and a stored tournament as it
stands now (every entered result counts, as in its live standings), so a series page follows the
events as they are played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from agon.errors import N_, InvalidInput
from agon.series import Series, SeriesRow, compute_series, parse_series
from agon.tournament.event import Event, load_event
from agon.tournament.ruleset import Ruleset
from agon.tournament.safeload import read_text

#: A series' name in addresses: lower-case letters, digits and '-' (from the file's name).
SERIES_SLUG = re.compile(r"^[a-z0-9][a-z0-9-]{0,63}$")


@dataclass(frozen=True, slots=True)
class SeriesEventInfo:
    """An event of the series as shown: its label and, for a stored tournament, its slug."""

    label: str
    tournament: str | None


@dataclass(frozen=True, slots=True)
class SeriesStandings:
    """A series' rules, its events in order, and its standings."""

    series: Series
    events: tuple[SeriesEventInfo, ...]
    rows: tuple[SeriesRow, ...]


def series_slug(path: Path) -> str:
    """The series' name in addresses: the file's name without ``.toml``, lower-case, other
    characters as '-' (``Series 2018.toml`` → ``series-2018``).

    Raises:
        InvalidInput: nothing usable is left of the name.
    """
    slug = re.sub(r"[^a-z0-9]+", "-", path.stem.lower()).strip("-")[:64]
    if not SERIES_SLUG.match(slug):
        raise InvalidInput(f"{path}: the file's name gives no series address (use letters/digits)")
    return slug


def read_series(path: Path) -> Series:
    """Read and check a series file.

    Raises:
        InvalidInput: missing, unreadable or malformed, naming the file and field.
    """
    return parse_series(read_text(path, what="series file"), origin=str(path))


def load_series_events(
    series: Series, *, base_dir: Path, session: Session | None
) -> list[tuple[Event, Ruleset]]:
    """The series' events in order: files relative to ``base_dir``, tournaments from ``session``.

    Raises:
        InvalidInput: an unreadable event file, or a tournament without a database (``session``
            None); NotFound: no such tournament.
    """
    out = []
    for spec in series.events:
        if spec.file is not None:
            out.append(load_event(base_dir / spec.file))
            continue
        if session is None:
            raise InvalidInput(
                f"series {series.name!r}: event {spec.tournament!r} is a tournament in the "
                "database, and none is open",
                msgid=N_("Series “%(series)s”: the tournament “%(event)s” cannot be read now."),
                params={"series": series.name, "event": spec.tournament},
            )
        from agon.services.core import get_tournament_row, ruleset_of
        from agon.services.exchange import event_of

        row = get_tournament_row(session, spec.tournament or "")
        out.append((event_of(session, tournament=row.slug), ruleset_of(row)))
    return out


def needs_database(series: Series) -> bool:
    """Does the series name a tournament of the database?"""
    return any(spec.tournament is not None for spec in series.events)


def series_standings(
    session: Session | None, *, path: Path, series: Series | None = None
) -> SeriesStandings:
    """The standings of the series in ``path`` (read again unless ``series`` is given).

    Raises:
        InvalidInput, NotFound: as :func:`read_series` and :func:`load_series_events`.
    """
    series = series or read_series(path)
    events = load_series_events(series, base_dir=path.parent, session=session)
    rows = compute_series(series, events)
    infos = tuple(
        SeriesEventInfo(spec.name or event.name, spec.tournament)
        for spec, (event, _ruleset) in zip(series.events, events, strict=True)
    )
    return SeriesStandings(series, infos, rows)
