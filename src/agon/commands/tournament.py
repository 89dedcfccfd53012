"""``agon tournament …``: create, list, show, choose the default, standings, podium, journal, undo."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

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
from agon.commands.fast_reads import tournament_line
from agon.errors import InvalidInput
from agon.services import journal, tournaments
from agon.services.schemas import TournamentCreate, TournamentPublic, TournamentUpdate
from agon.tournament.draws import commitment


def _describe(t: TournamentPublic) -> str:
    limits = f"{t.min_players}–{t.max_players} players" + (
        " (overridden)" if t.players_override else ""
    )
    lines = [
        f"{t.slug}: {t.name}",
        f"  ruleset {t.ruleset}, {limits}, {t.players} registered, {t.rounds} round(s) started",
        f"  seed {t.seed}",
        f"  seed commitment (SHA-256, publish before the event) {commitment(t.seed)}",
    ]
    if t.starts_at:
        lines.append(f"  starts {t.starts_at:%Y-%m-%d %H:%M %Z}")
    if t.checkin_deadline:
        fee = ", fee due" if t.fee_required else ""
        lines.append(f"  check-in{fee} until {t.checkin_deadline:%Y-%m-%d %H:%M %Z}")
    if t.round_minutes:
        lines.append(f"  rounds of {t.round_minutes} minutes")
    return "\n".join(lines)


_RELATIVE = re.compile(r"\+(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?")


def _parse_time(
    value: str | None, *, option: str = "--starts-at", now: datetime | None = None
) -> datetime | None:
    """An ISO time with zone, or a time relative to now: ``+2h``, ``+1d``, ``+1h30m``, ``+90m``.

    Raises:
        InvalidInput: neither form, or an ISO time without zone.
    """
    if value is None:
        return None
    relative = _RELATIVE.fullmatch(value.strip())
    if relative and any(relative.groups()):
        days, hours, minutes = (int(g or 0) for g in relative.groups())
        start = (now or datetime.now(UTC)).replace(second=0, microsecond=0)
        return start + timedelta(days=days, hours=hours, minutes=minutes)
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise InvalidInput(
            f"{option} {value!r}: use ISO time, e.g. 2026-03-18T10:00+01:00, "
            "or a time from now, e.g. +2h or +1d"
        ) from None
    if moment.tzinfo is None:
        raise InvalidInput(f"{option} {value!r}: add the time zone, e.g. +01:00")
    return moment


@click.group("tournament")
def tournament_group() -> None:
    """Create and run tournaments (several per database)."""


@tournament_group.command("create")
@click.argument("slug")
@click.option("--name", required=True, help="The tournament's name.")
@click.option("--ruleset", required=True, help="bonn-2018, ludolimpico-2015, … or a TOML file.")
@click.option("--seed", help="Seed of every draw (default: drawn once at random and recorded).")
@click.option("--min-players", type=int, help="Override the ruleset's minimum (explicitly).")
@click.option("--max-players", type=int, help="Override the ruleset's maximum (explicitly).")
@click.option(
    "--starts-at",
    help="Start time: ISO with zone, or from now (+2h, +1d): check-in closes relative to it.",
)
@click.option("--date", "date_", help="Date, as printed in the event file.")
@click.option("--location")
@click.option("--director")
@click.option("--use/--no-use", default=True, help="Make it the default tournament.")
@actor_option
def create_command(
    slug: str,
    name: str,
    ruleset: str,
    seed: str | None,
    min_players: int | None,
    max_players: int | None,
    starts_at: str | None,
    date_: str | None,
    location: str | None,
    director: str | None,
    use: bool,
    actor: str,
) -> None:
    """Create tournament SLUG from a ruleset."""
    info = {k: v for k, v in (("date", date_), ("location", location), ("director", director)) if v}
    data = TournamentCreate(
        slug=slug,
        name=name,
        ruleset=ruleset,
        seed=seed,
        min_players=min_players,
        max_players=max_players,
        starts_at=_parse_time(starts_at),
        info=info,
    )
    with open_session(create=True) as session:
        created = tournaments.create_tournament(session, data=data, actor=actor)
        if use:
            tournaments.set_default_tournament(session, slug=slug)
    click.echo("created " + _describe(created))


@tournament_group.command("edit")
@click.option("--name", help="The tournament's new name.")
@click.option("--starts-at", help="New start time, ISO with zone, e.g. 2026-03-18T11:00+01:00.")
@click.option(
    "--checkin-deadline", help="Check-in (and fee, where due) closes then; ISO with zone."
)
@click.option("--min-players", type=int, help="New minimum number of players.")
@click.option("--max-players", type=int, help="New maximum number of players.")
@click.option("--round-minutes", type=int, help="The round clock, in minutes (1–600).")
@click.option("--ruleset-round-minutes", is_flag=True, help="Use the ruleset's round clock again.")
@tournament_option
@actor_option
def edit_command(
    name: str | None,
    starts_at: str | None,
    checkin_deadline: str | None,
    min_players: int | None,
    max_players: int | None,
    round_minutes: int | None,
    ruleset_round_minutes: bool,
    tournament: str | None,
    actor: str,
) -> None:
    """Change a tournament after its creation (kept in the journal; undo restores it)."""
    data = TournamentUpdate(
        name=name,
        starts_at=_parse_time(starts_at),
        checkin_deadline=_parse_time(checkin_deadline, option="--checkin-deadline"),
        min_players=min_players,
        max_players=max_players,
        round_minutes=round_minutes,
        clear_round_minutes=ruleset_round_minutes,
    )
    with open_session() as session:
        edited = tournaments.edit_tournament(
            session, slug=resolve(session, tournament), data=data, actor=actor
        )
    click.echo("edited " + _describe(edited))


@tournament_group.command("list")
@json_option
def list_command(as_json: bool) -> None:
    """List the tournaments in the database."""
    with open_session() as session:
        found = tournaments.list_tournaments(session)
    if as_json:
        echo_json({"tournaments": [_tournament_json(t) for t in found]})
        return
    for t in found:
        click.echo(tournament_line(t.slug, t.name, t.ruleset, t.players, t.rounds))


def _tournament_json(t: TournamentPublic) -> dict[str, object]:
    """A tournament for ``--json``: its fields and the seed's commitment."""
    return {**jsonable(t), "commitment": commitment(t.seed)}


