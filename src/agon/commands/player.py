"""``agon player …``: register (one or a CSV), fee, check-in, drop/withdraw/expel, warn, penalize."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from agon.commands._common import (
    actor_option,
    dry_run_option,
    echo_preview,
    open_session,
    resolve,
    tournament_option,
)
from agon.commands._json import echo_json, json_option, jsonable
from agon.errors import InvalidInput
from agon.services import players
from agon.services.schemas import PlayerCreate, PlayerPublic

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def _line(p: PlayerPublic) -> str:
    flags = [
        "paid" if p.fee_paid else "unpaid",
        "checked in" if p.checked_in else "not checked in",
    ]
    if p.late:
        flags.append("late entry")
    if p.status != "active":
        flags.append(f"{p.status} after round {p.status_round}")
    if p.sanctions:
        kinds = [s.kind for s in p.sanctions]
        flags.append(", ".join(f"{kinds.count(k)} {k}(s)" for k in sorted(set(kinds))))
    return f"{p.name}  [{'; '.join(flags)}]"


def _extra(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq or not key.strip():
            raise InvalidInput(f"--extra {pair!r}: use KEY=VALUE, e.g. club=Spielwiese")
        out[key.strip()] = value.strip()
    return out


@click.group("player")
def player_group() -> None:
    """Register players and record fees, check-in, drops and sanctions."""


@player_group.command("add")
@click.argument("name")
@click.option("--tag", help="Tells apart two players of the same name (club, city…).")
@click.option("--paid", is_flag=True, help="The entry fee is paid.")
@click.option("--extra", multiple=True, metavar="KEY=VALUE", help="More data (club, city, id…).")
@tournament_option
@actor_option
def add_command(
    name: str,
    tag: str | None,
    paid: bool,
    extra: tuple[str, ...],
    tournament: str | None,
    actor: str,
) -> None:
    """Register player NAME (after round 1 has started: a late entry)."""
    with open_session() as session:
        p = players.register_player(
            session,
            tournament=resolve(session, tournament),
            data=PlayerCreate(name=name, tag=tag, extra=_extra(extra), fee_paid=paid),
            actor=actor,
        )
    click.echo("registered " + _line(p))


#: The most a players file (CSV) may hold: a thousand players with long names and a few extra
#: columns stay under a tenth of it.
PLAYERS_FILE_BYTES = 4 * 1024 * 1024


@player_group.command("import")
@click.argument("csv_file", type=click.Path(dir_okay=False, path_type=Path))
@tournament_option
@actor_option
def import_command(csv_file: Path, tournament: str | None, actor: str) -> None:
    """Register every player of CSV_FILE (columns: name, tag, fee_paid, any others) — all or none."""
    from agon.tournament.safeload import read_text

    text = read_text(csv_file, what="players file", limit=PLAYERS_FILE_BYTES)
    data = players.parse_players_csv(text, origin=str(csv_file))
    with open_session() as session:
        done = players.import_players(
            session, tournament=resolve(session, tournament), players=data, actor=actor
        )
    click.echo(f"registered {len(done)} players from {csv_file}")


@player_group.command("list")
@tournament_option
@json_option
def list_command(tournament: str | None, as_json: bool) -> None:
    """List the players with fee, check-in and status."""
    with open_session() as session:
        slug = resolve(session, tournament)
        found = players.list_players(session, tournament=slug)
    if as_json:
        echo_json({"tournament": slug, "players": jsonable(found)})
        return
    for p in found:
        click.echo(_line(p))


@player_group.command("fee")
@click.argument("names", nargs=-1, required=True)
@click.option("--unpaid", is_flag=True, help="Record the fee as not paid.")
@tournament_option
@actor_option
def fee_command(names: tuple[str, ...], unpaid: bool, tournament: str | None, actor: str) -> None:
    """Record the entry fee of NAMES as paid: all of them or, on any problem, none."""
    with open_session() as session:
        slug = resolve(session, tournament)
        if len(names) == 1:
            done = [
                players.set_fee(
                    session, tournament=slug, player=names[0], paid=not unpaid, actor=actor
                )
            ]
        else:
            done = players.set_fees(
                session, tournament=slug, players=names, paid=not unpaid, actor=actor
            )
    for p in done:
        click.echo(_line(p))


@player_group.command("checkin")
@click.argument("names", nargs=-1)
@click.option("--late", is_flag=True, help="After the deadline: a late entry, seated next round.")
@click.option(
    "--all",
    "everyone",
    is_flag=True,
    help="Everyone registered, active and not yet checked in (paid, where the fee is due).",
)
@tournament_option
@actor_option
def checkin_command(
    names: tuple[str, ...], late: bool, everyone: bool, tournament: str | None, actor: str
) -> None:
    """Check players in: all of them or, on any problem, none."""
    if everyone == bool(names):
        raise InvalidInput("name the players to check in, or give --all (not both)")
    with open_session() as session:
        slug = resolve(session, tournament)
        chosen = list(names) or players.players_to_check_in(session, tournament=slug)
        if not chosen:
            raise InvalidInput(f"tournament {slug!r}: nobody left to check in")
        done = players.check_in_players(
            session, tournament=slug, players=chosen, late=late, actor=actor
        )
    for p in done:
        click.echo(_line(p))


@player_group.command("rename")
@click.argument("name")
@click.argument("new_name", required=False)
@click.option("--tag", help="A distinguishing tag (club, city…): NAME becomes 'NAME (TAG)'.")
@tournament_option
@actor_option
def rename_command(
    name: str, new_name: str | None, tag: str | None, tournament: str | None, actor: str
) -> None:
    """Rename player NAME to NEW_NAME and/or give them a --tag; past results follow."""
    with open_session() as session:
        p = players.rename_player(
            session,
            tournament=resolve(session, tournament),
            player=name,
            name=new_name,
            tag=tag,
            actor=actor,
        )
    click.echo(f"{name} is now {_line(p)}")


@player_group.command("tag")
@click.argument("name")
@click.argument("tag")
@tournament_option
@actor_option
def tag_command(name: str, tag: str, tournament: str | None, actor: str) -> None:
    """Give NAME a distinguishing TAG: 'Jan Müller' becomes 'Jan Müller (Köln)'."""
    with open_session() as session:
        p = players.rename_player(
            session, tournament=resolve(session, tournament), player=name, tag=tag, actor=actor
        )
    click.echo(f"{name} is now {_line(p)}")


@player_group.command("drop")
@click.argument("name")
@click.option(
    "--kind", type=click.Choice(["drop", "withdraw", "expel"]), default="drop", show_default=True
)
@click.option("--reason", default="", help="Why (kept in the journal and the export).")
@dry_run_option
@tournament_option
@actor_option
def drop_command(
    name: str, kind: str, reason: str, dry_run: bool, tournament: str | None, actor: str
) -> None:
    """Drop, withdraw or expel NAME: not seated in later rounds, past results stay."""
    from agon.services.preview import dry_run as preview

    with open_session() as session:
        slug = resolve(session, tournament)

        def drop() -> PlayerPublic:
            return players.drop_player(
                session, tournament=slug, player=name, kind=kind, reason=reason, actor=actor
            )

        if dry_run:

            def view(s: Session) -> str:
                s.expire_all()
                return "would be: " + _line(players.get_player(s, tournament=slug, name=name))

            shown = preview(session, drop, inspect=view)
            echo_preview(shown.entries, shown.view)
            return
        p = drop()
    click.echo(_line(p))


@player_group.command("sanction")
@click.argument("name")
@click.option(
    "--kind", type=click.Choice(["warning", "penalty"]), default="warning", show_default=True
)
@click.option("--reason", required=True)
@click.option("-r", "--round", "round_number", type=int, help="Round (default: the current one).")
@tournament_option
@actor_option
def sanction_command(
    name: str,
    kind: str,
    reason: str,
    round_number: int | None,
    tournament: str | None,
    actor: str,
) -> None:
    """Record a warning or a penalty for NAME."""
    with open_session() as session:
        p = players.add_sanction(
            session,
            tournament=resolve(session, tournament),
            player=name,
            kind=kind,
            reason=reason,
            round_number=round_number,
            actor=actor,
        )
    click.echo(_line(p))
