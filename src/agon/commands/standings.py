"""``agon standings`` and ``agon validate``: score an event file or just check it."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from agon.commands._json import echo_json, json_option
from agon.commands._read_text import standings_table as standings_table  # re-exported
from agon.commands._standings_text import paused_gc, table_of_file, title_of
from agon.tournament.bulk import standings_of_file
from agon.tournament.event import load_event
from agon.tournament.standings import Standings


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
        click.echo(standings_table(standings, title_of(result)))


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
