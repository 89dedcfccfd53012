"""``agon result …``: enter, correct and confirm a table's results.

A result is ``NAME=VP`` followed by ``,KEY=VALUE`` parts: ``coins``, ``bid``, ``wonder`` (the board,
by name), ``side`` and the score-pad categories (``military``, ``treasury``, ``wonder``…, or their
first three letters; ``wonder=`` with a number is the score pad's wonder points), e.g.
``"Anna=52,coins=3,mil=10,tre=1,won=7,civ=15,com=5,gui=6,sci=8"``. ``NAME=left`` records a player
who left during the game (Ludolimpico 2.5): no score, the table is scored without him. Plausibility warnings (a score
that looks like a typo) go to stderr; the result is stored all the same.
"""

from __future__ import annotations

import click

from agon.commands._common import actor_option, open_session, resolve, tournament_option
from agon.commands._json import echo_json, json_option
from agon.commands.round import auction_seed, describe_round, round_json
from agon.services import results, rounds
from agon.services.public import TablePublic
from agon.services.schemas import ResultIn


def _warn(t: TablePublic) -> None:
    """Plausibility warnings, on stderr: the result is stored, but look at the sheet again."""
    for warning in t.warnings:
        click.echo(f"agon: warning: round {t.round}, table {t.number}: {warning}", err=True)


def _where(fn: click.decorators.FC) -> click.decorators.FC:
    fn = click.option("--table", "table", type=int, required=True, help="Table number.")(fn)
    return click.option(
        "-r", "--round", "round_number", type=int, required=True, help="Round number."
    )(fn)


@click.group("result")
def result_group() -> None:
    """Enter, correct and confirm results per table."""


@result_group.command("enter")
@_where
@click.argument("entries", nargs=-1, required=True, metavar="NAME=VP[,coins=C,…]…")
@tournament_option
@actor_option
def enter_command(
    round_number: int, table: int, entries: tuple[str, ...], tournament: str | None, actor: str
) -> None:
    """Enter a table's results: one NAME=VP,… per seated player, e.g.
    "Anna=52,coins=3,mil=10,tre=1,won=7,civ=15,com=5,gui=6,sci=8".

    \b
    Keys after NAME=VP:
      coins=N            coins at the end (required by bonn-2018)
      bid=N              VP bid in the auction (filled in from it)
      wonder=NAME        the wonder board: alexandria, babylon, ephesos,
                         gizah, halikarnassos, olympia, rhodos
      side=A|B           the wonder's side
      military=N  mil=N  score-pad points; give all you have, they
      treasury=N  tre=N  must add up to the VP (missing ones count 0)
      wonder=N    won=N  (a number after wonder= is these points)
      civilian=N  civ=N
      commercial=N com=N
      guilds=N    gui=N
      science=N   sci=N

    \b
    A player who left during the game (Ludolimpico 2.5) has no score:
    NAME=left (with bid= and wonder= of the auction, nothing else);
    the table is scored without him, the standings say so.
    """
    parsed = [ResultIn.parse(e) for e in entries]
    with open_session() as session:
        t = results.enter_result(
            session,
            tournament=resolve(session, tournament),
            round_number=round_number,
            table=table,
            results=parsed,
            actor=actor,
        )
    click.echo(f"round {round_number}, table {table}: {t.state}, version {t.version}")
    _warn(t)


@result_group.command("correct")
@_where
@click.option(
    "--expect-version",
    "version",
    type=int,
    required=True,
    metavar="VERSION",
    help="The version you are correcting (see 'agon round show').",
)
@click.argument("entries", nargs=-1, required=True, metavar="NAME=VP[,coins=C,…]…")
@tournament_option
@actor_option
def correct_command(
    round_number: int,
    table: int,
    version: int,
    entries: tuple[str, ...],
    tournament: str | None,
    actor: str,
) -> None:
    """Correct a table's results (same keys as 'agon result enter'); refused if someone changed
    it since --expect-version."""
    parsed = [ResultIn.parse(e) for e in entries]
    with open_session() as session:
        t = results.enter_result(
            session,
            tournament=resolve(session, tournament),
            round_number=round_number,
            table=table,
            results=parsed,
            actor=actor,
            expected_version=version,
        )
    click.echo(f"round {round_number}, table {table}: corrected, {t.state}, version {t.version}")
    _warn(t)


@result_group.command("confirm")
@_where
@click.option(
    "--player",
    "players",
    multiple=True,
    help="Who confirms (repeat); none: the director confirms for everyone.",
)
@click.option(
    "--expect-version",
    "version",
    type=int,
    metavar="VERSION",
    help="Only if the result is still this version.",
)
@tournament_option
@actor_option
def confirm_command(
    round_number: int,
    table: int,
    players: tuple[str, ...],
    version: int | None,
    tournament: str | None,
    actor: str,
) -> None:
    """Confirm a table's result (the signed score sheet)."""
    with open_session() as session:
        t = results.confirm_result(
            session,
            tournament=resolve(session, tournament),
            round_number=round_number,
            table=table,
            actor=actor,
            players=players,
            expected_version=version,
        )
    waiting = [r.player for r in t.results if not r.confirmed]
    more = f"; waiting for {', '.join(waiting)}" if waiting else ""
    click.echo(f"round {round_number}, table {table}: {t.state}{more}")


@result_group.command("show")
@click.option("-r", "--round", "round_number", type=int, help="Round (default: the latest).")
@tournament_option
@json_option
def show_command(round_number: int | None, tournament: str | None, as_json: bool) -> None:
    """Show a round's results."""
    with open_session() as session:
        slug = resolve(session, tournament)
        r = rounds.get_round(session, tournament=slug, number=round_number)
        seed = auction_seed(session, slug)
    if as_json:
        echo_json(round_json(slug, r))
        return
    click.echo(describe_round(r, auction_seed=seed))