@tournament_group.command("show")
@tournament_option
@json_option
def show_command(tournament: str | None, as_json: bool) -> None:
    """Show a tournament."""
    from agon.services import exchange

    with open_session() as session:
        slug = resolve(session, tournament)
        found = tournaments.get_tournament(session, slug=slug)
        status = exchange.tournament_status(session, slug=slug)
        if as_json:
            echo_json({**_tournament_json(found), "status": jsonable(status)})
            return
        click.echo(_describe(found))
        click.echo(f"  {status.caption.replace('standings after', 'rounds closed:', 1)}")
        for line in exchange.describe_status(status):
            click.echo(f"  {line}")


@tournament_group.command("use")
@click.argument("slug")
def use_command(slug: str) -> None:
    """Remember SLUG as the tournament to use without -t."""
    with open_session() as session:
        tournaments.set_default_tournament(session, slug=slug)
    click.echo(f"using tournament {slug}")


@tournament_group.command("standings")
@tournament_option
@click.option(
    "--json", "as_json", is_flag=True, help="As JSON (the same as 'agon standings --json')."
)
@click.option("--csv", "as_csv", is_flag=True, help="As CSV, for national-series organizers.")
@click.option("--explain", nargs=2, metavar="PLAYER PLAYER", help="Why one is above the other.")
def standings_command(
    tournament: str | None, as_json: bool, as_csv: bool, explain: tuple[str, str] | None
) -> None:
    """Standings now (every entered result counts; pending ones too)."""
    from agon.commands.standings import standings_json, standings_table
    from agon.services import exchange

    with open_session() as session:
        slug = resolve(session, tournament)
        result = exchange.standings(session, tournament=slug)
        if explain:
            click.echo(result.explain(*explain))
        elif as_csv:
            click.echo(exchange.standings_csv(session, tournament=slug), nl=False)
        elif as_json:
            click.echo(json.dumps(standings_json(result), ensure_ascii=False, indent=2))
        elif not result.rows:
            click.echo("no players registered yet")
        else:
            t = tournaments.get_tournament(session, slug=slug)
            status = exchange.tournament_status(session, slug=slug)
            click.echo(standings_table(result, f"{t.name} — {status.caption}"))
            for line in exchange.describe_status(status):
                click.echo(line)


@tournament_group.command("podium")
@tournament_option
@json_option
def podium_command(tournament: str | None, as_json: bool) -> None:
    """The final ranking: the final decides places 1–5 (medals for the top three).

    A ruleset without a final (BONN-SPIELT, the German championship): the top three of the
    standings after the last round, shared places shown as such.
    """
    from agon.services import exchange

    with open_session() as session:
        slug = resolve(session, tournament)
        ranking = exchange.final_ranking(session, tournament=slug)
    if as_json:
        echo_json(
            {
                "tournament": slug,
                "final": jsonable(ranking.final),
                "others": [{"rank": rank, "player": name} for rank, name in ranking.others],
            }
        )
        return
    for place in ranking.final:
        medal = f"  {place.medal}" if place.medal else ""
        tie = f" (shared by {place.tied})" if place.tied > 1 else ""
        click.echo(f"{place.place}. {place.player}  {place.detail}{tie}{medal}")
    for rank, name in ranking.others:
        click.echo(f"{rank}. {name}")


