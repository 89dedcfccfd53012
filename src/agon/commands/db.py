"""``agon db …``: migrate the database, rebuild the state from the journal, verify it."""

from __future__ import annotations

import click

from agon.commands._common import open_session
from agon.errors import AgonError
from agon.services import journal
from agon.store.db import get_settings, make_engine
from agon.store.migrate import current_revision, head_revision, upgrade


@click.group("db")
def db_group() -> None:
    """The database: migrations, rebuild from the journal, consistency check."""


@db_group.command("upgrade")
def upgrade_command() -> None:
    """Apply the migrations (AGON_DATABASE_URL; default ./var/agon.db)."""
    engine = make_engine(get_settings())
    try:
        upgrade(engine)
        click.echo(f"database at revision {current_revision(engine)}")
    finally:
        engine.dispose()


@db_group.command("current")
def current_command() -> None:
    """Print the database's migration revision and the newest one."""
    engine = make_engine(get_settings())
    try:
        click.echo(f"database {current_revision(engine)}, newest {head_revision(engine)}")
    finally:
        engine.dispose()


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
def verify_command() -> None:
    """Check that every tournament's state equals its journal's replay."""
    with open_session() as session:
        bad = [
            s
            for s in journal.tournament_slugs(session)
            if not journal.verify(session, tournament=s)
        ]
        for slug in journal.tournament_slugs(session):
            click.echo(f"{slug}: {'MISMATCH' if slug in bad else 'ok'}")
    if bad:
        raise AgonError(
            f"state differs from the journal for: {', '.join(bad)} (run agon db rebuild)"
        )
