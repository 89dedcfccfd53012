"""The director's reads without SQLAlchemy or click: ``agon tournament list``, ``agon round show
[NUMBER]`` and ``agon tournament standings`` on a SQLite database (issue 30).

Importing SQLAlchemy's ORM costs more CPU than these commands need for all the rest, so
:mod:`agon.launch` asks :func:`answer` first. It reads the database through
:class:`agon.store.snapshot.Snapshot` and prints through the very functions the click commands
use (:mod:`agon.services.views`, :mod:`agon.commands._read_text`): the same text byte for byte.
Wherever it is not sure to print what the command would — another database than a plain SQLite
file, one not migrated to this package's head, an option it does not know, no such tournament or
round, any error, a round with an auction or played online, a podium decided by a final — it
answers ``None`` having printed nothing, and the command runs as always (its own messages, exit
codes and, for PostgreSQL, SQLAlchemy).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from agon.store.snapshot import Snapshot, TournamentSnap, sqlite_path

#: :data:`agon.store.db.DEFAULT_URL` (not imported: that module imports SQLAlchemy).
DEFAULT_URL = "sqlite:///./var/agon.db"
#: :data:`agon.tournament.limits.NUMBER_MAX`: the highest round number.
_NUMBER_MAX = 10_000


def tournament_line(slug: str, name: str, ruleset: str, players: int, rounds: int) -> str:
    """One tournament as ``agon tournament list`` prints it (the click command prints it so too)."""
    return f"{slug}\t{name}\t{ruleset}\t{players} players\t{rounds} rounds"


@dataclass(frozen=True, slots=True)
class Read:
    """A read command as typed: which one, ``-t`` (or ``None``), the round's number."""

    command: str  # "list", "round", "standings"
    tournament: str | None = None
    number: int | None = None


def parse(args: list[str]) -> Read | None:
    """The read command ``args`` asks for, if it is one of the plain forms handled here."""
    if args == ["tournament", "list"]:
        return Read("list")
    if args[:2] == ["round", "show"]:
        command, rest = "round", args[2:]
    elif args[:2] == ["tournament", "standings"]:
        command, rest = "standings", args[2:]
    else:
        return None
    tournament: str | None = None
    number: int | None = None
    while rest:
        word = rest.pop(0)
        if word in ("-t", "--tournament") and rest and tournament is None:
            tournament = rest.pop(0)
            if not tournament or tournament.startswith("-") or not tournament.isprintable():
                return None
        elif command == "round" and number is None and word.isascii() and word.isdigit():
            number = int(word)
            if not 1 <= number <= _NUMBER_MAX:
                return None
        else:
            return None
    return Read(command, tournament, number)


def answer(args: list[str], environ: Mapping[str, str] | None = None) -> str | None:
    """What ``agon ARGS`` prints (every line with its newline), or ``None``: run the command."""
    read = parse(args)
    if read is None:
        return None
    env = os.environ if environ is None else environ
    path = sqlite_path(env.get("AGON_DATABASE_URL") or DEFAULT_URL)
    if path is None or not path.is_file() or path.stat().st_mode & 0o077:
        return None  # none there (an error to say), or its mode to narrow: the command does it
    with Snapshot(path) as snap:
        if not snap.current():
            return None  # to be migrated (or newer than this agon): the command does it
        if read.command == "list":
            return "".join(
                tournament_line(t.slug, t.name, t.ruleset_ref, t.players, t.rounds) + "\n"
                for t in snap.tournament_list()
            )
        slug = read.tournament
        if slug is None and "AGON_TOURNAMENT" in env:
            slug = env["AGON_TOURNAMENT"] or None
            if slug is None:
                return None  # click's rules for an empty variable: leave them to click
        slug = slug or snap.default_tournament()
        row = None if slug is None else snap.tournament(slug)
    if row is None:
        return None  # the command names the problem
    if read.command == "round":
        return _round(row, read.number)
    return _standings(row)


def _round(row: TournamentSnap, number: int | None) -> str | None:
    """``agon round show [NUMBER]`` of a round without an auction, not played online."""
    from agon.commands._read_text import describe_round
    from agon.services.views import round_to_public, ruleset_of

    if ruleset_of(row).auction or not row.rounds:
        return None
    found = [r for r in row.rounds if number is None or r.number == number]
    if not found:
        return None
    rnd = found[-1]
    if isinstance((rnd.info or {}).get("online"), dict):
        return None
    return describe_round(round_to_public(rnd)) + "\n"


def _standings(row: TournamentSnap) -> str | None:
    """``agon tournament standings`` unless a final's own ranking makes the podium."""
    from agon.commands._read_text import standings_table
    from agon.services.views import (
        describe_status,
        event_of_row,
        needs_final_ranking,
        ruleset_of,
        status_of_row,
    )
    from agon.tournament.standings import compute_standings

    if needs_final_ranking(row):
        return None
    result = compute_standings(event_of_row(row), ruleset_of(row))
    if not result.rows:
        return "no players registered yet\n"
    status = status_of_row(row, result.rows if row.players else (), _no_final)
    lines = [standings_table(result, f"{row.name} — {status.caption}"), *describe_status(status)]
    return "".join(line + "\n" for line in lines)


def _no_final() -> tuple[()]:
    raise AssertionError("needs_final_ranking said no")  # pragma: no cover