@tournament_group.command("journal")
@tournament_option
@json_option
def journal_command(tournament: str | None, as_json: bool) -> None:
    """Every change: id, time, who, what (undone ones marked)."""
    with open_session() as session:
        slug = resolve(session, tournament)
        entries = journal.list_journal(session, tournament=slug)
    if as_json:
        echo_json({"tournament": slug, "entries": jsonable(entries)})
        return
    for e in entries:
        mark = " [undone]" if e.undone else ""
        click.echo(f"{e.id:>5}  {e.at:%Y-%m-%d %H:%M:%S}  {e.actor:<12} {e.action}{mark}")


@tournament_group.command("undo")
@dry_run_option
@tournament_option
@actor_option
def undo_command(dry_run: bool, tournament: str | None, actor: str) -> None:
    """Undo the last change (the undo is recorded in the journal too)."""
    from agon.services.preview import Preview
    from agon.services.preview import dry_run as preview

    with open_session() as session:
        slug = resolve(session, tournament)
        if dry_run:
            shown: Preview[str] = preview(
                session, lambda: journal.undo(session, tournament=slug, actor=actor)
            )
            echo_preview(
                shown.entries,
                "\n".join(
                    f"would undo entry {e.payload['undoes']} ({e.payload['action']}): "
                    f"{_short(e.before)} → {_short(e.after)}"
                    for e in shown.entries
                ),
            )
            return
        entry = journal.undo(session, tournament=slug, actor=actor)
    click.echo(f"undid entry {entry.undoes} ({entry.payload['action']}) as entry {entry.id}")


def _short(value: object, limit: int = 160) -> str:
    """A journal state in one line, cut at ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@click.command("export")
@tournament_option
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write to this file (default: standard output).",
)
@click.option("--csv", "as_csv", is_flag=True, help="Standings as CSV instead of the event file.")
@click.option(
    "--journal",
    "as_journal",
    is_flag=True,
    help="The whole journal (to move the event: open rounds, pending tables and undo included).",
)
def export_command(
    tournament: str | None, output: Path | None, as_csv: bool, as_journal: bool
) -> None:
    """Write the event file (JSON; read by 'agon standings' and 'agon import'), the journal
    (--journal: to move the event to another database) or CSV standings."""
    from agon.services import exchange

    if as_csv and as_journal:
        raise click.UsageError("give --csv or --journal, not both")
    notes: list[str] = []
    with open_session() as session:
        slug = resolve(session, tournament)
        if as_csv:
            text = exchange.standings_csv(session, tournament=slug)
        elif as_journal:
            from agon.services import moving

            doc = moving.export_journal(session, tournament=slug)
            text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
            if doc.get("online_rounds"):
                rounds = ", ".join(str(n) for n in doc["online_rounds"])
                notes.append(
                    f"the online games of round(s) {rounds} (their move logs) are not carried: "
                    "finish them before moving the event"
                )
            summary = (
                f"{slug}: {len(doc['journal'])} journal entries, state digest "
                f"{doc['projection_digest'][:12]}…"
            )
        else:
            event = exchange.export_event(session, tournament=slug)
            notes.extend(event.get("notes", []))
            text = json.dumps(event, ensure_ascii=False, indent=2) + "\n"
    for note in notes:
        click.echo(f"agon: note: {note}", err=True)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"wrote {output}" + (f" ({summary})" if as_journal else ""))


@click.command("import")
@click.argument("event_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--slug",
    "--as",
    "slug",
    metavar="SLUG",
    help="Slug of the new tournament (an event file needs one; a journal keeps its own "
    "unless given).",
)
@actor_option
def import_command(event_file: Path, slug: str | None, actor: str) -> None:
    """Create a tournament from an event file (players, rounds, results) or from a journal
    written by 'agon export --journal' (the whole event, replayed)."""
    from agon.services import exchange, moving
    from agon.tournament.safeload import load_document

    data = load_document(event_file)
    if slug is None and not moving.is_journal_document(data):
        raise click.UsageError("an event file needs --slug SLUG (the new tournament's slug)")
    with open_session(create=True) as session:
        if moving.is_journal_document(data):
            done = moving.import_journal(session, path=event_file, slug=slug)
            ids = (
                "journal ids kept"
                if done["ids_kept"]
                else "journal ids renumbered (this database has entries of its own)"
            )
            click.echo(
                f"imported {done['slug']}: {done['entries']} journal entries replayed "
                f"({done['effective']} in effect), state matches the export "
                f"({done['digest'][:12]}…); {ids}"
            )
            return
        assert slug is not None
        t = exchange.import_event(session, slug=slug, path=event_file, actor=actor)
    click.echo(f"imported {t.slug}: {t.players} players, {t.rounds} round(s)")
