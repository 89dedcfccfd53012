"""``agon standings`` and ``agon validate``: score an event file or just check it."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from agon.commands._json import echo_json, json_option
from agon.tournament.bulk import (
    EventStandings,
    StandingsColumns,
    standings_columns,
    standings_of_file,
)
from agon.tournament.event import load_event, read_event_data
from agon.tournament.standings import Standings, format_value


@contextmanager
def paused_gc() -> Iterator[None]:
    """The garbage collector off for the block (on again after it, if it was on)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _number(value: Fraction | int) -> float | int:
    return value if isinstance(value, int) else float(value)


def standings_json(standings: Standings) -> dict[str, Any]:
    """The ``--json`` document: ruleset, then one object per row (rank, player, points, …)."""
    return {
        "ruleset": standings.ruleset.name,
        "standings": [
            {
                "rank": row.rank,
                "player": row.player,
                "points": float(row.totals.points),
                "tiebreaks": {k: _number(v) for k, v in row.tiebreaks.items()},
                "decided_by": row.decided_by,
                **({"notes": list(row.notes)} if row.notes else {}),
            }
            for row in standings.rows
        ],
    }


def standings_table(standings: Standings, title: str) -> str:
    """A readable table: rank, player, points, each tie-break, games, and what decided the place."""
    rows = standings.rows
    criteria = list(rows[0].tiebreaks) if rows else []
    columns = [
        [str(row.rank) for row in rows],
        [row.player for row in rows],
        _texts([row.totals.points for row in rows], "points"),
        *(_texts([row.tiebreaks[c] for row in rows], c) for c in criteria),
        [str(row.totals.games) for row in rows],
        [row.decided_by or "" for row in rows],
    ]
    notes = [f"{row.player}: {note}" for row in rows for note in row.notes]
    return _layout(title, criteria, columns, notes)


def columns_table(columns: StandingsColumns) -> str:
    """:func:`standings_table` of the standings the compiled core ordered
    (:func:`agon.tournament.bulk.standings_columns`), with the same title as ``agon standings``
    prints: the same text, from the columns (a property test compares the two)."""
    criteria = list(columns.tiebreaks)
    scale = columns.scale
    texts = [
        [str(rank) for rank in range(1, len(columns.players) + 1)],
        columns.players,
        _point_texts(columns.points, scale),
        *(
            _point_texts(values, scale)  # type: ignore[arg-type]
            if c == "points"
            else list(map("{:.4f}".format, values))
            if c == "share"
            else list(map(str, values))
            for c, values in columns.tiebreaks.items()
        ),
        list(map(str, columns.games)),
        [d or "" for d in columns.decided_by],
    ]
    return _layout(_title(columns), criteria, texts, [])


def _title(result: StandingsColumns | EventStandings) -> str:
    return f"{result.name} — {result.ruleset.title_in('en')}, {result.rounds} round(s)"


def _point_texts(scaled: list[int], scale: int) -> list[str]:
    """Rank points kept times ``scale`` as :func:`format_value` writes ``Fraction(p, scale)``."""
    shown: dict[int, str] = {}
    out = []
    for p in scaled:
        text = shown.get(p)
        if text is None:
            # p / scale is float(Fraction(p, scale)): both round the exact quotient
            exact = p % scale == 0
            text = str(p // scale) if exact else f"{p / scale:.2f}".rstrip("0").rstrip(".")
            shown[p] = text
        out.append(text)
    return out


def _layout(title: str, criteria: list[str], columns: list[list[str]], notes: list[str]) -> str:
    """The table under ``title``: a header, a rule, one line per row (numbers right-aligned,
    text left-aligned, as rjust/ljust would pad), then the notes."""
    header = ["#", "player", "points", *criteria, "games", "decided by"]
    n = len(columns[0])
    widths = [
        max(len(h), *map(len, col)) if n else len(h) for h, col in zip(header, columns, strict=True)
    ]
    numeric = {0, 2, *range(3, 3 + len(criteria) + 1)}
    # one format per line (right-aligned numbers, left-aligned text), as rjust/ljust would pad
    template = "  ".join(f"{{:{'>' if i in numeric else '<'}{w}}}" for i, w in enumerate(widths))

    def fmt(cells: Iterable[str]) -> str:
        return template.format(*cells).rstrip()

    out = [
        title,
        fmt(header),
        fmt(["-" * w for w in widths]),
        *map(fmt, zip(*columns, strict=True)),
    ]
    if notes:
        out += ["", *notes]
    return "\n".join(out)


def _texts(values: list[Fraction | int], criterion: str) -> list[str]:
    """Each value of one criterion as :func:`format_value` writes it; a fraction object that
    recurs (equal points are one object) is formatted once."""
    shown: dict[int, str] = {}
    out = []
    for v in values:
        if type(v) is int:
            out.append(str(v))
            continue
        text = shown.get(id(v))
        if text is None:
            text = shown[id(v)] = format_value(v, criterion)
        out.append(text)
    return out


@click.command("standings")
@click.argument("event_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option(
    "--explain",
    nargs=2,
    metavar="PLAYER PLAYER",
    help="Say in one sentence why one player stands above the other.",
)
def standings_command(event_file: Path, as_json: bool, explain: tuple[str, str] | None) -> None:
    """Print the standings of EVENT_FILE by its ruleset."""
    with paused_gc():  # a big file builds many objects, all kept: collecting finds nothing
        if not explain and not as_json:
            text = table_of_file(event_file)
            if text is not None:
                click.echo(text)
                return
        result = standings_of_file(event_file)
    standings = result.standings
    if explain:
        click.echo(standings.explain(*explain))
    elif as_json:
        click.echo(json.dumps(standings_json(standings), ensure_ascii=False, indent=2))
    else:
        click.echo(standings_table(standings, _title(result)))


def table_of_file(path: Path) -> str | None:
    """The printed standings of the event file ``path`` by the compiled core's one pass
    (:func:`agon.tournament.bulk.standings_columns`), or ``None`` where it does not apply.

    Raises:
        InvalidInput: the file cannot be read, or its header is wrong (named as the full reader
            names it).
    """
    data = read_event_data(path)
    columns = standings_columns(data, origin=str(path), base_dir=path.parent)
    return None if columns is None else columns_table(columns)


@click.command("validate")
@click.argument("event_file", type=click.Path(dir_okay=False, path_type=Path))
@json_option
def validate_command(event_file: Path, as_json: bool) -> None:
    """Check EVENT_FILE (format, players, table sizes, ruleset) without scoring it."""
    event, ruleset = load_event(event_file)
    tables = sum(len(r.tables) for r in event.rounds)
    if as_json:
        echo_json(
            {
                "file": str(event_file),
                "ok": True,
                "event": event.name,
                "ruleset": ruleset.name,
                "players": len(event.players),
                "rounds": len(event.rounds),
                "tables": tables,
            }
        )
        return
    click.echo(
        f"{event_file}: ok — {len(event.players)} players, {len(event.rounds)} round(s), "
        f"{tables} table(s), ruleset {ruleset.name!r}"
    )
