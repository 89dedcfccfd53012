"""What every director command shares: the database session, ``-t/--tournament``, ``--actor``."""

from __future__ import annotations

import getpass
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

F = TypeVar("F", bound=Callable[..., Any])


@contextmanager
def open_session(*, migrate: bool = True, create: bool = False) -> Iterator[Session]:
    """A session on ``AGON_DATABASE_URL`` (default ``./var/agon.db``), migrated on first use.

    Only a command that makes something (``create``: a new tournament, an import) may create the
    database, and it says so on stderr; any other stops with "no database at PATH" (exit 2).
    """
    from agon.store.db import get_settings, make_session_factory, open_engine
    from agon.store.migrate import ensure_current

    settings = get_settings()
    engine, new = open_engine(settings.database_url, create=create)
    try:
        if migrate:
            ensure_current(engine)
        if new is not None:
            click.echo(f"agon: created database {new}", err=True)
        with make_session_factory(engine)() as session:
            yield session
    finally:
        engine.dispose()


def default_actor() -> str:
    """Who makes the change: ``AGON_ACTOR``, else the login name."""
    actor = os.environ.get("AGON_ACTOR")
    if actor:
        return actor
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "director"


def tournament_option(fn: F) -> F:
    """``-t/--tournament SLUG`` (else ``AGON_TOURNAMENT``, else the remembered default)."""
    return click.option(
        "-t",
        "--tournament",
        "tournament",
        envvar="AGON_TOURNAMENT",
        metavar="SLUG",
        help="The tournament (default: the one chosen with 'agon tournament use').",
    )(fn)


def _check_actor(ctx: click.Context, param: click.Parameter, value: str) -> str:
    from agon.tournament.names import check_name

    return check_name(value, what="actor")


def actor_option(fn: F) -> F:
    return click.option(
        "--actor",
        default=default_actor,
        callback=_check_actor,
        show_default="$AGON_ACTOR or your login name",
        help="Who makes the change (kept in the journal).",
    )(fn)


def dry_run_option(fn: F) -> F:
    """``--dry-run``: show what the command would change, change nothing."""
    return click.option(
        "--dry-run",
        is_flag=True,
        help="Show what would change and change nothing (the same checks run).",
    )(fn)


def echo_preview(entries: Sequence[Any], view: str | None) -> None:
    """Print a dry run: the would-be state, then the journal entries it would write."""
    if view:
        click.echo(view)
    for entry in entries:
        click.echo(f"would record: {entry.action}")
    click.echo("dry run: nothing was changed")


def resolve(session: Session, tournament: str | None) -> str:
    from agon.services.tournaments import default_tournament

    return tournament or default_tournament(session)
