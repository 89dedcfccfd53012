"""The ``agon`` command: a thin face over the domain and service layers.

Sub-commands live next to what they drive and are loaded lazily from :data:`SUBCOMMANDS`, so
``agon --help`` stays fast and each capability owns its own command module.  Every
:class:`agon.errors.AgonError` becomes one line on stderr and exit code 2 (3 for a
:class:`~agon.errors.Conflict`); the codes are listed in docs/cli.md.
"""

from __future__ import annotations

import gc
import importlib
import re
import sys
from collections.abc import Sequence
from typing import Any

import click

from agon import __version__
from agon.errors import (
    EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED,
    AgonError,
    InvalidInput,
)
from agon.extras import missing_extra_message

#: command name -> "module:attribute" of a click command or group.
SUBCOMMANDS: dict[str, str] = {
    "standings": "agon.commands.standings:standings_command",
    "validate": "agon.commands.standings:validate_command",
    "print": "agon.commands.printing:group",
    "7w": "agon.commands.seven_wonders:group",
    "serve": "agon.web.cli:serve",
    "secret": "agon.web.cli:secret_group",
    "desk": "agon.web.cli:desk_group",
    "schedule": "agon.commands.schedule:schedule_command",
    "verify": "agon.commands.verify:verify_command",
    "auction": "agon.commands.auction:auction_command",
    "tournament": "agon.commands.tournament:tournament_group",
    "player": "agon.commands.player:player_group",
    "registration": "agon.commands.registration:registration_group",
    "round": "agon.commands.round:round_group",
    "result": "agon.commands.results:result_group",
    "export": "agon.commands.tournament:export_command",
    "import": "agon.commands.tournament:import_command",
    "db": "agon.commands.db:db_group",
    "ocw": "agon.commands.ocw:group",
    "rating": "agon.commands.ratings:rating_command",
    "series": "agon.commands.ratings:series_command",
    "play": "agon.commands.play:play_group",
    "profile": "agon.commands.profile:profile_group",
    "user": "agon.commands.people:user_group",
    "org": "agon.commands.people:org_group",
    "venue": "agon.commands.venue:venue_group",
    "sync": "agon.commands.sync:sync_group",
}


_NOT_TEXT = re.compile("[\x00\ud800-\udfff]")


def one_line(message: str) -> str:
    """``message`` as one printable line: newlines shown as ``⏎``, invalid Unicode escaped."""
    text = " ⏎ ".join(part for part in str(message).splitlines() if part.strip()) or "error"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def fail_line(message: str) -> None:
    click.echo(f"agon: error: {one_line(message)}", err=True)


#: command name -> its one-line help, so that ``agon --help`` imports no sub-command at all.
SHORT_HELP: dict[str, str] = {
    "standings": "Print the standings of EVENT_FILE by its ruleset.",
    "validate": "Check EVENT_FILE without scoring it.",
    "print": "PDF printouts (A4) of an event file, in en/de/it.",
    "7w": "7 Wonders (first edition base game): score sheets, play,...",
    "serve": "Serve the director's desk, the table pages and the public...",
    "schedule": 'Plan every round before the first (Bonn: "vorher...',
    "verify": "Check a published schedule, event or game (and/or commitment)...",
    "auction": "Run the wonder auction of one table and print who got which...",
    "tournament": "Create, edit and run tournaments (several per database).",
    "player": "Register players; record fees, check-in, drops, sanctions.",
    "round": "Start, show and close rounds; seat the final.",
    "result": "Enter, correct and confirm results per table.",
    "export": "Write the event file (JSON), the journal (--journal) or CSV...",
    "import": "Create a tournament from an event file (players, rounds,...",
    "db": "The database: migrations, backup and restore, rebuild from...",
    "ocw": "One Card Wonder (Einkartenwunder): play, simulate, balance.",
    "rating": "Rate players over EVENT... in the order given...",
    "series": "The standings of a series: points per place in each...",
    "secret": "The web app's signing key: where it is kept; rotate it.",
    "play": "Online games: export a finished game for 'agon verify'.",
    "desk": "The director's desk (the web app's /desk) from the machine that...",
    "profile": "Player profiles: one person across events (ratings and series...",
    "registration": "Online registration before the day: capacity, waiting list...",
    "user": "People who log in to the web app, and their roles.",
    "org": "Organisations (clubs, federations): their tournaments and...",
    "venue": "The venue's Wi-Fi network for the phones (printed as a QR code).",
    "sync": "Publish this laptop's event to a hosted agon; its sync tokens.",
}


