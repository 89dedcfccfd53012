"""Series: one ranking across several events, as data (pure domain, no I/O).

A series file (TOML, like a ruleset; see ``docs/ratings-and-series.md``) names its events, the
points each final place of an event earns, how many of a player's events count (best *k* of *n*),
how many players qualify, and the tie-breaks after the counted points. An event's final places are
its final's ranking for the finalists (Ludolimpico) and its standings for everybody else; players
who share a place in a final share the points of the places they hold, equally.

Players are matched across events by their player profile when linked to one, else by name and
tag (:func:`agon.ratings.player_key`).
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from agon.errors import InvalidInput
from agon.ratings import PlayerKey, player_key
from agon.tournament.event import Event
from agon.tournament.ruleset import Ruleset
from agon.tournament.scoring import score_table
from agon.tournament.standings import compute_standings

#: The series tie-breaks after the counted points, in the order a series lists them.
SERIES_TIE_BREAKERS: dict[str, str] = {
    "best-place": "the better best place in a single event",
    "all-points": "the points of every event, counted or not",
    "events": "more events played",
    "lot": "lot drawn from the series' seed",
}

_KEYS = {"name", "seed", "best", "qualify", "points", "tie_breaks", "events"}
_EVENT_KEYS = {"name", "file", "tournament", "points"}


@dataclass(frozen=True, slots=True)
class SeriesEvent:
    """One event of a series: an event file (relative to the series file) or a tournament in the
    database, with its own points table when it weighs differently."""

    name: str | None
    file: str | None
    tournament: str | None
    points: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Series:
    """A series as its file defines it."""

    name: str
    seed: str
    best: int | None
    qualify: int
    points: tuple[int, ...]
    tie_breaks: tuple[str, ...]
    events: tuple[SeriesEvent, ...]


def _int_list(value: Any, where: str) -> tuple[int, ...]:
    if (
        not isinstance(value, list)
        or not value
        or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000 for v in value
        )
    ):
        raise InvalidInput(f"{where}: must be a non-empty list of whole numbers 0…10000")
    return tuple(value)


def parse_series(text: str, *, origin: str = "<series>") -> Series:
    """Read a series file.

    Raises:
        InvalidInput: malformed TOML or a field that does not fit, naming the file and field.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidInput(f"{origin}: malformed TOML: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise InvalidInput(
            f"{origin}: unknown field {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})"
        )
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(f"{origin}: field 'name': the series needs a name")
    seed = data.get("seed", name)
    if not isinstance(seed, str):
        raise InvalidInput(f"{origin}: field 'seed': must be a string")
    best = data.get("best")
    if best is not None and (not isinstance(best, int) or isinstance(best, bool) or best < 1):
        raise InvalidInput(f"{origin}: field 'best': must be a whole number ≥ 1 (best k events)")
    qualify = data.get("qualify", 0)
    if not isinstance(qualify, int) or isinstance(qualify, bool) or qualify < 0:
        raise InvalidInput(f"{origin}: field 'qualify': must be a whole number ≥ 0")
    points = _int_list(data.get("points"), f"{origin}: field 'points'")
    ties = data.get("tie_breaks", ["best-place", "events", "lot"])
    if not isinstance(ties, list) or not all(isinstance(t, str) for t in ties):
        raise InvalidInput(f"{origin}: field 'tie_breaks': must be a list of names")
    for t in ties:
        if t not in SERIES_TIE_BREAKERS:
            known = ", ".join(SERIES_TIE_BREAKERS)
            raise InvalidInput(f"{origin}: field 'tie_breaks': unknown {t!r} (known: {known})")
    raw_events = data.get("events")
    if not isinstance(raw_events, list) or not raw_events:
        raise InvalidInput(f"{origin}: field 'events': list at least one [[events]] entry")
    events = []
    for i, raw in enumerate(raw_events, start=1):
        at = f"{origin}: event {i}"
        if not isinstance(raw, dict):
            raise InvalidInput(f"{at}: must be a table ([[events]])")
        unknown = sorted(set(raw) - _EVENT_KEYS)
        if unknown:
            raise InvalidInput(f"{at}: unknown field {unknown[0]!r}")
        file, tournament = raw.get("file"), raw.get("tournament")
        if (file is None) == (tournament is None):
            raise InvalidInput(f"{at}: give either 'file' (an event file) or 'tournament' (a slug)")
        for key, value in (("file", file), ("tournament", tournament), ("name", raw.get("name"))):
            if value is not None and (not isinstance(value, str) or not value.strip()):
                raise InvalidInput(f"{at}: field {key!r}: must be a non-empty string")
        own = raw.get("points")
        events.append(
            SeriesEvent(
                name=raw.get("name"),
                file=file,
                tournament=tournament,
                points=None if own is None else _int_list(own, f"{at}: field 'points'"),
            )
        )
    return Series(name, seed, best, qualify, points, tuple(ties), tuple(events))


@dataclass(frozen=True, slots=True)
class EventPlace:
    """A player's final place in one event and the series points it earns."""

    event: str
    place: int
    points: Fraction
    counted: bool = False


def event_places(event: Event, ruleset: Ruleset) -> list[tuple[str, int, int]]:
    """``(player, place, tied)`` for everybody in the event: finalists by the final's ranking
    (``tied`` players share a place), then the others by the qualifying standings."""
    final = next((r for r in event.rounds if r.final and r.tables), None)
    out: list[tuple[str, int, int]] = []
    if final is not None:
        scored = score_table(ruleset, final.tables[0].results)
        out = [
            (seat.player, int(seat.place or 0), seat.tied)
            for seat in scored.seats
            if seat.player is not None
        ]
    finalists = {p for p, _place, _tied in out}
    rest = [
        row.player for row in compute_standings(event, ruleset).rows if row.player not in finalists
    ]
    out += [(p, len(finalists) + i, 1) for i, p in enumerate(rest, start=1)]
    return out


