"""``agon sync``: publish a laptop's event to a hosted agon (issue 29; docs/director-guide.md).

Other tools rely on these exact forms::

    agon sync token create --organisation ORG [--label TEXT]     (on the hosted side)
    agon sync token list [--json]
    agon sync token revoke ID
    agon sync push --to URL --tournament SLUG --token-file FILE [--batch N]  (on the laptop)
    agon sync watch --to URL --tournament SLUG --token-file FILE [--every SECONDS] [--batch N]

``push`` sends what the hosted copy misses and stops; ``watch`` keeps pushing every few seconds,
says once when the link is lost and once when it is back, and stops cleanly on Ctrl-C or
SIGTERM. Exit codes: 0 done (or stopped), 1 the copies diverged (nothing was overwritten), 2 bad
input or a refused token, 4 (``push`` only) the hosted agon cannot be reached.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from agon.commands._common import open_session
from agon.commands._json import echo_json, json_option

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

#: ``agon sync push`` exits with this when the hosted agon cannot be reached.
EXIT_UNREACHABLE = 4
#: The most a token file may hold.
TOKEN_FILE_BYTES = 4096


@click.group("sync")
def sync_group() -> None:
    """Publish this laptop's event to a hosted agon; its sync tokens."""


@sync_group.group("token")
def token_group() -> None:
    """Sync tokens (on the hosted side): one per organiser and organisation."""


@token_group.command("create")
@click.option("--organisation", "organisation", metavar="ORG", required=True, help="For ORG.")
@click.option("--label", default="", help="Whose or what for (shown by 'list').")
def token_create_command(organisation: str, label: str) -> None:
    """Issue a sync token for ORG; it is printed once (only its hash is kept)."""
    from agon.services import sync

    with open_session() as session:
        info, token = sync.create_token(session, organisation=organisation, label=label)
    click.echo(token)
    click.echo(
        f"sync token {info.id} for {info.organisation}: shown only now, keep it in a file",
        err=True,
    )


@token_group.command("list")
@json_option
def token_list_command(as_json: bool) -> None:
    """Every sync token: its id, organisation, label, whether revoked."""
    from agon.services import sync

    with open_session() as session:
        tokens = sync.list_tokens(session)
    if as_json:
        echo_json({"tokens": [t.as_dict() for t in tokens]})
        return
    for t in tokens:
        state = "revoked" if t.revoked_at is not None else "active"
        click.echo(f"{t.id}\t{t.organisation}\t{state}\t{t.label}")


@token_group.command("revoke")
@click.argument("token_id", metavar="ID", type=click.IntRange(1, 2**31 - 1))
def token_revoke_command(token_id: int) -> None:
    """Revoke the sync token ID: pushes with it are refused from now on."""
    from agon.services import sync

    with open_session() as session:
        info = sync.revoke_token(session, token_id=token_id)
    click.echo(f"sync token {info.id} ({info.organisation}): revoked")


def _push_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    fn = click.option(
        "--token-file",
        required=True,
        type=click.Path(dir_okay=False, path_type=Path),
        metavar="FILE",
        help="The sync token (its first line), from the hosted side's organiser.",
    )(fn)
    fn = click.option(
        "--batch",
        type=click.IntRange(1, 200),
        default=100,
        show_default=True,
        metavar="N",
        help="Entries per request (each one transaction on the hosted side).",
    )(fn)
    fn = click.option(
        "--tournament", "-t", required=True, metavar="SLUG", help="The event to publish."
    )(fn)
    return click.option(
        "--to", "to", required=True, metavar="URL", help="The hosted agon, e.g. https://…"
    )(fn)


def _token(path: Path) -> str:
    from agon.services.sync_client import read_token
    from agon.tournament.safeload import read_text

    return read_token(read_text(path, what="token file", limit=TOKEN_FILE_BYTES), str(path))


@contextmanager
def _local() -> Iterator[Callable[[], Session]]:
    """A factory of sessions on the local database (``AGON_DATABASE_URL``)."""
    from agon.store.db import get_settings, make_session_factory, open_engine
    from agon.store.migrate import ensure_current

    engine, _new = open_engine(get_settings().database_url, create=False)
    try:
        ensure_current(engine)
        yield make_session_factory(engine)
    finally:
        engine.dispose()


@sync_group.command("push")
@_push_options
def push_command(to: str, tournament: str, token_file: Path, batch: int) -> None:
    """Send what the hosted copy of the event misses, then stop."""
    from agon.services.sync_client import LinkLost, endpoint, push

    endpoint(to, tournament)  # a bad address or slug: one line, before anything else
    token = _token(token_file)
    with _local() as sessions:
        try:
            result = push(sessions, to=to, tournament=tournament, token=token, batch=batch)
        except LinkLost as exc:
            click.echo(f"agon: error: the link is lost: {exc}", err=True)
            sys.exit(EXIT_UNREACHABLE)
    click.echo(
        f"{tournament}: sent {result.sent} entries; the hosted copy holds {result.seq}, "
        f"last hash {result.hash[:12]}"
    )


class _Stop:
    """Set by Ctrl-C or SIGTERM: the watch ends after the step it is in."""

    def __init__(self) -> None:
        self.event = threading.Event()

    def __call__(self, signum: int, frame: Any) -> None:
        self.event.set()


@sync_group.command("watch")
@_push_options
@click.option(
    "--every",
    type=click.FloatRange(0.2, 3600),
    default=3.0,
    show_default=True,
    metavar="SECONDS",
    help="Push this often.",
)
def watch_command(to: str, tournament: str, token_file: Path, batch: int, every: float) -> None:
    """Keep pushing the event to the hosted agon until Ctrl-C or SIGTERM; rides out a lost link."""
    from sqlalchemy.exc import OperationalError

    from agon.errors import NotFound
    from agon.services.sync_client import LinkLost, endpoint, push

    endpoint(to, tournament)
    token = _token(token_file)
    stop = _Stop()
    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    lost = waiting = False
    click.echo(f"{tournament}: watching, pushing to {to} every {every:g} s (Ctrl-C stops)")
    try:
        with _local() as sessions:
            while not stop.event.is_set():
                try:
                    result = push(sessions, to=to, tournament=tournament, token=token, batch=batch)
                except NotFound as exc:  # not created yet on this laptop: wait for it
                    if not waiting:
                        click.echo(f"{exc}; waiting for it", err=True)
                        waiting = True
                except (LinkLost, OperationalError) as exc:
                    if not lost:
                        reason = str(exc).splitlines()[0][:200]
                        click.echo(f"{tournament}: link lost ({reason}); trying again", err=True)
                        lost = True
                else:
                    waiting = False
                    if lost:
                        click.echo(f"{tournament}: link back", err=True)
                        lost = False
                    if result.sent:
                        click.echo(
                            f"{tournament}: sent {result.sent} entries; the hosted copy "
                            f"holds {result.seq}"
                        )
                stop.event.wait(every)
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    click.echo(f"{tournament}: stopped watching")