class LazyGroup(click.Group):
    """A click group whose sub-commands are imported only when used.

    :meth:`main` is the one error contract of the command line, for the console script and for
    ``click.testing.CliRunner`` alike: an :class:`~agon.errors.AgonError` or a usage error prints
    ``agon: error: …`` as ONE line on stderr and exits with the error's code (2 for bad input,
    3 for a :class:`~agon.errors.Conflict`); a file the operating system refuses (a name too
    long, no permission) is reported as bad input.  Ctrl-C exits 130, a closed pipe 141.
    """

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`SHORT_HELP`, importing only commands missing there."""
        rows = []
        for name in self.list_commands(ctx):
            text = SHORT_HELP.get(name)
            if text is None:
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                text = command.get_short_help_str(limit=formatter.width - 6 - len(name))
            rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *SUBCOMMANDS])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, attr = target.split(":")
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:  # its pip extra is not installed
            message = missing_extra_message(exc, [cmd_name])
            if message is None:
                raise
            return _needs_extra(cmd_name, message)
        command = getattr(module, attr)
        assert isinstance(command, click.Command)
        resume_gc()
        return command

    def main(
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if args is None:
            args = sys.argv[1:]
        for i, arg in enumerate(args, start=1):
            if _NOT_TEXT.search(arg):
                shown = arg[:40].encode("utf-8", "backslashreplace").decode("utf-8")
                fail_line(f"argument {i} ({shown!r}) is not valid UTF-8 text or holds a NUL")
                sys.exit(EXIT_BAD_INPUT)
        try:
            return super().main(
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=False,
                **extra,
            )
        except AgonError as exc:
            fail_line(str(exc))
            sys.exit(exc.exit_code)
        except ModuleNotFoundError as exc:  # an optional part (pip extra) is not installed
            message = missing_extra_message(exc, list(args))
            if message is None:
                raise
            fail_line(message)
            sys.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Abort, KeyboardInterrupt) as exc:
            if isinstance(exc.__cause__ or exc.__context__, EOFError):  # a prompt met the end
                fail_line("the input ended while a question was waiting for an answer")
                sys.exit(EXIT_BAD_INPUT)
            click.echo("agon: aborted", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.UsageError as exc:
            command = exc.ctx.command_path if exc.ctx is not None else "agon"
            fail_line(f"{exc.format_message()} (see '{command} --help')")
            sys.exit(EXIT_BAD_INPUT)
        except click.ClickException as exc:
            fail_line(exc.format_message())
            sys.exit(2 if exc.exit_code in (1, 2) else exc.exit_code)
        except click.exceptions.Exit as exc:
            sys.exit(exc.exit_code)
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                sys.exit(EXIT_BROKEN_PIPE)
            where = f"{exc.filename}: " if exc.filename else ""
            fail_line(f"{where}{exc.strerror or exc}")
            sys.exit(EXIT_BAD_INPUT)
        except Exception as exc:
            message = _database_fault(exc)
            if message is None:
                raise
            fail_line(message)
            sys.exit(EXIT_BAD_INPUT)


def _database_fault(exc: Exception) -> str | None:
    """The one line for a database that cannot be reached (PostgreSQL down, a closed port),
    :func:`agon.store.db.database_fault`; ``None`` for any other error (and without SQLAlchemy
    loaded, none can be one)."""
    if "sqlalchemy" not in sys.modules:
        return None
    import os

    from agon.store.db import database_fault

    return database_fault(exc, os.environ.get("AGON_DATABASE_URL") or None)


def _needs_extra(name: str, message: str) -> click.Command:
    """A stand-in for a command whose extra is missing: any use of it prints the one line naming
    the pip command (exit code 2)."""

    def refuse(args: tuple[str, ...]) -> None:
        raise InvalidInput(message)

    return click.Command(
        name,
        callback=refuse,
        params=[click.Argument(["args"], nargs=-1, type=click.UNPROCESSED)],
        context_settings={"ignore_unknown_options": True},
        add_help_option=False,
        short_help=f"(needs {message.partition(': ')[2]})",
    )


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="agon")
def cli() -> None:
    """Run 7 Wonders-family tournaments and play the games by the rules."""


#: The garbage collector is paused while a command starts (see :func:`pause_gc`).
_GC_PAUSED: list[bool] = []


def pause_gc() -> None:
    """Pause the garbage collector while the command starts.

    Importing a sub-command (SQLAlchemy, the models, the rulesets) builds hundreds of thousands
    of objects that all stay alive; every automatic collection meanwhile walks them for nothing
    (about a sixth of a director command's CPU time). :func:`resume_gc` freezes what start-up
    built (later collections skip it) and turns the collector back on, so a long-running
    command (``agon serve``, simulations) collects as usual.
    """
    if gc.isenabled():
        gc.disable()
        _GC_PAUSED.append(True)


def resume_gc() -> None:
    """Undo :func:`pause_gc`: freeze the start-up objects and collect again (no-op otherwise)."""
    if _GC_PAUSED:
        _GC_PAUSED.clear()
        gc.freeze()
        gc.enable()


def main(argv: list[str] | None = None) -> Any:
    """Entry point of the console script: maps input errors to one line and exit code 2.

    Run as the process's own command line (no ``argv``: the console script, ``python -m agon``)
    the garbage collector is paused until the sub-command is imported (:func:`pause_gc`); called
    with ``argv`` (tests, scripts embedding agon) nothing about the collector changes.
    """
    if argv is None:
        pause_gc()
    try:
        return cli.main(args=argv, prog_name="agon")
    finally:
        resume_gc()