def _points_for(table: Sequence[int], place: int, tied: int) -> Fraction:
    """Tied players share the points of the places they hold (``place`` … ``place+tied−1``)."""
    held = [table[p - 1] if p <= len(table) else 0 for p in range(place, place + max(tied, 1))]
    return Fraction(sum(held), len(held))


@dataclass(frozen=True, slots=True)
class SeriesRow:
    """One row of the series standings; ``decided_by`` is ``None`` for the first row."""

    rank: int
    player: PlayerKey
    points: Fraction
    events: tuple[EventPlace, ...]
    qualified: bool
    decided_by: str | None
    tiebreaks: Mapping[str, Fraction | int]

    def as_json(self) -> dict[str, Any]:
        """The row as plain values; ``profile`` only for a player linked to a profile."""
        out: dict[str, Any] = {
            "rank": self.rank,
            "player": str(self.player),
            "points": _num(self.points),
            "qualified": self.qualified,
            "decided_by": self.decided_by,
            "reason": reason(self),
            "tiebreaks": {k: _num(v) for k, v in self.tiebreaks.items()},
            "events": [
                {"event": e.event, "place": e.place, "points": _num(e.points), "counted": e.counted}
                for e in self.events
            ],
        }
        if self.player.profile:
            out["profile"] = self.player.profile
        return out


def _num(value: Fraction | int) -> int | float:
    value = Fraction(value)
    return int(value) if value.denominator == 1 else round(float(value), 4)


def series_lot(seed: str, player: PlayerKey) -> int:
    """The series lot: a number from the seed and the player; the smaller is placed first."""
    digest = hashlib.sha256(f"agon-series-lot\x00{seed}\x00{player}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _value(
    series: Series, criterion: str, player: PlayerKey, places: Sequence[EventPlace]
) -> Fraction | int:
    if criterion == "best-place":
        return -min(e.place for e in places)  # larger is better
    if criterion == "all-points":
        return sum((e.points for e in places), Fraction(0))
    if criterion == "events":
        return len(places)
    return -series_lot(series.seed, player)


def compute_series(
    series: Series, events: Sequence[tuple[Event, Ruleset]]
) -> tuple[SeriesRow, ...]:
    """The series standings: counted points (best ``k`` events), then the series' tie-breaks.

    ``events`` are the loaded events in the order of ``series.events``.
    """
    if len(events) != len(series.events):
        raise InvalidInput(
            f"series {series.name!r}: {len(series.events)} events listed, {len(events)} given"
        )
    labels = [
        spec.name or event.name for spec, (event, _r) in zip(series.events, events, strict=True)
    ]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise InvalidInput(
            f"series {series.name!r}: two events are both called {twice[0]!r}; give one a "
            "'name' in the series file"
        )
    results: dict[PlayerKey, list[EventPlace]] = {}
    for spec, (event, ruleset) in zip(series.events, events, strict=True):
        table = spec.points or series.points
        keys = {p.name: player_key(p.name, p.extra) for p in event.players}
        label = spec.name or event.name
        for player, place, tied in event_places(event, ruleset):
            key = keys[player]
            if any(e.event == label for e in results.get(key, [])):
                raise InvalidInput(
                    f"series {series.name!r}: event {label!r} lists {str(key)!r} twice (two "
                    "entries with the same name and tag)"
                )
            results.setdefault(key, []).append(
                EventPlace(label, place, _points_for(table, place, tied))
            )
    scored = []
    for key, places in results.items():
        order = sorted(range(len(places)), key=lambda i: (-places[i].points, i))
        counted = set(order[: series.best] if series.best else order)
        marked = tuple(
            EventPlace(e.event, e.place, e.points, i in counted) for i, e in enumerate(places)
        )
        total = sum((e.points for e in marked if e.counted), Fraction(0))
        values = {c: _value(series, c, key, marked) for c in series.tie_breaks}
        scored.append((key, total, marked, values))
    scored.sort(key=lambda s: (-s[1], *(-s[3][c] for c in series.tie_breaks), s[0]))
    rows = []
    previous: tuple[Fraction, Mapping[str, Fraction | int]] | None = None
    for rank, (key, total, marked, values) in enumerate(scored, start=1):
        decided_by = None
        if previous is not None:
            if previous[0] != total:
                decided_by = "points"
            else:
                decided_by = next(
                    (c for c in series.tie_breaks if previous[1][c] != values[c]), "name"
                )
        shown = {c: _shown(c, v) for c, v in values.items() if c != "lot"}
        rows.append(SeriesRow(rank, key, total, marked, rank <= series.qualify, decided_by, shown))
        previous = (total, values)
    return tuple(rows)


def _shown(criterion: str, value: Fraction | int) -> Fraction | int:
    return -value if criterion == "best-place" else value


def reason(row: SeriesRow) -> str:
    """Why the row stands below the one before it, in words."""
    if row.decided_by is None:
        return "first: most counted points"
    if row.decided_by == "points":
        return "fewer counted points"
    if row.decided_by == "name":
        return "equal on everything the series lists; ordered by name"
    return f"equal counted points; decided by {SERIES_TIE_BREAKERS[row.decided_by]}"


def describe(series: Series) -> Mapping[str, Any]:
    """The rules of the series in plain values (for the JSON output and the web page)."""
    return {
        "name": series.name,
        "best": series.best,
        "qualify": series.qualify,
        "points": list(series.points),
        "tie_breaks": list(series.tie_breaks),
    }
