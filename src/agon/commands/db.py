"""``agon db …``: migrate the database, rebuild the state from the journal, verify it."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from agon.cli import fail_line
from agon.commands._common import open_session
from agon.commands._json import echo_json, json_option
from agon.errors import EXIT_MISMATCH
from agon.services import journal
from agon.store.db import get_settings, make_engine, open_engine
from agon.store.migrate import current_revision, package_head, upgrade


@click.group("db")
def db_group() -> None:
    """The database: migrations, backup and restore, rebuild from the journal, consistency check."""


@db_group.command("upgrade")
def upgrade_command() -> None:
    """Apply the migrations (AGON_DATABASE_URL; default ./var/agon.db)."""
    engine, new = open_engine(get_settings().database_url, create=True)
    try:
        upgrade(engine)
        if new is not None:
            click.echo(f"agon: created database {new}", err=True)
        click.echo(f"database at revision {current_revision(engine)}")
    finally:
        engine.dispose()


@db_group.command("current")
@json_option
def current_command(as_json: bool) -> None:
    """Print the database's migration revision and the newest one."""
    engine = make_engine(get_settings(), create=False)
    try:  # the newest from the migration files' names: Alembic is not imported to read it
        current, newest = current_revision(engine), package_head()
    finally:
        engine.dispose()
    if as_json:
        echo_json({"revision": current, "newest": newest, "up_to_date": current == newest})
    else:
        click.echo(f"database {current}, newest {newest}")


@db_group.command("backup")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def backup_command(file: Path, force: bool) -> None:
    """Back up the whole database into FILE, safe while 'agon serve' runs.

    SQLite: a copy made with SQLite's online backup API. PostgreSQL: pg_dump's custom format
    (pg_dump must be installed).
    """
    from agon.store.backup import backup

    done = backup(get_settings().database_url, file, force=force)
    click.echo(
        f"backed up the {done.backend} database (revision {done.revision}, "
        f"{done.journal_entries} journal entries) to {done.path}"
    )


@db_group.command("restore")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--force", is_flag=True, help="Replace a database that holds data.")
def restore_command(file: Path, force: bool) -> None:
    """Replace the whole database by the backup FILE ('agon db backup').

    The file is checked first; a database that holds data is replaced only with --force.
    """
    from agon.store.backup import restore

    done = restore(get_settings().database_url, file, force=force)
    click.echo(
        f"restored the {done.backend} database {done.path} from {file} (revision {done.revision}, "
        f"{done.journal_entries} journal entries); 'agon db verify' checks it; restart "
        "'agon serve' if it runs (it keeps some state in memory)"
    )


@db_group.command("rebuild")
@click.option("-t", "--tournament", "tournament", help="Only this tournament (default: all).")
def rebuild_command(tournament: str | None) -> None:
    """Rebuild the state of every tournament (or one) from the journal."""
    with open_session() as session:
        slugs = [tournament] if tournament else journal.tournament_slugs(session)
        for slug in slugs:
            applied = journal.rebuild(session, tournament=slug)
            click.echo(f"{slug}: rebuilt from {applied} journal entries")


@db_group.command("verify")
@json_option
def verify_command(as_json: bool) -> None:
    """Check that every tournament's state equals its journal's replay and that its journal's
    hash chain holds, and that every online game's stored log replays by the rules with an intact
    hash chain.

    Exit code 0: all match; 1: a tournament's state differs (run 'agon db rebuild'), its journal's
    chain is broken (each problem named), or a game's log does not replay (its first divergent
    step is named).
    """
    from agon.play.store import check_all
    from agon.services import chain

    with open_session() as session:
        slugs = journal.tournament_slugs(session)
        checked = {s: journal.verify(session, tournament=s) for s in slugs}
        chains = {s: chain.verify_stored(session, s)[2] for s in slugs}
        games = check_all(session)
    bad = [slug for slug, ok in checked.items() if not ok]
    unchained = [slug for slug, problems in chains.items() if problems]
    broken = {game_id: str(d) for game_id, d in games.items() if d is not None}
    if as_json:
        echo_json(
            {
                "ok": not bad and not broken and not unchained,
                "tournaments": [
                    {"slug": slug, "ok": ok, "chain_ok": not chains[slug], "chain": chains[slug]}
                    for slug, ok in checked.items()
                ],
                "games": [
                    {"id": game_id, "ok": game_id not in broken, "divergence": broken.get(game_id)}
                    for game_id in games
                ],
            }
        )
    else:
        for slug, ok in checked.items():
            click.echo(f"{slug}: {'ok' if ok else 'MISMATCH'}")
            for problem in chains[slug]:
                click.echo(f"{slug}: journal chain: {problem}")
        if games:
            click.echo(f"online games: {len(games) - len(broken)} of {len(games)} replay")
        for game_id, divergence in broken.items():
            click.echo(f"game {game_id}: {divergence}")
    if bad:
        fail_line(f"state differs from the journal for: {', '.join(bad)} (run agon db rebuild)")
    if unchained:
        fail_line(
            f"the journal's hash chain is broken for: {', '.join(unchained)} (see 'agon verify "
            "--database')"
        )
    if broken:
        fail_line(f"the log of {len(broken)} online game(s) does not replay: {', '.join(broken)}")
    if bad or broken or unchained:
        sys.exit(EXIT_MISMATCH)
