"""``agon db …``: migrate the database, rebuild the state from the journal, verify it."""

from __future__ import annotations

import sys

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
    """The database: migrations, rebuild from the journal, consistency check."""


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
    """Check that every tournament's state equals its journal's replay.

    Exit code 0: all match; 1: a tournament's state differs (run 'agon db rebuild').
    """
    with open_session() as session:
        checked = {
            s: journal.verify(session, tournament=s) for s in journal.tournament_slugs(session)
        }
    bad = [slug for slug, ok in checked.items() if not ok]
    if as_json:
        echo_json(
            {
                "ok": not bad,
                "tournaments": [{"slug": slug, "ok": ok} for slug, ok in checked.items()],
            }
        )
    else:
        for slug, ok in checked.items():
            click.echo(f"{slug}: {'ok' if ok else 'MISMATCH'}")
    if bad:
        fail_line(f"state differs from the journal for: {', '.join(bad)} (run agon db rebuild)")
        sys.exit(EXIT_MISMATCH)
