"""``agon schedule``: print a pre-planned schedule with its draws, as a table or as JSON.

The JSON document (the file ``agon verify`` checks)::

    {"agon": VERSION, "ruleset": NAME, "seating": "schedule", "plan_version": 4,
     "commitment": SHA256-OF-SEED,
     "players": [...],
     "rounds": [{"round": 1, "wonders": [...], "guilds": [...], "sides": {...} | null,
                 "tables": [{"seats": ["P01", ...]}]}],
     "report": {"repeats": ..., "lower_bound": ..., ...}}
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from agon import __version__
from agon.commands.progress import progress
from agon.errors import InvalidInput
from agon.tournament.draws import GUILD_DATA, WONDER_DATA, commitment
from agon.tournament.limits import PLAYERS_MAX, ROUNDS_MAX
from agon.tournament.names import check_name
from agon.tournament.ruleset import Ruleset, load_ruleset
from agon.tournament.safeload import read_text
from agon.tournament.seating import PLAN_VERSION, RoundPlan, Schedule, plan_schedule

_WONDER_NAMES = {w.id: w for w in WONDER_DATA}
#: Rooms up to this size are planned in well under a second: no progress bar.
PROGRESS_MIN_PLAYERS = 40
_GUILD_NAMES = {g.id: g for g in GUILD_DATA}


def round_json(plan: RoundPlan) -> dict[str, Any]:
    """One round as JSON: number, wonders, guilds, sides, tables (seat order, start first)."""
    return {
        "round": plan.number,
        "wonders": list(plan.wonders),
        "guilds": list(plan.guilds),
        "sides": dict(plan.sides) if plan.sides is not None else None,
        "tables": [{"seats": list(t.seats)} for t in plan.tables],
    }


def schedule_json(schedule: Schedule, *, ruleset: Ruleset, seed: str) -> dict[str, Any]:
    """The ``agon schedule --json`` document (see the module docstring)."""
    players = sorted(p for t in schedule.rounds[0].tables for p in t.seats)
    report = schedule.report
    return {
        "agon": __version__,
        "ruleset": ruleset.name,
        "seating": "schedule",
        "plan_version": PLAN_VERSION,
        "commitment": commitment(seed),
        "players": players,
        "rounds": [round_json(plan) for plan in schedule.rounds],
        "report": {
            "repeats": report.repeats,
            "lower_bound": report.lower_bound,
            "neighbour_repeats": report.neighbour_repeats,
            "wonder_repeats": report.wonder_repeats,
            "wonder_lower_bound": report.wonder_lower_bound,
            "start_spread": report.start_spread,
            "seat_repeats": report.seat_repeats,
            "notes": list(report.notes),
        },
    }


def schedule_text(schedule: Schedule, *, ruleset: Ruleset, language: str = "en") -> str:
    """A readable schedule: per round the draws, then each table's seats (start player first)."""
    lines = [f"{ruleset.title_in(language)} — {len(schedule.rounds)} round(s)"]
    for plan in schedule.rounds:
        wonders = ", ".join(_WONDER_NAMES[w].name_in(language) for w in plan.wonders)
        guilds = ", ".join(_GUILD_NAMES[g].name_in(language) for g in plan.guilds)
        lines += ["", f"Round {plan.number}", f"  wonders (drawn order): {wonders}"]
        lines.append(f"  guilds (a table of k uses the first k+2): {guilds}")
        if plan.sides is not None:
            sides = ", ".join(
                f"{_WONDER_NAMES[w].name_in(language)} {s}" for w, s in plan.sides.items()
            )
            lines.append(f"  sides: {sides}")
        for number, table in enumerate(plan.tables, start=1):
            if ruleset.auction:
                seats = " · ".join(table.seats)
            else:
                seats = " · ".join(
                    f"{p} ({_WONDER_NAMES[plan.wonders[k]].name_in(language)})"
                    for k, p in enumerate(table.seats)
                )
            lines.append(f"  table {number}: {seats}   [start: {table.seats[0]}]")
    report = schedule.report
    lines += [
        "",
        f"repeat encounters: {report.repeats} (lower bound {report.lower_bound}); "
        f"repeated neighbours: {report.neighbour_repeats}; wonders played twice: "
        f"{report.wonder_repeats}; start counts differ by at most {report.start_spread}",
    ]
    lines += [f"note: {note}" for note in report.notes]
    return "\n".join(lines)


def read_players_file(path: Path) -> list[str]:
    """One name per line; blank lines and lines starting with ``#`` are skipped.

    Raises:
        InvalidInput: an unreadable file.
    """
    text = read_text(path, what="players file")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def numbered_players(count: int) -> list[str]:
    """P01, P02, … (three digits from 100 players on)."""
    width = max(2, len(str(count)))
    return [f"P{i:0{width}d}" for i in range(1, count + 1)]


@click.command("schedule")
@click.option(
    "--players",
    "count",
    type=click.IntRange(2, PLAYERS_MAX),
    help=f"Number of players, named P01, P02, … (at most {PLAYERS_MAX:,}).",
)
@click.option(
    "--players-file",
    type=click.Path(dir_okay=False, path_type=Path),
    help="File with one player name per line.",
)
@click.option(
    "--rounds",
    type=click.IntRange(1, ROUNDS_MAX),
    help=f"Number of rounds (default: the ruleset's; at most {ROUNDS_MAX}).",
)
@click.option("--seed", required=True, help="The tournament seed every draw derives from.")
@click.option("--ruleset", "ruleset_name", default="bonn-2018", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the schedule as JSON.")
@click.option("--lang", default="en", type=click.Choice(["en", "de", "it"]), show_default=True)
def schedule_command(
    count: int | None,
    players_file: Path | None,
    rounds: int | None,
    seed: str,
    ruleset_name: str,
    as_json: bool,
    lang: str,
) -> None:
    """Plan every round before the first (Bonn: "vorher festgelegter Spielplan")."""
    if (count is None) == (players_file is None):
        raise InvalidInput("give exactly one of --players N and --players-file FILE")
    players = numbered_players(count) if count is not None else read_players_file(players_file)  # type: ignore[arg-type]
    if len(players) > PLAYERS_MAX:
        raise InvalidInput(f"{players_file}: {len(players):,} players, at most {PLAYERS_MAX:,}")
    for name in players:
        check_name(name, what=f"{players_file}: player name")
    ruleset = load_ruleset(ruleset_name)
    # a bar on a terminal for rooms that take a while (docs/cli.md, "Progress on long work")
    quiet = as_json or len(players) <= PROGRESS_MIN_PLAYERS
    with progress(1000, "planning", quiet=quiet) as tick:
        schedule = plan_schedule(
            players,
            rounds=rounds if rounds is not None else ruleset.rounds,
            seed=seed,
            ruleset=ruleset,
            on_progress=tick.callback(),
        )
    # warnings after planning, so that a refused schedule is one line
    if not ruleset.min_players <= len(players) <= ruleset.max_players:
        click.echo(
            f"agon: warning: ruleset {ruleset.name!r} is for {ruleset.min_players}–"
            f"{ruleset.max_players} players, scheduling {len(players)}",
            err=True,
        )
    if ruleset.seating == "swiss":
        click.echo(
            f"agon: note: ruleset {ruleset.name!r} seats rounds after the first by standings "
            "(Swiss); this pre-planned schedule does not",
            err=True,
        )
    if as_json:
        doc = schedule_json(schedule, ruleset=ruleset, seed=seed)
        click.echo(json.dumps(doc, ensure_ascii=False, indent=2))
    else:
        click.echo(schedule_text(schedule, ruleset=ruleset, language=lang))
